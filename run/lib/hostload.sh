# run/lib/hostload.sh: the host's CPU load, read from /proc/stat (sourced by
# run/matrix and run/flake-rate).
#
# Host load: /proc/stat's cpu line (all CPUs) and a process's CPU time, in
# clock ticks.  Total = user nice system idle iowait irq softirq steal;
# busy = total - idle - iowait.  Steal counts as busy: time a hypervisor
# under this host gave to someone else is load too.  (guest and guest_nice
# are in user already.)
host_ticks() { awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; print t - $5 - $6, t; exit }' /proc/stat; }
proc_ticks() { # proc_ticks PID: utime+stime, all threads; empty when gone
	[ -z "$1" ] || awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null
}
# other_busy BUSY0 TOTAL0 PROC0 BUSY1 TOTAL1 PROC1: the fraction of all the
# host's CPU time that went to something other than the process.
other_busy() {
	awk -v b0="$1" -v t0="$2" -v p0="$3" -v b1="$4" -v t1="$5" -v p1="$6" 'BEGIN {
		t = t1 - t0; if (t <= 0) { print ""; exit }
		f = ((b1 - b0) - (p1 - p0)) / t
		printf "%.3f\n", f < 0 ? 0 : f
	}'
}
