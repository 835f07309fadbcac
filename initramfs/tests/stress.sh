#!/bin/sh
# Guest suite: a peer's stress suite under live flipping.
# stress-ng's scheduler stressors, each for a few seconds:
#   phase 1  every series bit off, counting off, default tunables: one
#            stress-ng, 2 workers;
#   phase 2  while a background flipper writes random sets of the series
#            bits, pjt_counting and the tunables pjt_short_load/pjt_short_nr
#            continuously (and reads and resets pjt_stats now and then): two
#            stress-ng of 1 worker at once, in two cgroups of unequal
#            cpu.weight when the kernel has cgroup v2's cpu controller
#            (FAIR_GROUP_SCHED), throttled by a cpu.max of 10 ms a 20-ms
#            period where it has CFS bandwidth, else side by side.
# cpu-online (CPU hotplug, so sched-domain rebuilds, --pathological) runs
# beside a switch stressor.  A stressor passes when stress-ng exits 0 having
# done work (bogo ops > 0); one the guest kernel cannot run (stress-ng says
# it is skipped, not implemented or unsupported) is "ok N - NAME # SKIP
# reason", never dropped.  Then: no fault in dmesg, all CPUs online with the
# sched domains of the start, the balancer and the series' points still at
# work on them, and a known state of the bits and tunables, then the boot
# state, read back exactly.
# Knobs (environment): STRESS_TIMEOUT seconds per stressor (default 2;
# clone runs four times as long, see run_stressor),
# STRESS_SEED the flipper's seed (default: the time), STRESS_ONLY a subset.
D=/sys/kernel/debug/sched
F=$D/features
CG=/sys/fs/cgroup
TMP=/tmp/stress
T=${STRESS_TIMEOUT:-2}
STRESSORS=${STRESS_ONLY:-"affinity clone fork futex hrtimers nice pipe pthread race-sched resched schedpolicy sem switch yield vfork cpu-online"}
# The kernel console's fault patterns (run/faults; the image has no copy).
FAULTS='Kernel panic|Oops:|BUG:|WARNING:|general protection fault|invalid opcode:|Call Trace:|blocked for more than|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|rcu_.* stall|self-detected stall|soft lockup|hard LOCKUP|UBSAN:|KASAN:|kernel BUG at'
. /usr/lib/pjt/tap.sh

rm -rf "$TMP"
mkdir -p "$TMP"
tap_skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
tap() { # tap OK|FAIL TEXT
	n=$((n + 1))
	if [ "$1" = OK ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
comment() { sed 's/^/# /'; }

if ! command -v stress-ng > /dev/null; then
	tap FAIL "stress-ng is in the image"
	exit 1
fi
echo "# $(stress-ng --version 2>&1)"

# The features file as one word a line (NO_ prefix for a clear bit); the
# series' bits from the plan (PJT_BITS, run/contract/bits) or the file.
state() { tr ' ' '\n' < "$F" | grep -v '^$'; }
bits=${PJT_BITS:-$(state | sed 's/^NO_//' | grep -E '^(PJT_[A-Z_]+|LEGACY_LOAD)$')}
bits=$(echo $bits)
echo "# series bits: $bits"
initial=$(state)
tunables="pjt_short_load pjt_short_nr pjt_counting"
for t in $tunables; do eval "init_$t=\$(cat $D/$t)"; done
online0=$(cat /sys/devices/system/cpu/online)

# The sched domains: each CPU's domains with their name and parameters
# (debugfs) and spans (/proc/schedstat).  max_newidle_lb_cost moves by
# itself and is left out.
domains() {
	for f in $D/domains/cpu*/domain*/*; do
		case ${f##*/} in max_newidle_lb_cost) continue ;; esac
		echo "${f#$D/domains/} $(cat "$f")"
	done
	awk '/^cpu/ { c = $1 } /^domain/ { print c, $1, $2 }' /proc/schedstat
}
domains0=$(domains)

all_off() {
	for b in $bits; do echo "NO_$b" > "$F"; done
	for t in $tunables; do eval "echo \$init_$t" > "$D/$t"; done
}

# The dmesg lines since MARK (all of it if the mark was overwritten).
since() {
	dmesg > "$TMP/dmesg"
	if grep -q "stress.sh: $1" "$TMP/dmesg"; then
		awk -v m="stress.sh: $1" 'index($0, m) { on = 1 } on' "$TMP/dmesg"
	else
		cat "$TMP/dmesg"
	fi
}
mark() { echo "stress.sh: $1" > /dev/kmsg; }
no_fault_since() { ! since "$1" | grep -Eq "$FAULTS"; }

