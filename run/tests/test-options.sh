#!/bin/sh
# run/tests/test-options.sh: one option convention for every tool (README,
# "Options").  For each tool: -h and --help print the usage (exit 0),
# --version prints "TOOL (pjt-sched) X" and "series vN" from VERSION, an
# unknown option is "TOOL: unknown option ..." then "TOOL: see TOOL --help"
# on stderr (exit 2); and per tool a real behaviour through --opt=value
# and through options after the operands ("--" too, where it matters).
# Then run/lib/options.sh itself: operands with spaces and quotes, "--",
# -jV, a missing value, a flag given a value, options_end_at_operand.
# Host only, no QEMU; TAP-ish output ("ok N - ...").
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# The host tests' fixtures, wherever under run/ they are today.
fixture() { find "$top/run" -name "$1" -path "*$2*" | sort | head -n 1; }
. "$(fixture tap.sh fixtures)" # tap_begin, check, tap_end
tap_begin test-options
gen_runs=$(fixture gen-runs.awk fixtures)
pelt_loads=$(fixture 6.1-runnable-avg-loads.csv pelt)
pelt_tasks=$(fixture 6.1-runnable-avg-tasks.csv pelt)

version=$(sed -n 's/^pjt-sched: //p' "$top/VERSION")
series=$(sed -n 's/^series: //p' "$top/VERSION")

# help_ok PATTERN CMD...: exit 0, PATTERN in stdout
help_ok() {
	pattern=$1
	shift
	"$@" >"$tmp/h.out" 2>"$tmp/h.err" || { echo "exit $?"; cat "$tmp/h.err"; return 1; }
	grep -q -- "$pattern" "$tmp/h.out" || { echo "no '$pattern' in:"; head -n 5 "$tmp/h.out"; return 1; }
}
# same_help CMD...: CMD -h and CMD --help print the same text
same_help() {
	"$@" -h >"$tmp/h1" 2>/dev/null && "$@" --help >"$tmp/h2" 2>/dev/null && cmp "$tmp/h1" "$tmp/h2"
}
# version_ok NAME CMD...: the two lines of --version, exit 0
version_ok() {
	name=$1
	shift
	"$@" --version >"$tmp/v.out" 2>"$tmp/v.err" || { echo "exit $?"; cat "$tmp/v.err"; return 1; }
	printf '%s (pjt-sched) %s\nseries %s\n' "$name" "$version" "$series" >"$tmp/v.want"
	cmp -s "$tmp/v.want" "$tmp/v.out" || { echo "got:"; cat "$tmp/v.out"; return 1; }
}
# refused NAME MESSAGE CMD...: exit 2, stdout empty, stderr exactly
# "NAME: MESSAGE" and "NAME: see NAME --help"
refused() {
	name=$1 msg=$2
	shift 2
	"$@" >"$tmp/r.out" 2>"$tmp/r.err"
	rc=$?
	[ "$rc" = 2 ] || { echo "exit $rc, stderr:"; cat "$tmp/r.err"; return 1; }
	[ ! -s "$tmp/r.out" ] || { echo "stdout:"; head -n 5 "$tmp/r.out"; return 1; }
	printf '%s: %s\n%s: see %s --help\n' "$name" "$msg" "$name" "$name" >"$tmp/r.want"
	cmp -s "$tmp/r.want" "$tmp/r.err" || { echo "stderr:"; cat "$tmp/r.err"; echo "wanted:"; cat "$tmp/r.want"; return 1; }
}
# conventions NAME USAGE_PATTERN CMD...: what every tool does alike
conventions() {
	name=$1 pattern=$2
	shift 2
	check "$name -h: exit 0, the usage on stdout" help_ok "$pattern" "$@" -h
	check "$name --help: the same text as -h" same_help "$@"
	check "$name --version: '$name (pjt-sched) $version', 'series $series'" version_ok "$name" "$@"
	check "$name --bogus-option: exit 2, '$name: unknown option --bogus-option', '$name: see $name --help'" \
		refused "$name" "unknown option --bogus-option" "$@" --bogus-option
}

# the C tools, built first (their builds say nothing on a second run)
make -s -C "$top" -f run/stats.mk TOP="$top" BUILD="$top/build" stats-tools >"$tmp/make.log" 2>&1 &&
make -s -C "$top" -f run/matrix.mk TOP="$top" BUILD="$top/build" matrix-tools >>"$tmp/make.log" 2>&1 &&
make -s -C "$top" -f run/pelt-check.mk TOP="$top" BUILD="$top/build" pelt-check >>"$tmp/make.log" 2>&1 &&
make -s -C "$top" -f initramfs/pjtload.mk TOP="$top" BUILD="$top/build" pjtload >>"$tmp/make.log" 2>&1
check "the C tools build (pjt-stats, matrix-plan, pelt-check, pjtload)" sh -c "cat '$tmp/make.log'; [ -x '$top/build/pjt-stats' ] && [ -x '$top/build/matrix-plan' ] && [ -x '$top/build/pelt-check' ] && [ -x '$top/build/pjtload' ]"

