#!/bin/sh
# Host tests of run/stats and run/report against the fixtures
# in run/tests/fixtures/ and seeded synthetic runs (run/tests/fixtures/gen-runs.awk),
# TAP-ish output. Quantiles are Hyndman-Fan type 7:
# q(p) = x[h] + (h - floor h)(x[h+1] - x[h]) with h = (n-1)p, 0-based.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/run/tests/fixtures
. "$fixtures/tap.sh"
tap_begin test-stats

# field of summary.csv: summary_field FILE COMBO WORKLOAD_PREFIX METRIC COLUMN
summary_field() {
	awk -F, -v combo="$2" -v wl="$3" -v metric="$4" -v col="$5" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		{ w = $2; gsub(/"/, "", w) }
		$3 == combo && index(w, wl) == 1 && $5 == metric { print $idx[col]; exit }' "$1"
}

expect_fields() { # expect_fields FILE COMBO WL METRIC "col=value ..." ('_' in a value: a space)
	file=$1 combo=$2 wl=$3 metric=$4
	for pair in $5; do
		got=$(summary_field "$file" "$combo" "$wl" "$metric" "${pair%%=*}" | tr ' ' _)
		[ "$got" = "${pair#*=}" ] || { echo "$combo $metric ${pair%%=*}: got '$got', want '${pair#*=}'"; return 1; }
	done
}

effect_of() { # effect_of FILE METRIC TERM COLUMN
	awk -F, -v metric="$2" -v term="$3" -v col="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		$0 ~ /^1x4x1,duty/ && $idx["metric"] == metric && $idx["term"] == term { print $idx[col]; exit }' "$1"
}

declare_fn() { # the definitions of shell functions, for sh -c
	for f in "$@"; do
		case $f in
		near) echo 'near() { awk -v g="$1" -v w="$2" '"'"'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= 1e-6 * (w < 0 ? -w : w)) }'"'"' || { echo "got $1, want $2"; return 1; }; }' ;;
		effect_of) echo 'effect_of() { awk -F, -v metric="$2" -v term="$3" -v col="$4" '"'"'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next } $0 ~ /^1x4x1,duty/ && $idx["metric"] == metric && $idx["term"] == term { print $idx[col]; exit }'"'"' "$1"; }' ;;
		expect_effect_near) echo 'expect_effect_near() { want=$(awk "BEGIN { printf \"%.10g\", $4 }"); near "$(effect_of "$1" "$2" "$3" effect)" "$want" || return 1; sig=$(effect_of "$1" "$2" "$3" sig); [ "$sig" = "$5" ] || { echo "sig $sig, want $5"; return 1; }; }' ;;
		esac
	done
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
# The declared comparisons' procedures against textbook values
# (pjt-stats --units prints sign, signed-rank and paired-t on given units).
# n = 8, one negative of rank 3 (T = 3): the exact two-sided p is 2 x 5/256
# = 0.0391 (the tables' critical value); Hodges-Lehmann: the median of the
# 36 Walsh averages is 4; the 95% interval is Walsh averages (4, 33), [0.5,
# 7], at 1 - 2 P(W <= 3) = 1 - 10/256 = 96.09%
check "signed-rank, n=8, T=3: exact p 0.0391; Hodges-Lehmann 4, Walsh-average interval [0.5, 7] at 96.09%" \
	sh -c "'$top/build/pjt-stats' --units 1 2 -3 4 5 6 7 8 | grep -qx 'signed-rank estimate=4 lo=0.5 hi=7 level=0.9609375 p=0.0390625'"
check "signed-rank, n=6, all positive: p = 2/64 = 0.03125, the smallest there is" \
	sh -c "'$top/build/pjt-stats' --units 1 2 3 4 5 6 | grep -qx 'signed-rank estimate=3.5 lo=1 hi=6 level=0.96875 p=0.03125'"
# ties: |d| = 1, 1, 2, 2, 3 have midranks 1.5, 1.5, 3.5, 3.5, 5; one
# negative 1: W- = 1.5, reached by 3 of the 32 sign patterns of those
# scores (none, either 1.5): p = 6/32. Zeros by Pratt: 0 1 2 -3 4 5 6 ranks
# 0 first (1), so the negative's score is 4 among 2..7: W- <= 4 in 4 of 64
# patterns, p = 8/64 = 0.125 (dropping the 0 would give ranks 1..6 and 10/64)
check "signed-rank with tied |d| (midranks, exact null of those scores: p 6/32) and a 0 (Pratt: p 8/64, not 10/64)" \
	sh -c "'$top/build/pjt-stats' --units -1 1 2 2 3 | grep -q '^signed-rank .* p=0.1875\$' &&
	       '$top/build/pjt-stats' --units 0 1 2 -3 4 5 6 | grep -q '^signed-rank .* p=0.125\$'"
# R: t.test(1:6): t = 4.5826, df = 5, p-value = 0.005934, 95 percent
# confidence interval 1.536686 5.463314
check "paired t on 1..6 (R's t.test): mean 3.5, 95% interval [1.536686, 5.463314], p 0.005934" \
	sh -c "'$top/build/pjt-stats' --units 1 2 3 4 5 6 | grep -qx 'paired-t estimate=3.5 lo=1.536685693 hi=5.463314307 level=0.95 p=0.005933544518'"
check "the sign test on the same units: n=8 with one negative, p = 2 x 9/256 = 0.0703, median interval at 99.22%" \
	sh -c "'$top/build/pjt-stats' --units 1 2 -3 4 5 6 7 8 | grep -qx 'sign estimate=4.5 lo=-3 hi=8 level=0.9921875 p=0.0703125'"

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
"$top/run/stats" -o "$fact" --declare rfc-after,stock "$fixtures/factorial-2x2.csv" >/dev/null 2>"$tmp/notes"
"$top/run/stats" -q -o "$tmp/twice" --declare rfc-after,stock --declare rfc-after,stock "$fixtures/factorial-2x2.csv" >/dev/null 2>&1
check "a question declared twice is one test: the family is the same size" \
	sh -c "[ \$(grep -c ',confirmatory,' '$fact/comparisons.csv') -gt 0 ] &&
	       [ \$(grep -c ',confirmatory,' '$fact/comparisons.csv') = \$(grep -c ',confirmatory,' '$tmp/twice/comparisons.csv') ]"
# cell medians (none, S, B, S+B): migrations 100, 80, 90, 50; records/s
# 900000, 930000, 910000, 960000. Effects on the log scale, as ratios: a
# main effect is the geometric mean with the bit over the one without it.
near() { # near GOT WANT: within 1e-6 relative
	awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= 1e-6 * (w < 0 ? -w : w)) }' ||
		{ echo "got '$1', want '$2'"; return 1; }
}
expect_effect_near() { # expect_effect_near FILE METRIC TERM AWK_EXPR SIG
	want=$(awk "BEGIN { printf \"%.10g\", $4 }")
	near "$(effect_of "$1" "$2" "$3" effect)" "$want" || return 1
	sig=$(effect_of "$1" "$2" "$3" sig)
	[ "$sig" = "$5" ] || { echo "$2 $3: sig '$sig', want '$5'"; return 1; }
}
check "2x2 main effect of PJT_SHORT_TASKS on migrations: sqrt(80*50/(100*90)) = 0.667 (a ratio)" \
	expect_effect_near "$fact/effects.csv" migrations PJT_SHORT_TASKS 'sqrt(80*50/(100*90))' ''
check "2x2 main effect of PJT_BUSIEST on migrations: sqrt(90*50/(100*80)) = 0.75" \
	expect_effect_near "$fact/effects.csv" migrations PJT_BUSIEST 'sqrt(90*50/(100*80))' ''
check "2x2 interaction on migrations: the ratio of ratios (50/90)/(80/100) = 0.694, not its square root" \
	expect_effect_near "$fact/effects.csv" migrations PJT_SHORT_TASKS:PJT_BUSIEST '50*100/(80*90)' ''
check "2x2 effects on records_per_s: ratios sqrt(930*960/(900*910)), sqrt(910*960/(900*930)), interaction 960*900/(930*910)" \
	sh -c "$(declare_fn near effect_of expect_effect_near)
	       expect_effect_near '$fact/effects.csv' records_per_s PJT_SHORT_TASKS 'sqrt(930*960/(900*910))' '' &&
	       expect_effect_near '$fact/effects.csv' records_per_s PJT_BUSIEST 'sqrt(910*960/(900*930))' '' &&
	       expect_effect_near '$fact/effects.csv' records_per_s PJT_SHORT_TASKS:PJT_BUSIEST '960*900/(930*910)' ''"
check "a bit with no effect (alb_pushed is constant) is a ratio of 1, not marked" \
	expect_effect "$fact/effects.csv" alb_pushed PJT_BUSIEST 1 ''
# two bits that each halve pulls, independently (multiplicative): on the
# raw scale the interaction is (100-200-200+400)/2 = 50 in every block and
# was starred; on the log scale it is exactly 1
awk -F, -v OFS=, 'NR == 1 { print; next } $3 == "stock" || $3 == "PJT_SHORT_TASKS" || $3 == "PJT_BUSIEST" || $3 == "PJT_SHORT_TASKS+PJT_BUSIEST" {
	f = 1 + $6 / 10; v = 400 * f; if ($4 ~ /PJT_SHORT_TASKS/) v /= 2; if ($4 ~ /PJT_BUSIEST/) v /= 2
	$8 = v; $9 = 0; $10 = 0; $14 = v; if ($NF != "ok") $NF = "ok"; print }' "$fixtures/factorial-2x2.csv" >"$tmp/halves.csv"
"$top/run/stats" -q -o "$tmp/halves" "$tmp/halves.csv"
check "two bits that each halve pulls independently: main effects 0.5, interaction exactly 1, not marked" \
	sh -c "$(declare_fn near effect_of expect_effect_near)
	       expect_effect_near '$tmp/halves/effects.csv' lb_pulls_total PJT_SHORT_TASKS 0.5 '' &&
	       expect_effect_near '$tmp/halves/effects.csv' lb_pulls_total PJT_SHORT_TASKS:PJT_BUSIEST 1 '' &&
	       [ \"\$(effect_of '$tmp/halves/effects.csv' lb_pulls_total PJT_SHORT_TASKS:PJT_BUSIEST p)\" = 1 ]"
# a known interaction: PJT_SHORT_TASKS changes nothing alone and doubles
# every primary metric with PJT_BUSIEST on (the AB cell x2), so its ratio
# is 1 without B and 2 with it: the interaction, a ratio of ratios, is 2.0
# (printed as its square root, 1.41, before)
mkdir -p "$tmp/inter"
gen "$tmp/inter/runs.csv" seed=7 reps=2 boots=8 extra=1 workloads=1 effect=AB:2 \
	"combos=stock=none;A=PJT_SHORT_TASKS;B=PJT_BUSIEST;AB=PJT_SHORT_TASKS+PJT_BUSIEST"
"$top/run/stats" -q --report "$tmp/inter" >/dev/null 2>&1
interaction_two() {
	line=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["metric"] == "lb_pulls_total" && $c["term"] == "PJT_SHORT_TASKS:PJT_BUSIEST" {
			print $c["effect"], $c["ci_lo"], $c["ci_hi"] }' "$tmp/inter/effects.csv")
	echo "interaction (estimate, interval): $line"
	echo "$line" | awk '{ exit !($1 > 1.6 && $1 < 2.4 && $2 <= 2 && $3 >= 2 && $2 > sqrt(2)) }' &&
		grep -q '^- Interaction PJT_SHORT_TASKS:PJT_BUSIEST (factorial effect, a ratio of ratios[^)]*): pulls up (1\.[6-9][0-9]* \[' "$tmp/inter/report.md"
}
check "a true interaction of 2.0 (a bit that doubles pulls only with the other): effects.csv and the report say about 2, 2 inside the interval, its square root outside" \
	interaction_two
# a declared comparison lost in one boot of 4: rfc-after ran (tripled) in
# boot 1's 8 blocks only; those blocks would give p = 2/256 and a Holm
# star over the family of 4, standing for boots the study has not got
mkdir -p "$tmp/lost"
gen "$tmp/lost/all.csv" seed=5 reps=8 boots=4 extra=1 workloads=1 effect=rfc-after:3 \
	"combos=stock=none;rfc-after=PJT_SHORT_TASKS+PJT_BUSIEST+PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE"
awk -F, 'NR == 1 || !($5 == "rfc-after" && $2 != 1)' "$tmp/lost/all.csv" >"$tmp/lost/runs.csv"
"$top/run/stats" -q --declare rfc-after,stock --report "$tmp/lost" >/dev/null 2>&1
check "a declared comparison whose pairs come from one boot of 4: untested (p empty, Holm q 1), never starred, and the report says why" \
	sh -c "[ \$(grep -Ec ',(confirmatory|secondary \(fixed sequence\)),.*,8,block,,1,,\"untested: its 8 pairs come from one boot of 4' '$tmp/lost/comparisons.csv') -eq 4 ] &&
	       grep -q 'rfc-after against stock: not tested (untested: its 8 pairs come from one boot of 4' '$tmp/lost/report.md' &&
	       ! grep -q '\*' '$tmp/lost/comparisons.csv'"
# the RFC's own result (fixtures/rfc-zero-pulls.csv): rfc-after 0 pulls in
# every one of 8 boots, rfc-before 43 to 50 (median 46), alb_pushed 0
# everywhere. Not 47.0 = (46+1)/(0+1) nor "1.000 [1.000, 1.000]": "0
# against 46", the signed-rank test of the 8 boots' counts (all 8 one way:
# p 2/2^8; Holm over the family of 1, pulls the primary endpoint:
# 0.0078, resolved), and "both 0"
mkdir -p "$tmp/rfczero"
cp "$fixtures/rfc-zero-pulls.csv" "$tmp/rfczero/runs.csv"
"$top/run/stats" -q --declare rfc-after,rfc-before --report "$tmp/rfczero" >/dev/null 2>&1
check "0 pulls in every boot against 46: '0 against 46: resolved', signed-rank p 0.0078, Holm over 1 the same, no ratio of shifted values" \
	sh -c "grep -q '^1x4x1,duty[^,]*,rfc-after,rfc-before,lb_pulls_total,1,confirmatory,,,,,8,boot,0.0078125,0.0078125,\*,\"this side 0 in every boot: no ratio; per run 0 against 46, signed-rank test of the counts per boot' '$tmp/rfczero/comparisons.csv' &&
	       grep -q '^- duty [^:]*: rfc-after against rfc-before: pulls 0 against 46: resolved (Holm p=0.00781 \*); not resolved: migrations ' '$tmp/rfczero/report.md' &&
	       grep -q '| 0 against 46, Holm p=0.00781 \* | 0 with the patches, as ours |\$' '$tmp/rfczero/report.md' && ! grep -q '47\.0\|4600\|4,600' '$tmp/rfczero/report.md'"
check "a secondary count 0 in every run of both sides: 'both 0', never 1.000 [1.000, 1.000]" \
	sh -c "grep -q '^| alb_pushed | 1 (reference) | both 0 | both 0 |\$' '$tmp/rfczero/report.md' &&
	       grep -q ',rfc-after,rfc-before,alb_pushed,0,exploratory,,,,,8,boot,,,,\"both 0 in every boot: no ratio, no test\"' '$tmp/rfczero/comparisons.csv' &&
	       ! grep -q '^| alb_pushed .*1\.000 \[1\.000, 1\.000\]' '$tmp/rfczero/report.md'"
# a quantised metric: wake-up p50 at 40 us in 6 of 8 blocks of both sides
# (rfc-after 41 in the other 2): 6 ties, so p is 1 whatever the rest do,
# and the note says so
gen "$tmp/ties.csv" seed=9 reps=8 workloads=1
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ $c["wakeup_p50_us"] = ($c["combo"] == "rfc-after" && $c["rep"] > 6) ? 41 : 40; print }' "$tmp/ties.csv" >"$tmp/ties2.csv"
"$top/run/stats" -q -o "$tmp/ties" "$tmp/ties2.csv"
check "a quantised metric with ties (wake-up p50, 6 of 8 blocks equal): p 1, and the note says why" \
	expect_fields "$tmp/ties/summary.csv" rfc-after duty wakeup_p50_us \
	"ratio_to_stock_p=1 ratio_to_stock_note=6_of_8_blocks_tie_at_a_ratio_of_exactly_1_(equal_values):_each_counts_on_both_sides_of_the_sign_test_and_p_is_at_least_1"
