#!/bin/sh
# run/tests/test-matrix.sh: tests of the matrix runner.
#
# Host part: the planner against run/tests/fixtures/matrix (each bad-*.matrix names
# the lines that must be reported in its first line, "# expect: L L ..."),
# plan expansion counts, the interleaving property, the Williams order's
# balance (positions, predecessors, the boots' first runs, shards), order
# random's plans from before the order directive (fixtures), replicate
# arms, seeds, overrides, and run/matrix's own checks.  Guest part (needs build/bzImage and
# build/initramfs.cpio.gz; skipped otherwise, or with PJT_TEST_NO_BOOT=1):
# a tiny real matrix end to end, a mid-matrix guest crash, --resume after a
# kill.  Between them, run/matrix end to end with run/tests/fixtures/matrix/fake-boot
# in place of run/boot (no kernel): rt-app names, provenance, host load,
# --resume refusals, progress lines.  Prints TAP-ish "ok N - text" lines.
# check: boots QEMU (run/check runs it while no other guest runs)
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/run/tests/fixtures/matrix
plan_tool=$top/build/matrix-plan
. "$top/run/tests/fixtures/tap.sh"
tap_begin test-matrix

make -s -f "$top/run/matrix.mk" TOP="$top" BUILD="$top/build" matrix-tools >"$tmp/make.log" 2>&1
check "matrix-plan builds without warnings" sh -c "[ -x '$plan_tool' ] && ! grep -q warning '$tmp/make.log'"

# Bad files: exit 2, nothing on stdout, every expected line reported, no
# other line, and every message in FILE:LINE: form.
bad_file_reported() {
	f=$1
	expect=$(sed -n '1s/^# expect: //p' "$f" | tr ' ' '\n' | sort -n | tr '\n' ' ')
	"$plan_tool" "$f" >"$tmp/out" 2>"$tmp/err"
	[ $? = 2 ] || return 1
	[ ! -s "$tmp/out" ] || return 1
	grep -qv "^$f:[0-9][0-9]*: ." "$tmp/err" && return 1
	got=$(sed "s|^$f:\([0-9]*\):.*|\1|" "$tmp/err" | sort -nu | tr '\n' ' ')
	[ "$got" = "$expect" ] || { echo "# $f: expected lines $expect, got $got"; return 1; }
}
for f in "$fixtures"/bad-*.matrix; do
	check "$(basename "$f") is refused with every bad line named" bad_file_reported "$f"
done
for f in "$fixtures"/good-*.matrix; do
	check "$(basename "$f") is accepted" sh -c "'$plan_tool' '$f' >/dev/null"
done

plan() { "$plan_tool" "$@" 2>"$tmp/plan.err"; }
count() { awk -F'\t' -v k="$1" '$1 == k { n++ } END { print n + 0 }'; }
value() { awk -F'\t' -v k="$1" '$1 == k { print $2 }'; }

plan "$fixtures/good-full.matrix" >"$tmp/full.plan"
check "contract example: 6 combos (factorial stock folds into combo stock)" \
	test "$(count combo <"$tmp/full.plan")" = 6
check "contract example: 6 combos x 2 workloads x 5 reps = 60 runs" \
	test "$(count run <"$tmp/full.plan")" = 60 -a "$(value runs <"$tmp/full.plan")" = 60
check "features column lists bits in canonical order" \
	grep -q "^combo	rfc-after	PJT_SHORT_TASKS+PJT_BUSIEST+PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE$" "$tmp/full.plan"
check "a combo without bits has features 'none'" grep -q "^combo	stock	none$" "$tmp/full.plan"
check "seq numbers run 1..N in plan order" \
	sh -c "awk -F'\t' '\$1 == \"run\" && \$2 != ++n { exit 1 }' '$tmp/full.plan'"

plan "$fixtures/good-factorial.matrix" >"$tmp/fact.plan"
check "factorial over 4 bits gives 16 cells" test "$(count combo <"$tmp/fact.plan")" = 16
check "a factorial cell equal to a named combo keeps the combo's name" \
	sh -c "grep -q '^combo	busiest-only	PJT_BUSIEST$' '$tmp/fact.plan' && ! grep -q '^combo	PJT_BUSIEST	' '$tmp/fact.plan'"
check "factorial names join their bits with + in the order written" \
	grep -q "^combo	PJT_SHORT_TASKS+PJT_BUSIEST+PJT_IMBALANCE+PJT_MOVE_TASKS	" "$tmp/fact.plan"

# The 2^(8-4) resolution-IV fraction against the published table (NIST
# Dataplot DEXRES4: 5=234 6=134 7=123 8=124; its defining relation and
# two-factor alias chains as in Montgomery's table of 2^(k-p) designs).
plan "$fixtures/good-fraction.matrix" >"$tmp/frac.plan"
sed 's/generators.*/resolution 4/' "$fixtures/good-fraction.matrix" >"$tmp/frac-res.matrix"
plan "$tmp/frac-res.matrix" >"$tmp/frac-res.plan"
check "fraction resolution 4 over 8 features takes the standard 2^(8-4) generators E=BCD F=ACD G=ABC H=ABD" \
	test "$(value generator <"$tmp/frac-res.plan" | tr '\n' ' ')" = "E=BCD F=ACD G=ABC H=ABD "
check "2^(8-4) IV: 16 cells (all8 and stock keep their combo names), resolution 4" \
	sh -c "[ \"\$(grep -c '^combo	' '$tmp/frac.plan')\" = 16 ] && grep -q '^fraction	8	4	4	16$' '$tmp/frac.plan' &&
	       grep -q '^combo	all8	' '$tmp/frac.plan' && ! grep -q '^combo	PJT_SHORT_TASKS+PJT_BUSIEST+PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE+PJT_CLASSIFY+LEGACY_LOAD	' '$tmp/frac.plan' &&
	       grep -q '^combo	PJT_BUSIEST+PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST	PJT_BUSIEST+PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST$' '$tmp/frac.plan'"
check "2^(8-4) IV: the defining relation is the published one (14 words of 4 letters and ABCDEFGH)" \
	test "$(value defining <"$tmp/frac.plan")" = "I=ABCG=ABDH=ABEF=ACDF=ACEH=ADEG=AFGH=BCDE=BCFH=BDFG=BEGH=CDGH=CEFG=DEFH=ABCDEFGH"
cat >"$tmp/frac-alias.expected" <<'EOT'
A -
B -
C -
D -
E -
F -
G -
H -
AB CG DH EF
AC BG DF EH
AD BH CF EG
AE BF CH DG
AF BE CD GH
AG BC DE FH
AH BD CE FG
EOT
awk -F'\t' '$1 == "alias" { print $2, $3 }' "$tmp/frac.plan" >"$tmp/frac-alias"
check "2^(8-4) IV: main effects clear of two-factor interactions, the 28 two-factor interactions in 7 chains of 4" \
	cmp -s "$tmp/frac-alias" "$tmp/frac-alias.expected"
check "a fraction that aliases two main effects (E=A) is refused at its FILE:LINE" \
	sh -c "'$plan_tool' '$fixtures/bad-fraction.matrix' 2>&1 >/dev/null | grep -q '^$fixtures/bad-fraction.matrix:5: fraction: main effects A (PJT_SHORT_TASKS) and E (PJT_IDLEST) are aliased'"
sed 's/^fraction \(.*\) generators .*/fraction \1 generators D=AB/; s/PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY LEGACY_LOAD//; /all8/d' \
	"$fixtures/good-fraction.matrix" >"$tmp/frac3.matrix"
plan "$tmp/frac3.matrix" >"$tmp/frac3.plan"
check "2^(4-1) III by D=AB: main effects aliased with two-factor interactions (A = BD, D = AB) in the plan" \
	sh -c "grep -q '^alias	A	BD$' '$tmp/frac3.plan' && grep -q '^alias	D	AB$' '$tmp/frac3.plan' && grep -q '^fraction	4	1	3	8$' '$tmp/frac3.plan'"

plan "$fixtures/good-topologies.matrix" >"$tmp/topo.plan"
check "3 topologies x 2 combos x 5 workloads x 3 reps = 90 runs" \
	test "$(count run <"$tmp/topo.plan")" = 90
check "smp N and sockets=,cores=,threads= both become topologies" \
	sh -c "grep -q '^topology	1x2x1	--smp	2$' '$tmp/topo.plan' && grep -q '^topology	1x2x2	--topology	1,2,2$' '$tmp/topo.plan'"
check "rt-app files are resolved beside the matrix file" \
	grep -q "^file	rt-app good-rtapp.json	$fixtures/good-rtapp.json	w4-good-rtapp.json$" "$tmp/topo.plan"

# The paths that once planned wrong data in silence.
plan "$fixtures/good-rtapp-basename.matrix" >"$tmp/rtapp.plan"
check "rt-app a/x.json and b/x.json: two files, two guest names" \
	sh -c "[ \$(awk -F'\t' '\$1 == \"file\" { print \$4 }' '$tmp/rtapp.plan' | sort -u | wc -l) = 2 ] &&
	       grep -q '/a/x.json	w1-x.json$' '$tmp/rtapp.plan' && grep -q '/b/x.json	w2-x.json$' '$tmp/rtapp.plan'"
# docs/matrix.md, the directive reference, against the planner's own tables.
doc_covers() {
	src=$tmp/matrix-plan-sources doc=$top/docs/matrix.md missing=
	cat "$top"/run/matrix-plan/*.c >"$src"
	directives=$(sed -n '/^static const struct directive directives\[\]/,/^};/p' "$src" | grep -o '"[a-z-]*", do_' | tr -d '",' | sed 's/ do_$//')
	kinds=$(sed -n "/unknown workload '%s' (known:/{N;p;}" "$src" | tr -d '"\n\t' | sed 's/.*known: //; s/).*//')
	keys=$(sed -n '/^static const struct tool_kind tool_kinds\[\]/,/^};/p' "$src" | grep -o '{ "[a-z]*", [0-9A-Z_]' | cut -d'"' -f2 | sort -u)
	keys="$keys $(grep -o '{ "[a-z_]*", KEY_' "$top/common/opts.c" | cut -d'"' -f2 | grep -vx duration)"
	[ -n "$directives" ] && [ -n "$kinds" ] && [ -n "$keys" ] || { echo "nothing read from the tables"; return 1; }
	for d in $directives; do grep -q "^\* $d : " "$doc" || missing="$missing directive:$d"; done
	for k in $kinds; do grep -q "^  \* $k : " "$doc" || missing="$missing workload:$k"; done
	for k in $keys; do grep -q "\`$k\`" "$doc" || missing="$missing key:$k"; done
	[ -z "$missing" ] || { echo "docs/matrix.md lacks:$missing"; return 1; }
}
check "docs/matrix.md has every directive, workload kind and workload key of matrix-plan's (and pjtload's) tables" doc_covers

# rt-app files are read with json-c, rt-app's own parser.
json_plan() { # json_plan TEXT: plan one rt-app workload of a file holding TEXT; its stderr in $tmp/json.err
	printf '%s\n' "$1" >"$tmp/t.json"
	printf 'duration 2s\ncombo stock\nworkload rt-app t.json\n' >"$tmp/json.matrix"
	"$plan_tool" "$tmp/json.matrix" >/dev/null 2>"$tmp/json.err"
}
json_refused() { # json_refused TEXT MESSAGE: exit 2, MESSAGE at the workload line
	json_plan "$1"
	[ $? = 2 ] || { echo "accepted"; return 1; }
	grep -qF "$tmp/json.matrix:3: rt-app file $tmp/t.json: $2" "$tmp/json.err" || { cat "$tmp/json.err"; return 1; }
}
for f in $(find "$top/feat-matrix" -name '*.json' | sort); do
	printf 'duration 10m\ncombo stock\nworkload rt-app %s\n' "$f" >"$tmp/feat-json.matrix"
	check "feat-matrix's $(basename "$f") is read (json-c) and planned" \
		sh -c "'$plan_tool' '$tmp/feat-json.matrix' | grep -q '^file	rt-app $f	'"
