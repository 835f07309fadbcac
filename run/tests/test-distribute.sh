#!/bin/sh
# run/tests/test-distribute.sh: tests of sharding (build/matrix-plan --shard,
# run/matrix --shard), run/merge and run/distribute.  Host only: no QEMU,
# run/tests/fixtures/matrix/fake-boot stands in for run/boot (as in
# run/tests/test-matrix.sh), with a fake pjtload that answers at once.
# run/distribute runs here on localhost with -j 1 (GNU parallel); its SSH
# form is only checked as the command it builds (no network here).
# TAP-ish output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/run/tests/fixtures/tap.sh"
tap_begin test-distribute

plan_tool=$top/build/matrix-plan
matrix=$top/run/matrix
merge=$top/run/merge
distribute=$top/run/distribute
make -s -f "$top/run/matrix.mk" TOP="$top" BUILD="$top/build" matrix-tools >"$tmp/make.log" 2>&1 ||
	{ echo "not ok 1 - build/matrix-plan builds"; sed 's/^/# /' "$tmp/make.log"; exit 1; }

runs_of() { awk -F'\t' '$1 == "run"' "$@"; }
col() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) n = i; next } { print $n }' "$2"; }

# ---- Sharding in the planner --------------------------------------------
# 2 topologies x 2 combos x 2 workloads x 6 reps in 6 boots: 48 runs.
cat >"$tmp/big.matrix" <<'EOF'
name big
smp 2
smp sockets=1,cores=2,threads=2
reps 6
boots 6
seed 11
combo stock
combo legacy-6.1 LEGACY_LOAD
workload fork rate=10
workload pingpong pairs=1
EOF
"$plan_tool" "$tmp/big.matrix" >"$tmp/big.plan"
runs_of "$tmp/big.plan" | sort >"$tmp/big.runs"
cells() { awk -F'\t' '$1 == "run" { print $3, $4, $7 }' "$1" | sort -u; }
cells "$tmp/big.plan" >"$tmp/big.cells"

union_is_plan() { # N: the N shards' run lines are the plan's, each once
	k=1
	while [ "$k" -le "$1" ]; do
		"$plan_tool" --shard "$k/$1" "$tmp/big.matrix" >"$tmp/shard-$k.plan" || return 1
		k=$((k + 1))
	done
	runs_of "$tmp"/shard-[0-9]*.plan | sort >"$tmp/union"
	rm -f "$tmp"/shard-[0-9]*.plan
	cmp "$tmp/union" "$tmp/big.runs"
}
every_shard_whole() { # N: each shard has every cell, in whole blocks, and says what it is
	k=1
	while [ "$k" -le "$1" ]; do
		"$plan_tool" --shard "$k/$1" "$tmp/big.matrix" >"$tmp/s.plan" || return 1
		cells "$tmp/s.plan" | cmp -s - "$tmp/big.cells" || { echo "shard $k/$1 lacks cells"; return 1; }
		# every (topology, rep) block of the shard holds the 4 cells
		awk -F'\t' '$1 == "run" { n[$3 " " $6]++ } END { for (b in n) if (n[b] != 4) exit 1 }' "$tmp/s.plan" ||
			{ echo "shard $k/$1: a partial block"; return 1; }
		grep -q "^shard	$k	$1\$" "$tmp/s.plan" && grep -q '^plan_runs	48$' "$tmp/s.plan" &&
			[ "$(awk -F'\t' '$1 == "runs" { print $2 }' "$tmp/s.plan")" = "$(runs_of "$tmp/s.plan" | wc -l)" ] ||
			{ echo "shard $k/$1: records shard, plan_runs, runs"; return 1; }
		k=$((k + 1))
	done
}
for N in 1 2 3 4 6; do
	check "--shard K/$N: the union of the $N shards is the plan, every run once, same seqs" union_is_plan $N
	check "--shard K/$N: each shard holds every cell of both topologies in whole blocks" every_shard_whole $N
done
check "the plan without --shard has no shard record" sh -c "! grep -q '^shard' '$tmp/big.plan'"
refused() { # ARG MESSAGE: matrix-plan --shard ARG exits 2 saying MESSAGE
	"$plan_tool" --shard "$1" "$tmp/big.matrix" >"$tmp/o" 2>"$tmp/e"
	[ $? = 2 ] && [ ! -s "$tmp/o" ] && grep -q -- "$2" "$tmp/e"
}
for arg in 0/3 4/3 x 1/ /2 -1/2 1/2/3 ' 1/2'; do
	check "--shard '$arg' is refused (exit 2, want K/N)" refused "$arg" "want K/N"
