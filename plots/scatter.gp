# Migrations against throughput: one point per combination at its two
# medians, with both 95% CIs as error bars, labelled with its name.
load plotsdir.'/common.gp'
load spec

do for [kind in "png svg"] {
	eval terminal_command(kind, 860, 620)
	set title chart_title font ',12'
	set xlabel 'task migrations per run (median, 95% CI)'
	set ylabel ylabel_text.' (median, 95% CI)'
	set grid xtics ytics
	set offsets graph 0.08, graph 0.2, graph 0.08, graph 0.08
	plot datafile using 1:4:2:3:5:6:7 with xyerrorbars lc rgb variable pt 7 ps 1.3 lw 1.5 notitle, \
	     '' using 1:4:8 with labels left offset char 1, 0.8 notitle
	set output
}