# extreme values: records/s 1e-200 against 1e200 in one of 2 blocks;
# log(x/r) underflowed to -inf there and the median of the 2 units was
# undefined (an empty ratio); log x - log r is -921, the ratio 1e-200
gen "$tmp/extreme.csv" seed=9 reps=2 workloads=1
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["rep"] == 1 && $c["combo"] == "rfc-after" { $c["records_per_s"] = "1e-200" }
	$c["rep"] == 1 && $c["combo"] == "stock" { $c["records_per_s"] = "1e200" } { print }' "$tmp/extreme.csv" >"$tmp/extreme2.csv"
"$top/run/stats" -q -o "$tmp/extreme" "$tmp/extreme2.csv"
extreme_finite() {
	v=$(summary_field "$tmp/extreme/summary.csv" rfc-after duty records_per_s ratio_to_stock)
	echo "ratio_to_stock $v"
	awk -v v="$v" 'BEGIN { exit !(v != "" && v + 0 > 0 && v + 0 < 1e-150) }'
}
check "extreme values (1e-200 against 1e200): the log ratio does not underflow to -inf, the ratio is about 1e-200, not empty" extreme_finite
# three kernels, one per combination, and 2 of 24 runs on a busy host
# (host_cpu_busy above host.txt's busy-limit 0.2): both said before the verdict
mkdir -p "$tmp/kernels"
gen "$tmp/kernels/all.csv" seed=12 reps=8 boots=1 extra=1 workloads=1 \
	"combos=stock=none;rfc-before=PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE+LEGACY_LOAD;rfc-after=PJT_SHORT_TASKS+PJT_BUSIEST+PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print $0, "host_cpu_busy"; next }
	{ $c["kernel_sha256"] = $c["combo"] == "stock" ? "aaaa1111" : $c["combo"] == "rfc-before" ? "bbbb2222" : "cccc3333"
	  print $0, ($c["seq"] == 5 || $c["seq"] == 9) ? 0.4 : 0.01 }' "$tmp/kernels/all.csv" >"$tmp/kernels/runs.csv"
printf 'busy-limit: 0.2\n' >"$tmp/kernels/host.txt"
"$top/run/stats" -q --report "$tmp/kernels" >/dev/null 2>"$tmp/kernels.err"
check "combinations on three different kernels: a warning naming file:line and both kernels, and the report says so before the verdict" \
	sh -c "grep -q 'warning: .*/kernels/runs.csv:3: combo .rfc-before. ran kernel_sha256 bbbb2222..., combo .stock. (line 2) aaaa1111...: a ratio between combinations of two builds' '$tmp/kernels.err' &&
	       sed -n '/^## Summary/,/^#### The declared/p' '$tmp/kernels/report.md' | grep -q '^Kernels: these runs booted 3 different kernels (kernel_sha256)'"
check "runs on a busy host are counted in the summary, against host.txt's busy-limit (2 of 24 above 0.2)" \
	sh -c "sed -n '/^## Summary/,/^### Topology/p' '$tmp/kernels/report.md' | grep -q '^Busy host: 2 of 24 runs were measured while the host.s other load was above 0.2 of its CPUs'"
# boot 1 of rfc-zero-pulls.csv pasted in again as boot 9, new seqs: refused
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } { print }
	NR > 1 && $c["boot"] == 1 { copy[++n] = $0 }
	END { for (i = 1; i <= n; i++) { $0 = copy[i]; $c["boot"] = 9; $c["seq"] = 100 + i; print } }' \
	"$fixtures/rfc-zero-pulls.csv" >"$tmp/pasted.csv"
check "a boot pasted in twice (boot 1 again as boot 9, new seqs): exit 2, FILE:26 names the copy and the boot it repeats" \
	sh -c "'$top/run/stats' -q -o '$tmp/pasted' '$tmp/pasted.csv' 2>'$tmp/pasted.err'; [ \$? -eq 2 ] &&
	       grep -q 'pasted.csv:26: boot 9 repeats boot 1 (from line 2) run for run' '$tmp/pasted.err'"
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
# the family: pulls (the primary endpoint) of duty and of pingpong, both
# p = 2/64, Holm 0.0625; migrations follows pulls in a fixed sequence:
# its q is at least its primary's
check "declared rfc-after against stock: migrations 0.4, all 6 blocks below 1, signed-rank p = 2/64; a secondary after pulls (Holm over 2: 0.0625), q 0.0625, not starred" \
	expect_fields "$fact/summary.csv" rfc-after duty migrations "ratio_to_stock=0.4 ratio_to_stock_level=96.875 ratio_to_stock_p=0.03125 ratio_to_stock_q=0.0625 ratio_to_stock_sig="
check "undeclared comparisons and effects are marginal: a p, no q, never a star (comparisons.csv: exploratory)" \
	sh -c "expect_fields() { :; }; [ -z \"\$(awk -F, 'NR > 1 && \$3 == \"rfc-before\" && \$5 == \"migrations\" { print \$30 \$31; exit }' '$fact/summary.csv')\" ] &&
	       ! awk -F, 'NR > 1 { print \$19 }' '$fact/effects.csv' | grep -q . &&
	       grep -q '^1x4x1,duty[^,]*,rfc-before,stock,migrations,1,exploratory,' '$fact/comparisons.csv' &&
	       grep -q '^1x4x1,duty[^,]*,rfc-after,stock,lb_pulls_total,1,confirmatory,' '$fact/comparisons.csv' &&
	       grep -q '^1x4x1,duty[^,]*,rfc-after,stock,migrations,1,secondary (fixed sequence),' '$fact/comparisons.csv'"
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
printf 'name rfc\nsmp 4\nreps 6\ncombo stock\ncompare rfc-after rfc-before\n' >"$res/quick.matrix"
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
	[ $count -eq 16 ] || { echo "$count charts, want 8 per workload x 2"; return 1; }
}
check "every chart is a valid non-empty PNG (8-byte signature) with its SVG, 8 per workload" png_ok
ratio_chart_ok() {
	spec=$res/plots-data/s1/s1-ratios.gp
	[ -s "$res/charts/s1-ratios.png" ] && [ -s "$res/charts/s2-ratios.png" ] || { echo "no ratio charts"; return 1; }
	# one panel per primary metric, pulls first
	grep -qx 'npanels = 4' "$spec" && grep -qx 'ptitle\[1\] = "pulls (lb_pulls_total)"' "$spec" || { echo "panels"; return 1; }
	# the declared comparison first, filled (1), in rfc-after's colour (#0072b2 = 29362)
	sed -n 2p "$res/plots-data/s1/ratios-lb_pulls_total.dat" | grep -q '^0 0\.333[0-9]* 0\.[0-9]* 0\.[0-9]* 29362 1$' || { echo "declared row"; return 1; }
	grep -q "^pytics\\[1\\] = \"set ytics ('rfc-after / rfc-before' 0, 'rfc-before / stock' 1, " "$spec" || { echo "row names"; return 1; }
	# its ratio and Holm p on the right, the others' ratio and marginal p,
	# a secondary's fixed-sequence p; units and level once, in the subtitle
	grep -q "^py2tics\\[1\\] = \"set y2tics ('0\\.333, Holm p=0.062' 0, '[0-9]\\.[0-9][0-9][0-9], p=0.031' 1, " "$spec" || { grep py2tics "$spec"; echo "tests"; return 1; }
	grep -q "^py2tics\\[2\\] = \"set y2tics ('[0-9]\\.[0-9][0-9][0-9], fixed-sequence p=" "$spec" || { grep py2tics "$spec"; echo "a secondary's p"; return 1; }
	grep -q '^chart_subtitle = ".*over 6 blocks with 96.88% intervals' "$spec" || { echo "subtitle"; return 1; }
	! grep -q 'over 6 blocks' "$res/plots-data/s1/ratios-lb_pulls_total.dat" || { echo "units in the rows"; return 1; }
	# a log axis fitted to the data, with 1 inside and a line at 1
	grep -q "^pxtics\\[1\\] = \"set xtics (.*'1' 1[,)]" "$spec" && grep -q 'set logscale x' "$top/plots/ratios.gp" &&
		grep -q 'set arrow 1 from 1, graph 0 to 1, graph 1' "$top/plots/ratios.gp" || { echo "axis"; return 1; }
}
check "a paired-ratio chart per workload, a panel per primary metric on its own log axis with a line at 1: the declared comparison first (filled, its ratio and Holm p), the others marginal; units and level once, in the title" ratio_chart_ok
mentions_combos() {
	for combo in $(awk -F, 'NR > 1 { print $3 }' "$res/runs.csv" | sort -u); do
		grep -q -- "$combo" "$res/report.md" || { echo "report.md lacks $combo"; return 1; }
		grep -q -- "$combo" "$res/report.html" || { echo "report.html lacks $combo"; return 1; }
	done
}
check "the report mentions every combination of runs.csv" mentions_combos
check "the report embeds the charts and records what is missing" \
	sh -c "[ \$(grep -o 'data:image/png;base64,iVBORw0KGgo' '$res/report.html' | wc -l) -eq 16 ] &&
	       grep -q 'Host (host.txt): not recorded' '$res/report.md' &&
	       grep -q 'Linux 6.1.0-pjt' '$res/report.md' && grep -q 'reps 6' '$res/report.md'"
check "the RFC section states our paired ratio, its level and where the RFC's falls against our interval" \
	sh -c "grep -q '^Ours: Median \\[[0-9.]*% interval\\] of n=6 runs per combination.*; the paired ratio \\[96.88% interval\\] over 6 blocks' '$res/report.md' &&
	       grep -Eq '^\\| Average number of migrations \\(pulls\\) \\(lb_pulls_total\\) \\| 0 \\| 46 \\| 0\\.000 \\(-100\\.0%\\) \\| .* \\| 0\\.333 \\[0\\.[0-9]+, 0\\.[0-9]+\\], Holm p=0\\.0625 \\| below our interval \\|\$' '$res/report.md'"
check "the report names the adjustment next to the stars, with the family size" \
	grep -q "\\* = resolved: a primary endpoint (pulls) after Holm's adjustment at 5% over the declared family of 2 tests" "$res/report.md"
check "the report says rfc-pelt is absent, so no decomposition" \
	grep -q 'rfc-pelt (PJT_IMBALANCE PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY) is not in this matrix' "$res/report.md"
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

# ---- coverage: simulated lognormal data with known medians (order.c's
# own intervals). 20000 replications: the standard error of a coverage
# near 0.9 is 0.002, so a tolerance of 0.01 holds the claimed level and
# still tells 93.75% (n=5) from the 95% a bootstrap label would claim.
coverage() { # coverage KIND N: the empirical coverage within 0.01 of the claim
	line=$("$top/build/pjt-stats" --coverage "$1" "$2" 20000 "$2") || return 1
	echo "$line"
	echo "$line" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		END { d = v["empirical"] - v["claimed"]; if (d < 0) d = -d
		      exit !(d <= 0.01 && (v["null_rejections"] == "" || v["null_rejections"] <= 0.06)) }'
}
for kind in median ratio boots; do
	for size in 3 4 5 7 10; do
		check "coverage of the $kind interval at n=$size is its printed level (+-0.01); null rejections <= 6%" \
			coverage $kind $size
	done
done
misstated() { # the 5-run interval is not a 95% one: the tolerance can tell
	"$top/build/pjt-stats" --coverage median 5 20000 5 | awk '{ split($5, kv, "="); e = kv[2] }
		END { d = e - 0.95; if (d < 0) d = -d; exit !(d > 0.01) }'
}
check "the coverage test would fail a 5-run interval labelled 95% (93.75% is more than 0.01 away)" misstated
pooled_fails() { # blocks of 3 boots pooled as if independent: the claim does not hold
	"$top/build/pjt-stats" --coverage pooled 5 20000 5 | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		END { print; exit !(v["empirical"] < v["claimed"] - 0.1 && v["null_rejections"] > 0.15) }'
}
check "with boot-to-boot variance, pooling the blocks would undercover (why boots are the units)" pooled_fails
check "levels of (min, max): n=2 50%, 3 75%, 4 87.5%, 5 93.75%; n=6 96.875%" \
	sh -c "for n in 2 3 4 5 6; do '$top/build/pjt-stats' --coverage median \$n 1 1; done |
	       awk '{ split(\$4, kv, \"=\"); printf \"%s \", kv[2] }' | grep -qx '0.5000 0.7500 0.8750 0.9375 0.9688 '"

# ---- multiplicity: null data shaped like quick.matrix (6 combos x 2
# workloads, no real difference anywhere). With Benjamini-Hochberg over
# the ~100 primary comparisons a star on null data is rare: at most 1 of
# 12 seeds may have any (its expected rate is <= 5%); without the
# adjustment every seed would have several.
null_runs() { # null_runs REPS: seeds with any star, total stars, total family
	any=0 total=0 family=0 secondary=0
	for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
		gen "$tmp/null.csv" seed=$seed reps=$1
		"$top/run/stats" -q -o "$tmp/null" --declare rfc-after,rfc-before --declare rfc-after,stock \
			--declare PJT_IDLEST,stock "$tmp/null.csv" || return 1
		set -- "$1" $(stars "$tmp/null")
		[ "$2" -gt 0 ] && any=$((any + 1))
		total=$((total + $2)) family=$((family + $3)) secondary=$((secondary + $4))
		set -- "$1"
	done
	echo "$1 reps: $any seeds of 12 with a star, $total stars in $family comparisons, $secondary on secondary metrics"
}
null_ok() { # null_ok REPS MAX_SEEDS_WITH_A_STAR
	out=$(null_runs "$1") || return 1
	echo "$out"
	set -- "$2" $out
	[ "$4" -le "$1" ] && [ "$((${11} * 100))" -le "$((${14} * 5))" ] && [ "${16}" -eq 0 ] && [ "${14}" -ge 200 ]
}
check "null data, 4 reps: no star at all (4 blocks: the smallest sign-test p is 2/16)" null_ok 4 0
check "null data, 12 reps, 3 declared comparisons: at most 1 of 12 seeds with a star (Holm: familywise 5%), none secondary" null_ok 12 1
gen "$tmp/real.csv" seed=1 reps=12 effect=rfc-after:0.5
"$top/run/stats" -q -o "$tmp/real" --declare rfc-after,stock --declare=rfc-after,rfc-before "$tmp/real.csv"
check "a real declared effect (rfc-after halves the primary metrics, 12 reps) is starred after Holm" \
	expect_fields "$tmp/real/summary.csv" rfc-after duty lb_pulls_total "ratio_to_stock_sig=* ratio_to_rfc_before_sig=*"
check "... but not on a secondary metric that did not change (duration_s has no star)" \
	expect_fields "$tmp/real/summary.csv" rfc-after duty duration_s "primary=0 ratio_to_stock_sig="

# ---- the design: blocks, boots, columns by name, references by feature set
gen "$tmp/boots.csv" seed=2 reps=4 boots=3 extra=1
"$top/run/stats" -q -o "$tmp/boots" "$tmp/boots.csv"
check "3 boots: the ratio's units are the boots (3, at 75%), not the 12 blocks" \
	expect_fields "$tmp/boots/summary.csv" rfc-after duty migrations "ratio_to_stock_units=3 ratio_to_stock_unit=boot ratio_to_stock_level=75"
effect_is() { # effect_is FILE METRIC TERM COLUMN VALUE
	got=$(effect_of "$1" "$2" "$3" "$4")
	[ "$got" = "$5" ] || { echo "$2 $3 $4: got '$got', want '$5'"; return 1; }
}
check "3 boots: effects too are over the 3 boots" \
	effect_is "$tmp/boots/effects.csv" migrations PJT_SHORT_TASKS units 3
gen "$tmp/oneboot.csv" seed=2 reps=4 boots=1 extra=1
"$top/run/stats" -q -o "$tmp/oneboot" "$tmp/oneboot.csv"
check "1 boot: the units are the 4 blocks (87.5%)" \
	expect_fields "$tmp/oneboot/summary.csv" rfc-after duty migrations "ratio_to_stock_units=4 ratio_to_stock_unit=block ratio_to_stock_level=87.5"
