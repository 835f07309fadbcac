#!/bin/sh
# Host tests of run/compare BASE A [B ...] on fixtures only (no QEMU):
# seeded synthetic results folders (run/tests/fixtures/gen-runs.awk, with the
# planner's records in run/tests/fixtures/gen-plan.txt and the matrix file
# run/tests/fixtures/gen.matrix), TAP-ish output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/run/tests/fixtures
. "$fixtures/tap.sh"
tap_begin test-compare

"$top/run/stats" --help >/dev/null 2>&1 # build first
compare=$top/run/compare

# folder DIR awk-assignments...: a results folder of 8 boots of one block
# each (the runner's shape: boots are the units), with the provenance
# files run/matrix writes
folder() {
	dir=$tmp/$1; shift
	mkdir -p "$dir"
	awk -v reps=1 -v boots=8 -v extra=1 "$@" -f "$fixtures/gen-runs.awk" >"$dir/runs.csv"
	cp "$fixtures/gen-plan.txt" "$dir/plan.txt"
	cp "$fixtures/gen.matrix" "$dir/gen.matrix"
	printf 'build/bzImage\n%s\n' "$(echo "kernel $dir" | sha256sum | cut -d' ' -f1)" >"$dir/kernel.txt"
	printf 'build/initramfs.cpio.gz\n%s\n' "$(echo image | sha256sum | cut -d' ' -f1)" >"$dir/image.txt"
	printf 'kernel: build/bzImage\npatches sha256: %s\n' "$(echo "series $dir" | sha256sum | cut -d' ' -f1)" >"$dir/series-version.txt"
}
folder base -v seed=21
folder nul -v seed=22                         # no real difference
folder worse -v seed=23 -v effect=rfc-after:3 # rfc-after's primary metrics tripled
folder other -v seed=24                       # another duration and topology
sed -i 's/^duration_ms	2000$/duration_ms	5000/; s/^topology	1x4x1	--smp	4$/topology	2x2x1	--topology	2,2,1/' "$tmp/other/plan.txt"
awk -F, -v OFS=, 'NR > 1 { $4 = "2x2x1" } { print }' "$tmp/other/runs.csv" >"$tmp/x" && mv "$tmp/x" "$tmp/other/runs.csv"

B=$tmp/base N=$tmp/nul W=$tmp/worse O=$tmp/other
"$compare" --csv "$tmp/three.csv" --json "$tmp/three.json" "$B" "$N" "$W" >"$tmp/three" 2>"$tmp/three.err"
rc3=$?

# the table row of folder LABEL under combo COMBO in the section of METRIC
# and the workload starting with WL
row_of() { # row_of FILE METRIC WL COMBO LABEL
	awk -v metric="$2" -v wl="$3" -v combo="$4" -v label="$5" '
		/^== / { in_m = ($2 == metric ":") }
		/^-- / { in_w = index($0, "-- " wl) == 1 }
		in_m && in_w && /^[^ -]/ { current = $1 }
		in_m && in_w && current == combo && ($1 == label || $2 == label) { print; exit }' "$1"
}

check "--help documents the options and the exit codes 0, 1, 2, 3, 4" \
	sh -c "'$compare' --help >'$tmp/help' && grep -q -- '--fail-above PCT' '$tmp/help' && grep -q -- '--csv FILE' '$tmp/help' &&
	       grep -q -- '--json FILE' '$tmp/help' && grep -q 'Exit: 0 no regression' '$tmp/help' && grep -q '1 a gated' '$tmp/help' && grep -q -- '--gate-counts' '$tmp/help' &&
	       grep -q '2 usage or bad input' '$tmp/help' && grep -q '3 refused' '$tmp/help' && grep -q '4 system error' '$tmp/help'"
check "--help states each primary metric's direction (lower is better for pulls, higher for throughput)" \
	sh -c "grep -q 'lb_pulls_total (lower is better)' '$tmp/help' && grep -q 'records_per_s (higher is better)' '$tmp/help' &&
	       grep -q 'wakeup_p99_us (lower is better)' '$tmp/help'"
