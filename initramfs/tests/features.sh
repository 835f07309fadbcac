#!/bin/sh
# Guest suite: the feature-bit plumbing of the series.  Every
# feature of the features file set, cleared and read back (the 6.1 ones and
# the new ones); unknown names and garbage refused with nothing changed; the
# pre-5.13 path is the same file; the pjt_* tunables, pjt_counting and
# pjt_stats refuse bad writes and keep their value; a toggle storm under load leaves no splat.
# Runs as root in the guest (busybox sh), debugfs at /sys/kernel/debug.
D=/sys/kernel/debug
F=$D/sched/features
COMPAT=$D/sched_features
NEW_BITS=${PJT_BITS:?not set: the plan sets the series bits from run/contract/bits}
. /usr/lib/pjt/tap.sh


# Writes that must fail, in a subshell so a failing redirection cannot end
# the suite.  The value is written as printf %b: exactly its bytes, with \n
# for a newline (an empty write would be no write(2) at all).
refused() { ! (printf '%b' "$2" > "$1") 2>/dev/null; }
accepted() { (printf '%s\n' "$2" > "$1") 2>/dev/null; }

# The features file as one word per line (NO_ prefix for clear bits).
state() { tr ' ' '\n' < "$1" | grep -v '^$'; }
has_word() { state "$1" | grep -qx "$2"; }
bare() { echo "${1#NO_}"; }

initial=$(state "$F")
[ -n "$initial" ] || { echo "not ok 1 - $F readable"; exit 1; }

# LATENCY_WARN, set for a moment below, warns once a CPU has gone
# latency_warn_ms (100) with need_resched set: a busy host stalls a vCPU
# that long, and the boot would fail on a warning the series did not
# cause.  0 turns the measurement off; the bit still sets and clears.
LW=$D/sched/latency_warn_ms
latency_warn_boot=$(cat "$LW")
echo 0 > "$LW"

for bit in $NEW_BITS; do
	check "$bit exists and defaults to off" has_word "$F" "NO_$bit"
done

# Set and clear every feature and read it back; the others must not move.
for word in $initial; do
	name=$(bare "$word")
	others_before=$(state "$F" | grep -vx -e "$name" -e "NO_$name")
	ok=true
	accepted "$F" "$name" && has_word "$F" "$name" || ok=false
	accepted "$F" "NO_$name" && has_word "$F" "NO_$name" || ok=false
	# Back to its boot state.
	accepted "$F" "$word" && has_word "$F" "$word" || ok=false
	[ "$(state "$F" | grep -vx -e "$name" -e "NO_$name")" = "$others_before" ] || ok=false
	check "feature $name sets, clears and reads back alone" $ok
done
check "features file back to its boot state" [ "$(state "$F")" = "$initial" ]

# Unknown names and garbage: refused, nothing changed.
long=$(printf '%070d' 0)
# The last one: truncated to the buffer it would have set PJT_BUSIEST.
for bad in PJT_NOPE NO_PJT_NOPE pjt_busiest "PJT_BUSIEST junk" "NO_" "\n" \
	   "PJT_BUSIEST$long" "PJT_BUSIEST$(printf '%60s' '')x"; do
	check "features refuses '$(echo "$bad" | cut -c1-30)'" refused "$F" "$bad"
done
check "refused writes changed nothing" [ "$(state "$F")" = "$initial" ]

# The pre-5.13 path is the same file, both ways.
check "compat path $COMPAT exists" [ -f "$COMPAT" ]
check "compat path reads the same" [ "$(state "$COMPAT")" = "$(state "$F")" ]
accepted "$COMPAT" PJT_IDLEST
check "write through compat path shows in sched/features" has_word "$F" PJT_IDLEST
accepted "$F" NO_PJT_IDLEST
check "write through sched/features shows in compat path" has_word "$COMPAT" NO_PJT_IDLEST
check "compat path refuses unknown names" refused "$COMPAT" PJT_NOPE

# Tunables: defaults, valid values incl. range ends, each kind of bad value.
takes() { accepted "$1" "$2" && [ "$(cat "$1")" = "$2" ]; }
keeps() { refused "$1" "$2" && [ "$(cat "$1")" = "$3" ]; }
tunable_test() { # tunable_test NAME DEFAULT MAX
	t=$D/sched/$1
	check "$1 defaults to $2" [ "$(cat "$t")" = "$2" ]
	for v in 0 "$3" 7 "$2"; do
		check "$1 accepts $v" takes "$t" "$v"
	done
	accepted "$t" 5
	for bad in "\n" "abc" "-1" "+5" "12x" " 12" "12 " "0x10" "$(($3 + 1))" \
		   "4294967296" "00000000000000005" "5\n\n"; do
		check "$1 refuses '$bad' and keeps 5" keeps "$t" "$bad" 5
	done
	accepted "$t" "$2"
}
tunable_test pjt_short_load 1178 1048576
tunable_test pjt_short_nr 2 1024