done
check "a JSON file cut short: FILE, the line and column, and json-c's reason" \
	json_refused '{ "global": { "duration": 1 }, "tasks": { "t": { "run": 1000 } }' \
	"line 2, column 1: not JSON rt-app can read (json-c: unexpected end of data)"
check "a bad literal: json-c's error at its line and column" \
	json_refused "$(printf '{ "global": {\n  "duration": tru } }')" \
	"line 2, column 18: not JSON rt-app can read (json-c: boolean expected)"
check "nesting deeper than json-c's 32 levels: refused as rt-app would" \
	json_refused '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]' \
	"line 1, column 33: not JSON rt-app can read (json-c: nesting too deep)"
check "what json-c (so rt-app) accepts is accepted: a comment, a trailing comma, a repeated key (the last wins)" \
	sh -c "printf '/* rt-app */ { \"global\": { \"duration\": 9, \"duration\": 1, }, \"tasks\": { \"t\": { \"run\": 1000 } } }\n' >'$tmp/lax.json' &&
	       printf 'duration 2s\ncombo stock\nworkload rt-app lax.json\n' >'$tmp/lax.matrix' && '$plan_tool' '$tmp/lax.matrix' >/dev/null"
check "global.duration a string: refused (rt-app wants an int)" \
	json_refused '{ "global": { "duration": "1" } }' "global.duration is not whole seconds (an int, as rt-app reads it)"
check "global.duration 1.5: refused" \
	json_refused '{ "global": { "duration": 1.5 } }' "global.duration is not whole seconds"
check "global.duration beyond an int: refused, not clamped" \
	json_refused '{ "global": { "duration": 99999999999999999999 } }' "global.duration is not whole seconds"
check "global.logdir null: refused (the runner reads rt-app's logs there)" \
	json_refused '{ "global": { "duration": 1, "logdir": null } }' "global.logdir is not a string"
printf 'combo stock\nworkload duty threads=2\0 duty=100\nworkload fork\n' >"$tmp/nul.matrix"
"$plan_tool" "$tmp/nul.matrix" >"$tmp/out" 2>"$tmp/err"
check "a NUL byte in a matrix line is an error at FILE:LINE, not a cut line" \
	sh -c "[ $? = 2 ] && [ ! -s '$tmp/out' ] && grep -q '^$tmp/nul.matrix:2: NUL byte' '$tmp/err'"
mkdir "$tmp/dir.matrix"
"$plan_tool" "$tmp/dir.matrix" >"$tmp/out" 2>"$tmp/err"
check "a directory as the matrix file is refused as such (not FILE:0: no combo line)" \
	sh -c "[ $? = 2 ] && grep -q 'dir.matrix: not a matrix file (a directory)' '$tmp/err' && ! grep -q ':0:' '$tmp/err'"
"$plan_tool" "$tmp/no-such.matrix" >"$tmp/out" 2>"$tmp/err"
check "a missing matrix file is refused with its reason" \
	sh -c "[ $? = 2 ] && grep -q 'no-such.matrix: cannot read the matrix file: No such file' '$tmp/err'"
"$plan_tool" /dev/null >"$tmp/out" 2>"$tmp/err"
check "a device as the matrix file is refused as not a regular file" \
	sh -c "[ $? = 2 ] && grep -q '^/dev/null: not a matrix file (not a regular file)' '$tmp/err'"
mkfifo "$tmp/fifo.matrix"
timeout 10 "$plan_tool" "$tmp/fifo.matrix" >"$tmp/out" 2>"$tmp/err"
check "a FIFO with no writer as the matrix file is refused at once (stat before open), not waited on" \
	sh -c "[ $? = 2 ] && grep -q '^$tmp/fifo.matrix: not a matrix file (not a regular file)' '$tmp/err'"
: >"$tmp/empty.matrix"
"$plan_tool" "$tmp/empty.matrix" >"$tmp/out" 2>"$tmp/err"
check "an empty matrix file: one error, naming the file, no line 0" \
	sh -c "[ $? = 2 ] && [ ! -s '$tmp/out' ] && [ \$(wc -l <'$tmp/err') = 1 ] &&
	       grep -q '^$tmp/empty.matrix: no directive in the file (empty)' '$tmp/err'"
printf '# a comment\n\n   # another\n' >"$tmp/comments.matrix"
"$plan_tool" "$tmp/comments.matrix" >"$tmp/out" 2>"$tmp/err"
check "a matrix file of comments only: one error" \
	sh -c "[ $? = 2 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'no directive in the file (only comments and blank lines)' '$tmp/err'"
printf '\357\273\277combo stock\nworkload duty threads=1 x\377\n' >"$tmp/bom.matrix"
"$plan_tool" "$tmp/bom.matrix" >"$tmp/out" 2>"$tmp/err"
check "a BOM and a 0xff byte are named by value and column at FILE:LINE, not as '?'" \
	sh -c "[ $? = 2 ] && grep -q '^$tmp/bom.matrix:1: byte 0xef at column 1 is not allowed' '$tmp/err' &&
	       grep -q '^$tmp/bom.matrix:2: byte 0xff at column 26 is not allowed' '$tmp/err' && ! grep -q \"'?'\" '$tmp/err'"
printf 'combo stock\nworkload duty threads=1,2\n' >"$tmp/comma.matrix"
"$plan_tool" "$tmp/comma.matrix" >/dev/null 2>"$tmp/err"
check "a printable character that is not allowed is named with its column" \
	grep -q "^$tmp/comma.matrix:2: character ',' at column 24 is not allowed" "$tmp/err"
printf 'combo stock\nreps 3\nduration 600m\nworkload duty threads=1\n' >"$tmp/day.matrix"
"$plan_tool" "$tmp/day.matrix" >"$tmp/out" 2>"$tmp/err"
check "a plan estimated above 24 h is planned with a warning on stderr, its duration in days and hours" \
	sh -c "[ $? = 0 ] && grep -q '^estimate_s	108012$' '$tmp/out' &&
	       grep -q '^matrix-plan: warning: $tmp/day.matrix: the plan.s estimated duration is 1d06h00m, more than 24 h' '$tmp/err'"
printf 'combo stock\nreps 3\nduration 60m\nworkload duty threads=1\n' >"$tmp/hours.matrix"
"$plan_tool" "$tmp/hours.matrix" >/dev/null 2>"$tmp/err"
check "... and none at 3 h" test ! -s "$tmp/err"
printf 'combo stock\ncombo a PJT_BUSIEST\nreps 9600\nduration 600m\nworkload duty threads=1\nworkload duty threads=2\nworkload duty threads=3\nworkload duty threads=4\n' >"$tmp/years.matrix"
"$plan_tool" "$tmp/years.matrix" >"$tmp/out" 2>"$tmp/err"
check "76,800 runs of 600 min: refused at the reps line, the estimate in days (not 46081828m00s)" \
	sh -c "[ $? = 2 ] && [ ! -s '$tmp/out' ] &&
	       grep -q '^$tmp/years.matrix:3: the plan would take about 32001d05h52m (32001 days): more than 365 days is refused' '$tmp/err'"
if [ "$(id -u)" != 0 ]; then
	printf 'combo stock\nworkload fork\n' >"$tmp/unreadable.matrix"
	chmod 000 "$tmp/unreadable.matrix"
	"$plan_tool" "$tmp/unreadable.matrix" >"$tmp/out" 2>"$tmp/err"
	check "an unreadable matrix file is refused with its reason" \
		sh -c "[ $? = 2 ] && grep -q 'unreadable.matrix: cannot read the matrix file: Permission denied' '$tmp/err'"
else
	skip "unreadable matrix file (root reads every file)"
fi
plan --smp 2 "$fixtures/good-full.matrix" >/dev/null
check "--smp 2 still accepts a workload without cpus=" test $? = 0
printf 'combo stock\nworkload duty cpus=2-3\n' >"$tmp/cpus.matrix"
"$plan_tool" --smp 2 "$tmp/cpus.matrix" >/dev/null 2>"$tmp/err"
check "cpus= beyond the vCPUs of an --smp override is refused at the workload line" \
	sh -c "[ $? = 2 ] && grep -q 'cpus.matrix:2: .*CPU 2-3 not available' '$tmp/err'"

# One parser: the planner accepts a pjtload workload exactly when pjtload's
# own parser (the host test driver, same opts.c) does on the same vCPUs and
# task limit (GUEST_TASK_LIMIT 3500 in run/matrix-plan/workload.c).
if make -s -f "$top/initramfs/pjtload.mk" TOP="$top" BUILD="$top/build" pjtload-host-tools >/dev/null 2>&1; then
	agree=0 disagree=
	while read -r words; do
		# shellcheck disable=SC2086 # a workload's words
		"$top/build/pjtload-test" parse --task-limit 3500 --available 0-3 $words >/dev/null 2>&1
		generator=$?
		printf 'smp 4\ncombo stock\nworkload %s\n' "$words" >"$tmp/one-parser.matrix"
		"$plan_tool" "$tmp/one-parser.matrix" >/dev/null 2>&1
		planner=$?
		if [ "$generator" = 0 ] && [ "$planner" = 0 ] || { [ "$generator" != 0 ] && [ "$planner" != 0 ]; }; then
			agree=$((agree + 1))
		else
			disagree="$disagree [$words: pjtload $generator, planner $planner]"
		fi
	done <<'WORKLOADS'
duty period=1.5ms
duty period=10
duty wss=1k
duty wss=4k
duty wss=5g
duty cpus=0-3
duty cpus=0-4
duty cpus=3-1
duty threads=3500
duty threads=3501
duty duty=0
duty seed=18446744073709551615
calibrate threads=2
pingpong via=futex
pingpong via=spin
pingpong pairs=1750
pingpong pairs=1751
fork rate=1000000
fork rate=1000001
fork wss=16k
WORKLOADS
	[ -z "$disagree" ] || echo "# disagree:$disagree"
	check "planner and pjtload's parser agree on 20 workloads ($agree agree)" test -z "$disagree"
else
	skip "pjtload's host test driver does not build"
fi

# boots N: whole repetition blocks spread over N boots.
plan "$fixtures/good-boots.matrix" >"$tmp/boots.plan"
check "boots 3 over reps 7: blocks 3+2+2, each block in one boot" \
	test "$(awk -F'\t' '$1 == "run" { print $8 }' "$tmp/boots.plan" | uniq -c | awk '{ print $1 }' | tr '\n' ' ')" = "12 8 8 "
check "boots 3: rep blocks map to boots 1 1 1 2 2 3 3" \
	test "$(awk -F'\t' '$1 == "run" && !seen[$6]++ { print $8 }' "$tmp/boots.plan" | tr '\n' ' ')" = "1 1 1 2 2 3 3 "
check "boots: the plan says how many" grep -q "^boots	3$" "$tmp/boots.plan"
printf 'reps 2\nboots 3\ncombo stock\nworkload fork\n' >"$tmp/boots-bad.matrix"
"$plan_tool" "$tmp/boots-bad.matrix" >/dev/null 2>"$tmp/err"
check "boots above reps is refused at the boots line" \
	sh -c "[ $? = 2 ] && grep -q 'boots-bad.matrix:2: boots 3 > reps 2' '$tmp/err'"

