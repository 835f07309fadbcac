# run/lib/kbuild-progress.sh: progress of a kernel build for run/kernel
# (sourced; run/tests/test-kbuild-progress.sh tests it on a fake tree).
#
# kbuild says nothing useful under make -s, and its own count of what is
# left is not cheap to get (make -n walks the whole tree), so the progress
# is counted from the object tree: the objects present (*.o) against the
# total a complete build of the same tree left there last time
# (OBJ/.pjt-objects, written by kbuild_record_total).  A cold build fills
# the tree from 0; an incremental one rewrites objects already present, so
# it has no total to count against and says only how many it compiled
# (as a cold build does once every object is there and it links).

# kbuild_count OBJ [MARKER]: the objects in OBJ (newer than MARKER if given)
kbuild_count() {
	if [ -n "${2:-}" ]; then find "$1" -name '*.o' -newer "$2" 2>/dev/null | wc -l
	else find "$1" -name '*.o' 2>/dev/null | wc -l; fi
}

# kbuild_record_total OBJ: after a complete build, its objects are the total
# of the next build of OBJ (and of a fresh tree of the same sources).
kbuild_record_total() { kbuild_count "$1" > "$1/.pjt-objects"; }

# kbuild_total OBJ [OTHER_OBJ...]: OBJ's recorded total, else the first
# other tree's; empty when none was recorded.
kbuild_total() {
	for o; do
		if [ -s "$o/.pjt-objects" ]; then cat "$o/.pjt-objects"; return; fi
	done
}

# kbuild_progress_line COMPILED PRESENT TOTAL ELAPSED_S: one line.
# COMPILED objects written since the start, PRESENT in the tree now,
# TOTAL the recorded total (empty: unknown).  The estimate of what is left:
# the missing objects at the rate so far (compiled per second).
kbuild_progress_line() {
	awk -v c="$1" -v p="$2" -v t="$3" -v e="$4" '
	function hms(s) { s = int(s + 0.5); return s >= 3600 ? sprintf("%dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60) : sprintf("%dm%02ds", s / 60, s % 60) }
	BEGIN {
		if (t == "" || t + 0 <= 0)
			printf "%d objects compiled, %s elapsed (no total: the first build of this tree)\n", c, hms(e)
		else if (p >= t)
			printf "%d objects compiled, %s elapsed (all %d present: linking, or an incremental build)\n", c, hms(e), t
		else if (c == 0 || e <= 0)
			printf "%d of %d objects (%d%%), %s elapsed\n", p, t, 100 * p / t, hms(e)
		else
			printf "%d of %d objects (%d%%), %s elapsed, about %s left\n", p, t, 100 * p / t, hms(e), hms((t - p) * e / c)
	}'
}

# kbuild_progress_watch OBJ MARKER TOTAL PARENT_PID: until PARENT_PID is
# gone or the watcher is killed, every PJT_PROGRESS_S seconds (default 10)
# a progress line on stderr; on a terminal one line, rewritten.
kbuild_progress_watch() {
	obj=$1 marker=$2 total=$3 parent=$4
	interval=${PJT_PROGRESS_S:-10} start=$(date +%s) ticks=0
	if [ -t 2 ]; then ending='\r\033[K' end_line=; else ending= end_line='\n'; fi
	# 1 s ticks: killed, the watcher leaves no sleep behind for long
	while sleep 1 && kill -0 "$parent" 2>/dev/null; do
		ticks=$((ticks + 1))
		[ "$ticks" -ge "$interval" ] || continue
		ticks=0
		line=$(kbuild_progress_line "$(kbuild_count "$obj" "$marker")" "$(kbuild_count "$obj")" \
			"$total" $(($(date +%s) - start)))
		printf "${ending}${TOOL:-run/kernel}: %s${end_line}" "$line" >&2
	done
}
