# matrix-exec.sh: the guest half of run/matrix, sourced by the plan script
# run/matrix writes for each boot.  stdout is the results channel, stderr
# the console.  The plan sets PJT_BITS (the project bits, kernel order) and
# PJT_COLUMNS (the runs.csv columns, in order), both from run/contract on
# the host, sources this file, then calls, in this order:
#
#   matrix_settings DURATION_MS SETTLE_MS
#   matrix_counting 0|1                      (pjt_counting for every run)
#   matrix_trace 0|1                         (the series' trace events, each run)
#   matrix_tunable NAME VALUE                (0 or more)
#   matrix_file GUESTNAME PATH < CONTENT     (rt-app JSON files, 0 or more:
#                                            workload "rt-app PATH" runs it)
#   matrix_boot_info                         (UNAME / FEATURES-BEFORE lines)
#   matrix_run SEQ TOPOLOGY COMBO FEATURES REP WORKLOAD...   (one per run)
#
# Channel lines (documented in INTERFACES.md):
#   UNAME <uname -a>
#   FEATURES-BEFORE <a line of the features file>
#   DOMAIN cpu=N domain=M name=NAME span=MASK   (each CPU's sched domains)
#   RUN-BEGIN seq=N combo=NAME
#   TRACE-PULL SEQ,<a traces/SEQ.csv row>     (trace on: before its ROW)
#   TRACE-LOAD SEQ,<a traces/SEQ-loads.csv row>
#   TRACE-TASK SEQ,<a traces/SEQ-tasks.csv row>
#   ROW <the runs.csv row>
# The guest leaves the host's columns empty in ROW (boot, kernel_sha256,
# image_sha256, host_load1, host_cpu_busy): run/matrix fills them.
# Each run: set exactly its project bits (NO_X for the others), check the
# features file reads back so (a mismatch fails the run, loudly), set the
# tunables, let the system settle, snapshot, run the workload, snapshot.

# (PJT_LIB, PJT_RUN_FILES, PJT_WORK: other places, for the host tests.)
pjt_lib=${PJT_LIB:-/usr/lib/pjt}
features_file=/sys/kernel/debug/sched/features
debug_sched=/sys/kernel/debug/sched
pjt_bits=${PJT_BITS:-}
run_files=${PJT_RUN_FILES:-/tmp/pjt-files}
work=${PJT_WORK:-/tmp/pjt-run}
csv_columns=${PJT_COLUMNS:-}
trace_pull_columns=${PJT_TRACE_PULLS:-}
trace_load_columns=${PJT_TRACE_LOADS:-}
trace_task_columns=${PJT_TRACE_TASKS:-}

matrix_duration_ms=10000
matrix_settle_ms=1000
matrix_tunables=
matrix_calibrated=" "
mkdir -p "$run_files" "$work"

loud() { echo "matrix: $*" >&2; }

# Without the contract the rows would be wrong: refuse every run, loudly.
if [ -z "$pjt_bits" ] || [ -z "$csv_columns" ]; then
	loud "the plan did not set PJT_BITS and PJT_COLUMNS (run/contract): no run can be recorded"
	exit 1
fi

matrix_settings() {
	matrix_duration_ms=$1
	matrix_settle_ms=$2
}

# pjt_counting: 0, a point whose bit is off runs 6.1's code alone and the
# decision counters stay empty (snapshot.sh); 1, every point counts.  A
# kernel without the file counts always (older series): nothing to set.
# A value that does not read back fails every run.
matrix_counting_failed=0
matrix_counting() {
	[ -e "$debug_sched/pjt_counting" ] || return 0
	echo "$1" 2>/dev/null > "$debug_sched/pjt_counting"
	got=$(cat "$debug_sched/pjt_counting" 2>/dev/null)
	[ "$got" = "$1" ] && return 0
	loud "pjt_counting: wrote $1, reads '${got:-<missing>}': every run fails"
	matrix_counting_failed=1
}

