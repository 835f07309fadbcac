#!/bin/sh
# Guest suite: the real tools copied into the image start, do their work
# and finish (their shared libraries, dlopen'd ones included, are there).
n=0
check() {
	n=$((n + 1))
	if eval "$2" > /tmp/tools.out 2>&1; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		tail -n 5 /tmp/tools.out | sed 's/^/# /'
	fi
}
check "hackbench runs 1 group x 10 loops and reports its time" \
	'hackbench -g 1 -l 10 | grep -q "^Time: "'
check "hackbench in pipe mode" 'hackbench -p -g 1 -l 10 | grep -q "^Time: "'
check "cyclictest measures 4 threads for 200 loops" \
	'cyclictest -q -t 4 -l 200 -i 1000 | grep -q "Max:"'
sed 's/"duration": 5/"duration": 1/' /usr/share/pjt/rfc-duty.json > /tmp/rfc-duty-1s.json
check "rt-app runs the RFC duty workload (8 x 10% over 10 ms) for 1 s" \
	'rt-app /tmp/rfc-duty-1s.json && [ "$(ls /tmp/rt-app-rfc-*.log | wc -l)" = 8 ]'
