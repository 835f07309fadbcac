#include "opts.h"
#include "units.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which keys each mode takes: a key another mode uses is refused rather
 * than ignored, so a workload line never silently measures something else. */
enum key_id {
	KEY_THREADS, KEY_DUTY, KEY_PERIOD, KEY_DURATION, KEY_WSS, KEY_SEED,
	KEY_CPUS, KEY_PER_THREAD, KEY_CALIBRATE, KEY_PAIRS, KEY_VIA, KEY_RATE,
};

#define M(mode) (1u << (mode))
static const struct {
	const char *name;
	enum key_id id;
	unsigned modes;
} keys[] = {
	{ "threads", KEY_THREADS, M(MODE_DUTY) },
	{ "duty", KEY_DUTY, M(MODE_DUTY) },
	{ "period", KEY_PERIOD, M(MODE_DUTY) },
	{ "duration", KEY_DURATION, M(MODE_DUTY) | M(MODE_CALIBRATE) | M(MODE_PINGPONG) | M(MODE_FORK) },
	{ "wss", KEY_WSS, M(MODE_DUTY) | M(MODE_CALIBRATE) },
	{ "seed", KEY_SEED, M(MODE_DUTY) | M(MODE_CALIBRATE) },
	{ "cpus", KEY_CPUS, M(MODE_DUTY) | M(MODE_CALIBRATE) | M(MODE_PINGPONG) | M(MODE_FORK) },
	{ "per_thread", KEY_PER_THREAD, M(MODE_DUTY) | M(MODE_PINGPONG) },
	{ "calibrate", KEY_CALIBRATE, M(MODE_DUTY) },
	{ "pairs", KEY_PAIRS, M(MODE_PINGPONG) },
	{ "via", KEY_VIA, M(MODE_PINGPONG) },
	{ "rate", KEY_RATE, M(MODE_FORK) },
};

static const char *const mode_names[] = {
	[MODE_DUTY] = "duty", [MODE_CALIBRATE] = "calibrate",
	[MODE_PINGPONG] = "pingpong", [MODE_FORK] = "fork",
};

const char *mode_name(enum pjt_mode mode)
{
	return mode_names[mode];
}

static int fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return -1;
}

typedef int parse_fn(const char *text, uint64_t *value, const char **why);

/* A number, time or size (as parse says) within min..max. */
static int parse_bounded(parse_fn *parse, const char *text, uint64_t min,
			 uint64_t max, uint64_t *value, const char **why)
{
	if (parse(text, value, why))
		return -1;
	if (*value < min || *value > max) {
		*why = "out of range";
		return -1;
	}
	return 0;
}

/* parse_bounded() of a decimal into an unsigned option. */
static int parse_unsigned(const char *text, uint64_t min, uint64_t max,
			  unsigned *out, const char **why)
{
	uint64_t n;

	if (parse_bounded(parse_u64, text, min, max, &n, why))
		return -1;
	*out = (unsigned)n;
	return 0;
}

/* Parses one value; on failure *why says why, *range what was allowed. */
static int parse_value(struct pjt_options *o, enum key_id id, const char *v,
		       const char **why, const char **range)
{
	uint64_t n;

	switch (id) {
	case KEY_THREADS:
		*range = "at least 1";
		return parse_unsigned(v, 1, UINT32_MAX, &o->threads, why);
	case KEY_DUTY:
		*range = "1..100, a percent";
		return parse_unsigned(v, 1, 100, &o->duty, why);
	case KEY_PERIOD:
		*range = "above 0, at most 10s";
		return parse_bounded(parse_time_ns, v, 1, PERIOD_MAX_NS, &o->period_ns, why);
	case KEY_DURATION:
		*range = "above 0, at most 24h";
		return parse_bounded(parse_time_ns, v, 1, DURATION_MAX_NS, &o->duration_ns, why);
	case KEY_WSS:
		*range = "4k..4g";
		return parse_bounded(parse_size, v, WSS_MIN, WSS_MAX, &o->wss, why);
	case KEY_SEED:
		*range = "an unsigned 64-bit number";
		return parse_u64(v, &o->seed, why);
	case KEY_CPUS:
		*range = "a list like 0-3,5";
		if (parse_cpulist(v, &o->cpus, why))
			return -1;
		o->have_cpus = 1;
		return 0;
	case KEY_PER_THREAD:
	case KEY_CALIBRATE:
		*range = "0 or 1";
		if (parse_bounded(parse_u64, v, 0, 1, &n, why))
			return -1;
		*(id == KEY_PER_THREAD ? &o->per_thread : &o->calibrate) = (int)n;
		return 0;
	case KEY_PAIRS:
		*range = "1..4096";
		return parse_unsigned(v, 1, PAIRS_MAX, &o->pairs, why);
	case KEY_VIA:
		*range = "pipe or futex";
		if (!strcmp(v, "pipe"))
			o->via = VIA_PIPE;
		else if (!strcmp(v, "futex"))
			o->via = VIA_FUTEX;
		else {
			*why = "unknown method";
			return -1;
		}
		return 0;
	case KEY_RATE:
		*range = "0 (as fast as possible) or forks per second up to 1000000";
		return parse_bounded(parse_u64, v, 0, FORK_RATE_MAX, &o->rate, why);
	}
	*why = "unhandled key";
	return -1;
}