echo "# ---- run/matrix"
matrix=$top/run/matrix
conventions run/matrix 'usage: run/matrix \[options\] FILE.matrix' "$matrix"
printf 'name opt\nsmp 2\nduration 1s\nsettle 0\nreps 2\ncombo stock\nworkload duty threads=1\n' >"$tmp/o.matrix"
check "run/matrix --dry-run --reps=3 --smp=3 FILE: the plan has 3 reps on 3 vCPUs" \
	sh -c "'$matrix' --dry-run --reps=3 --smp=3 '$tmp/o.matrix' >'$tmp/dry' && grep -q ', reps 3,' '$tmp/dry' && grep -q '^topology 1x3x1 ' '$tmp/dry'"
check "run/matrix FILE --dry-run --reps 4 (options after the file): 4 reps" \
	sh -c "'$matrix' '$tmp/o.matrix' --dry-run --reps 4 | grep -q ', reps 4,'"
check "run/matrix: two matrix files are refused, both named" \
	refused run/matrix "one matrix file only ($tmp/o.matrix, $tmp/o.matrix)" "$matrix" --dry-run "$tmp/o.matrix" "$tmp/o.matrix"

echo "# ---- build/matrix-plan"
plan=$top/build/matrix-plan
conventions matrix-plan 'usage: matrix-plan' "$plan"
check "matrix-plan --reps=3 FILE: reps 3" sh -c "'$plan' --reps=3 '$tmp/o.matrix' | grep -qx 'reps	3'"
check "matrix-plan FILE --reps 5 --counting=on (options after the file): reps 5, counting 1" \
	sh -c "'$plan' '$tmp/o.matrix' --reps 5 --counting=on >'$tmp/p' && grep -qx 'reps	5' '$tmp/p' && grep -qx 'counting	1' '$tmp/p'"
check "matrix-plan --reps (no value): '--reps needs a value'" refused matrix-plan "--reps needs a value" "$plan" "$tmp/o.matrix" --reps
check "matrix-plan with two files: refused" refused matrix-plan "one matrix file only, not 2" "$plan" "$tmp/o.matrix" "$tmp/o.matrix"

echo "# ---- run/stats (build/pjt-stats)"
stats=$top/run/stats
conventions run/stats 'usage: run/stats \[-o OUTDIR\]' "$stats"
check "build/pjt-stats itself: the same conventions (-h)" help_ok 'usage: run/stats' "$top/build/pjt-stats" -h
mkdir -p "$tmp/st"
awk -v seed=3 -v reps=2 -f "$gen_runs" >"$tmp/st/runs.csv"
check "run/stats DIR -q -o OUT --declare=rfc-after,stock (options after the folder): OUT/comparisons.csv has the declared comparison, confirmatory" \
	sh -c "'$stats' '$tmp/st' -q -o '$tmp/st-decl' --declare=rfc-after,stock &&
	       awk -F, '\$3 == \"rfc-after\" && \$4 == \"stock\" && \$7 == \"confirmatory\" { n++ } END { exit !n }' '$tmp/st-decl/comparisons.csv'"
check "run/stats -q -oOUT DIR (the value attached), no --declare: every comparison exploratory" \
	sh -c "'$stats' -q -o'$tmp/st-none' '$tmp/st' && [ -s '$tmp/st-none/summary.csv' ] && ! grep -q confirmatory '$tmp/st-none/comparisons.csv'"
check "run/stats --declare=x: refused, naming the value" refused run/stats "--declare wants COMBO,REFERENCE, not 'x'" "$stats" --declare=x "$tmp/st"
check "run/stats -q=1: a flag given a value" refused run/stats "-q takes no value" "$stats" -q=1 "$tmp/st"
check "run/stats DIR -o: a missing value" refused run/stats "-o needs a value" "$stats" "$tmp/st" -o
check "run/stats with no folder: refused" refused run/stats "no DIR_OR_CSV given (a results folder or a runs.csv)" "$stats"
check "run/stats NOSUCH: a usage error in run/stats' own name (not pjt-stats')" \
	refused run/stats "$tmp/nosuch: No such file or directory (want a results folder or its runs.csv)" "$stats" "$tmp/nosuch"

echo "# ---- run/compare"
compare=$top/run/compare
conventions run/compare 'usage: run/compare \[options\] BASE A' "$compare"
for s in 1 2; do
	mkdir -p "$tmp/cmp$s"
	awk -v seed=$s -v reps=1 -v boots=6 -v extra=1 -f "$gen_runs" >"$tmp/cmp$s/runs.csv"
done
check "run/compare BASE --csv=FILE A (the option between the folders): FILE holds A's cells" \
	sh -c "'$compare' '$tmp/cmp1' --csv='$tmp/cmp.csv' '$tmp/cmp2' >/dev/null && grep -q '^cell,.*,A,$tmp/cmp2,' '$tmp/cmp.csv'"
check "run/compare BASE A --fail-above=five: refused, naming the value" \
	refused run/compare "--fail-above five: want a percentage >= 0, e.g. 5%" "$compare" "$tmp/cmp1" "$tmp/cmp2" --fail-above=five