# the same runs with the columns in another order and extra text columns
awk -F, -v OFS=, '{ s = $NF; $NF = ""; print s, (NR == 1 ? "x1" : "sha-x"), $0 "9z" }' "$fixtures/factorial-2x2.csv" |
	sed '1s/^status,x1,/status,image_sha256,/; 1s/9z$/notes/' >"$tmp/shuffled.csv"
"$top/run/stats" -q -o "$tmp/shuffled" --declare rfc-after,stock "$tmp/shuffled.csv"
check "columns are read by name: reordered columns and unknown text columns give the same summary.csv" \
	cmp "$fact/summary.csv" "$tmp/shuffled/summary.csv"

byset="base=none;stock=LEGACY_LOAD;old=LEGACY_LOAD+PJT_WAKE_AFFINE+PJT_IDLEST+PJT_MOVE_TASKS+PJT_IMBALANCE"
byset="$byset;mid=PJT_WAKE_AFFINE+PJT_IDLEST+PJT_IMBALANCE+PJT_MOVE_TASKS"
byset="$byset;new=PJT_BUSIEST+PJT_WAKE_AFFINE+PJT_IDLEST+PJT_MOVE_TASKS+PJT_IMBALANCE+PJT_SHORT_TASKS"
mkdir -p "$tmp/byset"
gen "$tmp/byset/runs.csv" seed=4 reps=10 effect=new:0.5 "combos=$byset"
printf 'compare\tnew\tmid\n' >"$tmp/byset/plan.txt"
"$top/run/report" "$tmp/byset" >/dev/null 2>&1
check "references by feature set: 'base' (no bit) is stock; the combo named stock (LEGACY_LOAD) is not" \
	sh -c "expect_fields() { :; }; grep -q '^1x4x1,duty[^,]*,base,none,migrations,.*' '$tmp/byset/summary.csv' &&
	       [ -n \"\$(awk -F, '\$3 == \"stock\" && \$5 == \"migrations\" { print \$19; exit }' '$tmp/byset/summary.csv')\" ] &&
	       [ -z \"\$(awk -F, '\$3 == \"base\" && \$5 == \"migrations\" { print \$19; exit }' '$tmp/byset/summary.csv')\" ]"
check "rfc-before and rfc-pelt are found with their bits in any order: 'new' has both ratios" \
	expect_fields "$tmp/byset/summary.csv" new duty migrations "ratio_to_rfc_before_units=10 ratio_to_rfc_pelt_units=10 ratio_to_rfc_pelt_sig=*"
check "the report decomposes the RFC's change: metric's effect (mid/old) and new rules' effect (new/mid)" \
	sh -c "grep -q \"^- The RFC's change, new against old: [0-9.]*% fewer pulls (0\\.\" '$tmp/byset/report.md' &&
	       grep -q \"^- The metric's effect, mid against old: \" '$tmp/byset/report.md' &&
	       grep -q \"^- duty [^:]*: new against mid: [0-9.]*% fewer pulls (0\\.[0-9]* \\[\" '$tmp/byset/report.md'"

# a reference of 0 pulls in every block: no ratio (not (x+1)/(0+1)), the
# sides' medians per run and the sign test of the blocks' counts; never "inf"
awk -F, -v OFS=, 'NR > 1 && $3 == "stock" { $8 = $9 = $10 = 0 } { print }' "$fixtures/factorial-2x2.csv" >"$tmp/zero.csv"
"$top/run/stats" -q -o "$tmp/zero" "$tmp/zero.csv"
check "a reference of 0 pulls in every block: no ratio, 40 against 0 in the note, the sign test's p 2/2^6, no cell says inf" \
	sh -c "grep '^1x4x1,duty[^,]*,rfc-after,.*,lb_pulls_total,' '$tmp/zero/summary.csv' |
	       grep -q ',,,,,6,block,0.03125,,,\"the reference 0 in every block: no ratio; per run 40 against 0, sign test of the counts per block\",' && ! grep -qi 'inf,' '$tmp/zero/summary.csv'"

# zeros on the combination's side in 3 of 6 blocks: those blocks' log
# ratios are -inf (ratio 0), counted by their sign: the median block ratio
# between 0 and 0.4 (their mean as ratios, 0.2), the interval [0, 0.434]
# and the test stand on 6 units, unshifted
awk -F, -v OFS=, 'NR > 1 && $3 == "rfc-after" && $6 < 4 { $8 = $9 = $10 = 0 } { print }' "$fixtures/factorial-2x2.csv" >"$tmp/halfzero.csv"
"$top/run/stats" -q -o "$tmp/halfzero" "$tmp/halfzero.csv"
check "half the blocks 0 on one side: a ratio with both bounds on log(x+1), p over the 6 units it states" \
	expect_fields "$tmp/halfzero/summary.csv" rfc-after duty lb_pulls_total \
	"ratio_to_stock=0.2 ratio_to_stock_lo=0 ratio_to_stock_hi=0.4339622642 ratio_to_stock_level=96.875 ratio_to_stock_units=6 ratio_to_stock_p=0.03125 ratio_to_stock_note=3_blocks_with_a_0_on_one_side_(log_ratio_-inf_or_+inf:_counted_by_its_sign)"
# the old case: a 0 reference in a boot of two blocks made that boot's unit
# infinite or NaN, the label "4 boots" and the p from 3
awk -F, -v OFS=, 'NR == 1 { print $0 ",boot"; next } { b = int(($6 - 1) / 2) + 1; if ($3 == "stock" && $6 == 1) $8 = $9 = $10 = 0; print $0 "," b }' \
	"$fixtures/factorial-2x2.csv" >"$tmp/zeroboot.csv"
"$top/run/stats" -q -o "$tmp/zeroboot" "$tmp/zeroboot.csv"
finite_units() { # every present ratio has both bounds, and p over its stated units
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["metric"] == "lb_pulls_total" && $c["ratio_to_stock"] != "" {
			if ($c["ratio_to_stock_lo"] == "" || $c["ratio_to_stock_hi"] == "") { print "empty bound: " $0; bad = 1 }
			if ($c["ratio_to_stock_units"] != 3) { print "units " $c["ratio_to_stock_units"] ": " $0; bad = 1 }
			n++ }
		END { exit bad || !n }' "$1"
}
check "a 0 reference in a boot of two blocks: every boot unit finite, both bounds present, 3 boots stated" \
	finite_units "$tmp/zeroboot/summary.csv"

# interval and p from one procedure: 10 blocks, 9 slightly above 1 and one
# far below. The 97.85% interval [x(2), x(9)] excludes 1; the signed-rank p
# was 0.084 (an interval excluding 1 with p > 0.05); the sign test gives
# 2 (1 + 10) / 1024 = 0.0215 = 1 - 97.85%
awk -F, -v OFS=, 'NR == 1 { print; next } ($3 == "stock" || $3 == "rfc-after") && !done[$3]++ { for (r = 1; r <= 10; r++) {
	$1 = ++seq; $6 = r; $NF = "ok"; $14 = ($3 == "stock") ? 100 : (r < 10 ? 100 + r : 50); print } }' \
	"$fixtures/small-sets.csv" >"$tmp/onefar.csv"
"$top/run/stats" -q -o "$tmp/onefar" "$tmp/onefar.csv"
check "interval and p from one procedure: an interval excluding 1 at 97.85% comes with p = 0.0215 = 1 - level" \
	expect_fields "$tmp/onefar/summary.csv" rfc-after duty migrations \
	"ratio_to_stock_units=10 ratio_to_stock_level=97.8515625 ratio_to_stock_p=0.021484375"
consistent() { # every ratio and effect: the interval excludes 1 iff p <= 1 - level
	awk -F, 'FNR == 1 { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; file++; next }
		function test(v, lo, hi, lv, p) {
			if (lo == "" || hi == "" || lv == "" || p == "") return
			excl = (lo + 0 > 1 || hi + 0 < 1); small = (p + 0 <= 1 - lv / 100 + 1e-9)
			if (excl != small) { print "inconsistent: [" lo ", " hi "] " lv "% p=" p; bad = 1 }
			n++ }
		{ for (k in c) if (k ~ /^ratio_to_[a-z_]*[a-z]$/ && k !~ /_(lo|hi|level|units|unit|p|q|sig|note)$/)
			test($c[k], $c[k "_lo"], $c[k "_hi"], $c[k "_level"], $c[k "_p"])
		  if ("effect" in c) test($c["effect"], $c["ci_lo"], $c["ci_hi"], $c["ci_level"], $c["p"]) }
		END { print n " comparisons"; exit bad || !n }' "$@"
}
gen "$tmp/cons.csv" seed=11 reps=10 boots=1 effect=rfc-after:0.8
"$top/run/stats" -q -o "$tmp/cons" "$tmp/cons.csv"
check "every ratio and effect of a synthetic run: its interval excludes 1 exactly when p <= 1 - level" \
	consistent "$tmp/cons/summary.csv" "$tmp/cons/effects.csv" "$tmp/onefar/summary.csv"

# one kernel and one image per runs.csv (or one per combination, the pool
# run/bench-overhead makes): two builds of one cell are refused
awk -F, -v OFS=, 'NR == 1 { print $0 ",kernel_sha256"; next } { print $0 "," ($6 <= 3 ? "aaaa" : "bbbb") }' \
	"$fixtures/factorial-2x2.csv" >"$tmp/twokernels.csv"
check "runs.csv with two kernel sha256 for one combination: refused (exit 2), naming both" \
	sh -c "'$top/run/stats' -q -o '$tmp/twok' '$tmp/twokernels.csv' 2>'$tmp/twok.err'; [ \$? -eq 2 ] &&
	       grep -q 'more than one kernel_sha256 (bbbb... here, aaaa... at line' '$tmp/twok.err'"
awk -F, -v OFS=, 'NR == 1 { print $0 ",image_sha256"; next } { print $0 "," ($3 == "stock" ? "aaaa" : "bbbb") }' \
	"$fixtures/factorial-2x2.csv" >"$tmp/perkernel.csv"
check "... but one build per combination (run/bench-overhead's pool) is accepted" \
	"$top/run/stats" -q -o "$tmp/perk" "$tmp/perkernel.csv"
awk -F, -v OFS=, 'NR > 1 { $NF = ($1 % 2) ? "crashed" : "failed" } { print }' "$fixtures/factorial-2x2.csv" >"$tmp/noneok.csv"
check "no ok run: run/stats exits non-zero with 'no ok run', and writes no summary" \
	sh -c "'$top/run/stats' -q -o '$tmp/noneok' '$tmp/noneok.csv' 2>'$tmp/noneok.err'; rc=\$?;
	       [ \$rc -ne 0 ] && grep -q 'no ok run' '$tmp/noneok.err' && [ ! -e '$tmp/noneok/summary.csv' ]"
# the boot column is a number: "01" and "1" are one boot
awk -F, -v OFS=, 'NR == 1 { print $0 ",boot"; next } { b = ($6 <= 3) ? 1 : 2; if (b == 1 && $3 == "stock") b = "01"; print $0 "," b }' \
	"$fixtures/factorial-2x2.csv" >"$tmp/boot01.csv"
"$top/run/stats" -q -o "$tmp/boot01" "$tmp/boot01.csv"
check "boot '01' and '1' are one boot: rfc-after against stock over 2 boots, not 3" \
	expect_fields "$tmp/boot01/summary.csv" rfc-after duty migrations "ratio_to_stock_units=2 ratio_to_stock_unit=boot"
# crashed cells first in the summary, each comparison with its own units
mkdir -p "$tmp/crashfirst"
awk -F, -v OFS=, 'NR == 1 { print $0 ",boot"; next } { b = $6; if ($3 == "rfc-after" && $6 <= 3 && $5 ~ /^duty/) $NF = "crashed"; print $0 "," b }' \
	"$fixtures/factorial-2x2.csv" >"$tmp/crashfirst/runs.csv"
"$top/run/report" "$tmp/crashfirst" >/dev/null 2>&1
check "crashed cells come first in the summary, and each comparison states its own units (3 boots, not 6)" \
	sh -c "sed -n '/^## Summary/,/^## Primary metrics/p' '$tmp/crashfirst/report.md' >'$tmp/cf.sum' &&
	       [ \"\$(grep -v '^\$' '$tmp/cf.sum' | sed -n 2p)\" = 'Cells with crashed or failed runs (excluded from the statistics; each comparison below states the units it has):' ] &&
	       grep -q '^- rfc-after, duty .*: 3 of 6 runs crashed, 0 failed (3 ok)\.\$' '$tmp/cf.sum' &&
	       grep -q '^Paired ratios \[[0-9.]*% interval\] over 6 boots (unless one says otherwise)' '$tmp/cf.sum' &&
	       grep '^- rfc-after against stock' '$tmp/cf.sum' | head -1 | grep -q 'pulls -58.3% \\[-60.0%, -56.6%\\] (3 boots, 75%)' &&
	       ! grep '^- rfc-before against stock' '$tmp/cf.sum' | head -1 | grep -q 'boots'"

# patch 17's PJT_CLASSIFY beside the RFC's reference points: still them
gen "$tmp/classify.csv" seed=1 reps=4 "combos=stock=none;rfc-before=PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE+PJT_CLASSIFY+LEGACY_LOAD;rfc-after=PJT_SHORT_TASKS+PJT_BUSIEST+PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE+PJT_CLASSIFY"
"$top/run/stats" -q -o "$tmp/classify" "$tmp/classify.csv"
check "rfc-before and rfc-after with PJT_CLASSIFY (patch 17) are the RFC's reference points: rfc-after has its ratio to rfc-before" \
	expect_fields "$tmp/classify/summary.csv" rfc-after duty migrations "ratio_to_rfc_before_units=4"

# ---- Kalibera-Jones: where the variance is, and what to run. Paired log
# ratios rfc-after/stock of records/s: boot 1 {0, 0.2}, boot 2 {0.4, 0.6},
# boot 3 {0.8, 1.0}: within-boot variance 0.02; boot means 0.1, 0.5, 0.9,
# variance 0.16; between = 0.16 - 0.02/2 = 0.15
mkdir -p "$tmp/kj"
awk -F, -v OFS=, 'NR == 1 { print $0 ",boot"; next } ($3 == "stock" || $3 == "rfc-after") && !done[$3]++ {
	for (b = 1; b <= 3; b++) for (r = 1; r <= 2; r++) { d = (b - 1) * 0.4 + (r - 1) * 0.2
		$1 = ++seq; $6 = (b - 1) * 2 + r; $NF = "ok"; $16 = sprintf("%.9f", 1000 * ($3 == "stock" ? 1 : exp(d))); print $0 "," b } }' \
	"$fixtures/small-sets.csv" >"$tmp/kj/runs.csv"
printf 'name kj\nsmp 4\nduration 2s\nsettle 1s\nreps 6\nboots 3\ncombo stock\ncompare rfc-after stock\nworkload duty threads=8\n' >"$tmp/kj/kj.matrix"
"$top/run/report" "$tmp/kj" >/dev/null 2>&1
check "report: per workload the between-boot (0.15) and within-boot (0.02) variance of the paired log ratios, the design run, its power for 30% with the half-width, and what reaches 3%" \
	sh -c "sed -n '/^## Where the variance is/,/^## Secondary metrics/p' '$tmp/kj/report.md' >'$tmp/kj.sec' &&
	       grep -q '^Paired to stock\.' '$tmp/kj.sec' &&
	       grep -Eq '^\| records_per_s \| 0\.15 \| 0\.02 \| 3 boots x 2 \| [01]\.[0-9]{2} \(\+-[0-9]+%\) \| 3% \| (more than 200 boots|[0-9]+ x [0-9]+ \([0-9]+ min\)) \|$' '$tmp/kj.sec'"
