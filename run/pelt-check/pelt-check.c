/*
 * pelt-check: the kernel's per-CPU loads of a trace against a simulation
 * of PELT from the tasks' activations in the same trace.
 *
 * Input: traces/SEQ-loads.csv (sched_pjt_cpu_load at each tick:
 * run/contract/trace-loads) and traces/SEQ-tasks.csv (sched_switch,
 * sched_wakeup, sched_wakeup_new, sched_migrate_task:
 * run/contract/trace-tasks), columns found by name in their headers.
 * The usage text below (--help) is the reference for what is simulated,
 * the margin and the exit codes.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

static const char usage_text[] =
"usage: pelt-check [options] LOADS.csv TASKS.csv\n"
"\n"
"Simulates, from the task activations of TASKS.csv (sched_switch,\n"
"sched_wakeup(_new), sched_migrate_task), each CPU's CFS loads at each tick\n"
"of LOADS.csv (sched_pjt_cpu_load) and compares them with the kernel's:\n"
"  nr_running  the CFS tasks queued on the CPU (exact)\n"
"  weight      the sum of the queued tasks' weights, scale_load_down():\n"
"              nice 0 = 1024 (exact)\n"
"  load_avg    6.1's cpu_load(): every task attached to the CPU, queued or\n"
"              blocked (a sleeper's load decays there until it wakes on\n"
"              another CPU or exits)\n"
"  pelt        the RFC's runnable-only load (3.8's runnable_load_avg): the\n"
"              sum of the queued tasks' se->avg.load_avg, each as last\n"
"              updated\n"
"Each task's PELT load uses 6.1's arithmetic: 1024 ns units, 1024-unit\n"
"periods, y^32 = 1/2 by the kernel's integer table runnable_avg_yN_inv,\n"
"LOAD_AVG_MAX 47742, divider LOAD_AVG_MAX - 1024 + period_contrib, load_avg\n"
"recomputed only when a period ends; a new task (sched_wakeup_new) starts\n"
"at its full weight, as 6.1's init_entity_runnable_average() does.\n"
"\n"
"Update points are modelled, not absorbed in the margin: a task's load is\n"
"updated where 6.1 updates it (enqueue at wake-up, dequeue and put_prev at\n"
"a switch-out, set_next at a switch-in, each tick of the running task,\n"
"migration), so a waiting task's contribution to pelt is stale since it\n"
"last ran, as in the kernel.  What the trace cannot say is given as an\n"
"interval [lo, hi] that the kernel's value must fall in:\n"
"  - a CPU that is not running a CFS task at a tick has a cpu_load() as of\n"
"    its last update, which may be an untraced blocked-load update: lo is\n"
"    the load updated at the tick, hi the load at the last traced update;\n"
"  - a sleeping task woken on another CPU carries its load as decayed to\n"
"    the old CPU's last update (6.1's sync_entity_load_avg()): lo decays it\n"
"    to the wake-up, hi only to the old CPU's last traced update;\n"
"  - a task already alive when the trace began: lo starts at 0, hi at its\n"
"    full weight; a task whose nice changed between two of its records\n"
"    (an untraced reweight): lo restarts at 0;\n"
"  - an exited task's load leaves its CPU's cpu_load() at the CPU's next\n"
"    update (6.1's task_dead_fair() queues the removal): lo drops it at\n"
"    the exit, hi at the CPU's next traced update;\n"
"  - a record's stamp is taken after the clock its values were computed\n"
"    at, and an emulated CPU can be stopped in between (single-threaded\n"
"    TCG runs one vCPU at a time, for up to 100 ms): a tick's values are\n"
"    as of some time in [the CPU's previous record, the tick], so the\n"
"    simulation at both ends is joined; a dequeue at a switch-out ends\n"
"    the runnable time at the CPU's previous record for lo, at the\n"
"    switch for hi.\n"
"Ticks in the first 353 ms of the trace (LOAD_AVG_MAX_N = 345 periods) are\n"
"not compared: any load from before the trace has decayed to < 0.06%.\n"
"\n"
"Margin (fixed): a tick is within when its kernel value is in\n"
"  [lo - tol, hi + tol],  tol = 3% x hi + 2.5% x W + N + 2\n"
"where W is the weight of the tasks the signal sums, a blocked task's\n"
"weight decayed like its load since it last ran (y^periods), and N their\n"
"number.  2.5% x W is one period of misalignment per task: the kernel's\n"
"periods start at each CPU's own phase, unknown to the trace, which\n"
"shifts a task's load by up to 1024/47742 = 2.1% of its weight; 3% covers\n"
"the clocks (rq clock_pelt, read at the tick's start, against the trace's\n"
"timestamps in us); N + 2 the integer divisions (one per task, the\n"
"kernel's cfs_rq sum rounds on its own).  nr_running and weight have\n"
"tol 0.  A signal passes when at least 95% of its compared ticks are\n"
"within (the rest: a tick racing a switch in the same microsecond).\n"
"Error of a tick: the distance of the kernel's value from [lo, hi]\n"
"(0 inside).\n"
"\n"
"Options:\n"
"  --label TEXT     the run's name, first field of each output line\n"
"  --signals LIST   comma-separated subset of nr_running,weight,load_avg,\n"
"                   pelt to judge (default all; the others are still\n"
"                   printed, as \"info\")\n"
"  --cpu N          the CPU of --series and --activations (default 0)\n"
"  --series FILE    per tick of that CPU: time_s (from the first record),\n"
"                   then for each signal kernel, lo, hi, tol\n"
"  --activations FILE  that CPU's CFS running intervals: pid prio start_s\n"
"                   end_s (times from the first record)\n"
"  --min-share X    share of ticks that must be within (default 0.95)\n"
"  -h, --help       this text\n"
"  --version        the project's and the series' version\n"
"Options may come before or after the files, as --opt V or --opt=V; \"--\"\n"
"ends them.\n"
"\n"
"Output: one line per signal:\n"
"  LABEL SIGNAL ticks=N within=N share=X mean_err=X max_err=X at=T cpu=C\n"
"    kernel=K lo=L hi=H verdict=ok|BEYOND|info\n"
"Exit: 0 every judged signal within the margin; 1 some signal beyond it;\n"
"2 usage, unreadable input or a bad row (FILE:LINE: message); 3 no tick\n"
"to compare (the trace is shorter than the 353 ms not compared).\n";

#define LOAD_AVG_PERIOD 32
#define LOAD_AVG_MAX 47742
#define LOAD_AVG_MAX_N 345
#define PELT_MIN_DIVIDER (LOAD_AVG_MAX - 1024)
#define WARMUP_NS ((int64_t)LOAD_AVG_MAX_N * 1024 * 1024)
#define REL_MARGIN 0.03
#define PERIOD_MARGIN 0.025
#define MAX_CPUS 256

/* kernel/sched/sched-pelt.h, 6.1 */
static const uint32_t runnable_avg_yN_inv[LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f3efe0, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

/* kernel/sched/core.c sched_prio_to_weight[], nice -20 .. 19 */
static const long prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};