check "run/compare -- BASE: one folder is refused (after --)" \
	refused run/compare "want a baseline and at least one other folder, not 1 (run/compare [options] BASE A [B ...])" "$compare" -- "$tmp/cmp1"

echo "# ---- run/plan-design"
design=$top/run/plan-design
conventions run/plan-design 'usage: run/plan-design' "$design"
mkdir -p "$tmp/pilot"
awk -v seed=3 -v reps=2 -v boots=3 -v extra=1 -f "$gen_runs" >"$tmp/pilot/runs.csv"
printf 'name pilot\nsmp 4\nduration 2s\nsettle 1s\nreps 2\nboots 2\ncombo stock\ncompare rfc-after stock\nworkload duty threads=8\n' >"$tmp/pilot/pilot.matrix"
check "run/plan-design PILOT --out=FILE (after the folder): FILE is the matrix with boots and reps set" \
	sh -c "'$design' '$tmp/pilot' --out='$tmp/designed.matrix' >/dev/null 2>&1 &&
	       grep -Eq '^boots +[0-9]+\$' '$tmp/designed.matrix' && grep -Eq '^reps +[0-9]+\$' '$tmp/designed.matrix' && grep -q '^name' '$tmp/designed.matrix'"
check "run/plan-design --half-width=records_per_s: refused, naming the value" \
	refused run/plan-design "--half-width wants METRIC=PCT, not 'records_per_s'" "$design" --half-width=records_per_s "$tmp/pilot"
primaries="lb_pulls_total (lower is better), migrations (lower is better), records_per_s (higher is better), ops_per_s (higher is better), wakeup_p99_us (lower is better)"
check "run/plan-design --half-width=pulls=10%: an unknown metric is a usage error naming it and the primary metrics, not planned as nan" \
	refused run/plan-design "--half-width pulls=...: pulls is not a primary metric ($primaries)" "$design" --half-width=pulls=10% "$tmp/pilot"
check "run/plan-design --half-width nosuch=10% NOSUCH_DIR: the metric is refused before the folder is read" \
	refused run/plan-design "--half-width nosuch=...: nosuch is not a primary metric ($primaries)" "$design" --half-width nosuch=10% "$tmp/nosuch"
mkdir -p "$tmp/pilot-noops"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ops_per_s") c = i } NR > 1 { $c = "" } 1' \
	"$tmp/pilot/runs.csv" >"$tmp/pilot-noops/runs.csv"
check "run/plan-design --half-width=ops_per_s=10% on a pilot without it: refused (exit 2), naming runs.csv" \
	sh -c "'$design' --half-width=ops_per_s=10% '$tmp/pilot-noops' >'$tmp/pd.out' 2>'$tmp/pd.err'; [ \$? -eq 2 ] &&
	       grep -q 'ops_per_s is not a primary metric .*runs.csv measures' '$tmp/pd.err' && ! grep -qi nan '$tmp/pd.out' '$tmp/pd.err'"
check "run/plan-design NOSUCH_DIR: exit 2, in its own name" \
	refused run/plan-design "$tmp/nosuch: not a results folder ($tmp/nosuch/runs.csv: No such file or directory)" "$design" "$tmp/nosuch"

echo "# ---- run/merge"
merge=$top/run/merge
conventions run/merge 'usage: run/merge \[--no-report\] OUT DIR' "$merge"
check "run/merge OUT DIR --no-report: the option after the folders is an option (the folder is what is refused)" \
	refused run/merge "$tmp/nofolder: not a folder" "$merge" "$tmp/merged" "$tmp/nofolder" --no-report
check "run/merge -- OUT --no-report: after --, '--no-report' is a folder" \
	refused run/merge "--no-report: not a folder" "$merge" -- "$tmp/merged" --no-report
check "run/merge --no-report=1: a flag given a value" refused run/merge "--no-report takes no value" "$merge" --no-report=1 "$tmp/merged" "$tmp/st"
check "... and nothing was created" test ! -e "$tmp/merged"

echo "# ---- run/boot"
boot=$top/run/boot
conventions run/boot 'usage: run/boot \[options\]' "$boot"
: >"$tmp/bzImage"
: >"$tmp/image"
check "run/boot --kernel=K --initrd I --smp=3 --mem=256 --print-cmdline: QEMU gets -smp 3 and -m 256" \
	sh -c "'$boot' --kernel='$tmp/bzImage' --initrd '$tmp/image' --smp=3 --mem=256 --print-cmdline >'$tmp/qemu' &&
	       grep -q -- '-smp 3,' '$tmp/qemu' && grep -q -- ' -m 256 ' '$tmp/qemu' && grep -q -- '-kernel $tmp/bzImage ' '$tmp/qemu'"
check "run/boot --net-forward=2222 --print-cmdline: an e1000 on QEMU's user network, the guest's port 22 on 127.0.0.1:2222 alone" \
	sh -c "'$boot' --kernel '$tmp/bzImage' --initrd '$tmp/image' --net-forward=2222 --print-cmdline |
	       grep -q -- '-netdev user,id=net0,hostfwd=tcp:127.0.0.1:2222-:22 -device e1000,netdev=net0'"
