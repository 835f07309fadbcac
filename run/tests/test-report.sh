#!/bin/sh
# Host test: what the report and its charts say about themselves, on the
# pilot fixture (run/tests/fixtures/pilot-duty) and seeded synthetic runs
# (run/tests/fixtures/gen-runs.awk), through run/report: chart titles
# computed from the axes drawn, ops_per_s in the workload's unit, and the
# report's layout (the verdict first, each number once, one RFC section,
# anchors).  TAP-ish output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/run/tests/fixtures
. "$fixtures/tap.sh"
tap_begin test-report

# report DIR RUNS.csv [MATRIX]: a results folder and its report
report() {
	mkdir -p "$1"
	cp "$2" "$1/runs.csv"
	[ $# -lt 3 ] || cp "$3" "$1/"
	"$top/run/report" "$1" >"$1.log" 2>&1 || { echo "run/report $1 failed:"; tail -n 5 "$1.log"; return 1; }
}

pilot=$tmp/pilot
report "$pilot" "$fixtures/pilot-duty/runs.csv" "$fixtures/pilot-duty/pilot.matrix"

# spec_axes SPEC: "TITLE<TAB>YMIN" for each panel of a combo-bars spec
spec_axes() {
	awk -F' = ' '/^ptitle\[/ { i = $1; gsub(/[^0-9]/, "", i); t[i] = $2; gsub(/"/, "", t[i]) }
		/^pymin\[/ { i = $1; gsub(/[^0-9]/, "", i); y[i] = $2 }
		END { for (i = 1; i in t; i++) print t[i] "\t" y[i] }' "$1"
}

# a subtitle that says an axis does not start at 0 only over such axes,
# and names every fitted axis that does not
axis_notes_true() {
	for spec in "$@"; do
		grep -q '^pfitted\[1\] = 1' "$spec" || continue
		sub=$(grep '^chart_subtitle' "$spec")
		spec_axes "$spec" >"$tmp/axes"
		total=$(wc -l <"$tmp/axes")
		off=$(awk -F'\t' '$2 != 0' "$tmp/axes" | wc -l)
		case $sub in
		*"they do not start at 0"*|*"it does not start at 0"*) [ "$off" -eq "$total" ] || { echo "$spec: says no axis starts at 0; axes: $(tr '\t\n' '= ' <"$tmp/axes")"; return 1; } ;;
		*"not from 0: "*)
			awk -F'\t' '$2 != 0 { print $1 }' "$tmp/axes" | while read -r t; do
				case $sub in *"$t"*) ;; *) echo "$spec: $t does not start at 0, not named: $sub"; exit 1 ;; esac
			done || return 1
			awk -F'\t' '$2 == 0 { print $1 }' "$tmp/axes" | while read -r t; do
				case $sub in *"not from 0: "*"$t"*) echo "$spec: $t starts at 0 but is named: $sub"; exit 1 ;; esac
			done || return 1 ;;
		*) [ "$off" -eq 0 ] || { echo "$spec: $off axes do not start at 0, the subtitle does not say so: $sub"; return 1; } ;;
		esac
	done
}
check "charts: 'does not start at 0' only over axes that do not (the pilot's throughput and latency)" \
	axis_notes_true "$pilot"/plots-data/s1/s1-throughput.gp "$pilot"/plots-data/s1/s1-latency.gp

# the p50 latency near 0 (0-9 us): its fitted axis starts at 0, p99's does not
low=$tmp/low-p50
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wakeup_p50_us") c = i; print; next } { $c = NR % 10; print }' \
	"$fixtures/pilot-duty/runs.csv" >"$tmp/low-p50.csv"
