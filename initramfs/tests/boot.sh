#!/bin/sh
# Guest suite: the guest came up as run/check asked and the scheduler's
# interfaces the project reads are there.
. /usr/lib/pjt/tap.sh
features=/sys/kernel/debug/sched/features
check "all 4 vCPUs online" eval '[ "$(grep -c ^processor /proc/cpuinfo)" = 4 ]'
check "one MC sched domain spans the 4 CPUs" eval \
	'[ "$(cat /sys/kernel/debug/sched/domains/cpu0/domain0/name)" = MC ]'
check "debugfs features file is readable" eval '[ -r $features ]'
for f in GENTLE_FAIR_SLEEPERS START_DEBIT LAST_BUDDY CACHE_HOT_BUDDY \
	WAKEUP_PREEMPTION TTWU_QUEUE SIS_UTIL NONTASK_CAPACITY WA_IDLE WA_WEIGHT \
	WA_BIAS UTIL_EST UTIL_EST_FASTUP ATTACH_AGE_LOAD; do
	check "stock 6.1 feature $f is listed and on" eval "tr ' ' '\n' < $features | grep -qx $f"
done
check "/proc/schedstat is version 15" eval '[ "$(head -n 1 /proc/schedstat)" = "version 15" ]'
check "schedstats enabled from the command line" eval '[ "$(cat /proc/sys/kernel/sched_schedstats)" = 1 ]'
check "schedstat counts scheduling" eval \
	'[ "$(awk "/^cpu0 /{print \$4}" /proc/schedstat)" -gt 0 ]'
