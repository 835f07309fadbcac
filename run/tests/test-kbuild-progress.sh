#!/bin/sh
# run/tests/test-kbuild-progress.sh: run/kernel's build progress
# (run/lib/kbuild-progress.sh) on fake object trees; no kernel is built.
# The line's arithmetic (done of total, percent, what is left at the rate
# so far), the counts from a tree, the recorded total and its fallback,
# and the watcher: a line every PJT_PROGRESS_S seconds while a fake build
# writes objects, none once it is killed or its parent is gone.
# Host only, no QEMU; TAP-ish output ("ok N - ...").
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/run/tests/fixtures/tap.sh"
. "$top/run/lib/kbuild-progress.sh"
tap_begin test-kbuild-progress

# line_is "WANTED" ARGS...: kbuild_progress_line ARGS prints WANTED
line_is() {
	want=$1
	shift
	got=$(kbuild_progress_line "$@")
	[ "$got" = "$want" ] || { echo "got:    $got"; echo "wanted: $want"; return 1; }
}
check "a cold build: 300 of 1200 objects in 60 s, so about 3 min left for the other 900" \
	line_is "300 of 1200 objects (25%), 1m00s elapsed, about 3m00s left" 300 300 1200 60
check "a cold build resumed: 150 compiled now beside 450 kept, 1200 in all: the rate is the compiled ones'" \
	line_is "600 of 1200 objects (50%), 1m30s elapsed, about 6m00s left" 150 600 1200 90
check "nothing compiled yet: the share present, no estimate" \
	line_is "0 of 1200 objects (0%), 0m10s elapsed" 0 0 1200 10
check "an incremental build (every object present): the count compiled, no percentage" \
	line_is "35 objects compiled, 0m20s elapsed (all 1200 present: linking, or an incremental build)" 35 1200 1200 20
check "no recorded total (the first build): the count and the time, no percentage" \
	line_is "412 objects compiled, 2m05s elapsed (no total: the first build of this tree)" 412 412 "" 125
check "an hour and more is written with hours" \
	line_is "100 of 4000 objects (2%), 1h00m00s elapsed, about 39h00m00s left" 100 100 4000 3600

# A fake object tree: 6 objects of an earlier build, then the marker, then 4 new.
obj=$tmp/obj
mkdir -p "$obj/kernel/sched" "$obj/mm"
for o in a b c kernel/x kernel/sched/fair mm/slab; do : >"$obj/$o.o"; touch -d '1 hour ago' "$obj/$o.o"; done
touch -d '1 minute ago' "$obj/.pjt-build-start" # -newer is strict: not the same tick as the new ones
for o in kernel/sched/core kernel/y mm/z d; do : >"$obj/$o.o"; done
: >"$obj/built-in.a"
check "kbuild_count: 10 objects in the tree (*.o only), 4 newer than the marker" \
	sh -c ". '$top/run/lib/kbuild-progress.sh'; [ \$(kbuild_count '$obj') = 10 ] && [ \$(kbuild_count '$obj' '$obj/.pjt-build-start') = 4 ]"
mkdir -p "$tmp/fresh" "$tmp/default"
check "no tree has a recorded total: kbuild_total is empty" \
	sh -c ". '$top/run/lib/kbuild-progress.sh'; [ -z \"\$(kbuild_total '$tmp/fresh' '$tmp/default')\" ]"
kbuild_record_total "$obj"
check "kbuild_record_total: the tree's objects, 10" test "$(cat "$obj/.pjt-objects")" = 10
cp "$obj/.pjt-objects" "$tmp/default/"
echo 12 >"$tmp/fresh/.pjt-objects.other"
check "a fresh tree takes the first other tree's total" test "$(kbuild_total "$tmp/fresh" "$tmp/default")" = 10
echo 12 >"$tmp/fresh/.pjt-objects"
check "a tree's own total first" test "$(kbuild_total "$tmp/fresh" "$tmp/default")" = 12

# The watcher, every second, over a fake build of 20 objects writing one
# every 0.2 s into an empty tree; its lines on stderr (a file: no terminal).
watch=$tmp/watch
mkdir -p "$watch"
touch -d '1 minute ago' "$watch/.pjt-build-start"
PJT_PROGRESS_S=1 kbuild_progress_watch "$watch" "$watch/.pjt-build-start" 20 $$ 2>"$tmp/watch.err" &
watcher=$!
i=0
while [ $i -lt 20 ]; do i=$((i + 1)); : >"$watch/o$i.o"; sleep 0.2; done
sleep 1.2
kill "$watcher"
wait "$watcher" 2>/dev/null
lines=$(wc -l <"$tmp/watch.err")
check "the watcher: a line a second while the fake build runs (3 to 6 in 4-5 s), 'run/kernel: N of 20 objects (P%)' or, all there, 'N objects compiled'" \
	sh -c "cat '$tmp/watch.err'; [ $lines -ge 3 ] && [ $lines -le 6 ] &&
	       ! grep -Ev '^run/kernel: ([0-9]+ of 20 objects \([0-9]+%\)|20 objects compiled), 0m0[0-9]s elapsed' '$tmp/watch.err'"
check "... its counts rise, and the last line says all 20 are there" \
	sh -c "awk '{ n = \$2 + 0 } n < last { exit 1 } { last = n }' '$tmp/watch.err' && tail -n 1 '$tmp/watch.err' | grep -q '^run/kernel: 20 objects compiled, .*(all 20 present'"
sleep 1.5
check "... and writes nothing once killed" test "$(wc -l <"$tmp/watch.err")" = "$lines"
# Its parent gone (run/kernel killed by set -e or a signal), it ends by itself.
sh -c 'sleep 2' &
parent=$!
PJT_PROGRESS_S=1 kbuild_progress_watch "$watch" "$watch/.pjt-build-start" 20 "$parent" 2>/dev/null &
orphan=$!
sleep 3.5
check "the watcher ends by itself once its parent is gone" sh -c "! kill -0 $orphan 2>/dev/null"
kill "$orphan" 2>/dev/null

# run/kernel's build() runs it around kbuild and records the total after.
check "run/kernel sources run/lib/kbuild-progress.sh, watches each build and records its total" \
	sh -c "grep -q '^\\. \"\$top/run/lib/kbuild-progress.sh\"' '$top/run/kernel' &&
	       sed -n '/^build() {/,/^}/p' '$top/run/kernel' | grep -q 'kbuild_progress_watch' &&
	       sed -n '/^build() {/,/^}/p' '$top/run/kernel' | grep -q 'kbuild_record_total'"

tap_end
