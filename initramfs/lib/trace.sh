# trace.sh: the series' trace events in the guest, sourced by matrix-exec.sh
# and the trace test.  sched_pjt_pull (one record per task the load
# balancer pulls), sched_pjt_cpu_load (each CPU's load at each tick) and
# the task activations a PELT simulation needs (run/pelt-check):
# sched_switch, sched_wakeup, sched_wakeup_new, sched_migrate_task.
#
#   trace_available          the kernel has all these events (tracefs mounted)
#   trace_start              clear the buffer, enable the events (once a
#                            boot), trace on
#   trace_mark TEXT          a marker record (trace_marker)
#   trace_stop               tracing off; the events stay enabled: each
#                            enable or disable live-patches the
#                            tracepoints' call sites (static calls), and
#                            under multi-threaded TCG a vCPU can run a
#                            call site mid-patch (an int3 oops in
#                            __schedule, sched_switch's site, was seen)
#   trace_csv pulls|loads|tasks COLUMNS
#                            the buffer's records of one kind as CSV rows
#                            (no header), COLUMNS in order: the events'
#                            field names; time_s the timestamp, cpu the CPU
#                            that wrote the record (unless the event has a
#                            cpu field), event the event's name
#   trace_marks              "time_s TEXT" of each marker, in order
#   trace_overrun            records lost to a full buffer since trace_start
tracefs=${PJT_TRACEFS:-/sys/kernel/tracing}
trace_events="sched/sched_pjt_pull sched/sched_pjt_cpu_load"
trace_task_events="sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new sched/sched_migrate_task"
# Per CPU: a 10 s run at HZ=250 writes 2500 load records per CPU (~100 KiB
# in the ring buffer); the activations of the RFC's workload (8 threads
# waking every 10 ms: a wake-up and two switches each) about 2400 records a
# second over 4 CPUs, 40 bytes each, ~250 KiB per CPU in 10 s.  4 MiB per
# CPU leaves room for long and busier runs; trace_overrun tells when not.
trace_buffer_kb=${PJT_TRACE_BUFFER_KB:-4096}

trace_available() {
	for e in $trace_events $trace_task_events; do
		[ -w "$tracefs/events/$e/enable" ] || return 1
	done
}

trace_start() {
	echo 0 > "$tracefs/tracing_on"
	echo "$trace_buffer_kb" > "$tracefs/buffer_size_kb"
	: > "$tracefs/trace"
	for e in $trace_events $trace_task_events; do
		[ "$(cat "$tracefs/events/$e/enable")" = 1 ] || echo 1 > "$tracefs/events/$e/enable"
	done
	echo 1 > "$tracefs/tracing_on"
}

trace_mark() { echo "$*" > "$tracefs/trace_marker"; }

trace_stop() {
	echo 0 > "$tracefs/tracing_on"
}

# A record: "COMM-PID [CPU] FLAGS SECONDS: EVENT: key=value ...".  comm=
# (and sched_switch's prev_comm=, next_comm=) can hold a space; the keys
# after it never do.  sched_switch's "==>" between prev and next is skipped.
trace_csv() {
	case $1 in
	pulls) events=" sched_pjt_pull: " ;;
	loads) events=" sched_pjt_cpu_load: " ;;
	tasks) events=" sched_switch: sched_wakeup: sched_wakeup_new: sched_migrate_task: " ;;
	*) echo "trace_csv: pulls, loads or tasks, not '$1'" >&2; return 2 ;;
	esac
	awk -v events="$events" -v columns="$2" '
	BEGIN { n = split(columns, col, " ") }
	/^#/ { next }
	{
		for (i = 1; i < NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/ && index(events, " " $(i + 1) " ")) break
		if (i >= NF) next
		delete v
		v["time_s"] = substr($i, 1, length($i) - 1)
		v["event"] = substr($(i + 1), 1, length($(i + 1)) - 1)
		for (j = i - 1; j > 0; j--)
			if ($j ~ /^\[[0-9]+\]$/) { v["cpu"] = substr($j, 2, length($j) - 2) + 0; break }
		rest = $0
		sub(/^.*: [a-z_]+: /, "", rest)
		m = split(rest, kv, " ")
		key = ""
		for (j = 1; j <= m; j++) {
			if (kv[j] ~ /^[a-z_]+=/) {
				key = substr(kv[j], 1, index(kv[j], "=") - 1)
				v[key] = substr(kv[j], length(key) + 2)
			} else if (kv[j] == "==>") {
				key = ""
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