/* ---- 6.1's PELT arithmetic (kernel/sched/pelt.c) ---- */

struct avg {
	uint64_t last;		/* last_update_time, ns */
	uint64_t load_sum;
	uint32_t period_contrib;
	unsigned long load_avg;
};

static uint64_t mul_u64_u32_shr(uint64_t a, uint32_t mul, unsigned int shift)
{
	return (uint64_t)(((unsigned __int128)a * mul) >> shift);
}

static uint64_t decay_load(uint64_t val, uint64_t n)
{
	unsigned int local_n;

	if (n > LOAD_AVG_PERIOD * 63)
		return 0;
	local_n = (unsigned int)n;
	if (local_n >= LOAD_AVG_PERIOD) {
		val >>= local_n / LOAD_AVG_PERIOD;
		local_n %= LOAD_AVG_PERIOD;
	}
	return mul_u64_u32_shr(val, runnable_avg_yN_inv[local_n], 32);
}

static uint32_t accumulate_pelt_segments(uint64_t periods, uint32_t d1, uint32_t d3)
{
	uint32_t c1, c2, c3 = d3;

	c1 = (uint32_t)decay_load((uint64_t)d1, periods);
	c2 = LOAD_AVG_MAX - (uint32_t)decay_load(LOAD_AVG_MAX, periods) - 1024;
	return c1 + c2 + c3;
}

static uint64_t accumulate_sum(uint64_t delta, struct avg *sa, unsigned long load)
{
	uint32_t contrib = (uint32_t)delta;
	uint64_t periods;

	delta += sa->period_contrib;
	periods = delta / 1024;
	if (periods) {
		sa->load_sum = decay_load(sa->load_sum, periods);
		delta %= 1024;
		if (load)
			contrib = accumulate_pelt_segments(periods,
					1024 - sa->period_contrib, (uint32_t)delta);
	}
	sa->period_contrib = (uint32_t)delta;
	if (load)
		sa->load_sum += load * contrib;
	return periods;
}

static int update_load_sum(struct avg *sa, uint64_t now, unsigned long load)
{
	uint64_t delta;

	if (now < sa->last) {
		sa->last = now;
		return 0;
	}
	delta = (now - sa->last) >> 10;
	if (!delta)
		return 0;
	sa->last += delta << 10;
	return accumulate_sum(delta, sa, load) != 0;
}

static uint32_t pelt_divider(const struct avg *sa)
{
	return PELT_MIN_DIVIDER + sa->period_contrib;
}

