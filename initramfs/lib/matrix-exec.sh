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
# first snapshot to just after its last (trace.sh).  A kernel without them
# (stock) fails every run rather than give runs without their traces.
matrix_trace_on=0
matrix_trace_failed=0
matrix_trace() {
	matrix_trace_on=$1
	[ "$1" = 1 ] || return 0
	. "$pjt_lib/trace.sh"
	trace_available && [ -n "$trace_pull_columns" ] && [ -n "$trace_load_columns" ] &&
		[ -n "$trace_task_columns" ] && return 0
	loud "trace on: no sched_pjt_pull/sched_pjt_cpu_load/sched_switch/sched_wakeup/sched_migrate_task events in $tracefs (or no PJT_TRACE_* columns): every run fails"
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
		groups= loops= pipe=
		for arg; do
			case $arg in
			groups=*) groups=${arg#groups=} ;;
			loops=*) loops=${arg#loops=} ;;
			pipe=1) pipe=-p ;;
			esac
		done
		# Whole invocations until the duration is up: a stopped hackbench
		# prints a Time: without saying how many messages it passed, so the
		# last invocation ends the run, up to one invocation late.
		end=$(awk -v s="$start" -v ms="$matrix_duration_ms" 'BEGIN { printf "%.2f", s + ms / 1000 }')
		: > "$work/out"
		while :; do
			hackbench -g "$groups" -l "$loops" $pipe >> "$work/out" || return 1
			now=$(uptime_s)
			awk -v now="$now" -v end="$end" 'BEGIN { exit !(now >= end) }' && break
		done
		# The measured time is the loop's, hackbench's start-up and exit
		# included (the counters' window).  20 senders x 20 receivers a
		# group, each sender passes loops messages to each receiver.
		awk -v g="$groups" -v l="$loops" -v a="$start" -v b="$now" '
		$1 == "Time:" { n++ }
		END { t = b - a; if (!n || t <= 0) exit 1; printf "duration_s=%.2f\nops_per_s=%.1f\n", t, n * g * 20 * 20 * l / t }' "$work/out" ||
			{ loud "seq $seq: no 'Time:' in hackbench output"; return 1; } ;;
	rt-app)
		name=$(guest_file_of "$1")
		[ -n "$name" ] || { loud "seq $seq: no file for rt-app $1 in the plan"; return 1; }
		(cd "$work" && rt-app "$run_files/$name") > "$work/out" 2>&1 ||
			{ cat "$work/out" >&2; return 1; } ;;
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
		if [ "$matrix_trace_on" = 1 ]; then
			trace_stop
			emit_trace
		fi
		if [ "$status" = ok ]; then
			sh "$pjt_lib/snapshot.sh" delta "$work/before" "$work/after" > "$work/measured"
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