check "run/plan-design PILOT --half-width records_per_s=30%: the table, and the pilot's matrix with boots and reps set" \
	sh -c "mkdir -p '$tmp/kj/out' && '$top/run/plan-design' '$tmp/kj' --half-width=records_per_s=30% --out '$tmp/kj/out/plan.matrix.txt' >'$tmp/kj-plan.out' 2>&1 &&
	       grep -Eq '^records_per_s +duty threads=8 duty=10 +0.15 +0.02 ' '$tmp/kj-plan.out' &&
	       grep -Eq '^boots +[0-9]+\$' '$tmp/kj/out/plan.matrix.txt' && grep -Eq '^reps +[0-9]+\$' '$tmp/kj/out/plan.matrix.txt' &&
	       grep -q '^compare rfc-after stock\$' '$tmp/kj/out/plan.matrix.txt' &&
	       [ \$(sed -n 's/^boots *//p' '$tmp/kj/out/plan.matrix.txt') -ge 6 ]"
check "run/plan-design: a bad --half-width is a usage error (exit 2)" \
	sh -c "'$top/run/plan-design' --half-width records_per_s '$tmp/kj' >/dev/null 2>&1; [ \$? -eq 2 ]"

# every 2^k design: the old per-bit shape (each bit alone, and with LEGACY_LOAD)
bits="stock=none;L=LEGACY_LOAD;S=PJT_SHORT_TASKS;B=PJT_BUSIEST;I=PJT_IDLEST"
bits="$bits;LS=LEGACY_LOAD+PJT_SHORT_TASKS;LB=PJT_BUSIEST+LEGACY_LOAD;LI=LEGACY_LOAD+PJT_IDLEST"
gen "$tmp/bits.csv" seed=5 reps=3 "combos=$bits"
"$top/run/stats" -q -o "$tmp/bits" "$tmp/bits.csv"
designs "$tmp/bits/effects.csv" >"$tmp/designs"
check "the per-bit shape: three 2x2 designs (each bit x LEGACY_LOAD), all reported" \
	is_text "$tmp/designs" "$(printf '%s\n' 'LEGACY_LOAD+PJT_BUSIEST none 4' 'LEGACY_LOAD+PJT_IDLEST none 4' 'LEGACY_LOAD+PJT_SHORT_TASKS none 4')"
gen "$tmp/based.csv" seed=5 reps=3 "combos=L=LEGACY_LOAD;LS=LEGACY_LOAD+PJT_SHORT_TASKS;LB=PJT_BUSIEST+LEGACY_LOAD;LSB=LEGACY_LOAD+PJT_BUSIEST+PJT_SHORT_TASKS;other=PJT_IDLEST"
"$top/run/stats" -q -o "$tmp/based" "$tmp/based.csv"
designs "$tmp/based/effects.csv" >"$tmp/designs"
check "a design with the other bits held at LEGACY_LOAD (no 'none' cell) is found, base LEGACY_LOAD" \
	is_text "$tmp/designs" 'PJT_SHORT_TASKS+PJT_BUSIEST LEGACY_LOAD 4'
check "a 2^3 design is one design (main effects and the three interactions), not its 2x2 faces" \
	sh -c "awk -F, -v OFS=, 'NR > 1 && \$3 ~ /^(stock|rfc-after|PJT_SHORT_TASKS|PJT_BUSIEST|PJT_SHORT_TASKS\\+PJT_BUSIEST)\$/' '$fixtures/factorial-2x2.csv' >/dev/null;
	       awk -v seed=6 -v reps=3 -v 'combos=n=none;a=PJT_IDLEST;b=PJT_BUSIEST;c=LEGACY_LOAD;ab=PJT_IDLEST+PJT_BUSIEST;ac=PJT_IDLEST+LEGACY_LOAD;bc=PJT_BUSIEST+LEGACY_LOAD;abc=PJT_IDLEST+PJT_BUSIEST+LEGACY_LOAD' -f '$fixtures/gen-runs.awk' >'$tmp/cube.csv' &&
	       '$top/run/stats' -q -o '$tmp/cube' '$tmp/cube.csv' &&
	       [ \"\$(awk -F, 'NR > 1 && \$3 == \"migrations\" && \$2 ~ /^duty/ { print \$5 \" \" \$9 }' '$tmp/cube/effects.csv' | sort | tr '\\n' ,)\" = 'LEGACY_LOAD 8,PJT_BUSIEST 8,PJT_BUSIEST:LEGACY_LOAD 8,PJT_IDLEST 8,PJT_IDLEST:LEGACY_LOAD 8,PJT_IDLEST:PJT_BUSIEST 8,' ]"

# A 2^(8-4) resolution-IV fraction with known main effects: each cell's
# primary metrics are the product of its bits' ratios (PJT_SHORT_TASKS 0.5,
# PJT_IDLEST 1.5, LEGACY_LOAD 0.8, the others 1), lognormal noise and block
# and boot effects on top; 6 boots of 2 blocks.  pjt-stats must find the
# fraction from the cells alone.
mkdir -p "$tmp/frac"
gen "$tmp/frac/runs.csv" seed=11 reps=2 boots=6 extra=1 workloads=1 "combos=$(awk -f "$fixtures/gen-fraction.awk")" \
	'bit_effects=PJT_SHORT_TASKS:0.5;PJT_IDLEST:1.5;LEGACY_LOAD:0.8'
"$top/run/stats" -q --report "$tmp/frac" >/dev/null 2>&1
frac_within() { # every main effect on pulls, migrations and records/s holds its true ratio
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["order"] == 1 && ($c["metric"] == "lb_pulls_total" || $c["metric"] == "migrations" || $c["metric"] == "records_per_s") {
			want = $c["term"] == "PJT_SHORT_TASKS" ? 0.5 : $c["term"] == "PJT_IDLEST" ? 1.5 : $c["term"] == "LEGACY_LOAD" ? 0.8 : 1
			n++
			if ($c["cells"] != 16 || $c["aliases"] != "" || !($c["ci_lo"] <= want && want <= $c["ci_hi"])) {
				print $c["metric"], $c["term"], $c["effect"], "[" $c["ci_lo"] ", " $c["ci_hi"] "]", "want", want; bad++ }
		}
		END { if (n != 24) print n " main effects, want 24"; exit bad || n != 24 }' "$1"
}
check "2^(8-4) IV fraction found from its 16 cells: each of the 8 main effects on pulls, migrations and records/s within its interval of the true ratio (0.5, 1.5, 0.8, else 1), no two-bit alias" \
	frac_within "$tmp/frac/effects.csv"
check "2^(8-4) IV: a two-bit interaction is reported with its alias chain (PJT_SHORT_TASKS:PJT_BUSIEST = LEGACY_LOAD:PJT_MOVE_TASKS = ...: bits named in the order runs.csv first shows them), one per chain: 7 chains" \
	sh -c "awk -F, 'NR > 1 && \$3 == \"lb_pulls_total\" && \$6 == 2' '$tmp/frac/effects.csv' >'$tmp/frac-2fi' &&
	       [ \$(wc -l <'$tmp/frac-2fi') = 7 ] &&
	       grep -q ',PJT_SHORT_TASKS:PJT_BUSIEST,.*,LEGACY_LOAD:PJT_MOVE_TASKS = PJT_CLASSIFY:PJT_IMBALANCE = PJT_WAKE_AFFINE:PJT_IDLEST,\$' '$tmp/frac/effects.csv'"
check "the report names the fraction and each effect's aliases" \
	sh -c "grep -q 'Fractional factorial design 1 over .*(2^(8-4), resolution 4: 16 cells' '$tmp/frac/report.md' &&
	       grep -q '| PJT_SHORT_TASKS (aliased: none up to two bits) | lb_pulls_total |' '$tmp/frac/report.md'"
# The bits' own family: a design's main effects of one metric carry
# Holm's q over the design's 8 bits, recomputed here from their p; an
# interaction has none, and nothing is starred.  9 boots of one block (the
# fewest whose smallest p, 2/2^9, passes Holm's first threshold 0.05/8).
holm_of_bits() { # FILE: every main effect's q is Holm over its metric's 8 p
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["order"] == 1 && $c["p"] != "" { k = $c["metric"]; n[k]++; p[k, n[k]] = $c["p"]; q[k, n[k]] = $c["q"] }
		$c["order"] == 2 && $c["q"] != "" { print "interaction with a q:", $c["term"]; bad++ }
		$c["sig"] != "" { print "starred:", $c["term"]; bad++ }
		END {
			for (k in n) {
				if (n[k] != 8) { print k ": " n[k] " main effects"; bad++ }
				for (i = 1; i <= n[k]; i++) { s[i] = p[k, i]; o[i] = i }
				for (i = 2; i <= n[k]; i++) # indices by ascending p
					for (j = i; j > 1 && s[o[j - 1]] > s[o[j]]; j--) { t = o[j]; o[j] = o[j - 1]; o[j - 1] = t }
				run = 0
				for (j = 1; j <= n[k]; j++) {
					v = (n[k] - j + 1) * s[o[j]]; if (v > 1) v = 1; if (v > run) run = v
					d = q[k, o[j]] - run
					if (q[k, o[j]] == "" || d > 1e-9 || d < -1e-9) { print k, "effect", o[j], "q", q[k, o[j]], "want", run; bad++ }
				}
				m++
			}
			if (m < 3) { print m " metrics"; bad++ }
			exit bad + 0
		}' "$1"
}
mkdir -p "$tmp/frac9"
gen "$tmp/frac9/runs.csv" seed=13 reps=1 boots=9 extra=1 workloads=1 "combos=$(awk -f "$fixtures/gen-fraction.awk")" \
	'bit_effects=PJT_SHORT_TASKS:0.5;PJT_IDLEST:1.5'
"$top/run/stats" -q --report "$tmp/frac9" >/dev/null 2>&1
check "a fraction's main effects: q is Holm over the design's 8 bits of each metric (recomputed from their p), no q for an interaction, no star" \
	holm_of_bits "$tmp/frac9/effects.csv"
check "9 boots: the true 0.5 and 1.5 on pulls pass Holm over the 8 bits (q <= 0.05), a bit with no effect does not" \
	sh -c "$(declare_fn effect_of); awk 'BEGIN { exit !(length(ARGV[1]) && length(ARGV[2]) && length(ARGV[3]) && ARGV[1] <= 0.05 && ARGV[2] <= 0.05 && ARGV[3] > 0.05) }' \
	       \"\$(effect_of '$tmp/frac9/effects.csv' lb_pulls_total PJT_SHORT_TASKS q)\" \"\$(effect_of '$tmp/frac9/effects.csv' lb_pulls_total PJT_IDLEST q)\" \
	       \"\$(effect_of '$tmp/frac9/effects.csv' lb_pulls_total PJT_BUSIEST q)\""
check "6 boots: no main effect passes Holm over the 8 bits (the smallest q is 8 x 2/2^6 = 0.25)" \
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["order"] == 1 && $c["q"] != "" && $c["q"] < 0.25 { bad++ } END { exit bad + 0 }' "$tmp/frac/effects.csv"
check "the report's fraction table gives each main effect its q over the bits" \
	sh -c "grep -q '^| PJT_SHORT_TASKS (aliased: none up to two bits) | lb_pulls_total | .*, q=0.0312 |' '$tmp/frac9/report.md' &&
	       grep -q 'q: Holm over the design.s 8 main effects of that metric' '$tmp/frac9/report.md'"
check "where the report calls p and intervals not adjusted, it excepts the main effects' q (legend, exploratory section)" \
	sh -c "[ \"\$(grep -c 'not adjusted[a-z ]*, except that a design.s main effects on one metric also carry q' '$tmp/frac9/report.md')\" -ge 2 ]"
# unit_sd: the standard deviation over the boots of a main effect's log
# contrast (mean log of the cells with the bit minus those without),
# recomputed here from runs.csv.
unit_sd_of() { # unit_sd_of DIR METRIC BIT: recomputed, then effects.csv's, one a line
	awk -F, -v metric="$2" -v bit="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["status"] == "ok" && $c[metric] > 0 {
			k = $c["boot"] SUBSEP $c["features"]; s[k] += log($c[metric]); n[k]++; boots[$c["boot"]] = 1; cells[$c["features"]] = 1 }
		END { for (b in boots) { w = wo = nw = nwo = 0
			for (f in cells) { k = b SUBSEP f; if (!(k in n)) continue
				if (("+" f "+") ~ ("[+]" bit "[+]")) { w += s[k] / n[k]; nw++ } else { wo += s[k] / n[k]; nwo++ } }
			d = w / nw - wo / nwo; sum += d; sq += d * d; m++ }
		printf "%.6f\n", sqrt((sq - sum * sum / m) / (m - 1)) }' "$1/runs.csv"
	awk -F, -v metric="$2" -v bit="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["metric"] == metric && $c["term"] == bit { printf "%.6f\n", $c["unit_sd"] }' "$1/effects.csv"
}
unit_sd_matches() { # unit_sd_matches DIR METRIC BIT: both figures there, equal
	unit_sd_of "$@" > "$tmp/usd"
	cat "$tmp/usd"
	[ "$(wc -l < "$tmp/usd")" = 2 ] && awk 'NR == 1 { a = $1 } NR == 2 { b = $1 } END { exit !(a > 0 && (a - b) ^ 2 < 1e-10) }' "$tmp/usd"
}
check "effects.csv's unit_sd of a main effect is its per-boot contrasts' standard deviation (recomputed from runs.csv)" \
	unit_sd_matches "$tmp/frac9" migrations PJT_IDLEST
check "... and of a bit with no effect" unit_sd_matches "$tmp/frac9" records_per_s PJT_BUSIEST
check "run/stats --power --unit-sd: a 3% main effect at a unit spread of 0.029, Holm over 8 bits: 9 boots power below 0.4, 25 boots at least 0.75" \
	sh -c "p9=\$('$top/run/stats' --power --cells 16 --family 8 --boots 9 --blocks 1 --effect 3 --unit-sd 0.029 | sed 's/.*: power \([0-9.]*\) .*/\1/');
	       p25=\$('$top/run/stats' --power --cells 16 --family 8 --boots 25 --blocks 1 --effect 3 --unit-sd 0.029 | sed 's/.*: power \([0-9.]*\) .*/\1/');
	       echo \$p9 \$p25; awk -v a=\$p9 -v b=\$p25 'BEGIN { exit !(a < 0.4 && b >= 0.75) }'"
check "run/stats --power --unit-sd with --pilot: refused (exit 2)" \
	sh -c "'$top/run/stats' --power --boots 9 --blocks 1 --unit-sd 0.02 --pilot '$tmp/frac9' >/dev/null 2>&1; [ \$? = 2 ]"
# Two cells on two bits that are always set together: no design, no q.
mkdir -p "$tmp/nodesign"
gen "$tmp/nodesign/runs.csv" seed=7 reps=4 'combos=s=none;a=PJT_IDLEST+PJT_BUSIEST'
"$top/run/report" "$tmp/nodesign" >/dev/null 2>&1
check "a report with no design's main effects does not mention their q" \
	sh -c "grep -q 'not adjusted' '$tmp/nodesign/report.md' && ! grep -q 'main effects on one metric also carry q' '$tmp/nodesign/report.md' &&
	       [ \$(wc -l < '$tmp/nodesign/effects.csv') = 1 ]"
# A 2^(3-1) resolution-III half (I = ABC): each main effect is aliased
# with the other two bits' interaction, and says so.
gen "$tmp/half.csv" seed=12 reps=4 workloads=1 'combos=n=none;ab=PJT_IDLEST+PJT_BUSIEST;ac=PJT_IDLEST+LEGACY_LOAD;bc=PJT_BUSIEST+LEGACY_LOAD' \
	'bit_effects=PJT_IDLEST:0.5'
"$top/run/stats" -q -o "$tmp/half" "$tmp/half.csv" >/dev/null 2>&1
check "2^(3-1) III: PJT_IDLEST's main effect (0.5 within its interval) is reported aliased with PJT_BUSIEST:LEGACY_LOAD, no interaction of its own" \
	sh -c "$(declare_fn effect_of); [ \"\$(effect_of '$tmp/half/effects.csv' lb_pulls_total PJT_IDLEST aliases)\" = PJT_BUSIEST:LEGACY_LOAD ] &&
	       awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"metric\"] == \"lb_pulls_total\" && \$c[\"term\"] == \"PJT_IDLEST\" { exit !(\$c[\"ci_lo\"] <= 0.5 && 0.5 <= \$c[\"ci_hi\"]) }' '$tmp/half/effects.csv' &&
	       ! awk -F, 'NR > 1 && \$6 == 2' '$tmp/half/effects.csv' | grep -q ."