# pjt_counting: off by default (bits off = the stock path, nothing extra),
# 1 or 0 only.
C=$D/sched/pjt_counting
check "pjt_counting defaults to 0" [ "$(cat "$C")" = 0 ]
check "pjt_counting takes 1" takes "$C" 1
for bad in 2 -1 abc "1 " "\n" 01x; do
	check "pjt_counting refuses '$bad' and keeps 1" keeps "$C" "$bad" 1
done
check "pjt_counting takes 0" takes "$C" 0

# pjt_stats: documented format, reset by 0 only.
S=$D/sched/pjt_stats
stats_format_ok() {
	awk 'NR == 1 { ok = ($0 == "point evaluated differed applied"); next }
	     { names = names " " $1
	       if (NF != 4 || $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/) ok = 0 }
	     END { exit !(ok && NR == 7 &&
		   names == " short_tasks busiest imbalance move_tasks idlest wake_affine") }' "$S"
}
check "pjt_stats reads in the documented format" stats_format_ok
for bad in 1 "\n" "00x" -0 "0 0"; do
	check "pjt_stats refuses '$bad'" refused "$S" "$bad"
done
check "pjt_stats resets with 0" accepted "$S" 0
# Counters may grow again at once; the format must hold after a reset.
check "pjt_stats format holds after reset" stats_format_ok

# Toggle storm: every bit flipped in random order while all vCPUs are busy.
ncpu=$(grep -c '^processor' /proc/cpuinfo)
loadpids=""
if command -v hackbench >/dev/null 2>&1; then
	(while :; do hackbench -g 2 -l 200 >/dev/null 2>&1; done) &
	loadpids="$loadpids $!"
fi
i=0
while [ "$i" -lt "$ncpu" ]; do
	(while :; do :; done) &
	loadpids="$loadpids $!"
	i=$((i + 1))
done
# The writer runs at nice -10 (the load at 0), so that its pace does not
# hang on how many load tasks share the vCPUs (hackbench alone is 80), and
# stops at 3000 writes or after 120 s of guest time: a busy host shortens
# the storm instead of stalling the boot past its timeout.
renice -10 -p $$ >/dev/null
read -r uptime _ < /proc/uptime
storm_end=$((${uptime%.*} + 120))
# WARN_DOUBLE_CLOCK and LATENCY_WARN exist to print warnings: not stormed.
names=$(for w in $initial; do bare "$w"; done | grep -vx -e WARN_DOUBLE_CLOCK -e LATENCY_WARN)
storm_ok=true
writes=0
# awk's rand() picks the order: 3000 writes, each a random feature on or off.
for w in $(echo "$names" | awk -v seed="$$" 'BEGIN { srand(seed) }
		{ name[NR] = $0 }
		END { for (i = 0; i < 3000; i++) {
			k = int(rand() * NR) + 1
			print (rand() < 0.5 ? "NO_" : "") name[k] } }'); do
	printf '%s\n' "$w" > "$F" 2>/dev/null || storm_ok=false
	writes=$((writes + 1))
	[ $((writes % 100)) -ne 0 ] && continue
	read -r uptime _ < /proc/uptime
	[ "${uptime%.*}" -lt "$storm_end" ] || break
done
# LEGACY_LOAD and the PJT bits all on together while loaded, then all off.
for bit in $NEW_BITS; do accepted "$F" "$bit" || storm_ok=false; done
sleep 2
for bit in $NEW_BITS; do accepted "$F" "NO_$bit" || storm_ok=false; done
# The load stops with the storm: a hackbench round left running would
# compete with the rest of the suite.
for p in $loadpids; do kill "$p" 2>/dev/null; done
killall hackbench 2>/dev/null
wait 2>/dev/null
renice 0 -p $$ >/dev/null
echo "# toggle storm: $writes writes"
check "toggle storm: every random write accepted" $storm_ok
check "toggle storm: at least 300 writes (3000, or what 120 s allowed)" [ "$writes" -ge 300 ]
check "no WARN/BUG/Oops in dmesg after the storm" \
	sh -c "! dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace|lockdep' >/dev/null"
check "kernel responsive after the storm" sh -c "sleep 1 && cat /proc/loadavg >/dev/null"

# Defaults back: the boot feature state and tunables.
for word in $initial; do accepted "$F" "$word"; done
check "features restored to boot state" [ "$(state "$F")" = "$initial" ]
echo "$latency_warn_boot" > "$LW"
accepted "$S" 0
echo "# features.sh: $n tests, $failed failed"
[ "$failed" -eq 0 ]
