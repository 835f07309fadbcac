#!/bin/sh
# run/tests/test-faults.sh: run/matrix under host-side faults, with the fake
# boot of the host tests (run/tests/fixtures/matrix/fake-boot, no QEMU: the
# plan's shell stands for the guest) and a fake pjtload that takes a second
# a run.
#   - a second run/matrix on a folder in use: refused, holders' pids named
#   - run/matrix SIGKILLed mid-boot: its boot and guest die with it; a
#     --resume refuses while a guest of the folder runs, then completes:
#     the rows kept, no seq twice
#   - the same through run/boot, QEMU a stand-in on PATH: run/boot and
#     QEMU die with run/matrix
#   - the guest killed from outside: its run crashed, the next boot goes on
#   - a row's write cut short part-way (a file-size limit): the part
#     written taken back, a clear error, --resume completes
#   - the results folder's filesystem filled while runs are appended (a
#     small tmpfs in a mount namespace of the test's own; skipped where one
#     cannot be made): a clear error, no torn row, --resume completes once
#     the space is back
# TAP-ish output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/run/tests/fixtures
. "$fixtures/tap.sh"
tap_begin test-faults
matrix=$top/run/matrix
make -s -f "$top/run/matrix.mk" TOP="$top" BUILD="$top/build" matrix-tools >"$tmp/make.log" 2>&1 ||
	{ echo "not ok 1 - build/matrix-plan builds"; sed 's/^/# /' "$tmp/make.log"; exit 1; }

guest=$tmp/guest
mkdir -p "$guest/bin"
printf '#!/bin/sh\nsleep 1\necho mode=fork duration_s=0.1 migrations=3 nr_migrations=4 ops_per_s=100\n' >"$guest/bin/pjtload"
chmod +x "$guest/bin/pjtload"
export PJT_MATRIX_BOOT="$fixtures/matrix/fake-boot" FAKE_GUEST="$guest"
# what a killed run/matrix leaves in its mktemp folder goes with $tmp
export TMPDIR="$tmp"
echo kernel >"$tmp/bzImage"
echo image >"$tmp/image"
# 4 runs, 2 boots of 2 (g.matrix: 6 runs, 3 boots)
cat >"$tmp/f.matrix" <<'EOF'
name faults
settle 0
duration 100ms
reps 4
boots 2
seed 3
combo stock
workload fork rate=10
EOF
sed 's/^reps 4$/reps 6/; s/^boots 2$/boots 3/' "$tmp/f.matrix" >"$tmp/g.matrix"
start() { # start DIR: run/matrix on f.matrix into DIR, in the background ($!)
	"$matrix" --no-report --kernel "$tmp/bzImage" --initrd "$tmp/image" --out "$1" "$tmp/f.matrix" \
		>/dev/null 2>"$1.err" &
}
rows() { echo $(($(wc -l <"$1/runs.csv") - 1)); }
# A run has begun in the newest boot and has no row yet.
in_run() {
	b=$(ls "$1" 2>/dev/null | sed -n 's/^results-\([0-9]*\)\.log$/\1/p' | sort -n | tail -n 1)
	[ -n "$b" ] || return 1
	s=$(sed -n 's/^RUN-BEGIN seq=\([0-9]*\) .*/\1/p' "$1/results-$b.log" | tail -n 1)
	[ -n "$s" ] && ! awk -F, -v s="$s" 'NR > 1 && $1 == s { f = 1 } END { exit !f }' "$1/runs.csv"
}
# Every row of DIR/runs.csv whole (the header's field count, a newline at
# the end), no seq twice.
whole() {
	awk -F, 'NR == 1 { n = NF; next } NF != n { print "torn row " NR ": " $0; bad = 1 } END { exit bad }' "$1/runs.csv" &&
		[ "$(tail -c 1 "$1/runs.csv" | od -An -c | tr -d ' ')" = '\n' ] &&
		[ -z "$(awk -F, 'NR > 1 { print $1 }' "$1/runs.csv" | sort | uniq -d)" ]
}
# ... and every seq of the plan there.
complete() {
	whole "$1" && [ "$(awk -F, 'NR > 1 { print $1 }' "$1/runs.csv" | sort -n)" = "$(awk -F'\t' '$1 == "run" { print $2 }' "$1/plan.txt" | sort -n)" ]
}
# gone PID...: none of them runs (a zombie not yet reaped does not)
gone() {
	for p; do
		[ "$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)" = Z ] || ! kill -0 "$p" 2>/dev/null || return 1
	done
}
ended() { # ended RC ERR DIR: exit RC was 0 (ERR's last lines shown), DIR complete
	tail -n 3 "$2"
	[ "$1" = 0 ] && complete "$3"
}

