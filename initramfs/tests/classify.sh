#!/bin/sh
# Guest suite: 3.7's classification in the RFC's "Without_patchset"
# (PJT_CLASSIFY).  Two 10%-duty tasks pinned to CPU 1, the other
# CPUs idle, pjt_stats counting on.  In 3.7 the CPU's group runs two tasks
# over a capacity of one: overloaded, a busiest candidate that 3.7's checks
# and load amount balance (calculate_imbalance()'s has-spare path is 6.1's
# and is not taken: pjt_stats counts that as a differing imbalance
# decision).  6.1 finds the same group has spare capacity (20% util), and
# its has-spare path decides; no imbalance rule of the RFC differs.
#   rfc-before                  imbalance differed D, at least 10
#   rfc-before - PJT_CLASSIFY   imbalance differed at most D / 10
#   stock                       imbalance differed at most D / 10
# (6.1's classification: the odd differing decision elsewhere, from the
# test's own shell or a kworker, is not excluded).  The second line is
# what makes the first one PJT_CLASSIFY's doing.  The tasks are pinned,
# so no pull changes the picture during a run.  Periods of 100 ms: both
# tasks are runnable for the first 10 ms of each, which a 4-ms tick always
# samples.  With periods of 10 ms the overlap is about 1 ms, which a tick
# samples or not by its phase, likely why D was 20 to 50 in 14 boots and
# 8 and 9 in two; with 100 ms it was 34 to 38 in three.
# Runs as root in the guest (busybox sh).
D=/sys/kernel/debug/sched
F=$D/features
STATS=$D/pjt_stats
ALL_BITS=${PJT_BITS:?not set: the plan sets the series bits from run/contract/bits}
RFC_BEFORE="PJT_IMBALANCE PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY LEGACY_LOAD"
. /usr/lib/pjt/tap.sh

# One domain of one-CPU groups (one socket of cores, as run/check boots):
# with wider groups 3.7's group_imb trigger would also differ from stock.
levels=$(ls -d /sys/kernel/debug/sched/domains/cpu1/domain* 2>/dev/null | wc -l)
if [ "$levels" != 1 ]; then
	echo "ok 1 # SKIP $levels domain levels, not one"
	exit 0
fi

restore() {
	for b in $ALL_BITS; do echo "NO_$b" > "$F"; done
	echo 0 > $D/pjt_counting
}
trap restore EXIT

# point NAME BITS...: the two pinned 10% tasks for 3 s with exactly BITS;
# sets $differed to the imbalance point's differed count.
point() {
	name=$1
	shift
	for b in $ALL_BITS; do echo "NO_$b" > "$F"; done
	for b in "$@"; do echo "$b" > "$F"; done
	echo 1 > $D/pjt_counting
	echo 0 > "$STATS"
	pjtload duty threads=2 duty=10 period=100ms duration=3s cpus=1 > /dev/null
	rc=$?
	line=$(awk '$1 == "imbalance" { print $2, $3, $4 }' "$STATS")
	echo 0 > $D/pjt_counting
	differed=$(echo "$line" | cut -d' ' -f2)
	echo "# $name: imbalance evaluated,differed,applied = $line"
	check "$name: the two tasks ran to the end" [ "$rc" = 0 ]
}

# tenth_at_most N D: N is a number and at most D / 10.
tenth_at_most() { [ -n "$1" ] && [ $(($1 * 10)) -le "$2" ]; }

point rfc-before $RFC_BEFORE
d=${differed:-0}
check "rfc-before: CPU 1's two 10% tasks are over its capacity, 3.7's rules balance it ($d >= 10)" \
	[ "$d" -ge 10 ]
point rfc-before-without-classify $(echo "$RFC_BEFORE" | sed 's/PJT_CLASSIFY//')
check "rfc-before without PJT_CLASSIFY: 6.1 finds spare capacity (${differed:-none} <= $d / 10)" \
	tenth_at_most "$differed" "$d"
point stock
check "stock: 6.1 finds spare capacity (${differed:-none} <= $d / 10)" \
	tenth_at_most "$differed" "$d"
check "no WARN/BUG/Oops in dmesg" sh -c '! dmesg | grep -Eq "WARNING:|BUG:|Oops"'
exit $((failed > 0))