# Cgroups: v2 with the cpu controller, two groups of unequal weight.
groups= throttle=
if grep -qw cgroup2 /proc/filesystems; then
	mkdir -p $CG
	grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG 2>/dev/null
	if grep -qw cpu $CG/cgroup.controllers 2>/dev/null &&
	   echo +cpu > $CG/cgroup.subtree_control 2>/dev/null; then
		mkdir -p $CG/stress1 $CG/stress2
		echo 100 > $CG/stress1/cpu.weight
		echo 300 > $CG/stress2/cpu.weight
		groups="stress1 stress2"
		# CFS bandwidth (CONFIG_CFS_BANDWIDTH): half a CPU, 10 ms a 20-ms
		# period (shorter periods make the emulated kernel scale them up), so
		# a busy group's entity is throttled (dequeued) and unthrottled
		# (enqueued) about fifty times a second while bits flip.
		throttle=
		if [ -f $CG/stress1/cpu.max ]; then
			for g in $groups; do echo "10000 20000" > $CG/$g/cpu.max; done
			throttle=1
		fi
	fi
fi

# start OUT GROUP ARGS...: stress-ng ARGS for $secs seconds in the
# background (in cgroup GROUP unless empty), its output in OUT; a run 20
# times that long is killed.
start() {
	out=$1 g=$2
	shift 2
	sh -c 'if [ -n "$1" ]; then echo $$ > "$1/cgroup.procs" || exit 125; fi
	       shift; exec timeout -s KILL "$@"' sh "${g:+$CG/$g}" $((secs * 20 + 30)) \
		stress-ng --temp-path /tmp --timeout "${secs}s" --metrics-brief "$@" > "$out" 2>&1 &
}

# verdict OUT RC STRESSOR [GROUP]: sets v to pass, skip or fail and why to
# the reason (skip) or a summary (pass, fail).  In a throttled GROUP a
# worker that ran (usr+sys time in its metrics) may end its 2 s with no op
# done: the emulator runs the vCPUs in turn, and a vCPU waiting for its
# host thread still burns the group's quota (seen with clone and yield);
# it ran throttled, which is what the phase exercises.
verdict() {
	set -- "$1" "$2" "$3" "${4:-}" $(awk -v s="$3" '$2 == "metrc:" && $4 == s { print $5, $7 + $8; exit }' "$1")
	bogo=${5:-} cpu=${6:-0}
	skipmsg=$(grep -m 1 -E 'will be skipped|skipping|not implemented|No stress workers invoked|unsupported' "$1" |
		sed 's/^stress-ng: [a-z]*: *\[[0-9]*\] *//')
	if [ "$2" = 0 ] && [ "${bogo:-0}" -gt 0 ] 2>/dev/null; then
		v=pass why="$bogo bogo ops"
	elif [ -n "$skipmsg" ] && [ "${bogo:-0}" = 0 ] && case $2 in 0|3|4) true ;; *) false ;; esac; then
		v=skip why=$skipmsg
	elif [ "$2" = 0 ] && [ "$bogo" = 0 ] && [ -n "$throttle" ] && [ -n "$4" ] &&
	     awk -v c="$cpu" 'BEGIN { exit !(c > 0) }'; then
		v=pass why="0 bogo ops, but ran ${cpu} s (usr+sys) in its throttled group"
	else
		v=fail why="exit $2, ${bogo:-no} bogo ops"
	fi
}

# Skipped stressors and their reason, in first-seen order.
skipped=
ran=
note_skip() { case " $skipped " in *" $1 "*) ;; *) skipped="$skipped $1"; echo "$1 $2" >> "$TMP/skips" ;; esac; }
note_ran() { case " $ran " in *" $1 "*) ;; *) ran="$ran $1" ;; esac; }

