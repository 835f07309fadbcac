#!/bin/sh
# run/tests/test-target.sh: run/matrix --target end to end against a QEMU
# "box": build/bzImage-groups (the series with group scheduling, an e1000
# card and kexec: patches/qemu-groups.config) booted by run/boot
# --net-forward with the box image (initramfs/build-box-image: sshd and
# kexec), reached over SSH on a loopback port with a key made for the test.
# The runner kexecs it at each boot into the same kernel on its own command
# line (pjt.target=1), so a new boot id and that command line prove the
# kexec:
#   - a small matrix: every row, run/stats and run/report accept the
#     folder, the box's identity and sched domains recorded, uname and the
#     features list read back on the box after the kexec (the kernel under
#     test, with the series' bits)
#   - the box killed mid-run: the finished runs kept, the run in progress
#     crashed, run/matrix stops with exit 6; a new box and --resume complete
#     the matrix, no seq twice
# Nothing runs on, or kexecs, this machine: run/target refuses a local
# target unless --target-box names the QEMU that forwards its port.
# check: boots QEMU (run/check runs it while no other guest runs)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/run/tests/fixtures/tap.sh"
tap_begin test-target
box_kernel=$top/build/bzImage-groups
image=$top/build/initramfs-box.cpio.gz
make -s -C "$top" initramfs-box >&2 || { echo "not ok 1 - the box image could not be built (make check-deps?)"; exit 1; }
[ -r "$box_kernel" ] || { echo "not ok 1 - $box_kernel not found (make kernel-variants)"; exit 1; }

ssh-keygen -q -t ed25519 -N '' -C pjt-test -f "$tmp/key"
blob=$(cut -d' ' -f2 "$tmp/key.pub")
# A loopback port nobody listens on.
port=$((20000 + $$ % 20000))
while ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; do port=$((port + 1)); done

box_pid=
stop_box() {
	[ -z "$box_pid" ] || kill "$box_pid" 2>/dev/null
	[ -z "$box_pid" ] || wait "$box_pid" 2>/dev/null
	box_pid=
}
trap 'stop_box; rm -rf "$tmp"' EXIT INT TERM
# start_box NAME: boot the box, wait until its sshd lets the key in
start_box() {
	"$top/run/boot" --kernel "$box_kernel" --initrd "$image" --net-forward "$port" \
		--append "pjt.box=1 pjt.box_key=$blob" --timeout 3000 --pidfile "$tmp/$1.qemu" \
		--console "$tmp/$1.console" --results "$tmp/$1.results" > "$tmp/$1.boot" 2>&1 &
	box_pid=$!
	# (quiet: until sshd is up each try fails with a message)
	wait_until 240 ssh -i "$tmp/key" -p "$port" -o BatchMode=yes -o ConnectTimeout=5 -o LogLevel=QUIET \
		-o UserKnownHostsFile="$tmp/known" -o StrictHostKeyChecking=accept-new root@127.0.0.1 true 2>/dev/null
}
on_box() { ssh -i "$tmp/key" -p "$port" -o BatchMode=yes -o UserKnownHostsFile="$tmp/known" root@127.0.0.1 "$@"; }
printf 'reps 2\nsettle 0\nseed 1\nsmp 4\nboots 2\nduration 2s\ncombo stock\ncombo rfc-after PJT_SHORT_TASKS PJT_BUSIEST PJT_IMBALANCE PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY\nworkload duty threads=8 duty=10 period=10ms\n' > "$tmp/box.matrix"
matrix_on_box() { # matrix_on_box ARGS...: run/matrix against the box
	"$top/run/matrix" --no-report "$@" --target-key "$tmp/key" --target-known-hosts "$tmp/known" \
		--target-box "$(cat "$tmp/box.qemu")"
}

echo "# ---- a matrix on the box"
start_box box
check "the box boots and lets the test's key in over 127.0.0.1:$port" on_box true
box_state() { on_box 'cat /proc/sys/kernel/random/boot_id; cat /proc/cmdline; uname -r'; }
box_state > "$tmp/state-before" 2>&1
"$top/run/target" --target "ssh://root@127.0.0.1:$port" --kernel "$box_kernel" --initrd "$top/build/initramfs.cpio.gz" --check > "$tmp/o" 2>&1
check "without --box: run/target refuses the box's loopback address as this machine" \
	sh -c "[ $? = 2 ] && grep -q 'this machine' '$tmp/o'"
cp "$tmp/box.qemu" "$tmp/box.qemu.1"
matrix_on_box --target "ssh://root@127.0.0.1:$port" --target-kernel "$box_kernel" --target-initrd "$image" \
	--initrd "$top/build/initramfs.cpio.gz" --out "$tmp/m" "$tmp/box.matrix" > "$tmp/m.out" 2> "$tmp/m.err"