# ---- a second run/matrix on a folder in use --------------------------------
d=$tmp/inuse
start "$d"
first=$!
wait_until 90 in_run "$d"
guest_pid=$(cat "$d/guest.pid" 2>/dev/null)
"$matrix" --no-report --resume "$d" >/dev/null 2>"$tmp/second.err"
rc=$?
check "a second run/matrix (--resume) on a folder in use: exit 5, run/matrix's pid $first named as a holder of the lock" \
	sh -c "cat '$tmp/second.err'; [ $rc = 5 ] && grep -q 'is in use ($d/matrix.lock is locked); refused' '$tmp/second.err' &&
	       grep -q '^run/matrix:   pid $first .*run/matrix' '$tmp/second.err'"
check "... and so is its guest (pid $guest_pid), which holds the lock too while it runs" \
	grep -q "^run/matrix:   pid $guest_pid " "$tmp/second.err"
wait "$first"
rc=$?
check "the first run/matrix finishes undisturbed: exit 0, every seq once, rows whole" ended "$rc" "$d.err" "$d"
check "... and the second one wrote nothing there" sh -c "! grep -q 'resum' '$d/host.txt'"

# ---- run/matrix SIGKILLed mid-boot, then --resume --------------------------
d=$tmp/killed
start "$d"
runner=$!
wait_until 90 sh -c "[ \$(wc -l <'$d/runs.csv') -ge 3 ] && [ -s '$d/guest.pid' ]" 2>/dev/null
wait_until 45 in_run "$d"
guest_pid=$(cat "$d/guest.pid")
boot_pid=$(ps -o ppid= -p "$guest_pid" | tr -d ' ')
kill -KILL "$runner"
wait "$runner" 2>/dev/null
cp "$d/runs.csv" "$tmp/killed-rows.csv"
wait_until 30 gone "$guest_pid" "$boot_pid"
check "SIGKILL mid-run: the boot (pid $boot_pid) and its guest (pid $guest_pid) died with run/matrix" gone "$guest_pid" "$boot_pid"
# The fake guest's own children (a workload stand-in, its sleep) outlive it
# for up to a second, holding the folder's lock they inherited; a real
# guest is one QEMU process.  Wait for them, so that what follows meets
# only the guest started next.
wait_until 45 flock -n "$d/matrix.lock" true
kept=$(rows "$d")
# A guest that outlived its runner (started here by hand, as a run/matrix
# without setpriv would have left it): its pid in guest.pid, its plan in DIR.
setsid "$PJT_MATRIX_BOOT" --kernel "$tmp/bzImage" --initrd "$tmp/image" --plan "$d/plan-boot-1.sh" --results "$tmp/orphan.results" \
	--console "$tmp/orphan.console" --pidfile "$d/guest.pid" >/dev/null 2>&1 &
orphan_boot=$!
wait_until 45 sh -c "[ \"\$(cat '$d/guest.pid' 2>/dev/null)\" != '$guest_pid' ] && [ -s '$d/guest.pid' ]"
orphan=$(cat "$d/guest.pid")
"$matrix" --no-report --resume "$d" >/dev/null 2>"$tmp/orphan.err"
rc=$?
check "--resume while a guest of the folder runs (pid $orphan in guest.pid): exit 5, the guest named" \
	sh -c "cat '$tmp/orphan.err'; [ $rc = 5 ] && grep -q 'a guest of $d still runs: pid $orphan (' '$tmp/orphan.err' &&
	       cmp -s '$d/runs.csv' '$tmp/killed-rows.csv'"