# run_stressor PHASE NAME: one stressor in PHASE "bits off" (one stress-ng,
# 2 workers) or "flipping" (two stress-ng of 1 worker at once, 2 for
# schedpolicy, in the two groups when there are groups).  cpu-online has a switch worker beside it
# (in phase 1 in the same stress-ng, in phase 2 in the second one), so the
# CPUs it takes away have tasks to move.
run_stressor() {
	phase=$1 s=$2
	o=$TMP/$(echo "$phase" | tr ' ' -)-$s
	rm -f "$o".*
	comp= extra= w=1
	[ "$s" = cpu-online ] && comp=switch extra=--pathological
	# A lone schedpolicy worker makes about 24 ops/s on this kernel, bits
	# or not (stress-ng sizes its SCHED_DEADLINE runtime by the workers):
	# two a stress-ng in phase 2 too.
	[ "$s" = schedpolicy ] && w=2
	# stress-ng 0.15.06's clone worker first maps and touches 128 MiB
	# (MAP_POPULATE), then clones: on this emulated guest that set-up takes
	# 0.7 s of a 2-s run alone and more than 1.2 s beside one busy task, so
	# beside the flipper 2 s measured the set-up and ended with 0 clones.
	# Ops grow linearly after it (2 workers: about 70, 160, 370 in 2, 4,
	# 8 s alone; 30, 110, 235 beside a busy loop).
	secs=$T
	[ "$s" = clone ] && secs=$((T * 4))
	mark "$phase: $s"
	if [ "$phase" = "bits off" ]; then
		if [ -n "$comp" ]; then
			start "$o.1" "" --$s 1 $extra --$comp 1
		else
			start "$o.1" "" --$s 2
		fi
		wait $!
		r=$?
		judge="$o.1 $r $s -"
		[ -z "$comp" ] || judge="$judge
$o.1 $r $comp -"
	else
		g1=- g2=-
		[ -z "$groups" ] || g1=stress1 g2=stress2
		set -- $(cat "$TMP/flips" 2>/dev/null) 0
		f0=$1
		start "$o.1" "${g1#-}" --$s $w $extra
		p1=$!
		start "$o.2" "${g2#-}" --${comp:-$s} $w
		p2=$!
		wait $p1
		r1=$?
		wait $p2
		r2=$?
		set -- $(cat "$TMP/flips" 2>/dev/null) 0
		judge="$o.1 $r1 $s $g1
$o.2 $r2 ${comp:-$s} $g2"
	fi
	res=pass whys= skipwhy=
	while read -r file rc name where; do
		where=${where#-}
		verdict "$file" "$rc" "$name" "$where"
		whys="$whys${whys:+; }$name${where:+ in $where}: $why"
		case $v in
		fail) res=fail ;;
		skip) [ "$res" = pass ] && [ "$name" = "$s" ] && res=skip skipwhy=$why ;;
		esac
	done <<-EOF2
	$judge
	EOF2
	[ "$phase" = "bits off" ] || whys="$whys; $(($1 - f0)) flipper writes"
	case $res in
	pass)
		note_ran "$s"
		tap OK "$s, $phase ($whys)" ;;
	skip)
		note_skip "$s" "$skipwhy"
		tap_skip "$s, $phase" "$skipwhy" ;;
	fail)
		tap FAIL "$s, $phase ($whys)"
		for out in "$o".*; do
			grep -vE 'metrc:|^$' "$out" | tail -n 8 | comment
		done ;;
	esac
}

# Phase 1: every series bit off.
all_off
check "phase 1 starts with every series bit off" \
	sh -c "! tr ' ' '\n' < $F | grep -qxE '$(echo $bits | tr ' ' '|')'"
mark "phase 1"
for s in $STRESSORS; do
	run_stressor "bits off" "$s"
done
check "no kernel fault in dmesg during phase 1" no_fault_since "phase 1"
check "all CPUs online after phase 1 ($online0)" [ "$(cat /sys/devices/system/cpu/online)" = "$online0" ]