report "$low" "$tmp/low-p50.csv" "$fixtures/pilot-duty/pilot.matrix"
low_axis() {
	spec=$low/plots-data/s1/s1-latency.gp
	spec_axes "$spec" | grep -qx 'p50	0' || { echo "p50's axis does not start at 0:"; spec_axes "$spec"; return 1; }
	grep -q '^chart_subtitle = ".*axes fitted to the data; not from 0: p99, p99.9"$' "$spec" || { grep chart_subtitle "$spec"; return 1; }
	axis_notes_true "$spec"
}
check "charts: a fitted axis that starts at 0 (p50 latency of 0-9 us) is not called 'not from 0'; the others are named" low_axis

# ops_per_s in the workload's own unit (INTERFACES.md): hackbench
# messages/s, pingpong round trips/s
ops=$tmp/ops
awk -v seed=3 -v reps=4 -f "$fixtures/gen-runs.awk" >"$tmp/ops.csv"
sed 's/"pingpong pairs=2"/"hackbench groups=2 loops=10"/' "$tmp/ops.csv" >"$tmp/hackbench.csv"
report "$ops" "$tmp/ops.csv"
report "$tmp/hb" "$tmp/hackbench.csv"
ops_units() {
	p=$(grep -l '"round trips/s"' "$ops"/plots-data/s*/s*-throughput.gp) || { echo "pingpong: no 'round trips/s' panel"; return 1; }
	grep -q '"round trips per second"' "$p" || { echo "pingpong: no 'round trips per second' axis"; return 1; }
	h=$(grep -l '"messages/s"' "$tmp"/hb/plots-data/s*/s*-throughput.gp) || { echo "hackbench: no 'messages/s' panel"; return 1; }
	grep -q '"messages per second"' "$h" || { echo "hackbench: no 'messages per second' axis"; return 1; }
	! grep -rq 'operations per second' "$ops/plots-data" "$tmp/hb/plots-data" || { echo "'operations per second' left"; return 1; }
	grep -q '^ylabel_text = "throughput, messages per second"' "$tmp"/hb/plots-data/s*/s*-scatter.gp || { echo "hackbench scatter's axis"; return 1; }
}
check "charts: ops_per_s is messages/s for hackbench, round trips/s for pingpong (panels, axes, scatter)" ops_units

# ---- the report's layout, on the pilot (one declared question, the
# RFC's workload, 23 of 72 runs on a busy host)
md=$pilot/report.md html=$pilot/report.html
printf 'busy-limit: 0.15\n' >"$pilot/host.txt"
"$top/run/report" "$pilot" >/dev/null 2>&1

verdict_first() {
	[ "$(awk '/^## / { print; exit }' "$md")" = '## Summary: what changed beyond the noise' ] || { echo "not first"; return 1; }
	sum=$(awk '/^## Summary/ { on = 1; next } /^## / { exit } on' "$md")
	echo "$sum" | grep -q '^- duty [^:]*: rfc-after against rfc-before: [0-9.]*% fewer pulls (0\.[0-9]* \[0\.[0-9]*, 0\.[0-9]*\], Holm p=[0-9.]* \*)' ||
		{ echo "no declared question with its effect, interval and verdict"; return 1; }
	[ "$(echo "$sum" | grep -c '23 of 72 runs')" -eq 1 ] || { echo "the busy-run count not once in the summary"; return 1; }
	[ "$(grep -c '23 of 72 runs' "$md")" -eq 1 ] || { echo "the busy-run count more than once"; return 1; }
}
check "report: the verdict first: the declared question's effect, interval and resolution, the busy-run count once" verdict_first

number_once() {
	# the declared estimate (0.467 on the pilot): the verdict and the RFC's table
	[ "$(grep -c '0\.467 \[' "$md")" -eq 2 ] || { grep -n '0\.467 \[' "$md"; echo "want it twice: the verdict and the RFC table"; return 1; }
	grep -q '| lb_pulls_total | - | 1 (reference) | declared: in the summary \* |' "$md" || { echo "the ratio table repeats the declared number"; return 1; }
	! grep -q '^- The RFC.s change' "$md" || { echo "the exploratory list repeats the declared comparison"; return 1; }
	grep -q '^3 of the 8 other primary comparisons of this workload' "$md" || { grep 'other primary comparisons' "$md"; return 1; }
}
check "report: the declared ratio once in the text (and in the RFC's table), not again among the exploratory or ratio tables; 'other' comparisons exclude it" number_once