# ---- which decision points each workload reached (exercised.csv, issue 38)
# Three workloads of the quick cells (a 2^2 design over PJT_SHORT_TASKS and
# PJT_IDLEST), 4 reps, 6 runs a block: 24 ok runs each.  duty: short_tasks
# 5/2/1 per run (differed), idlest 4/0/0 (reached); pingpong pairs=2: idlest
# 3/1/0 (differed), short_tasks 0 (not reached); pingpong pairs=3: counting off.
mkdir -p "$tmp/exer"
gen "$tmp/exer/runs.csv" seed=13 reps=4 workloads=3 'counters=1:short_tasks=5/2/1,idlest=4/0/0;2:idlest=3/1/0'
"$top/run/stats" -q --report "$tmp/exer" >/dev/null 2>&1
exercised_row() { # exercised_row FILE WORKLOAD_PREFIX POINT: "runs evaluated differed applied runs_differed verdict"
	awk -F, -v wl="$2" -v point="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ w = $c["workload"]; gsub(/"/, "", w) }
		index(w, wl) == 1 && $c["point"] == point {
			print $c["runs"], $c["evaluated"], $c["differed"], $c["applied"], $c["runs_differed"], $c["verdict"]; exit }' "$1"
}
expect_exercised() { # expect_exercised FILE WL POINT "runs evaluated differed applied runs_differed verdict"
	got=$(exercised_row "$1" "$2" "$3")
	[ "$got" = "$4" ] || { echo "$2 $3: got '$got', want '$4'"; return 1; }
}
check "exercised.csv: one row per workload x point (3 x 6), its header as INTERFACES.md says" \
	sh -c "[ \"\$(head -1 '$tmp/exer/exercised.csv')\" = topology,workload,point,bit,runs,evaluated,differed,applied,runs_differed,verdict ] &&
	       [ \$(sed 1d '$tmp/exer/exercised.csv' | wc -l) = 18 ]"
check "exercised.csv: duty short_tasks sums 24 runs of 5/2/1 (120, 48, 24), 24 runs differed: differed" \
	expect_exercised "$tmp/exer/exercised.csv" duty short_tasks "24 120 48 24 24 differed"
check "exercised.csv: duty idlest evaluated 96, never differed: reached" \
	expect_exercised "$tmp/exer/exercised.csv" duty idlest "24 96 0 0 0 reached"
pingpong_exercised() {
	expect_exercised "$tmp/exer/exercised.csv" "pingpong pairs=2" short_tasks "24 0 0 0 0 not reached" &&
	expect_exercised "$tmp/exer/exercised.csv" "pingpong pairs=2" idlest "24 72 24 0 24 differed"
}
check "exercised.csv: pingpong pairs=2 short_tasks never evaluated: not reached; its idlest differed" pingpong_exercised
check "exercised.csv: pingpong pairs=3 (counter columns empty): counting off, 0 runs" \
	expect_exercised "$tmp/exer/exercised.csv" "pingpong pairs=3" wake_affine "0 0 0 0 0 counting off"
# a crashed run's counters are not counted
exercised_ok_only() {
	awk -F, 'BEGIN { OFS = "," } NR == 2 { $NF = "crashed" } { print }' "$tmp/exer/runs.csv" >"$tmp/exer-crash.csv"
	"$top/run/stats" -q -o "$tmp/exer-crash" "$tmp/exer-crash.csv" >/dev/null 2>&1 || return 1
	expect_exercised "$tmp/exer-crash/exercised.csv" duty short_tasks "23 115 46 23 23 differed"
}
check "exercised.csv counts ok runs only (one duty run crashed: 23 runs, 115/46/23)" exercised_ok_only
exercised_col() { # exercised_col FILE WL TERM: effects.csv's exercised cell for lb_pulls_total
	awk -F, -v wl="$2" -v term="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ w = $c["workload"]; gsub(/"/, "", w) }
		index(w, wl) == 1 && $c["metric"] == "lb_pulls_total" && $c["term"] == term { print $c["exercised"]; exit }' "$1"
}
expect_exercised_col() {
	got=$(exercised_col "$1" "$2" "$3")
	[ "$got" = "$4" ] || { echo "$2 $3: got '$got', want '$4'"; return 1; }
}
effects_exercised() {
	expect_exercised_col "$tmp/exer/effects.csv" duty PJT_SHORT_TASKS differed &&
	expect_exercised_col "$tmp/exer/effects.csv" duty PJT_IDLEST reached &&
	expect_exercised_col "$tmp/exer/effects.csv" "pingpong pairs=2" PJT_SHORT_TASKS "not reached" &&
	expect_exercised_col "$tmp/exer/effects.csv" "pingpong pairs=3" PJT_IDLEST "counting off" &&
	expect_exercised_col "$tmp/exer/effects.csv" duty PJT_IDLEST:PJT_SHORT_TASKS "" &&
	[ "$(head -1 "$tmp/exer/effects.csv" | awk -F, '{ print $NF }')" = exercised ]
}
check "effects.csv exercised: a main effect's verdict for its bit's point on that workload (differed, reached, not reached, counting off), empty for an interaction" effects_exercised
check "effects.csv exercised: PJT_CLASSIFY and LEGACY_LOAD have no counter (the fraction); a counted bit there differed" \
	sh -c "$(declare_fn effect_of); [ \"\$(effect_of '$tmp/frac/effects.csv' lb_pulls_total PJT_CLASSIFY exercised)\" = 'no counter' ] &&
	       [ \"\$(effect_of '$tmp/frac/effects.csv' lb_pulls_total LEGACY_LOAD exercised)\" = 'no counter' ] &&
	       [ \"\$(effect_of '$tmp/frac/effects.csv' lb_pulls_total PJT_BUSIEST exercised)\" = differed ]"
report_exercised() {
	r=$tmp/exer/report.md
	grep -q '^| PJT_IDLEST | lb_pulls_total | .* (not exercised) | reached |$' "$r" || { echo "duty PJT_IDLEST not marked"; return 1; }
	grep -q '^| PJT_SHORT_TASKS | lb_pulls_total | .* (not exercised) | not reached |$' "$r" || { echo "pingpong PJT_SHORT_TASKS not marked"; return 1; }
	! grep -q '(not exercised) | \(differed\|counting off\) |$' "$r" || { echo "a differed or uncounted effect marked"; return 1; }
	awk '/^### Which points each workload reached/ { on = 1; next } on && /^#/ { exit } on' "$r" >"$tmp/exer-section"
	[ "$(grep -c '^| [a-z_]* | PJT_[A-Z_]* | ' "$tmp/exer-section")" = 18 ] || { echo "want 18 point lines"; return 1; }
	grep -q '^| short_tasks | PJT_SHORT_TASKS | 24 | 120 | 48 | 24 | 24 | differed |$' "$tmp/exer-section" &&
	grep -q '^| idlest | PJT_IDLEST | 24 | 96 | 0 | 0 | 0 | reached |$' "$tmp/exer-section" &&
	grep -q '^| wake_affine | PJT_WAKE_AFFINE | 0 | 0 | 0 | 0 | 0 | counting off |$' "$tmp/exer-section"
}
check "report: a main effect whose point never differed reads '(not exercised)' beside its ratio; 'Which points each workload reached' has one line per point with its verdict" report_exercised
# a folder from before the counters: no counter columns at all
old_folder() {
	mkdir -p "$tmp/exer-old"
	awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /_(evaluated|differed|applied)$/) drop[i] = 1 }
		{ line = ""; for (i = 1; i <= NF; i++) if (!(i in drop)) line = line (line == "" ? "" : ",") $i; print line }' \
		"$tmp/exer/runs.csv" >"$tmp/exer-old/runs.csv"
	! grep -q evaluated "$tmp/exer-old/runs.csv" || return 1
	"$top/run/stats" -q --report "$tmp/exer-old" >/dev/null 2>&1 || { echo "run/stats failed"; return 1; }
	[ "$(sed 1d "$tmp/exer-old/exercised.csv" | awk -F, '{ print $NF }' | sort -u)" = "counting off" ] || { echo "exercised.csv not all counting off"; return 1; }
	expect_exercised_col "$tmp/exer-old/effects.csv" duty PJT_SHORT_TASKS "counting off" &&
	! grep -q '(not exercised)' "$tmp/exer-old/report.md" &&
	grep -q '^Not known: no run counted the decision points' "$tmp/exer-old/report.md"
}
check "an old folder without the counter columns: run/stats and the report work, every point 'counting off', no effect marked '(not exercised)', the section says 'Not known'" old_folder

# ---- interfaces: --help tells what the outputs hold, run/report analyses once
help_names_columns() {
	"$top/build/pjt-stats" --help >"$tmp/help" || return 1
	for file in "$fact/summary.csv" "$fact/effects.csv"; do
		for col in $(head -1 "$file" | tr , ' '); do
			generic=$(echo "$col" | sed -E 's/^ratio_to_(stock|rfc_before|rfc_pelt)/R/')
			grep -q -- "$col" "$tmp/help" || grep -q -- "$generic" "$tmp/help" ||
				{ echo "--help does not name $col"; return 1; }
		done
	done
	grep -q 'Exit: 0 ok, 1 system error, 2 usage or bad input' "$tmp/help"
}
check "pjt-stats --help names every column of summary.csv and effects.csv, and the exit codes" help_names_columns
check "run/stats with no argument: exit 2, 'run/stats: no DIR_OR_CSV given ...' then 'see run/stats --help'" \
	sh -c "'$top/run/stats' 2>'$tmp/usage'; [ \$? -eq 2 ] && grep -q '^run/stats: no DIR_OR_CSV given' '$tmp/usage' && sed -n 2p '$tmp/usage' | grep -qx 'run/stats: see run/stats --help'"
check "run/report --help lists its outputs and exit codes" \
	sh -c "'$top/run/report' --help | grep -q 'Exit: 0 ok, 1 a chart or the build failed, 2 usage or bad runs.csv'"
report_options() { # run/lib/options.sh: -h, --version, options anywhere, --, one error format, exit 2
	r=$top/run/report
	"$r" -h | grep -q '^usage: run/report RESULTS_DIR' || { echo "-h"; return 1; }
	"$r" "$nofact" --help | grep -q '^usage: run/report' || { echo "--help after the folder"; return 1; }
	[ "$("$r" --version | head -1)" = "run/report (pjt-sched) $(sed -n 's/^pjt-sched: //p' "$top/VERSION")" ] || { echo "--version"; return 1; }
	"$r" --bogus "$nofact" >/dev/null 2>"$tmp/ro.err"
	[ $? = 2 ] && [ "$(cat "$tmp/ro.err")" = "$(printf 'run/report: unknown option --bogus\nrun/report: see run/report --help')" ] ||
		{ echo "unknown option: $(cat "$tmp/ro.err")"; return 1; }
	"$r" "$nofact" "$nofact" >/dev/null 2>"$tmp/ro.err"
	[ $? = 2 ] && grep -qx 'run/report: one results folder, not 2 (RESULTS_DIR)' "$tmp/ro.err" || { echo "two folders"; return 1; }
	"$r" >/dev/null 2>&1
	[ $? = 2 ] || { echo "no folder: not exit 2"; return 1; }
	"$r" "$tmp/nowhere" >/dev/null 2>"$tmp/ro.err"
	[ $? = 2 ] && grep -qx "run/report: $tmp/nowhere/runs.csv: no such file" "$tmp/ro.err" || { echo "no runs.csv"; return 1; }
	rm -f "$nofact/report.md"
	"$r" -- "$nofact" >/dev/null 2>&1 && [ -s "$nofact/report.md" ] || { echo "-- then the folder"; return 1; }
}
check "run/report's options through run/lib/options.sh: -h and --help anywhere, --version, --, unknown option and operand count: 'run/report: ...' and exit 2" report_options
once=$tmp/once
mkdir -p "$once/bin"
cp "$fixtures/factorial-2x2.csv" "$once/runs.csv"
real_gnuplot=$(command -v gnuplot)
# a gnuplot that hides runs.csv while it draws: an analysis after the
# charts would then fail
printf '#!/bin/sh\n[ -f runs.csv ] && mv runs.csv runs.csv.hidden\nexec "%s" "$@"\n' "$real_gnuplot" >"$once/bin/gnuplot"
chmod +x "$once/bin/gnuplot"
check "run/report analyses runs.csv once: the charts go into the report without a second analysis" \
	sh -c "PATH='$once/bin':\$PATH '$top/run/report' '$once' 2>'$tmp/once.err' && [ ! -f '$once/runs.csv' ] &&
	       [ \$(grep -c 'data:image/png;base64,' '$once/report.html') -eq 16 ] && ! grep -q 'pjt-chart' '$once/report.md'"
mkdir -p "$tmp/four"
gen "$tmp/four/runs.csv" seed=7 reps=4
printf 'compare rfc-after rfc-before\n' >"$tmp/four/x.matrix"
"$top/run/report" "$tmp/four" >/dev/null 2>&1
check "the report states the real level of 4-run intervals (87.5%), in words and in the table's header line, once" \
	sh -c "grep -q 'some cells have only 4 ok runs, so their intervals are (min, max), a 87.5% interval, not 95%' '$tmp/four/report.md' &&
	       grep -q '^Median \[87.5% interval\] of n=4 runs per combination, 10-s runs (runs as units)' '$tmp/four/report.md' &&
	       grep -q '^| migrations | [0-9,]* \[[0-9,]*, [0-9,]*\] |' '$tmp/four/report.md'"
check "the charts' data carry each interval's level (87.5% under every 4-run bar)" \
	sh -c "awk '!/^#/ { print \$NF }' '$tmp/four/plots-data/s1/combo-migrations.dat' | sort -u | grep -qx '\"87.5%\"'"

mkdir -p "$tmp/host"
gen "$tmp/host/runs.csv" seed=2 reps=2 extra=1
"$top/run/report" "$tmp/host" >/dev/null 2>&1
check "the report summarises the host's load per run (host_load1) when runs.csv records it" \
	sh -c "grep -q '^Host load during the runs (host_load1, 24 runs): min [0-9.]*, median [0-9.]*, max [0-9.]*\.\$' '$tmp/host/report.md' &&
	       ! grep -q 'Host load during' '$tmp/four/report.md'"

mkdir -p "$tmp/oldnames"
gen "$tmp/oldnames/runs.csv" seed=3 reps=2 "combos=stock=none;rfc-before=LEGACY_LOAD;rfc-after=PJT_SHORT_TASKS+PJT_BUSIEST+PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE"
"$top/run/report" "$tmp/oldnames" >/dev/null 2>&1
check "a combination named rfc-before with LEGACY_LOAD alone is legacy-6.1: the report says so, and no RFC ratio" \
	sh -c "grep -q 'Note: the combination named rfc-before has features LEGACY_LOAD, which are legacy-6.1' '$tmp/oldnames/report.md' &&
	       grep -q \"rfc-before (PJT_IMBALANCE PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY LEGACY_LOAD) is not in this matrix: the RFC's change cannot be measured here\" '$tmp/oldnames/report.md' &&
	       ! grep -q \"The RFC's change\" '$tmp/oldnames/report.md' && ! grep -q 'The RFC beside ours' '$tmp/oldnames/report.md' &&
	       [ -z \"\$(awk -F, '\$3 == \"rfc-after\" { print \$29; exit }' '$tmp/oldnames/summary.csv')\" ]"

# the reference points' bits are run/contract/bits': run/tests/test-points.sh

contract_columns_known() { # csv.c classifies every column of run/contract/columns
	sed -n '/^static const char \*const \(required_columns\|known_metrics\|text_columns\)/,/^};/p' \
		"$top/run/pjt-stats/csv.c" | grep -o '"[a-z0-9_]*"' | tr -d '"' | sort -u >"$tmp/known"
	for col in $(grep -v '^[[:space:]]*\(#\|$\)' "$top/run/contract/columns"); do
		case $col in host_*|state_*|*_evaluated|*_differed|*_applied) continue ;; esac
		grep -qx "$col" "$tmp/known" || { echo "csv.c does not know column $col"; return 1; }
	done
}
check "every runs.csv column of run/contract/columns is known to csv.c (metric, count, text, host_* or state_*)" contract_columns_known