# Phase 2: the flipper.  awk draws the writes (one feature word, tunable or
# pjt_stats action a line); the shell writes them with builtins only (no
# fork per write) and counts them and the refused ones in $TMP/flips every
# 32 lines; it stops when $TMP/stop appears.
seed=${STRESS_SEED:-$(date +%s)}
echo "# flipper seed $seed (STRESS_SEED=$seed reproduces the draws)"
flipper() {
	awk -v seed="$seed" -v bits="$bits" 'BEGIN {
		srand(seed)
		nb = split(bits, b, " ")
		for (;;) {
			# A random set of the bits, in a random order.
			for (i = 1; i <= nb; i++) o[i] = i
			for (i = nb; i > 1; i--) { k = int(rand() * i) + 1; t = o[i]; o[i] = o[k]; o[k] = t }
			line = "F"
			for (i = 1; i <= nb; i++) line = line " " (rand() < 0.5 ? "NO_" : "") b[o[i]]
			print line
			if (rand() < 0.5) print "T pjt_counting " int(rand() * 2)
			if (rand() < 0.4) {
				x = rand()
				print "T pjt_short_load " (x < 0.1 ? 0 : x < 0.2 ? 1048576 : int(rand() * 1048577))
			}
			if (rand() < 0.4) {
				x = rand()
				print "T pjt_short_nr " (x < 0.1 ? 0 : x < 0.2 ? 1024 : int(rand() * 1025))
			}
			if (rand() < 0.05) print "S"
			if (rand() < 0.02) print "R"
		}
	}' | {
		w=0 bad=0 lines=0
		while read -r kind x y; do
			case $kind in
			F)	for word in $x $y; do
					w=$((w + 1))
					echo "$word" > "$F" 2>/dev/null || bad=$((bad + 1))
				done ;;
			T)	w=$((w + 1))
				echo "$y" > "$D/$x" 2>/dev/null || bad=$((bad + 1)) ;;
			S)	w=$((w + 1))
				{ while read -r l; do :; done < "$D/pjt_stats"; } 2>/dev/null || bad=$((bad + 1)) ;;
			R)	w=$((w + 1))
				echo 0 > "$D/pjt_stats" 2>/dev/null || bad=$((bad + 1)) ;;
			esac
			lines=$((lines + 1))
			if [ $((lines % 32)) = 0 ]; then
				echo "$w $bad" > "$TMP/flips"
				[ -e "$TMP/stop" ] && break
			fi
		done
		echo "$w $bad" > "$TMP/flips"
	}
}
rm -f "$TMP/stop" "$TMP/flips"
mark "phase 2"
flipper &
flip_pid=$!
if [ -n "$groups" ]; then
	check "phase 2 runs in two cgroups of cpu.weight 100 and 300" [ -d $CG/stress2 ]
	u0=$(for g in $groups; do awk '$1 == "usage_usec" { print $2 }' $CG/$g/cpu.stat; done)
else
	tap_skip "phase 2 in two cgroups" "no cgroup v2 cpu controller in this kernel (CONFIG_CGROUPS/CONFIG_FAIR_GROUP_SCHED off: the groups kernel has them)"
fi
sleep 1
for s in $STRESSORS; do
	run_stressor flipping "$s"
done
alive=false
kill -0 $flip_pid 2>/dev/null && alive=true
check "the flipper ran through phase 2" $alive
touch "$TMP/stop"
wait $flip_pid
set -- $(cat "$TMP/flips" 2>/dev/null) 0 0
echo "# flipper: $1 writes, $2 refused"
check "flipper: $1 writes, every one accepted" [ "$1" -gt 0 -a "$2" = 0 ]
if [ -n "$groups" ]; then
	u1=$(for g in $groups; do awk '$1 == "usage_usec" { print $2 }' $CG/$g/cpu.stat; done)
	echo "# cpu.stat usage_usec of $groups: before" $u0 "after" $u1
	grew() { [ "$3" -gt "$1" ] && [ "$4" -gt "$2" ]; }
	check "both cgroups ran their stressors (cpu.stat usage_usec grew)" grew $u0 $u1
	if [ -n "$throttle" ]; then
		t1=$(for g in $groups; do awk '$1 == "nr_throttled" { print $2 }' $CG/$g/cpu.stat; done)
		echo "# cpu.stat nr_throttled of $groups (quota 10 ms / 20 ms):" $t1
		check "both cgroups were throttled (cpu.max 10000 20000; nr_throttled > 0)" grew 0 0 $t1
	else
		tap_skip "throttled cgroups" "no cpu.max in this kernel (CONFIG_CFS_BANDWIDTH off: the groups kernel has it)"
	fi
	# busybox timeout's watcher leaves up to 1 s after its stress-ng.
	i=0
	while [ "$(cat $CG/stress1/cgroup.procs $CG/stress2/cgroup.procs | wc -l)" != 0 ] && [ $i -lt 10 ]; do
		sleep 1
		i=$((i + 1))
	done
	check "the cgroups are empty after the stressors (within 10 s)" \
		[ "$(cat $CG/stress1/cgroup.procs $CG/stress2/cgroup.procs | wc -l)" = 0 ]
	for p in $(cat $CG/stress1/cgroup.procs $CG/stress2/cgroup.procs); do
		echo "# left in a group: $p $(tr '\0' ' ' < /proc/$p/cmdline)"
	done