# trace on: each run records the series' trace events from just before its
# first snapshot to just after its last (trace.sh); run/matrix boots such a
# plan with run/boot --trace, which enables them from the kernel command
# line.  A kernel without them (stock) fails every run rather than give
# runs without their traces.
matrix_trace_on=0
matrix_trace_failed=0
matrix_trace() {
	matrix_trace_on=$1
	[ "$1" = 1 ] || return 0
	. "$pjt_lib/trace.sh"
	trace_available && [ -n "$trace_pull_columns" ] && [ -n "$trace_load_columns" ] &&
		[ -n "$trace_task_columns" ] && return 0
	loud "trace on: the boot's trace events (trace_event= on the kernel command line: '${trace_events:-none}') are not all enabled in $tracefs, or no PJT_TRACE_* columns: every run fails"
	matrix_trace_failed=1
}

# The run's trace records, on the channel ahead of its ROW.
emit_trace() {
	trace_csv pulls "$trace_pull_columns" | sed "s/^/TRACE-PULL $seq,/"
	trace_csv loads "$trace_load_columns" | sed "s/^/TRACE-LOAD $seq,/"
	trace_csv tasks "$trace_task_columns" | sed "s/^/TRACE-TASK $seq,/"
	lost=$(trace_overrun)
	[ "$lost" = 0 ] || loud "seq $seq: $lost trace records lost to a full buffer (PJT_TRACE_BUFFER_KB): run/pelt-check's simulation of this run is not to be trusted"
}

matrix_tunable() {
	matrix_tunables="$matrix_tunables $1=$2"
}

# Each file is stored under the host's unique name (a/x.json and b/x.json
# both exist); the map finds it from the path the workload line names.
matrix_file() {
	cat > "$run_files/$1"
	printf '%s %s\n' "$2" "$1" >> "$run_files/map"
}

guest_file_of() {
	awk -v p="$1" '$1 == p { print $2; exit }' "$run_files/map" 2>/dev/null
}

matrix_boot_info() {
	echo "UNAME $(uname -a)"
	# The balancer's levels: names from debugfs, spans from /proc/schedstat.
	awk '$1 ~ /^cpu[0-9]+$/ { cpu = substr($1, 4) }
	     $1 ~ /^domain[0-9]+$/ { print cpu, substr($1, 7), $2 }' "${PJT_SCHEDSTAT:-/proc/schedstat}" 2>/dev/null |
	while read -r cpu level span; do
		name=$(cat "$debug_sched/domains/cpu$cpu/domain$level/name" 2>/dev/null)
		echo "DOMAIN cpu=$cpu domain=$level name=${name:-unknown} span=$span"
	done
	if [ -r "$features_file" ]; then
		while IFS= read -r line; do echo "FEATURES-BEFORE $line"; done < "$features_file"
	else
		echo "FEATURES-BEFORE (no $features_file)"
	fi
}

ms_to_s() { awk -v ms="$1" 'BEGIN { printf "%.3f", ms / 1000 }'; }
uptime_s() { read -r up _ < /proc/uptime; echo "$up"; }

# Sets exactly the bits of FEATURES ("none" or BIT+BIT...) and checks the
# features file says so.  A bit the kernel does not have counts as clear.
set_features() {
	want="+$1+"
	if [ ! -w "$features_file" ]; then
		[ "$1" = none ] && return 0
		loud "seq $seq: $features_file missing: cannot set $1"
		return 1
	fi
	for bit in $pjt_bits; do
		case $want in
		*"+$bit+"*) echo "$bit" ;;
		*) echo "NO_$bit" ;;
		esac 2>/dev/null > "$features_file"
	done
	actual=" $(cat "$features_file") "
	bad=
	for bit in $pjt_bits; do
		case $want in *"+$bit+"*) wanted=1 ;; *) wanted=0 ;; esac
		case $actual in *" $bit "*) have=1 ;; *) have=0 ;; esac
		[ "$wanted" = "$have" ] || bad="$bad $bit(wanted=$wanted,reads=$have)"
	done
	[ -z "$bad" ] && return 0
	loud "seq $seq: FEATURES DO NOT READ BACK:$bad"
	loud "seq $seq: features file: $actual"
	return 1
}