check "run/boot --net-forward 22: refused (a port 1024..65535)" refused run/boot "--net-forward wants a port 1024..65535, not '22'" "$boot" --kernel "$tmp/bzImage" --initrd "$tmp/image" --net-forward 22 --print-cmdline
check "run/boot with an operand: refused" refused run/boot "unexpected argument 'extra': run/boot takes options only" "$boot" --print-cmdline extra
check "run/boot --trace --print-cmdline: the kernel command line enables run/contract/trace-events (trace_event=)" \
	sh -c "'$boot' --kernel '$tmp/bzImage' --initrd '$tmp/image' --print-cmdline --trace |
	       grep -q -- ' trace_event=$("$top/run/contract/entries" -j , trace-events) -nographic '"

echo "# ---- run/target"
target=$top/run/target
conventions run/target 'usage: run/target --target ssh://' "$target"
check "run/target --target=ssh://u@h:2200 --kernel K --print-cmdline --trace: the kexec it would do, on the URL's user, host and port" \
	sh -c "printf 'HdrS' | dd of='$tmp/target-bzImage' bs=1 seek=514 conv=notrunc 2>/dev/null &&
	       '$target' --target=ssh://u@h:2200 --kernel '$tmp/target-bzImage' --initrd '$tmp/image' --print-cmdline --trace |
	       grep -q '^ssh u@h -p 2200: kexec $tmp/target-bzImage .*pjt.target=1 schedstats=enable trace_event='"
check "run/target with an operand: refused" refused run/target "unexpected argument 'extra': run/target takes options only" "$target" --target ssh://h extra

echo "# ---- run/trace-boots"
conventions run/trace-boots 'usage: run/trace-boots \[options\] N' "$top/run/trace-boots"
check "run/trace-boots --kernel=K x: N not a number, refused before anything boots" \
	refused run/trace-boots "N wants a positive number, not 'x'" "$top/run/trace-boots" --kernel="$tmp/bzImage" x
check "run/trace-boots 2 --kernel NOSUCH (option after N): refused, naming the kernel" \
	refused run/trace-boots "kernel $tmp/nosuch not found (make kernel)" "$top/run/trace-boots" 2 --kernel "$tmp/nosuch"

echo "# ---- run/flake-rate"
conventions run/flake-rate 'usage: run/flake-rate \[options\]' "$top/run/flake-rate"
check "run/flake-rate --rounds=0: refused before anything runs" \
	refused run/flake-rate "--rounds wants a positive number, not '0'" "$top/run/flake-rate" --rounds=0
check "run/flake-rate DIR --report (option after the folder): refused, naming the folder" \
	refused run/flake-rate "$tmp/nosuch: not a run/flake-rate folder (no rounds.csv and suites.csv)" "$top/run/flake-rate" "$tmp/nosuch" --report

echo "# ---- run/kernel"
kernel=$top/run/kernel
conventions run/kernel 'run/kernel unpack' "$kernel"
check "run/kernel variant nosuch --help: -h after the command prints the usage (nothing built)" help_ok 'run/kernel variant V' "$kernel" variant nosuch --help
check "run/kernel nosuch: an unknown command" refused run/kernel "unknown command 'nosuch' (unpack, patched, stock, bisect, variant V)" "$kernel" nosuch
check "run/kernel variant: the name missing" refused run/kernel "variant wants one name (run/kernel variant V), not 0" "$kernel" variant
variants=$(ls "$top"/patches/qemu-*.config | sed 's|.*/qemu-||; s|\.config$||' | paste -sd ' ' -)
check "run/kernel variant nosuch: a usage error (exit 2) listing the variants, nothing built" \
	refused run/kernel "no variant 'nosuch' (patches/qemu-nosuch.config); variants: $variants" "$kernel" variant nosuch
check "run/kernel --help lists its exit codes" help_ok '^Exit: 0 built.*1 a step failed' "$kernel" --help

echo "# ---- run/kernel-target"
ktarget=$top/run/kernel-target
conventions run/kernel-target 'usage: run/kernel-target --config FILE' "$ktarget"
check "run/kernel-target without --config: refused, nothing built" refused run/kernel-target "no --config FILE (the target's configuration, e.g. its /boot/config-\$(uname -r))" "$ktarget"
check "run/kernel-target --config of a missing file: refused" refused run/kernel-target "--config $tmp/none.config: no such readable file" "$ktarget" --config "$tmp/none.config"
check "run/kernel-target with an operand: refused" refused run/kernel-target "unexpected argument 'x': run/kernel-target takes options only" "$ktarget" x

echo "# ---- run/check"
runcheck=$top/run/check
conventions run/check 'usage: run/check' "$runcheck"
check "run/check --only=guest --list: the suites (--list after a valued option)" sh -c "[ \"\$('$runcheck' --only=guest --list)\" = 'series host host-qemu guest' ]"
check "run/check --only=nosuch: refused, naming it (it ran nothing and passed before)" \
	refused run/check "--only nosuch: want series, host, host-qemu or guest" "$runcheck" --only=nosuch

