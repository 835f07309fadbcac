#!/bin/sh
# Guest suite: the guest came up as run/check asked and the scheduler's
# interfaces the project reads are there.
n=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}
features=/sys/kernel/debug/sched/features
check "all 4 vCPUs online" '[ "$(grep -c ^processor /proc/cpuinfo)" = 4 ]'
check "one MC sched domain spans the 4 CPUs" \
	'[ "$(cat /sys/kernel/debug/sched/domains/cpu0/domain0/name)" = MC ]'
check "debugfs features file is readable" '[ -r $features ]'
for f in GENTLE_FAIR_SLEEPERS START_DEBIT LAST_BUDDY CACHE_HOT_BUDDY \
	WAKEUP_PREEMPTION TTWU_QUEUE SIS_UTIL NONTASK_CAPACITY WA_IDLE WA_WEIGHT \
	WA_BIAS UTIL_EST UTIL_EST_FASTUP ATTACH_AGE_LOAD; do
	check "stock 6.1 feature $f is listed and on" "tr ' ' '\n' < $features | grep -qx $f"
done
check "/proc/schedstat is version 15" '[ "$(head -n 1 /proc/schedstat)" = "version 15" ]'
check "schedstats enabled from the command line" '[ "$(cat /proc/sys/kernel/sched_schedstats)" = 1 ]'
check "schedstat counts scheduling" \
	'[ "$(awk "/^cpu0 /{print \$4}" /proc/schedstat)" -gt 0 ]'
