#!/bin/sh
# Guest suite: the KUnit suites built into the kernel ran at boot; each test
# case's result is reported here, so run/check counts them.  A skipped case
# (sched_pjt_metric under CONFIG_JUMP_LABEL) is a comment, not a pass.  A
# kernel without one of the sched_pjt suites, or with a failed one, fails.
dmesg > /tmp/kunit.dmesg
# KUnit (6.1) prints "    ok 3 case" for cases (indented) and "ok 1 suite".
sed -n 's/^\[[^]]*\] //p' /tmp/kunit.dmesg | awk '
	/^    # Subtest: / { suite = $3 }
	/^    (not )?ok [0-9]+ / && suite != "" {
		ok = ($1 == "ok")
		sub(/^    (not )?ok [0-9]+ (- )?/, "")
		if (ok && / # SKIP/) {
			print "# kunit " suite "." $0
			next
		}
		n++
		printf "%sok %d - kunit %s.%s\n", ok ? "" : "not ", n, suite, $0
	}
	/^(not )?ok [0-9]+ / { seen[$NF] = ($1 == "ok") }
	END {
		split("sched_pjt sched_pjt_wake sched_pjt_metric sched_pjt_37", want, " ")
		for (i = 1; i <= 4; i++) {
			n++
			s = want[i]
			printf "%sok %d - kunit suite %s ran and passed\n",
				(s in seen && seen[s]) ? "" : "not ", n, s
		}
	}'
