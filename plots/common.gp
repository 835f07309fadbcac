# Shared by the chart scripts: run in the results folder with
#   gnuplot -e "plotsdir='DIR'; spec='plots-data/sN/CHART.gp'; out='charts/CHART'" plots/SCRIPT.gp
# The spec is written by run/stats (run/pjt-stats/charts.c): it names the
# data files, the titles (chart_title, and chart_subtitle: n, the
# interval's level, the run length, once per chart), each panel's axis
# range and tics (thousands separated, computed there) and the colours
# (one per combination, analysis.c's mapping, in the data files).
# Every chart is written twice: OUT.png (pngcairo) and OUT.svg.
set encoding utf8

# The command that sends the next plot to OUT.png or OUT.svg.
terminal_command(kind, w, h) = kind eq "png" \
	? sprintf("set terminal pngcairo noenhanced size %d,%d font 'Sans,10'; set output '%s.png'", w, h, out) \
	: sprintf("set terminal svg noenhanced size %d,%d font 'Sans,10' background '#ffffff'; set output '%s.svg'", w, h, out)

# The title of a chart: what, then n, level and run length on a line of their own.
full_title(t, sub) = strlen(sub) > 0 ? t . "\n" . sub : t

set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set style fill solid 0.85 border lc rgb '#333333'