set_tunables() {
	for pair in $matrix_tunables; do
		name=${pair%%=*}
		value=${pair#*=}
		echo "$value" 2>/dev/null > "$debug_sched/$name"
		got=$(cat "$debug_sched/$name" 2>/dev/null)
		if [ "$got" != "$value" ]; then
			loud "seq $seq: tunable $name: wrote $value, reads '${got:-<missing>}'"
			return 1
		fi
	done
}

# duty's rate_fraction needs the uncontended rate of its wss; measure it once
# per boot and wss, before the settle time, never inside a measurement.
calibrate_for() {
	wss=default
	for arg; do case $arg in wss=*) wss=${arg#wss=} ;; esac; done
	case $matrix_calibrated in *" $wss "*) return ;; esac
	if [ "$wss" = default ]; then
		pjtload calibrate duration=1s > /dev/null
	else
		pjtload calibrate "wss=$wss" duration=1s > /dev/null
	fi || loud "seq $seq: calibration for wss=$wss failed: rate_fraction stays empty"
	matrix_calibrated="$matrix_calibrated$wss "
}

# Runs "$@" whole, again and again, appending its stdout to $work/out, until
# the run's duration is up (from $start); $now is when the last one ended.
# A tool that stops mid-way (hackbench, perf bench) does not say how much it
# did, so the last invocation ends the run, up to one invocation late.  A
# failing invocation (a missing library, a refused option) fails the run
# with the tool's own words on the console.
repeat_until_up() {
	end=$(awk -v s="$start" -v ms="$matrix_duration_ms" 'BEGIN { printf "%.2f", s + ms / 1000 }')
	: > "$work/out"
	while :; do
		if ! "$@" >> "$work/out" 2> "$work/err"; then
			loud "seq $seq: '$*' failed: $(tail -n 5 "$work/err" | tr '\n' ' ')"
			return 1
		fi
		now=$(uptime_s)
		awk -v now="$now" -v end="$end" 'BEGIN { exit !(now >= end) }' && return 0
	done
}

# The words' key=value pairs as shell variables opt_KEY (only the keys of
# the matrix-plan's tables: letters).
tool_options() {
	for arg; do
		case $arg in
		*=*) eval "opt_${arg%%=*}=\${arg#*=}" ;;
		esac
	done
}

# A matrix time (ns us ms s) in whole microseconds.
time_us() {
	awk -v t="$1" 'BEGIN {
		n = t; sub(/[a-z]+$/, "", n); u = substr(t, length(n) + 1)
		f = u == "ns" ? 0.001 : u == "us" ? 1 : u == "ms" ? 1000 : 1000000
		printf "%d\n", n * f + 0.5 }'
}

# cyclictest's --histfile: one line per microsecond bucket (counts per
# thread), then "# Total:" (counts within the histogram), "# Min/Avg/Max
# Latencies:" and "# Histogram Overflows:" per thread.  Percentiles of all
# threads' samples together, nearest rank (the ceil(q x N)-th smallest, N
# with the overflows), clamped to [min, max] as pjtload's are; a rank
# beyond the histogram is an error, not a guess.
cyclictest_keys() {
	# Its empty buckets (nearly all of them) go first: grep is quicker at
	# that than busybox awk, which reads the rest.
	grep -v "^[0-9]*[ $(printf '\t')0]*\$" "$1" | awk -v limit="$2" '
	# cyclictest pads with zeros, which busybox awk would read as octal
	function num(s) { sub(/^0+/, "", s); return s + 0 }
	/^[0-9]+[ \t]/ { bs[++nb] = num($1); for (i = 2; i <= NF; i++) cnt[nb] += num($i); next }
	$2 == "Min" { for (i = 4; i <= NF; i++) { v = num($i); if (!nmin++ || v < min) min = v } }
	$2 == "Max" { for (i = 4; i <= NF; i++) { v = num($i); if (v > max) max = v } }
	$2 == "Avg" { for (i = 4; i <= NF; i++) avg[i] = num($i) }
	$2 == "Total:" { for (i = 3; i <= NF; i++) tot[i + 1] = num($i) }
	$2 == "Histogram" && $3 == "Overflows:" { for (i = 4; i <= NF; i++) over[i] = num($i) }
	END {
		for (i in avg) { k = tot[i] + over[i]; n += k; s += avg[i] * k }
		if (n == 0 || !nmin) { print "no samples in the histogram" > "/dev/stderr"; exit 1 }
		split("50 90 99 99.9", qs, " "); split("p50 p90 p99 p999", names, " ")
		for (j = 1; j <= 4; j++) {
			rank = n * qs[j] / 100; if (rank > int(rank)) rank = int(rank) + 1
			c = 0; found = 0
			for (b = 1; b <= nb && !found; b++) { c += cnt[b]; if (c >= rank) { v = bs[b]; found = 1 } }
			if (!found && rank == n) { v = max; found = 1 }
			if (!found) { printf "%s beyond the histogram (%d us)\n", names[j], limit > "/dev/stderr"; exit 1 }
			if (v < min) v = min
			if (v > max) v = max
			printf "wakeup_%s_us=%d\n", names[j], v
		}
		printf "wakeup_min_us=%d\nwakeup_max_us=%d\nwakeup_avg_us=%.1f\n", min, max, s / n
	}'
}

