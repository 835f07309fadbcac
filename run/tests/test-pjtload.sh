#!/bin/sh
# run/tests/test-pjtload.sh: host unit tests of pjtload's pure parts
# (initramfs/pjtload/: option parsing and every refusal, histogram
# percentiles against hand-computed values, rate arithmetic, the calibration
# cache) through the test driver, plus the real binary's usage and output
# shape with short runs. No timing is asserted.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
driver=$build/pjtload-test
pjtload=$build/pjtload
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
failed=0

pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; failed=1; }

# value KEY LINE: the value of KEY in a key=value line.
value() {
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1
}

# same DESC EXPECTED CMD...: CMD's stdout is EXPECTED.
same() {
	desc=$1 expected=$2
	shift 2
	got=$("$@" 2>"$tmp/err")
	if [ "$got" = "$expected" ]; then
		pass "$desc"
	else
		fail "$desc"
		echo "#   expected: $expected"
		echo "#   got:      $got $(cat "$tmp/err")"
	fi
}

# parsed DESC KEY EXPECTED ARGS...: the driver parses ARGS, KEY is EXPECTED.
parsed() {
	desc=$1 key=$2 expected=$3
	shift 3
	line=$("$driver" parse "$@" 2>&1)
	got=$(value "$key" "$line")
	if [ "$got" = "$expected" ]; then
		pass "$desc"
	else
		fail "$desc"
		echo "#   $key: expected '$expected', got '$got' ($line)"
	fi
}

# refused DESC NAME CMD...: CMD exits 2 with a message naming NAME on stderr.
refused() {
	desc=$1 name=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ $status -eq 2 ] && grep -q -- "$name" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		pass "$desc"
	else
		fail "$desc"
		echo "#   exit $status, stderr: $(cat "$tmp/err")"
	fi
}

if make -s -f "$top/initramfs/pjtload.mk" TOP="$top" BUILD="$build" pjtload pjtload-host-tools >"$tmp/build" 2>&1 &&
	! grep -q warning "$tmp/build"; then
	pass "pjtload and its test driver build without warnings"
else
	fail "pjtload and its test driver build without warnings"
	sed 's/^/#   /' "$tmp/build"
	echo "1..$n"
	exit 1
fi

echo "# option parsing"
parsed "duty defaults to 1 thread" threads 1 duty
parsed "duty defaults to duty=50" duty 50 duty
parsed "period defaults to 10ms" period_ns 10000000 duty
parsed "duration defaults to 1s" duration_ns 1000000000 duty
parsed "wss defaults to 16k" wss 16384 duty
parsed "calibrate runs at duty 100" duty 100 calibrate
parsed "threads=8" threads 8 duty threads=8
parsed "duty=1 is the lowest duty" duty 1 duty duty=1
parsed "duty=100 is the highest duty" duty 100 duty duty=100
parsed "period=500us" period_ns 500000 duty period=500us
parsed "period=1.5ms has a fraction" period_ns 1500000 duty period=1.5ms
parsed "period=250ns" period_ns 250 duty period=250ns
parsed "duration=2s" duration_ns 2000000000 duty duration=2s
parsed "duration=0.25s" duration_ns 250000000 duty duration=0.25s
parsed "wss=8m" wss 8388608 duty wss=8m
parsed "wss=4K" wss 4096 duty wss=4K
parsed "wss=1g" wss 1073741824 duty wss=1g
parsed "wss=65536 (bytes)" wss 65536 duty wss=65536
parsed "seed=42" seed 42 duty seed=42
parsed "cpus=0-2,3 is one range" cpus 0-3 duty cpus=0-2,3
parsed "cpus=3,1 sorted" cpus 1,3 duty cpus=3,1
parsed "cpus absent means no affinity" cpus "" duty
parsed "per_thread=1" per_thread 1 duty per_thread=1
parsed "calibrate=1" calibrate 1 duty calibrate=1
parsed "a key given twice takes its last value" duty 20 duty duty=10 duty=20
parsed "pingpong pairs=3 needs 6 tasks" tasks 6 pingpong pairs=3
parsed "pingpong via=futex" via futex pingpong via=futex
parsed "pingpong via defaults to pipe" via pipe pingpong
parsed "fork rate=200" rate 200 fork rate=200
parsed "fork rate=0 (as fast as possible)" rate 0 fork rate=0
parsed "threads up to the task limit" threads 1000 --task-limit 1000 duty threads=1000

