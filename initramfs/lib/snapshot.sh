#!/bin/sh
# snapshot.sh: the scheduler counters a matrix run is measured by.
#
#   snapshot.sh                  print the counters now, one key=value a line
#   snapshot.sh delta BEFORE AFTER
#                                print AFTER - BEFORE for every key in both
#   snapshot.sh state            print the scheduler state now (the drift's
#                                candidates), one key=value a line
#
# Keys are runs.csv column names (INTERFACES.md):
#   from /proc/schedstat (version 15), summed over every CPU and domain:
#     lb_pulls_idle lb_pulls_busy lb_pulls_newidle  (lb_gained per idle type)
#     alb_pushed ttwu_wake_remote ttwu_move_affine
#   from /sys/kernel/debug/sched/pjt_stats, when the kernel has it and
#   counts (pjt_counting is 1, or the kernel has no pjt_counting file):
#     POINT_evaluated POINT_differed POINT_applied for every point listed
# State keys (state_* columns), means over CPUs, in ns, from 6.1's debugfs
# (CONFIG_SCHED_DEBUG):
#   state_newidle_cost_low_ns state_newidle_cost_top_ns  max_newidle_lb_cost
#     of each CPU's lowest and highest domain (sched/domains/cpuN/domainM/)
#   state_avg_idle_ns state_idle_balance_cost_ns  the runqueues' avg_idle and
#     max_idle_balance_cost (sched/debug)
# A source that is missing or of another layout gives no keys (the columns
# stay empty), with one line on stderr saying why.
# (The paths can be pointed elsewhere for the host tests.)
schedstat=${PJT_SCHEDSTAT:-/proc/schedstat}
pjt_stats=${PJT_STATS:-/sys/kernel/debug/sched/pjt_stats}
pjt_counting=${PJT_COUNTING:-/sys/kernel/debug/sched/pjt_counting}
sched_domains=${PJT_SCHED_DOMAINS:-/sys/kernel/debug/sched/domains}
sched_debug=${PJT_SCHED_DEBUG:-/sys/kernel/debug/sched/debug}

snapshot() {
	header= version=
	[ -r "$schedstat" ] && read -r header version < "$schedstat"
	if [ -z "$header" ]; then
		echo "snapshot.sh: $schedstat missing (CONFIG_SCHEDSTATS?)" >&2
	elif [ "$header $version" != "version 15" ]; then
		echo "snapshot.sh: $schedstat is '$header $version', not version 15: pulls left empty" >&2
	else
		# Domain lines: "domainN MASK", then 8 load_balance fields per
		# idle type (idle, busy, newly idle; lb_gained is the 5th), then
		# alb_count alb_failed alb_pushed sbe_* sbf_* ttwu_wake_remote
		# ttwu_move_affine ttwu_move_balance.
		awk '
		$1 ~ /^domain[0-9]+$/ && NF == 38 {
			idle += $7; busy += $15; newidle += $23
			alb += $29; remote += $36; affine += $37; domains++
		}
		END {
			if (!domains) { print "snapshot.sh: no domain lines in /proc/schedstat" > "/dev/stderr"; exit }
			printf "lb_pulls_idle=%d\nlb_pulls_busy=%d\nlb_pulls_newidle=%d\n", idle, busy, newidle
			printf "alb_pushed=%d\nttwu_wake_remote=%d\nttwu_move_affine=%d\n", alb, remote, affine
		}' "$schedstat"
	fi
	# Not counting: the counters stand still, and 0 would claim "no
	# decision differed"; the columns stay empty instead.
	if [ -r "$pjt_counting" ] && [ "$(cat "$pjt_counting")" = 0 ]; then
		:
	elif [ -r "$pjt_stats" ]; then
		awk '
		NR == 1 { if ($1 != "point") { print "snapshot.sh: pjt_stats header is not \"point ...\"" > "/dev/stderr"; exit } next }
		NF == 4 { printf "%s_evaluated=%s\n%s_differed=%s\n%s_applied=%s\n", $1, $2, $1, $3, $1, $4 }
		' "$pjt_stats"
	fi
}

state() {
	for f in "$sched_domains"/cpu*/domain*/max_newidle_lb_cost; do
		[ -r "$f" ] && read -r v < "$f" && echo "$f $v"
	done | awk '
	# .../cpuN/domainM/max_newidle_lb_cost VALUE (domain10 sorts before domain2: by number)
	$2 ~ /^[0-9]+$/ {
		n = split($1, p, "/"); cpu = p[n - 2]; d = substr(p[n - 1], 7) + 0
		if (!(cpu in low) || d < low_d[cpu]) { low_d[cpu] = d; low[cpu] = $2 }
		if (!(cpu in top) || d > top_d[cpu]) { top_d[cpu] = d; top[cpu] = $2 }
	}
	END {
		for (c in low) { sl += low[c]; st += top[c]; k++ }
		if (!k) { print "snapshot.sh: no '"$sched_domains"'/cpu*/domain*/max_newidle_lb_cost: state_newidle_cost_* left empty" > "/dev/stderr"; exit }
		printf "state_newidle_cost_low_ns=%.0f\nstate_newidle_cost_top_ns=%.0f\n", sl / k, st / k
	}'
	if [ -r "$sched_debug" ]; then
		awk '
		$1 == ".avg_idle" && $3 ~ /^[0-9]+$/ { idle += $3; ni++ }
		$1 == ".max_idle_balance_cost" && $3 ~ /^[0-9]+$/ { cost += $3; nc++ }
		END {
			if (ni) printf "state_avg_idle_ns=%.0f\n", idle / ni
			if (nc) printf "state_idle_balance_cost_ns=%.0f\n", cost / nc
			if (!ni || !nc) print "snapshot.sh: '"$sched_debug"' has no .avg_idle or .max_idle_balance_cost lines: left empty" > "/dev/stderr"
		}' "$sched_debug"
	else
		echo "snapshot.sh: $sched_debug missing (CONFIG_SCHED_DEBUG, debugfs?): state_avg_idle_ns, state_idle_balance_cost_ns left empty" >&2
	fi
}

delta() {
	awk -F= '
	NR == FNR { before[$1] = $2; next }
	$1 in before { printf "%s=%d\n", $1, $2 - before[$1] }
	' "$1" "$2"
}

case ${1:-} in
'') snapshot ;;
state) state ;;
delta)
	[ $# = 3 ] || { echo "usage: snapshot.sh delta BEFORE AFTER" >&2; exit 2; }
	delta "$2" "$3" ;;
*) echo "usage: snapshot.sh [delta BEFORE AFTER | state]" >&2; exit 2 ;;
esac