echo "# ---- run/bench-overhead, run/bench-icount, run/bench-stats"
conventions run/bench-overhead 'usage: run/bench-overhead' "$top/run/bench-overhead"
check "run/bench-overhead --out=EXISTING: refused before anything boots, naming the folder" \
	refused run/bench-overhead "$tmp exists; not overwriting" "$top/run/bench-overhead" --out="$tmp"
check "run/bench-overhead --rounds=x: refused" refused run/bench-overhead "--rounds wants a positive number, not 'x'" "$top/run/bench-overhead" --rounds=x
check "run/bench-overhead --reps=0: refused" refused run/bench-overhead "--reps wants a positive number, not '0'" "$top/run/bench-overhead" --reps=0
check "run/bench-overhead --size=DIR without runs.csv: refused, naming it" \
	refused run/bench-overhead "--size $tmp: no runs.csv (not a folder of run/bench-overhead)" "$top/run/bench-overhead" --size="$tmp"
check "run/bench-overhead --size --effect=0: refused" \
	refused run/bench-overhead "--effect wants a percentage, not '0'" "$top/run/bench-overhead" --size="$tmp" --effect=0
# A pilot of 6 rounds (the boot column) whose log ratios to stock alternate
# +-a (sd a*sqrt(6/5)), a = 0.04 on duty's records/s and 0.02 on its
# wake-up p99, each round's own level differing: rounds = ((z(1 - 0.025/4)
# + z(0.8)) sd / -log(0.98))^2 / (3/pi) = ((2.498 + 0.842) 0.04382 /
# 0.020203)^2 / 0.9549 = 54.9 -> 55, and 14.  REPS runs a boot, the rep's
# log ratio shifted by +-0.01 about the round's (the round's mean the same).
pilot() { # pilot DIR REPS
	mkdir -p "$1"
	awk -v reps="$2" 'BEGIN { print "seq,combo,boot,rep,workload,records_per_s,wakeup_p99_us,status"
		for (r = 1; r <= 6; r++) for (q = 1; q <= reps; q++) for (k = 0; k < 3; k++) {
			e = k == 0 ? 0 : (r % 2 ? 0.04 : -0.04) + (reps == 1 ? 0 : q % 2 ? 0.01 : -0.01)
			printf "%d,%s,%d,%d,duty,%.3f,%.3f,ok\n", ++s, k == 0 ? "stock" : k == 1 ? "patched-off" : "patched-counting",
				r, q, 1e6 * (1 + r / 10 + q / 100) * exp(e), 8000 * r * exp(e / 2) }
		print ++s ",patched-off,7,1,duty,1,1,crashed" }' > "$1/runs.csv"
}
pilot "$tmp/pilot" 1
check "run/bench-overhead --size PILOT: each comparison's sd and rounds for 2% at power 0.8, Holm over the 4, a crashed run left out" \
	sh -c "'$top/run/bench-overhead' --size '$tmp/pilot' > '$tmp/size.out' &&
	       grep -qx 'patched-off | duty | records_per_s | 6 | 0.0438 | 55 | .*' '$tmp/size.out' &&
	       grep -qx 'patched-counting | duty | wakeup_p99_us | 6 | 0.0219 | 14 | .*' '$tmp/size.out' &&
	       grep -q '^rounds: 55 (Holm over 4 comparisons' '$tmp/size.out'"
check "... --effect 4: a quarter of the rounds (14 for the records/s)" \
	sh -c "'$top/run/bench-overhead' --size '$tmp/pilot' --effect 4 | grep -q '^patched-off | duty | records_per_s | 6 | 0.0438 | 14 |'"
pilot "$tmp/pilot2" 2
check "... two runs a boot: the sd of each round's mean log ratio, the same rounds (55)" \
	sh -c "'$top/run/bench-overhead' --size '$tmp/pilot2' | grep -qx 'patched-off | duty | records_per_s | 6 | 0.0438 | 55 | .*'"
conventions run/bench-icount 'usage: run/bench-icount' "$top/run/bench-icount"
check "run/bench-icount --out=EXISTING: refused before anything boots, naming the folder" \
	refused run/bench-icount "$tmp exists; not overwriting" "$top/run/bench-icount" --out="$tmp"
check "run/bench-icount --ms=x: refused" refused run/bench-icount "--ms wants a positive whole number, not 'x'" "$top/run/bench-icount" --ms=x
check "run/bench-icount --configs=stock,nosuch: refused, naming it" refused run/bench-icount "--configs: no configuration 'nosuch' (stock, off, counting, rfc-after)" "$top/run/bench-icount" --configs=stock,nosuch
check "run/bench-icount --report without DIRs: refused" refused run/bench-icount "--report wants the DIRs of earlier runs" "$top/run/bench-icount" --report
conventions run/bench-stats 'run/bench-stats \[--rows N\]' "$top/run/bench-stats"
check "run/bench-stats --rows=64 --keep=DIR: 64 rows timed, DIR kept" \
	sh -c "'$top/run/bench-stats' --rows=64 --keep='$tmp/bench' >'$tmp/bench.out' && grep -q '^rows: 64 (2 reps' '$tmp/bench.out' && [ -s '$tmp/bench/runs.csv' ]"

