#!/bin/sh
# run/tests/test-equivalence.sh: with every new feature bit false the patched
# kernel is the stock one.  Boots build/bzImage and build/bzImage-stock with
# the same plan and compares what is deterministic: the 6.1 part of the
# features file, the sched domain topology (names, flags, spans, tunables of
# every domain of every CPU) and the scheduler tunables' defaults.
#
#   run/tests/test-equivalence.sh [--help]
#
# Needs build/bzImage, build/bzImage-stock and build/initramfs.cpio.gz
# (make kernel kernel-stock initramfs).  Prints TAP lines; exit 0 when all
# pass, 1 otherwise, 2 on bad usage.  The snapshots stay in
# build/equivalence-TIMESTAMP/.
# check: boots QEMU (run/check runs it while no other guest runs)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
case "${1:-}" in
-h|--help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
'') ;;
*) echo "usage: run/tests/test-equivalence.sh [--help]" >&2; exit 2 ;;
esac

out=$top/build/equivalence-$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$out"
# The series' bits, from the one list host and guest share.
echo "NEW='$("$top/run/contract/entries" -j '|' bits)'" > "$out/plan.sh"
cat >> "$out/plan.sh" <<'PLAN'
D=/sys/kernel/debug/sched
tr ' ' '\n' < $D/features | grep -v '^$' | grep -Ev "^(NO_)?($NEW)\$" | sed 's/^/feature /'
for f in $D/domains/cpu*/domain*/*; do
	# max_newidle_lb_cost is a measured cost, not configuration.
	case $f in */max_newidle_lb_cost) continue ;; esac
	[ -f "$f" ] && echo "domain ${f#$D/domains/} $(cat "$f")"
done
for f in $D/*; do
	case ${f##*/} in
	features|debug|pjt_*|domains|numa_balancing) ;;
	*) [ -f "$f" ] && echo "tunable ${f##*/} $(cat "$f")" ;;
	esac
done
for f in /proc/sys/kernel/sched_*; do
	[ -f "$f" ] && echo "sysctl ${f##*/} $(cat "$f")"
done
PLAN

n=0 failed=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
for k in bzImage bzImage-stock; do
	"$top/run/boot" --kernel "$top/build/$k" --plan "$out/plan.sh" \
		--results "$out/$k.results" --console "$out/$k.console" --timeout 300 >/dev/null
	result $? "$k boots and snapshots its scheduler state"
	grep -v '^PLAN-EXIT' "$out/$k.results" 2>/dev/null > "$out/$k.state"
done
for kind in feature domain tunable sysctl; do
	grep "^$kind " "$out/bzImage.state" > "$out/patched.$kind"
	grep "^$kind " "$out/bzImage-stock.state" > "$out/stock.$kind"
	if [ -s "$out/stock.$kind" ] && cmp -s "$out/patched.$kind" "$out/stock.$kind"; then
		result 0 "$kind lines equal ($(wc -l < "$out/stock.$kind") lines)"
	else
		diff "$out/stock.$kind" "$out/patched.$kind" | sed 's/^/# /' | head -20
		result 1 "$kind lines equal"
	fi
done
grep -q '^domain cpu0/domain0/name ' "$out/bzImage-stock.state"
result $? "stock snapshot has sched domains to compare"
echo "# snapshots in ${out#$top/}"
[ "$failed" -eq 0 ]
