#!/bin/sh
# Host tests of run/stats, run/report and run/compare against the fixtures
# in run/fixtures/ and seeded synthetic runs (run/fixtures/gen-runs.awk),
# TAP-ish output. Quantiles are Hyndman-Fan type 7:
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
		$0 ~ /^1x4x1,duty/ && $idx["metric"] == metric && $idx["term"] == term { print $idx[col]; exit }' "$1"
}

# stars DIR: "STARS FAMILY SECONDARY_STARS" over summary.csv and effects.csv
# (FAMILY: comparisons with a q, i.e. in the Benjamini-Hochberg family).
stars() {
	awk -F, 'FNR == 1 { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ for (k in c) {
			if ((k ~ /_sig$/ || k == "sig") && $c[k] == "*") { s++; if ($c["primary"] != 1) sec++ }
			if ((k ~ /_q$/ || k == "q") && $c[k] != "") fam++ } }
		END { print s + 0, fam + 0, sec + 0 }' "$1/summary.csv" "$1/effects.csv"
}

gen() { # gen OUT.csv awk-assignments...: seeded synthetic runs.csv
	out=$1; shift
	for v in "$@"; do set -- "$@" -v "$v"; shift; done
	awk "$@" -f "$fixtures/gen-runs.awk" >"$out"
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
# n=10: k=2 keeps 1 - 2*11/1024 = 97.85% (k=3 would be 1 - 2*56/1024 = 89%)
check "n=10: median 5.5, quartiles 3.25/7.75, order-statistic interval [x(2), x(9)] = [2, 9] at 97.85%" \
	expect_fields "$small/summary.csv" rfc-after duty migrations "median=5.5 q1=3.25 q3=7.75 ci_lo=2 ci_hi=9 ci_level=97.8515625 ci_method=order-statistic"
check "n=3: (min, max) = [1, 3] at its real level, 75% (1 - 2/8), not 95%" \
	expect_fields "$small/summary.csv" rfc-before duty migrations "ci_lo=1 ci_hi=3 ci_level=75"
check "n=4: (min, max) = [1, 4] at 87.5% (1 - 2/16)" \
	expect_fields "$small/summary.csv" stock duty migrations "ci_lo=1 ci_hi=4 ci_level=87.5"
check "generator is splitmix64: seed 0 gives the reference outputs" \
	sh -c "[ \"\$('$top/build/pjt-stats' --random 0 3 | tr '\n' ' ')\" = 'e220a8397b1dcdaf 6e789e6aa1b965f4 06c45d188009454f ' ]"
# Paired by rep: rfc-after (10,9,8,...) over stock (1,2,3,4) in reps 1-4 is
# 10, 4.5, 2.667, 1.75: median of the logs is log sqrt(4.5 * 8/3) = log
# sqrt(12); the interval of 4 pairs is (min, max) at 87.5%; all 4 above 1
# give the smallest sign-flip p, 2/16. Over rfc-before (3,1,2) in reps 1-3:
# 3.333, 9, 4: median 4, interval [3.333, 9] at 75%, p = 2/8.
check "paired ratio to stock: exp(median log ratio) = sqrt(12), [1.75, 10] at 87.5% over 4 blocks, p 0.125" \
	expect_fields "$small/summary.csv" rfc-after duty migrations \
	"ratio_to_stock=3.464101615 ratio_to_stock_lo=1.75 ratio_to_stock_hi=10 ratio_to_stock_level=87.5 ratio_to_stock_units=4 ratio_to_stock_unit=block ratio_to_stock_p=0.125 ratio_to_stock_sig="
check "paired ratio to rfc-before over the 3 shared blocks: 4, [3.333, 9] at 75%, p 0.25" \
	expect_fields "$small/summary.csv" rfc-after duty migrations \
	"ratio_to_rfc_before=4 ratio_to_rfc_before_lo=3.333333333 ratio_to_rfc_before_hi=9 ratio_to_rfc_before_level=75 ratio_to_rfc_before_units=3 ratio_to_rfc_before_p=0.25"
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
records_effects() {
	for term in PJT_SHORT_TASKS PJT_BUSIEST PJT_SHORT_TASKS:PJT_BUSIEST; do
		printf '%s=%s ' $term "$(effect_of "$fact/effects.csv" records_per_s $term effect)"
	done
}
records_effects >"$tmp/records"
check "2x2 effects on records_per_s: 40000, 20000, interaction 10000" \
	sh -c "[ \"\$(cat '$tmp/records')\" = 'PJT_SHORT_TASKS=40000 PJT_BUSIEST=20000 PJT_SHORT_TASKS:PJT_BUSIEST=10000 ' ]"
check "a bit with no effect (alb_pushed is constant) is not marked" \
	expect_effect "$fact/effects.csv" alb_pushed PJT_BUSIEST 0 ''
designs() { # designs EFFECTS.csv: "design base cells" lines, sorted, unique
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["design"], $c["base"], $c["cells"] }' "$1" | sort -u
}
is_text() { # is_text FILE TEXT: FILE holds exactly TEXT
	[ "$(cat "$1")" = "$2" ] || { echo "got:"; cat "$1"; echo "want:"; echo "$2"; return 1; }
}
designs "$fact/effects.csv" >"$tmp/designs"
check "the design is the 4 cells of PJT_SHORT_TASKS+PJT_BUSIEST (base none), not rfc-after or rfc-before" \
	is_text "$tmp/designs" 'PJT_SHORT_TASKS+PJT_BUSIEST none 4'