# Interleaving: the runs of one topology come in blocks, one per repetition,
# each holding every cell exactly once.
interleaved() {
	awk -F'\t' '
	$1 == "combo" { ncombo++ }
	$1 == "workload" { nwork++ }
	$1 == "run" {
		key = $3 SUBSEP $6
		if (!(key in first)) { first[key] = ++blocks; order[blocks] = key }
		if (key != last) { if (key in closed) bad = 1; closed[last] = 1; last = key }
		cell = $4 SUBSEP $7
		if (seen[key, cell]++) bad = 1
		size[key]++
	}
	END {
		cells = ncombo * nwork
		for (b = 1; b <= blocks; b++) if (size[order[b]] != cells) bad = 1
		exit bad || blocks == 0
	}' "$1"
}
check "interleave: each repetition block holds every cell once (60 runs)" interleaved "$tmp/full.plan"
check "interleave: same property over 3 topologies" interleaved "$tmp/topo.plan"
runs_of() { awk -F'\t' '$1 == "run" { print $3, $4, $6, $7 }' "$1"; }
plan "$fixtures/good-full.matrix" >"$tmp/full2.plan"
runs_of "$tmp/full.plan" >"$tmp/order1"
runs_of "$tmp/full2.plan" >"$tmp/order2"
check "the same seed gives the same order" cmp -s "$tmp/order1" "$tmp/order2"
sed 's/^seed .*/seed 43/' "$fixtures/good-full.matrix" >"$tmp/seed43.matrix"
plan "$tmp/seed43.matrix" >"$tmp/seed43.plan"
runs_of "$tmp/seed43.plan" >"$tmp/order3"
check "another seed gives another order" sh -c "! cmp -s '$tmp/order1' '$tmp/order3'"
check "another seed still interleaves" interleaved "$tmp/seed43.plan"
check "the first blocks differ between rep 1 and rep 2 (another order per block)" \
	sh -c "[ \"\$(awk '\$3 == 1 { print \$2, \$4 }' '$tmp/order1')\" != \"\$(awk '\$3 == 2 { print \$2, \$4 }' '$tmp/order1')\" ]"
grep -v '^seed' "$fixtures/good-full.matrix" >"$tmp/noseed.matrix"
check "without a seed line the chosen seed is in the plan" \
	sh -c "'$plan_tool' '$tmp/noseed.matrix' | grep -Eq '^seed	[0-9]+$'"

# order williams (the default): in each workload's runs of a block, every
# combo takes every position equally often and follows every other combo
# equally often over whole cycles of the design (t sequences for t combos,
# 2t when t is odd), counted from the plan's run lines.  Each property is
# also checked to fail on order random's seeded shuffle.
fails() { ! "$@"; }
williams_balanced() { # williams_balanced PLAN: exit 0 when balanced; prints the counts
	awk -F'\t' '
	$1 == "combo" { combos[++nc] = $2 }
	$1 == "run" {
		key = $3 SUBSEP $6 SUBSEP $7
		p = pos[key]++
		at[$4, $7, p]++
		if (p > 0) after[last[key], $4, $7]++
		last[key] = $4
		workloads[$7] = 1
	}
	END {
		for (w in workloads) {
			split("", counts)
			kinds = 0
			for (i = 1; i <= nc; i++) for (p = 0; p < nc; p++) counts["position=" at[combos[i], w, p] + 0] = 1
			for (i = 1; i <= nc; i++) for (j = 1; j <= nc; j++) if (i != j) counts["after=" after[combos[i], combos[j], w] + 0] = 1
			line = ""
			for (c in counts) { line = line " " c; kinds++ }
			print w ":" line
			if (kinds != 2) bad = 1
		}
		exit bad || nc < 2
	}' "$1"
}
workloads_together() { # workloads_together PLAN: each workload's runs of a block are consecutive
	awk -F'\t' '$1 == "run" {
		block = $3 SUBSEP $6
		if (block != last_block) { split("", done); last_block = block; last_w = "" }
		if ($7 != last_w) { if ($7 in done) bad = 1; done[$7] = 1; last_w = $7 }
	} END { exit bad }' "$1"
}
combos_matrix() { # combos_matrix T REPS BOOTS [LINE...]: T combos (stock, then one bit each), fork
	printf 'reps %s\nboots %s\nseed 5\nworkload fork\ncombo stock\n' "$2" "$3"
	echo PJT_BUSIEST PJT_IDLEST PJT_IMBALANCE | tr ' ' '\n' | head -n $(($1 - 1)) | awk '{ print "combo c" NR, $1 }'
	shift 3
	for line; do echo "$line"; done
}
for t in 2 3 4; do
	cycle=$t
	[ $((t % 2)) = 0 ] || cycle=$((2 * t))
	combos_matrix "$t" $((2 * cycle)) 2 >"$tmp/w$t.matrix"
	plan "$tmp/w$t.matrix" >"$tmp/w$t.plan"
	check "order williams (the default), $t combos, 2 cycles of $cycle blocks: every position and every predecessor equally often" \
		williams_balanced "$tmp/w$t.plan"
	combos_matrix "$t" $((4 * cycle)) 2 "order random" >"$tmp/w$t-random.matrix"
	plan "$tmp/w$t-random.matrix" >"$tmp/w$t-random.plan"
	check "... and order random's shuffle of the same $t combos is not balanced so (the check can fail)" \
		fails williams_balanced "$tmp/w$t-random.plan"
done
check "order williams: the plan says so, with the design's sequences (4 combos: 4; 1 workload: 1)" \
	grep -qx 'order	williams	4	1' "$tmp/w4.plan"
combos_matrix 3 24 4 "workload pingpong pairs=1" >"$tmp/two.matrix"
plan "$tmp/two.matrix" >"$tmp/two.plan"
check "order williams, 3 combos x 2 workloads: the combos balanced within each workload" \
	williams_balanced "$tmp/two.plan"
check "order williams: each workload's runs of a block come together (the combos compared run close in time)" \
	workloads_together "$tmp/two.plan"
combos_matrix 3 24 4 "workload pingpong pairs=1" "order random" >"$tmp/two-random.matrix"
plan "$tmp/two-random.matrix" >"$tmp/two-random.plan"
check "... which order random's shuffle does not do (the check can fail)" \
	fails workloads_together "$tmp/two-random.plan"

# Where a combo runs in its boot: pulls fall over a boot's first half
# minute, so the first run of a boot should go to each combo as evenly as
# the boots allow (8 boots, 3 combos: 3, 3, 2), and a boot should not run
# one order in all its blocks.
firsts() { # firsts PLAN: how many boots each combo opens, sorted
	awk -F'\t' '$1 == "run" && !(($3, $8) in seen) { seen[$3, $8] = 1; n[$4]++ }
		END { for (c in n) print n[c] }' "$1" | sort -n | tr '\n' ' '
}
combos_matrix 3 24 8 >"$tmp/slots.matrix"
plan "$tmp/slots.matrix" >"$tmp/slots.plan"
check "order williams, 3 combos, 8 boots x 3 blocks: the boots' first runs go 3, 3, 2 to the combos ($(firsts "$tmp/slots.plan"))" \
	test "$(firsts "$tmp/slots.plan")" = "2 3 3 "
combos_matrix 3 24 8 "order random" >"$tmp/slots-random.matrix"
plan "$tmp/slots-random.matrix" >"$tmp/slots-random.plan"
echo "# order random, the same design: the boots' first runs go $(firsts "$tmp/slots-random.plan")to the combos"
one_order_a_boot() { # one_order_a_boot PLAN: some boot runs the same order in every block
	awk -F'\t' '$1 == "run" { order[$3, $8, $6] = order[$3, $8, $6] " " $4; boot[$3, $8, $6] = $3 SUBSEP $8 }
		END { for (b in order) { k = boot[b]; if (!(k in first)) first[k] = order[b]; else if (first[k] != order[b]) varied[k] = 1 }
		      for (k in first) if (!(k in varied)) found = 1; exit !found }' "$1"
}
combos_matrix 2 24 8 >"$tmp/alternate.matrix"
plan "$tmp/alternate.matrix" >"$tmp/alternate.plan"
check "order williams, 2 combos, 8 boots x 3 blocks (boots a whole number of cycles): no boot runs one order in all its blocks" \
	fails one_order_a_boot "$tmp/alternate.plan"
combos_matrix 2 8 8 >"$tmp/single.matrix"
plan "$tmp/single.matrix" >"$tmp/single.plan"
check "... as boots of one block each trivially do (the check can fail)" \
	one_order_a_boot "$tmp/single.plan"