kill -TERM "-$orphan_boot" 2>/dev/null
wait "$orphan_boot" 2>/dev/null
wait_until 30 gone "$orphan"
"$matrix" --no-report --resume "$d" >/dev/null 2>"$tmp/resume.err"
rc=$?
check "--resume once no guest runs: exit 0, every seq exactly once, rows whole" ended "$rc" "$tmp/resume.err" "$d"
check "no finished run lost: the $kept rows from before the kill are the first rows, unchanged" \
	sh -c "[ $kept -ge 2 ] && head -n $((kept + 1)) '$d/runs.csv' | cmp - '$tmp/killed-rows.csv'"

# The same through run/boot itself, its QEMU a stand-in on PATH that
# sleeps (nothing boots): run/matrix SIGKILLed, run/boot and QEMU die too.
mkdir "$tmp/qemu"
printf '#!/bin/sh\n[ "$1" != --version ] || { echo "QEMU stand-in"; exit 0; }\nexec sleep 300\n' >"$tmp/qemu/qemu-system-x86_64"
chmod +x "$tmp/qemu/qemu-system-x86_64"
d=$tmp/realboot
env -u PJT_MATRIX_BOOT PATH="$tmp/qemu:$PATH" "$matrix" --no-report --kernel "$tmp/bzImage" --initrd "$tmp/image" \
	--out "$d" "$tmp/f.matrix" >/dev/null 2>"$d.err" &
runner=$!
wait_until 90 test -s "$d/guest.pid"
qemu_pid=$(cat "$d/guest.pid")
boot_pid=$(ps -o ppid= -p "$qemu_pid" | tr -d ' ')
check "run/boot (pid $boot_pid) started the QEMU stand-in (pid $qemu_pid)" \
	sh -c "ps -o args= -p $boot_pid | grep -q 'run/boot ' && ps -o args= -p $qemu_pid | grep -q '^sleep 300'"
kill -KILL "$runner"
wait "$runner" 2>/dev/null
wait_until 30 gone "$qemu_pid" "$boot_pid"
check "SIGKILL of run/matrix: run/boot and its QEMU died with it" gone "$qemu_pid" "$boot_pid"
gone "$qemu_pid" "$boot_pid" || kill -KILL "$qemu_pid" "$boot_pid" 2>/dev/null # only if the check failed

# ---- the guest killed from outside -----------------------------------------
d=$tmp/shot
start "$d"
runner=$!
wait_until 90 in_run "$d"
shot_seq=$(sed -n 's/^RUN-BEGIN seq=\([0-9]*\) .*/\1/p' "$d"/results-*.log | tail -n 1)
shot_boot=$(ls "$d" | sed -n 's/^results-\([0-9]*\)\.log$/\1/p' | sort -n | tail -n 1)
kill -KILL "$(cat "$d/guest.pid")"
wait "$runner"
rc=$?
status_of() { awk -F, -v s="$1" 'NR > 1 && $1 == s { print $NF }' "$d/runs.csv"; }
check "guest killed in seq $shot_seq (boot $shot_boot): run/matrix goes on, exit 0, every seq once" ended "$rc" "$d.err" "$d"
check "... seq $shot_seq is crashed (its console kept in crash-$shot_seq.log), the 3 others ok" \
	sh -c "grep 'seq $shot_seq recorded as crashed' '$d.err' && [ '$(status_of "$shot_seq")' = crashed ] && [ -e '$d/crash-$shot_seq.log' ] &&
	       [ \$(awk -F, 'NR > 1 && \$NF == \"ok\"' '$d/runs.csv' | wc -l) = 3 ]"
check "... and a boot after boot $shot_boot ran the rest" \
	sh -c "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"boot\") c = i; next } \$c > $shot_boot { f = 1 } END { exit !f }' '$d/runs.csv'"

