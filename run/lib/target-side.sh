#!/bin/sh
# run/lib/target-side.sh: the part of run/target that runs on the target
# machine.  run/target copies it there (DIR/target-side.sh, DIR being
# run/target's folder on the target) after each boot and runs it over SSH
# as root: sh DIR/target-side.sh COMMAND [ARGS].  POSIX sh, awk and the
# usual system tools (mount, chroot, kexec; busybox's will do).
#
#   boot-id             the kernel's boot id: a new one after every boot
#   version             /proc/version (run/target compares it with the
#                       kernel image's own version string)
#   identity            KEY=VALUE lines: the machine, its CPUs and
#                       topology, and what makes timings move (frequency
#                       governor, boost, SMT, isolcpus and nohz_full,
#                       runnable tasks); the series' bits in its features
#   busy SECONDS        the fraction of the CPUs busy over SECONDS (from
#                       /proc/stat), before our plan runs: the target's
#                       other load
#   kexec KERNEL INITRD APPEND
#                       load KERNEL (INITRD "-": none) with the running
#                       kernel's command line, our previous additions
#                       (from "pjt.target=1" on) replaced by
#                       "pjt.target=1 schedstats=enable APPEND", then
#                       reboot into it in the background: systemctl kexec
#                       where systemd runs (a clean shutdown first),
#                       otherwise sync and kexec -e.  Returns at once.
#   unpack ROOT         the guest image (a gzip'd tar on stdin) into ROOT,
#                       replacing what ROOT held
#   run ROOT            run ROOT/plan in ROOT by chroot (/proc, /sys and
#                       /dev bound, a tmpfs on /tmp), in a session of its
#                       own (its process group is killed by "stop"); its
#                       stdout is the results channel, then "PLAN-EXIT N"
#   dmesg               the kernel's log so far
#   console TOKEN       the kernel's log from now on, as the QEMU console
#                       shows it ("[seconds] message"): TOKEN is written
#                       to the log and only what follows it is printed
#   stop ROOT           kill a plan and console of ROOT still running,
#                       unmount what "run" mounted
#
# For the host tests only: PJT_TARGET_PROC, PJT_TARGET_SYS and
# PJT_TARGET_KMSG replace /proc, /sys and /dev/kmsg.
set -u
proc=${PJT_TARGET_PROC:-/proc}
sys=${PJT_TARGET_SYS:-/sys}
kmsg=${PJT_TARGET_KMSG:-/dev/kmsg}
here=$(cd "$(dirname "$0")" && pwd)
debugfs=$sys/kernel/debug

die() { echo "target-side: $*" >&2; exit 1; }

# The debug and trace filesystems, where the target has not mounted them.
mount_debugfs() {
	[ -e "$debugfs/sched" ] || mount -t debugfs debugfs "$debugfs" 2>/dev/null || :
	[ -e "$sys/kernel/tracing/trace" ] || mount -t tracefs tracefs "$sys/kernel/tracing" 2>/dev/null || :
}

cpu_stat() { awk '$1 == "cpu" { b = 0; for (i = 2; i <= NF; i++) t += $i; b = t - $5 - $6; print b, t; exit }' "$proc/stat"; }

identity() {
	mount_debugfs
	echo "hostname=$(cat "$proc/sys/kernel/hostname" 2>/dev/null || hostname)"
	echo "kernel=$(cat "$proc/version")"
	echo "cmdline=$(cat "$proc/cmdline")"
	echo "boot_id=$(cat "$proc/sys/kernel/random/boot_id")"
	echo "cpu_model=$(awk -F': *' '$1 ~ /^model name/ { print $2; exit }' "$proc/cpuinfo")"
	# Topology as the kernel sees it: packages, cores (package, core id)
	# and threads of the online CPUs.
	for c in "$sys"/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat "$c/online" 2>/dev/null || echo 1)" = 1 ] || continue
		[ -r "$c/topology/physical_package_id" ] || continue
		echo "$(cat "$c/topology/physical_package_id") $(cat "$c/topology/core_id")"
	done | awk '{ cpus++; pkg[$1] = 1; core[$1 " " $2] = 1 }
		END { for (p in pkg) s++; for (c in core) k++
			printf "cpus_online=%d\nsockets=%d\ncores_per_socket=%d\nthreads_per_core=%d\n", cpus, s, (s ? k / s : 0), (k ? cpus / k : 0) }'
	echo "smt=$(cat "$sys/devices/system/cpu/smt/control" 2>/dev/null || echo unknown)"
	governors=$(cat "$sys"/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor 2>/dev/null | sort -u | paste -sd, -)
	echo "governor=${governors:-none}"
	driver=$(cat "$sys/devices/system/cpu/cpu0/cpufreq/scaling_driver" 2>/dev/null)
	echo "cpufreq_driver=${driver:-none}"
	if [ -r "$sys/devices/system/cpu/intel_pstate/no_turbo" ]; then
		case $(cat "$sys/devices/system/cpu/intel_pstate/no_turbo") in 0) echo boost=on ;; *) echo boost=off ;; esac
	elif [ -r "$sys/devices/system/cpu/cpufreq/boost" ]; then
		case $(cat "$sys/devices/system/cpu/cpufreq/boost") in 1) echo boost=on ;; *) echo boost=off ;; esac
	else
		echo boost=none
	fi
	echo "isolated=$(cat "$sys/devices/system/cpu/isolated" 2>/dev/null)"
	echo "nohz_full=$(cat "$sys/devices/system/cpu/nohz_full" 2>/dev/null | sed 's/(null)//')"
	echo "procs_running=$(awk '$1 == "procs_running" { print $2 }' "$proc/stat")"
	echo "series_bits=$(grep -o 'PJT_[A-Z_]*' "$debugfs/sched/features" 2>/dev/null | sort -u | paste -sd' ' -)"
}

