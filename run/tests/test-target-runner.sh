#!/bin/sh
# run/tests/test-target-runner.sh: run/target and run/matrix --target
# against a stand-in target (run/tests/fixtures/target: its ssh runs the
# remote command on this host, in a folder that stands for the target's
# /proc, /sys and /var/tmp; kexec, chroot, mount and dmesg are stand-ins:
# nothing is booted, mounted or kexec'd here):
#   - refusals: this machine as the target (127.0.0.1, localhost, its own
#     name) unless --box names a QEMU forwarding the port; bad URLs; QEMU
#     options; the --target options without --target
#   - a matrix through --target: every row, its provenance, empty host
#     columns, target-N.txt (identity, topology, the governor warning), the
#     kexec command line, the kernel checked after the reboot, the plan run
#     in the guest image's own tree
#   - topology: a target whose CPUs differ is refused; --any-topology runs
#     and records it
#   - faults: no return after kexec (exit 6, --resume completes, no
#     duplicate), the power-cycle command, SSH dropped mid-run (that run
#     crashed, the rest done), another kernel after kexec (exit 5); how
#     long a boot may take before its first run (the reboot timeout twice
#     and 180 s)
#   - --no-reboot: no kexec; refused on a kernel without the series
# TAP-ish output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/run/tests/fixtures/tap.sh"
tap_begin test-target-runner
fixtures=$top/run/tests/fixtures
target_tool=$top/run/target
matrix=$top/run/matrix

# The stand-in target: a folder with its /proc and /sys files.
# make_target NAME CPUS [FEATURES]: CPUS cores on one socket, reached
# as ssh://root@NAME.test.
make_target() {
	t=$tmp/targets/$1.test
	rm -rf "$t"
	mkdir -p "$t/proc/sys/kernel/random" "$t/sys/kernel/debug/sched" "$t/var"
	ln -s "$fixtures/target" "$t/bin"
	echo "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)" > "$t/proc/version"
	echo "BOOT_IMAGE=/boot/vmlinuz-6.1.0-18-amd64 root=/dev/sda1 ro quiet" > "$t/proc/cmdline"
	echo 0f1e2d3c-0000-4000-8000-000000000001 > "$t/proc/sys/kernel/random/boot_id"
	echo testbox > "$t/proc/sys/kernel/hostname"
	printf 'cpu  100 0 100 10000 0 0 0 0 0 0\nprocs_running 1\n' > "$t/proc/stat"
	: > "$t/proc/mounts"
	: > "$t/kmsg"
	echo '[    0.000000] Linux version 6.1.0' > "$t/dmesg"
	i=0
	while [ "$i" -lt "$2" ]; do
		mkdir -p "$t/sys/devices/system/cpu/cpu$i/topology" "$t/sys/devices/system/cpu/cpu$i/cpufreq"
		echo 0 > "$t/sys/devices/system/cpu/cpu$i/topology/physical_package_id"
		echo "$i" > "$t/sys/devices/system/cpu/cpu$i/topology/core_id"
		echo powersave > "$t/sys/devices/system/cpu/cpu$i/cpufreq/scaling_governor"
		echo "model name	: Stand-in CPU @ 2.00GHz" >> "$t/proc/cpuinfo"
		i=$((i + 1))
	done
	echo "${3:-GENTLE_FAIR_SLEEPERS START_DEBIT}" > "$t/sys/kernel/debug/sched/features"
}

# A file the boot protocol takes for a bzImage: "HdrS" at 0x202, the
# version string's offset (from 0x200) at 0x20e.
fake_bzimage() {
	dd if=/dev/zero of="$1" bs=1024 count=2 2>/dev/null
	printf 'HdrS' | dd of="$1" bs=1 seek=514 conv=notrunc 2>/dev/null
	printf '\000\002' | dd of="$1" bs=1 seek=526 conv=notrunc 2>/dev/null
	printf '%s\000' "$2" | dd of="$1" bs=1 seek=1024 conv=notrunc 2>/dev/null
}
version='6.1.0-pjt-sched (pjt-sched@pjt-sched) #1 SMP PREEMPT_DYNAMIC Thu Jan  1 00:00:00 UTC 2026'
fake_bzimage "$tmp/bzImage" "$version"