check "3 folders: exit 0 without --fail-above, every folder named with its kernel" \
	sh -c "[ $rc3 -eq 0 ] && grep -q '^run/compare: 2 folders against the baseline' '$tmp/three' &&
	       grep -q '^  A    $N' '$tmp/three' && grep -q '^  B    $W' '$tmp/three' &&
	       [ \$(grep -c 'kernel sha256 [0-9a-f]\\{64\\} (build/bzImage) (differs from base)' '$tmp/three') -eq 2 ]"
regressed_row() {
	row=$(row_of "$tmp/three" lb_pulls_total duty rfc-after B)
	echo "$row"
	echo "$row" | grep -Eq '^ +B +8 boots +[0-9.]+ +(2\.[0-9]|3\.[0-9]|4\.[0-9])[0-9]* +[0-9.]+\.\.[0-9.]+ +95\.01% +[0-9.e-]+ +0\.0[0-4][0-9]* +\* +worse$' || return 1
	echo "$row" | awk '{ split($6, iv, /\.\./); exit !(iv[1] > 1) }'
}
check "the regressed cell: ratio about 3 with its interval above 1, its exact level (95.01% for 8 boots a side), q and a star" regressed_row
unchanged_row() {
	row=$(row_of "$tmp/three" lb_pulls_total duty stock A)
	echo "$row"
	echo "$row" | awk '{ split($6, iv, /\.\./); exit !(iv[1] < 1 && iv[2] > 1 && NF == 9) }'
}
check "an unchanged cell (the null folder) has a ratio, an interval around 1 and no star" unchanged_row
check "the baseline row carries its own median and units" \
	sh -c "awk '/^== lb_pulls_total/ { f = 1 } f && /^stock +base +8 boots +[0-9.]+\$/ { ok = 1 } END { exit !ok }' '$tmp/three'"
check "throughput tripled is 'better' (higher is better), not worse" \
	sh -c "awk '/^== records_per_s/ { f = 1 } /^== wakeup/ { f = 0 } f && /^rfc-after/ { s = 1; next } f && s && \$1 == \"B\" { print; exit }' '$tmp/three' | grep -Eq '\\* +better\$'"
check "the family of the adjustment is every comparison made, and the output says so (96 = 2 folders x 48 cells and metrics)" \
	sh -c "grep -q 'q: Benjamini-Hochberg over all 96 comparisons made (2 folders x cells x 5 metrics)' '$tmp/three' &&
	       [ \$(awk -F, 'NR > 1 && \$1 == \"cell\" && \$20 != \"\"' '$tmp/three.csv' | wc -l) -eq 96 ]"
geomean_lines() {
	for m in lb_pulls_total migrations records_per_s ops_per_s wakeup_p99_us; do
		awk -v m="$m" '/^geometric mean of the ratios over the cells of / { cur = $10 }
			/^  [AB] +[0-9.]+ over [0-9]+ cells; starred: [0-9]+ worse, [0-9]+ better$/ && index(cur, m) == 1 { c++ }
			END { exit c != 2 }' "$tmp/three" || { echo "no geometric-mean line for both folders in $m"; return 1; }
	done
	# B's pulls: 2 of 12 cells tripled, the rest near 1: the geometric mean is well above A's
	awk '/cells of lb_pulls_total/ { f = 1 } f && $1 == "A" { a = $2 } f && $1 == "B" { b = $2; exit } END { exit !(b > a + 0.05) }' "$tmp/three"
}
check "a geometric-mean line per folder for each metric; the regressed folder's is above the null one's" geomean_lines

check "metadata that match: 'same matrix, duration and topology'" \
	grep -q '^  A (plan.txt): same matrix, duration and topology$' "$tmp/three"