# The first "KEY": "string" of an rt-app JSON (the last one as json-c keeps
# it: the greedy match; log keys are global's alone).
rtapp_string() {
	tr '\n' ' ' < "$2" | sed -n "s/.*\"$1\"[[:space:]]*:[[:space:]]*\"\([^\"]*\)\".*/\1/p"
}

# rt-app's per-thread logs (LOGDIR/BASENAME-THREAD-N.log: a "#idx perf run
# period start end rel_st slack c_duration c_period wu_lat" header, times in
# us, one row per phase activation): ops_per_s the activations of all
# threads per second of their span (first start to last end), slack's p10
# and p50, overruns (activations with negative slack) and, when every
# row's wu_lat is a latency (rt-app 1.0 wraps negative ones to ~2^64), the
# wake-up columns.  No rows, or no start/end: no rate, an error.
rtapp_keys() {
	rm -f "$work/slack" "$work/wu"
	awk -v slack="$work/slack" -v wu="$work/wu" '
	FNR == 1 { split("", col) }
	/^#idx/ { for (i = 1; i <= NF; i++) { h = $i; sub(/^#/, "", h); col[h] = i }; next }
	/^#/ || NF < 2 { next }
	{
		if (!("start" in col) || !("end" in col)) { nostart = 1; next }
		rows++
		s = $col["start"] + 0; e = $col["end"] + 0
		if (first == "" || s < first) first = s
		if (e > last) last = e
		if ("slack" in col) { print $col["slack"] > slack; ns++; if ($col["slack"] < 0) over++ }
		if ("wu_lat" in col) { if ($col["wu_lat"] + 0 > 1e15) badwu++; else { print $col["wu_lat"] > wu; nw++ } }
	}
	END {
		if (!rows || last <= first) { printf "no activations with start and end in the logs%s\n", nostart ? " (no start/end columns)" : "" > "/dev/stderr"; exit 1 }
		printf "ops_per_s=%.1f\n", rows / ((last - first) / 1e6)
		if (ns) printf "overruns=%d\n", over
		if (badwu) {
			printf "rt-app: %d of %d wu_lat values are not latencies (wrapped below 0): the wake-up columns stay empty\n", badwu, badwu + nw > "/dev/stderr"
			close(wu); printf "" > wu
		}
	}' "$@" || return 1
	# A percentile below 0 (that share of activations overran) is 0: the
	# columns are slack left, overruns counts the overrun activations.
	[ ! -s "$work/slack" ] || sorted_keys "$work/slack" slack_p10_us:10 slack_p50_us:50 |
		sed 's/=-[0-9]*$/=0/'
	[ ! -s "$work/wu" ] || sorted_keys "$work/wu" wakeup_p50_us:50 wakeup_p90_us:90 wakeup_p99_us:99 \
		wakeup_p999_us:99.9 wakeup_min_us:min wakeup_max_us:max wakeup_avg_us:avg
}

# KEY=value lines of FILE's numbers (one a line): KEY:Q its nearest-rank
# percentile Q (the ceil(Q% x N)-th smallest), KEY:min, KEY:max, KEY:avg.
sorted_keys() {
	file=$1
	shift
	sort -n "$file" | awk -v specs="$*" '
	{ v[++n] = $1; t += $1 }
	END {
		k = split(specs, s, " ")
		for (i = 1; i <= k; i++) {
			split(s[i], p, ":")
			if (p[2] == "min") x = v[1]
			else if (p[2] == "max") x = v[n]
			else if (p[2] == "avg") { printf "%s=%.1f\n", p[1], t / n; continue }
			else { r = n * p[2] / 100; if (r > int(r)) r = int(r) + 1; if (r < 1) r = 1; x = v[r] }
			printf "%s=%d\n", p[1], x
		}
	}'
	rm -f "$file"
}