sed 's/^seed 5$/seed 6/' "$tmp/w4.matrix" >"$tmp/w4-seed6.matrix"
plan "$tmp/w4-seed6.matrix" >"$tmp/w4-seed6.plan"
grep "^run	" "$tmp/w4.plan" >"$tmp/w4.runs"
grep "^run	" "$tmp/w4-seed6.plan" >"$tmp/w4-seed6.runs"
check "order williams: another seed labels the design's treatments otherwise (another order of the same 32 runs)" \
	sh -c "! cmp -s '$tmp/w4.runs' '$tmp/w4-seed6.runs' && [ \$(wc -l <'$tmp/w4-seed6.runs') = 32 ] &&
	       [ \"\$(cut -f4 '$tmp/w4.runs' | sort | uniq -c)\" = \"\$(cut -f4 '$tmp/w4-seed6.runs' | sort | uniq -c)\" ]"
check "... as balanced" williams_balanced "$tmp/w4-seed6.plan"

# order random reproduces the plans made before the order directive
# (fixtures saved from the planner then): the same seed, the same runs.
cp "$fixtures/good-rtapp.json" "$tmp/"
for f in order-random-quick:order-random-quick.matrix order-random-topologies:good-topologies.matrix; do
	{ cat "$fixtures/${f#*:}"; echo "order random"; } >"$tmp/random.matrix"
	plan "$tmp/random.matrix" | grep "^run	" >"$tmp/random.runs"
	check "order random: ${f#*:} gives the plan the planner gave it before the order directive ($(wc -l <"$fixtures/${f%%:*}.runs") runs)" \
		cmp "$fixtures/${f%%:*}.runs" "$tmp/random.runs"
done

# Shards of a Williams plan: whole blocks, the whole plan's seqs and order.
plan --shard 2/3 "$tmp/slots.matrix" | awk -F'\t' '$1 == "run"' >"$tmp/shard.runs"
awk -F'\t' '$1 == "run" && ($8 - 1) % 3 == 1' "$tmp/slots.plan" >"$tmp/shard-expected.runs"
check "order williams, --shard 2/3: exactly the whole plan's runs of boots 2, 5, 8, seqs and order kept" \
	sh -c "[ -s '$tmp/shard.runs' ] && cmp '$tmp/shard-expected.runs' '$tmp/shard.runs'"
check "order williams, --shard 2/3: 9 blocks, each whole (the 3 combos once)" \
	sh -c "[ \"\$(awk -F'\t' '{ n[\$6]++ } END { for (b in n) print n[b] }' '$tmp/shard.runs' | sort -u)\" = 3 ] &&
	       [ \$(cut -f6 '$tmp/shard.runs' | sort -u | wc -l) = 9 ]"

# replicate NAME COMBO: a second arm on one bit set, only when declared.
plan "$fixtures/good-replicate.matrix" >"$tmp/replicate.plan"
check "replicate busiest-b busiest: an arm of its own name on busiest's bits, said so in the plan" \
	sh -c "grep -qx 'combo	busiest-b	PJT_BUSIEST' '$tmp/replicate.plan' && grep -qx 'replicate	busiest-b	busiest' '$tmp/replicate.plan' &&
	       grep -qx 'combo	busiest	PJT_BUSIEST' '$tmp/replicate.plan'"
check "replicate of a factorial cell (idlest-b of PJT_IDLEST), and the replicates run in every block" \
	sh -c "grep -qx 'replicate	idlest-b	PJT_IDLEST' '$tmp/replicate.plan' &&
	       [ \$(awk -F'\t' '\$1 == \"run\" && (\$4 == \"busiest-b\" || \$4 == \"idlest-b\")' '$tmp/replicate.plan' | wc -l) = 8 ]"
check "a declared comparison of a replicate with its original is accepted" \
	grep -qx 'compare	busiest-b	busiest' "$tmp/replicate.plan"

plan --reps 1 --smp sockets=1,cores=2,threads=2 --duration 5s "$fixtures/good-full.matrix" >"$tmp/over.plan"
check "--reps/--smp/--duration override the file" \
	sh -c "[ \$(awk -F'\t' '\$1 == \"run\"' '$tmp/over.plan' | wc -l) = 12 ] &&
	       grep -q '^topology	1x2x2	--topology	1,2,2$' '$tmp/over.plan' &&
	       [ \$(grep -c '^topology' '$tmp/over.plan') = 1 ] && grep -q '^duration_ms	5000$' '$tmp/over.plan'"
check "a bad override is refused with exit 2 naming the option" \
	sh -c "'$plan_tool' --reps x '$fixtures/good-full.matrix' >/dev/null 2>'$tmp/e'; [ \$? = 2 ] && grep -q -- '--reps' '$tmp/e'"

# The estimate holds each workload's real cost: one run of 2 s in one boot.
estimate_of() {
	printf 'duration 2s\nsettle 0\nreps 1\ncombo stock\nworkload %s\n' "$1" >"$tmp/est.matrix"
	"$plan_tool" "$tmp/est.matrix" 2>/dev/null | value estimate_s
}
between() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
est_pingpong=$(estimate_of "pingpong pairs=1")
check "estimate: a hackbench run costs its duration and about one invocation more (groups=2 loops=40: 8.5 s)" \
	between "$(($(estimate_of "hackbench groups=2 loops=40") - est_pingpong))" 8 9
check "estimate: rt-app costs its calibration (12 s) beside its own duration" \
	between "$(($(estimate_of "rt-app $fixtures/good-rtapp.json") - est_pingpong))" 10 12
check "estimate: perf bench sched pipe costs its duration, perf's start-up and one invocation (loops=2000: 2.3 s)" \
	between "$(($(estimate_of "perf-pipe loops=2000") - est_pingpong))" 2 3
check "estimate: perf bench sched messaging costs what hackbench does and perf's start-up (groups=2 loops=40: 8.8 s)" \
	between "$(($(estimate_of "perf-messaging groups=2 loops=40") - est_pingpong))" 8 9
check "estimate: cyclictest costs its duration (-D) and reading its histogram (1 s)" \
	between "$(($(estimate_of "cyclictest threads=2") - est_pingpong))" 1 1
printf '{ "global": { "duration": 1, "calibration": 100 }, "tasks": { "t": { "run": 1000 } } }\n' >"$tmp/cal.json"
check "estimate: rt-app with a numeric calibration costs its own duration (1 s, not the run's 2 s)" \
	between "$(($(estimate_of "rt-app $tmp/cal.json") - est_pingpong))" -1 -1

# Guest snapshot helper, on recorded /proc/schedstat and pjt_stats files.
snap=$top/initramfs/lib/snapshot.sh
for w in before after; do
	PJT_SCHEDSTAT=$fixtures/schedstat-$w PJT_STATS=$fixtures/pjt_stats-$w sh "$snap" >"$tmp/snap-$w"
done
check "snapshot: lb_gained summed per idle type over CPUs and domains" \
	sh -c "grep -qx lb_pulls_idle=3 '$tmp/snap-before' && grep -qx lb_pulls_busy=6 '$tmp/snap-before' && grep -qx lb_pulls_newidle=9 '$tmp/snap-before'"
check "snapshot: alb_pushed, ttwu_wake_remote, ttwu_move_affine from their fields" \
	sh -c "grep -qx alb_pushed=1 '$tmp/snap-before' && grep -qx ttwu_wake_remote=155 '$tmp/snap-before' && grep -qx ttwu_move_affine=10 '$tmp/snap-before'"
check "snapshot: pjt_stats points become POINT_evaluated/differed/applied" \
	sh -c "grep -qx short_tasks_differed=2 '$tmp/snap-before' && grep -qx busiest_evaluated=5 '$tmp/snap-before'"
sh "$snap" delta "$tmp/snap-before" "$tmp/snap-after" >"$tmp/snap-delta"
check "snapshot delta: after minus before, key by key" \
	sh -c "grep -qx lb_pulls_newidle=12 '$tmp/snap-delta' && grep -qx ttwu_wake_remote=12 '$tmp/snap-delta' && grep -qx short_tasks_applied=2 '$tmp/snap-delta'"
PJT_SCHEDSTAT=$tmp/none PJT_STATS=$tmp/none sh "$snap" >"$tmp/snap-none" 2>"$tmp/snap-none.err"
check "snapshot: missing schedstat and pjt_stats give no keys (empty columns) and a note" \
	sh -c "[ ! -s '$tmp/snap-none' ] && grep -q 'missing' '$tmp/snap-none.err'"
echo 0 >"$tmp/counting0"
echo 1 >"$tmp/counting1"
PJT_SCHEDSTAT=$fixtures/schedstat-before PJT_STATS=$fixtures/pjt_stats-before PJT_COUNTING=$tmp/counting0 \
	sh "$snap" >"$tmp/snap-c0" 2>/dev/null
PJT_SCHEDSTAT=$fixtures/schedstat-before PJT_STATS=$fixtures/pjt_stats-before PJT_COUNTING=$tmp/counting1 \
	sh "$snap" >"$tmp/snap-c1" 2>/dev/null
check "snapshot: pjt_counting 0 leaves the decision columns empty (not 0), the pulls stay" \
	sh -c "! grep -q '_evaluated=' '$tmp/snap-c0' && grep -q '^lb_pulls_idle=' '$tmp/snap-c0' && grep -q '^busiest_evaluated=5\$' '$tmp/snap-c1'"
printf 'counting on\ncombo stock\nworkload fork\n' >"$tmp/counting.matrix"
check "counting on: the plan says counting 1, the guest plan sets it" \
	sh -c "'$plan_tool' '$tmp/counting.matrix' | grep -q '^counting	1\$' &&
	       '$top/run/matrix' --print-guest-plan '$tmp/counting.matrix' | grep -q '^matrix_counting 1\$'"
check "--counting off overrides the file's counting on" \
	sh -c "'$plan_tool' --counting off '$tmp/counting.matrix' | grep -q '^counting	0\$'"
printf 'combo stock\nworkload duty threads=2\nworkload fork\nworkload pingpong pairs=1\nworkload fork rate=50\n' >"$tmp/kinds.matrix"
check "--workloads fork,pingpong keeps those kinds' workload lines only (both forks), in the file's order" \
	sh -c "'$plan_tool' --workloads fork,pingpong '$tmp/kinds.matrix' | awk -F'\t' '\$1 == \"workload\" { printf \"%s;\", \$2 }' |
	       grep -qx 'fork;pingpong pairs=1;fork rate=50;'"
"$plan_tool" --workloads duty,hackbench "$tmp/kinds.matrix" >/dev/null 2>"$tmp/err"
check "--workloads naming a kind the matrix lacks is refused (exit 2, the kind named)" \
	sh -c "[ $? = 2 ] && grep -q \"no 'hackbench' workload\" '$tmp/err'"
printf 'counting yes\ncombo stock\nworkload fork\n' >"$tmp/counting-bad.matrix"
"$plan_tool" "$tmp/counting-bad.matrix" >/dev/null 2>"$tmp/err"
check "counting takes on or off only (FILE:LINE)" \
	sh -c "[ $? = 2 ] && grep -q 'counting-bad.matrix:1: counting' '$tmp/err'"
state=$(PJT_SCHED_DOMAINS=$fixtures/sched-domains PJT_SCHED_DEBUG=$fixtures/sched-debug sh "$snap" state | tr '\n' ' ')
check "snapshot state: means over CPUs of the lowest and top domains' max_newidle_lb_cost, avg_idle, max_idle_balance_cost (6.1's debugfs layout)" \
	test "$state" = "state_newidle_cost_low_ns=200000 state_newidle_cost_top_ns=2000000 state_avg_idle_ns=750000 state_idle_balance_cost_ns=400000 "
PJT_SCHED_DOMAINS=$tmp/none PJT_SCHED_DEBUG=$tmp/none sh "$snap" state >"$tmp/state-none" 2>"$tmp/state-none.err"
check "snapshot state: debugfs files missing: exit 0, no keys (empty columns), each source named on stderr" \
	sh -c "[ $? = 0 ] && [ ! -s '$tmp/state-none' ] && grep -q 'max_newidle_lb_cost: state_newidle_cost_\* left empty' '$tmp/state-none.err' &&
	       grep -q 'none missing (CONFIG_SCHED_DEBUG' '$tmp/state-none.err'"
printf 'version 16\n' >"$tmp/v16"
PJT_SCHEDSTAT=$tmp/v16 PJT_STATS=$tmp/none sh "$snap" >"$tmp/snap-v16" 2>&1
check "snapshot: another schedstat version is not parsed" grep -q 'not version 15' "$tmp/snap-v16"

# run/matrix: validation before anything boots, --dry-run.
matrix=$top/run/matrix
if [ -x "$matrix" ]; then
	"$matrix" --out "$tmp/res-bad" "$fixtures/bad-feature.matrix" >"$tmp/o" 2>"$tmp/e"
	check "run/matrix refuses a bad file with exit 2, FILE:LINE:, nothing created" \
		sh -c "[ $? = 2 ] && grep -q 'bad-feature.matrix:3:' '$tmp/e' && [ ! -e '$tmp/res-bad' ]"
	"$matrix" --dry-run --reps 2 "$fixtures/good-full.matrix" >"$tmp/dry" 2>&1
	check "run/matrix --dry-run prints the expanded plan and an estimate" \
		sh -c "[ $? = 0 ] && [ \$(grep -c '^ *[0-9]* *1x4x1 ' '$tmp/dry') = 24 ] && grep -q 'estimated duration' '$tmp/dry'"
	check "run/matrix --help exits 0" sh -c "'$matrix' --help | grep -q usage"
	"$matrix" --dry-run --smp 0 "$fixtures/good-full.matrix" >"$tmp/o" 2>"$tmp/e"
	check "run/matrix --smp 0: exit 2, the error and the help pointer are run/matrix's (matrix-plan is not on PATH)" \
		sh -c "[ $? = 2 ] && [ \"\$(cat '$tmp/e')\" = \"\$(printf '%s\\n' \"run/matrix: --smp: smp '0': want a number of vCPUs 1..64\" 'run/matrix: see run/matrix --help')\" ]"
	"$matrix" --dry-run "$tmp/day.matrix" >"$tmp/o" 2>"$tmp/e"
	check "run/matrix --dry-run of a 30 h plan: 'estimated duration 1d06h00m' and the warning" \
		sh -c "[ $? = 0 ] && grep -q 'estimated duration 1d06h00m ' '$tmp/o' && grep -q '^run/matrix: warning: .*more than 24 h' '$tmp/e'"
	check "run/matrix with an unknown option exits 2" sh -c "'$matrix' --bogus x >/dev/null 2>&1; [ \$? = 2 ]"
else
	skip "run/matrix not present"
fi


# run/matrix end to end on the host: run/tests/fixtures/matrix/fake-boot stands in
# for run/boot and runs the guest plan with sh (fake rt-app on PATH), so the
# runner's own work is tested without a kernel.
fake_run() { # fake_run OUT [run/matrix options...]: stderr in OUT.err
	o=$1
	shift
	PJT_MATRIX_BOOT=$fixtures/fake-boot FAKE_GUEST=$tmp/guest "$matrix" --no-report \
		--kernel "$tmp/bzImage" --initrd "$tmp/image" --out "$o" "$@" 2>"$o.err"
}
if [ -x "$matrix" ]; then
	mkdir -p "$tmp/guest/bin"
	# A stand-in rt-app: runs its shell line, then leaves a log of three
	# activations (rt-app's own format) in its folder, the default logdir.
	fake_rtapp() {
		printf '#!/bin/sh\n%s\ncp "%s/rt-app-t-0.log" .\n' "$1" "$fixtures" >"$tmp/guest/bin/rt-app"
		chmod +x "$tmp/guest/bin/rt-app"
	}
	fake_rtapp "cat \"\$1\" >> '$tmp/rtapp.log'"
	echo kernel >"$tmp/bzImage"
	echo image >"$tmp/image"
	fake_run "$tmp/fr" "$fixtures/good-rtapp-basename.matrix"
	rc=$?
	check "fake boot: run/matrix exits 0" test "$rc" = 0
	check "rt-app a/x.json and b/x.json: each run ran its own profile in the guest" \
		test "$(cat "$tmp/rtapp.log" 2>/dev/null)" = "$(cat "$fixtures/a/x.json" "$fixtures/b/x.json")"
	check "rt-app files are kept in the results folder under their guest names" \
		sh -c "cmp -s '$tmp/fr/files/w1-x.json' '$fixtures/a/x.json' && cmp -s '$tmp/fr/files/w2-x.json' '$fixtures/b/x.json'"
	check "runs.csv header is run/contract/columns, in order" \
		test "$(head -n 1 "$tmp/fr/runs.csv")" = "$(grep -v '^#' "$top/run/contract/columns" | paste -sd,)"
	col() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) n = i; next } { print $n }' "$2"; }
	check "the guest fills the state_* columns from its debugfs (the fake boot's 6.1-layout fixtures) on every row" \
		test "$(col state_newidle_cost_top_ns "$tmp/fr/runs.csv" | tr '\n' ' ')$(col state_avg_idle_ns "$tmp/fr/runs.csv" | tr '\n' ' ')" = "2000000 2000000 750000 750000 "
	check "provenance: kernel_sha256 and image_sha256 on every row" \
		sh -c "[ \"\$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if (\$i == \"kernel_sha256\") k = i; if (\$i == \"image_sha256\") m = i }; next } { print \$k, \$m }' '$tmp/fr/runs.csv' | sort -u)\" = \"$(sha256sum "$tmp/bzImage" | cut -d' ' -f1) $(sha256sum "$tmp/image" | cut -d' ' -f1)\" ]"
	check "provenance: the boot column holds the boot number" \
		test "$(col boot "$tmp/fr/runs.csv" | tr '\n' ' ')" = "1 1 "
	check "host_load1 is a load average on every row" \
		sh -c "[ \$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"host_load1\") n = i; next } \$n !~ /^[0-9]+\\.[0-9]+\$/' '$tmp/fr/runs.csv' | wc -l) = 0 ]"
	check "progress off a terminal: one line per finished run" \
		sh -c "grep -q '^run/matrix: run 1/2 stock rt-app a/x.json rep 1: [0-9.]* s, ok; elapsed [0-9]*m[0-9]*s, about [0-9]*m[0-9]*s left\$' '$tmp/fr.err' &&
		       [ \$(grep -c '^run/matrix: run [0-9]*/2 ' '$tmp/fr.err') = 2 ]"

	echo changed >"$tmp/image2"
	"$matrix" --resume "$tmp/fr" --kernel "$tmp/bzImage" --initrd "$tmp/image2" >/dev/null 2>"$tmp/e"
	check "--resume refuses another guest image (exit 4, both sha256 named)" \
		sh -c "[ $? = 4 ] && grep -q 'refused' '$tmp/e' && grep -q '$(sha256sum "$tmp/image2" | cut -d' ' -f1)' '$tmp/e'"
	"$matrix" --resume "$tmp/fr" --kernel "$tmp/image2" --initrd "$tmp/image" >/dev/null 2>"$tmp/e"
	check "--resume refuses another kernel (exit 4)" test $? = 4
	PJT_MATRIX_BOOT=$fixtures/fake-boot FAKE_GUEST=$tmp/guest "$matrix" --no-report --resume "$tmp/fr" \
		--kernel "$tmp/bzImage" --initrd "$tmp/image" >/dev/null 2>"$tmp/e"
	check "--resume with the same kernel and image goes on (nothing left: exit 0)" test $? = 0
	PJT_MATRIX_BOOT=$fixtures/fake-boot FAKE_GUEST=$tmp/guest "$matrix" --no-report --resume "$tmp/fr" >/dev/null 2>"$tmp/e"
	check "--resume defaults to the folder's own kernel and image" test $? = 0

	# The noise study's QEMU options: accel thread=single, vCPUs pinned
	fake_rtapp 'sleep 0.2'
	printf 'settle 0\nreps 1\naccel thread=single\npin-vcpus 1 0\ncombo stock\nworkload rt-app %s\n' "$fixtures/a/x.json" >"$tmp/pin.matrix"
	rm -f "$tmp/guest/pinned"
	FAKE_BOOT_ARGS=$tmp/pin.args fake_run "$tmp/pin" "$tmp/pin.matrix"
	check "matrix directives accel thread=single and pin-vcpus 1 0: run/matrix boots with --accel tcg,thread=single --pin-vcpus 1,0" \
		sh -c "grep -q -- '--accel tcg,thread=single --pin-vcpus 1,0' '$tmp/pin.args' && grep -q '^accel	tcg,thread=single\$' '$tmp/pin/plan.txt'"
	check "... and vCPU 0's thread (named CPU 0/TCG, as QEMU's debug-threads names it) was pinned to host CPU 1 by run/pin-vcpus" \
		sh -c "[ \"\$(cat '$tmp/guest/pinned')\" = 1 ]"
	"$matrix" --dry-run "$tmp/pin.matrix" >"$tmp/o" 2>&1
	check "the real run warns when a declared comparison has less than 80% power (1 boot of 1 block: power 0)" \
		sh -c "printf 'settle 0\\nreps 1\\ncombo stock\\ncombo a PJT_BUSIEST\\ncompare a stock\\nworkload rt-app %s\\n' '$fixtures/a/x.json' >'$tmp/weak.matrix' &&
		       PJT_MATRIX_BOOT='$fixtures/fake-boot' FAKE_GUEST='$tmp/guest' '$matrix' --no-report --kernel '$tmp/bzImage' --initrd '$tmp/image' --out '$tmp/weak' '$tmp/weak.matrix' >/dev/null 2>'$tmp/weak.err';
		       grep -q '^run/matrix: warning: compare a stock: a 30% change (ratio 0.7) with 1 boot of 1 block .*: power 0\\.00 ' '$tmp/weak.err'"
	# The family --dry-run sizes its power by is the one the run's report
	# adjusts over: one definition (analysis.c's declared_family), 2 compare
	# lines x 2 topologies x 2 workloads = 8.
	printf 'settle 0\nreps 2\nsmp 2\nsmp 4\ncombo stock\ncombo a PJT_BUSIEST\ncombo b PJT_IDLEST\ncompare a stock\ncompare b stock\nworkload rt-app %s\nworkload rt-app %s\n' \
		"$fixtures/a/x.json" "$fixtures/b/x.json" >"$tmp/fam.matrix"
	"$matrix" --dry-run "$tmp/fam.matrix" >"$tmp/fam.dry" 2>&1
	fake_run "$tmp/fam" "$tmp/fam.matrix" >/dev/null
	"$top/run/stats" "$tmp/fam" >/dev/null 2>&1
	dry_family=$(sed -n "s/^compare a stock: .*Holm's first threshold 0.05 \/ \([0-9]*\) = .*/\1/p" "$tmp/fam.dry")
	run_family=$(sed -n 's/.*"family": *\([0-9]*\).*/\1/p' "$tmp/fam/summary.json" | head -n 1)
	echo "# family: --dry-run $dry_family, the run's summary.json $run_family"
	check "--dry-run's Holm family (2 compares x 2 topologies x 2 workloads) is the family the run's statistics use" \
		sh -c "[ '$dry_family' = 8 ] && [ '$run_family' = '$dry_family' ]"
	check "--dry-run shows accel and pinning" \
		sh -c "grep -q '^accel    tcg,thread=single (run/boot --accel)' '$tmp/o' && grep -q '^pin      vCPU n on host CPU n mod the list 1,0' '$tmp/o'"
	printf 'smp 4\nreps 1\naccel thread=many\npin-vcpus one\ncombo stock\nworkload duty threads=2\n' >"$tmp/badpin.matrix"
	"$plan_tool" "$tmp/badpin.matrix" >/dev/null 2>"$tmp/e"
	check "accel and pin-vcpus: bad values are FILE:LINE errors, exit 2" \
		sh -c "[ $? = 2 ] && grep -q 'badpin.matrix:3: usage: accel thread=single|thread=multi' '$tmp/e' && grep -q \"badpin.matrix:4: pin-vcpus: 'one' is not a host CPU number\" '$tmp/e'"
	: >"$tmp/k" && : >"$tmp/i"
	check "run/boot --accel tcg,thread=single --pin-vcpus 0,1: QEMU gets -accel tcg,thread=single and named vCPU threads" \
		sh -c "'$top/run/boot' --kernel '$tmp/k' --initrd '$tmp/i' --accel tcg,thread=single --pin-vcpus 0,1 --print-cmdline |
		       grep -q -- '-accel tcg,thread=single .* -name pjt,debug-threads=on'"
	check "run/boot --pin-vcpus with a bad list: usage error, exit 2" \
		sh -c "'$top/run/boot' --kernel '$tmp/k' --initrd '$tmp/i' --pin-vcpus 0,,1 --print-cmdline >/dev/null 2>&1; [ \$? = 2 ]"

	# Host load: a busy loop beside the fake guest is other load; the same
	# loop as the process run/boot names as QEMU is not.  On a host already
	# busy both read near 1 and tell nothing apart: that case is skipped.
	host_busy_2s() {
		set -- $(awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; print t - $5 - $6, t; exit }' /proc/stat)
		sleep 2
		awk -v b0="$1" -v t0="$2" '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; printf "%.3f\n", (t - $5 - $6 - b0) / (t - t0); exit }' /proc/stat
	}
	quiet=$(host_busy_2s)
	fake_rtapp 'sleep 2'
	printf 'settle 0\nreps 1\ncombo stock\nworkload rt-app %s\n' "$fixtures/a/x.json" >"$tmp/one.matrix"
	export FAKE_BOOT_BURN=3
	fake_run "$tmp/busy" "$tmp/one.matrix"
	unset FAKE_BOOT_BURN
	export FAKE_BOOT_BURN_AS_QEMU=3
	fake_run "$tmp/qemu" "$tmp/one.matrix"
	unset FAKE_BOOT_BURN_AS_QEMU
	busy_other=$(col host_cpu_busy "$tmp/busy/runs.csv")
	busy_qemu=$(col host_cpu_busy "$tmp/qemu/runs.csv")
	echo "# host_cpu_busy: other load $busy_other, QEMU's own load $busy_qemu"
	if awk -v q="$quiet" 'BEGIN { exit !(q < 0.3) }'; then
		check "host_cpu_busy counts other load and leaves out QEMU's own CPU time" \
			awk -v a="$busy_other" -v b="$busy_qemu" 'BEGIN { exit !(a != "" && b != "" && a - b > 0.2) }'
	else
		skip "host_cpu_busy of other load against QEMU's own needs a host not already busy (busy $quiet over 2 s)"
	fi
	check "a run on a busy host is warned about on stderr" \
		grep -q 'seq 1: the host was busy during the run' "$tmp/busy.err"

	# The harness's own load (the runner's polls, the fake boot's console
	# polling as run/boot's, each short process ~7 ms of CPU on a small VM)
	# is not other load: with the host otherwise idle, a guest burning a
	# CPU reads near 0 (QEMU's time alone left out, it read 0.07-0.08 on
	# this project's 2-CPU host), and a stress-ng --cpu 1 beside it reads
	# one CPU's share.  Both want a quiet host: skipped when it is not.
	# Other processes can only add to the reading: the CPU time every
	# process outside this test's tree used during the try (its reaped
	# children's included) is taken off it, and the guest alone is tried
	# up to three times, the lowest judged: a harness counted again would
	# read 0.07 or more every time.  (Without the subtraction a flake-rate
	# round failed here at 0.040 while three other test suites ran.)
	fake_rtapp 'sleep 3'
	# outside_ticks: CPU ticks (user, system, reaped children's) of the
	# processes not descended from this shell, then all CPUs' ticks
	outside_ticks() {
		for f in /proc/[0-9]*/stat; do cat "$f" 2>/dev/null; echo; done | awk -v me=$$ '
			NF { s = $0; pid = s + 0; s = substr(s, match(s, /\) [^)]*$/) + 2); split(s, f, " ")
			     parent[pid] = f[2]; t[pid] = f[12] + f[13] + f[14] + f[15] }
			END { for (p in t) { q = p; mine = 0
				      for (n = 0; n < 64 && q > 1; n++) { if (q == me) { mine = 1; break } q = parent[q] }
				      if (!mine) out += t[p] }
			      while ((getline l < "/proc/stat") > 0) if (l ~ /^cpu /) { split(l, c, " "); for (i = 2; i <= 9; i++) all += c[i] }
			      print out, all }'
	}
	quiet=$(host_busy_2s)
	if awk -v q="$quiet" 'BEGIN { exit !(q < 0.02) }'; then
		own= readings=
		export FAKE_BOOT_BURN_AS_QEMU=4
		for try in 1 2 3; do
			before=$(outside_ticks)
			fake_run "$tmp/own$try" "$tmp/one.matrix"
			after=$(outside_ticks)
			raw=$(col host_cpu_busy "$tmp/own$try/runs.csv")
			# outside share of the host over the try, taken off the reading
			reading=$(echo "$before $after" | awk -v r="$raw" '{ o = ($4 > $2) ? ($3 - $1) / ($4 - $2) : 0
				printf "%s", (r == "") ? "" : sprintf("%.3f", r - o) }')
			readings="$readings $raw-outside=$reading"
			own=$(awk -v a="$own" -v b="$reading" 'BEGIN { print (a == "" || (b != "" && b + 0 < a + 0)) ? b : a }')
			awk -v b="$own" 'BEGIN { exit !(b != "" && b + 0 < 0.04) }' && break
		done
		unset FAKE_BOOT_BURN_AS_QEMU
		echo "# host_cpu_busy: the host at $quiet before, a guest burning a CPU alone:$readings"
		check "host_cpu_busy leaves out the harness: a guest burning a CPU reads below 0.04 once other processes' CPU time is taken off, in one of 3 tries (lowest $own)" \
			awk -v b="$own" 'BEGIN { exit !(b != "" && b + 0 < 0.04) }'
	else
		skip "host_cpu_busy of a guest alone needs a quiet host (busy $quiet over 2 s)"
	fi
	quiet=$(host_busy_2s)
	if command -v stress-ng >/dev/null && awk -v q="$quiet" 'BEGIN { exit !(q < 0.02) }'; then
		stress-ng --cpu 1 --timeout 60s --quiet &
		stress=$!
		trap 'kill "$stress" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
		sleep 1
		export FAKE_BOOT_BURN_AS_QEMU=4
		fake_run "$tmp/stress" "$tmp/one.matrix"
		unset FAKE_BOOT_BURN_AS_QEMU
		kill "$stress" 2>/dev/null
		wait "$stress" 2>/dev/null
		trap 'rm -rf "$tmp"' EXIT INT TERM
		other=$(col host_cpu_busy "$tmp/stress/runs.csv")
		ncpu=$(getconf _NPROCESSORS_ONLN)
		echo "# host_cpu_busy: stress-ng --cpu 1 beside the guest on $ncpu CPUs: $other"
		check "host_cpu_busy: stress-ng --cpu 1 beside a guest burning a CPU reads one CPU's share, 1/$ncpu (-0.2, +0.15)" \
			awk -v b="$other" -v n="$ncpu" 'BEGIN { exit !(b != "" && b + 0 > 1 / n - 0.2 && b + 0 < 1 / n + 0.15) }'
	else
		skip "host_cpu_busy beside stress-ng needs stress-ng and a quiet host (busy $quiet over 2 s)"
	fi
	fake_rtapp 'sleep 2'
	fake_run "$tmp/last" "$tmp/one.matrix"
	check "host_cpu_busy of a boot's last run, read after QEMU exited, is still measured" \
		test -n "$(col host_cpu_busy "$tmp/last/runs.csv")"
	export FAKE_BOOT_BURN=3
	fake_run "$tmp/quiet" --require-quiet "$tmp/one.matrix"
	rc=$?
	unset FAKE_BOOT_BURN
	check "--require-quiet: exit 3; a run measured busy is not in runs.csv but in busy-rows.csv" \
		sh -c "[ $rc = 3 ] && [ \$(cat '$tmp/quiet/runs.csv' 2>/dev/null | wc -l) -le 1 ] &&
		       { grep -q 'not starting' '$tmp/quiet.err' || [ \$(wc -l < '$tmp/quiet/busy-rows.csv') = 1 ]; }"
	"$matrix" --busy-limit 2 --dry-run "$tmp/one.matrix" >/dev/null 2>&1
	check "--busy-limit outside 0..1 is refused (exit 2)" test $? = 2

	# The duty path with the host build of pjtload: calibration once per
	# boot, the workload's keys into their columns, rate_fraction <= 1.
	if make -s -f "$top/initramfs/pjtload.mk" TOP="$top" BUILD="$top/build" pjtload >/dev/null 2>&1; then
		ln -sf "$top/build/pjtload" "$tmp/guest/bin/pjtload"
		printf 'settle 0\nduration 300ms\nreps 2\nseed 3\ncombo stock\nworkload duty threads=2 duty=20 period=10ms\n' >"$tmp/duty.matrix"
		fake_run "$tmp/duty" "$tmp/duty.matrix"
		check "fake boot, host pjtload: duty rows ok with records_per_s filled" \
			sh -c "[ \$(awk -F, 'NR > 1 && \$NF == \"ok\" && \$16 > 0' '$tmp/duty/runs.csv' | wc -l) = 2 ]"
		check "fake boot, host pjtload: rate_fraction in (0, 1] on every duty row" \
			sh -c "[ \$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"rate_fraction\") n = i; next }
				!(\$n > 0 && \$n <= 1)' '$tmp/duty/runs.csv' | wc -l) = 0 ]"
	else
		skip "pjtload does not build on this host"
	fi

	# A guest value that is not a measurement (negative, hex) is emptied.
	mkdir -p "$tmp/guest2/bin"
	printf '#!/bin/sh\necho mode=fork duration_s=0.3 migrations=-103 ops_per_s=0x67 nr_migrations=4\n' >"$tmp/guest2/bin/pjtload"
	chmod +x "$tmp/guest2/bin/pjtload"
	printf 'settle 0\nduration 300ms\nreps 1\ncombo stock\nworkload fork rate=10\n' >"$tmp/neg.matrix"
	PJT_MATRIX_BOOT=$fixtures/fake-boot FAKE_GUEST=$tmp/guest2 "$matrix" --no-report \
		--kernel "$tmp/bzImage" --initrd "$tmp/image" --out "$tmp/neg" "$tmp/neg.matrix" 2>"$tmp/neg.err"
	check "a count of -103 or 0x67 from the guest is left empty, loudly; good cells kept" \
		sh -c "[ -z \"\$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { print \$c[\"migrations\"] \$c[\"ops_per_s\"] }' '$tmp/neg/runs.csv')\" ] &&
		       [ \"\$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { print \$c[\"nr_migrations\"] }' '$tmp/neg/runs.csv')\" = 4 ] &&
		       grep -q 'not a measurement, left empty: migrations=-103 ops_per_s=0x67' '$tmp/neg.err'"

	# Every key snapshot.sh can print is a runs.csv column.
	for w in before after; do
		PJT_SCHEDSTAT=$fixtures/schedstat-$w PJT_STATS=$fixtures/pjt_stats-$w sh "$top/initramfs/lib/snapshot.sh"
	done | cut -d= -f1 | sort -u >"$tmp/snap-keys"
	check "every key snapshot.sh prints is a column of run/contract/columns" \
		sh -c "[ -s '$tmp/snap-keys' ] && [ -z \"\$(grep -vxF -f '$top/run/contract/columns' '$tmp/snap-keys')\" ]"

	"$matrix" --dry-run "$fixtures/bad-silent.matrix" >"$tmp/o" 2>"$tmp/e"
	check "--dry-run refuses what the guest would (tunable range, wss=1k, cpus=0-63 on 4 vCPUs)" \
		sh -c "[ $? = 2 ] && [ ! -s '$tmp/o' ] && grep -q 'bad-silent.matrix:9: tunable pjt_short_nr' '$tmp/e' &&
		       grep -q 'bad-silent.matrix:11: .*wss=1k' '$tmp/e' && grep -q 'bad-silent.matrix:13: .*cpus' '$tmp/e'"
	"$matrix" --dry-run "$fixtures/good-boots.matrix" >"$tmp/o" 2>&1
	check "--dry-run shows each run's boot" \
		sh -c "grep -q 'boots 3 per topology' '$tmp/o' && [ \$(grep -c '  boot 3 ' '$tmp/o') = 8 ]"
	# declared questions and power before running
	"$matrix" --dry-run "$top/feat-matrix/quick.matrix" >"$tmp/o" 2>&1
	check "quick.matrix declares rfc-after vs rfc-before; --dry-run: 9 boots x 2 blocks resolve a 30% change with power at least 0.8 at Holm's 0.05 / 1" \
		sh -c "grep '^compare rfc-after rfc-before: a 30% change (ratio 0.7) with 9 boots x 2 blocks per boot: power ' '$tmp/o' |
		       grep 'Holm.s first threshold 0.05 / 1 = 0.05;' | awk '{ sub(/.*: power /, \"\"); exit !(\$1 + 0 >= 0.8) }'"
	quick_minutes() { # the estimate of quick.matrix: within make run's 5 minutes (at most 4 min 30 s)
		# awk, not $((...)): "4m09s" gives "09", an invalid octal number to sh
		est=$(sed -n 's/.*estimated duration \([0-9]*\)m\([0-9]*\)s.*/\1 \2/p' "$tmp/o" | awk '{ print $1 * 60 + $2 }')
		echo "estimate: ${est}s"
		[ -n "$est" ] && [ "$est" -le 270 ]
	}
	check "quick.matrix's estimate leaves make run its 5 minutes (<= 4 min 30 s)" quick_minutes
	"$matrix" --dry-run "$top/feat-matrix/rfc.matrix" >"$tmp/o" 2>&1
	check "rfc.matrix declares the RFC's change and its decomposition, each with power at least 0.8 for a 30% change at Holm's 0.05 / 3" \
		sh -c "[ \$(grep -E '^compare (rfc-after rfc-before|rfc-pelt rfc-before|rfc-after rfc-pelt): a 30% change .* with 10 boots x 2 blocks per boot: power ' '$tmp/o' |
		       grep 'Holm.s first threshold 0.05 / 3 = 0.0167;' | awk '{ sub(/.*: power /, \"\") } \$1 + 0 >= 0.8' | wc -l) = 3 ]"
	"$matrix" --dry-run "$top/feat-matrix/bits.matrix" >"$tmp/o" 2>&1
	check "bits.matrix: the 2^(8-4) IV fraction (16 cells, stock among them, nothing riding along), its alias chains shown, 576 runs" \
		sh -c "grep -q '^fraction 2^(8-4), resolution 4, 16 cells; factors A=PJT_SHORT_TASKS .* H=LEGACY_LOAD$' '$tmp/o' &&
		       grep -q '^alias    AB  = CG = DH = EF$' '$tmp/o' && grep -q '^alias    A   = (none up to two-factor interactions)$' '$tmp/o' &&
		       [ \$(grep -c '^combo ' '$tmp/o') = 16 ] && grep -q '^combo    stock ' '$tmp/o' && grep -q '^576 runs;' '$tmp/o'"
	check "bits.matrix: --dry-run: each main effect resolves a 20% change with power at least 0.8 (sign test, 9 boots: the fewest whose smallest p, 2/2^9, passes Holm's 0.05/8 over a workload's bits)" \
		sh -c "grep '^fraction 2^(8-4) main effect: a 20% change (ratio 0.8) in a main effect over 16 cells with 9 boots x 1 block per boot: power ' '$tmp/o' |
		       awk '{ sub(/.*: power /, \"\") } { exit !(\$1 + 0 >= 0.8) }'"
	sed 's/^boots .*/boots 8/; s/^reps .*/reps 8/' "$top/feat-matrix/bits.matrix" >"$tmp/bits8.matrix"
	"$matrix" --dry-run "$tmp/bits8.matrix" >"$tmp/o" 2>&1
	check "a fraction's main effects with 8 boots: power 0.00 at Holm's 0.05 / 8 over its bits (the sign test's smallest p, 2/2^8, is above it)" \
		grep -q '^fraction 2^(8-4) main effect: .* with 8 boots x 1 block per boot: power 0.00 .*Holm.s first threshold over the design.s 8 bits 0.05 / 8 = 0.00625' "$tmp/o"
	"$matrix" --dry-run "$top/feat-matrix/rfc-wide.matrix" >"$tmp/o" 2>&1
	check "rfc-wide.matrix: --dry-run says its 6 boots of 1 block have no power at Holm's 0.05 / 12 (2/2^6 > 0.00417)" \
		grep -q '^compare rfc-after rfc-before: a 30% change (ratio 0.7) with 6 boots x 1 block per boot: power 0.00 .*Holm.s first threshold 0.05 / 12 = 0.00417;' "$tmp/o"
	# The A/A matrix and the order's lines.
	"$matrix" --dry-run "$top/feat-matrix/aa.matrix" >"$tmp/o" 2>&1
	check "aa.matrix: two arms on rfc-before's bits, one a declared replicate, compared; 40 runs in 10 boots" \
		sh -c "grep -q '^combo    rfc-before  .*PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE+PJT_CLASSIFY+LEGACY_LOAD\$' '$tmp/o' &&
		       grep -q '^combo    rfc-before-b .*PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE+PJT_CLASSIFY+LEGACY_LOAD\$' '$tmp/o' &&
		       grep -q '^         rfc-before-b: a replicate of rfc-before' '$tmp/o' && grep -q '^compare rfc-before-b rfc-before: .* with 10 boots x 2 blocks per boot: power ' '$tmp/o' &&
		       grep -q '^40 runs; ' '$tmp/o' && grep -q 'boots 10 per topology' '$tmp/o'"
	check "aa.matrix --dry-run: 20 blocks are 10 whole cycles of the Williams design: balanced; each arm opens 5 of the 10 boots" \
		sh -c "grep -q '^order williams: 20 blocks = 10 cycles of 2 sequences of the 2 combos: balanced' '$tmp/o' &&
		       grep -q '^position in the boot, duty .*(mean; boots where first of 10): rfc-before 2.5, first 5; rfc-before-b 2.5, first 5\$' '$tmp/o'"
	combos_matrix 3 8 8 >"$tmp/part.matrix"
	"$matrix" --dry-run "$tmp/part.matrix" >"$tmp/o" 2>&1
	check "--dry-run: 8 blocks of 3 combos are not whole cycles of the 6 sequences: said to be approximate" \
		grep -q '^order williams: 8 blocks, not a whole number of cycles of 6 sequences of the 3 combos (a Williams square and its mirror): position balance is approximate' "$tmp/o"
	"$matrix" --dry-run "$tmp/two.matrix" >"$tmp/o" 2>&1
	check "--dry-run, 2 workloads: their order changes every 6 blocks, 24 blocks = 2 cycles of 12: balanced" \
		grep -q '^order williams: the 2 workloads run in turn, in 2 orders that change every 6 blocks: 2 cycles of 12 blocks: balanced' "$tmp/o"
	"$matrix" --dry-run "$tmp/w3-random.matrix" >"$tmp/o" 2>&1
	check "--dry-run, order random: said so" grep -q '^order random: each block a seeded shuffle' "$tmp/o"
	"$matrix" --dry-run "$fixtures/good-boots.matrix" >"$tmp/o" 2>&1
	check "a matrix without compare lines: --dry-run says everything will be exploratory" \
		grep -q '^no compare line: no declared question' "$tmp/o"
	printf 'smp 4\nduration 1s\nreps 2\ncombo stock\ncombo a PJT_BUSIEST\ncompare a nosuch\ncompare a a\ncompare a stock\ncompare stock a\nworkload duty threads=2\n' >"$tmp/cmp.matrix"
	"$plan_tool" "$tmp/cmp.matrix" >"$tmp/o" 2>"$tmp/e"
	check "compare lines: an unknown name, a combo against itself, a pair declared twice: FILE:LINE errors, exit 2" \
		sh -c "[ $? = 2 ] && grep -q 'cmp.matrix:6: compare: no combo or factorial cell is named .nosuch.' '$tmp/e' &&
		       grep -q 'cmp.matrix:7: compare: .a. against itself' '$tmp/e' && grep -q 'cmp.matrix:9: compare stock a: declared already (line 8)' '$tmp/e'"
	# Other people's tools, their output parsed into the columns: stand-in
	# perf (perf bench's own output), cyclictest (a recorded --histfile)
	# and rt-app (a recorded log) in the fake guest.
	g3=$tmp/guest3
	mkdir -p "$g3/bin"
	cat >"$g3/bin/perf" <<'EOF'