echo "# refusals: exit 2, a message naming the option, nothing on stdout"
refused "no mode" "no mode" "$driver" parse
refused "unknown mode" "unknown mode 'spin'" "$driver" parse spin
refused "duty=0" "duty=0" "$driver" parse duty duty=0
refused "duty=101" "duty=101" "$driver" parse duty duty=101
refused "duty=abc is not a number" "duty=abc: not a number" "$driver" parse duty duty=abc
refused "duty=10x trailing garbage" "duty=10x: trailing garbage" "$driver" parse duty duty=10x
refused "duty= empty" "duty=: not a number" "$driver" parse duty duty=
refused "duty=-5" "duty=-5" "$driver" parse duty duty=-5
refused "period=0ms" "period=0ms: out of range" "$driver" parse duty period=0ms
refused "period=0s" "period=0s" "$driver" parse duty period=0s
refused "period=10 without unit" "period=10: needs a unit" "$driver" parse duty period=10
refused "period=10xs bad unit" "period=10xs" "$driver" parse duty period=10xs
refused "period=1.5ns not whole ns" "period=1.5ns: not a whole number" "$driver" parse duty period=1.5ns
refused "period=1.ms" "period=1.ms" "$driver" parse duty period=1.ms
refused "period=11s above 10s" "period=11s: out of range" "$driver" parse duty period=11s
refused "duration=0s" "duration=0s" "$driver" parse duty duration=0s
refused "duration=1e3s" "duration=1e3s" "$driver" parse duty duration=1e3s
refused "threads=0" "threads=0" "$driver" parse duty threads=0
refused "threads above the task limit" "threads: 1001 tasks needed, the system allows 1000" \
	"$driver" parse --task-limit 1000 duty threads=1001
refused "threads=99999999999 above 32 bits" "threads=99999999999" "$driver" parse duty threads=99999999999
refused "pairs above the task limit (2 tasks a pair)" "pairs: 1002 tasks needed" \
	"$driver" parse --task-limit 1000 pingpong pairs=501
refused "pairs=0" "pairs=0" "$driver" parse pingpong pairs=0
refused "wss=1k below 4k" "wss=1k: out of range" "$driver" parse duty wss=1k
refused "wss=16q bad suffix" "wss=16q: trailing garbage" "$driver" parse duty wss=16q
refused "wss=8g above 4g" "wss=8g" "$driver" parse duty wss=8g
refused "seed overflowing 64 bits" "seed=18446744073709551616: number too large" \
	"$driver" parse duty seed=18446744073709551616
refused "cpus=7 not available" "cpus: CPU 7 not available (available: 0-3)" "$driver" parse duty cpus=7
refused "cpus=3-1 backwards" "cpus=3-1: range ends before it starts" "$driver" parse duty cpus=3-1
refused "cpus= empty" "cpus=" "$driver" parse duty cpus=
refused "cpus=0-3x trailing garbage" "cpus=0-3x" "$driver" parse duty cpus=0-3x
refused "cpus=1,,2" "cpus=1,,2" "$driver" parse duty cpus=1,,2
refused "per_thread=2" "per_thread=2" "$driver" parse duty per_thread=2
refused "calibrate=yes" "calibrate=yes" "$driver" parse duty calibrate=yes
refused "via=tcp" "via=tcp" "$driver" parse pingpong via=tcp
refused "rate=-1" "rate=-1" "$driver" parse fork rate=-1
refused "rate=1000001" "rate=1000001" "$driver" parse fork rate=1000001
refused "unknown key" "bogus: unknown option" "$driver" parse duty bogus=1
refused "word without =" "'threads': options are key=value" "$driver" parse duty threads
refused "=5 without a key" "'=5'" "$driver" parse duty =5
refused "pairs is not a duty option" "pairs: not an option of mode duty" "$driver" parse duty pairs=2
refused "threads is not a fork option" "threads: not an option of mode fork" "$driver" parse fork threads=2
refused "duty is not a pingpong option" "duty: not an option of mode pingpong" "$driver" parse pingpong duty=5
refused "wss is not a fork option" "wss: not an option of mode fork" "$driver" parse fork wss=8m
refused "calibrate has no threads" "threads: not an option of mode calibrate" "$driver" parse calibrate threads=2

