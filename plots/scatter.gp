# Migrations (per second of the run) against throughput: one point per
# combination at its two medians, in its colour, with both order-statistic
# intervals as error bars, labelled with its name; with fewer than 8 runs
# in a cell, each of its runs as an open circle in the combination's
# colour. Both axes are fitted to the data (neither starts at 0); n, the
# level and the run length are in the title.
load plotsdir.'/common.gp'
load spec

do for [kind in "png svg"] {
	eval terminal_command(kind, 900, 640)
	set title full_title(chart_title, chart_subtitle) font ',11'
	set xlabel xlabel_text
	set ylabel ylabel_text
	set grid xtics ytics
	set xrange [xmin : xmax]
	set yrange [ymin : ymax]
	eval xtics_cmd
	eval ytics_cmd
	set lmargin 14
	# runsfile: every run (x y rgb) of the cells with fewer than 8 runs, or ""
	if (strlen(runsfile) > 0) {
		plot runsfile using 1:2:3 with points pt 6 ps 0.8 lc rgb variable notitle, \
		     datafile using 1:4:2:3:5:6:7 with xyerrorbars lc rgb variable pt 7 ps 1.4 lw 2 notitle, \
		     '' using 1:4:8 with labels left offset char 1, 0.8 notitle
	} else {
		plot datafile using 1:4:2:3:5:6:7 with xyerrorbars lc rgb variable pt 7 ps 1.4 lw 2 notitle, \
		     '' using 1:4:8 with labels left offset char 1, 0.8 notitle
	}
	set output
}
