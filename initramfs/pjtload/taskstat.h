/* What the kernel says about one task: migrations from the perf software
 * counter and from /proc/self/task/TID/sched, and where it ran. */
#ifndef PJTLOAD_TASKSTAT_H
#define PJTLOAD_TASKSTAT_H

#include <stdint.h>
#include <sys/types.h>

struct task_counters {
	pid_t tid;
	int perf_fd;              /* -1 when perf_event_open failed */
	int perf_errno;
	uint64_t perf_start;
	int64_t nr_start;         /* -1 when the sched file is unreadable */
	int64_t migrations;       /* results of counters_finish, -1 = unknown */
	int64_t nr_migrations;
};

/* Opens the calling thread's CPU_MIGRATIONS counter (pid 0, any CPU);
 * inherit also counts the children it forks from then on. */
void counters_open(struct task_counters *c, int inherit);
/* Start of the measurement: reads both counters. */
void counters_baseline(struct task_counters *c);
/* End of the measurement (before the thread exits): the deltas. */
void counters_finish(struct task_counters *c);
/* se.nr_migrations of a thread of this process; -1 when unreadable. */
int64_t read_nr_migrations(pid_t tid);
/* *sum += value, where -1 (unknown) in either makes the sum unknown. */
void sum_known(int64_t *sum, int64_t value);
/* Explains on stderr, once per run, why migrations are left empty. */
void counters_explain(const struct task_counters *c);

struct cpu_samples {
	unsigned ncpus;
	uint64_t *counts;         /* per CPU number */
};

int cpu_samples_init(struct cpu_samples *s);
void cpu_sample(struct cpu_samples *s);
/* The CPU with most samples, -1 if none. */
int cpu_samples_top(const struct cpu_samples *s);
void cpu_samples_free(struct cpu_samples *s);

#endif
