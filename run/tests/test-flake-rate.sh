#!/bin/sh
# run/tests/test-flake-rate.sh: run/flake-rate with a fake run/check
# (run/tests/fixtures/flake-rate/fake-check: suites that pass or fail by
# round, no QEMU):
#   - the CSV rows of every round and suite, the first "not ok" line quoted,
#     a failed round's logs kept, the groups passed to run/check
#   - killed mid-round (SIGKILL, SIGTERM): its run/check dies with it, the
#     finished rounds kept; --resume runs the rest, drops a half-written
#     round's rows, no (round, suite) twice; a folder in use is refused
#   - --load one-core: stress-ng runs during a round and is gone after it,
#     and after the tool is killed (SIGKILL or SIGTERM)
#   - the report: counts, exact 95% intervals against hand-computed values,
#     failed rounds named with their first "not ok" line, the target; the
#     TCG mode and commit recorded, two modes of one load not pooled
#   - bad input refused with a clear message, exit 2
# TAP-ish output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/run/tests/fixtures/tap.sh"
tap_begin test-flake-rate
flake=$top/run/flake-rate
export PJT_FLAKE_CHECK="$top/run/tests/fixtures/flake-rate/fake-check"
export PJT_FLAKE_CHECK_LOGS="$tmp/check-logs"
export FAKE_DIR

