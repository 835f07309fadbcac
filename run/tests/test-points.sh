#!/bin/sh
# Host test: run/contract/points is the one definition of the reference
# points (name, bits, what each stands for); every copy agrees with it:
# the report's table (build/pjt-stats through run/report), run/matrix
# --help, the .matrix files' comment entries and combo lines, docs/*.md
# (docs/series.md's table, combo lines), the cover letter's bits, and the
# bit sets the guest suites and run/bench-icount spell out.  TAP-ish
# output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/run/tests/fixtures
. "$fixtures/tap.sh"
tap_begin test-points

# The contract as "NAME<TAB>BITS<TAB>TEXT", BITS sorted and space-joined.
"$top/run/contract/entries" points | awk '
	{ t = $0; sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", t)
	  b = $2 == "-" ? "" : $2; gsub(/\+/, " ", b)
	  print $1 "\t" b "\t" t }' >"$tmp/contract.raw"
sortbits='{ n = split($2, w, " "); for (i = 2; i <= n; i++) for (j = i; j > 1 && w[j - 1] > w[j]; j--) { x = w[j]; w[j] = w[j - 1]; w[j - 1] = x }
	s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") w[i]; $2 = s
	gsub(/[ \t]+/, " ", $3); sub(/^ /, "", $3); sub(/ $/, "", $3); print }'
awk -F'\t' -v OFS='\t' "$sortbits" "$tmp/contract.raw" >"$tmp/contract"
names=$(cut -f1 "$tmp/contract" | paste -sd' ' -)

well_formed() {
	[ "$(wc -l <"$tmp/contract")" -ge 1 ] || { echo "no points"; return 1; }
	[ -z "$(cut -f1 "$tmp/contract" | sort | uniq -d)" ] || { echo "a name twice"; return 1; }
	"$top/run/contract/entries" bits >"$tmp/bits"
	cut -f2 "$tmp/contract" | tr ' ' '\n' | grep . | sort -u | while read -r b; do
		grep -qx "$b" "$tmp/bits" || { echo "run/contract/points: '$b' is not in run/contract/bits"; exit 1; }
	done || return 1
	! cut -f3 "$tmp/contract" | grep -q '^$\||' || { echo "a point without its text, or a '|' in one"; return 1; }
}
check "run/contract/points: unique names, bits of run/contract/bits, a text each" well_formed

# agree SOURCE FILE...: FILE holds "WHERE<TAB>NAME<TAB>BITS<TAB>TEXT" ("-":
# no text there); each must be the contract's (bits as a set, text with
# its white space squashed)
agree() {
	awk -F'\t' -v OFS='\t' "{ where = \$1; \$1 = \$2; \$2 = \$3; \$3 = \$4; NF = 3 } $sortbits" "$1" |
		paste - "$1" | awk -F'\t' -v contract="$tmp/contract" '
		BEGIN { while ((getline l < contract) > 0) { split(l, f, "\t"); bits[f[1]] = f[2]; text[f[1]] = f[3] } }
		{ name = $1; got_bits = $2; got_text = $3; where = $4
		  if (!(name in bits)) { print where ": " name ": not a point of run/contract/points"; bad = 1; next }
		  if (got_bits != bits[name]) { print where ": " name "'"'"'s bits \"" got_bits "\", run/contract/points has \"" bits[name] "\""; bad = 1 }
		  if (got_text != "-" && got_text != text[name]) { print where ": " name ": \"" got_text "\"\n  run/contract/points: \"" text[name] "\""; bad = 1 } }
		END { exit bad }'
}

