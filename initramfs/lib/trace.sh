# trace.sh: the series' trace events in the guest, sourced by matrix-exec.sh
# and the suites that trace.  Which events: those the kernel command line
# enabled (trace_event=, set by run/boot --trace from
# run/contract/trace-events): sched_pjt_pull (one record per task the load
# balancer pulls), sched_pjt_cpu_load (each CPU's load at each tick) and the
# task activations a PELT simulation needs (run/pelt-check).  Nothing here
# enables or disables an event: each enable or disable live-patches the
# tracepoints' call sites (static calls, text_poke_bp()), and under
# multi-threaded TCG a vCPU can run a call site mid-patch (int3 oopses in
# __schedule and trace_sched_wakeup() were seen).  From the command line
# they are patched before the other CPUs start; recording is switched with
# tracing_on alone.  sched_pjt_cpu_load holds the runnable-load bookkeeping
# on while it is enabled (the whole of such a boot): it changes no
# decision, only costs.
#
#   trace_available          the boot enabled its trace events and the
#                            kernel has every one of them
#   trace_start              trace off, clear the buffer (records since
#                            boot, overrun counters), trace on; refuses
#                            (status 1) when not trace_available
#   trace_mark TEXT          a marker record (trace_marker)
#   trace_stop               trace off
#   trace_csv pulls|loads|tasks COLUMNS
#                            the buffer's records of one kind as CSV rows
#                            (no header), COLUMNS in order: the events'
#                            field names; time_s the timestamp, cpu the CPU
#                            that wrote the record (unless the event has a
#                            cpu field), event the event's name
#   trace_marks              "time_s TEXT" of each marker, in order
#   trace_overrun            records lost to a full buffer since trace_start
tracefs=${PJT_TRACEFS:-/sys/kernel/tracing}
# trace_event=SYS:EVENT,... as SYS/EVENT words (tracefs' events/ paths)
trace_events=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^trace_event=/) {
	s = substr($i, 13); gsub(/,/, " ", s); gsub(/:/, "/", s); print s } }' "${PJT_CMDLINE:-/proc/cmdline}")
# Per CPU: a 10 s run at HZ=250 writes 2500 load records per CPU (~100 KiB
# in the ring buffer); the activations of the RFC's workload (8 threads
# waking every 10 ms: a wake-up and two switches each) about 2400 records a
# second over 4 CPUs, 40 bytes each, ~250 KiB per CPU in 10 s.  4 MiB per
# CPU leaves room for long and busier runs; trace_overrun tells when not.
trace_buffer_kb=${PJT_TRACE_BUFFER_KB:-4096}

trace_available() {
	[ -n "$trace_events" ] || return 1
	for e in $trace_events; do
		[ "$(cat "$tracefs/events/$e/enable" 2>/dev/null)" = 1 ] || return 1
	done
}

trace_start() {
	if ! trace_available; then
		echo "trace_start: the boot did not enable the trace events (run/boot --trace: trace_event= on the kernel command line), or the kernel lacks one of '${trace_events:-<none>}'; enabling them now would live-patch kernel text: not tracing" >&2
		return 1
	fi
	echo 0 > "$tracefs/tracing_on"
	echo "$trace_buffer_kb" > "$tracefs/buffer_size_kb"
	: > "$tracefs/trace"
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