/* __update_load_avg_se(): load = !!on_rq, load_avg = weight x sum / divider */
static void update_se(struct avg *sa, uint64_t now, int queued, long w)
{
	if (update_load_sum(sa, now, queued ? 1 : 0))
		sa->load_avg = (unsigned long)(((unsigned __int128)w * sa->load_sum) / pelt_divider(sa));
}

/* The load an entity would have if updated at now (a copy is updated). */
static unsigned long load_at(const struct avg *sa, uint64_t now, int queued, long w)
{
	struct avg c = *sa;

	update_se(&c, now, queued, w);
	return c.load_avg;
}

/* attach_entity_load_avg(): load_sum rebuilt from load_avg, no decay. */
static void attach_avg(struct avg *sa, uint64_t now, long w)
{
	uint64_t sum = (uint64_t)sa->load_avg * pelt_divider(sa);

	sa->last = now;
	sa->load_sum = (uint64_t)w < sum ? sum / (uint64_t)w : 1;
}

/* A task at its full weight: a new one (init_entity_runnable_average()). */
static void full_avg(struct avg *sa, uint64_t now, long w)
{
	sa->last = now;
	sa->period_contrib = 0;
	sa->load_sum = pelt_divider(sa);
	sa->load_avg = (unsigned long)w;
}

/* ---- input ---- */

static const char *prog = "pelt-check";

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

enum ev_kind { EV_LOAD, EV_SWITCH, EV_WAKEUP, EV_WAKEUP_NEW, EV_MIGRATE };

struct ev {
	int64_t t;		/* ns */
	int kind;
	int cpu;
	long a[6];		/* kind-specific integer fields */
	char state[8];		/* sched_switch prev_state */
	int line;
	int file;		/* 0 loads, 1 tasks: ties go tasks first */
};

static struct ev *evs;
static size_t nev, cap_ev;
static const char *fname[2];

static struct ev *new_ev(void)
{
	if (nev == cap_ev) {
		cap_ev = cap_ev ? cap_ev * 2 : 65536;
		evs = realloc(evs, cap_ev * sizeof(*evs));
		if (!evs)
			die(2, "out of memory");
	}
	memset(&evs[nev], 0, sizeof(evs[nev]));
	return &evs[nev++];
}

#define MAX_COLS 64

static int split_csv(char *s, char **f)
{
	int n = 0;

	f[n++] = s;
	for (; *s; s++) {
		if (*s == ',') {
			*s = '\0';
			if (n == MAX_COLS)
				return -1;
			f[n++] = s + 1;
		} else if (*s == '\n' || *s == '\r') {
			*s = '\0';
			break;
		}
	}
	return n;
}

static int col_of(char **hdr, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(hdr[i], name))
			return i;
	return -1;
}

/* "123.456789" seconds to ns, exactly (up to 9 decimals). */
static int parse_time(const char *s, int64_t *ns)
{
	int64_t sec = 0, frac = 0;
	int digits = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9')
		sec = sec * 10 + (*p++ - '0');
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (digits < 9) {
				frac = frac * 10 + (*p - '0');
				digits++;
			}
			p++;
		}
	}
	if (*p)
		return -1;
	while (digits++ < 9)
		frac *= 10;
	*ns = sec * 1000000000 + frac;
	return 0;
}

static int parse_long(const char *s, long *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*v = strtol(s, &end, 10);
	return (errno || *end) ? -1 : 0;
}