# comment_entries PREFIX_RE FILE...: the entries of a definition block,
# "  NAME  BITS: TEXT" (BITS "nothing set" for none), continued on lines
# indented deeper; PREFIX_RE is stripped first ("^# ?" in shell comments)
comment_entries() {
	prefix=$1; shift
	awk -v prefix="$prefix" -v names="$names" '
		BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) point[a[i]] = 1 }
		function flush(   r, bits, t, w, c) { if (cur == "") return
			r = rest; bits = ""; t = ""
			if (r ~ /^nothing set:/) { t = substr(r, 14) }
			else { while (match(r, /^[A-Z][A-Z0-9_]*[ :]/)) { w = substr(r, 1, RLENGTH - 1); c = substr(r, RLENGTH, 1)
					bits = bits (bits == "" ? "" : " ") w; r = substr(r, RLENGTH + 1); sub(/^ +/, "", r); if (c == ":") { t = r; r = ""; break } }
				if (r != "") t = "(no \"BITS: TEXT\") " rest }
			print where "\t" cur "\t" bits "\t" t; cur = "" }
		FNR == 1 { flush() }
		{ line = $0; if (prefix != "" && line !~ prefix) { flush(); next } sub(prefix, "", line)
		  if (match(line, /^ +[a-z][a-z0-9.-]*  +/)) { w = line; sub(/^ +/, "", w); sub(/ .*/, "", w)
			if (w in point) { flush(); cur = w; where = FILENAME ":" FNR; col = index(line, w)
				rest = substr(line, col + length(w)); sub(/^ +/, "", rest); next } }
		  if (cur != "" && match(line, /^ +[^ ]/) && RLENGTH > col) { x = line; sub(/^ +/, "", x); rest = rest " " x; next }
		  flush() }
		END { flush() }' "$@"
}

help_agrees() {
	"$top/run/matrix" --help >"$tmp/matrix-help" || return 1
	comment_entries '' "$tmp/matrix-help" >"$tmp/e"
	[ "$(wc -l <"$tmp/e")" -eq "$(wc -l <"$tmp/contract")" ] || { echo "run/matrix --help: want every point, found:"; cat "$tmp/e"; return 1; }
	agree "$tmp/e"
}
check "run/matrix --help defines every reference point as run/contract/points" help_agrees

matrix_comments_agree() {
	comment_entries '^# ?' "$top"/feat-matrix/*.matrix >"$tmp/e"
	[ -s "$tmp/e" ] || { echo "no definition in any .matrix comment"; return 1; }
	agree "$tmp/e"
}
check "feat-matrix/*.matrix: the comments' definitions are run/contract/points'" matrix_comments_agree

# combo lines naming a point, in the shipped matrices and the docs
combos_agree() {
	awk -v names="$names" 'BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) point[a[i]] = 1 }
		$1 == "combo" && ($2 in point) { b = ""; for (i = 3; i <= NF && $i !~ /^#/; i++) b = b (b == "" ? "" : " ") $i
			print FILENAME ":" FNR "\t" $2 "\t" b "\t-" }' "$top"/feat-matrix/*.matrix "$top"/docs/*.md >"$tmp/e"
	[ "$(wc -l <"$tmp/e")" -ge 10 ] || { echo "too few combo lines found"; cat "$tmp/e"; return 1; }
	agree "$tmp/e"
}
check "combo lines of feat-matrix/*.matrix and docs/*.md: a point's name has the point's bits" combos_agree

# the bit sets the guest suites and run/bench-icount spell out:
# RFC_BEFORE="..." / rfc_after="..." and run_point NAME BITS...
scripts_agree() {
	awk -v names="$names" 'BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) point[a[i]] = 1 }
		match($0, /^[ \t]*[A-Za-z0-9_]+="[A-Z0-9_ ]*"/) { v = $0; sub(/^[ \t]*/, "", v); name = tolower(substr(v, 1, index(v, "=") - 1)); gsub(/_/, "-", name)
			if (name in point) { b = substr(v, index(v, "\"") + 1); sub(/".*/, "", b); print FILENAME ":" FNR "\t" name "\t" b "\t-" } }
		$1 == "run_point" && ($2 in point) { b = ""; for (i = 3; i <= NF; i++) b = b (b == "" ? "" : " ") $i; print FILENAME ":" FNR "\t" $2 "\t" b "\t-" }' \
		"$top"/initramfs/tests/*.sh "$top/run/bench-icount" >"$tmp/e"
	[ "$(wc -l <"$tmp/e")" -ge 4 ] || { echo "too few bit sets found"; cat "$tmp/e"; return 1; }
	agree "$tmp/e"
}
check "initramfs/tests/*.sh, run/bench-icount: the points' bit sets are run/contract/points'" scripts_agree

# Markdown tables "| reference point | bits | what it stands for |", rows
# "| NAME | BITS | TEXT |" (backticks and "none" allowed)
table_entries() {
	awk '/^\|/ { n = split($0, c, "|"); for (i = 2; i < n; i++) { gsub(/`/, "", c[i]); gsub(/^ +| +$/, "", c[i]) }
			if (c[2] == "reference point" && c[3] == "bits") { on = 1; next }
			if (on && c[2] !~ /^-+:?$/) { b = c[3] == "none" ? "" : c[3]; print FILENAME ":" FNR "\t" c[2] "\t" b "\t" c[4] }
			next }
		{ on = 0 }' "$@"
}

