#include "taskstat.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

void counters_open(struct task_counters *c, int inherit)
{
	struct perf_event_attr attr;

	memset(c, 0, sizeof(*c));
	c->tid = (pid_t)syscall(SYS_gettid);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_MIGRATIONS;
	attr.inherit = inherit ? 1 : 0;
	c->perf_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (c->perf_fd < 0)
		c->perf_errno = errno;
	c->migrations = -1;
	c->nr_migrations = -1;
}

static int read_perf(int fd, uint64_t *value)
{
	return fd >= 0 && read(fd, value, sizeof(*value)) == (ssize_t)sizeof(*value) ? 0 : -1;
}

int64_t read_nr_migrations(pid_t tid)
{
	char path[64], line[256];
	long long value = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.nr_migrations", 16)) {
			char *colon = strchr(line, ':');
			if (!colon || sscanf(colon + 1, "%lld", &value) != 1)
				value = -1;
			break;
		}
	fclose(f);
	return value;
}

void counters_baseline(struct task_counters *c)
{
	if (read_perf(c->perf_fd, &c->perf_start)) {
		if (c->perf_fd >= 0) {
			c->perf_errno = errno;
			close(c->perf_fd);
			c->perf_fd = -1;
		}
	}
	c->nr_start = read_nr_migrations(c->tid);
}

void counters_finish(struct task_counters *c)
{
	uint64_t perf_end;
	int64_t nr_end = read_nr_migrations(c->tid);

	if (!read_perf(c->perf_fd, &perf_end))
		c->migrations = (int64_t)(perf_end - c->perf_start);
	if (c->nr_start >= 0 && nr_end >= 0)
		c->nr_migrations = nr_end - c->nr_start;
	if (c->perf_fd >= 0)
		close(c->perf_fd);
	c->perf_fd = -1;
}

void counters_explain(const struct task_counters *c)
{
	if (c->migrations < 0)
		fprintf(stderr, "pjtload: perf_event_open(PERF_COUNT_SW_CPU_MIGRATIONS): %s; migrations left empty\n",
			strerror(c->perf_errno ? c->perf_errno : EIO));
	if (c->nr_migrations < 0)
		fprintf(stderr, "pjtload: /proc/self/task/%d/sched has no readable se.nr_migrations (CONFIG_SCHED_DEBUG?); nr_migrations left empty\n",
			(int)c->tid);
}

int cpu_samples_init(struct cpu_samples *s)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	s->ncpus = n > 0 && n < CPU_SETSIZE ? (unsigned)n : CPU_SETSIZE;
	s->counts = calloc(s->ncpus, sizeof(*s->counts));
	return s->counts ? 0 : -1;
}

void cpu_sample(struct cpu_samples *s)
{
	int cpu = sched_getcpu();

	if (cpu >= 0 && (unsigned)cpu < s->ncpus)
		s->counts[cpu]++;
}

int cpu_samples_top(const struct cpu_samples *s)
{
	int top = -1;
	unsigned cpu;

	for (cpu = 0; cpu < s->ncpus; cpu++)
		if (s->counts[cpu] && (top < 0 || s->counts[cpu] > s->counts[top]))
			top = (int)cpu;
	return top;
}

void cpu_samples_free(struct cpu_samples *s)
{
	free(s->counts);
	s->counts = NULL;
}

void sum_known(int64_t *sum, int64_t value)
{
	if (*sum >= 0)
		*sum = value < 0 ? -1 : *sum + value;
}
