# One bar per combination (the median of its runs) with the order-statistic
# interval of the median as error bar, n and the interval's exact level
# under the bar (87.5% at n=4, 95% or more from n=6); one panel per metric
# (pulls by idle type, migrations, throughput, latency percentiles). Bars
# keep each combination's colour. A cell with fewer than 8 runs has every
# run drawn as an open circle over its bar.
load plotsdir.'/common.gp'
load spec

# narrower bars when a factorial brings many cells
per_combo = ncombos <= 12 ? 48 : (ncombos <= 40 ? 28 : 16)
panel_width = 150 + per_combo * ncombos
width = panel_width * npanels < 760 ? 760 : panel_width * npanels # the title must fit
do for [kind in "png svg"] {
	eval terminal_command(kind, width, ncombos > 8 ? 960 : 560) # room for vertical labels
	set multiplot layout 1, npanels title chart_title font ',12'
	set xrange [-0.6 : ncombos - 0.4]
	if (ncombos > 8) { set xtics rotate by 90 right } else { set xtics rotate by 35 right }
	set boxwidth 0.7
	do for [i = 1 : npanels] {
		set title ptitle[i]
		set ylabel pylabel[i]
		# an all-zero panel (e.g. no busy pulls) gets a range of its own
		set autoscale y
		stats pfile[i] using 4 nooutput
		if (STATS_max > 0) { set yrange [0 : *] } else { set yrange [0 : 1] }
		# with fewer than 8 runs in a cell, its runs as points (prunfile[i]:
		# x value; "" when every cell has 8 or more)
		if (strlen(prunfile[i]) > 0) {
			stats prunfile[i] using 2 nooutput
			if (STATS_max > 0) { set yrange [0 : *] }
			plot pfile[i] using 1:2:5 with boxes lc rgb variable notitle, \
			     '' using 1:2:3:4 with yerrorbars lc rgb 'black' pt 7 ps 0.4 lw 1.2 notitle, \
			     prunfile[i] using 1:2 with points pt 6 ps 0.7 lc rgb '#222222' notitle, \
			     pfile[i] using 1:(0):(sprintf("n=%d\n%s", $6, strcol(8))):($2 > 0 ? 0xffffff : 0x333333) with labels offset 0, 1.2 font ',7' tc rgb variable notitle
		} else {
			plot pfile[i] using 1:2:5 with boxes lc rgb variable notitle, \
			     '' using 1:2:3:4 with yerrorbars lc rgb 'black' pt 7 ps 0.4 lw 1.2 notitle, \
			     '' using 1:(0):(sprintf("n=%d\n%s", $6, strcol(8))):($2 > 0 ? 0xffffff : 0x333333) with labels offset 0, 1.2 font ',7' tc rgb variable notitle
		}
	}
	unset multiplot
	set output
}