static void read_file(int which, const char *path)
{
	static const char *load_cols[] = { "time_s", "cpu", "nr_running", "weight", "load_avg", "pelt" };
	static const char *task_cols[] = { "time_s", "cpu", "event", "pid", "prio", "target_cpu",
		"orig_cpu", "dest_cpu", "prev_pid", "prev_prio", "prev_state", "next_pid", "next_prio" };
	const char **want = which ? task_cols : load_cols;
	int nwant = which ? 13 : 6;
	int idx[13];
	char line[4096], hdrline[4096];
	char *hdr[MAX_COLS], *f[MAX_COLS];
	int nh, lineno = 1;
	FILE *fp = fopen(path, "r");

	fname[which] = path;
	if (!fp)
		die(2, "%s: %s", path, strerror(errno));
	if (!fgets(hdrline, sizeof(hdrline), fp))
		die(2, "%s:1: empty file, no header", path);
	nh = split_csv(hdrline, hdr);
	for (int i = 0; i < nwant; i++) {
		idx[i] = col_of(hdr, nh, want[i]);
		if (idx[i] < 0)
			die(2, "%s:1: no column '%s' in the header", path, want[i]);
	}
	while (fgets(line, sizeof(line), fp)) {
		int n;
		long v[13];
		struct ev *e;

		lineno++;
		if (line[0] == '\n' || line[0] == '\0')
			continue;
		n = split_csv(line, f);
		if (n != nh)
			die(2, "%s:%d: %d fields, the header has %d", path, lineno, n, nh);
		e = new_ev();
		e->line = lineno;
		e->file = which;
		if (parse_time(f[idx[0]], &e->t))
			die(2, "%s:%d: time_s '%s' is not seconds", path, lineno, f[idx[0]]);
		if (parse_long(f[idx[1]], &v[1]) || v[1] < 0 || v[1] >= MAX_CPUS)
			die(2, "%s:%d: cpu '%s' is not a CPU number below %d", path, lineno, f[idx[1]], MAX_CPUS);
		e->cpu = (int)v[1];
		if (!which) {
			e->kind = EV_LOAD;
			for (int i = 2; i < 6; i++) {
				if (parse_long(f[idx[i]], &e->a[i - 2]) || e->a[i - 2] < 0)
					die(2, "%s:%d: %s '%s' is not a count", path, lineno, want[i], f[idx[i]]);
			}
			continue;
		}
		{
			const char *ev = f[idx[2]];
			int need[13] = { 0 };

			if (!strcmp(ev, "sched_switch")) {
				e->kind = EV_SWITCH;
				need[8] = need[9] = need[11] = need[12] = 1;
				snprintf(e->state, sizeof(e->state), "%s", f[idx[10]]);
				if (!e->state[0])
					die(2, "%s:%d: sched_switch without prev_state", path, lineno);
			} else if (!strcmp(ev, "sched_wakeup") || !strcmp(ev, "sched_wakeup_new")) {
				e->kind = ev[12] ? EV_WAKEUP_NEW : EV_WAKEUP;
				need[3] = need[4] = need[5] = 1;
			} else if (!strcmp(ev, "sched_migrate_task")) {
				e->kind = EV_MIGRATE;
				need[3] = need[4] = need[6] = need[7] = 1;
			} else {
				die(2, "%s:%d: unknown event '%s'", path, lineno, ev);
			}
			for (int i = 3; i < 13; i++) {
				if (!need[i])
					continue;
				if (parse_long(f[idx[i]], &v[i]))
					die(2, "%s:%d: %s: %s '%s' is not a number", path, lineno, ev, want[i], f[idx[i]]);
				if ((i == 5 || i == 6 || i == 7) && (v[i] < 0 || v[i] >= MAX_CPUS))
					die(2, "%s:%d: %s '%ld' is not a CPU number below %d", path, lineno, want[i], v[i], MAX_CPUS);
			}
			if (e->kind == EV_SWITCH) {
				e->a[0] = v[8]; e->a[1] = v[9]; e->a[2] = v[11]; e->a[3] = v[12];
			} else if (e->kind == EV_MIGRATE) {
				e->a[0] = v[3]; e->a[1] = v[4]; e->a[2] = v[6]; e->a[3] = v[7];
			} else {
				e->a[0] = v[3]; e->a[1] = v[4]; e->a[2] = v[5];
			}
		}
	}
	if (ferror(fp))
		die(2, "%s: read error", path);
	fclose(fp);
}

static int ev_cmp(const void *x, const void *y)
{
	const struct ev *a = x, *b = y;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->file != b->file)
		return a->file ? -1 : 1;	/* task events first at a tie */
	return a->line - b->line;
}

/* ---- the model ---- */

struct cpu {
	long curr;		/* pid of the running CFS task, -1 none */
	int64_t t_known;	/* the last traced update of its cfs_rq */
	int64_t t_prev;		/* the stamp of its last record (any kind) */
	double snap_hi;		/* hi cpu_load() at t_known */
	int seen;
};

static struct cpu cpus[MAX_CPUS];

struct task {
	long pid;
	long prio;
	long w;
	int cfs;
	int queued;
	int cpu;		/* the CPU whose cfs_rq holds its load, -1 none */
	int in_flight;		/* migrated asleep, not yet enqueued: no cfs_rq */
	int64_t exited_at;	/* ns of its exit; 0 alive */
	int64_t last_runnable;	/* ns: now while queued */
	struct avg lo, hi;
};

static struct task *tasks;
static size_t ntasks, cap_tasks;
static long *slot;		/* open addressing: index + 1 */
static size_t nslots = 1 << 16;

static struct task *find_task(long pid)
{
	size_t h = ((size_t)pid * 2654435761u) & (nslots - 1);

	while (slot[h]) {
		if (tasks[slot[h] - 1].pid == pid)
			return &tasks[slot[h] - 1];
		h = (h + 1) & (nslots - 1);
	}
	return NULL;
}

static struct task *add_task(long pid)
{
	size_t h;