echo "# numbers, times, sizes, CPU lists"
same "time 1s" 1000000000 "$driver" time 1s
same "time 0.000000001s is 1ns" 1 "$driver" time 0.000000001s
refused "time with 10 decimals" "more than 9 decimal places" "$driver" time 0.0000000001s
refused "time overflowing 64 bits" "time too large" "$driver" time 18446744074s
same "size 3k" 3072 "$driver" size 3k
refused "size overflowing 64 bits" "size too large" "$driver" size 17179869184g
same "cpulist 0-3,5,7-8" "0-3,5,7-8 count=7" "$driver" cpulist 0-3,5,7-8
refused "cpulist beyond CPU_SETSIZE" "CPU number too large" "$driver" cpulist 0-1024

echo "# histogram: buckets and nearest-rank percentiles"
same "values below 32ns have exact buckets" "bucket=31 low=31 width=1" "$driver" bucket 31
same "32ns starts the first log bucket" "bucket=32 low=32 width=1" "$driver" bucket 32
same "64ns: buckets 2ns wide" "bucket=64 low=64 width=2" "$driver" bucket 65
same "1000ns is in 992..1007" "bucket=190 low=992 width=16" "$driver" bucket 1000
same "1ms is in bucket 32 + 14x32 + 29, 999424 (61<<14) + 16384" "bucket=509 low=999424 width=16384" "$driver" bucket 1000000
same "2^40ns and above share the last bucket" "bucket=1151 low=1082331758592 width=17179869184" \
	"$driver" bucket 1125899906842624
bucket_bound_ok=1
for v in 32 33 47 63 64 100 1000 4095 4096 99999 1000000 123456789 1099511627775; do
	line=$("$driver" bucket $v)
	low=$(value low "$line") width=$(value width "$line")
	# v inside its bucket, and the bucket at most 1/32 of its low end wide.
	if [ "$low" -gt "$v" ] || [ $((low + width)) -le "$v" ] || [ $((width * 32)) -gt "$low" ]; then
		bucket_bound_ok=0
		echo "#   $v -> $line"
	fi
done
[ $bucket_bound_ok = 1 ] && pass "every value lies in a bucket at most 1/32 of it wide" ||
	fail "every value lies in a bucket at most 1/32 of it wide"
same "empty histogram" "count=0 min=0 p50=0 p90=0 p99=0 p999=0 max=0" "$driver" hist
same "one value: every percentile is that value" \
	"count=1 min=5000 p50=5000 p90=5000 p99=5000 p999=5000 max=5000" "$driver" hist 5000
same "1..20: p50 is the 10th, p90 the 18th, p99 the 20th value" \
	"count=20 min=1 p50=10 p90=18 p99=20 p999=20 max=20" \
	"$driver" hist 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1
thousand=$(i=0; while [ $i -lt 990 ]; do echo 10; i=$((i + 1)); done; i=0; while [ $i -lt 9 ]; do echo 20; i=$((i + 1)); done; echo 1000000)
# shellcheck disable=SC2086
same "990x10 9x20 1x1ms: p99 is rank 990 (10), p99.9 rank 999 (20), not the max" \
	"count=1000 min=10 p50=10 p90=10 p99=10 p999=20 max=1000000" "$driver" hist $thousand
