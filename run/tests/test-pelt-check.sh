#!/bin/sh
# run/tests/test-pelt-check.sh: build/pelt-check, the kernel's loads against a
# simulation of PELT.
#   - on run/tests/fixtures/trace/pelt (a trace of the kernel before the
#     runnable-only signal): nr_running, weight and cpu_load() within the
#     margin; the pelt column, rebuilt from runnable_avg, caught; a
#     deliberately wrong cpu_load() (the pelt column in its place) caught;
#     bad input named FILE:LINE (exit 2), a too short trace exit 3;
#   - in a guest, on build/bzImage and on build/bzImage-groups
#     (FAIR_GROUP_SCHED; the tasks stay in the root cgroup), booted with
#     run/boot --trace: a short traced workload (duty tasks of 10 to 70%, nice 0 and 5, some pinned, most
#     migrating) whose four signals must all be within the margin.  A
#     missing image is an "ok ... # SKIP".  The guest gets trace.sh from
#     this tree through the plan, so the image need not be rebuilt.
# Prints TAP-ish "ok N - text" lines.
# check: boots QEMU (run/check runs it while no other guest runs)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tool=$top/build/pelt-check
fx=$top/run/tests/fixtures/trace/pelt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-pelt-check.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$top/initramfs/lib/tap.sh"
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

make -s -f "$top/run/pelt-check.mk" TOP="$top" BUILD="$top/build" pelt-check >"$tmp/make.log" 2>&1
check "pelt-check builds" test -x "$tool"
check "--help states the margin and the exit codes" sh -c "'$tool' --help | grep -q 'tol = 3% x hi + 2.5% x W + N + 2' && '$tool' --help | grep -q '^Exit: 0'"

old=$fx/6.1-runnable-avg
"$tool" --signals nr_running,weight,load_avg "$old-loads.csv" "$old-tasks.csv" >"$tmp/ok.out" 2>&1
check "a correct trace passes: nr_running, weight, cpu_load() within the margin (exit 0)" test $? = 0
echo "# $(tr '\n' '|' <"$tmp/ok.out")"
"$tool" "$old-loads.csv" "$old-tasks.csv" >"$tmp/old.out" 2>&1
check "the runnable_avg-based signal is caught: exit 1, pelt BEYOND" sh -c "[ $? = 1 ] && grep -q '^- pelt .*verdict=BEYOND' '$tmp/old.out'"
awk -F, 'BEGIN { OFS = "," } NR > 1 { $5 = $6 } { print }' "$old-loads.csv" >"$tmp/wrong-loads.csv"
"$tool" --signals load_avg "$tmp/wrong-loads.csv" "$old-tasks.csv" >"$tmp/wrong.out" 2>&1
check "a deliberately wrong cpu_load() (the runnable-only load in its place) is caught: exit 1" \
	sh -c "[ $? = 1 ] && grep -q '^- load_avg .*verdict=BEYOND' '$tmp/wrong.out'"
sed '5s/,1024,/,x1024,/' "$old-loads.csv" >"$tmp/bad-loads.csv"
"$tool" "$tmp/bad-loads.csv" "$old-tasks.csv" >/dev/null 2>"$tmp/e"
check "a bad row: exit 2, FILE:LINE named" sh -c "[ $? = 2 ] && grep -q 'bad-loads.csv:5: weight' '$tmp/e'"
sed '1s/,prev_state,/,state,/' "$old-tasks.csv" >"$tmp/bad-tasks.csv"
"$tool" "$old-loads.csv" "$tmp/bad-tasks.csv" >/dev/null 2>"$tmp/e"
check "a missing column: exit 2, FILE:1 named" sh -c "[ $? = 2 ] && grep -q 'bad-tasks.csv:1: no column .prev_state.' '$tmp/e'"
head -n 20 "$old-loads.csv" >"$tmp/short-loads.csv"
"$tool" "$tmp/short-loads.csv" "$old-tasks.csv" >/dev/null 2>&1
check "a trace shorter than the warm-up: exit 3" test $? = 3

# The guest: one boot per kernel.
plan=$tmp/plan
{
	echo '#!/bin/sh'
	echo "cat > /tmp/trace.sh <<'PJT_TRACE_SH'"
	cat "$top/initramfs/lib/trace.sh"
	echo "PJT_TRACE_SH"
	cat <<PLAN
. /tmp/trace.sh
mount -t tracefs nodev "\$tracefs" 2>/dev/null
trace_available || { echo "NO-EVENTS"; exit 1; }
trace_start
pjtload duty threads=3 duty=10 period=10ms duration=2s >/dev/null &
sh -c 'renice -n 5 -p \$\$ >/dev/null; exec pjtload duty threads=2 duty=40 period=20ms duration=2s' >/dev/null &
pjtload duty threads=1 duty=70 period=10ms cpus=1 duration=2s >/dev/null &
pjtload duty threads=1 duty=25 period=8ms cpus=2-3 duration=2s >/dev/null &
wait
trace_stop
echo "OVERRUN \$(trace_overrun)"
trace_csv loads "$("$top/run/contract/entries" -j ' ' trace-loads)" | sed 's/^/L,/'
trace_csv tasks "$("$top/run/contract/entries" -j ' ' trace-tasks)" | sed 's/^/T,/'
PLAN
} >"$plan"
initrd=$top/build/initramfs.cpio.gz
for variant in default groups; do
	case $variant in default) k=$top/build/bzImage ;; groups) k=$top/build/bzImage-groups ;; esac
	if [ ! -f "$k" ] || [ ! -f "$initrd" ]; then
		skip "guest ($variant): a traced workload's loads within the margin" "no $k or $initrd (make kernel / make kernel-variants, make initramfs)"
		continue
	fi
	r=$tmp/$variant
	"$top/run/boot" --kernel "$k" --initrd "$initrd" --plan "$plan" --trace --timeout 300 \
		--console "$r.console" --results "$r.results" >"$r.boot" 2>&1
	check "guest ($variant): the traced boot ran (run/boot exit 0)" test $? = 0
	{ "$top/run/contract/entries" -j , trace-loads; sed -n 's/^L,//p' "$r.results" | tr -d '\r'; } >"$r-loads.csv"
	{ "$top/run/contract/entries" -j , trace-tasks; sed -n 's/^T,//p' "$r.results" | tr -d '\r'; } >"$r-tasks.csv"
	check "guest ($variant): nothing lost to a full buffer" grep -q '^OVERRUN 0' "$r.results"
	"$tool" --label "$variant" "$r-loads.csv" "$r-tasks.csv" >"$r.check" 2>&1
	rc=$?
	sed 's/^/# /' "$r.check"
	for s in nr_running weight load_avg pelt; do
		check "guest ($variant): $s within the margin" grep -q "^$variant $s .*verdict=ok" "$r.check"
	done
	[ -z "${KEEP:-}" ] || echo "# kept: $r-loads.csv $r-tasks.csv"
	: "$rc"
done

exit $((failed > 0))