	if (ntasks * 2 >= nslots)
		die(2, "more than %zu tasks", nslots / 2);
	if (ntasks == cap_tasks) {
		cap_tasks = cap_tasks ? cap_tasks * 2 : 1024;
		tasks = realloc(tasks, cap_tasks * sizeof(*tasks));
		if (!tasks)
			die(2, "out of memory");
	}
	memset(&tasks[ntasks], 0, sizeof(tasks[ntasks]));
	tasks[ntasks].pid = pid;
	tasks[ntasks].cpu = -1;
	h = ((size_t)pid * 2654435761u) & (nslots - 1);
	while (slot[h])
		h = (h + 1) & (nslots - 1);
	slot[h] = (long)ntasks + 1;
	return &tasks[ntasks++];
}

static long weight_of(long prio)
{
	if (prio < 100 || prio > 139)
		return 0;
	return prio_to_weight[prio - 100];
}


static void set_prio(struct task *p, long prio)
{
	long w = weight_of(prio);

	p->prio = prio;
	p->cfs = w > 0;
	if (w > 0 && w != p->w) {
		/* reweight_entity() (a renice, untraced: seen here, later):
		 * load_avg rescaled from load_sum, and the cfs_rq's load_avg
		 * changed by the difference without an update */
		unsigned long old_hi = p->hi.load_avg;

		p->w = w;
		/* when it happened is not traced: lo forgets the load (its
		 * own reweight, from a load_sum that may have decayed since) */
		if (old_hi)
			p->lo.load_sum = 0;
		p->lo.load_avg = (unsigned long)((unsigned __int128)w * p->lo.load_sum / pelt_divider(&p->lo));
		p->hi.load_avg = (unsigned long)((unsigned __int128)w * p->hi.load_sum / pelt_divider(&p->hi));
		if (p->cpu >= 0 && p->hi.load_avg > old_hi)
			cpus[p->cpu].snap_hi += (double)(p->hi.load_avg - old_hi);
	}
}

/* A task met for the first time: new (fork) or of unknown history. */
static struct task *get_task(long pid, long prio, int64_t t, int is_new)
{
	struct task *p = find_task(pid);

	if (p && !p->exited_at) {
		set_prio(p, prio);
		return p;
	}
	if (p) {	/* a pid used again after an exit: a new task */
		memset(p, 0, sizeof(*p));
		p->pid = pid;
		p->cpu = -1;
	} else {
		p = add_task(pid);
	}
	set_prio(p, prio);
	if (!p->cfs)
		return p;
	full_avg(&p->hi, (uint64_t)t, p->w);
	if (is_new) {
		full_avg(&p->lo, (uint64_t)t, p->w);
	} else {
		p->lo.last = (uint64_t)t;	/* lo: nothing before the trace */
		p->lo.load_sum = 0;
		p->lo.period_contrib = 0;
		p->lo.load_avg = 0;
	}
	p->last_runnable = t;
	return p;
}

static void update_task(struct task *p, int64_t t)
{
	update_se(&p->lo, (uint64_t)t, p->queued, p->w);
	update_se(&p->hi, (uint64_t)t, p->queued, p->w);
	if (p->queued)
		p->last_runnable = t;
}

/*
 * A traced update of the CPU's cfs_rq (its load as of now).  It applies
 * the removal of a task that exited before it (6.1's task_dead_fair()
 * only queues the removal, for the cfs_rq's next update).
 */
static void touch_cpu(int c, int64_t t)
{
	double hi = 0;

	for (size_t i = 0; i < ntasks; i++) {
		struct task *p = &tasks[i];

		if (!p->cfs || p->cpu != c)
			continue;
		if (p->exited_at && p->exited_at < t) {
			p->cpu = -1;
			continue;
		}
		hi += (double)load_at(&p->hi, (uint64_t)t, p->queued, p->w);
	}
	cpus[c].t_known = t;
	cpus[c].snap_hi = hi;
	cpus[c].seen = 1;
}

static void enqueue(struct task *p, int c, int64_t t)
{
	p->cpu = c;
	if (p->in_flight) {
		/* attach_entity_load_avg() at the enqueue: no decay since the
		 * sync at the migration */
		attach_avg(&p->lo, (uint64_t)t, p->w);
		attach_avg(&p->hi, (uint64_t)t, p->w);
		p->in_flight = 0;
	} else {
		update_task(p, t);	/* accumulates the sleep (not queued yet) */
	}
	p->queued = 1;
	p->last_runnable = t;
}

/*
 * A dequeue at a switch-out stamped t read its CPU's clock at some t_clock
 * in [t_prev, t], t_prev being the CPU's previous record: lo stops the
 * runnable time at t_prev, hi at t.
 */
static void dequeue(struct task *p, int64_t t_prev, int64_t t)
{
	if ((uint64_t)t_prev > p->lo.last)
		update_se(&p->lo, (uint64_t)t_prev, 1, p->w);
	update_se(&p->hi, (uint64_t)t, 1, p->w);
	p->queued = 0;
	update_se(&p->lo, (uint64_t)t, 0, p->w);
	p->last_runnable = t;
}