busy() {
	case ${1:-} in ''|*[!0-9]*) die "busy wants seconds" ;; esac
	set -- "$1" $(cpu_stat)
	sleep "$1"
	set -- "$@" $(cpu_stat)
	awk -v b0="$2" -v t0="$3" -v b1="$4" -v t1="$5" 'BEGIN { printf "%.3f\n", (t1 > t0 ? (b1 - b0) / (t1 - t0) : 0) }'
}

do_kexec() {
	[ $# -eq 3 ] || die "kexec wants KERNEL INITRD APPEND"
	[ -r "$1" ] || die "kexec: $1 not found"
	command -v kexec >/dev/null 2>&1 || die "kexec not found on the target (install kexec-tools)"
	line=$(sed 's/ *pjt\.target=1.*//' "$proc/cmdline")
	line="$line pjt.target=1 schedstats=enable $3"
	if [ "$2" = - ]; then
		kexec -l "$1" --command-line="$line" || die "kexec -l $1 failed"
	else
		kexec -l "$1" --initrd="$2" --command-line="$line" || die "kexec -l $1 --initrd=$2 failed"
	fi
	if [ "$(cat "$proc/1/comm" 2>/dev/null)" = systemd ] && command -v systemctl >/dev/null 2>&1; then
		reboot_cmd='systemctl kexec'
	else
		reboot_cmd='sync; kexec -e'
	fi
	# A second later, once this SSH session has ended.
	setsid sh -c "sleep 1; $reboot_cmd" </dev/null >/dev/null 2>&1 &
	echo "kexec: $1 loaded; rebooting into it ($reboot_cmd) with: $line"
}

unpack() {
	[ $# -eq 1 ] || die "unpack wants ROOT"
	stop_plan "$1"
	rm -rf "$1.new"
	mkdir -p "$1.new" && tar -xzf - -C "$1.new" || die "unpacking the guest image into $1.new failed"
	rm -rf "$1"
	mv "$1.new" "$1"
}

run() {
	[ $# -eq 1 ] || die "run wants ROOT"
	root=$1
	[ -r "$root/plan" ] || die "$root/plan not found"
	stop_plan "$root"
	mount_debugfs
	mount -o bind "$proc" "$root/proc" &&
	mount -o rbind "$sys" "$root/sys" &&
	mount -o rbind /dev "$root/dev" &&
	mount -t tmpfs tmpfs "$root/tmp" || { stop_plan "$root"; die "mounting /proc, /sys, /dev and /tmp in $root failed"; }
	# A session of its own: "stop" kills the plan and all it started.
	setsid chroot "$root" /bin/sh -c 'cd /tmp && exec sh /plan' &
	plan=$!
	echo "$plan" > "$root.plan.pid"
	wait "$plan"
	status=$?
	rm -f "$root.plan.pid"
	echo "PLAN-EXIT $status"
	stop_plan "$root"
}

console() {
	[ $# -eq 1 ] || die "console wants TOKEN"
	echo $$ > "$here/console.pid"
	echo "pjt-target: $1" > "$kmsg"
	# /dev/kmsg: "PRIORITY,SEQ,MICROSECONDS,FLAGS;MESSAGE", continuation
	# lines (" KEY=VALUE") left out.
	exec awk -v token="pjt-target: $1" '
		/^ / { next }
		{ i = index($0, ";"); split(substr($0, 1, i - 1), h, ","); m = substr($0, i + 1) }
		!seen { if (m == token) seen = 1; next }
		{ printf "[%12.6f] %s\n", h[3] / 1e6, m; fflush() }' "$kmsg"
}

# stop_plan ROOT: the plan's session killed, ROOT's mounts undone.
stop_plan() {
	root=$1
	pid=$(cat "$root.plan.pid" 2>/dev/null)
	[ -z "$pid" ] || kill -KILL -- "-$pid" 2>/dev/null || :
	rm -f "$root.plan.pid"
	for m in tmp dev sys proc; do
		while grep -q " $root/$m " "$proc/mounts" 2>/dev/null; do
			umount -l "$root/$m" 2>/dev/null || break
		done
	done
}

stop() {
	[ $# -eq 1 ] || die "stop wants ROOT"
	stop_plan "$1"
	pid=$(cat "$here/console.pid" 2>/dev/null)
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || :
	rm -f "$here/console.pid"
}

command=${1:-}
[ $# -eq 0 ] || shift
case $command in
boot-id) cat "$proc/sys/kernel/random/boot_id" ;;
version) cat "$proc/version" ;;
dmesg) dmesg ;;
identity) identity ;;
busy) busy "$@" ;;
kexec) do_kexec "$@" ;;
unpack) unpack "$@" ;;
run) run "$@" ;;
console) console "$@" ;;
stop) stop "$@" ;;
*) die "unknown command '$command' (boot-id, version, dmesg, identity, busy, kexec, unpack, run, console, stop)" ;;
esac