uint64_t options_tasks_needed(const struct pjt_options *o)
{
	switch (o->mode) {
	case MODE_DUTY: return o->threads;
	case MODE_CALIBRATE: return 1;
	case MODE_PINGPONG: return 2ULL * o->pairs;
	case MODE_FORK: return 1;
	}
	return 0;
}

static void set_defaults(struct pjt_options *o, enum pjt_mode mode)
{
	memset(o, 0, sizeof(*o));
	o->mode = mode;
	o->threads = 1;
	o->duty = mode == MODE_CALIBRATE ? 100 : 50;
	o->period_ns = 10000000;
	o->duration_ns = 1000000000;
	o->wss = 16384;
	o->seed = 1;
	o->pairs = 1;
	o->via = VIA_PIPE;
}

int parse_options(int argc, char **argv, const struct pjt_environment *env,
		  struct pjt_options *o, char *err, size_t es)
{
	enum pjt_mode mode;
	uint64_t needed;
	int i;

	if (argc < 1)
		return fail(err, es, "no mode given (duty, calibrate, pingpong, fork)");
	for (mode = MODE_DUTY; mode <= MODE_FORK; mode++)
		if (!strcmp(argv[0], mode_names[mode]))
			break;
	if (mode > MODE_FORK)
		return fail(err, es, "unknown mode '%s' (duty, calibrate, pingpong, fork)", argv[0]);
	set_defaults(o, mode);

	/* A key given twice takes its last value, like dd. */
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *eq = strchr(arg, '='), *why = "", *range = "";
		size_t name_len, k;

		if (!eq || eq == arg)
			return fail(err, es, "'%s': options are key=value", arg);
		name_len = (size_t)(eq - arg);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (strlen(keys[k].name) == name_len && !strncmp(arg, keys[k].name, name_len))
				break;
		if (k == sizeof(keys) / sizeof(keys[0]))
			return fail(err, es, "%.*s: unknown option", (int)name_len, arg);
		if (!(keys[k].modes & M(mode)))
			return fail(err, es, "%s: not an option of mode %s", keys[k].name, mode_names[mode]);
		if (parse_value(o, keys[k].id, eq + 1, &why, &range))
			return fail(err, es, "%s=%s: %s (expected %s)", keys[k].name, eq + 1, why, range);
	}

	if (o->have_cpus) {
		cpu_set_t outside;

		if (CPU_COUNT(&o->cpus) == 0)
			return fail(err, es, "cpus: empty list");
		CPU_XOR(&outside, &o->cpus, &env->available);
		CPU_AND(&outside, &outside, &o->cpus);
		if (CPU_COUNT(&outside)) {
			char bad[256], avail[256];
			format_cpulist(&outside, bad, sizeof(bad));
			format_cpulist(&env->available, avail, sizeof(avail));
			return fail(err, es, "cpus: CPU %s not available (available: %s)", bad, avail);
		}
	}
	needed = options_tasks_needed(o);
	if (needed > env->task_limit)
		return fail(err, es, "%s: %llu tasks needed, the system allows %llu more (threads-max, pid_max)",
			    mode == MODE_PINGPONG ? "pairs" : "threads",
			    (unsigned long long)needed, (unsigned long long)env->task_limit);
	return 0;
}

static int read_u64_file(const char *path, uint64_t *value)
{
	FILE *f = fopen(path, "r");
	unsigned long long v;
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (!ok)
		return -1;
	*value = v;
	return 0;
}

/* Tasks that may still be created: the smaller of threads-max and pid_max,
 * less the tasks that exist now (4th field of /proc/loadavg: "running/total"). */
int options_environment(struct pjt_environment *env)
{
	uint64_t threads_max, pid_max, limit, existing = 0;
	unsigned long long running, total;
	FILE *f;

	if (sched_getaffinity(0, sizeof(env->available), &env->available))
		return -1;
	if (read_u64_file("/proc/sys/kernel/threads-max", &threads_max) ||
	    read_u64_file("/proc/sys/kernel/pid_max", &pid_max))
		return -1;
	limit = threads_max < pid_max ? threads_max : pid_max;
	f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%*s %*s %*s %llu/%llu", &running, &total) == 2)
			existing = total;
		fclose(f);
	}
	env->task_limit = limit > existing ? limit - existing : 0;
	return 0;
}