"$compare" "$B" "$O" >"$tmp/other.out" 2>&1
rco=$?
check "mismatched metadata are named: duration, topology, and the cells matched across topologies" \
	sh -c "[ $rco -eq 0 ] && grep -q '^  A (plan.txt): differs:' '$tmp/other.out' &&
	       grep -q \"^    - duration_ms: '2000' in base, '5000' in A\$\" '$tmp/other.out' &&
	       grep -q \"^    - topology: '1x4x1 --smp 4' in base, '2x2x1 --topology 2,2,1' in A\$\" '$tmp/other.out' &&
	       grep -q '^    - cells are matched across topologies: base ran 1x4x1, A ran 2x2x1\$' '$tmp/other.out'"
check "--strict refuses a folder whose matrix differs: exit 3, the differences on stderr" \
	sh -c "'$compare' --strict '$B' '$O' >/dev/null 2>'$tmp/strict'; [ \$? -eq 3 ] && grep -q 'refused (--strict)' '$tmp/strict' && grep -q duration_ms '$tmp/strict'"
check "--strict accepts folders that differ only in kernel, image and series" \
	sh -c "'$compare' --strict '$B' '$N' >/dev/null 2>&1"
mkdir -p "$tmp/alien"
sed 's/duty threads=8 duty=10 period=10ms/fork rate=200/; s/pingpong pairs=2/hackbench groups=1 loops=20/' "$N/runs.csv" >"$tmp/alien/runs.csv"
check "no cell in common: refused with a clear message, exit 3" \
	sh -c "'$compare' '$B' '$tmp/alien' >'$tmp/alien.out' 2>'$tmp/alien.err'; [ \$? -eq 3 ] &&
	       grep -q 'refused: .*alien (A) shares no cell (topology, workload, feature set) with the baseline' '$tmp/alien.err' && [ ! -s '$tmp/alien.out' ]"
mkdir -p "$tmp/fewer"
grep -v ',PJT_IDLEST,' "$N/runs.csv" >"$tmp/fewer/runs.csv"
check "cells one side lacks are named, and shown as absent in the table" \
	sh -c "'$compare' '$B' '$tmp/fewer' >'$tmp/fewer.out' 2>&1 &&
	       grep -qx 'only in base: duty threads=8 duty=10 period=10ms / PJT_IDLEST (PJT_IDLEST, topology 1x4x1)' '$tmp/fewer.out' &&
	       grep -Eq '^ +A +- +- +not in this folder\$' '$tmp/fewer.out'"

# ---- --fail-above: the exit code gates a series
"$compare" --fail-above 5% --gate-counts --json "$tmp/worse.json" "$B" "$W" >"$tmp/worse.out" 2>&1
rcw=$?
check "--fail-above 5% --gate-counts: a real regression (rfc-after's pulls, migrations, wake-up p99 tripled) exits 1 and is listed" \
	sh -c "[ $rcw -eq 1 ] && grep -q '^--fail-above 5%: [0-9]* regressions beyond it (exit 1):' '$tmp/worse.out' &&
	       grep -q '^  A: lb_pulls_total, duty threads=8 duty=10 period=10ms / rfc-after (topology 1x4x1): ratio ' '$tmp/worse.out' &&
	       grep -q 'worse, beyond 5%: REGRESSION' '$tmp/worse.out'"
check "--fail-above without --gate-counts: pulls and migrations are descriptive (fewer is not better), wake-up p99 still gates: exit 1" \
	sh -c "'$compare' --fail-above 5% '$B' '$W' >'$tmp/worse-nc.out' 2>&1; [ \$? -eq 1 ] &&
	       grep -q '^  A: wakeup_p99_us, ' '$tmp/worse-nc.out' && ! grep -q '^  A: \(lb_pulls_total\|migrations\), ' '$tmp/worse-nc.out'"
check "--fail-above: a tripled throughput (better) is never a regression" \
	sh -c "! grep -q '^  A: records_per_s' '$tmp/worse.out' && ! grep -q '^  A: ops_per_s' '$tmp/worse.out'"
