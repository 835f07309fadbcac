#!/bin/sh
# Benchmark (not a test) of pjtload's own overhead: records/s of one
# duty=100 thread (the duty loop: a clock read after every record, period
# bookkeeping, CPU sampling) against pjtload-bare, a loop doing the same
# records with nothing else. Both pinned to the same CPU, alternating.
#   initramfs/bench-pjtload.sh [REPS [DURATION [WSS [CPU]]]]   (5 2s 16k 0)
# Prints each rep and the ratio's median, min and max.
# Options: -h, --help, --version; "--" ends them.  Exit: 0 done, 2 usage.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${BUILD:-$top/build}
TOOL=initramfs/bench-pjtload.sh
. "$top/run/lib/options.sh"
option() { :; } # none besides -h, --help and --version
parse_options '' "$@"
eval "set -- $operands"
[ $# -le 4 ] || usage_error "at most REPS DURATION WSS CPU, not $# operands"
reps=${1:-5} duration=${2:-2s} wss=${3:-16k} cpu=${4:-0}
case $reps in '' | *[!0-9]* | 0) usage_error "REPS must be a positive number, not '$reps'" ;; esac
make -s -f "$here/pjtload.mk" TOP="$top" BUILD="$build" pjtload pjtload-host-tools
calib=$(mktemp)
trap 'rm -f "$calib"' EXIT INT TERM

echo "# pjtload duty=100 threads=1 vs bare loop: duration=$duration wss=$wss cpu=$cpu reps=$reps"
echo "# load average before: $(cut -d" " -f1-3 /proc/loadavg) (others' work on this machine widens the spread)"
echo "rep pjtload_records_per_s bare_records_per_s ratio records_per_check"
rep=1
while [ $rep -le "$reps" ]; do
	bare=$(taskset -c "$cpu" "$build/pjtload-bare" "$duration" "$wss" |
		sed -n 's/.*records_per_s=\([0-9.]*\).*/\1/p')
	line=$(PJTLOAD_CALIB=$calib "$build/pjtload" duty threads=1 duty=100 duration="$duration" \
		wss="$wss" cpus="$cpu")
	duty=$(printf '%s\n' "$line" | sed -n 's/.* records_per_s=\([0-9.]*\) .*/\1/p')
	per_check=$(printf '%s\n' "$line" | sed -n 's/.* records_per_check=\([0-9]*\) .*/\1/p')
	awk -v r=$rep -v d="$duty" -v b="$bare" -v k="$per_check" \
		'BEGIN { printf "%d %.0f %.0f %.4f %d\n", r, d, b, d / b, k }'
	rep=$((rep + 1))
done | awk '{ print; ratio[NR] = $4 } END {
	n = NR
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (ratio[j] < ratio[i]) { t = ratio[i]; ratio[i] = ratio[j]; ratio[j] = t }
	median = n % 2 ? ratio[(n + 1) / 2] : (ratio[n / 2] + ratio[n / 2 + 1]) / 2
	printf "ratio median=%.4f min=%.4f max=%.4f reps=%d\n", median, ratio[1], ratio[n], n
}'