static void do_migrate(struct task *p, int from, int to, int64_t t)
{
	if (p->queued || from < 0 || !cpus[from].seen) {
		/* a queued task moved by the balancer (or affinity): dequeued
		 * and updated on the old CPU, attached as is on the new one */
		update_task(p, t);
		if (from >= 0 && from != to) {
			int q = p->queued;

			p->cpu = -1;
			p->queued = 0;
			touch_cpu(from, t);
			p->queued = q;
		}
		p->cpu = to;
		if (p->queued)
			touch_cpu(to, t);
		return;
	}
	/* a sleeper woken elsewhere: synced to the old cfs_rq's last update
	 * (lo: the migration itself, hi: the last traced one) and removed
	 * from it; on no cfs_rq until its enqueue on the new CPU (the
	 * wake-up: an IPI away), where it is attached without decay (6.1's
	 * migrate_task_rq_fair(), attach_entity_load_avg()) */
	update_se(&p->lo, (uint64_t)t, 0, p->w);
	{
		int64_t th = cpus[from].t_known;

		if ((uint64_t)th > p->hi.last)
			update_se(&p->hi, (uint64_t)th, 0, p->w);
	}
	p->cpu = -1;
	p->in_flight = 1;
	(void)to;
}

static void task_event(struct ev *e)
{
	int64_t t = e->t;
	struct task *p;

	switch (e->kind) {
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
		p = get_task(e->a[0], e->a[1], t, e->kind == EV_WAKEUP_NEW);
		if (!p->cfs || p->pid == 0) {
			p->queued = 0;
			return;
		}
		if (p->queued && p->cpu == (int)e->a[2])
			return;
		if (p->queued)	/* queued elsewhere: a missed migration */
			do_migrate(p, p->cpu, (int)e->a[2], t);
		if (p->cpu >= 0 && p->cpu != (int)e->a[2])
			do_migrate(p, p->cpu, (int)e->a[2], t);
		enqueue(p, (int)e->a[2], t);
		touch_cpu((int)e->a[2], t);
		return;
	case EV_MIGRATE:
		p = get_task(e->a[0], e->a[1], t, 0);
		if (!p->cfs || p->pid == 0) {
			p->cpu = (int)e->a[3];
			return;
		}
		do_migrate(p, p->cpu >= 0 ? p->cpu : (int)e->a[2], (int)e->a[3], t);
		return;
	case EV_SWITCH: {
		int c = e->cpu, touched = 0;
		long prev = e->a[0], next = e->a[2];

		if (prev != 0) {
			p = get_task(prev, e->a[1], t, 0);
			if (p->cfs) {
				if (p->cpu != c && p->cpu >= 0)
					do_migrate(p, p->cpu, c, t);
				p->cpu = c;
				if (!p->queued)
					p->queued = 1;	/* it was running */
				if (e->state[0] == 'R') {
					update_task(p, t);	/* put_prev_entity() */
				} else {
					dequeue(p, cpus[c].t_prev, t);
					if (e->state[0] == 'X' || e->state[0] == 'Z')
						p->exited_at = t;
				}
				touched = 1;
			}
		}
		cpus[c].curr = -1;
		if (next != 0) {
			p = get_task(next, e->a[3], t, 0);
			if (p->cfs) {
				if (p->cpu != c && p->cpu >= 0)
					do_migrate(p, p->cpu, c, t);
				if (!p->queued) {
					p->cpu = c;
					enqueue(p, c, t);
				}
				update_task(p, t);	/* set_next_entity() */
				cpus[c].curr = next;
				touched = 1;
			}
		}
		if (touched)
			touch_cpu(c, t);
		return;
	}
	}
}

/* ---- comparison ---- */

enum { S_NR, S_WEIGHT, S_LOAD, S_PELT, NSIG };
static const char *sig_name[NSIG] = { "nr_running", "weight", "load_avg", "pelt" };

struct stat {
	long ticks, within;
	double sum_err, max_err;
	int64_t max_t;
	int max_cpu;
	double max_k, max_lo, max_hi;
};

static struct stat stats[NSIG];
static int judged[NSIG] = { 1, 1, 1, 1 };

struct sim {
	double lo[NSIG], hi[NSIG], tol[NSIG];
};

