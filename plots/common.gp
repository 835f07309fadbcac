# Shared by the chart scripts: run in the results folder with
#   gnuplot -e "plotsdir='DIR'; spec='plots-data/sN/CHART.gp'; out='charts/CHART'" plots/SCRIPT.gp
# The spec is written by run/stats; it names the data files and titles.
# Every chart is written twice: OUT.png (pngcairo) and OUT.svg.

# The command that sends the next plot to OUT.png or OUT.svg.
terminal_command(kind, w, h) = kind eq "png" \
	? sprintf("set terminal pngcairo noenhanced size %d,%d font 'Sans,10'; set output '%s.png'", w, h, out) \
	: sprintf("set terminal svg noenhanced size %d,%d font 'Sans,10' background '#ffffff'; set output '%s.svg'", w, h, out)

set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set style fill solid 0.85 border lc rgb '#333333'
