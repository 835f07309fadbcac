# run/lib/hostload.sh: the host's CPU load, read from /proc/stat (sourced by
# run/matrix and run/flake-rate).
#
# Host load: /proc/stat's cpu line (all CPUs) and a process's CPU time, in
# clock ticks.  Total = user nice system idle iowait irq softirq steal;
# busy = total - idle - iowait.  Steal counts as busy: time a hypervisor
# under this host gave to someone else is load too.  (guest and guest_nice
# are in user already.)
# The harness's own CPU time beside the host's: utime+stime+cutime+cstime
# of the calling shell (with every child it has reaped: each poll's awk,
# sleep, date...) and of the live PIDs given (run/boot with its reaped
# children, its console polling; QEMU, all its threads).  The polling
# alone took 0.07-0.08 of a 2-CPU host (fake boot; each short process
# ~7 ms of CPU there): left out, it read as other load.
# host_sample [PID...]: "BUSY TOTAL OWN"; nothing when a PID is gone.
host_sample() {
	for pid; do [ -r "/proc/$pid/stat" ] || return 0; done
	# shellcheck disable=SC2046 # one stat file a PID
	awk 'FILENAME == "/proc/stat" { if ($1 == "cpu") { t = 0; for (i = 2; i <= 9; i++) t += $i; busy = t - $5 - $6; total = t }; next }
		{ sub(/^.*\) /, ""); own += $12 + $13 + $14 + $15 }
		END { if (total) print busy, total, own }' /proc/stat "/proc/$$/stat" $(for pid; do echo "/proc/$pid/stat"; done) 2>/dev/null
}
# other_busy BUSY0 TOTAL0 OWN0 BUSY1 TOTAL1 OWN1: the fraction of all the
# host's CPU time that went to something other than the harness.
other_busy() {
	awk -v b0="$1" -v t0="$2" -v p0="$3" -v b1="$4" -v t1="$5" -v p1="$6" 'BEGIN {
		t = t1 - t0; if (t <= 0) { print ""; exit }
		f = ((b1 - b0) - (p1 - p0)) / t
		printf "%.3f\n", f < 0 ? 0 : f
	}'
}