check "--fail-above 5%: the null folder is no regression, but 8 noisy boots cannot exclude 5%: inconclusive, its own exit 5" \
	sh -c "'$compare' --fail-above 5% '$B' '$N' >'$tmp/null.out' 2>&1; [ \$? -eq 5 ] &&
	       grep -q '^--fail-above 5%: inconclusive (exit 5): nothing regressed, but [0-9]* primary comparisons cannot exclude a change beyond it' '$tmp/null.out'"
check "--fail-above 400% on the null folder: every interval excludes a 5x change: pass, exit 0" \
	sh -c "'$compare' '$B' '$N' --fail-above=400% >'$tmp/null4.out' 2>&1 &&
	       grep -q '^--fail-above 400%: no primary metric regressed beyond it, and every interval excludes such a change (exit 0)' '$tmp/null4.out'"
threshold_matters() { # significant regressions of about 3x pass a 400% threshold
	"$compare" --fail-above 400 --json "$tmp/t400.json" "$B" "$W" >/dev/null 2>&1
	[ $? -ne 1 ] || return 1
	python3 - "$tmp/t400.json" <<'EOF' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
worse = [c for c in d["comparisons"] if c["significant"] and c["change"] == "worse"]
print(len(worse), "significantly worse cells, ratios", sorted(round(c["ratio"], 2) for c in worse))
assert worse and all(c["ratio"] < 5 and not c["regressed"] for c in worse)
assert d["verdict"]["exit"] in (0, 5) and d["verdict"]["regressions"] == 0 and d["verdict"]["fail_above_pct"] == 400
assert d["verdict"]["outcome"] == ("pass" if d["verdict"]["exit"] == 0 else "inconclusive")
EOF
}
check "--fail-above 400 (no % sign): the same significant regressions, all below 5x, are no regression (exit 0 or inconclusive 5)" threshold_matters
check "--fail-above with the three folders exits 1 (one folder regressed)" \
	sh -c "'$compare' --fail-above 5% '$B' '$N' '$W' >/dev/null 2>&1; [ \$? -eq 1 ]"
null_seeds() { # 12 null pairs: at most 1 may have any star (BH: <= 5% under the null)
	any=0
	for s in 1 2 3 4 5 6 7 8 9 10 11 12; do
		folder null-a -v seed=$((100 + s))
		folder null-b -v seed=$((200 + s))
		"$compare" --fail-above 5% "$tmp/null-a" "$tmp/null-b" >"$tmp/null-s" 2>&1
		rc=$?
		[ $rc -eq 0 ] || [ $rc -eq 1 ] || [ $rc -eq 5 ] || { echo "seed $s: exit $rc"; return 1; }
		grep -Eq '  \*  (better|worse|higher|lower)' "$tmp/null-s" && any=$((any + 1))
	done
	echo "$any of 12 null pairs with a star"
	[ $any -le 1 ]
}
check "null data, 12 seeded pairs: at most 1 with any star after the adjustment" null_seeds
folder three-a -v seed=31 -v boots=3
folder three-b -v seed=32 -v boots=3 -v effect=rfc-after:3
check "3 boots a side with --fail-above: inconclusive (exit 5), never a regression: fewer than --min-boots 6 a side" \
	sh -c "'$compare' --fail-above 5% --gate-counts '$tmp/three-a' '$tmp/three-b' >'$tmp/few.out' 2>'$tmp/few.err'; [ \$? -eq 5 ] &&
	       grep -q '^--fail-above 5%: inconclusive (exit 5): [0-9]* gated comparisons have fewer than --min-boots 6 distinct boots a side' '$tmp/few.out' &&
	       grep -q '3 and 3 boots, fewer than --min-boots 6: not gated' '$tmp/few.out'"
