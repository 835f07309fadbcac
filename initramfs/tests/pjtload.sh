#!/bin/sh
# Guest suite for pjtload: each mode runs about a second and reports sane
# values; a pinned duty=100 thread neither overruns nor migrates; bad
# options exit 2 with a message. Runs on the host too:
#   PJTLOAD=build/pjtload sh initramfs/tests/pjtload.sh
# Timing is never asserted: only what follows from the loop's logic (counts
# positive, percentiles ordered, the periods the clock allowed).
set -u
pjtload=${PJTLOAD:-pjtload}
tmp=$(mktemp -d /tmp/pjtload-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
# Private calibration cache: the real one (/tmp/pjtload.calib) is left alone.
export PJTLOAD_CALIB="$tmp/calib"
n=0
failed=0

pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; failed=1; }
check() { desc=$1; shift; if "$@"; then pass "$desc"; else fail "$desc"; echo "#   $line"; fi; }

value() {
	printf '%s\n' "$2" | head -n 1 | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1
}

# run ARGS...: runs pjtload, its first line in $line, all of stdout in $out.
run() {
	out=$("$pjtload" "$@" 2>"$tmp/err")
	status=$?
	line=$(printf '%s\n' "$out" | head -n 1)
	if [ $status -ne 0 ]; then
		echo "# pjtload $* exited $status: $(cat "$tmp/err")"
	fi
	sed 's/^/# stderr: /' "$tmp/err"
}

