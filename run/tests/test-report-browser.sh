#!/bin/sh
# Host test: a report.html made from the fixtures (run/report on
# run/tests/fixtures/pilot-duty) opened in headless Chromium (Debian's
# chromium, which run/check-deps installs).  Fails on any console message,
# an image that does not load and any request that leaves the machine
# (http, https, ...): the report embeds its charts and needs no server.
# A page beside the report loads it in an iframe (file access allowed
# between the two) and writes what it finds into its own DOM, which
# --dump-dom prints; console messages come from --enable-logging=stderr.
# The screenshot is kept: build/test-report-browser/report.png.  Without
# chromium every test says SKIP.  TAP-ish output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/run/tests/fixtures
. "$fixtures/tap.sh"
tap_begin test-report-browser
kept=$top/build/test-report-browser

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "# chromium is not installed (run/check-deps installs it, as root): the browser tests are skipped, not passed"
	skip "report.html in headless Chromium: no console message, every image loads, no external request (no chromium)"
	skip "report.html's screenshot kept in build/test-report-browser (no chromium)"
	skip "the check fails on a broken image, an external request and a console message (no chromium)"
	tap_end
	exit
fi
echo "# browser: $("$browser" --version 2>/dev/null | head -n 1)"

# chromium with the flags every call shares: no sandbox (root), its own
# profile, no background traffic of its own, names resolve to nothing
chrome() {
	timeout 120 "$browser" --headless --disable-gpu --no-sandbox --user-data-dir="$tmp/profile" \
		--no-first-run --disable-background-networking --disable-component-update --disable-sync \
		--host-resolver-rules='MAP * ~NOTFOUND' "$@"
}

# inspect HTML: what is wrong with HTML in the browser, one problem a
# line ("BROKEN ...", "EXTERNAL ...", "CONSOLE ..."); exit 1 if any, or
# if the page could not be inspected
inspect() {
	dir=$(cd "$(dirname "$1")" && pwd) page=${1##*/}
	cat >"$dir/.inspect.html" <<EOS
<!DOCTYPE html><html><head><meta charset="utf-8"><title>inspect</title></head><body>
<pre id="result">not loaded</pre>
<iframe id="page" src="$page" style="width:1280px;height:900px"></iframe>
<script>
document.getElementById('page').addEventListener('load', function () {
  var out = [], doc = this.contentDocument, i, r;
  out.push('IMAGES ' + doc.images.length);
  for (i = 0; i < doc.images.length; i++)
    if (!doc.images[i].complete || doc.images[i].naturalWidth === 0)
      out.push('BROKEN image ' + doc.images[i].src.slice(0, 60) + ' (alt: ' + (doc.images[i].alt || '').slice(0, 60) + ')');
  r = this.contentWindow.performance.getEntriesByType('resource');
  for (i = 0; i < r.length; i++)
    if (!/^(data|file|blob|about):/.test(r[i].name))
      out.push('EXTERNAL ' + r[i].name);
  document.getElementById('result').textContent = out.join('\n');
});
</script></body></html>
EOS
	chrome --allow-file-access-from-files --enable-logging=stderr --v=0 --virtual-time-budget=10000 \
		--dump-dom "file://$dir/.inspect.html" >"$tmp/dom" 2>"$tmp/stderr"
	rm -f "$dir/.inspect.html"
	sed -n '/<pre id="result">/,/<\/pre>/p' "$tmp/dom" | sed 's/<pre id="result">//; s/<\/pre>.*//' >"$tmp/found"
	grep -q '^IMAGES [0-9]' "$tmp/found" || { echo "the page was not inspected:"; head -c 600 "$tmp/found"; grep -v dbus "$tmp/stderr" | tail -n 5; return 1; }
	grep ':CONSOLE[:(]' "$tmp/stderr" | sed 's/^[^]]*] /CONSOLE /' >>"$tmp/found"
	cat "$tmp/found"
	! grep -q '^\(BROKEN\|EXTERNAL\|CONSOLE\)' "$tmp/found"
}

rep=$tmp/report
mkdir -p "$rep"
cp "$fixtures/pilot-duty/runs.csv" "$fixtures/pilot-duty/pilot.matrix" "$rep/"
"$top/run/report" "$rep" >"$tmp/report.log" 2>&1 || { echo "# run/report failed:"; sed 's/^/# /' "$tmp/report.log" | tail -n 5; }

opens_clean() {
	[ -s "$rep/report.html" ] || { echo "no report.html"; return 1; }
	inspect "$rep/report.html" || return 1
	# the charts are there and loaded: as many images as report.html has
	want=$(grep -o '<img ' "$rep/report.html" | wc -l)
	grep -qx "IMAGES $want" "$tmp/found" && [ "$want" -ge 1 ] || { echo "want $want images"; return 1; }
}
check "report.html in headless Chromium: no console message, every image loads, no external request" opens_clean

screenshot() {
	mkdir -p "$kept"
	rm -f "$kept/report.png"
	(cd "$tmp" && chrome --window-size=1280,1600 --screenshot="$kept/report.png" "file://$rep/report.html") >/dev/null 2>&1
	[ -s "$kept/report.png" ] && [ "$(head -c 4 "$kept/report.png" | od -An -c | tr -d ' ')" = '211PNG' ] ||
		{ echo "no PNG screenshot at $kept/report.png"; return 1; }
	echo "screenshot: $kept/report.png"
}
check "report.html's screenshot kept in build/test-report-browser/report.png" screenshot

# the check itself: a copy with one chart's data cut, one with an image
# from the network, one that logs to the console; each must be refused
refuses() {
	awk -v m='data:image/png;base64,' '!done && (i = index($0, m)) { $0 = substr($0, 1, i + length(m) - 1) "AAAA" substr($0, i + length(m) + 40); done = 1 } { print }' \
		"$rep/report.html" >"$rep/broken.html"
	sed 's|</body>|<img src="http://example.com/x.png" alt="remote"></body>|' "$rep/report.html" >"$rep/external.html"
	sed 's|</body>|<script>console.error("logged")</script></body>|' "$rep/report.html" >"$rep/console.html"
	inspect "$rep/broken.html" >/dev/null && { echo "a broken image passed"; return 1; }
	grep -q '^BROKEN image data:image/png' "$tmp/found" || { echo "broken image not named:"; cat "$tmp/found"; return 1; }
	inspect "$rep/external.html" >/dev/null && { echo "an external image passed"; return 1; }
	grep -q '^EXTERNAL http://example.com/x.png' "$tmp/found" || { echo "external request not named:"; cat "$tmp/found"; return 1; }
	inspect "$rep/console.html" >/dev/null && { echo "a console message passed"; return 1; }
	grep -q '^CONSOLE.*logged' "$tmp/found" || { echo "console message not named:"; cat "$tmp/found"; return 1; }
}
check "the check fails on a broken image, an external request and a console message, naming each" refuses

tap_end
