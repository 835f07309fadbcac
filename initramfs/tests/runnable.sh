#!/bin/sh
# Guest suite: the RFC's runnable load, as the series keeps it.
# Every series bit off and counting off: the sched_pjt_cpu_load event alone
# holds the bookkeeping on.  On CPU 1, a task that is always runnable and a
# second one that runs half of each second and sleeps the other half.  At
# the first tick after the second one went to sleep (the CPU's CFS task
# count fell from 2 to 1 between two consecutive ticks), the event's pelt
# (the RFC's runnable load) must read the runnable task's load alone, while
# load_avg (6.1's cpu_load()) still holds the sleeper's decaying share:
#   - pelt within 15% of the runnable task's own load (the median pelt of
#     the ticks where it ran alone),
#   - load_avg above pelt by at least a quarter of that load.
# 6.1's runnable_avg scaled by the running tasks' weight, which the series
# read before, holds the sleeper's share too and fails the first test.
# Runs as root in the guest (busybox sh).
D=/sys/kernel/debug/sched
F=$D/features
. /usr/lib/pjt/tap.sh
. /usr/lib/pjt/trace.sh

check "the trace events are enabled from boot (run/boot --trace) and the kernel has them" trace_available || exit 1
for b in ${PJT_BITS:?not set: the plan sets the series bits from run/contract/bits}; do
	echo "NO_$b" > "$F"
done
echo 0 > $D/pjt_counting

trace_start
pjtload duty threads=1 duty=100 period=100ms duration=4s cpus=1 > /dev/null &
hog=$!
trace_mark SLEEPER_START
pjtload duty threads=1 duty=50 period=1s duration=4s cpus=1 > /dev/null
sleeper=$?
trace_mark SLEEPER_DONE
wait $hog
hog=$?
trace_stop
check "both tasks ran to the end" [ "$hog" = 0 -a "$sleeper" = 0 ]
trace_csv loads "time_s cpu nr_running weight load_avg pelt" |
	awk -F, '$2 == 1' > /tmp/runnable.loads
echo "# $(wc -l < /tmp/runnable.loads) load records of CPU 1"

# The runnable task's own load: the median pelt of the ticks it ran alone.
alone=$(awk -F, '$3 == 1 { print $6 }' /tmp/runnable.loads | sort -n |
	awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
echo "# runnable task alone: median pelt ${alone:-none}"
check "CPU 1 ran its task alone at some ticks" [ "${alone:-0}" -gt 0 ]

# Each sleep: a tick with both tasks queued, the next tick (at most two
# tick periods later) with one.  The first sleep ends a busy half-period
# (0.5 s) that began after the sleeper was started: a fall before that
# comes from its start-up, before its load has built up.  The last fall, up to 0.3 s before the marker
# written when the sleeper's pjtload returned, is its exit, which takes
# its load out of load_avg too: not a sleep.  Print
# "ok|bad time pelt load_avg".
start_t=$(trace_marks | awk '$2 == "SLEEPER_START" { print $1; exit }')
done_t=$(trace_marks | awk '$2 == "SLEEPER_DONE" { print $1; exit }')
echo "# the sleeper's pjtload started at ${start_t:-?}, returned at ${done_t:-?}"
# A fall counts only after at least 25 ticks (100 ms) with both queued: a
# brief wake-up inside a sleeping half-period, whose load has decayed
# away by then, is not the end of a busy one.
awk -F, -v alone="${alone:-0}" -v start_t="${start_t:-0}" -v done_t="${done_t:-0}" '
	prev_nr >= 2 && $3 == 1 && $1 - prev_t < 0.009 && busy >= 25 &&
	$1 >= start_t + 0.5 && $1 < done_t - 0.3 {
		ok = $6 >= 0.85 * alone && $6 <= 1.15 * alone &&
		     $5 >= $6 + alone / 4
		print (ok ? "ok" : "bad"), $1, $6, $5
	}
	{ busy = $3 >= 2 ? busy + 1 : 0; prev_nr = $3; prev_t = $1 }' /tmp/runnable.loads > /tmp/runnable.sleeps
sed 's/^/# sleep: /' /tmp/runnable.sleeps
check "the sleeper went to sleep at least twice" [ "$(wc -l < /tmp/runnable.sleeps)" -ge 2 ]
check "within a tick of each sleep pelt is the runnable task's load and load_avg holds the sleeper's" \
	sh -c '! grep -q "^bad" /tmp/runnable.sleeps'
check "no WARN/BUG/Oops in dmesg" sh -c '! dmesg | grep -Eq "WARNING:|BUG:|Oops"'
exit $((failed > 0))