one_rfc_section() {
	[ "$(grep -c '^###* .*RFC' "$md")" -eq 1 ] || { grep -n '^###* .*RFC' "$md"; echo "want one RFC heading"; return 1; }
	! grep -q 'figures beside ours' "$md" || { echo "a second RFC section"; return 1; }
	grep -q "no run length, so its 0 against 46 pulls cannot be set against our counts; ours are counts per run of 2-s runs" "$md" ||
		{ echo "no comparability note"; return 1; }
	grep -q '| 0 | 46 | 0\.000 (-100\.0%) | .* | below our interval |' "$md" || { echo "the RFC's ratio against our interval"; return 1; }
	[ "$(grep -c '^Sched domains of 2x2x1' "$md")" -eq 1 ] || { echo "the domain line not once"; return 1; }
}
check "report: one RFC section with the comparability note (run length unknown against our 2-s runs); the domain line once" one_rfc_section

markdown_and_terms() {
	! grep -q '^\* ' "$md" || { grep -n '^\* ' "$md"; echo "a paragraph that renders as a list item"; return 1; }
	grep -q '^\\\* = resolved' "$md" || { echo "the legend"; return 1; }
	first=$(grep -n -i 'pull' "$md" | head -n 1)
	case $first in *"A pull is one task the load balancer moved"*) ;; *) echo "pull is not defined where first used: $first"; return 1 ;; esac
}
check "report: '* = resolved' is no list item in Markdown; 'pull' defined where first used" markdown_and_terms

anchors() {
	grep -q '<nav id="contents"><h2>Contents</h2>' "$html" || { echo "no contents"; return 1; }
	grep -o 'href="#[^"]*"' "$html" | sed 's/href="#//; s/"$//' >"$tmp/hrefs"
	grep -o ' id="[^"]*"' "$html" | sed 's/ id="//; s/"$//' >"$tmp/ids"
	[ "$(wc -l <"$tmp/hrefs")" -ge 8 ] || { echo "too few entries: $(wc -l <"$tmp/hrefs")"; return 1; }
	[ -z "$(sort "$tmp/ids" | uniq -d)" ] || { echo "ids twice: $(sort "$tmp/ids" | uniq -d)"; return 1; }
	while read -r h; do grep -qx "$h" "$tmp/ids" || { echo "#$h has no anchor"; return 1; }; done <"$tmp/hrefs"
	# every section and each part of it is in the contents
	[ "$(grep -c '<h[23] id=' "$html")" -eq "$(wc -l <"$tmp/hrefs")" ] || { echo "headings not in the contents"; return 1; }
}
check "report.html: a table of contents whose every link has its anchor, ids unique, every h2 and h3 listed" anchors

short_alt() {
	grep -o '<img alt="[^"]*"' "$html" | sed 's/<img alt="//; s/"$//' >"$tmp/alts"
	[ -s "$tmp/alts" ] || { echo "no images"; return 1; }
	awk 'length($0) > 80 { print "alt too long: " $0; bad = 1 } END { exit bad }' "$tmp/alts" || return 1
	grep -o '<figcaption>[^<(]*' "$html" | sed 's/<figcaption>//' | awk 'length($0) > 240 { print "caption too long: " $0; bad = 1 } END { exit bad }' || return 1
	while read -r alt; do ! grep -qF "<figcaption>$alt" "$html" || { echo "alt repeats the caption: $alt"; return 1; }; done <"$tmp/alts"
}
check "report: short chart captions, and alt texts that do not repeat them" short_alt

tap_end