# ---- summary.json: the run's provenance and summary.csv's cells
prov=$tmp/prov
mkdir -p "$prov"
gen "$prov/runs.csv" seed=8 reps=1 boots=6 extra=1
cp "$fixtures/gen-plan.txt" "$prov/plan.txt"
printf 'compare\trfc-after\tstock\n' >>"$prov/plan.txt"
cp "$fixtures/gen.matrix" "$prov/gen.matrix"
echo 1 >"$prov/seed.txt"
printf 'build/bzImage\n%s\n' "$(echo kernel | sha256sum | cut -d' ' -f1)" >"$prov/kernel.txt"
printf 'build/initramfs.cpio.gz\n%s\n' "$(echo image | sha256sum | cut -d' ' -f1)" >"$prov/image.txt"
printf 'date: 2026-01-02T03:04:05Z\nnproc: 2\nloadavg: 0.1 0.2 0.3 1/100 42\nloadavg at resume: 1\nloadavg at resume: 2\n' >"$prov/host.txt"
printf 'kernel: build/bzImage\nbuild/src: baseline-15-gabc\npatches sha256: %s\n' "$(echo series | sha256sum | cut -d' ' -f1)" >"$prov/series-version.txt"
"$top/run/stats" -q "$prov" >/dev/null 2>&1
summary_json_ok() {
	python3 -m json.tool "$prov/summary.json" >/dev/null || return 1
	python3 - "$prov" "$(echo kernel | sha256sum | cut -d' ' -f1)" "$(echo image | sha256sum | cut -d' ' -f1)" <<'EOF'
import csv, json, math, sys
d = json.load(open(sys.argv[1] + "/summary.json"))
p = d["provenance"]
assert p["matrix"] == "gen" and p["matrix_file"] == "gen.matrix" and p["seed"] == 1, p
assert p["duration_s"] == 2 and p["settle_s"] == 1 and p["reps"] == 8, p
assert p["topologies"] == [{"name": "1x4x1", "qemu": "--smp 4"}], p["topologies"]
assert p["kernel"]["sha256"] == sys.argv[2] and p["kernel"]["path"] == "build/bzImage"
assert p["image"]["sha256"] == sys.argv[3]
assert p["series_version"]["patches sha256"] and p["series_version"]["build/src"] == "baseline-15-gabc"
assert p["date"] == "2026-01-02T03:04:05Z" and p["host"]["nproc"] == "2"
assert p["host"]["loadavg at resume (2)"] == "2"
assert p["host_load"]["host_load1"]["n"] == 72 and p["host_load"]["host_load1"]["min"] > 0
assert p["runs"] == {"total": 72, "ok": 72, "crashed": 0, "failed": 0, "boots": 6}, p["runs"]
rows = list(csv.DictReader(open(sys.argv[1] + "/summary.csv", newline="")))
cells = d["cells"]
assert len(cells) == len(rows) > 0, (len(cells), len(rows))
def same(a, b):
    return (a == "" and b is None) or (b is not None and math.isclose(float(a), b, rel_tol=1e-9))
for r, c in zip(rows, cells):
    for k in ("topology", "workload", "combo", "features", "metric"):
        assert r[k] == c[k], (k, r[k], c[k])
    for k in ("median", "q1", "q3", "min", "max", "ci_lo", "ci_hi", "ci_level"):
        assert same(r[k], c[k]), (k, r[k], c[k])
    for k in ("ratio_to_stock", "ratio_to_rfc_before"):
        if r[k + "_units"] == "":
            assert c[k] is None
            continue
        assert same(r[k], c[k]["value"]) and same(r[k + "_p"], c[k]["p"]) and same(r[k + "_level"], c[k]["level"])
        assert (r[k + "_sig"] == "*") == c[k]["sig"]
assert d["statistics"]["family"] > 0
print(len(cells), "cells, the same as summary.csv")
EOF
}
check "summary.json: valid JSON, the provenance (matrix, seed, duration, topology, kernel and image sha256, series, host, load, date, runs, boots) and summary.csv's cells, value by value" summary_json_ok
mkdir -p "$tmp/bare"
# a workload with a backslash, a quote and a tab (CSV: the quote doubled)
awk -F, -v OFS=, 'NR > 1 && $3 == "stock" { $5 = "\"duty \\ \"\"q\"\"\t\"" } { print }' "$fixtures/small-sets.csv" >"$tmp/bare/runs.csv"
check "summary.json without provenance files: still valid, unknowns are null; quotes, backslashes and tabs escaped" \
	sh -c "'$top/run/stats' -q '$tmp/bare' >/dev/null 2>&1 && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d[\"provenance\"]
assert p[\"matrix\"] is None and p[\"kernel\"][\"sha256\"] is None and p[\"date\"] is None and p[\"duration_s\"] is None
assert any(\"\\\\\" in c[\"workload\"] and \"\\\"\" in c[\"workload\"] and \"\\t\" in c[\"workload\"] for c in d[\"cells\"])
' '$tmp/bare/summary.json'"

# ---- the report leads with the answer
mkdir -p "$tmp/strong"
gen "$tmp/strong/runs.csv" seed=1 reps=12 effect=rfc-after:0.5
printf 'compare\trfc-after\trfc-before\n' >"$tmp/strong/plan.txt"
"$top/run/report" "$tmp/strong" >/dev/null 2>&1
first_section() { awk '/^## / { print; exit }' "$1"; }
check "report.md's first section is the summary, before what was run" \
	sh -c "[ \"\$(awk '/^## / { print; exit }' '$tmp/strong/report.md')\" = '## Summary: what changed beyond the noise' ] &&
	       [ \"\$(grep -n '^### What was run' '$tmp/strong/report.md' | cut -d: -f1)\" -gt \"\$(grep -n '^## Summary' '$tmp/strong/report.md' | cut -d: -f1)\" ] &&
	       grep -q '<h2 id=\"summary-what-changed-beyond-the-noise\">Summary: what changed beyond the noise</h2>' '$tmp/strong/report.html'"
check "a strong declared effect (rfc-after halves the primary metrics, 12 blocks): the verdict names it with interval, level, units, Holm p and a star; the undeclared one is marginal, no star" \
	sh -c "sed -n '/^## Summary/,/^## Primary metrics/p' '$tmp/strong/report.md' >'$tmp/strong.sum' &&
	       grep -q '^### Topology 1x4x1\$' '$tmp/strong.sum' &&
	       grep -q '^Each declared comparison.s ratio \[[0-9.]*% interval\] over 12 blocks (unless it says otherwise): pulls, its primary endpoint, with the Holm-adjusted p; the other primary metrics, its secondaries, with their fixed-sequence p:\$' '$tmp/strong.sum' &&
	       grep -Eq '^- duty [^:]*: rfc-after against rfc-before: [0-9.]+% fewer pulls \\(0\\.[0-9]+ \\[0\\.[0-9]+, 0\\.[0-9]+\\], Holm p=0\\.00[0-9]* \\*\\)' '$tmp/strong.sum' &&
	       grep -Eq '^- rfc-after against stock: [0-9.]+% fewer pulls \\(0\\.[0-9]+ \\[0\\.[0-9]+, 0\\.[0-9]+\\], p=0\\.000488\\)' '$tmp/strong.sum' &&
	       ! grep '^- rfc-after against stock' '$tmp/strong.sum' | grep -q '[*]'"
size='[-+][0-9.]+% \[[-+][0-9.]+%, [-+][0-9.]+%\]' # "-2.5% [-11.0%, +8.0%]"
check "... and says nothing resolved where nothing was (stock's own combinations on null cells), with the sizes" \
	grep -Eq "^- PJT_IDLEST against stock: no p at or below 0\\.05: pulls $size, migrations $size, throughput $size, wake-up p99 latency $size\\.\$" "$tmp/strong.sum"
check "the summary sets the RFC's table beside ours (0 and 46 pulls, 971,114 and 945,158 records/s, our paired ratio; n, level and units once, above it)" \
	sh -c "grep -q '^Ours: Median \[96\.14% interval\] of n=12 runs per combination, 10-s runs; the paired ratio \[95\.75% interval\] over 12 blocks with its Holm-adjusted p' '$tmp/strong.sum' &&
	       grep -Eq '^\| Average number of migrations \(pulls\) \(lb_pulls_total\) \| 0 \| 46 \| 0\.000 \(-100\.0%\) \| [0-9,.]+ \[[0-9,.]+, [0-9,.]+\] \| .* \| 0\.[0-9]+ \[0\.[0-9]+, 0\.[0-9]+\], Holm p=[0-9.e-]+ \* \| [a-z ]+ \|$' '$tmp/strong.sum'"
# ---- fixed sequence: migrations is tested only after pulls, the primary
# endpoint. The strong fixture with rfc-after's pulls set to rfc-before's
# in every block: pulls tie (p 1), and migrations, still halved in all 12
# blocks (p 2/2^12), is not starred; in the strong fixture itself (pulls
# halved too) the same migrations is
mkdir -p "$tmp/gate"
awk -F, -v OFS=, 'NR == FNR { if (FNR == 1) for (i = 1; i <= NF; i++) c[$i] = i
		else if ($c["combo"] == "rfc-before") for (j = 0; j < 3; j++) v[$c["workload"], $c["rep"], j] = $(c["lb_pulls_idle"] + j)
		next }
	FNR > 1 && $c["combo"] == "rfc-after" { for (j = 0; j < 3; j++) $(c["lb_pulls_idle"] + j) = v[$c["workload"], $c["rep"], j] }
	{ print }' "$tmp/strong/runs.csv" "$tmp/strong/runs.csv" >"$tmp/gate/runs.csv"
cp "$tmp/strong/plan.txt" "$tmp/gate/"
"$top/run/stats" -q "$tmp/gate" >/dev/null 2>&1
row_of() { # row_of DIR METRIC: "family,p,q,sig" of rfc-after against rfc-before on duty
	awk -F, -v m="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$3 == "rfc-after" && $4 == "rfc-before" && $5 == m && $2 ~ /^duty/ { print $c["family"] "," $c["p"] "," $c["q"] "," $c["sig"]; exit }' "$1/comparisons.csv"
}
gate_unresolved() {
	[ "$(row_of "$tmp/gate" lb_pulls_total)" = 'confirmatory,1,1,' ] || { echo "pulls: $(row_of "$tmp/gate" lb_pulls_total)"; return 1; }
	[ "$(row_of "$tmp/gate" migrations)" = 'secondary (fixed sequence),0.00048828125,1,' ] || { echo "migrations: $(row_of "$tmp/gate" migrations)"; return 1; }
}
check "fixed sequence: pulls (primary endpoint) unresolved, so migrations, halved in all 12 blocks (p 0.000488), is not starred (q 1)" gate_unresolved
gate_resolved() {
	[ "$(row_of "$tmp/strong" migrations)" = 'secondary (fixed sequence),0.00048828125,0.0009765625,*' ] || { echo "migrations: $(row_of "$tmp/strong" migrations)"; return 1; }
}
check "... and with pulls resolved, the same migrations is starred as a secondary at pulls' level" gate_resolved

# ---- power: a pilot whose rfc-after pulls are rfc-before's times exp(s Z)
# per block (6 boots x 3 blocks). s = 0.02: a 30% change is resolved
# almost always; s = 3: power is about the test's size, at most 5% + noise
power_pilot() { # power_pilot DIR SIGMA
	mkdir -p "$1"
	gen "$1/all.csv" seed=8 reps=3 boots=6 extra=1 workloads=1 \
		"combos=rfc-before=PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE+LEGACY_LOAD;rfc-after=PJT_SHORT_TASKS+PJT_BUSIEST+PJT_IMBALANCE+PJT_MOVE_TASKS+PJT_IDLEST+PJT_WAKE_AFFINE"
	awk -F, -v OFS=, -v s="$2" 'BEGIN { srand(11) }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["combo"] == "rfc-before" { for (j = 0; j < 3; j++) v[j] = $(c["lb_pulls_idle"] + j); print; next }
		{ f = exp(s * sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()))
		  for (j = 0; j < 3; j++) $(c["lb_pulls_idle"] + j) = int(v[j] * f + 0.5); print }' "$1/all.csv" >"$1/runs.csv"
	printf 'compare\trfc-after\trfc-before\n' >"$1/plan.txt"
}
power_pilot "$tmp/lowvar" 0.02
power_pilot "$tmp/hugevar" 3
power_of() { sed -n 's/.*: power \([0-9.]*\) (\([0-9.]*\) if heavy-tailed.*/\1 \2/p' "$1"; }
power_low() {
	"$top/run/stats" --power --boots 8 --blocks 3 --pilot "$tmp/lowvar" >"$tmp/lowvar.out" || return 1
	cat "$tmp/lowvar.out"
	grep -q 'a 30% change (ratio 0.7) with 8 boots x 3 blocks per boot: power .*signed-rank test at Holm.s first threshold 0.05 / 1 = 0.05; expected interval half-width' "$tmp/lowvar.out" &&
		grep -q "(pilot $tmp/lowvar: rfc-after against rfc-before, lb_pulls_total, 6 boots, two levels)" "$tmp/lowvar.out" &&
		power_of "$tmp/lowvar.out" | awk '{ exit !($1 >= 0.99 && $2 >= 0.99) }'
}
check "power line: low variance, 8 boots x 3 blocks, a 30% change: power near 1 (normal and t3), from the pilot's two levels" power_low
power_huge() {
	"$top/run/stats" --power --boots 8 --blocks 3 --pilot "$tmp/hugevar" >"$tmp/hugevar.out" || return 1
	cat "$tmp/hugevar.out"
	power_of "$tmp/hugevar.out" | awk '{ exit !($1 <= 0.08 && $2 <= 0.08) }'
}
check "power line: huge variance (s = 3): power about the size, at most 0.08" power_huge
check "power line: 6 boots against Holm over 2 (0.025) cannot resolve anything with a rank test: power 0" \
	sh -c "'$top/run/stats' --power --boots 6 --blocks 3 --family 2 --pilot '$tmp/lowvar' | grep -q ': power 0.00 (0.00 if heavy-tailed'"
check "power line for one boot: its 4 blocks are the units (variance S2 alone), and 2/2^4 cannot pass Holm's 0.025: power 0" \
	sh -c "'$top/run/stats' --power --boots 1 --blocks 4 --family 2 | grep -q '^power: a 30% change (ratio 0.7) with 1 boot of 4 blocks (the blocks are the units.*: power 0.00 (0.00 .*unit variance 0.0358 = S2 '"
# The measurement the confirmatory procedure rests on: the pilot of
# 2026-12-06 (fixtures/pilot-duty: duty on 2x2x1, rfc-after against
# rfc-before, 8 boots with both sides), seeded, 4000 draws of 8 boots
procedures_table() {
	"$top/run/stats" --procedures --resamples 4000 "$fixtures/pilot-duty" >"$tmp/procedures.out" || return 1
	cat "$tmp/procedures.out"
	awk '$1 == "signed-rank" { n++; if ($3 > 0.05) bad = bad " signed-rank " $2 " size " $3 }
	     $1 == "signed-rank" && $2 == "normal" && $4 < 0.99 { bad = bad " signed-rank power " $4 }
	     $1 == "sign" && $2 == "normal" && $4 > 0.95 { bad = bad " sign power " $4 }
	     $1 == "paired-t" && $2 == "resampled" && $3 <= 0.05 { bad = bad " t keeps its size " $3 }
	     END { if (bad != "" || n != 3) { print "wrong:" bad; exit 1 } }' "$tmp/procedures.out"
}
check "run/stats --procedures on the pilot: the signed-rank test keeps its size (<= 5%) on resampled, normal and t3 boots and resolves a 30% change (>= 0.99); the sign test is weaker; the paired t exceeds 5% on the resampled real boots" procedures_table
procedures_two_level() {
	"$top/run/stats" --procedures --boots 6 --blocks 3 --resamples 2000 "$fixtures/pilot-duty" >"$tmp/procedures2.out" || return 1
	cat "$tmp/procedures2.out"
	grep -q "^draws of 6 boots x 3 blocks (resampled: boots, then blocks within each, from 8 boots' 23 blocks; normal, t3: variance 0.02517)" "$tmp/procedures2.out" &&
		awk '$1 == "signed-rank" && $3 > 0.05 { exit 1 }' "$tmp/procedures2.out"
}
check "run/stats --procedures --blocks 3: designs of 6 boots x 3 blocks from the pilot's two levels (T1 + S2/3), the signed-rank test within its size" procedures_two_level
shipped_default() {
	pilot=$("$top/run/stats" --power --boots 8 --blocks 3 --pilot "$fixtures/pilot-duty" | sed -n 's/.*T1 \([0-9.]*\) + S2 \([0-9.]*\) .*/\1 \2/p')
	shipped=$("$top/run/stats" --power --boots 8 --blocks 3 | sed -n 's/.*T1 \([0-9.]*\) + S2 \([0-9.]*\) .*/\1 \2/p')
	echo "pilot $pilot, shipped $shipped"
	echo "$pilot $shipped" | awk '{ d1 = $1 - $3; d2 = $2 - $4; exit !(d1 * d1 < 6e-5 ^ 2 && d2 * d2 < 6e-5 ^ 2) }'
}
check "the shipped default variance is the pilot's two levels (T1, S2 within rounding)" shipped_default
check "run/plan-design PILOT --effect 50: the pilot's design and the plan, each with its power and half-width; no 'smallest change' claim" \
	sh -c "'$top/run/plan-design' --effect 50 '$tmp/lowvar' >/dev/null 2>'$tmp/lowvar.plan' &&
	       grep -q '^the pilot.s design: a 50% change (ratio 0.5) with 6 boots x 3 blocks per boot: power 1.00' '$tmp/lowvar.plan' &&
	       grep -q '^the plan: a 50% change .*: power ' '$tmp/lowvar.plan' && ! grep -qi 'smallest change\|nan' '$tmp/lowvar.plan'"
check "the shipped default variance (no --pilot) is named with its source" \
	sh -c "'$top/run/stats' --power --boots 8 --blocks 2 | grep -q 'T1 0.0133 + S2 0.0358 / 2 (shipped default: pulls, rfc-after / rfc-before on duty, pilot of 2026-12-06'"

check "null data with 4 blocks: 'not resolved' and why (the design cannot: smallest p 0.125, Holm over 2 needs 0.025)" \
	sh -c "grep -q '^Not resolved in duty [^:]*: this design cannot resolve anything: with 4 blocks as the units the smallest p the exact tests (signed-rank and sign) can give is 2/2^4 = 0.125, and Holm over the family of 2 needs 0.025' '$tmp/four/report.md' &&
	       ! sed -n '/^## Summary/,/^#### Exploratory/p' '$tmp/four/report.md' | grep -q ' against .*: [0-9.]*% '"
mkdir -p "$tmp/null8"
gen "$tmp/null8/runs.csv" seed=3 reps=10
printf 'compare rfc-after rfc-before\n' >"$tmp/null8/x.matrix"
"$top/run/report" "$tmp/null8" >/dev/null 2>&1
check "null data with 10 blocks: nothing resolved, with the smallest Holm-adjusted p reached" \
	sh -c "[ \$(grep -c '^Not resolved in .*: over 10 blocks the smallest Holm-adjusted p is [0-9.]* (p = [0-9.e-]*) in the family of 2' '$tmp/null8/report.md') -eq 2 ]"
check "the RFC's figures have one definition in report.c (971114 once; no second spelling)" \
	sh -c "[ \$(grep -c '971114' '$top/run/pjt-stats/report.c') -eq 1 ] && ! grep -q '971,114\\|945,158\\|rfc_pulls_before' '$top/run/pjt-stats/report.c'"

# ---- charts: with fewer than 8 runs in a cell, every run is a point
runs_points() {
	d=$tmp/four/plots-data/s1
	[ "$(wc -l <"$d/combo-migrations-runs.dat")" -eq 25 ] || { echo "want 24 runs (6 cells x 4) and a comment"; return 1; }
	grep -q "^prunfile\\[1\\] = \"plots-data/s1/combo-lb_pulls_idle-runs.dat\"" "$d/s1-pulls.gp" || return 1
	grep -q '^runsfile = "plots-data/s1/scatter-runs.dat"' "$d/s1-scatter.gp" || return 1
	# the runs are the cell's values: stock's 4 migrations, sorted
	# per second of each run (duration_s)
	want=$(awk -F, 'NR > 1 && $3 == "stock" && $5 ~ /^duty/ { print $14 / $7 }' "$tmp/four/runs.csv" | sort -n | tr '\n' ' ')
	got=$(awk '!/^#/ && $1 < 0.5 { print $2 }' "$d/combo-migrations-runs.dat" | tr '\n' ' ')
	[ "$got" = "$want" ] || { echo "stock's runs: got '$got', want '$want'"; return 1; }
	[ -s "$tmp/four/charts/s1-migrations.png" ] && [ ! -e "$tmp/four/charts/s1-migrations.log" ]
}
check "4 runs a cell: each run's value is drawn as a point (runs files, specs, the chart drawn without a gnuplot message)" runs_points
check "8 runs a cell: no run points (the median and its interval suffice)" \
	sh -c "[ ! -e '$tmp/null8/plots-data/s1/combo-migrations-runs.dat' ] && grep -q '^prunfile\\[1\\] = \"\"' '$tmp/null8/plots-data/s1/s1-migrations.gp' &&
	       [ -s '$tmp/null8/charts/s1-migrations.png' ]"

# ---- the report names each topology's shape (domains.txt) and sets the
# RFC's table beside ours once per topology, the two-level shape first
shape=$tmp/shape
mkdir -p "$shape"
gen "$tmp/shape-a.csv" seed=3 reps=3
gen "$tmp/shape-b.csv" seed=4 reps=3
{ cat "$tmp/shape-a.csv"; awk -F, 'BEGIN { OFS = "," } NR > 1 { $1 += 1000; $2 = "2x2x1"; print }' "$tmp/shape-b.csv"; } >"$shape/runs.csv"
for cpu in 0 1 2 3; do
	mc=$([ $cpu -lt 2 ] && echo 00000003 || echo 0000000c)
	echo "topology=2x2x1 cpu=$cpu domain=0 name=MC span=$mc"
	echo "topology=2x2x1 cpu=$cpu domain=1 name=DIE span=0000000f"
done >"$shape/domains.txt"
"$top/run/report" "$shape" >/dev/null 2>&1
domains_once() {
	# a line before the topology's tables in the summary: nowhere else
	[ "$(grep -c '^Sched domains of 2x2x1 (domains.txt): MC over CPUs {0-1} {2-3}, then DIE over CPUs {0-3}\.$' "$shape/report.md")" = 1 ] || { echo "not once"; return 1; }
	[ "$(grep -c 'MC over CPUs' "$shape/report.md")" = 1 ] || { echo "the sched domains elsewhere too"; return 1; }
	[ "$(grep -c 'MC over CPUs' "$shape/report.html")" = 1 ] || { echo "report.html: not once"; return 1; }
	awk '/^### Topology 2x2x1$/ { t = NR } /^Sched domains of 2x2x1/ && t && NR - t == 2 { ok++ } END { exit ok != 1 }' "$shape/report.md" ||
		{ echo "not the line after the topology's heading"; return 1; }
}
check "report: the two-level topology's sched domains, each span once, one line before that topology's tables in the summary, not in every section, heading and cell" domains_once
check "report: a topology without domains.txt lines says so, once" \
	sh -c "[ \$(grep -c '^Sched domains of 1x4x1: not recorded' '$shape/report.md') = 1 ] && grep -q '^### Topology 1x4x1\$' '$shape/report.md'"
check "report: the RFC's table once per topology, the two-level one first" sh -c "
	grep -o \"^The RFC's table beside ours (duty[^,]*, topology [0-9x]*\" '$shape/report.md' | sed 's/.* //' | paste -sd' ' - | grep -qx '2x2x1 1x4x1' &&
	grep '^### Topology' '$shape/report.md' | paste -sd' ' - | grep -qx '### Topology 2x2x1 ### Topology 1x4x1 ### Topology 2x2x1 ### Topology 1x4x1'"

# ---- charts that read at a glance, and a report that says n and the
# level once: one busy pull in all the runs of the duty workload
glance=$tmp/glance
mkdir -p "$glance"
gen "$tmp/glance.csv" seed=11 reps=12
awk -F, -v OFS=, 'NR > 1 { $9 = ($1 == 5 ? 1 : 0) } { print }' "$tmp/glance.csv" >"$glance/runs.csv"
printf 'compare rfc-after rfc-before\n' >"$glance/x.matrix"
"$top/run/report" "$glance" >/dev/null 2>&1
gd=$glance/plots-data/s1
pulls_per_second() {
	grep -q '^chart_title = "Load-balance pulls per second by idle type: duty' "$gd/s1-pulls.gp" || { echo "title"; return 1; }
	grep -q '^chart_subtitle = "10-s runs; bars: medians of n=12 runs per combination\\nwhiskers: their 96.14% intervals"$' "$gd/s1-pulls.gp" ||
		{ echo "subtitle: run length, n, level"; return 1; }
	grep -qx 'pylabel\[1\] = "pulls per second"' "$gd/s1-pulls.gp" || { echo "ylabel"; return 1; }
	# stock's median idle pulls per second: its median count over its 10-s runs
	want=$(awk -F, '$3 == "stock" && $2 ~ /^duty/ && $5 == "lb_pulls_idle" { print $10 / 10 }' "$glance/summary.csv")
	got=$(awk '$7 == "\"stock\"" { print $2 }' "$gd/combo-lb_pulls_idle.dat")
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(g != "" && g - w < 1e-9 && w - g < 1e-9) }' || { echo "got $got, want $want"; return 1; }
	grep -q '^chart_title = "Task migrations per second' "$gd/s1-migrations.gp"
}
check "charts: pulls and migrations per second of the run, the run length in the title with n and the level" pulls_per_second
check "charts: no n or level inside the bars (the data still carry them; the title says them once)" \
	sh -c "! grep -q 'with labels' '$top/plots/combo-bars.gp' && awk '!/^#/ { print \$NF }' '$gd/combo-migrations.dat' | sort -u | grep -qx '\"96.14%\"'"
