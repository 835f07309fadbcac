#!/bin/sh
# run/tests/test-trace.sh: the "trace on" path on the host, no kernel.
#   - the planner's trace directive (on/off, refused otherwise or twice);
#   - run/matrix with run/tests/fixtures/matrix/fake-boot and a fake tracefs:
#     a traced matrix boots with run/boot --trace, whose kernel command line
#     enables run/contract/trace-events (trace_event=), an untraced one not;
#     trace_start enables no event (it refuses when the boot did not); the
#     guest's trace records reach traces/SEQ.csv and SEQ-loads.csv under
#     run/contract's headers, each run's records in its own file, and the
#     DOMAIN lines reach domains.txt; a kernel without the events fails the
#     runs instead of recording them untraced;
#     the activations (sched_switch, sched_wakeup, sched_migrate_task)
#     reach traces/SEQ-tasks.csv;
#   - run/trace-report on run/tests/fixtures/trace: pull counts per level and
#     idle type (zeros of a run without pulls included), the loads at the
#     ticks with N tasks (the RFC's 2048 against < 1000), charts, refusals.
# The guest side (the kernel's events, pulls = lb_gained) is
# initramfs/tests/trace.sh.  Prints TAP-ish "ok N - text" lines.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
plan_tool=$top/build/matrix-plan
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-trace.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$top/initramfs/lib/tap.sh"
entries() { "$top/run/contract/entries" "$@"; }

make -s -f "$top/run/matrix.mk" TOP="$top" BUILD="$top/build" matrix-tools >"$tmp/make.log" 2>&1
check "matrix-plan builds" test -x "$plan_tool"

matrix() { # matrix NAME TRACE-LINES...: a one-combo duty matrix
	f=$tmp/$1.matrix
	shift
	printf 'name t\nsmp 2\nduration 100ms\nsettle 0\nreps 4\nseed 1\ncombo stock\nworkload duty threads=2 duty=10 period=10ms\n' >"$f"
	for l; do echo "$l" >>"$f"; done
	echo "$f"
}
check "planner: trace on is planned" sh -c "'$plan_tool' '$(matrix on 'trace on')' | grep -qx 'trace	1'"
check "planner: no trace line plans trace off" sh -c "'$plan_tool' '$(matrix none)' | grep -qx 'trace	0'"
f=$(matrix maybe 'trace maybe')
check "planner: trace maybe is refused at its line" sh -c "'$plan_tool' '$f' >/dev/null 2>'$tmp/e'; [ \$? = 2 ] && grep -q '^$f:9: trace' '$tmp/e'"
f=$(matrix twice 'trace on' 'trace off')
check "planner: a second trace line is refused" sh -c "'$plan_tool' '$f' >/dev/null 2>'$tmp/e'; [ \$? = 2 ] && grep -q '^$f:10: .trace. given twice' '$tmp/e'"

# A fake guest: tracefs files, and a pjtload that leaves, per run, one pull
# and two load records in the buffer (its pid tells runs apart).
g=$tmp/guest
t=$g/tracefs
evs="sched_pjt_pull sched_pjt_cpu_load sched_switch sched_wakeup sched_wakeup_new sched_migrate_task"
mkdir -p "$g/bin" "$t/per_cpu/cpu0"
for e in $evs; do mkdir -p "$t/events/sched/$e"; : >"$t/events/sched/$e/enable"; done
for f in tracing_on buffer_size_kb trace trace_marker; do
	: >"$t/$f"
done
echo "overrun: 0" >"$t/per_cpu/cpu0/stats"
cat >"$g/bin/pjtload" <<'EOF'
#!/bin/sh
case $1 in calibrate) exit 0 ;; esac
[ "$(cat "$PJT_TRACEFS/tracing_on")" = 1 ] || { echo "fake pjtload: tracing is off" >&2; exit 1; }
cat >>"$PJT_TRACEFS/trace" <<REC
# tracer: nop
     pjtload-$$     [001] d..2.   100.000100: sched_pjt_pull: comm=pjt load pid=$$ src_cpu=1 dst_cpu=0 domain=0 idle=newidle type=0 load_weight=1024 load_pelt=90 pjt=PJT_MOVE_TASKS|PJT_BUSIEST
      <idle>-0       [000] d.h1.   100.004000: sched_pjt_cpu_load: cpu=0 nr_running=2 weight=2048 load_avg=400 pelt=180
      <idle>-0       [001] d.h1.   100.004000: sched_pjt_cpu_load: cpu=1 nr_running=0 weight=0 load_avg=20 pelt=0
 pjtload-$$     [001] d..2.   100.004100: sched_switch: prev_comm=pjt load prev_pid=$$ prev_prio=125 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
 pjtload-$$     [000] d..2.   100.004200: sched_wakeup: comm=pjt load pid=$$ prio=125 target_cpu=003
 pjtload-$$     [002] d..2.   100.004300: sched_migrate_task: comm=pjt load pid=$$ prio=125 orig_cpu=3 dest_cpu=2
