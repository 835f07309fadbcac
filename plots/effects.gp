# Each bit's main effect in each 2^k design, a ratio (per block: mean log
# of the cells with the bit minus mean log of the cells without it; exp of
# the median over the units; 1 = no effect) with its order-statistic
# interval, sorted, on a log axis fitted to the data with a line at 1, in
# the colour of the combination that sets the bit; beside each, its
# marginal p and its q, Holm over the design's bits (effects are never
# starred). The units and the level are in the title, once. One panel per
# metric.
load plotsdir.'/common.gp'
load spec

do for [kind in "png svg"] {
	# the term labels sit left of each panel, the p and q right of it:
	# room for the longest of each
	eval terminal_command(kind, (330 + 7 * (label_chars + mark_chars)) * npanels + 120, 230 + 55 * nterms)
	set multiplot layout 1, npanels title full_title(chart_title, chart_subtitle) font ',11'
	set yrange [-0.6 : nterms - 0.4]
	set border 1
	set grid noytics xtics
	set arrow 1 from 1, graph 0 to 1, graph 1 nohead lt -1 lw 1.5 front
	set logscale x
	set ytics scale 0
	set xtics rotate by 30 right
	set rmargin mark_chars + 2
	do for [i = 1 : npanels] {
		set title ptitle[i] font ',10'
		set xlabel pxlabel[i]
		set xrange [pxmin[i] : pxmax[i]]
		eval pxtics[i]
		plot pfile[i] using (sqrt($2)):1:($2 < 1 ? $2 : 1):($2 < 1 ? 1 : $2):($1 - 0.3):($1 + 0.3):5:ytic(7) \
			with boxxyerror lc rgb variable notitle, \
		     '' using 2:1:3:4 with xerrorbars lc rgb 'black' pt 7 ps 0.4 lw 1.2 notitle, \
		     '' using 4:1:6 with labels left offset char 0.6, 0 notitle
	}
	unset multiplot
	set output
}