rc=$?
sed 's/^/# /' "$tmp/m.err" | tail -n 5
# explain BOX DIR ERR: why a matrix on BOX (its folder DIR) failed: what
# run/matrix said, each boot's run/target log, the box's run/boot and the
# end of its console (its kexecs)
explain() {
	tail -n 8 "$3"
	for log in "$2"/boot-*.log; do
		[ -r "$log" ] && { echo "$log ends:"; tail -n 4 "$log"; }
	done
	echo "the $1's run/boot said:"
	tail -n 4 "$tmp/$1.boot"
	echo "the $1's console ends:"
	tail -n 12 "$tmp/$1.console"
	tail -n +2 "$2/runs.csv" 2>/dev/null | awk -F, '{ print "row", $1, $NF }'
}
matrix_complete() {
	[ "$rc" = 0 ] && [ "$(tail -n +2 "$tmp/m/runs.csv" | grep -c ',ok$')" = 4 ] && return 0
	echo "run/matrix exit $rc"
	explain box "$tmp/m" "$tmp/m.err"
	return 1
}
check "run/matrix --target on the box: exit 0, every run (4) ok" matrix_complete
check "run/stats and run/report accept the folder as a QEMU run's (report.md written)" \
	sh -c "'$top/run/stats' '$tmp/m' >/dev/null 2>&1 && '$top/run/report' '$tmp/m' >/dev/null 2>&1 && [ -s '$tmp/m/report.md' ]"
box_state > "$tmp/state-after" 2>&1
before_id=$(sed -n 1p "$tmp/state-before")
check "kexec verified: the box came back with a new boot id each boot (before, target-1.txt, target-2.txt, after the matrix), on its own command line plus pjt.target=1, and the same release (uname -r)" \
	sh -c "[ -n '$before_id' ] && [ \"\$(sed -n 1p '$tmp/state-after')\" != '$before_id' ] &&
	       ! grep -q 'pjt.target=1' '$tmp/state-before' && sed -n 2p '$tmp/state-after' | grep -q 'pjt.box=1 .*pjt.target=1' &&
	       [ \"\$(sed -n 3p '$tmp/state-before')\" = \"\$(sed -n 3p '$tmp/state-after')\" ] &&
	       [ \"\$( (echo '$before_id'; sed -n 's/^boot_id=//p' '$tmp/m/target-1.txt' '$tmp/m/target-2.txt') | sort -u | wc -l)\" = 3 ] &&
	       grep -q '^cmdline=.*pjt.target=1' '$tmp/m/target-1.txt'"
check "... and its features list has the series' bits (target-N.txt, read on the box)" \
	grep -q '^series_bits=.*PJT_BUSIEST' "$tmp/m/target-2.txt"
check "the box's identity: 4 CPUs, 1 socket of 4 cores, and its sched domains in domains.txt" \
	sh -c "grep -qx 'cpus_online=4' '$tmp/m/target-1.txt' && grep -qx 'cores_per_socket=4' '$tmp/m/target-1.txt' && grep -q 'MC' '$tmp/m/domains.txt'"

echo "# ---- the box killed mid-run"
printf 'reps 3\nsettle 0\nseed 2\nsmp 4\nboots 1\nduration 4s\ncombo stock\ncombo rfc-after PJT_SHORT_TASKS PJT_BUSIEST PJT_IMBALANCE PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY\nworkload duty threads=8 duty=10 period=10ms\n' > "$tmp/kill.matrix"
# The default reboot timeout (300 s), which --resume keeps: the resume
# kexecs box2, and 60 s left little room (a boot of the first matrix took
# 56 s here from one run to the next: copy, kexec, return and a 2-s run).
# A box that is gone refuses SSH at once, so nothing waits for it.
matrix_on_box --target "ssh://root@127.0.0.1:$port" --target-kernel "$box_kernel" --target-initrd "$image" \
	--initrd "$top/build/initramfs.cpio.gz" --out "$tmp/k" "$tmp/kill.matrix" > "$tmp/k.out" 2> "$tmp/k.err" &
runner=$!
wait_until 600 sh -c "[ \"\$(tail -n +2 '$tmp/k/runs.csv' 2>/dev/null | wc -l)\" -ge 2 ]"
stop_box
wait "$runner"
rc=$?
sed 's/^/# /' "$tmp/k.err" | tail -n 4
check "the box gone: run/matrix stops with exit 6, the finished runs kept, the run in progress crashed" \
	sh -c "[ $rc = 6 ] && [ \"\$(tail -n +2 '$tmp/k/runs.csv' | grep -c ',ok\$')\" -ge 2 ] && [ \"\$(tail -n +2 '$tmp/k/runs.csv' | grep -c ',crashed\$')\" = 1 ]"
box2_up=yes
start_box box2 || box2_up="no (sshd not up within 240 s)"
"$top/run/matrix" --no-report --resume "$tmp/k" --target-key "$tmp/key" --target-known-hosts "$tmp/known" \
	--target-box "$(cat "$tmp/box2.qemu")" > /dev/null 2> "$tmp/k2.err"
resume_rc=$?
resume_complete() {
	[ "$resume_rc" = 0 ] && [ "$(tail -n +2 "$tmp/k/runs.csv" | wc -l)" = 6 ] &&
		[ "$(tail -n +2 "$tmp/k/runs.csv" | cut -d, -f1 | sort | uniq -d)" = '' ] && return 0
	echo "box2 up before the resume: $box2_up"
	explain box2 "$tmp/k" "$tmp/k2.err"
	return 1
}
check "a new box and --resume: exit 0 ($resume_rc), every run has a row, no seq twice" resume_complete
stop_box
tap_end
