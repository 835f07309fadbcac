#!/bin/sh
# run/tests/test-phase.sh: make run's phase times (run/phase): each
# phase's time printed and logged, a failed phase named with its status,
# the summary's total and DIR/phases.txt, usage errors; make run's recipe
# times deps, unpack, kernel, image, matrix and report in that order.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/run/tests/fixtures/tap.sh"
tap_begin test-phase
phase=$top/run/phase
export PJT_PHASE_LOG="$tmp/log"

check "a phase runs its command with its arguments" sh -c "'$phase' one sh -c 'echo \$1 > \"$tmp/arg\"' sh hello 2>'$tmp/e1' && grep -qx hello '$tmp/arg'"
check "a phase prints its time on stderr" grep -qx 'phase one: [0-9]*s' "$tmp/e1"
check "a phase of 2 s is logged with its seconds" sh -c "'$phase' two sleep 2 2>/dev/null && awk '\$1 == \"two\" && \$2 >= 2 && \$2 <= 4 { ok = 1 } END { exit !ok }' '$tmp/log'"
"$phase" three sh -c 'exit 7' 2>"$tmp/e3"
check "a failed phase: its command's exit status" test $? = 7
check "a failed phase: printed as failed with its status" grep -q '^phase three: failed (exit 7)' "$tmp/e3"
mkdir "$tmp/results"
"$phase" --summary "$tmp/results" >"$tmp/summary"
check "summary: every phase in order, the failed one marked" sh -c "awk '{ print \$1 }' '$tmp/summary' | paste -sd' ' - | grep -qx 'time one two three total' && grep -q 'three .*(failed)' '$tmp/summary'"
check "summary: the total is the sum of the phases" sh -c "
	total=\$(awk '{ s += \$2 } END { print s }' '$tmp/log')
	grep -Eq \"^  total +\${total}s\$\" '$tmp/summary'"
check "summary with DIR: DIR/phases.txt holds it and the host's load" sh -c "grep -q '^phases of the job.*loadavg' '$tmp/results/phases.txt' && grep -q '^  total ' '$tmp/results/phases.txt'"
"$phase" 2>/dev/null
check "no command: exit 2" test $? = 2
PJT_PHASE_LOG= "$phase" x true 2>"$tmp/e5"
check "no PJT_PHASE_LOG: exit 2, said" sh -c "[ $? = 2 ] && grep -q PJT_PHASE_LOG '$tmp/e5'"
check "make run times deps, unpack, kernel, image, matrix, report, in order" sh -c "
	sed -n '/^run:/,/^\$/p' '$top/Makefile' | grep -o 'run/phase [a-z][a-z]*' | awk '{ print \$2 }' | paste -sd' ' - |
		grep -qx 'deps unpack kernel image matrix report'"
tap_end