#!/bin/sh
[ -z "${FAKE_PERF_BROKEN:-}" ] || { echo "perf: error while loading shared libraries: libpython3.11.so.1.0: cannot open shared object file" >&2; exit 127; }
sleep 0.1
case $3 in
messaging) printf '# Running %s benchmark:\n# 20 sender and receiver processes per group\n\n     Total time: 0.100 [sec]\n' "'sched/messaging'" ;;
pipe) printf '# Running %s benchmark:\n# Executed %s pipe operations between two processes\n\n     Total time: 0.200 [sec]\n\n     200.000000 usecs/op\n           5000 ops/sec\n' "'sched/pipe'" "$5" ;;
esac
EOF
	cat >"$g3/bin/cyclictest" <<EOF
#!/bin/sh
echo "\$*" >> "$g3/cyclictest.args"
for a; do case \$a in --histfile=*) cp "$fixtures/cyclictest-hist" "\${a#--histfile=}" ;; esac; done
EOF
	cp "$tmp/guest/bin/rt-app" "$g3/bin/rt-app"
	chmod +x "$g3/bin/"*
	mkdir -p "$tmp/perf-root/usr/bin"
	: >"$tmp/perf-root/usr/bin/perf"
	(cd "$tmp/perf-root" && find . | cpio -o -H newc --quiet) | gzip >"$tmp/perf-image"
	printf 'settle 0\nduration 1s\nreps 1\nseed 2\ncombo stock\nworkload perf-messaging groups=1 loops=10\nworkload perf-pipe loops=1000\nworkload cyclictest threads=2 interval=500us\nworkload rt-app %s\n' \
		"$fixtures/a/x.json" >"$tmp/peers.matrix"
	PJT_MATRIX_BOOT=$fixtures/fake-boot FAKE_GUEST=$g3 "$matrix" --no-report \
		--kernel "$tmp/bzImage" --initrd "$tmp/perf-image" --out "$tmp/peers" "$tmp/peers.matrix" 2>"$tmp/peers.err"
	cell() { awk -F, -v w="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) n[$i] = i; next } $5 ~ "^" w { print $n[c] }' "$tmp/peers/runs.csv"; }
	check "fake boot, perf bench sched messaging: ok, duration_s perf's own time summed, ops_per_s 4000 messages per 0.1 s" \
		sh -c "[ '$(cell perf-messaging status)' = ok ] && [ '$(cell perf-messaging ops_per_s)' = 40000.0 ] &&
		       awk -v d='$(cell perf-messaging duration_s)' 'BEGIN { exit !(d >= 0.1 && d * 10 == int(d * 10 + 0.5)) }'"
	check "fake boot, perf bench sched pipe: ok, round trips per second from its Executed and usecs/op lines (5000)" \
		sh -c "[ '$(cell perf-pipe status)' = ok ] && [ '$(cell perf-pipe ops_per_s)' = 5000.0 ]"
	check "fake boot, perf bench: invocations repeat until the duration (1 s) is up" \
		awk -v d="$(cell perf-pipe duration_s)" 'BEGIN { exit !(d >= 0.8) }'
	check "fake boot, cyclictest: -t 2 -i 500 -D 1 into a histogram file" \
		grep -q -- '-t 2 -i 500 -D 1 -h 100000 --histfile=' "$g3/cyclictest.args"
	check "fake boot, cyclictest: the two threads' histogram gives min 3, p50 4, p90 5, p99 9, p999 9, max 9, avg 4.0" \
		test "$(cell cyclictest wakeup_min_us) $(cell cyclictest wakeup_p50_us) $(cell cyclictest wakeup_p90_us) $(cell cyclictest wakeup_p99_us) $(cell cyclictest wakeup_p999_us) $(cell cyclictest wakeup_max_us) $(cell cyclictest wakeup_avg_us) $(cell cyclictest status)" = "3 4 5 9 9 9 4.0 ok"
	check "fake boot, rt-app's log: 3 activations over 30 ms = 100/s, slack p50 8000 us, p10 0 (an overrun: -500), overruns 1" \
		test "$(cell rt-app ops_per_s) $(cell rt-app slack_p50_us) $(cell rt-app slack_p10_us) $(cell rt-app overruns) $(cell rt-app status)" = "100.0 8000 0 1 ok"
	check "fake boot, rt-app's wu_lat wrapped below 0: the wake-up columns stay empty, the console says why" \
		sh -c "[ -z '$(cell rt-app wakeup_p50_us)$(cell rt-app wakeup_max_us)' ] && grep -q 'wu_lat values are not latencies' '$tmp/peers/console-1.log'"
	fake_rtapp 'true'
	rm -f "$tmp/guest/bin/rt-app.log"
	printf '#!/bin/sh\ntrue\n' >"$g3/bin/rt-app"
	FAKE_PERF_BROKEN=1 PJT_MATRIX_BOOT=$fixtures/fake-boot FAKE_GUEST=$g3 "$matrix" --no-report \
		--kernel "$tmp/bzImage" --initrd "$tmp/perf-image" --out "$tmp/broken" "$tmp/peers.matrix" 2>"$tmp/broken.err"
	cell() { awk -F, -v w="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) n[$i] = i; next } $5 ~ "^" w { print $n[c] }' "$tmp/broken/runs.csv"; }
	check "a perf that cannot run in the guest (a missing library) fails its runs, loudly, with perf's words" \
		sh -c "[ '$(cell perf-messaging status) $(cell perf-pipe status)' = 'failed failed' ] && [ -z '$(cell perf-pipe ops_per_s)' ] &&
		       grep -q 'perf bench sched pipe -l 1000.* failed: perf: error while loading shared libraries' '$tmp/broken/console-1.log'"
	check "rt-app that leaves no log: no rate, so the run failed (not an empty cell), loudly" \
		sh -c "[ '$(cell rt-app status)' = failed ] && grep -q 'rt-app wrote no log' '$tmp/broken/console-1.log'"
	"$matrix" --no-report --kernel "$tmp/bzImage" --initrd "$tmp/image" --out "$tmp/noperf" "$tmp/peers.matrix" >/dev/null 2>"$tmp/e"
	check "perf workloads with an image without usr/bin/perf: refused before booting (exit 2), nothing created" \
		sh -c "[ $? = 2 ] && grep -q 'has no usr/bin/perf' '$tmp/e' && [ ! -e '$tmp/noperf' ]"
	mkdir -p "$tmp/fakemake"
	printf '#!/bin/sh\necho "$*" >> "%s/make.args"\n' "$tmp" >"$tmp/fakemake/make"
	chmod +x "$tmp/fakemake/make"
	PATH=$tmp/fakemake:$PATH FAKE_BOOT_ARGS=$tmp/perf.args PJT_MATRIX_BOOT=$fixtures/fake-boot FAKE_GUEST=$g3 \
		"$matrix" --no-report --kernel "$tmp/bzImage" --out "$tmp/perfdefault" "$tmp/peers.matrix" >/dev/null 2>"$tmp/e"
	check "perf workloads without --initrd: run/matrix makes build/initramfs-perf.cpio.gz and boots it" \
		sh -c "grep -q ' $top/build/initramfs-perf.cpio.gz\$' '$tmp/make.args' &&
		       { grep -q -- '--initrd $top/build/initramfs-perf.cpio.gz' '$tmp/perf.args' 2>/dev/null ||
		         grep -q 'initramfs-perf.cpio.gz not found' '$tmp/e'; }"

	# A replicate arm in the guest: the original's bits, its own name.
	fake_rtapp 'true'
	printf 'settle 0\nreps 2\nseed 1\ncombo stock\ncombo busiest PJT_BUSIEST\nreplicate busiest-b busiest\nworkload rt-app %s\n' \
		"$fixtures/a/x.json" >"$tmp/aa.matrix"
	check "replicate busiest-b busiest: the guest plan runs the arm under its own name with busiest's bits" \
		sh -c "'$matrix' --print-guest-plan '$tmp/aa.matrix' | grep -c '^matrix_run [0-9]* 1x4x1 busiest-b PJT_BUSIEST 1 rt-app ' | grep -qx 1"
	fake_run "$tmp/aa" "$tmp/aa.matrix"
	# (the fake guest has no features file: runs with bits set fail there)
	check "fake boot, replicate busiest-b busiest: runs.csv's combo column holds each arm's own name, both with busiest's bits" \
		test "$(awk -F, 'NR > 1 { print $3, $4 }' "$tmp/aa/runs.csv" | sort | uniq -c | awk '{ print $1, $2, $3 }' | tr '\n' ';')" = \
		"2 busiest PJT_BUSIEST;2 busiest-b PJT_BUSIEST;2 stock none;"
	"$matrix" --dry-run "$tmp" >/dev/null 2>"$tmp/e"
	check "run/matrix: a directory as the matrix is a clear error (exit 2)" \
		sh -c "[ $? = 2 ] && grep -q 'not a matrix file (a directory)' '$tmp/e'"
else
	skip "run/matrix not present"
fi

# ---- Guest part -----------------------------------------------------------
if [ "${PJT_TEST_NO_BOOT:-0}" = 1 ]; then
	skip "guest tests (PJT_TEST_NO_BOOT=1)"
	exit 0
fi
if [ ! -r "$top/build/bzImage" ] || [ ! -r "$top/build/initramfs.cpio.gz" ] || [ ! -x "$top/run/boot" ]; then
	skip "guest tests need build/bzImage, build/initramfs.cpio.gz (make kernel initramfs) and run/boot"
	tap_end # the host tests above count: a failure among them fails the suite
	exit
fi
initrd=${PJT_TEST_INITRD:-$top/build/initramfs.cpio.gz}
guest_matrix() { # guest_matrix NAME BODY...: a small matrix file in $tmp
	f=$tmp/$1.matrix
	shift
	printf '%s\n' "name $(basename "$f" .matrix)" "smp 2" "duration 1s" "settle 0" "$@" > "$f"
}
rows_of() { awk -F, 'NR > 1' "$1/runs.csv"; }
contract_header=$(grep -v '^#' "$top/run/contract/columns" | paste -sd,)
ncolumns=$(grep -vc '^#' "$top/run/contract/columns")

# 1. A tiny real matrix: 2 combos x 1 workload x 2 reps.
guest_matrix tiny "reps 2" "seed 1" "combo stock" "combo rfc-before LEGACY_LOAD" \
	"workload duty threads=2 duty=20 period=10ms"
res=$tmp/res-tiny
"$matrix" --initrd "$initrd" --out "$res" "$tmp/tiny.matrix" >"$tmp/tiny.out" 2>&1
rc=$?
check "tiny matrix: run/matrix exits 0" test "$rc" = 0
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/tiny.out"
check "tiny matrix: runs.csv header is run/contract/columns" \
	test "$(head -n 1 "$res/runs.csv" 2>/dev/null)" = "$contract_header"
check "tiny matrix: one row per run, seqs 1..4 once each" \
	test "$(rows_of "$res" | cut -d, -f1 | sort -n | tr '\n' ' ')" = "1 2 3 4 "
check "tiny matrix: every row has all $ncolumns columns" \
	sh -c "[ \$(awk -F, 'NF != $ncolumns' '$res/runs.csv' | wc -l) = 0 ]"
check "tiny matrix: every run is ok, with the combo's features" \
	sh -c "[ \$(awk -F, 'NR > 1 && \$NF == \"ok\" && ((\$3 == \"stock\" && \$4 == \"none\") || (\$3 == \"rfc-before\" && \$4 == \"LEGACY_LOAD\"))' '$res/runs.csv' | wc -l) = 4 ]"
check "tiny matrix: duty rows carry duration, records/s, wake-up latency" \
	sh -c "[ \$(awk -F, 'NR > 1 && \$7 > 0 && \$16 > 0 && \$19 != \"\" && \$20 != \"\"' '$res/runs.csv' | wc -l) = 4 ]"
check "tiny matrix: pull counts are numbers or empty, ops_per_s empty for duty" \
	sh -c "[ \$(awk -F, 'NR > 1 && (\$8 !~ /^[0-9]*\$/ || \$9 !~ /^[0-9]*\$/ || \$10 !~ /^[0-9]*\$/ || \$24 != \"\")' '$res/runs.csv' | wc -l) = 0 ]"
check "tiny matrix: matrix copy, plan, seed, host, uname, features, series version kept" \
	sh -c "for f in tiny.matrix plan.txt seed.txt host.txt uname.txt features-before.txt series-version.txt qemu-cmdline.txt console-1.log; do [ -s '$res'/\$f ] || exit 1; done"
check "tiny matrix: boot 1, the kernel's and image's sha256, host load on every row" \
	sh -c "[ \$(awk -F, -v k='$(sha256sum "$top/build/bzImage" | cut -d' ' -f1)' -v m='$(sha256sum "$initrd" | cut -d' ' -f1)' '
		NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
		\$c[\"boot\"] == 1 && \$c[\"kernel_sha256\"] == k && \$c[\"image_sha256\"] == m &&
		\$c[\"host_load1\"] ~ /^[0-9.]+\$/ && \$c[\"host_cpu_busy\"] ~ /^[0-9.]+\$/' '$res/runs.csv' | wc -l) = 4 ]"
check "tiny matrix: the seed recorded is the file's" test "$(cat "$res/seed.txt" 2>/dev/null)" = 1

# 2. A guest panic mid-matrix: crashed rows, the other runs still done.
guest_matrix crash "reps 2" "seed 5" "combo stock" "workload duty threads=2 duty=20 period=10ms" \
	"workload crash"
"$matrix" --initrd "$initrd" --out "$res" "$tmp/crash.matrix" >"$tmp/crash.out" 2>&1
rc=$?
res2=$res-2
check "an existing results folder is not reused (a -2 folder is made)" \
	sh -c "[ -s '$res2/runs.csv' ] && [ \$(awk 'END { print NR }' '$res/runs.csv') = 5 ]"
check "crash matrix: run/matrix exits 0 after the crashes" test "$rc" = 0
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/crash.out"
check "crash matrix: the crash runs are rows with status crashed, seq and combo filled" \
	sh -c "[ \$(awk -F, 'NR > 1 && \$5 == \"crash\" && \$NF == \"crashed\" && \$3 == \"stock\" && \$1 > 0' '$res2/runs.csv' | wc -l) = 2 ]"
check "crash matrix: the duty runs after and between crashes completed ok" \
	sh -c "[ \$(awk -F, 'NR > 1 && \$5 != \"crash\" && \$NF == \"ok\"' '$res2/runs.csv' | wc -l) = 2 ]"
check "crash matrix: a console excerpt with the panic is kept per crashed run" \
	sh -c "for s in \$(awk -F, '\$NF == \"crashed\" { print \$1 }' '$res2/runs.csv'); do grep -q 'Kernel panic' '$res2'/crash-\$s.log || exit 1; done"

# 3. Stopped mid-matrix (SIGTERM, as Ctrl-C does), then --resume.
guest_matrix resume "reps 3" "seed 9" "duration 2s" "combo stock" "combo rfc-before LEGACY_LOAD" \
	"workload duty threads=2 duty=20 period=10ms"
sed -i '/^duration 1s$/d' "$tmp/resume.matrix"
res3=$tmp/res-resume
"$matrix" --initrd "$initrd" --out "$res3" "$tmp/resume.matrix" >"$tmp/resume.out" 2>&1 &
pid=$!
wait_until 300 sh -c "[ \$(awk 'END { print NR }' '$res3/runs.csv' 2>/dev/null || echo 0) -ge 3 ]"
kill -TERM "$pid"
wait "$pid"
rc=$?
check "stopped matrix: exit 130 and says how to resume" \
	sh -c "[ $rc = 130 ] && grep -q 'resume with: run/matrix --resume $res3' '$tmp/resume.out'"
before=$(rows_of "$res3" | wc -l)
check "stopped matrix: runs.csv keeps the finished rows, not all 6" test "$before" -ge 2 -a "$before" -lt 6
check "stopped matrix: no QEMU left running for it" \
	sh -c "! ps -eo args | grep -q '[q]emu-system.*$res3'"
"$matrix" --initrd "$initrd" --resume "$res3" >"$tmp/resume2.out" 2>&1
rc=$?
check "--resume finishes the matrix (exit 0)" test "$rc" = 0
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/resume2.out"
check "--resume: every seq exactly once, nothing repeated" \
	test "$(rows_of "$res3" | cut -d, -f1 | sort -n | tr '\n' ' ')" = "1 2 3 4 5 6 "
check "--resume: the resumed runs carry a later boot number" \
	sh -c "[ \$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"boot\") b = i; next } { print \$b }' '$res3/runs.csv' | sort -u | wc -l) -ge 2 ]"
check "--resume: the header is there once" \
	test "$(grep -c '^seq,' "$res3/runs.csv")" = 1

# 4. Other people's tools in a real guest: perf bench (run/matrix makes and
# boots the perf image), cyclictest and rt-app fill their columns.
printf '{ "global": { "duration": 2, "calibration": 100 }, "tasks": { "t": { "instance": 2, "loop": -1, "run": 1000, "timer": { "ref": "unique", "period": 10000 } } } }\n' >"$tmp/peer.json"
guest_matrix peers "reps 1" "seed 3" "duration 2s" "combo stock" "workload perf-messaging groups=1 loops=10" \
	"workload perf-pipe loops=500" "workload cyclictest threads=2 interval=1000us" "workload rt-app peer.json"
sed -i '/^duration 1s$/d' "$tmp/peers.matrix"
res4=$tmp/res-peers
"$matrix" --out "$res4" "$tmp/peers.matrix" >"$tmp/peers.out" 2>&1
rc=$?
check "peers matrix: run/matrix exits 0, every run ok, on the perf image" \
	sh -c "[ $rc = 0 ] && [ \$(awk -F, 'NR > 1 && \$NF == \"ok\"' '$res4/runs.csv' | wc -l) = 4 ] &&
	       grep -q 'initramfs-perf.cpio.gz' '$res4/image.txt'"
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/peers.out"
peer_cells() { # peer_cells WORKLOAD-PREFIX COLUMN...: the cells, space-separated
	w=$1
	shift
	awk -F, -v w="$w" -v cols="$*" 'NR == 1 { for (i = 1; i <= NF; i++) n[$i] = i; next }
		index($5, w) == 1 { k = split(cols, c, " "); for (i = 1; i <= k; i++) printf "%s%s", $n[c[i]], i < k ? " " : "\n" }' "$res4/runs.csv"
}
filled() { for v in $1; do [ -n "$v" ] || return 1; done; [ "$(echo $1 | wc -w)" = "$2" ]; }
for w in perf-messaging perf-pipe; do
	got=$(peer_cells "$w" duration_s ops_per_s)
	echo "# $w: duration_s ops_per_s = $got"
	check "peers matrix: $w fills duration_s and ops_per_s" filled "$got" 2
done
got=$(peer_cells cyclictest wakeup_min_us wakeup_avg_us wakeup_p50_us wakeup_p90_us wakeup_p99_us wakeup_p999_us wakeup_max_us)
echo "# cyclictest: wakeup min avg p50 p90 p99 p999 max = $got"
check "peers matrix: cyclictest fills the wake-up columns (min, avg, p50, p90, p99, p999, max)" filled "$got" 7
got=$(peer_cells rt-app ops_per_s slack_p10_us slack_p50_us overruns)
echo "# rt-app: ops_per_s slack_p10 slack_p50 overruns = $got; wake-up p50 p99 = $(peer_cells rt-app wakeup_p50_us wakeup_p99_us)"
check "peers matrix: rt-app fills ops_per_s, slack p10/p50 and overruns from its logs" filled "$got" 4
tap_end
