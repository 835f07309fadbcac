#!/bin/sh
# Guest suite: a matrix run of hackbench ends near its duration (the
# executor repeats whole invocations until it is up) and reports a rate.
# Timing bounds are wide: TCG on a busy host stretches an invocation of
# groups=1 loops=10 from under 1 s to several; the point is that the run
# is bounded by its duration, not by hackbench's loops.
set -u
tmp=$(mktemp -d /tmp/workloads-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; echo "#   $3"; fi
}
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# One matrix_run as a plan would call it, with the columns it needs.
start=$(uptime_s)
row=$(PJT_BITS=PJT_BUSIEST PJT_COLUMNS="seq duration_s ops_per_s status" \
	PJT_WORK="$tmp/work" PJT_RUN_FILES="$tmp/files" sh -c '
	. /usr/lib/pjt/matrix-exec.sh
	matrix_settings 2000 0
	matrix_run 1 1x4x1 stock none 1 hackbench groups=1 loops=10' 2>"$tmp/err" | sed -n 's/^ROW //p')
wall=$(awk -v a="$start" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }')
duration=$(echo "$row" | cut -d, -f2)
ops=$(echo "$row" | cut -d, -f3)
status=$(echo "$row" | cut -d, -f4)
said="row '$row', $wall s end to end; $(tr '\n' ' ' < "$tmp/err")"

check "hackbench at 2 s: the run is ok" '[ "$status" = ok ]' "$said"
check "hackbench at 2 s: it measured at least the duration" \
	'awk -v d="$duration" "BEGIN { exit !(d >= 2) }"' "$said"
check "hackbench at 2 s: the run ended within 40 s (one invocation late at most)" \
	'awk -v w="$wall" "BEGIN { exit !(w < 40) }"' "$said"
check "hackbench at 2 s: ops_per_s above 0" \
	'awk -v o="$ops" "BEGIN { exit !(o > 0) }"' "$said"
echo "# $said"
