#!/bin/sh
# Guest suite: three feature writers against each other.  Setting a PJT_*
# bit turns the RFC's runnable-load bookkeeping on first; clearing the last
# one turns it off, and so does LEGACY_LOAD, under which no point reads the
# sum (patch 0007).  One writer sets and clears PJT_SHORT_TASKS, another
# PJT_BUSIEST, a third LEGACY_LOAD, while tasks sleep and wake on every CPU and a
# reader polls sched/pjt_runnable (patch 0023), which reads the state under
# the mutex that turns the bookkeeping on and off.  No read may see a PJT
# bit set with the bookkeeping off (a write clearing its bit releasing it
# under a write about to set one: the race 0007's write mutex closes), and
# every read with it on must find each CPU's kept sum equal to the
# contributions of the entities queued there.
# Runs only in boots without the trace events (their event holds the
# bookkeeping on, and the reads would see nothing else).  Busybox sh, root.
D=/sys/kernel/debug/sched
F=$D/features
R=$D/pjt_runnable
ROUNDS=${WRITERS_ROUNDS:-500}
# the bits the writers flip, one writer each
WRITTEN="PJT_SHORT_TASKS PJT_BUSIEST LEGACY_LOAD"
. /usr/lib/pjt/tap.sh

for b in ${PJT_BITS:?not set: the plan sets the series bits from run/contract/bits} LEGACY_LOAD; do
	echo "NO_$b" > "$F"
done
echo 0 > $D/pjt_counting
check "with every PJT bit clear, counting off and no trace event, nothing holds the bookkeeping on" \
	grep -q '^bookkeeping off, PJT bits clear' "$R"

# write_loop BIT: set BIT and clear it until told to stop, marking when
# ROUNDS rounds are done; a refused write ends it with failure.
write_loop() {
	i=0
	while [ ! -e /tmp/writers.stop ]; do
		echo "$1" > "$F" && echo "NO_$1" > "$F" || return 1
		i=$((i + 1))
		[ $i != "$ROUNDS" ] || touch "/tmp/writers.rounds.$1"
	done
	[ $i -ge "$ROUNDS" ]
}

rounds_done() {
	for b in $WRITTEN; do
		[ -e "/tmp/writers.rounds.$b" ] || return 1
	done
}

# seen_all: every writer has done its rounds and the reader has met the
# bookkeeping on and, with a PJT bit set, off under LEGACY_LOAD.
seen_all() {
	rounds_done && grep -q '^bookkeeping on' /tmp/writers.reads &&
		grep -q '^bookkeeping off, PJT bits legacy' /tmp/writers.reads
}

rm -f /tmp/writers.stop /tmp/writers.rounds.*
pjtload duty threads=8 duty=30 period=20ms duration=600s > /dev/null &
load=$!
: > /tmp/writers.reads
# read, not cat: no fork per read, so reads come as often as writes
(while [ ! -e /tmp/writers.stop ]; do
	while IFS= read -r line; do echo "$line"; done < "$R"
done >> /tmp/writers.reads) &
reader=$!
writers=
for b in $WRITTEN; do
	write_loop "$b" &
	writers="$writers $!"
done
# The race runs until seen_all, or for at most RACE_MORE s after the
# rounds: without jump labels to patch, 500 rounds take about a second and
# the reader may not yet have met every state (once 269 reads met none
# under LEGACY_LOAD).  A writer that stopped early ends the race.
RACE_MORE=${WRITERS_RACE_MORE:-60}
more=0
while ! seen_all && [ $more -lt $RACE_MORE ] && kill -0 $writers 2>/dev/null; do
	sleep 1
	! rounds_done || more=$((more + 1))
done
echo "# the race went on $more s after the writers' $ROUNDS rounds"
touch /tmp/writers.stop
writers_failed=0
for w in $writers; do
	wait "$w" || writers_failed=$((writers_failed + 1))
done
wait $reader
kill $load 2>/dev/null
wait $load 2>/dev/null
rm -f /tmp/writers.stop /tmp/writers.rounds.*
check "the three writers ran at least their $ROUNDS rounds, every write accepted ($writers_failed did not)" [ "$writers_failed" = 0 ]

reads=$(grep -c '^bookkeeping' /tmp/writers.reads)
on=$(grep -c '^bookkeeping on' /tmp/writers.reads)
echo "# $reads reads, $on with the bookkeeping on, $(grep -c '^cpu' /tmp/writers.reads) per-CPU sums"
check "the reader saw the bookkeeping both on and off while the writers ran" \
	[ "$on" -gt 0 -a "$on" -lt "$reads" ]
legacy=$(grep -c '^bookkeeping off, PJT bits legacy' /tmp/writers.reads)
check "some reads saw a PJT bit set under LEGACY_LOAD with the bookkeeping off ($legacy did)" \
	[ "$legacy" -gt 0 ]
bad=$(grep -c '^bookkeeping off, PJT bits set' /tmp/writers.reads)
check "no read saw a PJT bit set without LEGACY_LOAD and the bookkeeping off ($bad did)" [ "$bad" = 0 ]
bad=$(awk '$1 ~ /^cpu/ && $3 != $5' /tmp/writers.reads | wc -l)
awk '$1 ~ /^cpu/ && $3 != $5' /tmp/writers.reads | head -3 | sed 's/^/# differs: /'
check "every CPU's kept sum equalled its queued entities' contributions in every read ($bad did not)" \
	[ "$bad" = 0 ]

# After the race: a set bit keeps it on, clearing the last one lets it go.
echo PJT_BUSIEST > "$F"
check "PJT_BUSIEST set after the race: the bookkeeping is on" grep -q '^bookkeeping on, PJT bits set' "$R"
echo LEGACY_LOAD > "$F"
check "LEGACY_LOAD set beside it (rfc-before's metric): nothing reads the sum, the bookkeeping is off" \
	grep -q '^bookkeeping off, PJT bits legacy' "$R"
echo NO_LEGACY_LOAD > "$F"
check "LEGACY_LOAD cleared again: the bookkeeping is on" grep -q '^bookkeeping on, PJT bits set' "$R"
echo NO_PJT_BUSIEST > "$F"
check "the last PJT bit cleared: the bookkeeping is off" grep -q '^bookkeeping off, PJT bits clear' "$R"
check "no WARN/BUG/Oops in dmesg after the race" sh -c '! dmesg | grep -Eq "WARNING:|BUG:|Oops"'
echo "# writers.sh: $n tests, $failed failed"
[ "$failed" -eq 0 ]
