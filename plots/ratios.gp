# The paired ratios of one workload, the numbers the stars come from: one
# panel per primary metric, each on its own log axis (fitted to the data,
# with a line at 1 = no change), one row per comparison (COMBO / REFERENCE,
# in COMBO's colour), its ratio printed on the right: the declared ones
# first, filled, with their Holm-adjusted p (a secondary's fixed-sequence
# p; '*' when resolved); below the dashed line the others, open, with
# their marginal p, not adjusted. The units and
# the intervals' level are in the title, once; a row of fewer units says
# its own. A side 0 in every unit has no ratio: its row is a diamond at the
# edge it goes to (pzfile, "0 against 46" on the right), not left out.
load plotsdir.'/common.gp'
load spec

row_px = 21
panel_px = 78          # a panel's title, axis and tic labels
title_px = 54 + 15 * subtitle_lines
height = title_px + row_px * total_rows + panel_px * npanels
do for [kind in "png svg"] {
	eval terminal_command(kind, 1100, height)
	set multiplot title full_title(chart_title, chart_subtitle) font ',11'
	set logscale x
	set border 1
	set grid noytics xtics lc rgb '#dddddd'
	set ytics scale 0 nomirror
	set y2tics scale 0 nomirror font ',9'
	set link y2
	set xtics nomirror
	set lmargin 26
	set rmargin (label_chars + 2 > 17 ? label_chars + 2 : 17)
	set tmargin 1.8
	set bmargin 2.2
	unit = (1.0 * height - title_px) / height / (total_rows + npanels * panel_px / (1.0 * row_px))
	top = 1.0 - 1.0 * title_px / height
	do for [i = 1 : npanels] {
		h = (prows[i] + panel_px / (1.0 * row_px)) * unit
		set origin 0, top - h
		set size 1, h
		top = top - h
		set title ptitle[i] font ',10'
		set xrange [pxmin[i] : pxmax[i]]
		set yrange [prows[i] - 0.4 : -0.6]
		eval pxtics[i]
		eval pytics[i]
		eval py2tics[i]
		set arrow 1 from 1, graph 0 to 1, graph 1 nohead lt -1 lw 1.5 front
		if (pdeclared[i] > 0 && pdeclared[i] < prows[i]) {
			set arrow 2 from graph 0, first (pdeclared[i] - 0.5) to graph 1, first (pdeclared[i] - 0.5) nohead dt 2 lc rgb '#888888'
		} else {
			unset arrow 2
		}
		# a panel's files: either may be "" (no row of that kind)
		ratios = strlen(pfile[i]) == 0 ? "" : \
			"pfile[i] using 2:($6 == 1 ? $1 : NaN):3:4:5 with xerrorbars lc rgb variable pt 7 ps 1.1 lw 2.2 notitle, " . \
			"pfile[i] using 2:($6 == 0 ? $1 : NaN):3:4:5 with xerrorbars lc rgb variable pt 6 ps 1.1 lw 1.2 notitle"
		zeros = strlen(pzfile[i]) == 0 ? "" : \
			"pzfile[i] using 2:($4 == 1 ? $1 : NaN):3 with points lc rgb variable pt 13 ps 1.6 notitle, " . \
			"pzfile[i] using 2:($4 == 0 ? $1 : NaN):3 with points lc rgb variable pt 12 ps 1.6 lw 1.2 notitle"
		eval "plot " . ratios . (strlen(ratios) && strlen(zeros) ? ", " : "") . zeros
	}
	unset multiplot
	set output
}
