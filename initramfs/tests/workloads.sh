#!/bin/sh
# Guest suite: matrix runs of other people's tools end near their duration
# and fill their columns from the tool's own output.  hackbench and perf
# bench repeat whole invocations until the duration is up; cyclictest takes
# it (-D) and gives wake-up latency from its histogram; rt-app stops at its
# JSON's duration and gives its rate and slack from its own logs.  Timing
# bounds are wide: TCG on a busy host stretches an invocation of groups=1
# loops=10 from under 1 s to several; the point is that the run is bounded
# by its duration, not by the tool's loops.  perf is only in the perf image
# (PERF=1 initramfs/build-image): without it its checks are skipped.
set -u
tmp=$(mktemp -d /tmp/workloads-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; echo "#   $3"; fi
}
uptime_s() { cut -d' ' -f1 /proc/uptime; }
columns="seq duration_s overruns wakeup_p50_us wakeup_p99_us wakeup_max_us ops_per_s wakeup_min_us wakeup_avg_us slack_p50_us status"
# cell NAME: the column of the last row
cell() { echo "$row" | awk -F, -v c="$1" -v names="$columns" '{ n = split(names, k, " "); for (i = 1; i <= n; i++) if (k[i] == c) print $i }'; }

# One matrix_run as a plan would call it, 2 s, with the columns above.
run() {
	start=$(uptime_s)
	row=$(PJT_BITS=PJT_BUSIEST PJT_COLUMNS="$columns" PJT_WORK="$tmp/work" PJT_RUN_FILES="$tmp/files" sh -c '
		. /usr/lib/pjt/matrix-exec.sh
		matrix_settings 2000 0
		[ ! -f "$0" ] || matrix_file w1-peer.json peer.json < "$0"
		matrix_run 1 1x4x1 stock none 1 "$@"' "$tmp/peer.json" "$@" 2>"$tmp/err" | sed -n 's/^ROW //p')
	wall=$(awk -v a="$start" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }')
	said="row '$row', $wall s end to end; $(tr '\n' ' ' < "$tmp/err")"
	echo "# $*: $said"
}
positive() { awk -v v="$(cell "$1")" 'BEGIN { exit !(v != "" && v > 0) }'; }

# bounded NAME: ok, at least 2 s measured (perf's duration_s is its own
# time, start-ups left out: the wall time then), ended within 40 s
bounded() {
	tool=$1
	check "$1 at 2 s: the run is ok" '[ "$(cell status)" = ok ]' "$said"
	check "$1 at 2 s: it measured at least the duration" \
		'case $tool in perf-*) d=$wall ;; *) d=$(cell duration_s) ;; esac; awk -v d="$d" "BEGIN { exit !(d >= 2) }"' "$said"
	check "$1 at 2 s: the run ended within 40 s (one invocation late at most)" \
		'awk -v w="$wall" "BEGIN { exit !(w < 40) }"' "$said"
}

run hackbench groups=1 loops=10
bounded hackbench
check "hackbench at 2 s: ops_per_s above 0" 'positive ops_per_s' "$said"

if command -v perf > /dev/null; then
	for w in "perf-messaging groups=1 loops=10" "perf-pipe loops=500"; do
		run $w
		bounded "${w%% *}"
		check "${w%% *} at 2 s: ops_per_s above 0 (perf's own time and count)" 'positive ops_per_s' "$said"
	done
else
	n=$((n + 1)); echo "ok $n - # SKIP perf-messaging, perf-pipe: no perf in this image (the perf image has it)"
fi

run cyclictest threads=2 interval=1000us
bounded cyclictest
check "cyclictest at 2 s: wake-up min <= p50 <= p99 <= max, avg filled, from its histogram" \
	'awk -v a="$(cell wakeup_min_us)" -v b="$(cell wakeup_p50_us)" -v c="$(cell wakeup_p99_us)" -v d="$(cell wakeup_max_us)" -v e="$(cell wakeup_avg_us)" \
		"BEGIN { exit !(a != \"\" && e != \"\" && a + 0 <= b + 0 && b + 0 <= c + 0 && c + 0 <= d + 0) }"' "$said"

printf '{ "global": { "duration": 2, "calibration": 100 }, "tasks": { "t": { "instance": 2, "loop": -1, "run": 1000, "timer": { "ref": "unique", "period": 10000 } } } }\n' > "$tmp/peer.json"
run rt-app peer.json
check "rt-app at 2 s: the run is ok" '[ "$(cell status)" = ok ]' "$said"
check "rt-app at 2 s: ops_per_s, its activations per second, from its logs (2 threads x 100/s asked)" \
	'awk -v o="$(cell ops_per_s)" "BEGIN { exit !(o > 20 && o <= 201) }"' "$said"
check "rt-app at 2 s: slack p50 and overruns from its logs" \
	'[ -n "$(cell slack_p50_us)" ] && [ -n "$(cell overruns)" ]' "$said"
