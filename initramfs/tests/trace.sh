#!/bin/sh
# Guest suite: the series' trace events (matrix "trace on").
# One traced run of the RFC's duty-cycle workload with rfc-after's bits:
#   - every pull the trace records is a pull /proc/schedstat's lb_gained
#     counts: markers written before and after each schedstat read bracket
#     the schedstat window, so pulls traced strictly inside it <= the
#     lb_gained delta <= pulls traced in the outer window (equal but for a
#     pull landing between a marker and its read), per idle type too;
#   - each CPU's load records: nothing queued means weight 0 and PELT load 0
#     (the PJT points' signal is runnable-only), and some record has tasks;
#   - nothing lost to a full buffer, and nothing recorded once tracing stops.
# Runs as root in the guest (busybox sh).
D=/sys/kernel/debug/sched
SNAP=/usr/lib/pjt/snapshot.sh
. /usr/lib/pjt/tap.sh
. /usr/lib/pjt/trace.sh

pulls_cols="time_s domain idle src_cpu dst_cpu pid comm type pjt load_weight load_pelt"
loads_cols="time_s cpu nr_running weight load_avg pelt"

check "the trace events are enabled from boot (run/boot --trace) and the kernel has them" trace_available
if ! trace_available; then
	echo "# the boot enabled: ${trace_events:-nothing (no trace_event= on its command line)}; the kernel has: $(ls "$tracefs/events/sched" 2>&1 | tr '\n' ' ')"
	exit 1
fi

# rfc-after: the seven PJT_* bits
rfc_after="PJT_SHORT_TASKS PJT_BUSIEST PJT_IMBALANCE PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE PJT_CLASSIFY"
for bit in $rfc_after; do echo "$bit" > "$D/features"; done

trace_start
trace_mark M1
"$SNAP" > /tmp/trace.before
trace_mark M2
pjtload duty threads=8 duty=10 period=10ms duration=3s > /dev/null
trace_mark M3
"$SNAP" > /tmp/trace.after
trace_mark M4
trace_stop
for bit in $rfc_after; do echo "NO_$bit" > "$D/features"; done

"$SNAP" delta /tmp/trace.before /tmp/trace.after > /tmp/trace.delta
trace_marks > /tmp/trace.marks
trace_csv pulls "$pulls_cols" > /tmp/trace.pulls
trace_csv loads "$loads_cols" > /tmp/trace.loads
mark() { awk -v m="$1" '$2 == m { print $1; exit }' /tmp/trace.marks; }
m1=$(mark M1) m2=$(mark M2) m3=$(mark M3) m4=$(mark M4)
check "the four markers are in the trace" sh -c "[ -n '$m1' ] && [ -n '$m2' ] && [ -n '$m3' ] && [ -n '$m4' ]"

# pulls_between FROM TO [IDLE]: traced pulls with FROM < time < TO.
pulls_between() {
	awk -F, -v a="$1" -v b="$2" -v idle="${3:-}" '
	$1 + 0 > a + 0 && $1 + 0 < b + 0 && (idle == "" || $3 == idle) { n++ }
	END { print n + 0 }' /tmp/trace.pulls
}
key() { sed -n "s/^$1=//p" /tmp/trace.delta; }
# Active balance's pull counts in lb_gained[CPU_IDLE] (detach_one_task()).
gained=$(($(key lb_pulls_idle) + $(key lb_pulls_busy) + $(key lb_pulls_newidle)))
inner=$(pulls_between "$m2" "$m3") outer=$(pulls_between "$m1" "$m4")
echo "# lb_gained delta $gained; traced pulls inside the window $inner, around it $outer"
check "the run pulled tasks" [ "$gained" -gt 0 ]
check "traced pulls = lb_gained (inside <= delta <= around)" sh -c "[ '$inner' -le '$gained' ] && [ '$gained' -le '$outer' ]"
for t in busy newidle; do
	g=$(key "lb_pulls_$t")
	i=$(pulls_between "$m2" "$m3" "$t") o=$(pulls_between "$m1" "$m4" "$t")
	check "traced $t pulls = lb_gained[$t] ($i <= $g <= $o)" sh -c "[ '$i' -le '$g' ] && [ '$g' -le '$o' ]"
done
i=$(( $(pulls_between "$m2" "$m3" idle) + $(pulls_between "$m2" "$m3" active) ))
o=$(( $(pulls_between "$m1" "$m4" idle) + $(pulls_between "$m1" "$m4" active) ))
g=$(key lb_pulls_idle)
check "traced idle and active pulls = lb_gained[idle] ($i <= $g <= $o)" sh -c "[ '$i' -le '$g' ] && [ '$g' -le '$o' ]"

check "every pull names its domain, CPUs and both loads" awk -F, '
	$2 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ || $5 !~ /^[0-9]+$/ || $4 == $5 ||
	$10 !~ /^[0-9]+$/ || $11 !~ /^[0-9]+$/ { bad++ } END { exit bad > 0 }' /tmp/trace.pulls
check "pulls under the RFC's bits name the PJT points that decided" grep -q ',PJT_[A-Z_|]*,' /tmp/trace.pulls

cpus=$(nproc)
check "load records from each of the $cpus CPUs" [ "$(cut -d, -f2 /tmp/trace.loads | sort -u | wc -l)" = "$cpus" ]
check "a CPU with no CFS task has weight 0 and PELT load 0" awk -F, '
	$3 == 0 && ($4 != 0 || $6 != 0) { bad++ } END { exit bad > 0 }' /tmp/trace.loads
check "some CPU had CFS tasks with a weight" awk -F, '$3 > 0 && $4 > 0 { n++ } END { exit !n }' /tmp/trace.loads
check "no trace record lost (overrun 0)" [ "$(trace_overrun)" = 0 ]

before=$(wc -l < "$tracefs/trace")
pjtload duty threads=4 duty=10 period=10ms duration=1s > /dev/null
check "nothing is recorded once tracing stopped" [ "$(wc -l < "$tracefs/trace")" = "$before" ]

exit $((failed > 0))
