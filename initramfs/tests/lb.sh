#!/bin/sh
# Guest suite: the load-balance decision points.  For each of
# PJT_SHORT_TASKS, PJT_MOVE_TASKS, PJT_BUSIEST, PJT_IMBALANCE: with the bit
# set and a workload that reaches its point, that point's "applied" count in
# pjt_stats grows; with the bit clear it stays 0 (pjt_counting on).  With
# counting off nothing is counted, whatever the bits.  Then the RFC's own
# experiment: eight 10%-duty tasks on 4 vCPUs, PJT_SHORT_TASKS against
# stock, interleaved repetitions in this one boot, comparing the
# load-balance pulls (lb_gained summed over CPUs, domains and idle types).
# Numbers are printed as comments; only behaviour is asserted.
# Runs as root in the guest (busybox sh), debugfs at /sys/kernel/debug.
D=/sys/kernel/debug/sched
F=$D/features
STATS=$D/pjt_stats
SNAP=/usr/lib/pjt/snapshot.sh
LB_BITS="PJT_SHORT_TASKS PJT_BUSIEST PJT_IMBALANCE PJT_MOVE_TASKS LEGACY_LOAD"
# Cleared before every phase too, so a suite that left one set cannot skew us.
ALL_BITS="$LB_BITS PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY"
. /usr/lib/pjt/tap.sh


restore() {
	for b in $ALL_BITS; do echo "NO_$b" > "$F"; done
	echo 0 > $D/pjt_counting
	echo 1178 > $D/pjt_short_load
	echo 2 > $D/pjt_short_nr
}
trap restore EXIT

only() { # only BIT...: exactly these project bits set, counting on
	for b in $ALL_BITS; do echo "NO_$b" > "$F"; done
	echo 1 > $D/pjt_counting
	for b in "$@"; do echo "$b" > "$F"; done
}

# field POINT COLUMN: a pjt_stats count (COLUMN 2 evaluated, 3 differed,
# 4 applied).
field() { awk -v p="$1" -v c="$2" '$1 == p { print $c }' "$STATS"; }

pulls() { # total lb_gained now
	"$SNAP" | awk -F= '/^lb_pulls_/ { s += $2 } END { print s + 0 }'
}

duty() { pjtload duty threads=8 duty=10 period=10ms duration=${1:-3s} > /dev/null; }
hackbench_run() { hackbench -g 4 -l 40 > /dev/null 2>&1; }
# Both kinds of same-type comparison: has_spare (duty) and overloaded groups.
mixed() { duty 2s; hackbench_run; }

# phase POINT WORKLOAD BITS...: reset the counters, run, then read the
# point's line once (the balancer keeps counting while we read).
phase() {
	point=$1 work=$2
	shift 2
	only "$@"
	echo 0 > "$STATS"
	$work
	counts=$(awk -v p="$point" '$1 == p { print $2, $3, $4 }' "$STATS")
	ev=${counts%% *} ap=${counts##* } df=${counts#* } df=${df% *}
	echo "# $point with ${*:-no bits}: evaluated=$ev differed=$df applied=$ap"
}

# point_test POINT BIT WORKLOAD: applied grows with BIT set, stays 0 with
# it clear (and the other bits, LEGACY_LOAD included, set: no cross-wiring).
point_test() {
	point=$1 bit=$2 work=$3
	phase "$point" "$work" "$bit"
	check "$bit set: $point evaluated and applied" [ "${ap:-0}" -gt 0 ]
	phase "$point" "$work" $(echo $LB_BITS | tr ' ' '\n' | grep -vx "$bit")
	check "$bit clear: $point evaluated, never applied" \
		[ "${ev:-0}" -gt 0 -a "${ap:-1}" -eq 0 ]
}

[ -w "$F" ] && [ -r "$STATS" ] || { echo "not ok 1 - $F and $STATS present"; exit 1; }
restore

point_test short_tasks PJT_SHORT_TASKS duty
point_test busiest PJT_BUSIEST mixed
point_test move_tasks PJT_MOVE_TASKS hackbench_run
point_test imbalance PJT_IMBALANCE hackbench_run

# Counting off: every bit set, a workload that reaches every point.
only $ALL_BITS
echo 0 > $D/pjt_counting
echo 0 > "$STATS"
mixed
check "counting off: all bits set, pjt_stats counts nothing" \
	awk 'NR > 1 { a += $2 + $3 + $4 } END { exit a != 0 }' "$STATS"

# The RFC's experiment, interleaved so drift in the TCG host hits both.
reps=5 pjt_total=0 stock_total=0 skipped_total=0
i=0
while [ $i -lt $reps ]; do
	for combo in PJT_SHORT_TASKS stock; do
		if [ $combo = stock ]; then only; else only $combo; fi
		echo 0 > "$STATS"
		before=$(pulls)
		duty 2s
		got=$(($(pulls) - before))
		if [ $combo = PJT_SHORT_TASKS ]; then
			pjt_total=$((pjt_total + got))
			skipped_total=$((skipped_total + $(field short_tasks 4)))
		else
			stock_total=$((stock_total + got))
		fi
		echo "# rep $i $combo: lb_gained=$got"
	done
	i=$((i + 1))
done
echo "# duty 8x10%: lb_gained PJT_SHORT_TASKS total=$pjt_total stock total=$stock_total, candidates skipped=$skipped_total"
check "PJT_SHORT_TASKS skips short busiest candidates under 8x10% duty" \
	[ "$skipped_total" -gt 0 ]
check "PJT_SHORT_TASKS pulls < 0.8 x stock pulls (8x10% duty)" \
	[ $((pjt_total * 10)) -lt $((stock_total * 8)) ]

# pjt_short_nr=0 makes no group with a task short: nothing is skipped.
only PJT_SHORT_TASKS
echo 0 > $D/pjt_short_nr
echo 0 > "$STATS"
duty 2s
check "pjt_short_nr=0: no candidate skipped" [ "$(field short_tasks 4)" -eq 0 ]
restore

echo "# lb.sh: $failed failed"
[ $failed -eq 0 ]
