# pjt_stats counters per combination, one panel per decision point: how
# often the point was evaluated, how often the PJT rule's answer differed
# from stock's, how often the PJT answer was applied (median per run, the
# run length, n and the level in the title). Log scale: a bar that is
# missing is a count of 0; a point whose counters are 0 in every
# combination is not in the spec (the report says so). With fewer than 8
# runs in a cell, each run above 0 is an open circle at its counter's bar.
load plotsdir.'/common.gp'
load spec

columns = npanels < 3 ? npanels : 3
rows = (npanels + columns - 1) / columns
per_combo = ncombos <= 12 ? 60 : (ncombos <= 40 ? 32 : 18)
width = columns * (150 + per_combo * ncombos) < 760 ? 760 : columns * (150 + per_combo * ncombos)
do for [kind in "png svg"] {
	eval terminal_command(kind, width, 150 + (ncombos > 8 ? 760 : 380) * rows)
	set multiplot layout rows, columns title full_title(chart_title, chart_subtitle) font ',11'
	set xrange [-0.6 : ncombos - 0.4]
	if (ncombos > 8) { set xtics rotate by 90 right } else { set xtics rotate by 35 right }
	set boxwidth 0.26
	set key top left horizontal font ',9'
	do for [i = 1 : npanels] {
		set title ptitle[i] font ',10'
		# a panel whose counts are all 0 cannot be drawn on a log scale
		unset logscale y; set autoscale y
		stats pfile[i] using 2 nooutput
		if (STATS_max > 0) {
			set logscale y; set yrange [0.8 : *]; set ylabel 'count per run (log scale)'
		} else {
			unset logscale y; set yrange [0 : 1]; set ylabel 'count per run (all 0)'
		}
		# prunfile[i]: every run above 0 of the cells with fewer than 8 runs, or ""
		if (strlen(prunfile[i]) > 0 && STATS_max > 0) {
			plot pfile[i] using 1:($6 == 0 ? $2 : NaN):5 with boxes fs transparent solid 0.3 lc rgb variable title 'evaluated', \
			     '' using 1:($6 == 1 ? $2 : NaN):5 with boxes fs pattern 4 lc rgb variable title 'differed', \
			     '' using 1:($6 == 2 ? $2 : NaN):5 with boxes fs solid 0.9 lc rgb variable title 'applied', \
			     '' using 1:2:3:4 with yerrorbars lc rgb 'black' pt 7 ps 0.3 notitle, \
			     prunfile[i] using 1:2 with points pt 6 ps 0.5 lc rgb '#222222' notitle
		} else {
			plot pfile[i] using 1:($6 == 0 ? $2 : NaN):5 with boxes fs transparent solid 0.3 lc rgb variable title 'evaluated', \
			     '' using 1:($6 == 1 ? $2 : NaN):5 with boxes fs pattern 4 lc rgb variable title 'differed', \
			     '' using 1:($6 == 2 ? $2 : NaN):5 with boxes fs solid 0.9 lc rgb variable title 'applied', \
			     '' using 1:2:3:4 with yerrorbars lc rgb 'black' pt 7 ps 0.3 notitle
		}
		unset key
	}
	unset multiplot
	set output
}