# fresh NAME: a fake-check state folder of its own
fresh() { FAKE_DIR=$tmp/$1.fake; rm -rf "$FAKE_DIR"; mkdir -p "$FAKE_DIR"; }
# rows FILE: its rows without the header
rows() { tail -n +2 "$1"; }
# the live (not zombie) processes of process group $1
group_alive() { ps -eo pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { n++ } END { exit !n }'; }
group_gone() { ! group_alive "$1"; }
pid_gone() { ! ps -o stat= -p "$1" 2>/dev/null | grep -qv '^Z'; }
# exactly the expected suite rows of a round that passed (K ROUND, L load)
pass_rows() {
	printf '%s\n' "$1,$2,host run/tests/test-a.sh,2,0,3,\"\"" "$1,$2,guest boot,1,0,40,\"\"" \
		"$1,$2,guest lb,2,0,12,\"\"" "$1,$2,groups stress,1,0,80,\"\""
}

echo "# ---- 10 rounds, guest lb failing in round 3, groups stress never run in round 5"
fresh a
FAKE_FAIL_LB=3 FAKE_NEVER=5 "$flake" --rounds 10 --out "$tmp/a" >"$tmp/a.out" 2>&1
echo $? >"$tmp/a.rc"
check "exit 1: rounds failed" sh -c "[ \"\$(cat '$tmp/a.rc')\" = 1 ] || { cat '$tmp/a.out'; false; }"
check "rounds.csv: its header, then rounds 1-10 in order, load none, run/check's exit 1 in rounds 3 and 5 only" sh -c "
	[ \"\$(head -n 1 '$tmp/a/rounds.csv')\" = round,start_utc,wall_s,load,host_cpu_busy,load1,check_exit,passed,failed ] &&
	[ \"\$(tail -n +2 '$tmp/a/rounds.csv' | cut -d, -f1,4,7 | tr '\n' ' ')\" = '1,none,0 2,none,0 3,none,1 4,none,0 5,none,1 6,none,0 7,none,0 8,none,0 9,none,0 10,none,0 ' ]"
check "rounds.csv: start time UTC, wall time, host busy a fraction 0..1, load1, the round's counts (round 3: 5 passed, 1 failed)" sh -c "
	tail -n +2 '$tmp/a/rounds.csv' | awk -F, 'NF != 9 || \$2 !~ /^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z\$/ || \$3 !~ /^[0-9]+\$/ ||
		\$5 !~ /^[01]\\.[0-9][0-9][0-9]\$/ || \$5 > 1 || \$6 !~ /^[0-9.]+\$/ { print \"bad row: \" \$0; bad = 1 } END { exit bad }' &&
	[ \"\$(sed -n 4p '$tmp/a/rounds.csv' | cut -d, -f8,9)\" = 5,1 ] && [ \"\$(sed -n 2p '$tmp/a/rounds.csv' | cut -d, -f8,9)\" = 6,0 ]"
{
	echo round,load,suite,passed,failed,seconds,first_not_ok
	for k in 1 2 3 4 5 6 7 8 9 10; do
		case $k in
		3) pass_rows 3 none | sed 's/^3,none,guest lb,2,0,12,""$/3,none,guest lb,1,1,12,"not ok 2 - lb: pulls 3, want ""5"", 3"/' ;;
		5) pass_rows 5 none | sed 's/^5,none,groups stress,1,0,80,""$/5,none,groups stress,0,1,,"not ok - groups stress never ran"/' ;;
		*) pass_rows "$k" none ;;
		esac
	done
} >"$tmp/a.want"
check "suites.csv: one row per round and suite, counts and seconds as run/check printed them, the first not ok line quoted (commas kept, quotes doubled)" \
	sh -c "diff '$tmp/a.want' '$tmp/a/suites.csv'"
check "run/check was given the default groups: --only guest --only host-qemu" \
	sh -c "[ \"\$(cat '$FAKE_DIR/args-1')\" = '--only guest --only host-qemu' ] && [ \"\$(cat '$FAKE_DIR/args-10')\" = '--only guest --only host-qemu' ]"
check "a failed round keeps run/check's logs (round-3/check/guest-lb.log is round 3's) and its output; a passed round only its output" sh -c "
	[ \"\$(cat '$tmp/a/round-3/check/guest-lb.log')\" = 'guest lb log, call 3' ] && grep -qF 'not ok 2 - lb: pulls 3, want \"5\", 3' '$tmp/a/round-3/check.out' &&
	[ ! -e '$tmp/a/round-1/check' ] && grep -q '^# guest lb: 2 passed, 0 failed\$' '$tmp/a/round-1/check.out'"
check "a line per round as it ends, naming the failed suites" sh -c "
	grep -q '^round 3/10: run/check exit 1, 5 passed, 1 failed (failed: guest lb), ' '$tmp/a.out' &&
	grep -q '^round 4/10: run/check exit 0, 6 passed, 0 failed, ' '$tmp/a.out'"

echo "# ---- the report"
"$flake" --report "$tmp/a" >"$tmp/rep.out" 2>&1
echo $? >"$tmp/rep.rc"
# Clopper-Pearson by hand: 0 of 10, upper 1 - 0.025^(1/10) = 0.3085;
# 1 of 10, lower 1 - 0.975^(1/10) = 0.002529, upper 0.4450 (the p where
# P(X <= 1) = 0.025 for n = 10).
check "--report exit 0; guest lb 9/10, rate 0.1, 95% CI [0.00253, 0.445]" sh -c "
	[ \"\$(cat '$tmp/rep.rc')\" = 0 ] && grep -Eq '^none +guest lb +9/10 +0\\.1 \\[0\\.00253, 0\\.445\\] ' '$tmp/rep.out' || { cat '$tmp/rep.out'; false; }"
check "--report: a suite that passed every round: 10/10, 0 [0, 0.308]; one that never ran once: 9/10" sh -c "
	grep -Eq '^none +guest boot +10/10 +0 \\[0, 0\\.308\\] ' '$tmp/rep.out' && grep -Eq '^none +host run/tests/test-a.sh +10/10 ' '$tmp/rep.out' &&
	grep -Eq '^none +groups stress +9/10 +0\\.1 \\[0\\.00253, 0\\.445\\] ' '$tmp/rep.out'"
check "--report: the host busy range of the rounds, min-max of rounds.csv" sh -c "
	r=\$(tail -n +2 '$tmp/a/rounds.csv' | cut -d, -f5 | sort -n | sed -n '1p;\$p' | paste -sd- | sed 's/^\\(.*\\)-\\1\$/\\1/')
	grep -Eq \"^none +guest lb +9/10 .* \$r\\\$\" '$tmp/rep.out' || { echo \"want \$r\"; cat '$tmp/rep.out'; false; }"
check "--report names each failed round with its first not ok line" sh -c "
	grep -qxF '  $tmp/a round 3 (none): guest lb: not ok 2 - lb: pulls 3, want \"5\", 3' '$tmp/rep.out' &&
	grep -qxF '  $tmp/a round 5 (none): groups stress: not ok - groups stress never ran' '$tmp/rep.out' &&
	[ \$(grep -c '^  $tmp/a round ' '$tmp/rep.out') = 2 ]"
check "--report: the quiet target (no failed round in 10) is not met with 2 failed rounds" \
	grep -q '^none: 10 rounds, 2 failed, host busy .*; target quiet (at most 0 failed in at least 10): NOT met$' "$tmp/rep.out"
# hand-written folders: 5 of 10 failed ([0.187, 0.813] by symmetry of
# P(X >= 5) = 0.025 at p = 0.1871), and 0 of 1 (upper 0.975)
mkdir -p "$tmp/h"
{
	echo round,start_utc,wall_s,load,host_cpu_busy,load1,check_exit,passed,failed
	for k in 1 2 3 4 5 6 7 8 9 10; do echo "$k,2026-12-06T07:00:00Z,60,one-core,0.5$k,1.0,$((k % 2)),3,$((k % 2))"; done
} >"$tmp/h/rounds.csv"
{
	echo round,load,suite,passed,failed,seconds,first_not_ok
	for k in 1 2 3 4 5 6 7 8 9 10; do
		echo "$k,one-core,guest wake,3,$((k % 2)),20,\"$([ $((k % 2)) = 0 ] || printf 'not ok 1 - wake ""%s""' "$k")\""
		[ "$k" != 1 ] || echo "1,one-core,guest once,1,0,1,\"\""
		# two sections of one name in a round (the guest boot's): one round
		echo "$k,one-core,guest boot,1,0,1,\"\""
		echo "$k,one-core,guest boot,20,$([ "$k" = 3 ] && echo 1 || echo 0),300,\"\""
	done
} >"$tmp/h/suites.csv"
"$flake" --report "$tmp/h" >"$tmp/h.out" 2>&1
check "--report, 5 of 10 failed: 5/10, 0.5 [0.187, 0.813]; 0 of 1: 1/1, 0 [0, 0.975]" sh -c "
	grep -Eq '^one-core +guest wake +5/10 +0\\.5 \\[0\\.187, 0\\.813\\] +0\\.51-0\\.59\$' '$tmp/h.out' &&
	grep -Eq '^one-core +guest once +1/1 +0 \\[0, 0\\.975\\] +0\\.51\$' '$tmp/h.out' || { cat '$tmp/h.out'; false; }"
check "--report: a suite with two sections a round counts rounds (guest boot 9/10, one failed), not sections" \
	grep -Eq '^one-core +guest boot +9/10 +0\.1 ' "$tmp/h.out"
check "--report: a quoted not ok line comes back unquoted; the loaded target allows one failed round" sh -c "
	grep -qxF '  $tmp/h round 1 (one-core): guest wake: not ok 1 - wake \"1\"' '$tmp/h.out' &&
	grep -q '^one-core: 10 rounds, 5 failed, host busy 0.51-0.59; target loaded (at most 1 failed in at least 10): NOT met\$' '$tmp/h.out'"
"$flake" --report "$tmp/a" "$tmp/h" >"$tmp/ah.out" 2>&1
check "--report of two folders: each load its own rows and target line" sh -c "
	grep -Eq '^none +guest lb +9/10 ' '$tmp/ah.out' && grep -Eq '^one-core +guest wake +5/10 ' '$tmp/ah.out' &&
	[ \$(grep -c ': 10 rounds, ' '$tmp/ah.out') = 2 ]"
check "settings.txt records the guests' TCG mode (PJT_BOOT_ACCEL, by default run/check's tcg,thread=single) and the commit" \
	sh -c "grep -qx 'accel: ${PJT_BOOT_ACCEL:-tcg,thread=single}' '$tmp/a/settings.txt' &&
	       grep -qx \"commit: \$(git -C '$top' describe --always --dirty)\" '$tmp/a/settings.txt'"
mkdir -p "$tmp/m1" "$tmp/m2"
cp "$tmp/h/rounds.csv" "$tmp/h/suites.csv" "$tmp/m1/" && cp "$tmp/h/rounds.csv" "$tmp/h/suites.csv" "$tmp/m2/"
printf 'rounds: 10\nload: one-core\nonly: guest host-qemu\naccel: tcg,thread=single\ncommit: abc\n' > "$tmp/m1/settings.txt"
printf 'rounds: 10\nload: one-core\nonly: guest host-qemu\n' > "$tmp/m2/settings.txt"
"$flake" --report "$tmp/m1" "$tmp/m2" >"$tmp/m.out" 2>"$tmp/m.err"
check "--report of one load in two TCG modes (a folder without accel: ran tcg,thread=multi): refused, exit 2, both named" \
	sh -c "[ $? = 2 ] && grep -qx 'run/flake-rate: cannot pool one-core rounds of tcg,thread=single and tcg,thread=multi' '$tmp/m.err' &&
	       grep -qx '$tmp/m2: load one-core, accel tcg,thread=multi, commit not recorded' '$tmp/m.out'"

echo "# ---- killed mid-round, then --resume"
fresh b
FAKE_HANG=3 "$flake" --rounds 5 --out "$tmp/b" >"$tmp/b.out" 2>&1 &
bpid=$!
wait_until 20 test -e "$FAKE_DIR/hanging-3"
check "round 3's run/check is running (rounds 1-2 done)" sh -c "[ -e '$FAKE_DIR/hanging-3' ] && [ \$(tail -n +2 '$tmp/b/rounds.csv' | wc -l) = 2 ]"
FAKE_DIR_B=$FAKE_DIR
fresh b2
"$flake" --resume "$tmp/b" >"$tmp/b2.out" 2>&1
echo $? >"$tmp/b2.rc"
check "a second run/flake-rate on the folder while it runs: refused, exit 2, nothing run" sh -c "
	[ \"\$(cat '$tmp/b2.rc')\" = 2 ] && grep -q '^run/flake-rate: $tmp/b is in use' '$tmp/b2.out' && [ ! -e '$FAKE_DIR/calls' ] || { cat '$tmp/b2.out'; false; }"
kill -KILL "$bpid"
wait "$bpid" 2>/dev/null
FAKE_DIR=$FAKE_DIR_B
wait_until 10 pid_gone "$(cat "$FAKE_DIR/pid-3")"
check "SIGKILL: the round's run/check dies with the tool (setpriv --pdeathsig TERM)" pid_gone "$(cat "$FAKE_DIR/pid-3")"
cp "$tmp/b/suites.csv" "$tmp/b.suites-before"
check "after SIGKILL: rounds 1-2 kept, in both files" sh -c "
	[ \"\$(tail -n +2 '$tmp/b/rounds.csv' | cut -d, -f1 | paste -sd' ')\" = '1 2' ] &&
	[ \"\$(tail -n +2 '$tmp/b/suites.csv' | cut -d, -f1 | uniq | paste -sd' ')\" = '1 2' ]"
# a run killed between a round's suite rows and its rounds.csv row leaves
# rows of an unfinished round: --resume must drop them
pass_rows 3 none | sed 's/guest lb,2,0/guest lb,0,9/' >>"$tmp/b/suites.csv"
"$flake" --resume "$tmp/b" >"$tmp/b3.out" 2>&1
echo $? >"$tmp/b3.rc"
check "--resume: exit 0, rounds 3-5 run (calls 4-6 of the fake: round 3 again, 4, 5)" sh -c "
	[ \"\$(cat '$tmp/b3.rc')\" = 0 ] && [ \"\$(cat '$FAKE_DIR/calls')\" = 6 ] && grep -q '^run/flake-rate: $tmp/b: rounds 3-5, load none' '$tmp/b3.out' || { cat '$tmp/b3.out'; false; }"
check "--resume: rounds.csv rounds 1-5, each once" sh -c "[ \"\$(tail -n +2 '$tmp/b/rounds.csv' | cut -d, -f1 | paste -sd' ')\" = '1 2 3 4 5' ]"
{ echo round,load,suite,passed,failed,seconds,first_not_ok; for k in 1 2 3 4 5; do pass_rows "$k" none; done; } >"$tmp/b.want"
check "--resume: suites.csv every (round, suite) once, the unfinished round's rows dropped, rounds 1-2's rows as they were" sh -c "
	diff '$tmp/b.want' '$tmp/b/suites.csv' && [ \"\$(head -n 9 '$tmp/b/suites.csv')\" = \"\$(head -n 9 '$tmp/b.suites-before')\" ]"
fresh c
FAKE_HANG_FG=2 "$flake" --rounds 3 --out "$tmp/c" >"$tmp/c.out" 2>&1 &
cpid=$!
wait_until 20 test -s "$FAKE_DIR/child-2"
kill -TERM "$cpid"
# the check command's foreground child sleeps 600 s: a tool that signalled
# the check command alone would wait for it
wait_until 30 pid_gone "$cpid"
if pid_gone "$cpid"; then wait "$cpid"; echo $? >"$tmp/c.rc"; else kill -KILL "$cpid"; echo "still running after 30 s" >"$tmp/c.rc"; fi
stopped=yes
for p in "$(cat "$FAKE_DIR/pid-2")" "$(cat "$FAKE_DIR/child-2")"; do pid_gone "$p" || { stopped="no: $p runs"; kill -KILL "$p"; }; done
check "SIGTERM mid-round: exit 130, says what it kept, round 1 kept, run/check and its foreground child stopped" sh -c "
	[ \"\$(cat '$tmp/c.rc')\" = 130 ] && grep -q 'interrupted in round 2 of 3; $tmp/c keeps the 1 finished' '$tmp/c.out' &&
	[ \"\$(tail -n +2 '$tmp/c/rounds.csv' | cut -d, -f1)\" = 1 ] && [ '$stopped' = yes ] || { cat '$tmp/c.rc'; echo 'stopped: $stopped'; false; }"
"$flake" --resume "$tmp/c" --rounds 4 >"$tmp/c2.out" 2>&1
check "--resume DIR --rounds 4: the folder grows to 4 rounds, and 4 is its total from now on" sh -c "
	[ \"\$(tail -n +2 '$tmp/c/rounds.csv' | cut -d, -f1 | paste -sd' ')\" = '1 2 3 4' ] && grep -qx 'rounds: 4' '$tmp/c/settings.txt'"

echo "# ---- --load one-core"
if command -v stress-ng >/dev/null 2>&1; then
	fresh d
	FAKE_SLEEP=3 "$flake" --rounds 1 --load one-core --only guest --out "$tmp/d" >"$tmp/d.out" 2>&1
	cores=$(nproc)
	check "--load one-core --only guest: the load recorded in both files, host busy at least 0.8 of one core of $cores, run/check given --only guest" sh -c "
		[ \"\$(tail -n +2 '$tmp/d/rounds.csv' | cut -d, -f4)\" = one-core ] && [ \"\$(tail -n +2 '$tmp/d/suites.csv' | cut -d, -f2 | sort -u)\" = one-core ] &&
		tail -n +2 '$tmp/d/rounds.csv' | awk -F, -v c=$cores '{ exit !(\$5 >= 0.8 / c) }' && [ \"\$(cat '$FAKE_DIR/args-1')\" = '--only guest' ] &&
		grep -q '^load: one-core\$' '$tmp/d/settings.txt' || { cat '$tmp/d/rounds.csv'; false; }"
	lpid=$(cat "$FAKE_DIR/load-1")
	check "stress-ng ran during the round and is gone after it (its process group), load.pid too" sh -c "
		[ -n '$lpid' ] && ! ps -eo pgid=,stat= | awk -v g='$lpid' '\$1 == g && \$2 !~ /^Z/' | grep -q . && [ ! -e '$tmp/d/load.pid' ]"
	[ -z "$lpid" ] || kill -KILL "-$lpid" 2>/dev/null
	for sig in KILL TERM; do
		fresh "e$sig"
		FAKE_HANG=1 "$flake" --rounds 2 --load one-core --out "$tmp/e$sig" >"$tmp/e$sig.out" 2>&1 &
		epid=$!
		wait_until 20 test -e "$FAKE_DIR/hanging-1"
		lpid=$(cat "$FAKE_DIR/load-1")
		check "SIG$sig: stress-ng runs during the round, its pid in load.pid" sh -c "
			[ -n '$lpid' ] && [ \"\$(cat '$tmp/e$sig/load.pid')\" = '$lpid' ] && ps -eo pgid=,stat=,comm= | awk -v g='$lpid' '\$1 == g && \$2 !~ /^Z/' | grep -q stress-ng"
		kill "-$sig" "$epid"
		wait "$epid" 2>/dev/null
		wait_until 10 group_gone "$lpid"
		check "SIG$sig to run/flake-rate: no stress-ng of its process group left, nor its run/check" sh -c "
			[ -n '$lpid' ] && ! ps -eo pgid=,stat= | awk -v g='$lpid' '\$1 == g && \$2 !~ /^Z/' | grep -q . &&
			! ps -o stat= -p \"\$(cat '$FAKE_DIR/pid-1')\" | grep -qv Z"
		# a failure above must not leave a CPU hog behind
		[ -z "$lpid" ] || kill -KILL "-$lpid" 2>/dev/null
	done
else
	skip "--load one-core: stress-ng is not installed (make deps)"
	skip "stress-ng ran during the round and is gone after it"
	for sig in KILL TERM; do
		skip "SIG$sig: stress-ng runs during the round"
		skip "SIG$sig to run/flake-rate: no stress-ng left"
	done
fi

echo "# ---- bad input: a clear message, exit 2, nothing run"
fresh f
# refused MESSAGE ARG...: exit 2, stderr "run/flake-rate: MESSAGE" and the
# --help pointer, nothing started
refused() {
	msg=$1
	shift
	"$flake" "$@" >"$tmp/r.out" 2>"$tmp/r.err"
	rc=$?
	printf 'run/flake-rate: %s\nrun/flake-rate: see run/flake-rate --help\n' "$msg" >"$tmp/r.want"
	[ "$rc" = 2 ] && cmp -s "$tmp/r.want" "$tmp/r.err" && [ ! -e "$FAKE_DIR/calls" ] ||
		{ echo "exit $rc, stderr:"; cat "$tmp/r.err"; echo "wanted:"; cat "$tmp/r.want"; return 1; }
}
check "--rounds 0: refused" refused "--rounds wants a positive number, not '0'" --rounds 0 --out "$tmp/f"
check "--rounds=ten: refused" refused "--rounds wants a positive number, not 'ten'" --rounds=ten --out "$tmp/f"
check "--load two-cores: refused" refused "--load two-cores: want none or one-core" --load two-cores --out "$tmp/f"
check "--only series: refused (it builds kernels: no flake to measure)" refused "--only series: want guest, host-qemu or host" --only series
check "an operand without --report: refused" refused "unexpected argument 'x' (folders go with --report)" x
check "--out a folder with rounds: refused, pointing to --resume" refused "--out $tmp/a already holds rounds: --resume $tmp/a goes on, or choose a new folder" --out "$tmp/a"
check "--resume a folder that is not one: refused" refused "--resume $tmp/h: not a run/flake-rate folder (no settings.txt and rounds.csv)" --resume "$tmp/h"
check "--resume DIR --load one-core: refused (the load is DIR's)" refused "--resume DIR takes only --rounds: the load and groups are DIR's" --resume "$tmp/b" --load one-core
check "--report without a folder: refused" refused "--report wants one or more folders" --report
check "--report with --rounds: refused" refused "--report takes folders only" --report --rounds 3 "$tmp/a"
check "--report of a folder without the CSVs: refused, naming it" refused "$tmp/f.fake: not a run/flake-rate folder (no rounds.csv and suites.csv)" --report "$tmp/f.fake"
mkdir -p "$tmp/g"
echo round,load >"$tmp/g/rounds.csv"
cp "$tmp/a/suites.csv" "$tmp/g/"
check "--report of a rounds.csv with other columns: refused, naming FILE:1" \
	refused "$tmp/g/rounds.csv:1: header is not 'round,start_utc,wall_s,load,host_cpu_busy,load1,check_exit,passed,failed'" --report "$tmp/g"
tap_end