echo "# ---- run/pin-vcpus"
pin=$top/run/pin-vcpus
conventions run/pin-vcpus 'run/pin-vcpus \[--wait SEC\]' "$pin"
check "run/pin-vcpus PID CPU --wait=0 (after the operands): no vCPU thread, gives up at once (exit 1, after 0s)" \
	sh -c "'$pin' $$ 0 --wait=0 2>'$tmp/pin.err'; [ \$? = 1 ] && grep -q 'in process $$ after 0s' '$tmp/pin.err'"
check "run/pin-vcpus PID x: a CPU that is not a number" refused run/pin-vcpus "'x' is not a CPU number" "$pin" $$ x
check "run/pin-vcpus abc 0: a PID that is not a number is a usage error, at once" \
	sh -c "s=\$(date +%s); '$pin' abc 0 >'$tmp/pin.out' 2>'$tmp/pin.err'; rc=\$?; [ \$rc = 2 ] && [ \$((\$(date +%s) - s)) -le 2 ] &&
	       [ \"\$(cat '$tmp/pin.err')\" = \"\$(printf '%s\\n' \"run/pin-vcpus: 'abc' is not a PID (a number)\" 'run/pin-vcpus: see run/pin-vcpus --help')\" ]"
check "run/pin-vcpus NO_SUCH_PID 0: 'no process', exit 1, not a wait" \
	sh -c "'$pin' 2147483647 0 --wait 5 2>'$tmp/pin.err'; [ \$? = 1 ] && grep -qx 'run/pin-vcpus: no process 2147483647' '$tmp/pin.err'"

echo "# ---- run/phase (options before NAME: NAME ends them)"
phase=$top/run/phase
conventions run/phase 'run/phase NAME CMD' "$phase"
check "run/phase NAME CMD --help --version: CMD's options are CMD's" \
	sh -c "PJT_PHASE_LOG='$tmp/phases' '$phase' p1 sh -c 'printf \"%s\\n\" \"\$@\" >\"\$0\"' '$tmp/args' --help --version 2>/dev/null &&
	       [ \"\$(cat '$tmp/args')\" = \"\$(printf '%s\\n' --help --version)\" ] && grep -q '^p1 ' '$tmp/phases'"
check "run/phase -- NAME CMD: '--' first" sh -c "PJT_PHASE_LOG='$tmp/phases' '$phase' -- p2 true 2>/dev/null && grep -q '^p2 ' '$tmp/phases'"
check "run/phase --summary=x: a flag given a value" refused run/phase "--summary takes no value" "$phase" --summary=x

echo "# ---- run/contract/entries, run/contract/gen-contract-h"
entries=$top/run/contract/entries
conventions run/contract/entries 'run/contract/entries \[-j SEP\] LIST' "$entries"
check "run/contract/entries -j, bits (the value attached) = entries bits -j , (after the list) = the bits joined" \
	sh -c "a=\$('$entries' -j, bits) && b=\$('$entries' bits -j ,) && [ \"\$a\" = \"\$b\" ] && [ \"\$a\" = \"\$('$entries' bits | paste -sd, -)\" ] && case \$a in *,*) ;; *) exit 1 ;; esac"
check "run/contract/entries bits -j: a missing value" refused run/contract/entries "-j needs a value" "$entries" bits -j
gen=$top/run/contract/gen-contract-h
conventions run/contract/gen-contract-h 'run/contract/gen-contract-h DIR' "$gen"
check "run/contract/gen-contract-h -- DIR: the header" sh -c "'$gen' -- '$top/run/contract' | grep -q '^#define PJT_CONTRACT_BITS '"
check "run/contract/gen-contract-h without DIR: refused" refused run/contract/gen-contract-h "want one DIR (run/contract/gen-contract-h DIR), not 0" "$gen"

echo "# ---- initramfs/build-image"
image=$top/initramfs/build-image
conventions initramfs/build-image 'initramfs/build-image OUT' "$image"
check "initramfs/build-image OUT --bogus-option: the option after OUT is checked before anything is built" \
	refused initramfs/build-image "unknown option --bogus-option" "$image" "$tmp/image.cpio.gz" --bogus-option
check "... and OUT was not written" test ! -e "$tmp/image.cpio.gz"

echo "# ---- build/pelt-check"
pelt=$top/build/pelt-check
conventions pelt-check 'usage: pelt-check \[options\] LOADS.csv TASKS.csv' "$pelt"
check "pelt-check LOADS TASKS --label=L --signals=nr_running,weight (after the files): every line is L's, pelt and load_avg only informed" \
	sh -c "'$pelt' '$pelt_loads' '$pelt_tasks' --label=L --signals=nr_running,weight >'$tmp/pelt.out';
	       [ \$? = 0 ] && [ \$(grep -c '^L ' '$tmp/pelt.out') = 4 ] && grep -q '^L pelt .*verdict=info' '$tmp/pelt.out' &&
	       grep -q '^L nr_running .*verdict=ok' '$tmp/pelt.out'"
check "pelt-check --cpu=x: refused, naming the value" refused pelt-check "--cpu wants a CPU number, not 'x'" "$pelt" --cpu=x "$pelt_loads" "$pelt_tasks"
check "pelt-check with one file: refused" \
	refused pelt-check "want LOADS.csv and TASKS.csv, not 1 file (pelt-check [options] LOADS.csv TASKS.csv)" "$pelt" "$pelt_loads"

echo "# ---- pjtload (MODE and key=value are operands: no --opt of its own)"
pjtload=$top/build/pjtload
conventions pjtload 'usage: pjtload MODE' "$pjtload"
check "pjtload duty threads=2 --help: -h after the operands, the duty mode's help" help_ok 'usage: pjtload duty' "$pjtload" duty threads=2 --help
check "pjtload -- fork rate=50 duration=20ms: '--' then the mode runs" sh -c "'$pjtload' -- fork rate=50 duration=20ms | grep -q '^mode=fork '"
check "pjtload duty duty=0: refused in the one format" refused pjtload "duty=0: out of range (expected 1..100, a percent)" "$pjtload" duty duty=0
check "pjtload with no mode: refused" refused pjtload "no mode given (duty, calibrate, pingpong, fork)" "$pjtload"

echo "# ---- initramfs/bench-pjtload.sh (operands only)"
benchp=$top/initramfs/bench-pjtload.sh
conventions initramfs/bench-pjtload.sh 'initramfs/bench-pjtload.sh \[REPS' "$benchp"
check "initramfs/bench-pjtload.sh x: REPS refused before anything is built or run" \
	refused initramfs/bench-pjtload.sh "REPS must be a positive number, not 'x'" "$benchp" x

echo "# ---- make help"
make -s -C "$top" help >"$tmp/help" 2>&1
check "make help: exit 0, one line per target of the Makefile's .PHONY list, each with its text" \
	sh -c "[ $? = 0 ] && for t in \$(sed -n '/^\.PHONY:/,/[^\\\\]\$/p' '$top/Makefile' | sed 's/^\.PHONY://; s/\\\\//'); do
	         grep -Eq \"^  \$t +[^ ]\" '$tmp/help' || { echo \"no line for \$t\"; exit 1; }; done"
check "make help lists the included tools' targets too (matrix-tools, stats-tools, pelt-check, pjtload, plots)" \
	sh -c "for t in matrix-tools stats-tools pelt-check pjtload plots; do grep -Eq \"^  \$t +[^ ]\" '$tmp/help' || exit 1; done"
check "make with no target still means make all (help is not the default)" \
	sh -c "make -s -C '$top' -pn 2>/dev/null | grep -qx '.DEFAULT_GOAL := all'"

echo "# ---- run/lib/options.sh itself"
# A tool of two value options (-j, --out) and a flag (--flag): each option
# and each operand on its own line, <between brackets>.
cat >"$tmp/tool" <<EOF
#!/bin/sh
TOOL=t
. '$top/run/lib/options.sh'
usage() { echo "usage: t [-j N] [--out F] [--flag] ARG..."; }
option() { printf 'option %s <%s>\n' "\$1" "\${2-none}"; }
[ -z "\${END_AT_OPERAND:-}" ] || options_end_at_operand=1
parse_options 'j= out= flag' "\$@"
eval "set -- \$operands"
for a; do printf 'operand <%s>\n' "\$a"; done
EOF
chmod +x "$tmp/tool"
# parses "EXPECTED LINES" ARG...: the tool's output is EXPECTED LINES
parses() {
	want=$1
	shift
	"$tmp/tool" "$@" >"$tmp/t.out" 2>&1 || { echo "exit $?"; cat "$tmp/t.out"; return 1; }
	printf '%s\n' "$want" >"$tmp/t.want"
	cmp -s "$tmp/t.want" "$tmp/t.out" || { echo "got:"; cat "$tmp/t.out"; echo "wanted:"; cat "$tmp/t.want"; return 1; }
}
check "operands keep their spaces, quotes and backslashes, in order, between options" \
	parses "$(printf '%s\n' 'option flag <none>' 'option out <a b>' "operand <it's>" 'operand <say "hi">' 'operand <  two  spaces >' 'operand <back\slash $HOME `x`>')" \
	"it's" --flag 'say "hi"' --out 'a b' '  two  spaces ' 'back\slash $HOME `x`'
check "--opt=V and --opt V; a value may hold '=', spaces or start with '-'" \
	parses "$(printf '%s\n' 'option out <x=y z>' 'option out <-dash>' 'option out <>')" --out='x=y z' --out -dash --out=
check "-jV and -j V; '-' alone is an operand" \
	parses "$(printf '%s\n' 'option j <4>' 'option j <5>' 'operand <->')" -j4 - -j 5
check "-- ends the options: what follows is operands, options and -- included" \
	parses "$(printf '%s\n' 'option flag <none>' 'operand <a>' 'operand <--flag>' 'operand <-j>' 'operand <-->')" --flag a -- --flag -j --
check "options_end_at_operand: the first operand ends the options (run/phase NAME CMD ARG...)" \
	sh -c "END_AT_OPERAND=1 '$tmp/tool' --flag cmd --out x -h >'$tmp/t.out' &&
	       [ \"\$(cat '$tmp/t.out')\" = \"\$(printf '%s\\n' 'option flag <none>' 'operand <cmd>' 'operand <--out>' 'operand <x>' 'operand <-h>')\" ]"
check "a missing value: 't: --out needs a value'" refused t "--out needs a value" "$tmp/tool" a --out
check "a missing value of a one-letter option: 't: -j needs a value'" refused t "-j needs a value" "$tmp/tool" -j
check "a flag given a value: 't: --flag takes no value'" refused t "--flag takes no value" "$tmp/tool" --flag=1
check "an unknown option, with its value as given: 't: unknown option --nope=3'" refused t "unknown option --nope=3" "$tmp/tool" a --nope=3
check "an unknown one-letter option: 't: unknown option -x'" refused t "unknown option -x" "$tmp/tool" -x
check "-h after operands and options: the usage, exit 0, nothing parsed after it" help_ok 'usage: t ' "$tmp/tool" a --flag -h --nope
check "--version: the VERSION file's two versions" sh -c "mkdir -p '$tmp/proj/run' && cp '$top/VERSION' '$tmp/proj/' && cp '$tmp/tool' '$tmp/proj/run/t' &&
	'$tmp/proj/run/t' --version >'$tmp/t.v' && [ \"\$(cat '$tmp/t.v')\" = \"\$(printf 't (pjt-sched) %s\\nseries %s' '$version' '$series')\" ]"

echo "# ---- getopt_long (common/options.c) and getopt(1) (run/lib/options.sh) underneath: one set of rules"
check "matrix-plan FILE --rep=3: an unambiguous prefix is the option (--reps), as getopt_long takes it" \
	sh -c "'$plan' '$tmp/o.matrix' --rep=3 | grep -qx 'reps	3'"
check "pelt-check --s=x: an ambiguous prefix is refused, naming the candidates" \
	refused pelt-check "ambiguous option --s=x (--signals, --series)" "$pelt" --s=x "$pelt_loads" "$pelt_tasks"
check "matrix-plan --nope FILE -h: -h wins over an unknown option before it" help_ok 'usage: matrix-plan' "$plan" --nope "$tmp/o.matrix" -h
check "matrix-plan --help=1: --help given a value is refused" refused matrix-plan "--help takes no value" "$plan" --help=1
check "POSIXLY_CORRECT=1 matrix-plan FILE --reps 5: options after the operand still count" \
	sh -c "POSIXLY_CORRECT=1 '$plan' '$tmp/o.matrix' --reps 5 | grep -qx 'reps	5'"
check "run/stats --declare=x --nope DIR: the line is parsed before any option is judged (the unknown option is the error)" \
	refused run/stats "unknown option --nope" "$stats" --declare=x --nope "$tmp/st"
# The shell tool again, with an option that prefixes another and a
# one-letter flag.
sed "s/parse_options 'j= out= flag'/parse_options 'j= q out= outdir= flag'/" "$tmp/tool" >"$tmp/tool2"
chmod +x "$tmp/tool2"
check "run/lib/options.sh: --outd=y is --outdir, --fl is --flag (unambiguous prefixes, as getopt(1) takes them)" \
	sh -c "[ \"\$('$tmp/tool2' --outd=y --fl a)\" = \"\$(printf '%s\\n' 'option outdir <y>' 'option flag <none>' 'operand <a>')\" ]"
check "run/lib/options.sh: --ou is ambiguous, naming the candidates" refused t "ambiguous option --ou (--out, --outdir)" "$tmp/tool2" --ou x
check "run/lib/options.sh: -q=1, a one-letter flag given a value" refused t "-q takes no value" "$tmp/tool2" -q=1
check "run/lib/options.sh: --nope a -h: -h wins over an unknown option before it" help_ok 'usage: t ' "$tmp/tool2" --nope a -h
check "run/lib/options.sh: --flag --nope: nothing is taken before the whole line is parsed (stdout empty)" \
	refused t "unknown option --nope" "$tmp/tool2" --flag --nope
check "run/lib/options.sh: POSIXLY_CORRECT=1 t a --flag: options after the operand still count" \
	sh -c "[ \"\$(POSIXLY_CORRECT=1 '$tmp/tool2' a --flag)\" = \"\$(printf '%s\\n' 'option flag <none>' 'operand <a>')\" ]"
# same_words ARG...: the shell tool and pelt-check (C) refuse ARG... in the
# same words, their names aside
same_words() {
	"$tmp/tool2" "$@" 2>&1 >/dev/null | sed 's/^t: //; s/ t --help$//' >"$tmp/w.sh"
	"$pelt" "$@" 2>&1 >/dev/null | sed 's/^pelt-check: //; s/ pelt-check --help$//' >"$tmp/w.c"
	[ -s "$tmp/w.c" ] && cmp -s "$tmp/w.sh" "$tmp/w.c" || { echo "shell:"; cat "$tmp/w.sh"; echo "C:"; cat "$tmp/w.c"; return 1; }
}
for args in "--nope=3" "-x" "--=x" "--help=1" "-hx" "--vers=2" "-Z -q"; do
	# word splitting of $args is meant: one or two words
	check "the same mistake in the same words from C and shell: $args" same_words $args
done

tap_end