# one boot a side, 12 runs each: the runs share their boot's state, so a
# boot that ran 3x slower is not a regression of the kernel (the runs
# counted as units made it one, p 2/2704156)
folder one-a -v seed=41 -v boots=1 -v reps=12
folder one-b -v seed=42 -v boots=1 -v reps=12 -v effect=rfc-after:3
check "single-boot folders, 12 runs a side, a tripled cell: inconclusive (exit 5, 1 boot a side), not REGRESSION" \
	sh -c "'$compare' --fail-above 5% --gate-counts '$tmp/one-a' '$tmp/one-b' >'$tmp/one.out' 2>&1; [ \$? -eq 5 ] &&
	       ! grep -q REGRESSION '$tmp/one.out' && grep -q '1 and 1 boots, fewer than --min-boots 6: not gated' '$tmp/one.out'"
# a rise from 0: the base's rfc-after pulls 0 in every boot, the other's
# about 46 (the RFC's result undone): no ratio, but the p decides
zero_pulls() { # zero_pulls DIR PULLS: rfc-after's pulls set to PULLS (+0..7 by boot)
	awk -F, -v OFS=, -v v="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["combo"] == "rfc-after" { $c["lb_pulls_idle"] = $c["lb_pulls_busy"] = 0; $c["lb_pulls_newidle"] = v ? v + $c["boot"] % 8 : 0 } { print }' \
		"$1/runs.csv" >"$1/x" && mv "$1/x" "$1/runs.csv"
}
folder rise-a -v seed=43
folder rise-b -v seed=44
zero_pulls "$tmp/rise-a" 0
zero_pulls "$tmp/rise-b" 43
check "a rise from 0 pulls in every boot to 46, 8 boots a side, --gate-counts: REGRESSION (exit 1) on its p" \
	sh -c "'$compare' --fail-above 5% --gate-counts '$tmp/rise-a' '$tmp/rise-b' >'$tmp/rise.out' 2>&1; [ \$? -eq 1 ] &&
	       grep -q '^  A: lb_pulls_total, duty [^/]*/ rfc-after (topology 1x4x1): ratio inf' '$tmp/rise.out'"
check "... without --gate-counts the rise is described, not gated (no REGRESSION on pulls)" \
	sh -c "'$compare' --fail-above 5% '$tmp/rise-a' '$tmp/rise-b' >'$tmp/rise-nc.out' 2>&1; [ \$? -ne 1 ] &&
	       grep -q '0 in every unit of the base: a rise from 0, no ratio' '$tmp/rise-nc.out'"
check "the same folder given twice (or a copy of it): a warning that it shows no change by construction" \
	sh -c "cp -r '$B' '$tmp/copy' && '$compare' '$B' '$B' '$tmp/copy' >/dev/null 2>'$tmp/twice.err' &&
	       grep -q 'warning: .*base (A) is the same folder as .*base (base)' '$tmp/twice.err' &&
	       grep -q 'warning: .*copy (B) holds the same runs.csv as .*base (base)' '$tmp/twice.err'"
check "... with --min-boots 3 a tripled metric is not a regression: the design cannot detect 5% (smallest p 0.1): inconclusive, exit 5" \
	sh -c "'$compare' '$tmp/three-a' --min-boots=3 --gate-counts '$tmp/three-b' --fail-above 5% >'$tmp/few.out' 2>'$tmp/few.err'; [ \$? -eq 5 ] &&
	       grep -q 'no comparison can reach p <= 0.05 (the smallest possible p is 0.1)' '$tmp/few.out' &&
	       grep -q '^--fail-above 5%: inconclusive (exit 5): the design cannot detect it' '$tmp/few.out' && ! grep -Eq '  \\*  ' '$tmp/few.out'"
check "options anywhere, GNU style: BASE A --json F and --json=F give the same verdict as options first" \
	sh -c "'$compare' '$B' '$W' --json '$tmp/late.json' --fail-above 5% >/dev/null 2>&1; [ \$? -eq 1 ] &&
	       '$compare' '$B' --json='$tmp/late2.json' '$W' --fail-above=5% >/dev/null 2>&1; [ \$? -eq 1 ] &&
	       grep -q '\"outcome\": \"regression\"' '$tmp/late.json' && grep -q '\"outcome\": \"regression\"' '$tmp/late2.json'"