docs_agree() {
	table_entries "$top/docs/series.md" >"$tmp/e"
	[ "$(wc -l <"$tmp/e")" -eq "$(wc -l <"$tmp/contract")" ] || { echo "docs/series.md: want every point in its table, found:"; cat "$tmp/e"; return 1; }
	agree "$tmp/e"
}
check "docs/series.md's table of the reference points is run/contract/points" docs_agree

# the cover letter's table (patches/0000-cover-letter.patch, "Reference
# points on one booted kernel:"): NAME at column 3, its bits in columns
# 15-52 ("nothing set", "the seven PJT_* bits", "the same without BIT":
# the entry above less BIT), continued on lines that start blank
cover_letter_agrees() {
	awk -v bits="$("$top/run/contract/entries" -j ' ' bits)" '
		function flush() { if (name == "") return
			if (b == "nothing set") b = ""
			else if (b == "the seven PJT_* bits") { b = ""; n = split(bits, w, " "); for (i = 1; i <= n; i++) if (w[i] ~ /^PJT_/) b = b (b == "" ? "" : " ") w[i] }
			else if (b ~ /^the same without /) { x = b; sub(/^the same without /, "", x); n = split(prev, w, " "); b = ""; for (i = 1; i <= n; i++) if (w[i] != x) b = b (b == "" ? "" : " ") w[i] }
			print where "\t" name "\t" b "\t-"; prev = b; name = "" }
		/^Reference points on one booted kernel:/ { on = 1; next }
		on && /^$/ { if (seen) { flush(); exit } next }
		on { col = substr($0, 15, 38); gsub(/^ +| +$/, "", col)
		     if (substr($0, 1, 2) == "  " && substr($0, 3, 1) != " ") { flush(); seen = 1; name = substr($0, 3, 12); sub(/ +$/, "", name); b = col; where = FILENAME ":" FNR }
		     else if (col != "") b = b " " col }
		END { flush() }' "$top/patches/0000-cover-letter.patch" >"$tmp/e"
	[ "$(wc -l <"$tmp/e")" -eq "$(wc -l <"$tmp/contract")" ] || { echo "the cover letter: want every point, found:"; cat "$tmp/e"; return 1; }
	agree "$tmp/e"
}
check "patches/0000-cover-letter.patch: the reference points' bits are run/contract/points'" cover_letter_agrees

report_agrees() {
	[ -x "$top/build/pjt-stats" ] || { echo "build/pjt-stats missing (make build/pjt-stats)"; return 1; }
	mkdir -p "$tmp/report"
	cp "$fixtures/pilot-duty/runs.csv" "$fixtures/pilot-duty/pilot.matrix" "$tmp/report/"
	"$top/run/report" "$tmp/report" >/dev/null 2>&1 || { echo "run/report failed"; return 1; }
	table_entries "$tmp/report/report.md" >"$tmp/e"
	[ "$(wc -l <"$tmp/e")" -eq "$(wc -l <"$tmp/contract")" ] || { echo "report.md: want every point in its table, found:"; cat "$tmp/e"; return 1; }
	agree "$tmp/e"
}
check "the report's table of the reference points (How to read) is run/contract/points" report_agrees

tap_end