static void simulate_tick(int c, int64_t t, struct sim *s)
{
	double nq = 0, wq = 0, lo_l = 0, hi_l = 0, lo_p = 0, hi_p = 0, wl = 0, nl = 0;
	int fresh = cpus[c].curr >= 0;

	for (size_t i = 0; i < ntasks; i++) {
		struct task *p = &tasks[i];

		if (!p->cfs || p->cpu != c)
			continue;
		unsigned long a = load_at(&p->lo, (uint64_t)t, p->queued, p->w);
		unsigned long b = load_at(&p->hi, (uint64_t)t, p->queued, p->w);

		/* lo and hi as the smaller and larger: the attach's rebuilt
		 * load_sum can put them out of order by a unit or two; an
		 * exited task's load is gone for lo, not yet for hi */
		nl++;
		if (!p->exited_at)
			lo_l += (double)(a < b ? a : b);
		if (fresh)
			hi_l += (double)(a < b ? b : a);
		if (p->queued) {
			a = p->lo.load_avg;
			b = p->hi.load_avg;
			nq++;
			wq += (double)p->w;
			wl += (double)p->w;
			lo_p += (double)(a < b ? a : b);
			hi_p += (double)(a < b ? b : a);
		} else {
			/* a blocked task's weight decays like its load */
			wl += (double)p->w * pow(0.5, (double)(t - p->last_runnable) / (LOAD_AVG_PERIOD * 1024.0 * 1024.0));
		}
	}
	if (!fresh)
		hi_l = cpus[c].snap_hi > lo_l ? cpus[c].snap_hi : lo_l;
	s->lo[S_NR] = s->hi[S_NR] = nq;
	s->tol[S_NR] = 0;
	s->lo[S_WEIGHT] = s->hi[S_WEIGHT] = wq;
	s->tol[S_WEIGHT] = 0;
	s->lo[S_LOAD] = lo_l;
	s->hi[S_LOAD] = hi_l;
	s->tol[S_LOAD] = REL_MARGIN * hi_l + PERIOD_MARGIN * wl + nl + 2;
	s->lo[S_PELT] = lo_p;
	s->hi[S_PELT] = hi_p;
	s->tol[S_PELT] = REL_MARGIN * hi_p + PERIOD_MARGIN * wq + nq + 2;
}

static void set_judged(const char *list)
{
	char buf[256], *tok, *save;

	for (int i = 0; i < NSIG; i++)
		judged[i] = 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i;

		for (i = 0; i < NSIG && strcmp(tok, sig_name[i]); i++)
			;
		if (i == NSIG)
			opt_error(prog, "--signals: unknown signal '%s' (nr_running, weight, load_avg, pelt)", tok);
		judged[i] = 1;
	}
}

static void usage(const struct opt_parser *p)
{
	(void)p;
	fputs(usage_text, stdout);
}

