# One panel per metric, one column per combination in its colour: counts
# (pulls, migrations) as bars from 0, per second of the run; throughput
# and latency as points on an axis fitted to the data (pfitted; the
# subtitle names the axes that do not start at 0). Each is the median of the combination's runs with
# the order-statistic interval of the median as whiskers; n, the interval's
# level and the run length are in the title, once (a combination with
# fewer runs says so under the axis). A cell with fewer than 8 runs has
# every run drawn as an open circle. A panel whose medians and intervals
# are 0 in every combination is not in the spec (the report says which
# were left out).
load plotsdir.'/common.gp'
load spec

# narrower columns when a factorial brings many cells
per_combo = ncombos <= 12 ? 56 : (ncombos <= 40 ? 28 : 16)
panel_width = 170 + per_combo * ncombos
width = panel_width * npanels < 860 ? 860 : panel_width * npanels # the title must fit
do for [kind in "png svg"] {
	eval terminal_command(kind, width, ncombos > 8 ? 980 : 580) # room for vertical labels
	set multiplot layout 1, npanels title full_title(chart_title, chart_subtitle) font ',11'
	set xrange [-0.6 : ncombos - 0.4]
	if (ncombos > 8) { set xtics rotate by 90 right } else { set xtics rotate by 35 right }
	set boxwidth 0.7
	do for [i = 1 : npanels] {
		set title ptitle[i] font ',10'
		set ylabel pylabel[i]
		set yrange [pymin[i] : pymax[i]]
		eval pytics[i]
		# prunfile[i]: every run of the cells with fewer than 8 runs, or ""
		if (pfitted[i]) {
			if (strlen(prunfile[i]) > 0) {
				plot pfile[i] using 1:2:3:4:5 with yerrorbars lc rgb variable pt 7 ps 1.6 lw 2.5 notitle, \
				     prunfile[i] using 1:2 with points pt 6 ps 0.8 lc rgb '#222222' notitle
			} else {
				plot pfile[i] using 1:2:3:4:5 with yerrorbars lc rgb variable pt 7 ps 1.6 lw 2.5 notitle
			}
		} else {
			if (strlen(prunfile[i]) > 0) {
				plot pfile[i] using 1:2:5 with boxes lc rgb variable notitle, \
				     '' using 1:2:3:4 with yerrorbars lc rgb 'black' pt 7 ps 0.4 lw 1.2 notitle, \
				     prunfile[i] using 1:2 with points pt 6 ps 0.8 lc rgb '#222222' notitle
			} else {
				plot pfile[i] using 1:2:5 with boxes lc rgb variable notitle, \
				     '' using 1:2:3:4 with yerrorbars lc rgb 'black' pt 7 ps 0.4 lw 1.2 notitle
			}
		}
	}
	unset multiplot
	set output
}