# positive KEY: a number above 0. nonneg KEY: 0 or above, or empty with a
# reason on stderr (perf_event_open may be missing).
positive() { v=$(value "$1" "$line"); [ -n "$v" ] && awk -v v="$v" 'BEGIN { exit !(v + 0 > 0) }'; }
nonneg() {
	v=$(value "$1" "$line")
	if [ -z "$v" ]; then
		grep -q "$1 left empty" "$tmp/err"
	else
		awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9]+$/) }'
	fi
}
is_zero() { [ "$(value "$1" "$line")" = 0 ]; }
ordered() {
	printf '%s\n' "$line" | awk '
		{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		END {
			n = split("wakeup_p50_us wakeup_p90_us wakeup_p99_us wakeup_p999_us wakeup_max_us", k, " ")
			for (i = 1; i <= n; i++) if (v[k[i]] == "") exit 1
			for (i = 2; i <= n; i++) if (v[k[i]] + 0 < v[k[i - 1]] + 0) exit 1
			exit !(v[k[1]] + 0 >= 0)
		}'
}
# boundaries THREADS DURATION_MS PERIOD_MS: periods done plus periods
# overrun is one per period boundary for each thread; the run covers
# ceil(duration/period) boundaries, so this is exact, not timing.
boundaries() {
	p=$(value periods "$line") o=$(value overruns "$line")
	[ -n "$p" ] && [ -n "$o" ] && [ $((p + o)) -eq $(($1 * (($2 + $3 - 1) / $3))) ]
}

echo "# duty: 4 threads, duty 50, 10ms periods, 1s"
run duty threads=4 duty=50 period=10ms duration=1s per_thread=1
check "duty exits 0" [ $status -eq 0 ]
check "duty: records > 0" positive records
check "duty: records_per_s > 0" positive records_per_s
check "duty: periods > 0" positive periods
check "duty: periods + overruns = 4 threads x 100 boundaries" boundaries 4 1000 10
check "duty: wake-up percentiles present and ordered" ordered
check "duty: migrations >= 0" nonneg migrations
check "duty: nr_migrations >= 0" nonneg nr_migrations
check "duty: no calibration, rate_fraction empty" [ -z "$(value rate_fraction "$line")" ]
check "duty: 4 top_cpus" [ "$(value top_cpus "$line" | tr ',' '\n' | grep -c '^[0-9]')" -eq 4 ]
check "duty per_thread=1: lines thread=0..3" \
	[ "$(printf '%s\n' "$out" | sed -n '2,$s/ .*//p' | tr '\n' ' ')" = "thread=0 thread=1 thread=2 thread=3 " ]
sum=$(printf '%s\n' "$out" | awk -F'records=' 'NR > 1 { split($2, a, " "); s += a[1] } END { print s + 0 }')
check "duty: per-thread records add up to the total" [ "$sum" = "$(value records "$line")" ]

echo "# duty: one thread pinned to CPU 0, duty 100 (100ms periods: a gap of a"
echo "# whole period would be needed for an overrun)"
run duty threads=1 duty=100 period=100ms duration=1s cpus=0 per_thread=1
check "pinned duty=100 exits 0" [ $status -eq 0 ]
check "pinned duty=100: zero overruns" is_zero overruns
check "pinned duty=100: 10 periods" [ "$(value periods "$line")" = 10 ]
if [ -n "$(value migrations "$line")" ]; then
	check "pinned duty=100: zero perf migrations" is_zero migrations
else
	n=$((n + 1))
	echo "ok $n # SKIP pinned duty=100 perf migrations: $(cat "$tmp/err")"
fi
check "pinned duty=100: zero se.nr_migrations" is_zero nr_migrations
check "pinned duty=100: ran on CPU 0" [ "$(value top_cpus "$line")" = 0 ]

echo "# duty: memory intensive working set"
run duty threads=2 duty=20 wss=8m duration=1s
check "duty wss=8m: records > 0" positive records
check "duty wss=8m: periods + overruns = 2 x 100" boundaries 2 1000 10

echo "# calibrate and rate_fraction"
run calibrate duration=1s cpus=0
check "calibrate exits 0" [ $status -eq 0 ]
check "calibrate: calib_records_per_s > 0" positive calib_records_per_s
check "calibrate: cache written" grep -q "^wss=16384 records_per_check=[0-9]* calib_records_per_s=" "$PJTLOAD_CALIB"
run duty threads=2 duty=25 duration=1s
check "duty after calibrate: rate_fraction > 0" positive rate_fraction
check "duty after calibrate: rate_fraction <= 1 (by construction, rate.h)" \
	awk -v f="$(value rate_fraction "$line")" 'BEGIN { exit !(f != "" && f <= 1) }'
check "duty after calibrate: uncontended rate >= the calibration" \
	awk -v u="$(value uncontended_records_per_s "$line")" -v c="$(value calib_records_per_s "$line")" \
	'BEGIN { exit !(u != "" && u + 0 >= c + 0) }'
check "duty after calibrate: calib_records_per_s from the cache" \
	[ "$(value calib_records_per_s "$line")" = "$(sed -n "s/.* calib_records_per_s=//p" "$PJTLOAD_CALIB")" ]
check "duty after calibrate: the same records_per_check" \
	[ "$(value records_per_check "$line")" = "$(sed -n "s/^wss=16384 records_per_check=\\([0-9]*\\) .*/\\1/p" "$PJTLOAD_CALIB")" ]

for via in pipe futex; do
	echo "# pingpong via=$via"
	run pingpong pairs=2 via=$via duration=1s
	check "pingpong $via exits 0" [ $status -eq 0 ]
	check "pingpong $via: ops_per_s > 0" positive ops_per_s
	check "pingpong $via: round_trips > 0" positive round_trips
	check "pingpong $via: wake-up percentiles present and ordered" ordered
	check "pingpong $via: 2 wake-ups per round trip" \
		[ "$(value wakeup_samples "$line")" -eq $((2 * $(value round_trips "$line"))) ]
	check "pingpong $via: migrations >= 0" nonneg migrations
	check "pingpong $via: nr_migrations >= 0" nonneg nr_migrations
done

echo "# fork"
run fork rate=200 duration=1s
check "fork exits 0" [ $status -eq 0 ]
check "fork: forks > 0" positive forks
check "fork rate=200: never more than 200 forks in 1s" [ "$(value forks "$line")" -le 200 ]
check "fork: ops_per_s > 0" positive ops_per_s
children=$(value child_cpus "$line" | tr ',' '\n' | awk -F: '{ s += $2 } END { print s + 0 }')
check "fork: child_cpus counts every child" [ "$children" = "$(value forks "$line")" ]
check "fork: migrations >= 0" nonneg migrations
run fork rate=0 duration=1s cpus=0
check "fork as fast as possible: forks > 0" positive forks
check "fork cpus=0: every child ran on CPU 0" [ "$(value child_cpus "$line")" = "0:$(value forks "$line")" ]

echo "# bad options: exit 2 with a message naming the option"
for bad in "duty duty=0" "duty duty=101" "duty period=0ms" "duty threads=4000000000" \
	"duty bogus=1" "duty duty=10x" "duty wss=abc" "pingpong via=tcp" "fork rate=-1" "spin"; do
	name=$(printf '%s\n' "$bad" | sed 's/^[a-z]* //; s/=.*//')
	# shellcheck disable=SC2086
	"$pjtload" $bad >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ $status -eq 2 ] && grep -q "$name" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		pass "'pjtload $bad' refused: $(head -n 1 "$tmp/err")"
	else
		fail "'pjtload $bad' refused with exit 2 naming $name"
		echo "#   exit $status: $(cat "$tmp/err")"
	fi
done
exit $failed
