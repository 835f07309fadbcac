# Migrations against throughput: one point per combination at its two
# medians, with both order-statistic intervals (at the levels the bar charts
# print) as error bars, labelled with its name; with fewer than 8 runs in a
# cell, each of its runs as an open circle in the combination's colour.
load plotsdir.'/common.gp'
load spec

do for [kind in "png svg"] {
	eval terminal_command(kind, 860, 620)
	set title chart_title font ',12'
	set xlabel 'task migrations per run (median and interval; circles: runs)'
	set ylabel ylabel_text.' (median and interval)'
	set grid xtics ytics
	set offsets graph 0.08, graph 0.2, graph 0.08, graph 0.08
	# runsfile: every run (x y rgb) of the cells with fewer than 8 runs, or ""
	if (strlen(runsfile) > 0) {
		plot runsfile using 1:2:3 with points pt 6 ps 0.8 lc rgb variable notitle, \
		     datafile using 1:4:2:3:5:6:7 with xyerrorbars lc rgb variable pt 7 ps 1.3 lw 1.5 notitle, \
		     '' using 1:4:8 with labels left offset char 1, 0.8 notitle
	} else {
		plot datafile using 1:4:2:3:5:6:7 with xyerrorbars lc rgb variable pt 7 ps 1.3 lw 1.5 notitle, \
		     '' using 1:4:8 with labels left offset char 1, 0.8 notitle
	}
	set output
}
