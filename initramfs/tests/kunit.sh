#!/bin/sh
# Guest suite: the KUnit suites built into the kernel ran at boot; each test
# case's result is reported here, so run/check counts them.  A kernel
# without a sched_pjt suite (or with a failed one) fails.
dmesg > /tmp/kunit.dmesg
# KUnit (6.1) prints "    ok 3 case" for cases (indented) and "ok 1 suite".
sed -n 's/^\[[^]]*\] //p' /tmp/kunit.dmesg | awk '
	/^    # Subtest: / { suite = $3 }
	/^    (not )?ok [0-9]+ / && suite != "" {
		ok = ($1 == "ok")
		sub(/^    (not )?ok [0-9]+ (- )?/, "")
		n++
		printf "%sok %d - kunit %s.%s\n", ok ? "" : "not ", n, suite, $0
	}
	/^(not )?ok [0-9]+ / { seen[$NF] = ($1 == "ok") }
	END {
		n++
		if ("sched_pjt" in seen && seen["sched_pjt"])
			print "ok " n " - kunit suite sched_pjt ran and passed"
		else
			print "not ok " n " - kunit suite sched_pjt ran and passed"
	}'
