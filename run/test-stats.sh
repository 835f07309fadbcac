#!/bin/sh
# Host tests of run/stats, run/report and run/compare against the fixtures
# in run/fixtures/ (TAP-ish output). Quantiles are Hyndman-Fan type 7:
# q(p) = x[h] + (h - floor h)(x[h+1] - x[h]) with h = (n-1)p, 0-based.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
fixtures=$top/run/fixtures
tmp=$(mktemp -d /tmp/test-stats.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0 failed=0

check() { # check "description" command...
	desc=$1; shift
	n=$((n + 1))
	if "$@" >"$tmp/out" 2>&1; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		sed 's/^/# /' "$tmp/out" | head -20
		failed=$((failed + 1))
	fi
}

# field of summary.csv: summary_field FILE COMBO WORKLOAD_PREFIX METRIC COLUMN
summary_field() {
	awk -F, -v combo="$2" -v wl="$3" -v metric="$4" -v col="$5" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		{ w = $2; gsub(/"/, "", w) }
		$3 == combo && index(w, wl) == 1 && $5 == metric { print $idx[col]; exit }' "$1"
}

expect_fields() { # expect_fields FILE COMBO WL METRIC "col=value ..."
	file=$1 combo=$2 wl=$3 metric=$4
	for pair in $5; do
		got=$(summary_field "$file" "$combo" "$wl" "$metric" "${pair%%=*}")
		[ "$got" = "${pair#*=}" ] || { echo "$combo $metric ${pair%%=*}: got '$got', want '${pair#*=}'"; return 1; }
	done
}

effect_of() { # effect_of FILE METRIC TERM COLUMN
	awk -F, -v metric="$2" -v term="$3" -v col="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		$0 ~ /^1x4x1,duty/ && $3 == metric && $4 == term { print $idx[col]; exit }' "$1"
}

expect_effect() { # expect_effect FILE METRIC TERM VALUE SIG
	got=$(effect_of "$1" "$2" "$3" effect)
	sig=$(effect_of "$1" "$2" "$3" sig)
	[ "$got" = "$4" ] && [ "$sig" = "$5" ] || { echo "$2 $3: got '$got' '$sig', want '$4' '$5'"; return 1; }
}

check "make stats-tools builds build/pjt-stats and --help exits 0" "$top/run/stats" --help

small=$tmp/small
check "run/stats on a runs.csv file writes summary.csv into -o DIR" \
	"$top/run/stats" -o "$small" "$fixtures/small-sets.csv"
check "median and quartiles of {1,2,3,4}: 2.5, 1.75, 3.25 (type 7); min 1, max 4" \
	expect_fields "$small/summary.csv" stock duty migrations "n=4 median=2.5 q1=1.75 q3=3.25 min=1 max=4"
check "median and quartiles of {3,1,2}: 2, 1.5, 2.5" \
	expect_fields "$small/summary.csv" rfc-before duty migrations "n=3 median=2 q1=1.5 q3=2.5"
check "n=10: median 5.5, quartiles 3.25/7.75, exact binomial CI [x(2), x(9)] = [2, 9]" \
	expect_fields "$small/summary.csv" rfc-after duty migrations "median=5.5 q1=3.25 q3=7.75 ci_lo=2 ci_hi=9 ci_method=binomial"
# With 3 runs a resampled median is 1 with probability 7/27 > 2.5%, and
# likewise 3: the percentile interval must be exactly the range.
check "n=3 uses the bootstrap; its interval of {1,2,3} is [1, 3] (P(median*=1) = 7/27)" \
	expect_fields "$small/summary.csv" rfc-before duty migrations "ci_lo=1 ci_hi=3 ci_method=bootstrap"
check "generator is splitmix64: seed 0 gives the reference outputs" \
	sh -c "[ \"\$('$top/build/pjt-stats' --random 0 3 | tr '\n' ' ')\" = 'e220a8397b1dcdaf 6e789e6aa1b965f4 06c45d188009454f ' ]"
check "the fixed seed reproduces the recorded ratio intervals exactly" \
	expect_fields "$small/summary.csv" rfc-after duty migrations \
	"ratio_to_stock=2.2 ratio_to_stock_lo=1 ratio_to_stock_hi=6 ratio_to_stock_sig= ratio_to_rfc_before=2.75 ratio_to_rfc_before_lo=1.166666667 ratio_to_rfc_before_hi=7.5 ratio_to_rfc_before_sig=*"
"$top/run/stats" -q -o "$tmp/small2" "$fixtures/small-sets.csv" >/dev/null 2>&1
check "a second run gives a byte-identical summary.csv" cmp "$small/summary.csv" "$tmp/small2/summary.csv"

fact=$tmp/fact
"$top/run/stats" -o "$fact" "$fixtures/factorial-2x2.csv" >/dev/null 2>"$tmp/notes"
# cell medians (none, S, B, S+B): migrations 100, 80, 90, 50; records/s
# 900000, 930000, 910000, 960000. Main effect = mean with - mean without.
check "2x2 main effect of PJT_SHORT_TASKS on migrations: ((80+50)-(100+90))/2 = -30, CI excludes 0" \
	expect_effect "$fact/effects.csv" migrations PJT_SHORT_TASKS -30 '*'
check "2x2 main effect of PJT_BUSIEST on migrations: ((90+50)-(100+80))/2 = -20" \
	expect_effect "$fact/effects.csv" migrations PJT_BUSIEST -20 '*'
check "2x2 interaction on migrations: ((50+100)-(80+90))/2 = -10" \
	expect_effect "$fact/effects.csv" migrations PJT_SHORT_TASKS:PJT_BUSIEST -10 '*'
check "2x2 effects on records_per_s: 40000, 20000, interaction 10000" \
	sh -c "[ \"\$(awk -F, '\$3 == \"records_per_s\" && /^1x4x1,duty/ { print \$4 \"=\" \$9 }' '$fact/effects.csv' | tr '\n' ' ')\" = 'PJT_SHORT_TASKS=40000 PJT_BUSIEST=20000 PJT_SHORT_TASKS:PJT_BUSIEST=10000 ' ]"
check "a bit with no effect (alb_pushed is constant) is not marked" \
	expect_effect "$fact/effects.csv" alb_pushed PJT_BUSIEST 0 ''
check "the design is the 4 cells of PJT_SHORT_TASKS+PJT_BUSIEST, not rfc-after or rfc-before" \
	sh -c "awk -F, 'NR > 1 { print \$6, \$7 }' '$fact/effects.csv' | sort -u | grep -qx 'PJT_SHORT_TASKS+PJT_BUSIEST 4' && [ \$(awk -F, 'NR > 1 { print \$6 }' '$fact/effects.csv' | sort -u | wc -l) = 1 ]"
check "the crashed run is counted (n_crashed=1) and excluded (median 120, n 6)" \
	expect_fields "$fact/summary.csv" rfc-before duty migrations "n=6 n_crashed=1 n_failed=0 median=120 max=122"
check "the failed run is counted in n_failed" \
	expect_fields "$fact/summary.csv" PJT_BUSIEST duty migrations "n=6 n_crashed=0 n_failed=1"
check "excluded runs are named on stderr with FILE:LINE" \
	sh -c "grep -q 'factorial-2x2.csv:74: .*status crashed' '$tmp/notes' && grep -q 'factorial-2x2.csv:75: .*status failed' '$tmp/notes'"
check "ratio to stock: rfc-after migrations 0.4 with a CI excluding 1" \
	expect_fields "$fact/summary.csv" rfc-after duty migrations "ratio_to_stock=0.4 ratio_to_stock_sig=*"
check "a quoted workload cell is read as one field" \
	expect_fields "$fact/summary.csv" stock pingpong ops_per_s "n=6 median=5010"
check "metrics a workload cannot measure are left out (no records_per_s for pingpong)" \
	sh -c "! grep -q '^1x4x1,pingpong[^,]*,stock,none,records_per_s,' '$fact/summary.csv'"

malformed() { # malformed FILE EXPECTED_MESSAGE_PATTERN
	"$top/run/stats" -o "$tmp/bad" "$fixtures/$1" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || { echo "exit $rc, want 2"; cat "$tmp/err"; return 1; }
	grep -q "$2" "$tmp/err" || { echo "stderr lacks '$2':"; cat "$tmp/err"; return 1; }
}
check "missing column: exit 2, FILE:1 names the column" \
	malformed malformed-missing-column.csv "malformed-missing-column.csv:1: missing required column 'migrations'"
check "non-numeric cell: exit 2, FILE:3 names column and value" \
	malformed malformed-non-numeric.csv "malformed-non-numeric.csv:3: column 'migrations': '12x' is not a number"
check "empty file: exit 2, FILE:1" malformed malformed-empty.csv "malformed-empty.csv:1: empty file"
check "ragged row: exit 2, FILE:4 gives both field counts" \
	malformed malformed-ragged.csv "malformed-ragged.csv:4: 42 fields, the header has 43"

res=$tmp/results/rfc-20260101-000000
mkdir -p "$res"
cp "$fixtures/factorial-2x2.csv" "$res/runs.csv"
printf 'name rfc\nsmp 4\nreps 6\ncombo stock\n' >"$res/quick.matrix"
echo "Linux 6.1.0-pjt #1 SMP x86_64" >"$res/uname.txt"
sum_before=$(cksum <"$res/runs.csv")
check "run/report makes summary, charts and report for a results folder" \
	sh -c "'$top/run/report' '$res' && test -s '$res/report.md' && test -s '$res/report.html'"
png_ok() {
	count=0
	for png in "$res"/charts/*.png; do
		[ -f "$png" ] || { echo "no PNG"; return 1; }
		[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
			{ echo "$png: not a PNG"; return 1; }
		[ "$(wc -c <"$png")" -gt 2000 ] || { echo "$png: too small"; return 1; }
		[ -s "${png%.png}.svg" ] || { echo "${png%.png}.svg missing"; return 1; }
		count=$((count + 1))
	done
	[ $count -eq 14 ] || { echo "$count charts, want 7 per workload x 2"; return 1; }
}
check "every chart is a valid non-empty PNG (8-byte signature) with its SVG, 7 per workload" png_ok
mentions_combos() {
	for combo in $(awk -F, 'NR > 1 { print $3 }' "$res/runs.csv" | sort -u); do
		grep -q -- "$combo" "$res/report.md" || { echo "report.md lacks $combo"; return 1; }
		grep -q -- "$combo" "$res/report.html" || { echo "report.html lacks $combo"; return 1; }
	done
}
check "the report mentions every combination of runs.csv" mentions_combos
check "the report embeds the charts and records what is missing" \
	sh -c "[ \$(grep -o 'data:image/png;base64,iVBORw0KGgo' '$res/report.html' | wc -l) -eq 14 ] &&
	       grep -q 'Host (host.txt): not recorded' '$res/report.md' &&
	       grep -q 'Linux 6.1.0-pjt' '$res/report.md' && grep -q 'reps 6' '$res/report.md'"
check "the RFC section states our ratio against the RFC's in checkable words" \
	grep -q 'rfc-after had 66.7% fewer pulls than rfc-before (ratio 0.333, 95% CI' "$res/report.md"
check "runs.csv is left untouched" sh -c "[ \"\$(cksum <'$res/runs.csv')\" = '$sum_before' ]"

nofact=$tmp/nofact
mkdir -p "$nofact"
cp "$fixtures/small-sets.csv" "$nofact/runs.csv"
check "charts without data are skipped with a note, not drawn" \
	sh -c "'$top/run/report' '$nofact' 2>/dev/null && [ ! -e '$nofact/charts/s1-effects.png' ] &&
	       [ -s '$nofact/charts/s1-migrations.png' ] && grep -q 'Chart s1-effects skipped: no factorial design' '$nofact/report.md'"
check "make plots RESULTS=DIR re-makes the report" \
	sh -c "rm '$nofact/report.md' && make -s -C '$top' -f run/stats.mk plots RESULTS='$nofact' >/dev/null 2>&1 && test -s '$nofact/report.md'"

zeros=$tmp/zeros
mkdir -p "$zeros"
awk -F, -v OFS=, 'NR > 1 { for (i = 25; i <= 42; i++) $i = 0 } { print }' "$fixtures/factorial-2x2.csv" >"$zeros/runs.csv"
check "pjt_stats counters that are all 0 skip the decisions chart with that reason" \
	sh -c "'$top/run/report' '$zeros' 2>/dev/null && [ ! -e '$zeros/charts/s1-decisions.png' ] &&
	       grep -q 'Chart s1-decisions skipped: every pjt_stats counter is 0' '$zeros/report.md'"

other=$tmp/other
mkdir -p "$other"
cp "$fixtures/factorial-2x2-b.csv" "$other/runs.csv"
"$top/run/compare" "$res" "$other" >"$tmp/compare" 2>/dev/null
check "run/compare: rfc-after migrations halved (0.500) and marked" \
	grep -Eq '^rfc-after +migrations +40 +20 +0\.500 +[0-9.]+\.\.[0-9.]+ +\*$' "$tmp/compare"
check "run/compare: an unchanged cell has ratio 1.000 and no marker" \
	grep -Eq '^stock +migrations +100 +100 +1\.000 +[0-9.]+\.\.[0-9.]+ *$' "$tmp/compare"
grep -v 'PJT_SHORT_TASKS,' "$fixtures/factorial-2x2-b.csv" >"$tmp/fewer.csv"
check "run/compare names the cells only one side has" \
	sh -c "'$top/run/compare' '$res' '$tmp/fewer.csv' 2>/dev/null | grep -qx 'only in A: duty threads=8 duty=10 period=10ms / PJT_SHORT_TASKS (topology 1x4x1)'"
check "run/compare: a folder without runs.csv exits 2 with a message" \
	sh -c "'$top/run/compare' '$res' '$tmp' 2>'$tmp/cerr'; [ \$? -eq 2 ] && grep -q 'runs.csv' '$tmp/cerr'"

echo "# $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