# Runs the workload; key=value lines of what it measured go to stdout.
run_workload() {
	kind=$1
	shift
	start=$(uptime_s)
	case $kind in
	duty|calibrate|pingpong|fork)
		pjtload "$kind" "$@" "duration=${matrix_duration_ms}ms" > "$work/out" || return 1
		grep -v '^thread=' "$work/out" | head -n 1 | tr ' ' '\n' ;;
	hackbench)
		opt_groups= opt_loops= opt_pipe=
		tool_options "$@"
		pipe=
		[ "$opt_pipe" != 1 ] || pipe=-p
		repeat_until_up hackbench -g "$opt_groups" -l "$opt_loops" $pipe || return 1
		# The measured time is the loop's, hackbench's start-up and exit
		# included (the counters' window).  20 senders x 20 receivers a
		# group, each sender passes loops messages to each receiver.
		awk -v g="$opt_groups" -v l="$opt_loops" -v a="$start" -v b="$now" '
		$1 == "Time:" { n++ }
		END { t = b - a; if (!n || t <= 0) exit 1; printf "duration_s=%.2f\nops_per_s=%.1f\n", t, n * g * 20 * 20 * l / t }' "$work/out" ||
			{ loud "seq $seq: no 'Time:' in hackbench output"; return 1; } ;;
	perf-messaging|perf-pipe)
		opt_groups= opt_loops= opt_pipe= opt_threads=
		tool_options "$@"
		if [ "$kind" = perf-messaging ]; then
			set -- messaging -g "$opt_groups" -l "$opt_loops"
			[ "$opt_pipe" != 1 ] || set -- "$@" -p
			[ "$opt_threads" != 1 ] || set -- "$@" -t
		else
			set -- pipe -l "$opt_loops"
			[ "$opt_threads" != 1 ] || set -- "$@" -T
		fi
		repeat_until_up perf bench sched "$@" || return 1
		# perf's own figures: each invocation's "Total time: T [sec]"
		# (pipe: N x its "U usecs/op", the same time with more digits);
		# messaging passes groups x 20 x 20 x loops messages, pipe says
		# "Executed N pipe operations" (N round trips).  duration_s is
		# the sum of perf's times (perf's start-up left out), ops_per_s
		# what was done per second of it.
		awk -v kind="$kind" -v per="$((${opt_groups:-0} * 400 * opt_loops))" '
		$1 == "Total" && $2 == "time:" { n++; t += $3 }
		$2 == "Executed" && $4 == "pipe" { ops += $3; last = $3 }
		$2 == "usecs/op" { fine += $1 * last / 1e6; nfine++ }
		END {
			if (kind == "perf-messaging") ops = n * per
			else if (nfine == n) t = fine
			if (!n || t <= 0 || !ops) exit 1
			printf "duration_s=%.3f\nops_per_s=%.1f\n", t, ops / t
		}' "$work/out" ||
			{ loud "seq $seq: perf bench sched ${kind#perf-}: no rate in its output: $(tail -n 3 "$work/out" | tr '\n' ' ')"; return 1; } ;;
	cyclictest)
		opt_threads=1 opt_interval=1000us opt_prio=
		tool_options "$@"
		set -- -q -m -t "$opt_threads" -i "$(time_us "$opt_interval")" \
			-D "$((matrix_duration_ms / 1000))" -h 100000 --histfile="$work/hist"
		[ -z "$opt_prio" ] || set -- "$@" -p "$opt_prio"
		rm -f "$work/hist"
		cyclictest "$@" > "$work/out" 2>&1 ||
			{ loud "seq $seq: cyclictest $* failed: $(tail -n 5 "$work/out" | tr '\n' ' ')"; return 1; }
		echo "duration_s=$(awk -v a="$start" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }')"
		cyclictest_keys "$work/hist" 100000 ||
			{ loud "seq $seq: cyclictest: no latencies from its histogram"; return 1; } ;;
	rt-app)
		name=$(guest_file_of "$1")
		[ -n "$name" ] || { loud "seq $seq: no file for rt-app $1 in the plan"; return 1; }
		# Its logs: global.logdir (default ".", the fresh run folder) and
		# log_basename (default "rt-app"); old ones of the name go first.
		logdir=$(rtapp_string logdir "$run_files/$name")
		logbase=$(rtapp_string log_basename "$run_files/$name")
		rm -rf "$work/rtapp"
		mkdir -p "$work/rtapp"
		case ${logdir:-.} in /*) ;; *) logdir=$work/rtapp/${logdir:-.} ;; esac
		rm -f "$logdir/${logbase:-rt-app}"-*.log
		(cd "$work/rtapp" && rt-app "$run_files/$name") > "$work/out" 2>&1 ||
			{ cat "$work/out" >&2; return 1; }
		set -- "$logdir/${logbase:-rt-app}"-*.log
		[ -e "$1" ] || { loud "seq $seq: rt-app wrote no log ($logdir/${logbase:-rt-app}-*.log): no rate"; return 1; }
		rtapp_keys "$@" ||
			{ loud "seq $seq: rt-app: no rate from its logs $*"; return 1; } ;;
	crash)
		loud "seq $seq: workload crash: panicking the guest on purpose (echo c > /proc/sysrq-trigger)"
		sync
		echo c > /proc/sysrq-trigger
		sleep 10
		return 1 ;;
	*)
		loud "seq $seq: unknown workload kind $kind"
		return 1 ;;
	esac
	echo "wall_s=$(awk -v a="$start" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }')"
}

# Prints the ROW line from the key=value file $work/row.
emit_row() {
	awk -F= -v columns="$csv_columns" '
	{ v[$1] = substr($0, length($1) + 2) }
	END {
		n = split(columns, c, " ")
		if (v["duration_s"] == "") v["duration_s"] = v["wall_s"]
		line = "ROW "
		for (i = 1; i <= n; i++) line = line (i > 1 ? "," : "") v[c[i]]
		print line
	}' "$work/row"
}

matrix_run() {
	seq=$1 topology=$2 combo=$3 features=$4 rep=$5
	shift 5
	echo "RUN-BEGIN seq=$seq combo=$combo"
	status=ok
	[ "$matrix_counting_failed" = 0 ] && [ "$matrix_trace_failed" = 0 ] && set_features "$features" && set_tunables || status=failed
	if [ "$status" = ok ] && [ "$1" = duty ]; then
		calibrate_for "$@"
	fi
	: > "$work/measured"
	if [ "$status" = ok ]; then
		sleep "$(ms_to_s "$matrix_settle_ms")"
		[ "$matrix_trace_on" = 0 ] || trace_start
		sh "$pjt_lib/snapshot.sh" > "$work/before"
		if ! run_workload "$@" > "$work/workload"; then
			loud "seq $seq: workload '$*' FAILED"
			status=failed
		fi
		sh "$pjt_lib/snapshot.sh" > "$work/after"
		# the drift's candidates (state_* columns), as the run leaves them
		sh "$pjt_lib/snapshot.sh" state > "$work/state"
		if [ "$matrix_trace_on" = 1 ]; then
			trace_stop
			emit_trace
		fi
		if [ "$status" = ok ]; then
			sh "$pjt_lib/snapshot.sh" delta "$work/before" "$work/after" > "$work/measured"
			cat "$work/state" >> "$work/measured"
			# A workload fills the columns its output names (pjtload's keys
			# are column names, INTERFACES.md), first value of each.
			awk -F= -v keys="$csv_columns wall_s" '
			BEGIN { n = split(keys, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1 }
			($1 in want) && !($1 in seen) && length($0) > length($1) + 1 { seen[$1] = 1; print }
			' "$work/workload" >> "$work/measured"
		fi
	fi
	# The run's identity last: emit_row keeps the last value of a key, so
	# no workload output can change it.
	{
		cat "$work/measured"
		echo "seq=$seq"
		echo "topology=$topology"
		echo "combo=$combo"
		echo "features=$features"
		echo "workload=$*"
		echo "rep=$rep"
		echo "status=$status"
	} > "$work/row"
	emit_row
}
