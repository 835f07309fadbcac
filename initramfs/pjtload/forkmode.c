/* fork mode: children forked at a steady rate, each noting the CPU it first
 * ran on (where the fork balancer, find_idlest_group, put it) in its exit
 * status and exiting at once. */
#include "modes.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "output.h"
#include "rate.h"
#include "taskstat.h"

/* Children alive at once before the parent waits for one: bounds the pids
 * used when children cannot keep up with rate=0. */
#define FORK_MAX_ALIVE 64
/* Exit status meaning "CPU not known" (exit statuses stop at 255). */
#define CPU_UNKNOWN 255

struct fork_state {
	uint64_t forks, alive;
	uint64_t child_cpus[CPU_UNKNOWN + 1];
};

/* Reaps one child (any if block, else only a finished one); 0 if none. */
static int reap(struct fork_state *st, int block)
{
	int status;
	pid_t pid = waitpid(-1, &status, block ? 0 : WNOHANG);

	if (pid <= 0)
		return 0;
	st->alive--;
	st->child_cpus[WIFEXITED(status) ? WEXITSTATUS(status) : CPU_UNKNOWN]++;
	return 1;
}

static void out_child_cpus(const struct fork_state *st)
{
	unsigned cpu, n = 0;

	out_empty("child_cpus");
	for (cpu = 0; cpu < CPU_UNKNOWN; cpu++)
		if (st->child_cpus[cpu])
			printf(n++ ? ",%u:%llu" : "%u:%llu", cpu, (unsigned long long)st->child_cpus[cpu]);
	if (st->child_cpus[CPU_UNKNOWN])
		printf(n ? ",?:%llu" : "?:%llu", (unsigned long long)st->child_cpus[CPU_UNKNOWN]);
}

int run_fork(const struct pjt_options *o)
{
	struct fork_state st;
	struct task_counters counters;
	uint64_t t0, t_end, now, elapsed;
	int failed = 0;

	memset(&st, 0, sizeof(st));
	counters_open(&counters, 1);
	counters_baseline(&counters);
	t0 = now_ns() + START_DELAY_NS;
	t_end = t0 + o->duration_ns;
	sleep_until_ns(t0);
	for (;;) {
		pid_t pid;

		now = now_ns();
		/* Behind schedule (forks slower than rate) still ends on time. */
		if (now >= t_end)
			break;
		if (o->rate) {
			uint64_t next = t0 + (uint64_t)((unsigned __int128)st.forks * 1000000000 / o->rate);

			if (next >= t_end)
				break;
			while (reap(&st, 0))
				;
			if (now < next)
				sleep_until_ns(next);
		}
		pid = fork();
		if (pid == 0) {
			int cpu = sched_getcpu();
			_exit(cpu >= 0 && cpu < CPU_UNKNOWN ? cpu : CPU_UNKNOWN);
		}
		if (pid < 0) {
			if (errno == EAGAIN && st.alive && reap(&st, 1))
				continue;
			perror("pjtload: fork");
			failed = 1;
			break;
		}
		st.forks++;
		st.alive++;
		if (st.alive >= FORK_MAX_ALIVE)
			reap(&st, 1);
		while (reap(&st, 0))
			;
	}
	now = now_ns();
	while (st.alive && reap(&st, 1))
		;
	counters_finish(&counters);
	if (failed)
		return 1;
	if (counters.migrations < 0)
		counters_explain(&counters);
	elapsed = (now > t_end ? now : t_end) - t0;
	out_str("mode", "fork");
	out_u64("rate", o->rate);
	out_double("duration_s", 3, (double)elapsed / 1e9);
	out_u64("forks", st.forks);
	out_empty("records_per_s");
	out_empty("rate_fraction");
	out_empty("periods");
	out_empty("overruns");
	out_empty("wakeup_samples");
	out_empty("wakeup_p50_us");
	out_empty("wakeup_p90_us");
	out_empty("wakeup_p99_us");
	out_empty("wakeup_p999_us");
	out_empty("wakeup_max_us");
	out_i64_or_empty("migrations", counters.migrations);
	out_empty("nr_migrations");
	out_double("ops_per_s", 1, per_second(st.forks, elapsed));
	out_child_cpus(&st);
	out_end();
	return 0;
}