check "the gate's family is fixed: --all-metrics changes the table, not the verdict" \
	sh -c "'$compare' --fail-above 5% --gate-counts --all-metrics --json '$tmp/all.json' '$B' '$W' >/dev/null 2>&1; [ \$? -eq 1 ] &&
	       python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))[\"verdict\"]; w=json.load(open(sys.argv[2]))[\"verdict\"]; assert a[\"regressions\"] == w[\"regressions\"], (a, w)' '$tmp/all.json' '$tmp/worse.json'"

# ---- machine-readable outputs
csv_ok() {
	python3 - "$tmp/three.csv" <<'EOF' || return 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
cells = [r for r in rows if r["kind"] == "cell"]
geo = [r for r in rows if r["kind"] == "geomean"]
assert len(cells) == 96, len(cells)
assert len(geo) == 10, len(geo)  # 5 metrics x 2 folders
hit = [r for r in cells if r["metric"] == "lb_pulls_total" and r["combo"] == "rfc-after"
       and r["folder"] == "B" and r["workload"].startswith("duty")]
assert len(hit) == 1
r = hit[0]
assert r["sig"] == "*" and r["change"] == "worse", r
assert float(r["ratio_lo"]) > 1 and float(r["ratio_level"]) > 95, r
assert r["unit"] == "boot" and r["units"] == "8" and r["base_units"] == "8", r
print("csv ok:", len(cells), "cells,", len(geo), "geometric means")
EOF
}
check "--csv: valid CSV, one row per comparison (96) and per folder and metric's geometric mean (10)" csv_ok
json_ok() {
	python3 -m json.tool "$tmp/three.json" >/dev/null || return 1
	python3 -m json.tool "$tmp/worse.json" >/dev/null || return 1
	python3 - "$tmp/three.json" "$tmp/worse.json" <<'EOF' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["method"]["adjustment"] == "benjamini-hochberg" and d["method"]["family"] == 96
assert [f["label"] for f in d["folders"]] == ["base", "A", "B"]
assert d["folders"][1]["differences"] == [] and d["folders"][1]["metadata_source"] == "plan.txt"
assert d["folders"][0]["duration_s"] == 2 and d["folders"][0]["matrix"] == "gen"
assert len(d["comparisons"]) == 96 and len(d["geometric_means"]) == 10
assert d["verdict"]["fail_above_pct"] is None and d["verdict"]["exit"] == 0
w = json.load(open(sys.argv[2]))
assert w["verdict"]["fail_above_pct"] == 5 and w["verdict"]["exit"] == 1
assert w["verdict"]["regressions"] == len(w["verdict"]["regressed"]) > 0
assert all(r["regressed"] and r["significant"] and r["ratio"] > 1.05 for r in w["verdict"]["regressed"])
print("json ok")
EOF
}
check "--json: valid JSON holding the folders, the method and family, comparisons, geometric means and the verdict" json_ok

# ---- usage and errors
check "usage: one folder, exit 2" sh -c "'$compare' '$B' 2>'$tmp/u'; [ \$? -eq 2 ] && grep -q 'at least one other folder' '$tmp/u'"
check "usage: a bad --fail-above, exit 2" sh -c "'$compare' --fail-above five '$B' '$N' 2>'$tmp/u'; [ \$? -eq 2 ] && grep -q 'want a percentage' '$tmp/u'"
check "usage: an unknown option, exit 2" sh -c "'$compare' --frobnicate '$B' '$N' 2>/dev/null; [ \$? -eq 2 ]"
check "a folder without runs.csv: exit 2 with a message" \
	sh -c "'$compare' '$B' '$tmp' 2>'$tmp/u'; [ \$? -eq 2 ] && grep -q 'runs.csv' '$tmp/u'"
check "an output that cannot be written: exit 4 (not 1, which means a regression)" \
	sh -c "'$compare' --csv /nonexistent-dir/x.csv '$B' '$N' >/dev/null 2>&1; [ \$? -eq 4 ]"

# ---- the checked-in fixtures, unpaired (runs as units: one boot)
mkdir -p "$tmp/fa" "$tmp/fb"
cp "$fixtures/factorial-2x2.csv" "$tmp/fa/runs.csv"
cp "$fixtures/factorial-2x2-b.csv" "$tmp/fb/runs.csv"
"$compare" "$tmp/fa" "$tmp/fb" >"$tmp/fab" 2>/dev/null
# 6 runs a side, complete separation: the exact Mann-Whitney p is 2/924
check "one boot: runs are the units; rfc-after migrations halved: 0.500, 95.89% interval below 1, p = 2/924" \
	sh -c "awk '/^== migrations/ { f = 1 } /^== records/ { f = 0 } f && /^rfc-after/ { s = 1; next } f && s { print; exit }' '$tmp/fab' |
	       grep -Eq '^ +A +6 runs +20 +0\\.500 +0\\.[0-9]+\\.\\.0\\.[0-9]+ +95\\.89% +0\\.00216 '"
check "one boot: an unchanged cell has ratio 1.000 and p 1" \
	sh -c "awk '/^== migrations/ { f = 1 } f && /^stock/ { s = 1; next } f && s { print; exit }' '$tmp/fab' |
	       grep -Eq '^ +A +6 runs +100 +1\\.000 +[0-9.]+\\.\\.[0-9.]+ +95\\.89% +1 +1\$'"

one_definition() { # the directions: one table (analysis.c), read by the others
	defs=$(grep -l '"lb_pulls_total", BETTER_\|"records_per_s", BETTER_' "$top"/run/pjt-stats/*.c)
	[ "$defs" = "$top/run/pjt-stats/analysis.c" ] || { echo "directions defined in: $defs"; return 1; }
	! grep -n '\(lb_pulls_total\|"migrations\|records_per_s\|ops_per_s\|wakeup_p99_us\)[^;]*\(lower\|higher\|BETTER_\)' \
		"$top"/run/pjt-stats/compare.c "$top"/run/pjt-stats/report.c
}
check "each metric's direction is defined in one place (analysis.c), not in compare.c or report.c" one_definition


# ---- the report's caveats in run/compare (wt-report; issue 37 item 9) ----
# combinations of one folder booted on different kernels: run/compare warns,
# naming the file and line, and still compares
two_kernels() {
	folder kernels-a -v seed=31
	folder kernels-b -v seed=32
	for k in kernels-a kernels-b; do
		awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
			{ $c["kernel_sha256"] = $c["combo"] == "stock" ? "aaaa1111" : "bbbb2222"; print }' \
			"$tmp/$k/runs.csv" >"$tmp/x" && mv "$tmp/x" "$tmp/$k/runs.csv"
	done
	"$compare" "$tmp/kernels-a" "$tmp/kernels-b" >"$tmp/kernels.out" 2>"$tmp/kernels.err"
	rc=$?
	[ $rc -eq 0 ] || { echo "exit $rc"; cat "$tmp/kernels.err"; return 1; }
	for k in kernels-a kernels-b; do
		grep -q "warning: $tmp/$k/runs.csv:[0-9]*: combo '[a-zA-Z_+-]*' ran kernel_sha256 .*a ratio between combinations of two builds" "$tmp/kernels.err" ||
			{ echo "no warning for $k"; cat "$tmp/kernels.err"; return 1; }
	done
	"$compare" --help | grep -q '^booted different kernels (runs.csv kernel_sha256' || { echo "--help does not say so"; return 1; }
}
check "combinations of one folder on two kernels: run/compare warns with file:line for each folder and still compares; --help says so" two_kernels

tap_end
