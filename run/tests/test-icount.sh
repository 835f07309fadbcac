#!/bin/sh
# run/tests/test-icount.sh: run/boot --icount makes guest time a count of
# instructions, so run/bench-icount's figures repeat exactly.
#   - --icount refuses more than one vCPU and --accel (exit 2, named);
#   - two boots of build/bzImage under --icount run the same plan: the
#     guest's monotonic clock (ns) when the plan starts, a fixed shell
#     loop's length in ns, and the pipe round trips pjtload does in 100 ms
#     of guest time must be equal, to the nanosecond and the round trip.
#     Under plain TCG these follow the host's speed and load and differ
#     in the last digits from boot to boot, so the test fails without icount.
#   A missing kernel or image is an "ok ... # SKIP".
# Prints TAP-ish "ok N - text" lines.
# check: boots QEMU (run/check runs it while no other guest runs)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
kernel=$top/build/bzImage
initrd=$top/build/initramfs.cpio.gz
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-icount.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$top/initramfs/lib/tap.sh"

"$top/run/boot" --icount --smp 2 --kernel /dev/null --print-cmdline >/dev/null 2>"$tmp/e"
check "--icount --smp 2 is refused: exit 2, one vCPU named" sh -c "[ $? = 2 ] && grep -q 'one vCPU only' '$tmp/e'"
"$top/run/boot" --icount --accel tcg --kernel /dev/null --print-cmdline >/dev/null 2>"$tmp/e"
check "--icount --accel is refused: exit 2" sh -c "[ $? = 2 ] && grep -q 'leave out --accel' '$tmp/e'"
"$top/run/boot" --icount --kernel /dev/null --initrd /dev/null --print-cmdline >"$tmp/cmd" 2>&1
check "--icount: one vCPU, -accel tcg -icount shift=0" \
	sh -c "grep -q -- '-accel tcg .* -smp 1,' '$tmp/cmd' && grep -q -- '-icount shift=0' '$tmp/cmd'"

if [ ! -r "$kernel" ] || [ ! -r "$initrd" ]; then
	n=$((n + 1)); echo "ok $n - two icount boots agree # SKIP no $kernel or $initrd (make kernel initramfs)"
	[ "$failed" = 0 ]; exit
fi
cat > "$tmp/plan" <<'PLAN'
now() { sed -n 's/^now at \([0-9]*\) nsecs$/\1/p' /proc/timer_list | head -n 1; }
echo "start $(now)"
a=$(now); i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); done; b=$(now)
echo "loop $((b - a))"
pjtload pingpong via=pipe duration=100ms | tr ' ' '\n' | grep '^round_trips='
PLAN
for b in 1 2; do
	"$top/run/boot" --icount --kernel "$kernel" --initrd "$initrd" --plan "$tmp/plan" --timeout 120 \
		--console "$tmp/console$b" --results "$tmp/results$b" >"$tmp/boot$b" 2>&1
	check "icount boot $b runs the plan" test $? = 0
	tr -d '\r' < "$tmp/results$b" | grep -v '^PLAN-EXIT' > "$tmp/r$b"
	echo "# boot $b: $(tr '\n' ' ' < "$tmp/r$b")"
done
check "the plan printed its three figures" sh -c "grep -c '^start [0-9]\{1,\}$\|^loop [0-9]\{1,\}$\|^round_trips=[0-9]\{1,\}$' '$tmp/r1' | grep -q '^3$'"
check "two icount boots agree to the nanosecond and the round trip" cmp -s "$tmp/r1" "$tmp/r2"
[ "$failed" = 0 ]