check "charts: a panel whose medians and intervals are all 0 is left out, and the report says which and why" \
	sh -c "grep -qx 'npanels = 2' '$gd/s1-pulls.gp' && ! grep -q lb_pulls_busy '$gd/s1-pulls.gp' &&
	       grep -qx 'Chart s1-pulls leaves out what would be all 0: lb_pulls_busy has its median and interval at 0 in every combination (1 of the 72 runs above 0, 1 in all).' '$glance/report.md' &&
	       grep -qx 'Chart s2-pulls leaves out what would be all 0: lb_pulls_busy is 0 in every one of the 72 runs.' '$glance/report.md'"
fitted_throughput() {
	grep -qx 'pfitted\[1\] = 1' "$gd/s1-throughput.gp" || { echo "not fitted"; return 1; }
	awk -F' = ' '$1 == "pymin[1]" { exit !($2 > 0) }' "$gd/s1-throughput.gp" || { echo "the axis starts at 0"; return 1; }
	grep -q "^pytics\[1\] = \"set ytics ('[0-9]\{3\},[0-9]\{3\}' " "$gd/s1-throughput.gp" || { echo "no thousands separators"; return 1; }
	! grep -h 'tics' "$gd"/*.gp | grep -q "e+0" || { echo "1e+06 style tics"; return 1; }
	grep -q 'not start at 0' "$gd/s1-throughput.gp"
}
check "charts: throughput as points on an axis fitted to the data (not from 0, and it says so), thousands separated, no 1e+06" fitted_throughput
check "charts: latency labelled as the guest's emulated time" \
	grep -qx 'pylabel\[2\] = "wake-up latency, µs of guest (TCG-emulated) time"' "$gd/s1-latency.gp"
one_colour_each() {
	grep -qx 'stock	#666666' "$glance/plots-data/colours.txt" && grep -qx 'rfc-before	#e69f00' "$glance/plots-data/colours.txt" &&
		grep -qx 'rfc-after	#0072b2' "$glance/plots-data/colours.txt" || { echo "the reference points' Okabe-Ito colours"; return 1; }
	# the same colour for a combination in every chart's data
	while IFS='	' read -r combo hex; do
		dec=$((0x${hex#\#}))
		for f in "$glance"/plots-data/s*/combo-*.dat "$glance"/plots-data/s*/scatter.dat "$glance"/plots-data/s*/decisions-*.dat; do
			case $f in *-runs.dat) continue ;; esac
			awk -v c="\"$combo\"" -v want="$dec" '!/^#/ && $NF == c && $5 != want && $7 != want { bad = 1 } END { exit bad }' "$f" ||
				{ echo "$combo: another colour in $f"; return 1; }
		done
	done <"$glance/plots-data/colours.txt"
	# the rows of the ratio chart in their first combination's colour
	awk '!/^#/ && $1 == 1 && $5 != 15113984 { exit 1 }' "$gd/ratios-lb_pulls_total.dat" || { echo "ratio row colour"; return 1; }
	# defined once: the colours appear in analysis.c only
	[ "$(grep -l -i '0072b2\|e69f00' "$top"/run/pjt-stats/*.c "$top"/plots/*.gp "$top/run/trace-report" | sed 's|.*/||')" = analysis.c ] ||
		{ echo "a colour defined outside analysis.c"; return 1; }
}
check "charts: one Okabe-Ito colour per combination, the same in every chart, defined once (colours.txt for other tools)" one_colour_each
report_layout() {
	r=$glance/report.md
	# the paired-ratio chart is the first figure
	grep -m1 '^!\[' "$r" | grep -q '(charts/s1-ratios.png)$' || { echo "first figure"; return 1; }
	grep -m1 '<figure>' "$glance/report.html" | grep -q '^<figure><img alt="Chart: Paired ratios' || { echo "first figure (html)"; return 1; }
	# primary metrics, then the variance, then the secondary metrics and provenance
	[ "$(grep '^## ' "$r" | paste -sd'|' -)" = '## Summary: what changed beyond the noise|## Primary metrics|## Where the variance is, and what to run|## Secondary metrics and provenance' ] ||
		{ echo "sections: $(grep '^## ' "$r" | paste -sd'|' -)"; return 1; }
	sed -n '/^## Primary metrics/,/^## Where/p' "$r" >"$tmp/primary.md"
	sed -n '/^## Secondary metrics/,$p' "$r" >"$tmp/secondary.md"
	# the primary tables hold the primary metrics only; the others come after
	[ "$(awk '/^#### Workload 1:/ { w = 1 } w && /^\| metric/ { t = 1; next } t && /^\|---/ { next } t && /^\| / { print $2 } t && /^$/ && n++ { exit }' "$tmp/primary.md" | paste -sd' ' -)" = \
		'lb_pulls_total migrations records_per_s wakeup_p99_us' ] || { echo "primary rows"; return 1; }
	! grep -q '^| lb_pulls_idle ' "$tmp/primary.md" && grep -q '^| lb_pulls_idle ' "$tmp/secondary.md" || { echo "secondary rows"; return 1; }
	grep -q '^### What was run$' "$tmp/secondary.md" || { echo "provenance"; return 1; }
	# n and level in the line above each table, never in a cell
	grep -q '^Median \[96.14% interval\] of n=12 runs per combination, 10-s runs (runs as units), 12 blocks in 1 boot:$' "$tmp/primary.md" || { echo "median header line"; return 1; }
	grep -q '^Paired ratio to stock (features none) \[96.14% interval\] over 12 blocks; ' "$tmp/primary.md" || { echo "ratio header line"; return 1; }
	! grep '^| ' "$r" | grep -q '96.14%\|(n=12)\|12 blocks' || { echo "a level or n in a cell"; return 1; }
}
check "report: the paired-ratio chart first; primary metrics, then secondary metrics and provenance under their own heading; n and level once per table" report_layout

# ---- drift, the one-line answer, the report's caveats (wt-report; issue 37) ----
# A block of its own, so that merges with the cases above stay apart.

