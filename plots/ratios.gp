# The paired ratios of one workload, the numbers the stars come from: each
# comparison (declared ones first, in blue: Holm-adjusted p, '*' when
# resolved; the others grey: marginal p, not adjusted) as its ratio with
# its order-statistic interval on a log axis, 1 = no change; beside each,
# the interval's level, its units and its test.
load plotsdir.'/common.gp'
load spec

do for [kind in "png svg"] {
	eval terminal_command(kind, 1300, 160 + 26 * nrows)
	set title chart_title font ',12'
	set yrange [nrows - 0.4 : -0.6]
	set logscale x
	set format x "%g"
	set border 1
	set grid noytics xtics
	set arrow 1 from 1, graph 0 to 1, graph 1 nohead lt -1 lw 1.5
	set ytics scale 0
	set xlabel "paired ratio (log scale)"
	set offsets graph 0.05, graph 0.6, 0, 0
	set lmargin 52
	plot ratiofile using 2:1:3:4:5:ytic(7) with xerrorbars lc rgb variable pt 7 ps 0.8 lw 1.5 notitle, \
	     '' using 4:1:6 with labels left offset char 1, 0 font ',8' notitle
	set output
}
