# trace.sh: the series' trace events in the guest, sourced by matrix-exec.sh
# and the trace test.  sched_pjt_pull (one record per task the load
# balancer pulls) and sched_pjt_cpu_load (each CPU's load at each tick).
#
#   trace_available          the kernel has both events (tracefs mounted)
#   trace_start              clear the buffer, enable both events, trace on
#   trace_mark TEXT          a marker record (trace_marker)
#   trace_stop               tracing off, both events disabled
#   trace_csv pulls|loads COLUMNS
#                            the buffer's records of one event as CSV rows
#                            (no header), COLUMNS in order: the events'
#                            field names, time_s for the timestamp
#   trace_marks              "time_s TEXT" of each marker, in order
#   trace_overrun            records lost to a full buffer since trace_start
tracefs=${PJT_TRACEFS:-/sys/kernel/tracing}
trace_events="sched/sched_pjt_pull sched/sched_pjt_cpu_load"
# Per CPU: a 10 s run at HZ=250 writes 2500 load records per CPU (~100 KiB)
# plus its pulls; 4 MiB leaves room for long runs.
trace_buffer_kb=${PJT_TRACE_BUFFER_KB:-4096}

trace_available() {
	for e in $trace_events; do
		[ -w "$tracefs/events/$e/enable" ] || return 1
	done
}

trace_start() {
	echo 0 > "$tracefs/tracing_on"
	echo "$trace_buffer_kb" > "$tracefs/buffer_size_kb"
	: > "$tracefs/trace"
	for e in $trace_events; do echo 1 > "$tracefs/events/$e/enable"; done
	echo 1 > "$tracefs/tracing_on"
}

trace_mark() { echo "$*" > "$tracefs/trace_marker"; }

trace_stop() {
	echo 0 > "$tracefs/tracing_on"
	for e in $trace_events; do echo 0 > "$tracefs/events/$e/enable"; done
}

# A record: "COMM-PID [CPU] FLAGS SECONDS: EVENT: key=value ...".  comm=
# can hold a space; the keys after it never do.
trace_csv() {
	case $1 in
	pulls) event=sched_pjt_pull: ;;
	loads) event=sched_pjt_cpu_load: ;;
	*) echo "trace_csv: pulls or loads, not '$1'" >&2; return 2 ;;
	esac
	awk -v event="$event" -v columns="$2" '
	BEGIN { n = split(columns, col, " ") }
	/^#/ { next }
	{
		for (i = 1; i < NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/ && $(i + 1) == event) break
		if (i >= NF) next
		delete v
		v["time_s"] = substr($i, 1, length($i) - 1)
		rest = $0
		sub(/^.*: [a-z_]+: /, "", rest)
		m = split(rest, kv, " ")
		key = ""
		for (j = 1; j <= m; j++) {
			if (kv[j] ~ /^[a-z_]+=/) {
				key = substr(kv[j], 1, index(kv[j], "=") - 1)
				v[key] = substr(kv[j], length(key) + 2)
			} else if (key != "") {
				v[key] = v[key] " " kv[j]
			}
		}
		line = ""
		for (j = 1; j <= n; j++) {
			x = v[col[j]]
			gsub(/,/, ";", x)
			line = line (j > 1 ? "," : "") x
		}
		print line
	}' "$tracefs/trace"
}

trace_marks() {
	awk '/tracing_mark_write: / {
		for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		t = substr($i, 1, length($i) - 1)
		sub(/^.*tracing_mark_write: /, "")
		print t, $0
	}' "$tracefs/trace"
}

trace_overrun() {
	awk '/^overrun:/ { n += $2 } END { print n + 0 }' "$tracefs"/per_cpu/cpu*/stats
}
