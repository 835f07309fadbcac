#!/bin/sh
# Guest suite: 3.7's prefer-sibling scope under rfc-before, on the RFC's
# box (2 sockets of 2 cores: MC over CPUs 0-1 and 2-3, DIE over all four).
# Two CPU hogs start on CPUs 2 and 3, the die CPU 0 is not on, and may then
# run anywhere.  3.7 capped a group to one task only in a domain whose
# child is the package level (SD_PREFER_SIBLING in SD_CPU_INIT alone), so
# at DIE, whose child is MC, two tasks on two CPUs are within capacity and
# not a busiest candidate: under rfc-before both stay on their die.  Stock
# 6.1 moves one to the idle die (its has-spare path with prefer_sibling,
# by active balance since both run).
#   rfc-before  both hogs on CPUs 2-3 for 4 s (in one of up to 3 trials)
#   stock       a hog on CPU 0 or 1 within 8 s
# Run in the groups boot, which boots that shape.  Runs as root in the
# guest (busybox sh).
D=/sys/kernel/debug/sched
F=$D/features
ALL_BITS=${PJT_BITS:?not set: the plan sets the series bits from run/contract/bits}
RFC_BEFORE="PJT_IMBALANCE PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY LEGACY_LOAD"
. /usr/lib/pjt/tap.sh

if [ "$(cat $D/domains/cpu0/domain1/name 2>/dev/null)" != DIE ] ||
   [ "$(cat /sys/devices/system/cpu/cpu2/topology/physical_package_id)" = \
     "$(cat /sys/devices/system/cpu/cpu0/topology/physical_package_id)" ]; then
	echo "ok 1 # SKIP not two sockets of two cores (MC, DIE)"
	exit 0
fi

# This shell, its samplers and sleeps on CPU 0: a third task on the remote
# die would put it over 3.7's capacity, and 3.7 would rightly pull.
taskset -p -c 0 $$ >/dev/null

hogs=
stop_hogs() {
	[ -z "$hogs" ] || kill $hogs 2>/dev/null
	for p in $hogs; do wait "$p" 2>/dev/null; done
	hogs=
}
restore() {
	stop_hogs
	for b in $ALL_BITS; do echo "NO_$b" > "$F"; done
}
trap restore EXIT

# The CPU a task last ran on (field 39 of /proc/PID/stat).
cpu_of() { awk '{ print $39 }' "/proc/$1/stat"; }

# start_hogs: a hog pinned to CPU 2 and one to CPU 3, then allowed all.
start_hogs() {
	for c in 2 3; do
		taskset -c "$c" sh -c 'while :; do :; done' >/dev/null 2>&1 &
		hogs="$hogs $!"
	done
	sleep 1
	for p in $hogs; do taskset -p -c 0-3 "$p" >/dev/null; done
}

# on_first_die: how many hogs run on CPU 0 or 1 now.
on_first_die() {
	k=0
	for p in $hogs; do
		case $(cpu_of "$p") in 0|1) k=$((k + 1)) ;; esac
	done
	echo $k
}

# only BITS...: exactly these series bits.
only() {
	for b in $ALL_BITS; do echo "NO_$b" > "$F"; done
	for b in "$@"; do echo "$b" > "$F"; done
}

# A hog left the remote die in one of 13 runs seen (a loaded host); a
# per-CPU kernel thread woken on CPU 2 or 3 would explain it (three tasks
# there, over 3.7's capacity, and 3.7 rightly pulls), though that is not
# shown.  So up to three trials, one with both hogs staying enough: a
# scope as wide as stock's moves one in every trial (stock below: within
# 0.5 to 1.5 s in every run seen).
only $RFC_BEFORE
for trial in 1 2 3; do
	start_hogs
	moved=0
	for i in 1 2 3 4 5 6 7 8; do
		sleep 0.5
		moved=$((moved + $(on_first_die)))
	done
	echo "# rfc-before, trial $trial: $moved of 16 samples (2 hogs, every 0.5 s) on CPUs 0-1"
	# How a hog that left got there: forced (active balance) or a pull.
	[ "$moved" = 0 ] || for p in $hogs; do
		echo "# hog $p on CPU $(cpu_of "$p"): $(grep -E '^(se\.nr_migrations|nr_forced_migrations|nr_failed_migrations_(affine|running|hot)) ' "/proc/$p/sched" |
			awk '{ printf "%s%s %s", (n++ ? ", " : ""), $1, $3 }')"
	done
	stop_hogs
	[ "$moved" != 0 ] || break
done
check "rfc-before: two tasks on the remote die's two CPUs stay (within 3.7's capacity) for 4 s, in one of up to 3 trials" [ "$moved" = 0 ]

only
start_hogs
spread=0
for i in $(seq 1 16); do
	sleep 0.5
	if [ "$(on_first_die)" -ge 1 ]; then spread=1; break; fi
done
echo "# stock: a hog on CPUs 0-1 after $i half-seconds: $spread"
check "stock: one of the two tasks moves to the idle die" [ "$spread" = 1 ]
stop_hogs

exit $((failed > 0))