done
check "--shard 1/7 over 6 boots is refused, naming the limit" refused 1/7 "N is at most 6"
check "run/matrix --shard 1/7: exit 2 before anything" \
	sh -c "'$matrix' --dry-run --shard 1/7 '$tmp/big.matrix' >/dev/null 2>&1; [ \$? = 2 ]"
check "run/matrix --shard without a value: exit 2" \
	sh -c "'$matrix' --dry-run '$tmp/big.matrix' --shard >/dev/null 2>&1; [ \$? = 2 ]"
"$matrix" --dry-run --shard 2/3 "$tmp/big.matrix" >"$tmp/dry" 2>&1
check "run/matrix --dry-run --shard 2/3 lists the shard's 16 runs (boots 2 and 5) and says so" \
	sh -c "grep -q '^shard 2/3: 16 of the plan.s 48 runs' '$tmp/dry' &&
	       [ \$(grep -c '^ *[0-9]*  1x[0-9]x[0-9]  boot ' '$tmp/dry') = 16 ] &&
	       [ \"\$(sed -n 's/^ *[0-9]*  1x[0-9]x[0-9]  boot \\([0-9]*\\) .*/\\1/p' '$tmp/dry' | sort -u | tr '\\n' ' ')\" = '2 5 ' ]"

# ---- Shards run with the fake boot ---------------------------------------
mkdir -p "$tmp/guest/bin"
printf '#!/bin/sh\necho mode=fork duration_s=0.1 migrations=3 nr_migrations=4 ops_per_s=100\n' >"$tmp/guest/bin/pjtload"
chmod +x "$tmp/guest/bin/pjtload"
echo kernel >"$tmp/bzImage"
echo image >"$tmp/image"
cp "$top/run/tests/fixtures/matrix/small.matrix" "$tmp/small.matrix"
export PJT_MATRIX_BOOT="$top/run/tests/fixtures/matrix/fake-boot" FAKE_GUEST="$tmp/guest"
"$plan_tool" "$tmp/small.matrix" >"$tmp/small.plan"

# ---- run/distribute, then its shards' folders ---------------------------
"$distribute" --dry-run -j 2 --hosts h1,user@h2 --kernel "$tmp/bzImage" --initrd "$tmp/image" \
	--out "$tmp/ssh" "$tmp/small.matrix" >"$tmp/dry" 2>&1
check "run/distribute --dry-run --hosts: the SSH command it would run (not run: no network here)" \
	sh -c "grep -q -- '--sshlogin h1,user@h2' '$tmp/dry' && grep -q -- '--basefile $tmp/bzImage --basefile $tmp/image --basefile $tmp/small.matrix' '$tmp/dry' &&
	       grep -q -- '--return $tmp/ssh.distribute/shard-{} ' '$tmp/dry' && grep -q -- '--joblog $tmp/ssh.distribute/joblog' '$tmp/dry' &&
	       grep -q -- '--will-cite' '$tmp/dry' && grep -q 'run/distribute --shard-job {} $tmp/ssh.distribute ::: 1 2\$' '$tmp/dry' &&
	       [ ! -e '$tmp/ssh.distribute' ]"
"$distribute" --dry-run --shards 3 --kernel "$tmp/bzImage" --initrd "$tmp/image" "$tmp/small.matrix" >/dev/null 2>"$tmp/e"
check "run/distribute --shards 3 on a 2-boot matrix: exit 2, the planner's reason in run/distribute's name" \
	sh -c "[ $? = 2 ] && grep -q '^run/distribute: .*N is at most 2' '$tmp/e' && ! grep -q 'matrix-plan' '$tmp/e'"
check "run/distribute: unknown option exit 2, --help exit 0" \
	sh -c "{ '$distribute' --bogus '$tmp/small.matrix' 2>/dev/null; [ \$? = 2 ]; } && '$distribute' --help | grep -q usage"

"$distribute" --shards 2 -j 1 --no-report --kernel "$tmp/bzImage" --initrd "$tmp/image" --out "$tmp/d" \
	"$tmp/small.matrix" >"$tmp/d.out" 2>"$tmp/d.err" </dev/null
rc=$?
check "run/distribute -j 1, 2 shards on localhost: exit 0" test "$rc" = 0
check "run/distribute: the merged folder holds the single plan's runs, every seq once, the same cells" \
	sh -c "[ \"\$(awk -F, 'NR > 1 { print \$1, \$3, \$5, \$6 }' '$tmp/d/runs.csv')\" = \
	       \"\$(awk -F'\t' '\$1 == \"run\" { print \$2, \$4, \$7, \$6 }' '$tmp/small.plan')\" ]"
check "run/distribute: both shards ran one after the other, exit 0 in parallel's job log" \
	sh -c "[ \$(awk -F'\t' 'NR > 1 && \$7 == 0' '$tmp/d.distribute/joblog' | wc -l) = 2 ]"
check "run/distribute: progress lines tagged by shard, each shard's output kept in its log" \
	sh -c "grep -q '^shard 1/2	run/matrix: run 4/4 ' '$tmp/d.err' && grep -q '^shard 2/2	run/matrix: run 4/4 ' '$tmp/d.err' &&
	       grep -q 'run 4/4' '$tmp/d.distribute/shard-2.log'"

# The shards run/distribute made with run/matrix --shard K/2: the folders
# the merge tests below use.
s1=$tmp/d.distribute/shard-1 s2=$tmp/d.distribute/shard-2
check "a shard's folder says its shard in shard.txt and plan.txt" \
	sh -c "[ \"\$(cat '$s2/shard.txt')\" = 2/2 ] && grep -q '^shard	2	2\$' '$s2/plan.txt'"
seqs() { col seq "$1" | sort -n | tr '\n' ' '; }
check "a shard's rows are its plan's seqs (the whole plan's numbers)" test "$(seqs "$s2/runs.csv")" = "5 6 7 8 "

# ---- run/merge -----------------------------------------------------------
"$merge" "$tmp/m" "$s2" "$s1" >"$tmp/m.out" 2>&1
rc=$?
check "run/merge of the two shards: exit 0" test "$rc" = 0
check "merged runs.csv: every seq of the plan once, in order" \
	test "$(col seq "$tmp/m/runs.csv" | tr '\n' ' ')" = "1 2 3 4 5 6 7 8 "
runs_of "$tmp/small.plan" >"$tmp/small.runs"
runs_of "$tmp/m/plan.txt" >"$tmp/m.runs"
check "merged plan.txt: the run lines of the unsharded plan" cmp "$tmp/m.runs" "$tmp/small.runs"
check "merged runs.csv: the contract's columns, then host, shard, shard_boot" \
	test "$(head -n 1 "$tmp/m/runs.csv")" = "$(grep -v '^#' "$top/run/contract/columns" | paste -sd,),host,shard,shard_boot"
check "merged runs.csv: shard and shard_boot per row, boots renumbered (shard 2's boot 1 is boot 2)" \
	test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s:%s:%s ", $c["shard"], $c["shard_boot"], $c["boot"] }' "$tmp/m/runs.csv")" \
	= "1/2:1:1 1/2:1:1 1/2:1:1 1/2:1:1 2/2:1:2 2/2:1:2 2/2:1:2 2/2:1:2 "
check "merged runs.csv: the host of each row, from its shard's host.txt" \
	test "$(col host "$tmp/m/runs.csv" | sort -u)" = "$(awk '$1 == "uname:" { print $3 }' "$s1/host.txt")"
check "each shard's folder is kept under shards/ (consoles, plans)" \
	sh -c "[ -e '$tmp/m/shards/shard-1/console-1.log' ] && [ -s '$tmp/m/shards/shard-1/plan-boot-1.sh' ] && cmp -s '$tmp/m/shards/shard-2/runs.csv' '$s2/runs.csv' &&
	       [ \$(wc -l < '$tmp/m/shards.txt') = 2 ]"
check "the merged folder is reported: summary and report made by run/report" \
	sh -c "[ -s '$tmp/m/summary.csv' ] && [ -s '$tmp/m/report.html' ]"
check "run/stats reads host, shard, shard_boot as provenance, not as metrics" \
	sh -c "! grep -q ',shard_boot,\\|,host,\\|,shard,' '$tmp/m/summary.csv'"
check "a merged folder is not resumable: run/matrix --resume refuses it" \
	sh -c "'$matrix' --resume '$tmp/m' >/dev/null 2>&1; [ \$? = 4 ]"
"$merge" "$tmp/m" "$s1" "$s2" >/dev/null 2>"$tmp/e"
check "run/merge into an existing folder: exit 2, nothing changed" \
	sh -c "[ $? = 2 ] && grep -q 'exists' '$tmp/e' && [ ! -e '$tmp/m/shards/shard-1/shards' ]"
"$merge" --no-report "$tmp/mn" "$s1" "$s2" >/dev/null 2>&1
check "run/merge --no-report: merged, no report" \
	sh -c "[ $? = 0 ] && [ -s '$tmp/mn/runs.csv' ] && [ ! -e '$tmp/mn/report.html' ]"

refused_merge() { # OUT MESSAGE DIR...: exit 3, MESSAGE on stderr, OUT not made
	o=$1 msg=$2
	shift 2
	"$merge" --no-report "$o" "$@" >/dev/null 2>"$tmp/e"
	rc=$?
	cat "$tmp/e"
	[ "$rc" = 3 ] && grep -q -- "$msg" "$tmp/e" && [ ! -e "$o" ]
}
cp -Rp "$s2" "$tmp/seed"
sed -i 's/^seed	5$/seed	6/' "$tmp/seed/plan.txt"
check "run/merge refuses another matrix (exit 3), naming both folders and the differing line" \
	refused_merge "$tmp/x1" "different matrices: the plans of $s1 and $tmp/seed" "$s1" "$tmp/seed"
check "... the differing plan line is shown for each folder" \
	sh -c "grep -q '$s1: seed	5' '$tmp/e' && grep -q '$tmp/seed: seed	6' '$tmp/e'"
cp -Rp "$s2" "$tmp/kern"
printf '%s\n%s\n' /elsewhere/bzImage 0123abcd >"$tmp/kern/kernel.txt"
check "run/merge refuses another kernel (exit 3), naming both sha256" \
	refused_merge "$tmp/x2" "different kernels: $s1 was measured with kernel sha256 $(sha256sum "$tmp/bzImage" | cut -d' ' -f1).*$tmp/kern with 0123abcd" "$s1" "$tmp/kern"
cp -Rp "$s2" "$tmp/img"
printf '%s\n%s\n' /elsewhere/image 4567cdef >"$tmp/img/image.txt"
check "run/merge refuses another image (exit 3), naming both sha256" \
	refused_merge "$tmp/x3" "different images: .*$tmp/img with 4567cdef" "$s1" "$tmp/img"
cp -Rp "$s2" "$tmp/dom"
echo "topology=1x4x1 cpu=0 domain=0 name=DIE span=0000000f" >>"$tmp/dom/domains.txt"
check "run/merge refuses shards whose sched domains differ (exit 3), naming both domains.txt" \
	refused_merge "$tmp/x3d" "different sched domains: $s1/domains.txt and $tmp/dom/domains.txt differ" "$s1" "$tmp/dom"
cp -Rp "$s2" "$tmp/qv"
sed -i 's/^qemu: .*/qemu: QEMU emulator version 9.9.9/' "$tmp/qv/host.txt"
grep -q '^qemu: ' "$tmp/qv/host.txt" || echo "qemu: QEMU emulator version 9.9.9" >>"$tmp/qv/host.txt"
check "run/merge refuses shards run on another QEMU version (exit 3), naming both" \
	refused_merge "$tmp/x3q" "different QEMU versions: $s1 ran .*, $tmp/qv QEMU emulator version 9.9.9" "$s1" "$tmp/qv"
check "the merged folder's report lists its shards and their hosts" \
	sh -c "grep -q '^Shards (shards.txt): 2' '$tmp/m/report.md' && grep -q '^| 1/2 | ' '$tmp/m/report.md' && grep -q '^| 2/2 | ' '$tmp/m/report.md'"
cp -Rp "$s1" "$tmp/s1r"
cp -Rp "$s2" "$tmp/dup"
tail -n 1 "$s2/runs.csv" >>"$tmp/dup/runs.csv"
check "run/merge refuses a seq in two rows (exit 3), naming both places" \
	refused_merge "$tmp/x4" "seq 8 is in two rows: $tmp/dup/runs.csv:5 and $tmp/dup/runs.csv:6" "$s1" "$tmp/dup"
check "run/merge refuses the same shard twice (exit 3)" \
	refused_merge "$tmp/x5" "shard 1/2 given twice" "$s1" "$tmp/s1r"
"$merge" --no-report "$tmp/part" "$s1" >/dev/null 2>"$tmp/e"
rc=$?
check "run/merge of shard 1/2 alone: merged, exit 1, the missing shard named, no report" \
	sh -c "[ $rc = 1 ] && grep -q 'shards not given: 2/2' '$tmp/e' && grep -q '4 runs missing' '$tmp/e' &&
	       [ ! -e '$tmp/part/report.html' ]"
check "... what is there is merged" test "$(seqs "$tmp/part/runs.csv")" = "1 2 3 4 "
cp -Rp "$s2" "$tmp/short"
head -n 3 "$s2/runs.csv" >"$tmp/short/runs.csv"
"$merge" --no-report "$tmp/part2" "$s1" "$tmp/short" >/dev/null 2>"$tmp/e"
check "run/merge with a shard short of rows: exit 1, its seqs and run/matrix --resume named" \
	sh -c "[ $? = 1 ] && grep -q 'no row for seq 7 8 ; finish it with: run/matrix --resume $tmp/short' '$tmp/e'"
check "run/merge --help exits 0; no folder is a usage error (exit 2)" \
	sh -c "'$merge' --help | grep -q usage && { '$merge' '$tmp/x6' 2>/dev/null; [ \$? = 2 ]; }"

# A failing shard (the fake boot without its guest), then --resume.
env -u FAKE_GUEST "$distribute" --shards 2 --no-report --kernel "$tmp/bzImage" --initrd "$tmp/image" \
	--out "$tmp/f" "$tmp/small.matrix" >/dev/null 2>"$tmp/f.err" </dev/null
check "run/distribute with failing shards: exit 1, the shards and the --resume command named, nothing merged" \
	sh -c "[ $? = 1 ] && grep -q 'shards not done: 1/2 (exit 1) 2/2 (exit 1)' '$tmp/f.err' &&
	       grep -q 'run/distribute --resume $tmp/f.distribute' '$tmp/f.err' && [ ! -e '$tmp/f' ]"

# Stopped mid-shard: the rows stay, the guest stops, the resume is named;
# then --resume goes on with shard 1 and runs shard 2, which never ran.
mkdir -p "$tmp/slow/bin"
printf '#!/bin/sh\nsleep 1\necho mode=fork duration_s=1 ops_per_s=100\n' >"$tmp/slow/bin/pjtload"
chmod +x "$tmp/slow/bin/pjtload"
FAKE_GUEST=$tmp/slow "$distribute" --shards 2 --no-report --kernel "$tmp/bzImage" --initrd "$tmp/image" \
	--out "$tmp/i" "$tmp/small.matrix" >/dev/null 2>"$tmp/i.err" </dev/null &
pid=$!
wait_until 300 sh -c "[ \$(cat '$tmp/i.distribute/shard-1/runs.csv' 2>/dev/null | wc -l) -ge 2 ]"
kill -TERM "$pid"
wait "$pid"
rc=$?
sleep 1
check "run/distribute stopped (TERM): exit 130, the shard's rows kept, its guest stopped, --resume named" \
	sh -c "[ $rc = 130 ] && [ \$(wc -l < '$tmp/i.distribute/shard-1/runs.csv') -ge 2 ] &&
	       grep -q 'resume with: run/matrix --resume $tmp/i.distribute/shard-1' '$tmp/i.distribute/shard-1.log' &&
	       grep -q 'run/distribute --resume $tmp/i.distribute' '$tmp/i.err' &&
	       ! ps -eo args | grep -q '[f]ake-boot.*$tmp/i.distribute'"
before=$(($(wc -l <"$tmp/i.distribute/shard-1/runs.csv") - 1))
"$distribute" --resume "$tmp/i.distribute" >/dev/null 2>"$tmp/i2.err" </dev/null
rc=$?
check "run/distribute --resume: exit 0, shard 1 resumed (run/matrix --resume), shard 2 run, merged" \
	sh -c "[ $rc = 0 ] && grep -q '^shard 1/2	run/matrix: resuming $tmp/i.distribute/shard-1' '$tmp/i2.err' &&
	       grep -q '^shard 2/2	run/matrix: results in $tmp/i.distribute/shard-2' '$tmp/i2.err' && [ ! -e '$tmp/i/report.html' ]"
# Counted after "resuming": a stopped run/matrix can append a row and
# be stopped before it prints that row's progress line.
check "... the shard resumed only its $((4 - before)) missing runs" \
	sh -c "[ \$(sed -n '/run\/matrix: resuming /,\$p' '$tmp/i.distribute/shard-1.log' | grep -c 'run/matrix: run [0-9]*/4 ') = $((4 - before)) ]"
check "... the merged folder has every seq of the plan once" test "$(seqs "$tmp/i/runs.csv")" = "1 2 3 4 5 6 7 8 "

tap_end