check "the crashed run is counted (n_crashed=1) and excluded (median 120, n 6)" \
	expect_fields "$fact/summary.csv" rfc-before duty migrations "n=6 n_crashed=1 n_failed=0 median=120 max=122"
check "the failed run is counted in n_failed" \
	expect_fields "$fact/summary.csv" PJT_BUSIEST duty migrations "n=6 n_crashed=0 n_failed=1"
check "excluded runs are named on stderr with FILE:LINE" \
	sh -c "grep -q 'factorial-2x2.csv:74: .*status crashed' '$tmp/notes' && grep -q 'factorial-2x2.csv:75: .*status failed' '$tmp/notes'"
check "ratio to stock: rfc-after migrations 0.4, all 6 blocks below 1: p = 2/64, significant after BH" \
	expect_fields "$fact/summary.csv" rfc-after duty migrations "ratio_to_stock=0.4 ratio_to_stock_level=96.875 ratio_to_stock_p=0.03125 ratio_to_stock_sig=*"
check "a secondary metric (nr_migrations) has a p but no q and no star" \
	expect_fields "$fact/summary.csv" rfc-after duty nr_migrations "primary=0 ratio_to_stock_q= ratio_to_stock_sig="
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
	malformed malformed-non-numeric.csv "malformed-non-numeric.csv:3: column 'migrations': '12x' is not a count"
check "a duplicated row (same seq): exit 2, FILE:LINE names both lines" \
	malformed malformed-duplicate-seq.csv "malformed-duplicate-seq.csv:4: seq 2 appears again (first at line 3)"
check "a negative count (-103): exit 2, FILE:2" \
	malformed malformed-negative-count.csv "malformed-negative-count.csv:2: column 'migrations': '-103' is not a count"
check "a hexadecimal count (0x67): exit 2, FILE:3" \
	malformed malformed-hex-count.csv "malformed-hex-count.csv:3: column 'lb_pulls_idle': '0x67' is not a count"
check "one cell twice in one block (boot, rep): exit 2, FILE:3 names the first line" \
	malformed malformed-cell-twice.csv "malformed-cell-twice.csv:3: combo 'stock' ran twice in the block boot=1 rep=1 .*(first at line 2)"
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
check "the RFC section states our paired ratio, its level and the RFC's in checkable words" \
	grep -q "The RFC's change: rfc-after had 66.7% fewer pulls than rfc-before (paired ratio 0.333, 96.88% interval 0.[0-9]*..0.[0-9]* over 6 blocks; Benjamini-Hochberg q = 0.03[0-9]*: significant \\*). The RFC's ratio, 0.000, is outside our interval." "$res/report.md"
check "the report names the adjustment next to the stars, with the family size" \
	grep -q '\* = significant after Benjamini-Hochberg FDR 5% over [0-9][0-9]* comparisons' "$res/report.md"
check "the report says rfc-pelt is absent, so no decomposition" \
	grep -q 'rfc-pelt (PJT_IMBALANCE PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE without LEGACY_LOAD) is not in this matrix' "$res/report.md"
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
# 6 runs a side, complete separation: the exact Mann-Whitney p is 2/924
check "run/compare: rfc-after migrations halved (0.500), interval below 1 at 95.89%, p = 2/924" \
	grep -Eq '^rfc-after +migrations +40 +20 +0\.500 +0\.[0-9]+\.\.0\.[0-9]+ +95\.89% +0\.00216$' "$tmp/compare"
check "run/compare: an unchanged cell has ratio 1.000 and p 1" \
	grep -Eq '^stock +migrations +100 +100 +1\.000 +[0-9.]+\.\.[0-9.]+ +95\.89% +1$' "$tmp/compare"
grep -v 'PJT_SHORT_TASKS,' "$fixtures/factorial-2x2-b.csv" >"$tmp/fewer.csv"
check "run/compare names the cells only one side has" \
	sh -c "'$top/run/compare' '$res' '$tmp/fewer.csv' 2>/dev/null | grep -qx 'only in A: duty threads=8 duty=10 period=10ms / PJT_SHORT_TASKS (topology 1x4x1)'"
check "run/compare: a folder without runs.csv exits 2 with a message" \
	sh -c "'$top/run/compare' '$res' '$tmp' 2>'$tmp/cerr'; [ \$? -eq 2 ] && grep -q 'runs.csv' '$tmp/cerr'"

echo "# $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