REC
echo "records_per_s=100 duration_s=0.1"
EOF
chmod +x "$g/bin/pjtload"
echo kernel >"$tmp/bzImage"
echo image >"$tmp/image"
fake_run() { # fake_run OUT MATRIX
	PJT_MATRIX_BOOT=$top/run/tests/fixtures/matrix/fake-boot FAKE_GUEST=$g "$top/run/matrix" --no-report \
		--kernel "$tmp/bzImage" --initrd "$tmp/image" --out "$1" "$2" 2>"$1.err"
}
FAKE_BOOT_ARGS=$tmp/on.args fake_run "$tmp/on" "$(matrix on 'trace on')"
check "fake boot, trace on: run/matrix exits 0" test $? = 0
check "trace on: each boot is run/boot --trace" sh -c "[ -s '$tmp/on.args' ] && ! grep -v -- ' --trace' '$tmp/on.args'"
check "trace on: the guest's kernel command line (run/boot's) enables run/contract/trace-events (trace_event=)" \
	grep -q " trace_event=$(entries -j , trace-events)\$" "$g/cmdline"
check "every run ok" sh -c "awk -F, 'NR > 1 && \$NF != \"ok\" { bad++ } END { exit bad > 0 || NR != 5 }' '$tmp/on/runs.csv'"
check "traces/SEQ.csv for each of the 4 runs, run/contract's header" sh -c "
	for s in 1 2 3 4; do [ \"\$(head -n 1 '$tmp/on/traces/'\$s.csv)\" = '$(entries -j , trace-pulls)' ] || exit 1; done"
check "traces/SEQ-loads.csv for each run, run/contract's header" sh -c "
	for s in 1 2 3 4; do [ \"\$(head -n 1 '$tmp/on/traces/'\$s-loads.csv)\" = '$(entries -j , trace-loads)' ] || exit 1; done"
check "each run's file holds its own pull only (buffer cleared per run)" sh -c "
	for s in 1 2 3 4; do [ \$(wc -l < '$tmp/on/traces/'\$s.csv) = 2 ] || exit 1; done"
check "a pull row carries its fields by name (comm with a space, the PJT points)" \
	test "$(sed -n 2p "$tmp/on/traces/1.csv" | cut -d, -f1-5,7-)" = "100.000100,0,newidle,1,0,pjt load,0,PJT_MOVE_TASKS|PJT_BUSIEST,1024,90"
check "a load row: time, CPU, tasks, weight, load_avg, PELT" \
	test "$(sed -n 2p "$tmp/on/traces/1-loads.csv")" = "100.004000,0,2,2048,400,180"
check "traces/SEQ-tasks.csv for each run, run/contract's header" sh -c "
	for s in 1 2 3 4; do [ \"\$(head -n 1 '$tmp/on/traces/'\$s-tasks.csv)\" = '$(entries -j , trace-tasks)' ] || exit 1; done"
check "activation rows: switch (the CPU of the record, prev_state without ==>), wake-up, migration" sh -c "
	sed -n 2,4p '$tmp/on/traces/1-tasks.csv' | sed 's/,[1-9][0-9]*,125,/,P,125,/' | tr '\n' '/' |
	grep -qx '100.004100,1,sched_switch,,,,,,P,125,S,0,120/100.004200,0,sched_wakeup,P,125,003,,,,,,,/100.004300,2,sched_migrate_task,P,125,,3,2,,,,,/'"
check "no trace line leaks into channel-noise.log" sh -c "! grep -q TRACE '$tmp/on/channel-noise.log' 2>/dev/null"
check "domains.txt holds the fake /proc/schedstat's domains, for the topology" \
	sh -c "grep -q '^topology=1x2x1 cpu=0 domain=0 name=unknown span=00000003' '$tmp/on/domains.txt'"
"$top/run/report" "$tmp/on" >"$tmp/report.out" 2>&1
check "run/report on a traced folder also makes trace/ (run/trace-report)" sh -c "
	[ $? = 0 ] && [ -s '$tmp/on/report.md' ] && [ -s '$tmp/on/trace/trace-report.md' ] && [ -s '$tmp/on/trace/pulls-by-level.csv' ]"

FAKE_BOOT_ARGS=$tmp/off.args fake_run "$tmp/off" "$(matrix off 'trace off')"
check "trace off: no traces/ folder" sh -c "[ $? = 0 ] && [ ! -e '$tmp/off/traces' ]"
check "trace off: no --trace, no trace_event= on the kernel command line" \
	sh -c "[ -s '$tmp/off.args' ] && ! grep -q -- '--trace' '$tmp/off.args' && [ -s '$g/cmdline' ] && ! grep -q trace_event= '$g/cmdline'"

# trace.sh never enables an event (a live patch of kernel text): without
# trace_event= on the command line, or with an event the kernel left off,
# trace_start refuses and the events stay off.
for cmdline in "console=ttyS0" "console=ttyS0 trace_event=$(entries -j , trace-events)"; do
	echo "$cmdline" >"$tmp/cmdline"
	for e in $evs; do echo 0 >"$t/events/sched/$e/enable"; done
	PJT_TRACEFS=$t PJT_CMDLINE=$tmp/cmdline sh -c '. "$1"; trace_start' sh "$top/initramfs/lib/trace.sh" 2>"$tmp/e"
	check "trace_start, events off (command line '${cmdline%%,*}...'): status 1, says why, enables nothing" \
		sh -c "[ $? = 1 ] && grep -q 'live-patch' '$tmp/e' && [ \"\$(cat '$t'/events/sched/*/enable | sort -u)\" = 0 ]"
done

rm "$t/events/sched/sched_pjt_pull/enable"
fake_run "$tmp/stock" "$(matrix stock 'trace on')"
check "trace on, kernel without the events: the runs fail, loudly" sh -c "
	awk -F, 'NR > 1 && \$NF != \"failed\" { bad++ } END { exit bad > 0 || NR < 2 }' '$tmp/stock/runs.csv' &&
	grep -q 'trace on: the boot.s trace events .* are not all enabled' '$tmp/stock/console-1.log'"

# run/trace-report on the fixture (3 runs: stock with 3 pulls, rfc-after
# with 1 and 0).
cp -R "$top/run/tests/fixtures/trace" "$tmp/fx"
"$top/run/trace-report" "$tmp/fx" >"$tmp/tr.out" 2>&1
check "trace-report exits 0 on the fixture" test $? = 0
pl=$tmp/fx/trace/pulls-by-level.csv
check "stock: 2 MC newidle pulls in its one run (no duration_s: no rate)" grep -qx '2x2x1,stock,duty_threads=8_duty=10_period=10ms,0,MC,newidle,1,2,2,2,2,0,,,' "$pl"
check "stock: 1 DIE busy pull, domain named from domains.txt" grep -qx '2x2x1,stock,duty_threads=8_duty=10_period=10ms,1,DIE,busy,1,1,1,1,1,0,,,' "$pl"
check "rfc-after: MC newidle median 0.5 over its runs (1 and 0: zeros count), 1 PJT-decided" \
	grep -qx '2x2x1,rfc-after,duty_threads=8_duty=10_period=10ms,0,MC,newidle,2,0.5,0,1,1,1,,,' "$pl"
ld=$tmp/fx/trace/loads-by-nr.csv
check "loads at ticks with 2 tasks: weight 2048, PELT 190 (the RFC's point 1)" \
	grep -qx '2x2x1,stock,duty_threads=8_duty=10_period=10ms,2,2,2048,190' "$ld"
check "loads at ticks with no task: weight 0, PELT 0" \
	grep -qx '2x2x1,rfc-after,duty_threads=8_duty=10_period=10ms,0,4,0,0' "$ld"
check "the run shown is rfc-after's first (seq 2): its timeline and loads charts" \
	sh -c "[ -s '$tmp/fx/trace/timeline-2.png' ] && [ -s '$tmp/fx/trace/loads-2.png' ] && [ -s '$tmp/fx/trace/pulls-by-level.png' ]"
check "trace-report.md names the run shown and links the charts" \
	sh -c "grep -q 'run 2: 2x2x1, rfc-after' '$tmp/fx/trace/trace-report.md' && grep -q '(loads-2.png)' '$tmp/fx/trace/trace-report.md'"
"$top/run/trace-report" --seq 1 "$tmp/fx" >/dev/null 2>&1
check "--seq 1 shows run 1" test -s "$tmp/fx/trace/timeline-1.png"
timed_pulls() { # the fixture with 2-s runs: pulls per second, in the report's colours
	cp -R "$top/run/tests/fixtures/trace" "$tmp/timed"
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "boot") b = i } NR > 1 { $7 = "2.000"; $b = 1 } { print }' \
		"$top/run/tests/fixtures/trace/runs.csv" >"$tmp/timed/runs.csv"
	"$top/run/trace-report" "$tmp/timed" >/dev/null 2>&1 || { echo "exit $?"; return 1; }
	grep -qx '2x2x1,rfc-after,duty_threads=8_duty=10_period=10ms,0,MC,newidle,2,0.5,0,1,1,1,0.25,0,0.5' "$tmp/timed/trace/pulls-by-level.csv" ||
		{ echo "per second"; return 1; }
	head -1 "$tmp/timed/trace/pulls-by-level.dat" | grep -q '	stock (n=1)	min	max	rfc-after (n=2)	min	max$' || { echo "a column per combination, n in the key"; return 1; }
	"$top/build/pjt-stats" -q -o "$tmp/timed-stats" "$tmp/timed" &&
		cmp -s "$tmp/timed-stats/plots-data/colours.txt" "$tmp/timed/trace/colours.txt" || { echo "not the report's colours"; return 1; }
	grep -q '(2-s runs)' "$tmp/timed/trace/trace-report.md" && [ -s "$tmp/timed/trace/pulls-by-level.png" ]
}
check "pulls by level per second of each run (2-s runs), a bar per combination in the report's colour, n in the key" timed_pulls
check "without duration_s the chart says it is per run" grep -q 'The chart draws them per run (runs.csv has no duration_s)' "$tmp/fx/trace/trace-report.md"
rm -f "$tmp/fx/trace/timeline-1.png"
"$top/run/trace-report" "$tmp/fx" --seq=1 >/dev/null 2>&1
check "--seq=1 after the folder (run/lib/options.sh) shows run 1" test -s "$tmp/fx/trace/timeline-1.png"
"$top/run/trace-report" --seq x "$tmp/fx" >/dev/null 2>"$tmp/e"
check "--seq x: exit 2, 'run/trace-report: ...' and the --help pointer" sh -c "[ $? = 2 ] &&
	[ \"\$(cat '$tmp/e')\" = \"\$(printf 'run/trace-report: --seq wants a run number, not '\\''x'\\''\\nrun/trace-report: see run/trace-report --help')\" ]"
"$top/run/trace-report" --bogus "$tmp/fx" >/dev/null 2>"$tmp/e"
check "an unknown option: exit 2, named" sh -c "[ $? = 2 ] && grep -qx 'run/trace-report: unknown option --bogus' '$tmp/e'"
check "-h prints the usage, --version the project's version: exit 0" sh -c "
	'$top/run/trace-report' -h | grep -q '^usage: run/trace-report \\[--seq N\\] RESULTS_DIR' &&
	'$top/run/trace-report' --version | grep -q '^run/trace-report (pjt-sched) '"
"$top/run/trace-report" --seq 9 "$tmp/fx" >/dev/null 2>"$tmp/e"
check "--seq of a run without a trace: exit 2, named" sh -c "[ $? = 2 ] && grep -q 'seq 9' '$tmp/e'"
"$top/run/trace-report" "$tmp/off" >/dev/null 2>"$tmp/e"
check "a folder without traces/: exit 2" test $? = 2
sed -i '1s/^time_s/t/' "$tmp/fx/traces/2.csv"
"$top/run/trace-report" "$tmp/fx" >/dev/null 2>"$tmp/e"
check "a trace with another header: exit 2, FILE:1 named" sh -c "[ $? = 2 ] && grep -q 'traces/2.csv:1:' '$tmp/e'"

exit $((failed > 0))
