#!/bin/sh
# Guest suite for the "groups" kernel variant (CONFIG_FAIR_GROUP_SCHED):
# cgroup v2 with the cpu controller, two groups of unequal cpu.weight with
# CPU hogs in both, balanced at each reference point of the series (stock,
# legacy-6.1, rfc-before, rfc-after) with pjt_stats counting on.  Each must
# run its workload to the end and pull tasks between CPUs, and where
# PJT_MOVE_TASKS is set its rule must be reached with the groups' tasks.
# (That LEGACY_LOAD reads 3.7's hierarchical weight is KUnit's to check:
# sched_pjt.pjt_h_weight_share_of_group.)  Run only in the groups boot.
D=/sys/kernel/debug/sched
F=$D/features
STATS=$D/pjt_stats
SNAP=/usr/lib/pjt/snapshot.sh
CG=/sys/fs/cgroup
ALL_BITS=${PJT_BITS:?not set: the plan sets the series bits from run/contract/bits}
. /usr/lib/pjt/tap.sh

only() {
	for b in $ALL_BITS; do echo "NO_$b" > "$F"; done
	for b in "$@"; do echo "$b" > "$F"; done
	echo 1 > $D/pjt_counting
	echo 0 > "$STATS"
}
restore() {
	for b in $ALL_BITS; do echo "NO_$b" > "$F"; done
	echo 0 > $D/pjt_counting
}
trap restore EXIT

mkdir -p $CG
mount -t cgroup2 none $CG 2>/dev/null
check "cgroup v2 with the cpu controller" grep -qw cpu $CG/cgroup.controllers
echo +cpu > $CG/cgroup.subtree_control
mkdir -p $CG/g1 $CG/g2
echo 100 > $CG/g1/cpu.weight
echo 300 > $CG/g2/cpu.weight

# in_group G CMD...: run CMD inside cgroup G, in the background.
in_group() {
	g=$1
	shift
	# $$ of a subshell is its parent's: a new sh moves itself, then execs.
	sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@" > /dev/null' \
		sh "$CG/$g" "$@" &
}

# run_point NAME BITS...: seven hogs in g1, three in g2, 4 s; pulls and
# counts.
run_point() {
	name=$1
	shift
	only "$@"
	before=$("$SNAP" | awk -F= '/^lb_pulls_/ { s += $2 } END { print s + 0 }')
	in_group g1 pjtload duty threads=7 duty=100 period=10ms duration=4s
	p1=$!
	in_group g2 pjtload duty threads=3 duty=100 period=10ms duration=4s
	p2=$!
	sleep 1
	grouped=0
	for g in g1 g2; do
		[ "$(wc -l < $CG/$g/cgroup.procs)" -eq 1 ] && grouped=$((grouped + 1))
	done
	wait $p1; r1=$?
	wait $p2; r2=$?
	pulls=$(($("$SNAP" | awk -F= '/^lb_pulls_/ { s += $2 } END { print s + 0 }') - before))
	check "$name: each group ran its own tasks" \
		[ "$(cat $CG/g1/cgroup.procs $CG/g2/cgroup.procs | wc -l)" -eq 0 -a "$grouped" = 2 ]
	move=$(awk '$1 == "move_tasks" { print $2, $3, $4 }' "$STATS")
	echo "# $name: pulls=$pulls move_tasks evaluated,differed,applied=$move"
	check "$name: both groups' workloads ran to the end" [ "$r1" = 0 -a "$r2" = 0 ]
	check "$name: the balancer pulled tasks" [ "$pulls" -gt 0 ]
}

run_point stock
run_point legacy-6.1 LEGACY_LOAD
run_point rfc-before PJT_IMBALANCE PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY LEGACY_LOAD
applied=${move##* }
check "rfc-before: PJT_MOVE_TASKS decided for the groups' tasks" [ "${applied:-0}" -gt 0 ]
run_point rfc-after PJT_SHORT_TASKS PJT_BUSIEST PJT_IMBALANCE PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY
applied=${move##* }
check "rfc-after: PJT_MOVE_TASKS decided for the groups' tasks" [ "${applied:-0}" -gt 0 ]

check "no WARN/BUG/Oops in dmesg" sh -c '! dmesg | grep -Eq "WARNING:|BUG:|Oops"'
echo "# groups.sh: $failed failed"
[ $failed -eq 0 ]