int main(int argc, char **argv)
{
	const char *label = "-", *series = NULL, *acts = NULL;
	double min_share = 0.95;
	long want_cpu = 0;
	FILE *sf = NULL, *af = NULL;
	int64_t t0, act_start = -1;
	long act_pid = -1, act_prio = 0;
	struct opt_parser opt;
	int i, rc = 0;

	opt_init(&opt, prog, "label= signals= series= activations= cpu= min-share=", usage,
		 argc - 1, argv + 1);
	while (opt_next(&opt)) {
		const char *v = opt.value;

		if (opt_is(&opt, "label"))
			label = v;
		else if (opt_is(&opt, "signals"))
			set_judged(v);
		else if (opt_is(&opt, "series"))
			series = v;
		else if (opt_is(&opt, "activations"))
			acts = v;
		else if (opt_is(&opt, "cpu")) {
			if (parse_long(v, &want_cpu) || want_cpu < 0 || want_cpu >= MAX_CPUS)
				opt_error(prog, "--cpu wants a CPU number, not '%s'", v);
		} else if (opt_is(&opt, "min-share")) {
			char *end;

			min_share = strtod(v, &end);
			if (end == v || *end || min_share < 0 || min_share > 1)
				opt_error(prog, "--min-share wants a number in 0..1, not '%s'", v);
		}
	}
	if (opt.noperands != 2)
		opt_error(prog, "want LOADS.csv and TASKS.csv, not %d file%s (pelt-check [options] LOADS.csv TASKS.csv)",
			  opt.noperands, opt.noperands == 1 ? "" : "s");
	argv = opt.operands;
	i = 0;
	slot = calloc(nslots, sizeof(*slot));
	if (!slot)
		die(2, "out of memory");
	read_file(0, argv[i]);
	read_file(1, argv[i + 1]);
	if (!nev)
		die(2, "%s, %s: no records", argv[i], argv[i + 1]);
	qsort(evs, nev, sizeof(*evs), ev_cmp);
	for (int c = 0; c < MAX_CPUS; c++)
		cpus[c].curr = -1;
	t0 = evs[0].t;
	if (series && !(sf = fopen(series, "w")))
		die(2, "%s: %s", series, strerror(errno));
	if (acts && !(af = fopen(acts, "w")))
		die(2, "%s: %s", acts, strerror(errno));
	if (sf)
		fprintf(sf, "# time_s nr lo hi tol weight lo hi tol load_avg lo hi tol pelt lo hi tol\n");

	for (size_t k = 0; k < nev; k++) {
		struct ev *e = &evs[k];
		struct sim s, s_prev;
		struct task *curr;
		int64_t t_prev;
		int early;
		double kv[NSIG];

		if (e->kind != EV_LOAD) {
			task_event(e);
			cpus[e->cpu].t_prev = e->t;
			if (af && e->kind == EV_SWITCH && e->cpu == want_cpu) {
				if (act_pid >= 0)
					fprintf(af, "%ld %ld %.6f %.6f\n", act_pid, act_prio,
						(act_start - t0) / 1e9, (e->t - t0) / 1e9);
				act_pid = -1;
				if (cpus[e->cpu].curr >= 0) {
					act_pid = cpus[e->cpu].curr;
					act_prio = e->a[3];
					act_start = e->t;
				}
			}
			continue;
		}
		/*
		 * The tick: the running CFS task's entity_tick() update, at the
		 * clock the tick read, some time in [t_prev, t] (the CPU's
		 * previous record and the tick's own stamp).  The two ends
		 * bound it: the simulation at t_prev (a copy of the running
		 * task advanced only that far) joins the one at t.
		 */
		t_prev = cpus[e->cpu].t_prev;
		cpus[e->cpu].t_prev = e->t;
		curr = cpus[e->cpu].curr >= 0 ? find_task(cpus[e->cpu].curr) : NULL;
		if (curr && !curr->cfs)
			curr = NULL;
		early = e->t - t0 >= WARMUP_NS && t_prev > 0 && t_prev < e->t;
		if (early) {
			struct task saved;
			struct cpu saved_cpu = cpus[e->cpu];

			if (curr) {
				saved = *curr;
				update_task(curr, t_prev);
			}
			simulate_tick(e->cpu, t_prev, &s_prev);
			if (curr)
				*curr = saved;
			cpus[e->cpu] = saved_cpu;
		}
		if (curr) {
			update_task(curr, e->t);
			touch_cpu(e->cpu, e->t);
		}
		if (e->t - t0 < WARMUP_NS)
			continue;
		simulate_tick(e->cpu, e->t, &s);
		for (int j = 0; early && j < NSIG; j++) {
			s.lo[j] = fmin(s.lo[j], s_prev.lo[j]);
			s.hi[j] = fmax(s.hi[j], s_prev.hi[j]);
			s.tol[j] = fmax(s.tol[j], s_prev.tol[j]);
		}
		for (int j = 0; j < NSIG; j++) {
			struct stat *st = &stats[j];
			double err;

			kv[j] = (double)e->a[j];
			err = kv[j] < s.lo[j] ? s.lo[j] - kv[j] : kv[j] > s.hi[j] ? kv[j] - s.hi[j] : 0;
			st->ticks++;
			st->sum_err += err;
			if (err <= s.tol[j])
				st->within++;
			if (st->ticks == 1 || err > st->max_err) {
				st->max_err = err;
				st->max_t = e->t;
				st->max_cpu = e->cpu;
				st->max_k = kv[j];
				st->max_lo = s.lo[j];
				st->max_hi = s.hi[j];
			}
		}
		if (sf && e->cpu == want_cpu) {
			fprintf(sf, "%.6f", (e->t - t0) / 1e9);
			for (int j = 0; j < NSIG; j++)
				fprintf(sf, " %.0f %.0f %.0f %.1f", kv[j], s.lo[j], s.hi[j], s.tol[j]);
			fputc('\n', sf);
		}
	}
	if (af && act_pid >= 0)
		fprintf(af, "%ld %ld %.6f %.6f\n", act_pid, act_prio,
			(act_start - t0) / 1e9, (evs[nev - 1].t - t0) / 1e9);
	if (sf && fclose(sf))
		die(2, "%s: write error", series);
	if (af && fclose(af))
		die(2, "%s: write error", acts);
	if (!stats[0].ticks)
		die(3, "%s: no tick after the first %.0f ms of the trace to compare",
		    fname[0], WARMUP_NS / 1e6);
	for (int j = 0; j < NSIG; j++) {
		struct stat *st = &stats[j];
		double share = (double)st->within / (double)st->ticks;
		const char *verdict = !judged[j] ? "info" : share >= min_share ? "ok" : "BEYOND";

		if (judged[j] && share < min_share)
			rc = 1;
		printf("%s %s ticks=%ld within=%ld share=%.4f mean_err=%.2f max_err=%.0f at=%.6f cpu=%d kernel=%.0f lo=%.0f hi=%.0f verdict=%s\n",
		       label, sig_name[j], st->ticks, st->within, share, st->sum_err / st->ticks,
		       st->max_err, (st->max_t - t0) / 1e9, st->max_cpu, st->max_k, st->max_lo, st->max_hi, verdict);
	}
	return rc;
}