# ---- a row's write cut short -----------------------------------------------
# A file-size limit inside runs.csv's 5th row (prlimit --fsize, SIGXFSZ
# ignored): its write stops part-way, as one stops on a full disk.
d=$tmp/cut
limit=$(($(head -n 1 "$tmp/inuse/runs.csv" | wc -c) + $(sed -n 2p "$tmp/inuse/runs.csv" | wc -c) * 9 / 2))
# stderr through a pipe, which the limit does not cut
(
	trap '' XFSZ
	prlimit --fsize="$limit" "$matrix" --no-report --kernel "$tmp/bzImage" --initrd "$tmp/image" \
		--out "$d" "$tmp/g.matrix" 2>&1 >/dev/null
	echo $? >"$tmp/cut.rc"
) | cat >"$d.err"
rc=$(cat "$tmp/cut.rc")
check "a row's write cut short (files limited to $limit bytes): exit 1, runs.csv and the seq named, how to resume said" \
	sh -c "cat '$d.err'; [ $rc = 1 ] && grep -q '^run/matrix: $d/runs.csv: appending seq [0-9]*.s row failed' '$d.err' &&
	       grep -q 'resume with: run/matrix --resume $d' '$d.err'"
cut_whole() { [ "$(wc -l <"$d/runs.csv")" = 5 ] && whole "$d"; }
check "... the part of the row written is taken back: 4 rows, each whole" cut_whole
"$matrix" --no-report --resume "$d" >/dev/null 2>"$tmp/cut-resume.err"
check "... --resume (no limit) completes: exit 0, every seq exactly once" ended "$?" "$tmp/cut-resume.err" "$d"

# ---- the results folder's filesystem fills up ------------------------------
# In a mount namespace of its own (as root; else in a user namespace) the
# test mounts a 3 MB tmpfs, starts the matrix on it, fills it once two rows
# are in, then frees it and resumes; the folder is copied out at each step.
if [ "$(id -u)" = 0 ]; then ns='unshare -m'; else ns='unshare -r -m'; fi
mnt=$tmp/small
mkdir "$mnt"
cat >"$tmp/full.sh" <<EOF
mount -t tmpfs -o size=3m pjt-test-faults '$mnt' || exit 99
d='$mnt/res'
'$matrix' --no-report --kernel '$tmp/bzImage' --initrd '$tmp/image' --out "\$d" '$tmp/f.matrix' >/dev/null 2>'$tmp/full.err' &
runner=\$!
polls=60
until [ "\$(wc -l <"\$d/runs.csv" 2>/dev/null || echo 0)" -ge 3 ] || [ \$polls = 0 ]; do sleep 0.5; polls=\$((polls - 1)); done
head -c 4M /dev/zero >'$mnt/filler' 2>/dev/null
df -k '$mnt' | tail -n 1 >'$tmp/full.df'
wait \$runner
echo \$? >'$tmp/full.rc'
cp -a "\$d" '$tmp/full-stopped'
rm '$mnt/filler'
'$matrix' --no-report --resume "\$d" >/dev/null 2>'$tmp/full-resume.err'
echo \$? >'$tmp/full-resume.rc'
cp -a "\$d" '$tmp/full-resumed'
EOF
$ns sh "$tmp/full.sh" 2>"$tmp/full.sh.err"
if [ $? = 99 ] || [ ! -s "$tmp/full.rc" ]; then
	sed 's/^/# /' "$tmp/full.sh.err"
	skip "disk full: no tmpfs in a mount namespace here ($ns)"
else
	check "disk full (tmpfs filled: $(awk '{ print $4 " KB free" }' "$tmp/full.df")): run/matrix stops, exit 1, naming the folder, the free space and how to resume" \
		sh -c "cat '$tmp/full.err'; [ \$(cat '$tmp/full.rc') = 1 ] &&
		       grep -q '^run/matrix: $mnt/res: [0-9]* KB free on its filesystem, less than the 1024 KB a boot needs' '$tmp/full.err' &&
		       grep -q 'resume with: run/matrix --resume $mnt/res' '$tmp/full.err'"
	stopped_whole() { [ "$(wc -l <"$tmp/full-stopped/runs.csv")" -ge 3 ] && whole "$tmp/full-stopped"; }
	check "... no torn row: every row of runs.csv whole, at least the 2 from before, no seq twice" stopped_whole
	check "--resume once the space is back: exit 0, every seq exactly once" ended "$(cat "$tmp/full-resume.rc")" "$tmp/full-resume.err" "$tmp/full-resumed"
	check "... the rows from before the disk filled kept, unchanged" \
		sh -c "head -n \$(wc -l <'$tmp/full-stopped/runs.csv') '$tmp/full-resumed/runs.csv' | cmp - '$tmp/full-stopped/runs.csv'"
fi
tap_end