drift_dir() { # drift_dir NAME awk-assignments...: a folder of gen-drift.awk runs and drift.matrix
	dd=$tmp/$1; shift
	mkdir -p "$dd"
	cp "$fixtures/drift.matrix" "$dd/"
	for v in "$@"; do set -- "$@" -v "$v"; shift; done
	awk "$@" -f "$fixtures/gen-drift.awk" >"$dd/runs.csv"
}
drift_of() { "$top/build/pjt-stats" --drift "$1" >"$1/drift.txt" && cat "$1/drift.txt"; }
# the slope line's "VALUE LO HI" (log per position)
drift_slope() {
	drift_of "$1" | sed -n 's/^  slope [^:]*: \([-+0-9.]*\) log per position ([^)]*) \[\([-+0-9.]*\), \([-+0-9.]*\)\].*/\1 \2 \3/p'
}
slope_covers() { # slope_covers DIR TRUE: the slope's interval holds TRUE
	got=$(drift_slope "$1")
	[ -n "$got" ] || { echo "no slope line"; cat "$1/drift.txt"; return 1; }
	echo "$got" | awk -v want="$2" '{ if (!($2 <= want && want <= $3)) { print "slope " $0 " misses " want; exit 1 } }'
}
slope_excludes_zero() {
	drift_slope "$1" | awk '{ if ($2 <= 0 && 0 <= $3) { print "slope " $0 " covers 0"; exit 1 } }'
}
drift_dir drift-planted seed=3 slope=-0.08
drift_dir drift-none seed=4 slope=0
drift_dir drift-apart seed=5 slope=-0.03 after_slope=-0.15
planted_slope() { slope_covers "$tmp/drift-planted" -0.08 && slope_excludes_zero "$tmp/drift-planted"; }
check "--drift: a planted slope of -0.08 log per position lies in the slope's interval, which excludes 0" planted_slope
check "--drift: with no drift planted the slope's interval covers 0" slope_covers "$tmp/drift-none" 0
# the drift's candidates (state_* columns): a planted slope of the top
# domains' newidle cost shows beside the pulls'; a level one covers 0;
# folders from before the columns (the header above) still read
drift_dir drift-state seed=7 state=1 cost_slope=0.12
candidate_slope() { # candidate_slope DIR COLUMN: "VALUE LO HI"
	drift_of "$1" | sed -n "s/^  candidate $2: \([-+0-9.]*\) log per position ([^)]*) \[\([-+0-9.]*\), \([-+0-9.]*\)\].*/\1 \2 \3/p"
}
candidates_planted() {
	cost=$(candidate_slope "$tmp/drift-state" state_newidle_cost_top_ns)
	idle=$(candidate_slope "$tmp/drift-state" state_avg_idle_ns)
	echo "top cost: $cost; avg_idle: $idle"
	echo "$cost" | awk '{ exit !(NF == 3 && $2 <= 0.12 && 0.12 <= $3 && $2 > 0) }' &&
		echo "$idle" | awk '{ exit !(NF == 3 && $2 <= 0 && 0 <= $3) }' &&
		slope_covers "$tmp/drift-state" -0.08
}
check "--drift: candidates (state_* columns): a planted +0.12 slope of the top domains' newidle cost in its interval (excluding 0), a level avg_idle's covering 0, beside the pulls' -0.08" candidates_planted
check "--drift: a runs.csv from before the state_* columns is read as before: no candidate, said so" \
	sh -c "'$top/build/pjt-stats' --drift '$tmp/drift-planted' | grep -q '^  candidates: none recorded' && ! grep -q '^  candidate state_' '$tmp/drift-planted/drift.txt'"
check "report: the drift section gives each candidate's slope" \
	sh -c "'$top/build/pjt-stats' --report '$tmp/drift-state' >/dev/null 2>&1 && grep -q 'state_newidle_cost_top_ns (drift candidate): +1[0-9]\.[0-9]% a position' '$tmp/drift-state/report.md'"
halves_agree() { # halves_agree DIR agree|disagree
	drift_of "$1" | grep -q "^    the halves $2: the interval of their ratio" || { cat "$1/drift.txt"; return 1; }
}
check "--drift: one drift for every combination: the declared comparison's halves agree" halves_agree "$tmp/drift-planted" agree
check "--drift: rfc-after drifting faster than rfc-before: the halves disagree (first over second excludes 1)" halves_agree "$tmp/drift-apart" disagree
# the pilot of 2026-12-06 (8 boots x 3 blocks after a resumed start, trimmed
# to the contract's columns): the numbers the issue quotes
pilot_drift() {
	pd=$tmp/pilot-drift
	mkdir -p "$pd"
	cp "$fixtures/pilot-drift.csv" "$pd/runs.csv"
	cp "$fixtures/drift.matrix" "$pd/"
	drift_of "$pd" >/dev/null || return 1
	grep -q '^    stock              197     144     150     125       -     114     111      84      69$' "$pd/drift.txt" || { echo "stock by position"; cat "$pd/drift.txt"; return 1; }
	grep -q '^    rfc-after           92     114      89      84      68      45      65      52      39$' "$pd/drift.txt" || { echo "rfc-after by position"; return 1; }
	grep -q '^    first half:  0.505 \[0.287, 0.591\] 99.22% over 8 boots' "$pd/drift.txt" || { echo "first half"; return 1; }
	grep -q '^    7 blocks at the middle of their boot: in neither half$' "$pd/drift.txt" || { echo "middle blocks"; return 1; }
}
check "--drift on the pilot's runs: geometric means by position (stock 197 ... 69, a position with no stock run '-'), halves, the middle blocks counted" pilot_drift
drift_zeros() { # runs with 0 pulls: counted, out of the logs, the slope still there
	dz=$tmp/drift-zeros
	mkdir -p "$dz"
	cp "$fixtures/drift.matrix" "$dz/"
	awk -F, -v OFS=, 'NR > 1 && $1 % 17 == 0 { $8 = 0 } { print }' "$tmp/drift-planted/runs.csv" >"$dz/runs.csv"
	want=$(awk -F, 'NR > 1 && $1 % 17 == 0 { n++ } END { print n }' "$dz/runs.csv")
	drift_of "$dz" | grep -q "runs with a 0 left out: $want of 96)" || { echo "want $want zero runs"; cat "$dz/drift.txt"; return 1; }
	slope_covers "$dz" -0.08
}
check "--drift: runs with 0 pulls are counted and left out of the logs; the planted slope still lies in the interval" drift_zeros
drift_one_boot() { # one boot of 8 blocks: no slope interval, halves from blocks, told by overlap
	drift_dir drift-one seed=6 boots=1 blocks=8 slope=0
	drift_of "$tmp/drift-one" | grep -q 'over 1 boot: no interval' || { echo "slope of one boot"; cat "$tmp/drift-one/drift.txt"; return 1; }
	grep -q '^    first half:  .* over 4 blocks' "$tmp/drift-one/drift.txt" &&
		grep -q 'their intervals overlap (no boot holds both halves)' "$tmp/drift-one/drift.txt" || { echo "halves by blocks"; return 1; }
}
check "--drift: one boot: no slope interval; the halves from its blocks, compared by overlap" drift_one_boot
drift_usage() {
	"$top/build/pjt-stats" --drift 2>/dev/null; [ $? = 2 ] || { echo "no folder: not exit 2"; return 1; }
	"$top/build/pjt-stats" --drift "$tmp/nonexistent" 2>"$tmp/drift.err"; [ $? = 2 ] || { echo "missing runs.csv: not exit 2"; return 1; }
	grep -q 'nonexistent/runs.csv' "$tmp/drift.err" || { cat "$tmp/drift.err"; return 1; }
}
check "--drift: no folder, or a folder without runs.csv: exit 2 naming the file" drift_usage
drift_report() {
	rd=$tmp/drift-report
	cp -r "$tmp/drift-apart" "$rd"
	"$top/build/pjt-stats" -q --report "$rd" || return 1
	sed -n '/^### Drift: pulls by the run.s position in its boot$/,/^## /p' "$rd/report.md" >"$rd/drift.md"
	grep -q '^- duty threads=8 duty=10 period=10ms, 2x2x1: pulls -[0-9.]*% a position (-0.0[0-9]* log per position \[' "$rd/drift.md" || { echo "slope bullet"; cat "$rd/drift.md"; return 1; }
	grep -q '^- rfc-after against rfc-before: first half .*, second half .*; first over second .*: the halves disagree' "$rd/drift.md" || { echo "halves bullet"; return 1; }
	grep -q '<h3 id="[a-z0-9-]*">Drift: pulls by the run' "$rd/report.html" || { echo "html"; return 1; }
}
check "report: a Drift section with the slope and the halves' estimates, and the sentence that they disagree" drift_report

# make run's last line (run/phase --answer) from the comparisons.csv that
# run/stats writes, so a change of its format shows here
answer_of() { # answer_of DIR [run/stats options]: the answer line of DIR's runs.csv
	ad=$1; shift
	"$top/build/pjt-stats" -q "$@" "$ad" && "$top/run/phase" --answer "$ad"
}
answer_pilot() {
	ap=$tmp/answer-pilot
	mkdir -p "$ap"
	cp "$fixtures/pilot-drift.csv" "$ap/runs.csv"
	cp "$fixtures/drift.matrix" "$ap/"
	printf 'nproc: 2\nbusy-limit: 0.15\n' >"$ap/host.txt"
	got=$(answer_of "$ap")
	want='answer: rfc-after vs rfc-before, pulls 0.47x [0.39, 0.54] (8 boots, Holm p 0.0078 *), 23 of 72 runs on a busy host (host_cpu_busy above 0.15)'
	[ "$got" = "$want" ] || { echo "got  $got"; echo "want $want"; return 1; }
	# host.txt's limit is the one counted against
	printf 'busy-limit: 0.5\n' >"$ap/host.txt"
	"$top/run/phase" --answer "$ap" | grep -q ', 0 of 72 runs on a busy host (host_cpu_busy above 0.5)$' || { echo "busy-limit 0.5"; return 1; }
}
check "run/phase --answer: the pilot's declared comparison, pulls with interval, boots, Holm p and star, and its busy runs" answer_pilot
answer_zero() {
	az=$tmp/answer-zero
	mkdir -p "$az"
	cp "$fixtures/rfc-zero-pulls.csv" "$az/runs.csv"
	got=$(answer_of "$az" --declare rfc-after,rfc-before)
	case $got in
	'answer: rfc-after vs rfc-before, pulls 0 against 46 (8 boots, Holm p '*' *), host load not recorded') ;;
	*) echo "got $got"; return 1 ;;
	esac
}
check "run/phase --answer: a side 0 in every boot reads '0 against 46', not a ratio" answer_zero
answer_unresolved() {
	au=$tmp/answer-unresolved
	mkdir -p "$au"
	awk -v seed=2 -v reps=3 -v boots=4 -v extra=1 -f "$fixtures/gen-runs.awk" >"$au/runs.csv"
	got=$(answer_of "$au" --declare rfc-after,rfc-before)
	case $got in
	'answer: rfc-after vs rfc-before on duty, pulls '*'x ['*', '*'] (4 boots, Holm p '*', not resolved), host load not recorded') ;;
	*) echo "got $got"; return 1 ;;
	esac
}
check "run/phase --answer: an unresolved comparison says so with its size, and names the workload when there are several" answer_unresolved
answer_none() {
	an=$tmp/answer-none
	mkdir -p "$an"
	awk -v seed=2 -v reps=3 -v workloads=1 -f "$fixtures/gen-runs.awk" >"$an/runs.csv"
	[ "$(answer_of "$an")" = 'answer: no declared comparison (no compare line in the matrix), host load not recorded' ] || return 1
	"$top/run/phase" --answer "$tmp/nonexistent" 2>/dev/null; [ $? = 2 ] || { echo "no comparisons.csv: not exit 2"; return 1; }
}
check "run/phase --answer: no declared comparison said; a folder without comparisons.csv exits 2" answer_none
answer_in_make_run() { # after the phase summary, only when every phase passed
	sed -n '/^run:/,/^$/p' "$top/Makefile" | grep -q 'run/phase --summary results/latest; \\$' &&
		sed -n '/^run:/,/^$/p' "$top/Makefile" | grep -q '^	\[ \$\$status != 0 \] || run/phase --answer results/latest;' ||
		{ echo "make run's recipe"; return 1; }
}
check "make run prints the answer line after the phase times, only when every phase passed" answer_in_make_run

# the verdict line carries the busy runs (the pilot: 23 of 72 above 0.15)
verdict_busy() {
	vb=$tmp/verdict-busy
	mkdir -p "$vb"
	cp "$fixtures/pilot-drift.csv" "$vb/runs.csv"
	cp "$fixtures/drift.matrix" "$vb/"
	printf 'busy-limit: 0.15\n' >"$vb/host.txt"
	"$top/build/pjt-stats" -q --report "$vb" || return 1
	grep -q '^The matrix declares 1 comparison; .* 1 primary is resolved (\*), and 1 secondary, with 23 of 72 runs measured on a busy host (the host.s other load above 0\.15 of its CPUs, host_cpu_busy: .*)\.$' "$vb/report.md" ||
		{ grep '^The matrix declares' "$vb/report.md"; return 1; }
}
check "report: the verdict line says how many runs met a busy host (23 of 72 of the pilot)" verdict_busy
# 4 blocks that all agree: intervals at 87.5% exclude 1 with p = 0.125;
# the report must not call that "nothing beyond the noise"
few_units_agree() {
	fu=$tmp/few-units
	mkdir -p "$fu"
	awk -v seed=3 -v reps=4 -v workloads=1 -v effect=PJT_SHORT_TASKS+PJT_IDLEST:0.5 -f "$fixtures/gen-runs.awk" >"$fu/runs.csv"
	"$top/build/pjt-stats" -q --report "$fu" || return 1
	want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["primary"] == 1 && $c["p"] > 0.05 && ($c["ci_lo"] > 1 || $c["ci_hi"] < 1) { n++ } END { print n + 0 }' "$fu/effects.csv")
	[ "$want" -gt 0 ] || { echo "the fixture has no such interval"; return 1; }
	! grep -q 'nothing beyond the noise in' "$fu/report.md" || { echo "'nothing beyond the noise' beside intervals that exclude 1"; return 1; }
	grep -q "^- Bits (factorial effects): no p at or below 0.05 in [0-9]* primary effects tested, but $want intervals exclude 1 at their own level below 95%" "$fu/report.md" ||
		{ grep 'Bits (factorial' "$fu/report.md"; return 1; }
}
check "report: factorial intervals that exclude 1 with p above 0.05 (4 agreeing blocks) are counted, not 'nothing beyond the noise'" few_units_agree
# the reference points' definitions agree everywhere: run/tests/test-points.sh
# the RFC's own result in the ratio chart: rfc-after 0 pulls in every boot
zero_in_chart() {
	zc=$tmp/zero-chart
	mkdir -p "$zc"
	cp "$fixtures/rfc-zero-pulls.csv" "$zc/runs.csv"
	printf 'compare rfc-after rfc-before\n' >"$zc/zero.matrix"
	"$top/run/report" "$zc" 2>/dev/null || return 1
	spec=$zc/plots-data/s1/s1-ratios.gp
	grep -qx 'pzfile\[1\] = "plots-data/s1/ratios-lb_pulls_total-zero.dat"' "$spec" || { echo "no zero rows for pulls"; return 1; }
	grep -q "^py2tics\\[1\\] = \"set y2tics ('0 against 46, Holm p=[0-9.]* \\*' 0, " "$spec" || { echo "label"; grep py2tics "$spec"; return 1; }
	grep -q '^chart_subtitle = ".*diamond at an edge: a side 0 in every unit' "$spec" || { echo "subtitle"; return 1; }
	# the declared row (0) at the left edge: to 0
	awk -v lo="$(sed -n 's/^pxmin\[1\] = //p' "$spec")" '!/^#/ && $1 == 0 { found = 1; if (!($2 > lo && $2 < lo * 1.2 && $4 == 1)) bad = 1 }
		END { exit !(found && !bad) }' "$zc/plots-data/s1/ratios-lb_pulls_total-zero.dat" || { echo "row 0 not at the left edge"; return 1; }
	[ -s "$zc/charts/s1-ratios.png" ] && [ ! -e "$zc/charts/s1-ratios.log" ] || { echo "gnuplot"; cat "$zc/charts/s1-ratios.log"; return 1; }
}
check "ratio chart: '0 against 46' is a row (a diamond at the left edge, its test on the right), not dropped; gnuplot draws it without a word" zero_in_chart

tap_end