same "a percentile in a wide bucket is the bucket's middle, clamped to min..max" \
	"count=4 min=1000000 p50=1007616 p90=2000000 p99=2000000 p999=2000000 max=2000000" \
	"$driver" hist 1000000 1000000 1000001 2000000
same "a merged histogram counts both" \
	"count=4 min=10 p50=20 p90=40 p99=40 p999=40 max=40" "$driver" hist 10 20 -- 40 30

echo "# rates"
same "per_second: 1500 in 0.5s" 3000.0000 "$driver" per_second 1500 500000000
same "per_second of no time is 0" 0.0000 "$driver" per_second 1500 0
# rate_fraction CALIB INTENDED_NS [RECORDS ACTUAL_NS WINDOW_NS]... (rate.h)
same "rate_fraction: 600 records in 1 s asked, uncontended 1000/s: 0.6" "0.6000 uncontended=1000.0" \
	"$driver" rate_fraction 1000 1000000000 500 500000000 500000000 100 500000000 500000000
same "rate_fraction: a window faster than the calibration raises U, not the fraction above 1" \
	"1.0000 uncontended=1500.0" "$driver" rate_fraction 1000 1000000000 1500 1000000000 1000000000
same "rate_fraction: a slow calibration (1333/s) under a run at 3000/s stays at 1" \
	"1.0000 uncontended=3000.0" "$driver" rate_fraction 1333 100000000 300 100000000 100000000
same "rate_fraction: records past a window's end are credited pro rata" "1.0000 uncontended=1000.0" \
	"$driver" rate_fraction 1000 1000000000 1100 1100000000 1000000000
same "rate_fraction: a skipped (overrun) period counts as lost" "0.5000 uncontended=1000.0" \
	"$driver" rate_fraction 1000 2000000000 1000 1000000000 1000000000
same "rate_fraction without calibration is none" none "$driver" rate_fraction 0 1000000000 500 1000000000 1000000000
same "records_per_check: a cheap clock (50ns, 800ns records) reads every 2 records" 2 "$driver" records_per_check 50 800
same "records_per_check: 19 x 2500ns / 800ns rounds up to 60" 60 "$driver" records_per_check 2500 800
same "records_per_check: a free clock still reads after every record" 1 "$driver" records_per_check 0 800
same "records_per_check: at most 1024" 1024 "$driver" records_per_check 1000000 1

echo "# calibration cache"
cache=$tmp/calib
same "no cache file: no calibration" none "$driver" calib-lookup "$cache" 16384
"$driver" calib-store "$cache" 16384 100 1 && "$driver" calib-store "$cache" 8388608 50.5 3 &&
	"$driver" calib-store "$cache" 16384 200 2
same "the last store for a wss wins" "200.0 2" "$driver" calib-lookup "$cache" 16384
same "another wss keeps its own" "50.5 3" "$driver" calib-lookup "$cache" 8388608
same "a wss never calibrated has none" none "$driver" calib-lookup "$cache" 4096
same "one line per wss" 2 sh -c "wc -l <'$cache' | tr -d ' '"
same "no temporary file left behind" "calib" sh -c "ls '$tmp' | grep calib"

echo "# the binary: usage, refusals, output shape (short runs, no timing)"
"$pjtload" --help >"$tmp/out" 2>&1 && grep -q "usage: pjtload MODE" "$tmp/out" &&
	pass "--help exits 0 with the usage" || fail "--help exits 0 with the usage"
for mode in duty calibrate pingpong fork; do
	"$pjtload" $mode --help >"$tmp/out" 2>&1 && grep -q "usage: pjtload $mode" "$tmp/out" &&
		pass "$mode --help exits 0 with its usage" || fail "$mode --help exits 0 with its usage"
done
refused "no arguments: no mode given, exit 2 (then: see pjtload --help)" "no mode given" "$pjtload"
refused "the binary refuses duty=0" "duty=0" "$pjtload" duty duty=0
refused "the binary refuses threads beyond threads-max/pid_max" "threads: " "$pjtload" duty threads=4000000000
refused "the binary refuses a CPU it may not use" "cpus: CPU 1023 not available" "$pjtload" duty cpus=1023