# The guest image: a busybox stand-in and the real guest scripts.
mkdir -p "$tmp/img/bin" "$tmp/img/usr/lib/pjt" "$tmp/img/proc" "$tmp/img/sys" "$tmp/img/dev" "$tmp/img/tmp"
printf '#!/bin/sh\n' > "$tmp/img/bin/busybox" && chmod +x "$tmp/img/bin/busybox"
cp "$top"/initramfs/lib/* "$tmp/img/usr/lib/pjt/"
(cd "$tmp/img" && find . | cpio -o -H newc --quiet | gzip -1) > "$tmp/image.cpio.gz"

# The guest's stand-in rt-app (as test-matrix.sh's): three activations.
mkdir -p "$tmp/guest/bin"
printf '#!/bin/sh\nsleep 0.1\ncp "%s/rt-app-t-0.log" .\n' "$fixtures/matrix" > "$tmp/guest/bin/rt-app"
chmod +x "$tmp/guest/bin/rt-app"
printf 'reps 2\nsettle 0\nseed 1\nsmp 4\nboots 2\ncombo stock\nreplicate stock-b stock\nworkload rt-app %s\n' \
	"$fixtures/matrix/a/x.json" > "$tmp/t.matrix"

export FAKE_GUEST="$tmp/guest" FAKE_TARGETS="$tmp/targets"
# on_target NAME [run/matrix args...]: the matrix on a fresh stand-in
on_target() {
	name=$1; shift
	PATH="$fixtures/target:$PATH" \
		"$matrix" --no-report --target "ssh://root@$name.test" --target-kernel "$tmp/bzImage" \
		--initrd "$tmp/image.cpio.gz" "$@" "$tmp/t.matrix" > "$tmp/$name.out" 2> "$tmp/$name.err"
}
# col NAME CSV, rows CSV: commands, for the checks' sh -c
printf '#!/bin/sh\nawk -F, -v c="$1" '"'"'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) n = i; next } { print $n }'"'"' "$2"\n' > "$tmp/col"
printf '#!/bin/sh\ntail -n +2 "$1" | wc -l\n' > "$tmp/rows"
chmod +x "$tmp/col" "$tmp/rows"
PATH=$tmp:$PATH
# a results file with rows, none of whose seq comes twice
no_duplicate() { [ "$(rows "$1")" -gt 0 ] && [ "$(col seq "$1" | sort | uniq -d)" = "" ]; }

echo "# ---- refusals"
"$target_tool" --help > "$tmp/help" 2>&1
check "--help prints the usage, exit 0" sh -c "[ $? = 0 ] && grep -q -- '--target ssh://' '$tmp/help'"
for t in ssh://root@127.0.0.1:2222 ssh://localhost "ssh://root@$(hostname)"; do
	"$target_tool" --target "$t" --kernel "$tmp/bzImage" --initrd "$tmp/image.cpio.gz" --check > "$tmp/o" 2>&1
	check "$t is this machine: refused (exit 2), naming why" sh -c "[ $? = 2 ] && grep -q 'this machine' '$tmp/o'"
done
"$target_tool" --target ssh://root@127.0.0.1:2222 --box $$ --kernel "$tmp/bzImage" --initrd "$tmp/image.cpio.gz" --check > "$tmp/o" 2>&1
check "--box naming a process that is not a QEMU forwarding the port: still refused" \
	sh -c "[ $? = 2 ] && grep -q 'not a QEMU forwarding port 2222' '$tmp/o'"
for t in http://x ssh:// 'ssh://a b' ssh://host:99999 'ssh://h;reboot'; do
	"$target_tool" --target "$t" --kernel "$tmp/bzImage" --check > "$tmp/o" 2>&1
	check "--target '$t': usage error, exit 2" sh -c "[ $? = 2 ] && grep -q 'run/target' '$tmp/o'"
done
"$target_tool" --target ssh://h --accel tcg --check > "$tmp/o" 2>&1
check "a QEMU option (--accel) is refused: a target runs on its hardware" sh -c "[ $? = 2 ] && grep -q 'QEMU option' '$tmp/o'"
"$target_tool" --target ssh://h --kernel "$tmp/t.matrix" --initrd "$tmp/image.cpio.gz" > "$tmp/o" 2>&1
check "a kernel that is not a bzImage is refused before anything is copied" sh -c "[ $? = 2 ] && grep -q 'not a bzImage' '$tmp/o'"
"$matrix" --no-reboot --dry-run "$tmp/t.matrix" > "$tmp/o" 2>&1
check "run/matrix --no-reboot without --target: usage error" sh -c "[ $? = 2 ] && grep -q 'the --target options need --target' '$tmp/o'"

echo "# ---- a matrix on the stand-in target"
make_target a 4
on_target a --out "$tmp/a"
rc=$?
t=$tmp/targets/a.test
check "run/matrix --target: exit 0" test "$rc" = 0
check "runs.csv has every run (4), each ok" \
	sh -c "[ \"\$(rows '$tmp/a/runs.csv')\" = 4 ] && [ \"\$(col status '$tmp/a/runs.csv' | sort -u)\" = ok ]"
check "no seq twice" no_duplicate "$tmp/a/runs.csv"
check "provenance: kernel_sha256 is the kexec'd kernel's, boot numbers 1 and 2" \
	sh -c "[ \"\$(col kernel_sha256 '$tmp/a/runs.csv' | sort -u)\" = '$(sha256sum "$tmp/bzImage" | cut -d' ' -f1)' ] &&
	       [ \"\$(col boot '$tmp/a/runs.csv' | sort -u | tr '\n' ' ')\" = '1 2 ' ]"
check "host_load1 and host_cpu_busy are empty: the runs were not on this host" \
	sh -c "[ \"\$(rows '$tmp/a/runs.csv')\" = 4 ] && [ -z \"\$(col host_load1 '$tmp/a/runs.csv' | tr -d '\n')\$(col host_cpu_busy '$tmp/a/runs.csv' | tr -d '\n')\" ]"
check "one kexec a boot: two loads, two reboots, two new boot ids" \
	sh -c "[ \"\$(grep -c 'kexec -l' '$t/kexec.log')\" = 2 ] && [ \"\$(grep -c 'kexec -e' '$t/kexec.log')\" = 2 ] && [ \"\$(wc -l < '$t/boots.log')\" = 2 ]"
check "the kexec command line is the target's own plus pjt.target=1 schedstats=enable, once" \
	grep -qx 'BOOT_IMAGE=/boot/vmlinuz-6.1.0-18-amd64 root=/dev/sda1 ro quiet pjt.target=1 schedstats=enable ' "$t/loaded-cmdline"
check "the target came back on the kernel under test (its proc/version)" grep -q '^Linux version 6.1.0-pjt-sched ' "$t/proc/version"
check "target-1.txt and target-2.txt: identity and topology (1 socket, 4 cores, 1 thread)" \
	sh -c "for f in '$tmp/a/target-1.txt' '$tmp/a/target-2.txt'; do grep -qx 'hostname=testbox' \$f && grep -qx 'cpus_online=4' \$f &&
	       grep -qx 'sockets=1' \$f && grep -qx 'cores_per_socket=4' \$f && grep -qx 'threads_per_core=1' \$f &&
	       grep -q '^kernel=Linux version 6.1.0-pjt-sched ' \$f && grep -qx 'busy_before_plan=0.000' \$f || exit 1; done"
check "the powersave governor is warned about, in target-N.txt and on stderr" \
	sh -c "grep -q '^warning=CPU frequency governor powersave' '$tmp/a/target-1.txt' && grep -q 'run/target: warning: CPU frequency governor powersave' '$tmp/a.err'"
check "the kernel without PJT bits is warned about (the stand-in's features list has none)" \
	grep -q '^warning=the running kernel has no PJT bits' "$tmp/a/target-1.txt"
check "the plan ran in the guest image's tree (its matrix-exec.sh unpacked on the target)" \
	cmp -s "$top/initramfs/lib/matrix-exec.sh" "$t/var/root/usr/lib/pjt/matrix-exec.sh"
check "the sched domains and uname of the target are in the folder" \
	sh -c "[ -s '$tmp/a/domains.txt' ] && [ -s '$tmp/a/uname.txt' ]"
check "target.txt keeps the settings for --resume" grep -qx 'url=ssh://root@a.test' "$tmp/a/target.txt"
check "run/stats accepts the folder" sh -c "'$top/run/stats' '$tmp/a' >/dev/null 2>&1"

echo "# ---- topology"
make_target b 2
on_target b --out "$tmp/b"
rc=$?
check "a target of 2 CPUs for a matrix of smp 4: refused (exit 2) before a folder is made" \
	sh -c "[ $rc = 2 ] && grep -q 'topology is 1,2,1 .* the matrix expects 1,4,1: refused' '$tmp/b.err' && [ ! -e '$tmp/b' ] && [ ! -e '$tmp/targets/b.test/kexec.log' ]"
make_target b 2
on_target b --out "$tmp/b" --any-topology
check "--any-topology: it runs, and target-1.txt records the real topology" \
	sh -c "[ $? = 0 ] && grep -q '^warning=topology 1,2,1, not the 1,4,1' '$tmp/b/target-1.txt'"

echo "# ---- the target does not come back"
make_target c 4
: > "$tmp/targets/c.test/no-return"
on_target c --out "$tmp/c" --target-reboot-timeout 8
rc=$?
check "no return after kexec: exit 6, resume named, no row" \
	sh -c "[ $rc = 6 ] && grep -q 'did not come back' '$tmp/c.err' && grep -q 'resume with: run/matrix --resume' '$tmp/c.err' && [ \"\$(rows '$tmp/c/runs.csv')\" = 0 ]"
rm -f "$tmp/targets/c.test/no-return"
FAKE_TARGET=$tmp/targets/c.test sh "$fixtures/target/power-on"
PATH="$fixtures/target:$PATH" \
	"$matrix" --no-report --resume "$tmp/c" > /dev/null 2> "$tmp/c2.err"
check "--resume once it is back: every run, none twice" \
	sh -c "[ $? = 0 ] && [ \"\$(rows '$tmp/c/runs.csv')\" = 4 ]"
check "... no seq twice" no_duplicate "$tmp/c/runs.csv"
check "a boot may take twice the reboot timeout and 180 s more to start its first run: 780 s by default, 196 s with --target-reboot-timeout 8, kept by --resume" \
	sh -c "grep -q 'boot 1: .*, the first within 780s ' '$tmp/a.err' && grep -q 'boot 1: .*, the first within 196s ' '$tmp/c.err' &&
	       grep -q 'boot [0-9]*: .*, the first within 196s ' '$tmp/c2.err'"
make_target d 4
: > "$tmp/targets/d.test/no-return"
# the command gets the target's URL as $1
on_target d --out "$tmp/d" --target-reboot-timeout 8 --target-power-cycle \
	"h=\${1#ssh://root@}; rm -f \"\$FAKE_TARGETS/\$h/no-return\"; FAKE_TARGET=\"\$FAKE_TARGETS/\$h\" sh '$fixtures/target/power-on'"
check "--target-power-cycle CMD (the URL as \$1): run once when it does not come back, then the matrix completes" \
	sh -c "[ $? = 0 ] && grep -q 'power-cycling it' '$tmp/d/boot-1.log' && [ \"\$(rows '$tmp/d/runs.csv')\" = 4 ]"
make_target e 4
: > "$tmp/targets/e.test/wrong-kernel"
PATH="$fixtures/target:$PATH" \
	"$target_tool" --target ssh://root@e.test --kernel "$tmp/bzImage" --initrd "$tmp/image.cpio.gz" \
	--plan "$tmp/t.matrix" --results "$tmp/e.results" --console "$tmp/e.console" > "$tmp/e.out" 2>&1
check "back on another kernel after kexec: run/target exits 5 and names both" \
	sh -c "[ $? = 5 ] && grep -q 'came back on another kernel: Linux version 6.1.0-18-amd64 .*expected 6.1.0-pjt-sched' '$tmp/e.out'"

echo "# ---- SSH dropped mid-run"
make_target f 4
FAKE_DROP_AFTER_BEGINS=2 on_target f --out "$tmp/f"
check "the connection cut during the second run: that run crashed, every other one done" \
	sh -c "[ $? = 0 ] && [ \"\$(rows '$tmp/f/runs.csv')\" = 4 ] && [ \"\$(col status '$tmp/f/runs.csv' | grep -c crashed)\" = 1 ]"
check "... no seq twice, the connection loss named, and the next boot (a kexec) ran the rest" \
	sh -c "[ \"\$(rows '$tmp/f/runs.csv')\" = 4 ] && [ \"\$(col seq '$tmp/f/runs.csv' | sort | uniq -d)\" = '' ] && grep -q 'the connection was lost' '$tmp/f.err' && [ \"\$(grep -c 'kexec -e' '$tmp/targets/f.test/kexec.log')\" = 2 ]"

echo "# ---- --no-reboot"
make_target g 4
on_target g --out "$tmp/g" --no-reboot
check "--no-reboot on a kernel without the series: refused (exit 2)" \
	sh -c "[ $? = 2 ] && grep -q 'no PJT bits' '$tmp/g.err'"
make_target g 4 "GENTLE_FAIR_SLEEPERS NO_PJT_BUSIEST PJT_IDLEST NO_LEGACY_LOAD"
on_target g --out "$tmp/g" --no-reboot
check "--no-reboot on the series: every run, no kexec, the running kernel named in kernel.txt" \
	sh -c "[ $? = 0 ] && [ \"\$(rows '$tmp/g/runs.csv')\" = 4 ] && [ ! -e '$tmp/targets/g.test/kexec.log' ] &&
	       grep -q '^running on ssh://root@g.test: Linux version 6.1.0-18-amd64' '$tmp/g/kernel.txt'"
echo "# ---- run/distribute --targets: a shard a target"
make_target p 4
make_target q 4
PATH="$fixtures/target:$PATH" "$top/run/distribute" --no-report --targets ssh://root@p.test,ssh://root@q.test \
	--target-kernel "$tmp/bzImage" --initrd "$tmp/image.cpio.gz" --out "$tmp/dist" "$tmp/t.matrix" > "$tmp/dist.out" 2>&1
check "two targets, two shards at once: the merged folder has every run, none twice" \
	sh -c "[ $? = 0 ] && [ \"\$(rows '$tmp/dist/runs.csv')\" = 4 ] && [ \"\$(col seq '$tmp/dist/runs.csv' | sort | uniq -d)\" = '' ]"
check "... each target booted (kexec) once for its shard, and its shard's folder names it" \
	sh -c "[ \"\$(grep -c 'kexec -e' '$tmp/targets/p.test/kexec.log')\" = 1 ] && [ \"\$(grep -c 'kexec -e' '$tmp/targets/q.test/kexec.log')\" = 1 ] &&
	       grep -qx 'url=ssh://root@p.test' '$tmp/dist.distribute/shard-1/target.txt' && grep -qx 'url=ssh://root@q.test' '$tmp/dist.distribute/shard-2/target.txt'"
"$top/run/distribute" --targets ssh://a.test --hosts : "$tmp/t.matrix" > "$tmp/o" 2>&1
check "run/distribute --targets with --hosts: refused" sh -c "[ $? = 2 ] && grep -q 'exclude each other' '$tmp/o'"
tap_end