fi
check "no kernel fault in dmesg during phase 2" no_fault_since "phase 2"
check "all CPUs online after phase 2 ($online0)" [ "$(cat /sys/devices/system/cpu/online)" = "$online0" ]
domains > "$TMP/domains1"
echo "$domains0" > "$TMP/domains0"
check "after the hotplugs: the sched domains of the start (names, spans, parameters)" \
	cmp -s "$TMP/domains0" "$TMP/domains1"
diff "$TMP/domains0" "$TMP/domains1" 2>/dev/null | head -n 10 | comment

# The balancer and the series' points at work on the rebuilt domains: eight
# tasks busy half of each 10 ms for 2 s (so CPUs go idle and pull), once
# with every bit off (6.1's balancer must pull), once with every bit set
# and counting on (each point must evaluate; no pull is asserted there:
# PJT_SHORT_TASKS rightly keeps a CPU of two short tasks from being busiest).
pulls() { awk '/^domain/ { for (i = 0; i < 3; i++) s += $(3 + 8 * i + 4) } END { print s + 0 }' /proc/schedstat; }
load() { # load TAG: pjtload's run, its pulls in $pl
	p0=$(pulls)
	pjtload duty threads=8 duty=50 period=10ms duration=2s > "$TMP/pjtload-$1" 2>&1
	lrc=$?
	pl=$(($(pulls) - p0))
	check "after the hotplugs, $1: pjtload ran 8 tasks for 2 s" [ "$lrc" = 0 ]
	[ "$lrc" = 0 ] || cut -c1-200 "$TMP/pjtload-$1" | comment
}
all_off
load "every bit off"
echo "# after the hotplugs, every bit off: $pl pulls"
check "after the hotplugs, every bit off: the balancer pulls" [ "$pl" -gt 0 ]
for b in $bits; do echo "$b" > "$F"; done
echo 1 > $D/pjt_counting
echo 0 > $D/pjt_stats
load "every bit set"
awk 'NR > 1 { print $1, $2 }' $D/pjt_stats > "$TMP/evaluated"
echo "# after the hotplugs, every bit set: $pl pulls; evaluated:" $(cat "$TMP/evaluated")
check "after the hotplugs, every bit set: every decision point evaluates" \
	awk '$2 == 0 { bad = 1 } END { exit bad || NR == 0 }' "$TMP/evaluated"

# A known state, read back exactly: every other bit set, tunables off
# their defaults, counting on; the 6.1 features as at the start.
expect=$TMP/expect
i=0 set_bits=
for b in $bits; do
	i=$((i + 1))
	if [ $((i % 2)) = 1 ]; then echo "$b" > "$F"; set_bits="$set_bits $b"; else echo "NO_$b" > "$F"; fi
done
echo "$initial" | awk -v on="$set_bits" -v all="$bits" '
	BEGIN { split(on, a, " "); for (i in a) set[a[i]] = 1; split(all, a, " "); for (i in a) ours[a[i]] = 1 }
	{ w = $0; sub(/^NO_/, "", w) }
	ours[w] { print (w in set) ? w : "NO_" w; next }
	{ print }' > "$expect"
echo 4321 > $D/pjt_short_load
echo 7 > $D/pjt_short_nr
echo 1 > $D/pjt_counting
state > "$TMP/state"
check "known state:$set_bits set, the rest as at the start" cmp -s "$expect" "$TMP/state"
check "known state: pjt_short_load 4321, pjt_short_nr 7, pjt_counting 1" \
	[ "$(cat $D/pjt_short_load) $(cat $D/pjt_short_nr) $(cat $D/pjt_counting)" = "4321 7 1" ]

# Back to the boot state.
all_off
echo 0 > $D/pjt_stats
check "features back to the boot state, word for word" [ "$(state)" = "$initial" ]
check "tunables back to the boot state ($init_pjt_short_load $init_pjt_short_nr $init_pjt_counting)" \
	[ "$(cat $D/pjt_short_load) $(cat $D/pjt_short_nr) $(cat $D/pjt_counting)" = \
	  "$init_pjt_short_load $init_pjt_short_nr $init_pjt_counting" ]
check "no kernel fault in dmesg at the end" no_fault_since "phase 1"
[ -n "$groups" ] && rmdir $CG/stress1 $CG/stress2 2>/dev/null

echo "# stress-ng ran:$ran"
if [ -f "$TMP/skips" ]; then
	while read -r s why; do echo "# stress-ng skipped: $s ($why)"; done < "$TMP/skips"
else
	echo "# stress-ng skipped: none"
fi
echo "# stress.sh: $n tests, $failed failed"
[ "$failed" -eq 0 ]