export PJTLOAD_CALIB="$tmp/pjtload.calib"
matrix_keys="mode duration_s records_per_s rate_fraction periods overruns wakeup_p50_us wakeup_p90_us wakeup_p99_us wakeup_p999_us wakeup_max_us migrations nr_migrations ops_per_s"
# has_keys LINE: every key the matrix runner reads is present.
has_keys() {
	for k in $matrix_keys; do
		printf '%s\n' "$1" | tr ' ' '\n' | grep -q "^$k=" || { echo "#   missing $k"; return 1; }
	done
}
for run in "duty threads=2 duration=100ms" "pingpong duration=100ms" "fork rate=100 duration=100ms"; do
	# shellcheck disable=SC2086
	line=$("$pjtload" $run 2>"$tmp/err")
	status=$?
	if [ $status -eq 0 ] && [ "$(printf '%s\n' "$line" | wc -l)" -eq 1 ] && has_keys "$line"; then
		pass "'$run': one line with every matrix key"
	else
		fail "'$run': one line with every matrix key"
		echo "#   exit $status: $line $(cat "$tmp/err")"
	fi
done
line=$("$pjtload" duty threads=2 duration=100ms 2>/dev/null)
[ -z "$(value rate_fraction "$line")" ] && pass "duty without a calibration leaves rate_fraction empty" ||
	fail "duty without a calibration leaves rate_fraction empty"
line=$("$pjtload" duty threads=3 duration=100ms per_thread=1 2>/dev/null)
[ "$(printf '%s\n' "$line" | grep -c '^thread=')" -eq 3 ] &&
	[ "$(printf '%s\n' "$line" | sed -n '2,$s/ .*//p' | tr '\n' ' ')" = "thread=0 thread=1 thread=2 " ] &&
	pass "per_thread=1 adds thread=0..2 after the summary" || fail "per_thread=1 adds thread=0..2 after the summary"
"$pjtload" calibrate duration=100ms >/dev/null 2>&1
line=$("$pjtload" duty duration=100ms 2>/dev/null)
[ -n "$(value rate_fraction "$line")" ] && [ -n "$(value calib_records_per_s "$line")" ] &&
	pass "after calibrate, duty reports rate_fraction" || fail "after calibrate, duty reports rate_fraction"
"$driver" calib-store "$PJTLOAD_CALIB" 65536 1000 7
line=$("$pjtload" duty wss=64k duration=100ms 2>/dev/null)
[ "$(value records_per_check "$line")" = 7 ] && [ $(($(value records "$line") % 7)) -eq 0 ] &&
	[ "$(value calib_records_per_s "$line")" = 1000.0 ] &&
	pass "duty reads the clock every records_per_check records of its calibration" ||
	fail "duty reads the clock every records_per_check records of its calibration"
# A calibration far too slow (1 record/s, as if taken on a stalled host)
# cannot push rate_fraction above 1: the run's fastest window becomes U.
"$driver" calib-store "$PJTLOAD_CALIB" 131072 1 1
line=$("$pjtload" duty wss=128k threads=2 duty=50 duration=200ms 2>/dev/null)
awk -v f="$(value rate_fraction "$line")" -v u="$(value uncontended_records_per_s "$line")" \
	'BEGIN { exit !(f != "" && f > 0 && f <= 1 && u > 1) }' &&
	pass "a calibration slower than the run: rate_fraction stays in (0, 1], U from the run" ||
	fail "a calibration slower than the run: rate_fraction stays in (0, 1], U from the run"
line=$("$pjtload" duty wss=32k calibrate=1 duration=100ms 2>/dev/null)
[ -n "$(value rate_fraction "$line")" ] && grep -q '^wss=32768 ' "$PJTLOAD_CALIB" &&
	pass "calibrate=1 calibrates a new wss first and caches it" ||
	fail "calibrate=1 calibrates a new wss first and caches it"

echo "1..$n"
exit $failed
