/*
 * matrix-plan: parse, validate and expand a feat-matrix file into the run
 * plan that run/matrix executes (see matrix-plan --help and INTERFACES.md).
 *
 * Every bad line is reported as FILE:LINE: message (all of them, in line
 * order) and nothing is printed on stdout; exit 2.  A good file gives one
 * tab-separated record a line on stdout.
 *
 * One source of truth for each contract: the bits, the tunables and their
 * ranges come from run/contract (build/contract.h, generated), workload
 * options are parsed by the workload generator's own parser (pjtload's
 * opts.c and units.c, linked in), so a plan never holds what the guest
 * would refuse.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contract.h" /* generated from run/contract by run/matrix.mk */
#include "options.h"  /* the C tools' command line (run/lib) */
#include "opts.h"     /* the workload generator's own option parser */
#include "units.h"    /* its time parser (a tool's microsecond keys) */
#include "splitmix64.h" /* the seeded generator pjtload and pjt-stats share */

#include <json-c/json.h> /* rt-app's own JSON parser, for its files */

#define PROG "matrix-plan"
#define MAX_COMBOS 256
#define MAX_WORKLOADS 64
#define MAX_TOPOLOGIES 16
#define MAX_TUNABLES 8
#define MAX_FACTORIALS 8
#define MAX_ERRORS 1000
#define MAX_RUNS 100000
/* A plan estimated above a day is warned about, above a year refused:
 * 76,800 runs of 600 min is a typo, not a study. */
#define WARN_PLAN_S (24LL * 3600)
#define MAX_PLAN_S (365LL * 24 * 3600)
#define MAX_VCPUS 64
#define TEXT_MAX 512

/* The project's feature bits, in the order the features column lists them. */
static const char *const project_bits[] = { PJT_CONTRACT_BITS };
#define NR_BITS (sizeof(project_bits) / sizeof(project_bits[0]))

/* The kernel tunables a matrix may set, with the ranges the kernel accepts. */
static const struct tunable_rule {
	const char *name;
	unsigned long long min, max;
} tunable_rules[] = { PJT_CONTRACT_TUNABLES };

/*
 * Wall-clock costs for --dry-run's estimate, measured under TCG (4 vCPUs)
 * on a 2-core host: a boot, with the guest plan's last 2 s; a run beyond
 * its settle and duration; duty's calibration (pjtload calibrate
 * duration=1s, once per boot and wss); rt-app measuring its ns per loop
 * (9 to 18 s); one hackbench invocation, per group and per loop (400
 * messages) of each group: groups=1 loops=10 took 0.5 to 4.6 s, 1.3 s
 * on average over quick.matrix's 69.
 */
#define EST_BOOT_MS 6000
#define EST_RUN_OVERHEAD_MS 400
#define EST_CRASH_REBOOT_MS 15000
#define EST_CALIBRATE_MS 1200
#define EST_RTAPP_CALIBRATION_MS 12000
#define EST_HACKBENCH_GROUP_MS 250
#define EST_HACKBENCH_LOOP_MS 100
/* perf bench: perf's own start-up (a large binary) beside the benchmark;
 * sched messaging is hackbench's program, sched pipe one round trip a loop
 * (about 1 ms under TCG on 2 vCPUs: loops=2000 made 1010 a second). */
#define EST_PERF_START_MS 300
#define EST_PERF_PIPE_LOOP_US 1000
/* cyclictest: reading its histogram (a line per microsecond up to 100 ms). */
#define EST_CYCLICTEST_HIST_MS 1000
/* An invocation (hackbench, perf bench) estimated longer than this many run
 * durations is refused: the run would be that invocation, whatever its
 * duration. */
#define HACKBENCH_MAX_DURATIONS 10

struct combo {
	char name[TEXT_MAX];
	unsigned bits;
	int line;
	int replicate_of; /* a replicate arm: the index of the combo it repeats, else -1 */
};

/* Two names a line declares: compare A B, replicate NAME COMBO. */
struct name_pair {
	char a[TEXT_MAX], b[TEXT_MAX];
	int line;
};

/* The order of the runs within a repetition block. */
enum order { ORDER_WILLIAMS, ORDER_RANDOM };

#define TOOL_KEYS 4

struct workload {
	char kind[32];
	char text[TEXT_MAX]; /* kind and args, single-spaced: the CSV value */
	char canon[TEXT_MAX]; /* kind and args sorted: duplicates by meaning */
	char file[PATH_MAX]; /* rt-app: the JSON file on the host (real path) */
	/* hackbench, perf-*, cyclictest: the options' values, by the index of
	 * their key in the kind's table (tool_kinds), 0 when not given. */
	const struct tool_kind *tool;
	unsigned long long value[TOOL_KEYS];
	long long rtapp_duration_s; /* rt-app: its global.duration, or -1 (none: forever) */
	int rtapp_calibrates; /* rt-app: measures its ns per loop before it starts */
	int argc;
	int mode; /* a pjtload mode, or -1 */
	struct pjt_options opts; /* pjtload: as its parser read them */
	int invalid;
	int line;
};

struct topology {
	int sockets, cores, threads;
	int plain; /* written as "smp N": booted with --smp N */
	int line;
};

struct tunable {
	const char *name;
	unsigned long value;
	int line;
};

struct factorial {
	unsigned bits[NR_BITS]; /* in the order written */
	int n;
	int line;
};

struct error {
	int line;
	int order;
	char text[TEXT_MAX + 128];
};

static struct {
	const char *path;
	char dir[PATH_MAX];
	char name[TEXT_MAX];
	int name_line;
	long long duration_ms;
	int duration_line;
	long long settle_ms;
	int settle_line;
	long reps;
	int reps_line;
	long boots;
	int boots_line;
	int counting; /* pjt_counting: the decision counters on (1) or off (0) */
	int counting_line;
	int trace; /* trace events per run (traces/SEQ.csv) on (1) or off (0) */
	int trace_line;
	unsigned long long seed;
	int seed_line;
	struct combo combos[MAX_COMBOS];
	int nr_combos;
	/* compare A B: the declared questions (the confirmatory family) */
	struct name_pair compares[MAX_COMBOS];
	int nr_compares;
	/* the noise study's QEMU options: accel thread=single|multi, vCPUs pinned */
	char accel[64];
	int accel_line;
	char pin[TEXT_MAX];
	int pin_line;
	struct workload workloads[MAX_WORKLOADS];
	int nr_workloads;
	struct topology topologies[MAX_TOPOLOGIES];
	int nr_topologies;
	struct tunable tunables[MAX_TUNABLES];
	int nr_tunables;
	struct factorial factorials[MAX_FACTORIALS];
	int nr_factorials;
	/* replicate NAME COMBO: an arm on COMBO's bits under a name of its own
	 * (A/A checks); a the arm's name, b the combo it repeats */
	struct name_pair replicates[MAX_COMBOS];
	int nr_replicates;
	enum order order;
	int order_line;
	int last_line;
	int nr_directive_lines; /* lines with a word: 0 is an empty file */
} m;

static struct error errors[MAX_ERRORS];
static int nr_errors;

static void error_at(int line, const char *fmt, ...)
{
	va_list ap;

	if (nr_errors == MAX_ERRORS)
		return;
	errors[nr_errors].line = line;
	errors[nr_errors].order = nr_errors;
	va_start(ap, fmt);
	vsnprintf(errors[nr_errors].text, sizeof(errors[nr_errors].text), fmt, ap);
	va_end(ap);
	nr_errors++;
}

static int error_cmp(const void *a, const void *b)
{
	const struct error *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->order - y->order;
}

/* Strict unsigned decimal: digits only, no sign, no spaces, no overflow. */
static int parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		if (v > max / 10 || (unsigned)(*s - '0') > max - v * 10)
			return -1;
		v = v * 10 + (unsigned)(*s - '0');
	}
	*out = v;
	return 0;
}

struct unit {
	const char *suffix;
	unsigned long long scale;
};

/* Digits followed by exactly one of the units; returns 0 and the scaled value. */
static int parse_with_unit(const char *s, const struct unit *units,
			   unsigned long long max, unsigned long long *out)
{
	char digits[64];
	size_t n = strspn(s, "0123456789");
	unsigned long long v;

	if (n == 0 || n >= sizeof(digits))
		return -1;
	memcpy(digits, s, n);
	digits[n] = 0;
	if (parse_uint(digits, ULLONG_MAX, &v))
		return -1;
	for (; units->suffix; units++) {
		if (strcmp(s + n, units->suffix))
			continue;
		if (v > max / units->scale)
			return -1;
		*out = v * units->scale;
		return 0;
	}
	return -1;
}

static const struct unit matrix_time_units[] = {
	{ "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { NULL, 0 },
};

#define DAY_MS (24LL * 3600 * 1000)

/* A matrix time (duration, settle): N followed by ms, s or m; 0 may stand alone. */
static int parse_matrix_time(int line, const char *what, const char *s, int allow_zero,
			     long long *out)
{
	unsigned long long v;

	if (allow_zero && !strcmp(s, "0")) {
		*out = 0;
		return 0;
	}
	if (parse_with_unit(s, matrix_time_units, DAY_MS, &v)) {
		error_at(line, "%s '%s' is not a time: want digits and a unit (ms, s or m), e.g. 10s",
			 what, s);
		return -1;
	}
	if (v == 0 && !allow_zero) {
		error_at(line, "%s must be more than 0", what);
		return -1;
	}
	*out = (long long)v;
	return 0;
}

static int bit_index(const char *name)
{
	for (unsigned i = 0; i < NR_BITS; i++)
		if (!strcmp(name, project_bits[i]))
			return (int)i;
	return -1;
}

static void unknown_bit(int line, const char *name)
{
	error_at(line, "unknown feature '%s' (known: %s)", name, PJT_CONTRACT_BITS_TEXT);
}

static void features_text(unsigned bits, char *out, size_t size)
{
	out[0] = 0;
	for (unsigned i = 0; i < NR_BITS; i++) {
		if (!(bits & (1u << i)))
			continue;
		if (out[0])
			strncat(out, "+", size - strlen(out) - 1);
		strncat(out, project_bits[i], size - strlen(out) - 1);
	}
	if (!out[0])
		snprintf(out, size, "none");
}

/* Names that end up in folder names and CSV cells: no commas, quotes or spaces. */
static int is_name(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return 0;
	return 1;
}

static int once(int line, const char *directive, int *seen_line)
{
	if (*seen_line) {
		error_at(line, "'%s' given twice (first at line %d)", directive, *seen_line);
		return -1;
	}
	*seen_line = line;
	return 0;
}

static int want_args(int line, int argc, int min, int max, const char *usage)
{
	if (argc - 1 < min || argc - 1 > max) {
		error_at(line, "usage: %s", usage);
		return -1;
	}
	return 0;
}

static void do_name(int line, int argc, char **argv)
{
	if (want_args(line, argc, 1, 1, "name NAME") || once(line, "name", &m.name_line))
		return;
	if (!is_name(argv[1], "_.-") || strlen(argv[1]) > 64) {
		error_at(line, "name '%s': use up to 64 letters, digits, '_', '.', '-'", argv[1]);
		return;
	}
	snprintf(m.name, sizeof(m.name), "%s", argv[1]);
}

/* "N" or "sockets=S,cores=C,threads=T" (each key once, any order). */
static int parse_smp(const char *s, struct topology *t, char *why, size_t whysize)
{
	unsigned long long v;
	char buf[TEXT_MAX];
	int have[3] = { 0, 0, 0 };
	int *dst[3] = { &t->sockets, &t->cores, &t->threads };
	static const char *const keys[3] = { "sockets", "cores", "threads" };

	memset(t, 0, sizeof(*t));
	if (isdigit((unsigned char)s[0])) {
		if (parse_uint(s, MAX_VCPUS, &v) || v == 0) {
			snprintf(why, whysize, "smp '%s': want a number of vCPUs 1..%d", s, MAX_VCPUS);
			return -1;
		}
		t->sockets = 1;
		t->cores = (int)v;
		t->threads = 1;
		t->plain = 1;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		int k;

		if (!eq)
			goto bad;
		*eq = 0;
		for (k = 0; k < 3 && strcmp(item, keys[k]); k++)
			;
		if (k == 3 || have[k] || parse_uint(eq + 1, MAX_VCPUS, &v) || v == 0)
			goto bad;
		have[k] = 1;
		*dst[k] = (int)v;
	}
	if (!have[0] || !have[1] || !have[2] || s[strlen(s) - 1] == ',')
		goto bad;
	if (t->sockets * t->cores * t->threads > MAX_VCPUS) {
		snprintf(why, whysize, "smp '%s': %d vCPUs, at most %d", s,
			 t->sockets * t->cores * t->threads, MAX_VCPUS);
		return -1;
	}
	return 0;
bad:
	snprintf(why, whysize, "smp '%s': want N or sockets=S,cores=C,threads=T (each >= 1)", s);
	return -1;
}

static void add_topology(int line, const struct topology *t)
{
	for (int i = 0; i < m.nr_topologies; i++) {
		struct topology *o = &m.topologies[i];

		if (o->sockets == t->sockets && o->cores == t->cores && o->threads == t->threads) {
			error_at(line, "topology %dx%dx%d given twice (first at line %d)",
				 t->sockets, t->cores, t->threads, o->line);
			return;
		}
	}
	if (m.nr_topologies == MAX_TOPOLOGIES) {
		error_at(line, "more than %d smp lines", MAX_TOPOLOGIES);
		return;
	}
	m.topologies[m.nr_topologies] = *t;
	m.topologies[m.nr_topologies++].line = line;
}

static void do_smp(int line, int argc, char **argv)
{
	struct topology t;
	char why[TEXT_MAX + 64];

	if (want_args(line, argc, 1, 1, "smp N | smp sockets=S,cores=C,threads=T"))
		return;
	if (parse_smp(argv[1], &t, why, sizeof(why))) {
		error_at(line, "%s", why);
		return;
	}
	add_topology(line, &t);
}

static void do_duration(int line, int argc, char **argv)
{
	if (want_args(line, argc, 1, 1, "duration TIME (e.g. 10s)") ||
	    once(line, "duration", &m.duration_line))
		return;
	parse_matrix_time(line, "duration", argv[1], 0, &m.duration_ms);
}

static void do_settle(int line, int argc, char **argv)
{
	if (want_args(line, argc, 1, 1, "settle TIME (e.g. 1s, or 0)") ||
	    once(line, "settle", &m.settle_line))
		return;
	parse_matrix_time(line, "settle", argv[1], 1, &m.settle_ms);
}

/* A directive "NAME N" given once, N a whole number 1..10000. */
static void count_directive(int line, int argc, char **argv, int *seen_line, long *out)
{
	unsigned long long v;
	char usage[32];

	snprintf(usage, sizeof(usage), "%s N", argv[0]);
	if (want_args(line, argc, 1, 1, usage) || once(line, argv[0], seen_line))
		return;
	if (parse_uint(argv[1], 10000, &v) || v == 0) {
		error_at(line, "%s '%s': want a whole number 1..10000", argv[0], argv[1]);
		return;
	}
	*out = (long)v;
}

static void do_reps(int line, int argc, char **argv)
{
	count_directive(line, argc, argv, &m.reps_line, &m.reps);
}

/* boots N: the repetition blocks spread over N boots per topology. */
static void do_boots(int line, int argc, char **argv)
{
	count_directive(line, argc, argv, &m.boots_line, &m.boots);
}

/* A directive of one argument, on or off, given at most once. */
static void on_off_directive(int line, int argc, char **argv,
			     int *seen_line, int *value)
{
	char usage[64];

	snprintf(usage, sizeof(usage), "%s on|off", argv[0]);
	if (want_args(line, argc, 1, 1, usage) || once(line, argv[0], seen_line))
		return;
	if (strcmp(argv[1], "on") && strcmp(argv[1], "off")) {
		error_at(line, "%s '%s': want on or off", argv[0], argv[1]);
		return;
	}
	*value = !strcmp(argv[1], "on");
}

/*
 * counting on|off: /sys/kernel/debug/sched/pjt_counting for the whole
 * matrix.  Off (the default), a point whose bit is off runs 6.1's code and
 * nothing else, and the decision-counter columns stay empty; on, every
 * point also computes the answer it did not take, to count it.
 */
static void do_counting(int line, int argc, char **argv)
{
	on_off_directive(line, argc, argv, &m.counting_line, &m.counting);
}

/*
 * trace on|off: record the series' trace events in every run (each pull,
 * each CPU's load at each tick) into the results folder's traces/.  Off
 * (the default), the events stay disabled: one static-key test each.
 */
static void do_trace(int line, int argc, char **argv)
{
	on_off_directive(line, argc, argv, &m.trace_line, &m.trace);
}

static void do_seed(int line, int argc, char **argv)
{
	if (want_args(line, argc, 1, 1, "seed N") || once(line, "seed", &m.seed_line))
		return;
	if (parse_uint(argv[1], UINT64_MAX, &m.seed))
		error_at(line, "seed '%s': want a whole number 0..%llu", argv[1],
			 (unsigned long long)UINT64_MAX);
}

static struct combo *find_combo_name(const char *name)
{
	for (int i = 0; i < m.nr_combos; i++)
		if (!strcmp(m.combos[i].name, name))
			return &m.combos[i];
	return NULL;
}

/* Feature names into a bit mask (and, if order is given, their indexes as written). */
static int parse_bits(int line, int n, char **names, unsigned *mask, unsigned *order)
{
	int bad = 0;

	*mask = 0;
	for (int i = 0; i < n; i++) {
		int b = bit_index(names[i]);

		if (b < 0) {
			unknown_bit(line, names[i]);
			bad = 1;
		} else if (*mask & (1u << b)) {
			error_at(line, "feature %s listed twice", names[i]);
			bad = 1;
		} else {
			*mask |= 1u << b;
			if (order)
				order[i] = (unsigned)b;
		}
	}
	return bad ? -1 : 0;
}

static int add_combo(int line, const char *name, unsigned bits, int replicate_of)
{
	if (m.nr_combos == MAX_COMBOS) {
		error_at(line, "more than %d combos", MAX_COMBOS);
		return -1;
	}
	snprintf(m.combos[m.nr_combos].name, TEXT_MAX, "%s", name);
	m.combos[m.nr_combos].bits = bits;
	m.combos[m.nr_combos].replicate_of = replicate_of;
	m.combos[m.nr_combos++].line = line;
	return 0;
}

static void do_combo(int line, int argc, char **argv)
{
	unsigned bits = 0;
	int bad = 0;
	struct combo *other;

	if (argc < 2) {
		error_at(line, "usage: combo NAME [FEATURE...]");
		return;
	}
	if (!is_name(argv[1], "_.+-") || strlen(argv[1]) > 128) {
		error_at(line, "combo name '%s': use letters, digits, '_', '.', '+', '-'", argv[1]);
		bad = 1;
	}
	if (parse_bits(line, argc - 2, argv + 2, &bits, NULL))
		bad = 1;
	other = find_combo_name(argv[1]);
	if (other) {
		error_at(line, "duplicate combo name '%s' (first at line %d)", argv[1], other->line);
		return;
	}
	if (bad)
		return;
	/* One bit set is one measurement: two names for it would be run twice and
	 * compared as if they differed, unless the matrix says that is the point
	 * (an A/A check: replicate NAME OF). */
	for (int i = 0; i < m.nr_combos; i++) {
		if (m.combos[i].bits == bits) {
			error_at(line, "combo '%s' has the same bits as combo '%s' (line %d): "
				 "a bit set is measured once, under one name (a second arm on "
				 "the same bits, for an A/A check: replicate %s %s)", argv[1],
				 m.combos[i].name, m.combos[i].line, argv[1], m.combos[i].name);
			return;
		}
	}
	add_combo(line, argv[1], bits, -1);
}

/* Appends A B, given at LINE, to a list of at most MAX_COMBOS pairs. */
static void add_name_pair(struct name_pair *list, int *n, int line, const char *directive,
			  const char *a, const char *b)
{
	if (*n == MAX_COMBOS) {
		error_at(line, "more than %d %s lines", MAX_COMBOS, directive);
		return;
	}
	snprintf(list[*n].a, TEXT_MAX, "%s", a);
	snprintf(list[*n].b, TEXT_MAX, "%s", b);
	list[(*n)++].line = line;
}

/* replicate NAME COMBO: resolved once every combo and factorial cell is
 * known (resolve_replicates). */
static void do_replicate(int line, int argc, char **argv)
{
	if (want_args(line, argc, 2, 2, "replicate NAME COMBO (a second arm on COMBO's bits)"))
		return;
	if (!is_name(argv[1], "_.+-") || strlen(argv[1]) > 128) {
		error_at(line, "replicate name '%s': use letters, digits, '_', '.', '+', '-'", argv[1]);
		return;
	}
	add_name_pair(m.replicates, &m.nr_replicates, line, "replicate", argv[1], argv[2]);
}

/*
 * Replicate arms join the combos after the factorial cells: each runs the
 * bits of the combo it names, as a combo of its own name, so an A/A check
 * measures two arms that differ only by their label.  A replicate repeats
 * a combo or factorial cell, never another replicate: one arm is the
 * original, the others are its copies.
 */
static void resolve_replicates(void)
{
	for (int i = 0; i < m.nr_replicates; i++) {
		const struct name_pair *r = &m.replicates[i];
		const struct combo *of, *taken = find_combo_name(r->a);
		int of_replicate = -1;

		for (int j = m.nr_replicates - 1; j >= 0; j--)
			if (!strcmp(m.replicates[j].a, r->b))
				of_replicate = j; /* the first of that name */
		if (taken) {
			error_at(r->line, "replicate %s: the name is taken (%s at line %d)", r->a,
				 taken->replicate_of >= 0 ? "replicate" : "combo", taken->line);
			continue;
		}
		if (of_replicate >= 0) {
			error_at(r->line, "replicate %s %s: '%s' is itself a replicate (of '%s', line %d): "
				 "replicate %s instead", r->a, r->b, r->b,
				 m.replicates[of_replicate].b, m.replicates[of_replicate].line,
				 m.replicates[of_replicate].b);
			continue;
		}
		of = find_combo_name(r->b);
		if (!of) {
			error_at(r->line, "replicate %s: no combo or factorial cell is named '%s'",
				 r->a, r->b);
			continue;
		}
		if (add_combo(r->line, r->a, of->bits, (int)(of - m.combos)))
			return;
	}
}

/* order williams|random: how each repetition block's runs are ordered
 * (print_plan). */
static void do_order(int line, int argc, char **argv)
{
	if (want_args(line, argc, 1, 1, "order williams|random") || once(line, "order", &m.order_line))
		return;
	if (!strcmp(argv[1], "williams"))
		m.order = ORDER_WILLIAMS;
	else if (!strcmp(argv[1], "random"))
		m.order = ORDER_RANDOM;
	else
		error_at(line, "order '%s': want williams (balanced over the blocks) or random "
			 "(a seeded shuffle of each block)", argv[1]);
}

static void do_factorial(int line, int argc, char **argv)
{
	struct factorial f = { .line = line };
	unsigned seen = 0;

	if (argc < 2) {
		error_at(line, "usage: factorial FEATURE...");
		return;
	}
	if (argc - 1 > (int)NR_BITS) {
		error_at(line, "factorial over more than the %u project bits", (unsigned)NR_BITS);
		return;
	}
	if (parse_bits(line, argc - 1, argv + 1, &seen, f.bits))
		return;
	f.n = argc - 1;
	if (m.nr_factorials == MAX_FACTORIALS) {
		error_at(line, "more than %d factorial lines", MAX_FACTORIALS);
		return;
	}
	m.factorials[m.nr_factorials++] = f;
}

/*
 * Factorial and fraction cells join the explicit combos after the whole
 * file is read.  A cell whose bit set an existing combo already has is
 * that combo (the name the matrix chose wins, it is measured once); a
 * cell whose name is taken by a combo with other bits is an error.  A
 * cell is named by its bits joined with '+' in the order written, "stock"
 * for none.  LETTERS: which of the N features BITS (project bit indexes,
 * as written) the cell sets.
 */
static int add_cell(int line, const char *what, const unsigned *bits_of, int n, unsigned letters)
{
	char name[TEXT_MAX] = "";
	unsigned bits = 0;
	struct combo *c;

	for (int k = 0; k < n; k++) {
		if (!(letters & (1u << k)))
			continue;
		bits |= 1u << bits_of[k];
		if (name[0])
			strcat(name, "+");
		strcat(name, project_bits[bits_of[k]]);
	}
	if (!name[0])
		strcpy(name, "stock");
	c = find_combo_name(name);
	if (c && c->bits != bits) {
		error_at(line, "%s cell '%s' has other bits than combo '%s' (line %d)", what, name, name,
			 c->line);
		return 0;
	}
	for (int k = 0; k < m.nr_combos; k++)
		if (m.combos[k].bits == bits)
			return 0;
	return add_combo(line, name, bits, -1);
}

static void expand_factorials(void)
{
	for (int i = 0; i < m.nr_factorials; i++) {
		struct factorial *f = &m.factorials[i];

		for (unsigned mask = 0; mask < (1u << f->n); mask++)
			if (add_cell(f->line, "factorial", f->bits, f->n, mask))
				return;
	}
}

/*
 * fraction FEATURE... generators X=WORD... | resolution N: a regular
 * two-level fraction.  The features are lettered A, B, C... as written;
 * with p generators the first k-p letters are the base (a full factorial
 * over them) and each generated letter is the product of base letters
 * (E=BCD: E is set in a cell when an odd number of B, C, D are).  In
 * letter masks (bit i = letter i) a generator is the word WORD|X, and the
 * defining relation is every product of the generators' words.
 */
struct fraction {
	unsigned bits[NR_BITS]; /* letter -> project bit */
	unsigned gen[NR_BITS];  /* generated letter -> its base letters (0: a base letter) */
	int k, p;
	int line;
};

#define MAX_FRACTIONS 8
static struct fraction fractions[MAX_FRACTIONS];
static int nr_fractions;

/*
 * The standard minimum-aberration generators, transcribed from NIST's
 * Dataplot table DEXRES4 ("Index of Minimal-Sample-Size Resolution-4
 * 2**(k-p) Designs": factors 4, 6, 7, 8; its 5-factor row is garbled, so
 * 2^(5-1) takes the half fraction's only word of full length, E=ABCD).
 * The resolution each gives is computed (fraction_resolution), not
 * written here: run/tests/test-matrix.sh compares 2^(8-4) with the table.
 */
static const struct {
	int k;
	const char *generators[4];
} standard_fractions[] = {
	{ 4, { "D=ABC" } },
	{ 5, { "E=ABCD" } },
	{ 6, { "E=ABC", "F=BCD" } },
	{ 7, { "E=ABC", "F=BCD", "G=ACD" } },
	{ 8, { "E=BCD", "F=ACD", "G=ABC", "H=ABD" } },
};

/* The defining relation's words (all 2^p - 1 products of the generators). */
static int fraction_words(const struct fraction *f, unsigned *words)
{
	int n = 0;

	for (unsigned sub = 1; sub < (1u << f->p); sub++) {
		unsigned w = 0;

		for (int j = 0; j < f->p; j++)
			if (sub & (1u << j))
				w ^= f->gen[f->k - f->p + j] | 1u << (f->k - f->p + j);
		words[n++] = w;
	}
	return n;
}

/* The shortest word's length (a full factorial: k + 1, nothing aliased). */
static int fraction_resolution(const struct fraction *f)
{
	unsigned words[1u << NR_BITS];
	int n = fraction_words(f, words), r = f->k + 1;

	for (int i = 0; i < n; i++)
		if (__builtin_popcount(words[i]) < r)
			r = __builtin_popcount(words[i]);
	return r;
}

/* X=WORD into f->gen; errors at LINE, 0 if good. */
static int parse_generator(int line, struct fraction *f, const char *text)
{
	int base = f->k - f->p, x;
	unsigned word = 0;

	if (strlen(text) < 3 || text[1] != '=' || !isupper((unsigned char)text[0])) {
		error_at(line, "fraction: generator '%s': want LETTER=LETTERS (E=BCD: E is the product of B, C and D)", text);
		return -1;
	}
	x = text[0] - 'A';
	if (x >= f->k) {
		error_at(line, "fraction: generator '%s': no factor %c (the %d features are A to %c)", text,
			 text[0], f->k, 'A' + f->k - 1);
		return -1;
	}
	if (x < base) {
		error_at(line, "fraction: generator '%s': %c is a base factor (with %d generators the base is A to %c; "
			 "the generated factors are %c to %c)", text, text[0], f->p, 'A' + base - 1, 'A' + base, 'A' + f->k - 1);
		return -1;
	}
	if (f->gen[x]) {
		error_at(line, "fraction: factor %c is generated twice", text[0]);
		return -1;
	}
	for (const char *c = text + 2; *c; c++) {
		int l = *c - 'A';

		if (!isupper((unsigned char)*c) || l >= f->k) {
			error_at(line, "fraction: generator '%s': no factor '%c' (the %d features are A to %c)", text, *c,
				 f->k, 'A' + f->k - 1);
			return -1;
		}
		if (l >= base) {
			error_at(line, "fraction: generator '%s': %c is itself generated: a word is a product of base factors (A to %c)",
				 text, *c, 'A' + base - 1);
			return -1;
		}
		if (word & (1u << l)) {
			error_at(line, "fraction: generator '%s': %c twice", text, *c);
			return -1;
		}
		word |= 1u << l;
	}
	f->gen[x] = word;
	return 0;
}

static void do_fraction(int line, int argc, char **argv)
{
	static const char usage[] = "usage: fraction FEATURE... generators X=WORD... | fraction FEATURE... resolution N";
	struct fraction f = { .line = line };
	unsigned seen = 0;
	int kw = 1, bad = 0;

	while (kw < argc && strcmp(argv[kw], "generators") && strcmp(argv[kw], "resolution"))
		kw++;
	if (kw == argc || kw == argc - 1) {
		error_at(line, "%s", usage);
		return;
	}
	f.k = kw - 1;
	if (f.k < 3 || f.k > (int)NR_BITS) {
		error_at(line, "fraction over %d features: want 3 to %u", f.k, (unsigned)NR_BITS);
		return;
	}
	if (parse_bits(line, f.k, argv + 1, &seen, f.bits))
		return;
	if (!strcmp(argv[kw], "resolution")) {
		unsigned long long r;
		size_t i;

		if (argc != kw + 2 || parse_uint(argv[kw + 1], 100, &r) || r < 3) {
			error_at(line, "fraction: resolution '%s': want one whole number, 3 or more (3: main effects "
				 "free of each other, 4: also of two-factor interactions)", argv[kw + 1]);
			return;
		}
		for (i = 0; i < sizeof(standard_fractions) / sizeof(standard_fractions[0]); i++)
			if (standard_fractions[i].k == f.k)
				break;
		if (i < sizeof(standard_fractions) / sizeof(standard_fractions[0])) {
			for (f.p = 0; f.p < 4 && standard_fractions[i].generators[f.p]; f.p++)
				;
			for (int j = 0; j < f.p; j++)
				bad |= parse_generator(line, &f, standard_fractions[i].generators[j]);
		}
		if (i == sizeof(standard_fractions) / sizeof(standard_fractions[0]) || bad ||
		    fraction_resolution(&f) < (int)r) {
			error_at(line, "fraction: no standard fraction of %d features with resolution %llu here "
				 "(the table has 2^(4-1) IV, 2^(5-1) V, 2^(6-2) IV, 2^(7-3) IV, 2^(8-4) IV): "
				 "give generators, or use factorial", f.k, r);
			return;
		}
	} else {
		f.p = argc - kw - 1;
		if (f.p >= f.k - 1) {
			error_at(line, "fraction: %d generators for %d features leave fewer than 2 base factors", f.p, f.k);
			return;
		}
		for (int j = kw + 1; j < argc; j++)
			bad |= parse_generator(line, &f, argv[j]) != 0;
		if (bad)
			return;
		for (int x = f.k - f.p; x < f.k; x++)
			if (!f.gen[x]) {
				error_at(line, "fraction: factor %c (%s) has no generator: with %d generators, %c to %c "
					 "are generated", 'A' + x, project_bits[f.bits[x]], f.p, 'A' + f.k - f.p, 'A' + f.k - 1);
				return;
			}
	}
	if (fraction_resolution(&f) < 3) {
		unsigned words[1u << NR_BITS];
		int n = fraction_words(&f, words);

		for (int i = 0; i < n; i++) {
			int a = __builtin_ctz(words[i]), b;

			if (__builtin_popcount(words[i]) > 2)
				continue;
			if (__builtin_popcount(words[i]) == 1) {
				error_at(line, "fraction: factor %c (%s) is the word %c of the defining relation: "
					 "it never changes", 'A' + a, project_bits[f.bits[a]], 'A' + a);
				continue;
			}
			b = 31 - __builtin_clz(words[i]);
			error_at(line, "fraction: main effects %c (%s) and %c (%s) are aliased (the word %c%c is in "
				 "the defining relation: resolution 2): no main effect could be told from the other",
				 'A' + a, project_bits[f.bits[a]], 'A' + b, project_bits[f.bits[b]], 'A' + a, 'A' + b);
		}
		return;
	}
	if (nr_fractions == MAX_FRACTIONS) {
		error_at(line, "more than %d fraction lines", MAX_FRACTIONS);
		return;
	}
	fractions[nr_fractions++] = f;
}

/* The letters of a cell of F (base letters BASE_MASK). */
static unsigned fraction_cell(const struct fraction *f, unsigned base_mask)
{
	unsigned letters = base_mask;

	for (int x = f->k - f->p; x < f->k; x++)
		if (__builtin_popcount(f->gen[x] & base_mask) % 2)
			letters |= 1u << x;
	return letters;
}

static void expand_fractions(void)
{
	for (int i = 0; i < nr_fractions; i++) {
		const struct fraction *f = &fractions[i];

		for (unsigned b = 0; b < (1u << (f->k - f->p)); b++)
			if (add_cell(f->line, "fraction", f->bits, f->k, fraction_cell(f, b)))
				return;
	}
}

static void letters_text(unsigned w, char *out)
{
	int n = 0;

	for (int l = 0; l < (int)NR_BITS; l++)
		if (w & (1u << l))
			out[n++] = (char)('A' + l);
	out[n] = 0;
}

/* A word's order in the plan: shorter first, then alphabetical. */
static int word_cmp_len(const void *pa, const void *pb)
{
	unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
	char ta[NR_BITS + 1], tb[NR_BITS + 1];

	if (__builtin_popcount(a) != __builtin_popcount(b))
		return __builtin_popcount(a) - __builtin_popcount(b);
	letters_text(a, ta);
	letters_text(b, tb);
	return strcmp(ta, tb);
}

/*
 * The plan's records of each fraction:
 *   fraction K P RESOLUTION CELLS | factor LETTER FEATURE | generator X=WORD
 *   defining I=WORD=WORD...
 *   alias TERM ALIASES: each main effect, then each chain of two-factor
 *   interactions (its first member) not already named, with its aliases
 *   of at most two letters ("-": none).
 */
static void print_fractions(void)
{
	for (int i = 0; i < nr_fractions; i++) {
		const struct fraction *f = &fractions[i];
		unsigned words[1u << NR_BITS];
		int n = fraction_words(f, words);
		char text[NR_BITS + 1], defining[(NR_BITS + 1) << NR_BITS] = "I";
		unsigned terms[NR_BITS * (NR_BITS + 1) / 2];
		int nterms = 0;
		unsigned char done[1u << NR_BITS] = { 0 };

		printf("fraction\t%d\t%d\t%d\t%d\n", f->k, f->p, fraction_resolution(f), 1 << (f->k - f->p));
		for (int l = 0; l < f->k; l++)
			printf("factor\t%c\t%s\n", 'A' + l, project_bits[f->bits[l]]);
		for (int x = f->k - f->p; x < f->k; x++) {
			letters_text(f->gen[x], text);
			printf("generator\t%c=%s\n", 'A' + x, text);
		}
		qsort(words, (size_t)n, sizeof(words[0]), word_cmp_len);
		for (int w = 0; w < n; w++) {
			letters_text(words[w], text);
			strcat(defining, "=");
			strcat(defining, text);
		}
		printf("defining\t%s\n", defining);
		for (int a = 0; a < f->k; a++)
			terms[nterms++] = 1u << a;
		for (int a = 0; a < f->k; a++)
			for (int b = a + 1; b < f->k; b++)
				terms[nterms++] = 1u << a | 1u << b;
		for (int t = 0; t < nterms; t++) {
			unsigned chain[1u << NR_BITS];
			int nc = 0;
			char line[4 * (1u << NR_BITS)] = "";

			if (done[terms[t]])
				continue;
			for (int w = 0; w < n; w++) {
				unsigned alias = terms[t] ^ words[w];

				if (__builtin_popcount(alias) <= 2)
					chain[nc++] = alias;
			}
			qsort(chain, (size_t)nc, sizeof(chain[0]), word_cmp_len);
			for (int c = 0; c < nc; c++) {
				letters_text(chain[c], text);
				if (*line)
					strcat(line, " ");
				strcat(line, text);
				done[chain[c]] = 1;
			}
			letters_text(terms[t], text);
			printf("alias\t%s\t%s\n", text, *line ? line : "-");
		}
	}
}

static void do_tunable(int line, int argc, char **argv)
{
	const struct tunable_rule *rule = NULL;
	unsigned long long v;

	if (want_args(line, argc, 2, 2, "tunable NAME VALUE"))
		return;
	for (unsigned i = 0; i < sizeof(tunable_rules) / sizeof(tunable_rules[0]); i++)
		if (!strcmp(argv[1], tunable_rules[i].name))
			rule = &tunable_rules[i];
	if (!rule) {
		error_at(line, "unknown tunable '%s' (known: %s)", argv[1], PJT_CONTRACT_TUNABLES_TEXT);
		return;
	}
	for (int i = 0; i < m.nr_tunables; i++) {
		if (m.tunables[i].name == rule->name) {
			error_at(line, "tunable %s given twice (first at line %d)", rule->name,
				 m.tunables[i].line);
			return;
		}
	}
	/* The kernel refuses a value outside its range with EINVAL
	 * (run/contract/tunables holds the ranges of patch 0004). */
	if (parse_uint(argv[2], ULLONG_MAX, &v) || v < rule->min || v > rule->max) {
		error_at(line, "tunable %s: '%s' is not a whole number %llu..%llu (the kernel "
			 "refuses it)", rule->name, argv[2], rule->min, rule->max);
		return;
	}
	m.tunables[m.nr_tunables].name = rule->name;
	m.tunables[m.nr_tunables].value = (unsigned long)v;
	m.tunables[m.nr_tunables++].line = line;
}

/*
 * Workloads.  pjtload's modes (duty calibrate pingpong fork) are checked by
 * pjtload's own parser (initramfs/pjtload/opts.c, linked in), against the
 * guest each topology boots: its vCPUs and GUEST_TASK_LIMIT.  The planner
 * adds only what a matrix file needs beyond pjtload: duration= comes from
 * the directive, a key is written once, and no ',' (CSV cells).  The other
 * tools' keys (hackbench, perf bench, cyclictest) are the runner's own
 * translation to their flags, so they are checked here (tool_kinds).
 */

/* run/boot gives the guest 512 MB: the kernel sizes threads-max from
 * memory (totalram pages / 32 on x86_64: about 3900 here), and the guest's
 * own tasks take some; 3500 leaves room. */
#define GUEST_TASK_LIMIT 3500

/*
 * Workloads that are other people's tools: hackbench, perf bench sched
 * messaging / pipe, cyclictest.  Their keys are the runner's own
 * translation to the tool's flags (matrix-exec.sh), so they are checked
 * here: each key once, a whole number in its range (a time for a
 * microsecond key), the required ones given.  An absent key has its
 * default, so two workloads with the same values are one.
 */
struct tool_key {
	const char *key;
	unsigned long long min, max, def;
	int required;
	int micros; /* a time (ns us ms s), held in whole microseconds */
};

struct tool_kind {
	const char *kind;
	const char *needs; /* why the required keys are required */
	int groups_of_40;  /* groups= is hackbench's: 20 senders + 20 receivers each */
	struct tool_key keys[TOOL_KEYS + 1];
};

static const struct tool_kind tool_kinds[] = {
	{ "hackbench", "one invocation passes groups x 400 x loops messages; invocations "
	  "repeat until the duration is up", 1,
	  { { "groups", 1, 1000, 0, 1, 0 }, { "loops", 1, 10000000, 0, 1, 0 },
	    { "pipe", 0, 1, 0, 0, 0 }, { NULL, 0, 0, 0, 0, 0 } } },
	{ "perf-messaging", "one 'perf bench sched messaging' passes groups x 400 x loops "
	  "messages; invocations repeat until the duration is up", 1,
	  { { "groups", 1, 1000, 0, 1, 0 }, { "loops", 1, 10000000, 0, 1, 0 },
	    { "pipe", 0, 1, 0, 0, 0 }, { "threads", 0, 1, 0, 0, 0 }, { NULL, 0, 0, 0, 0, 0 } } },
	{ "perf-pipe", "one 'perf bench sched pipe' makes loops round trips; invocations "
	  "repeat until the duration is up", 0,
	  { { "loops", 1, 1000000000, 0, 1, 0 }, { "threads", 0, 1, 0, 0, 0 },
	    { NULL, 0, 0, 0, 0, 0 } } },
	{ "cyclictest", "", 0,
	  { { "threads", 1, MAX_VCPUS, 1, 0, 0 }, { "interval", 100, 1000000, 1000, 0, 1 },
	    { "prio", 0, 99, 0, 0, 0 }, { NULL, 0, 0, 0, 0, 0 } } },
	{ NULL, NULL, 0, { { NULL, 0, 0, 0, 0, 0 } } },
};

static const struct tool_kind *tool_kind_of(const char *kind)
{
	for (const struct tool_kind *t = tool_kinds; t->kind; t++)
		if (!strcmp(t->kind, kind))
			return t;
	return NULL;
}

/* The value of KEY (its default when not given). */
static unsigned long long tool_value(const struct workload *w, const char *key)
{
	for (int i = 0; w->tool && w->tool->keys[i].key; i++)
		if (!strcmp(w->tool->keys[i].key, key))
			return w->value[i];
	return 0;
}

static int pjtload_mode(const char *kind)
{
	for (int mode = MODE_DUTY; mode <= MODE_FORK; mode++)
		if (!strcmp(kind, mode_name((enum pjt_mode)mode)))
			return mode;
	return -1;
}

/* "key=value" words, each key once; duration= belongs to the directive. */
static int check_key_words(int line, int argc, char **argv)
{
	int bad = 0;

	for (int i = 2; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		int dup = 0;

		if (!eq || eq == argv[i]) {
			error_at(line, "%s: '%s' is not key=value", argv[1], argv[i]);
			bad = 1;
			continue;
		}
		if (!strncmp(argv[i], "duration=", 9)) {
			error_at(line, "%s: duration= comes from the 'duration' directive", argv[1]);
			bad = 1;
			continue;
		}
		for (int j = 2; j < i; j++)
			dup |= !strncmp(argv[j], argv[i], (size_t)(eq - argv[i]) + 1);
		if (dup) {
			error_at(line, "%s: option '%.*s' given twice", argv[1], (int)(eq - argv[i]),
				 argv[i]);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/* A tool's value: a whole number, or for a microsecond key a time. */
static int tool_number(const struct tool_key *k, const char *text, unsigned long long *v)
{
	uint64_t ns;
	const char *why;

	if (!k->micros)
		return parse_uint(text, k->max, v) || *v < k->min ? -1 : 0;
	if (parse_time_ns(text, &ns, &why) || ns % 1000)
		return -1;
	*v = ns / 1000;
	return *v < k->min || *v > k->max ? -1 : 0;
}

static int check_tool(int line, int argc, char **argv, struct workload *w)
{
	const struct tool_kind *t = w->tool;
	int bad = 0, given[TOOL_KEYS] = { 0 };
	char known[128] = "";

	for (int k = 0; t->keys[k].key; k++) {
		w->value[k] = t->keys[k].def;
		snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", k ? " " : "",
			 t->keys[k].key);
	}
	for (int i = 2; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		int k;

		for (k = 0; t->keys[k].key; k++)
			if (strlen(t->keys[k].key) == (size_t)(eq - argv[i]) &&
			    !strncmp(argv[i], t->keys[k].key, (size_t)(eq - argv[i])))
				break;
		if (!t->keys[k].key) {
			error_at(line, "%s: unknown option '%.*s' (known: %s)", t->kind,
				 (int)(eq - argv[i]), argv[i], known);
			bad = 1;
		} else if (tool_number(&t->keys[k], eq + 1, &w->value[k])) {
			if (t->keys[k].micros)
				error_at(line, "%s %s='%s': want a time %lluus..%llus in whole "
					 "microseconds (e.g. 1000us, 1ms)", t->kind, t->keys[k].key,
					 eq + 1, t->keys[k].min, t->keys[k].max / 1000000);
			else
				error_at(line, "%s %s='%s': want a whole number %llu..%llu", t->kind,
					 t->keys[k].key, eq + 1, t->keys[k].min, t->keys[k].max);
			bad = 1;
		} else {
			given[k] = 1;
		}
	}
	for (int k = 0; t->keys[k].key; k++)
		if (t->keys[k].required && !given[k] && !bad) {
			error_at(line, "%s needs %s= (%s)", t->kind, t->keys[k].key, t->needs);
			bad = 1;
		}
	if (!bad && t->groups_of_40 && tool_value(w, "groups") * 40 > GUEST_TASK_LIMIT) {
		error_at(line, "%s groups=%llu: %llu tasks, more than the guest's %d", t->kind,
			 tool_value(w, "groups"), tool_value(w, "groups") * 40, GUEST_TASK_LIMIT);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* One invocation of a tool repeated until the duration is up, under TCG
 * (matrix-exec.sh); 0 for a tool that takes the duration itself. */
static long long invocation_ms(const struct workload *w)
{
	long long groups = (long long)tool_value(w, "groups"), loops = (long long)tool_value(w, "loops");

	if (!strcmp(w->kind, "hackbench"))
		return groups * (EST_HACKBENCH_GROUP_MS + EST_HACKBENCH_LOOP_MS * loops);
	if (!strcmp(w->kind, "perf-messaging"))
		return EST_PERF_START_MS + groups * (EST_HACKBENCH_GROUP_MS + EST_HACKBENCH_LOOP_MS * loops);
	if (!strcmp(w->kind, "perf-pipe"))
		return EST_PERF_START_MS + loops * EST_PERF_PIPE_LOOP_US / 1000;
	return 0;
}

/*
 * rt-app's JSON, as far as the plan needs it: rt-app runs until
 * global.duration (whole seconds; absent or not above 0: until its tasks
 * end, maybe never), after measuring its ns per loop unless
 * global.calibration is a number.  Parsed with json-c as rt-app parses it
 * (its json_object_from_file() runs one json_tokener over the whole file:
 * comments and a trailing comma pass, a duplicate key's last value wins,
 * what follows the first value is ignored), so a file is refused here
 * when rt-app would refuse its syntax; rt-app says what else is wrong.
 */
#define RTAPP_JSON_MAX (1 << 20)

/* "line L, column C" of byte offset off in buf */
static void text_position(const char *buf, size_t off, char *out, size_t size)
{
	int line = 1, col = 1;

	for (size_t i = 0; i < off; i++, col++)
		if (buf[i] == '\n')
			line++, col = 0;
	snprintf(out, size, "line %d, column %d", line, col);
}

/* The file's JSON, or NULL having said why at the matrix line. */
static json_object *rtapp_parse(int line, const char *file)
{
	FILE *f = fopen(file, "r");
	char *buf = malloc(RTAPP_JSON_MAX + 1), where[64];
	size_t len = f && buf ? fread(buf, 1, RTAPP_JSON_MAX + 1, f) : 0;
	json_tokener *tok = NULL;
	json_object *root = NULL;
	enum json_tokener_error err;

	if (!f || !buf || ferror(f) || len > RTAPP_JSON_MAX) {
		error_at(line, "rt-app file %s: %s", file,
			 !f || !buf || ferror(f) ? strerror(errno) : "larger than 1 MiB");
		goto out;
	}
	if (!(tok = json_tokener_new())) {
		error_at(line, "rt-app file %s: %s", file, strerror(ENOMEM));
		goto out;
	}
	root = json_tokener_parse_ex(tok, buf, (int)len);
	err = json_tokener_get_error(tok);
	if (err != json_tokener_success) {
		/* continue: the file ended inside a value */
		text_position(buf, json_tokener_get_parse_end(tok), where, sizeof(where));
		error_at(line, "rt-app file %s: %s: not JSON rt-app can read (json-c: %s)", file, where,
			 err == json_tokener_continue ? "unexpected end of data" : json_tokener_error_desc(err));
		json_object_put(root);
		root = NULL;
	}
out:
	if (tok)
		json_tokener_free(tok);
	free(buf);
	if (f)
		fclose(f);
	return root;
}

/* w->file's global.duration, whether rt-app calibrates first, and that
 * its log's place (global.logdir, log_basename) is a string when given. */
static int rtapp_global(int line, struct workload *w)
{
	json_object *root = rtapp_parse(line, w->file), *global = NULL, *v;
	int bad = 0;

	if (!root)
		return -1;
	w->rtapp_duration_s = -1;
	w->rtapp_calibrates = 1;
	if (!json_object_object_get_ex(root, "global", &global) || !json_object_is_type(global, json_type_object))
		global = NULL;
	if (global && json_object_object_get_ex(global, "duration", &v)) {
		/* rt-app reads an int (json_object_get_int): json-c clamps
		 * what does not fit, so that is refused here */
		w->rtapp_duration_s = json_object_get_int64(v);
		if (!json_object_is_type(v, json_type_int) || w->rtapp_duration_s > INT_MAX ||
		    w->rtapp_duration_s < INT_MIN) {
			error_at(line, "rt-app file %s: global.duration is not whole seconds "
				 "(an int, as rt-app reads it)", w->file);
			bad = -1;
		}
	}
	if (global && json_object_object_get_ex(global, "calibration", &v))
		w->rtapp_calibrates = json_object_is_type(v, json_type_string);
	/* The guest reads its rate from rt-app's logs, found by these. */
	for (const char *const *key = (const char *const[]){ "logdir", "log_basename", NULL }; *key; key++)
		if (global && json_object_object_get_ex(global, *key, &v) &&
		    !json_object_is_type(v, json_type_string)) {
			error_at(line, "rt-app file %s: global.%s is not a string (the runner reads "
				 "rt-app's logs there for the run's rate)", w->file, *key);
			bad = -1;
		}
	json_object_put(root);
	return bad;
}

static int check_rtapp(int line, int argc, char **argv, struct workload *w)
{
	char path[PATH_MAX];

	if (argc != 3) {
		error_at(line, "usage: workload rt-app FILE.json");
		return -1;
	}
	if (strlen(argv[2]) < 6 || strcmp(argv[2] + strlen(argv[2]) - 5, ".json") ||
	    !is_name(argv[2], "_.-/")) {
		error_at(line, "rt-app '%s': want a FILE.json path (letters, digits, _ . - /)",
			 argv[2]);
		return -1;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s%s%s", argv[2][0] == '/' ? "" : m.dir,
			     argv[2][0] == '/' ? "" : "/", argv[2]) >= sizeof(path)) {
		error_at(line, "rt-app file path too long");
		return -1;
	}
	/* The real path: two spellings of one file are one workload. */
	if (!realpath(path, w->file)) {
		error_at(line, "rt-app file %s: %s", path, strerror(errno));
		return -1;
	}
	if (access(w->file, R_OK)) {
		error_at(line, "rt-app file %s: %s", w->file, strerror(errno));
		return -1;
	}
	return rtapp_global(line, w);
}

static int word_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The kind, then its words sorted: one text for any order of the options. */
static void canonical_text(int n, char **words, char *out, size_t size)
{
	char *sorted[64];

	memcpy(sorted, words, sizeof(char *) * (size_t)n);
	qsort(sorted + 1, (size_t)(n - 1), sizeof(char *), word_cmp);
	out[0] = 0;
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? " " : "", sorted[i]);
}

static void do_workload(int line, int argc, char **argv)
{
	struct workload w = { .line = line };
	int bad = 0;

	if (argc < 2) {
		error_at(line, "usage: workload KIND [key=value...]");
		return;
	}
	w.mode = pjtload_mode(argv[1]);
	w.tool = tool_kind_of(argv[1]);
	if (w.mode < 0 && !w.tool && strcmp(argv[1], "rt-app") && strcmp(argv[1], "crash")) {
		error_at(line, "unknown workload '%s' (known: duty calibrate pingpong fork "
			 "hackbench perf-messaging perf-pipe cyclictest rt-app crash)", argv[1]);
		return;
	}
	snprintf(w.kind, sizeof(w.kind), "%s", argv[1]);
	if (!strcmp(argv[1], "rt-app"))
		bad = check_rtapp(line, argc, argv, &w);
	else if (!strcmp(argv[1], "crash"))
		bad = argc > 2 ? (error_at(line, "workload crash takes no options"), -1) : 0;
	else if (check_key_words(line, argc, argv))
		bad = -1;
	else if (w.tool)
		bad = check_tool(line, argc, argv, &w);
	if (bad)
		return;
	w.text[0] = 0;
	w.argc = argc - 1;
	for (int i = 1; i < argc; i++) {
		if (strlen(w.text) + strlen(argv[i]) + 2 > sizeof(w.text)) {
			error_at(line, "workload line too long");
			return;
		}
		if (i > 1)
			strcat(w.text, " ");
		strcat(w.text, argv[i]);
	}
	canonical_text(argc - 1, argv + 1, w.canon, sizeof(w.canon));
	if (m.nr_workloads == MAX_WORKLOADS) {
		error_at(line, "more than %d workloads", MAX_WORKLOADS);
		return;
	}
	m.workloads[m.nr_workloads++] = w;
}

/* The words of a workload's text (kind first), in buf. */
static int workload_words(const struct workload *w, char *buf, size_t size, char **words)
{
	int n = 0;

	snprintf(buf, size, "%s", w->text);
	for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok && n < 64;
	     tok = strtok_r(NULL, " ", &save))
		words[n++] = tok;
	return n;
}

static int topology_vcpus(const struct topology *t)
{
	return t->sockets * t->cores * t->threads;
}

/* Every run ends near its duration (pjtload's modes and cyclictest take it;
 * the guest repeats hackbench and perf bench until it is up), or its
 * workload is refused. */
static void check_bounded(struct workload *w)
{
	long long one;

	if (!strcmp(w->kind, "rt-app") && w->rtapp_duration_s <= 0) {
		error_at(w->line, "rt-app %s: no global.duration above 0: rt-app would run until "
			 "its tasks end, maybe never (give it at most the run's duration, %lld ms)",
			 w->file, m.duration_ms);
		w->invalid = 1;
	} else if (!strcmp(w->kind, "rt-app") && w->rtapp_duration_s * 1000 > m.duration_ms) {
		error_at(w->line, "rt-app %s: global.duration %llds is longer than the run's "
			 "duration, %lld ms", w->file, w->rtapp_duration_s, m.duration_ms);
		w->invalid = 1;
	} else if ((one = invocation_ms(w)) > HACKBENCH_MAX_DURATIONS * m.duration_ms) {
		error_at(w->line, "%s: one invocation takes about %lld s under TCG, more "
			 "than %d times the run's duration (%lld ms): lower %sloops=", w->kind,
			 one / 1000, HACKBENCH_MAX_DURATIONS, m.duration_ms,
			 tool_value(w, "groups") ? "groups= or " : "");
		w->invalid = 1;
	} else if (!strcmp(w->kind, "cyclictest") && m.duration_ms % 1000) {
		error_at(w->line, "cyclictest: its -D takes whole seconds and the run's duration "
			 "is %lld ms (give the matrix a duration in whole seconds)", m.duration_ms);
		w->invalid = 1;
	}
}

/*
 * After the whole file and the overrides (the duration): every workload
 * bounded, pjtload's parser on every pjtload workload for every topology,
 * then duplicates by meaning (the parsed options, a tool's values with
 * its defaults, the rt-app file's real path).
 */
static void check_workloads(void)
{
	for (int i = 0; i < m.nr_workloads; i++)
		check_bounded(&m.workloads[i]);
	for (int i = 0; i < m.nr_workloads; i++) {
		struct workload *w = &m.workloads[i];
		char buf[TEXT_MAX], *words[64], err[512];
		int n;

		if (w->mode < 0)
			continue;
		n = workload_words(w, buf, sizeof(buf), words);
		for (int t = 0; t < m.nr_topologies; t++) {
			struct pjt_environment env = { .task_limit = GUEST_TASK_LIMIT };
			char topo[64];

			CPU_ZERO(&env.available);
			for (int c = 0; c < topology_vcpus(&m.topologies[t]); c++)
				CPU_SET(c, &env.available);
			if (!parse_options(n, words, &env, &w->opts, err, sizeof(err)))
				continue;
			snprintf(topo, sizeof(topo), "%dx%dx%d", m.topologies[t].sockets,
				 m.topologies[t].cores, m.topologies[t].threads);
			error_at(w->line, "%s: %s (pjtload would refuse it on topology %s, %d vCPUs)",
				 w->kind, err, topo, topology_vcpus(&m.topologies[t]));
			w->invalid = 1;
			break;
		}
	}
	for (int i = 0; i < m.nr_workloads; i++) {
		struct workload *w = &m.workloads[i];

		if (w->invalid)
			continue;
		for (int j = 0; j < i; j++) {
			struct workload *o = &m.workloads[j];
			int same = 0;

			if (o->invalid || strcmp(o->kind, w->kind))
				continue;
			if (w->mode >= 0)
				same = !memcmp(&o->opts, &w->opts, sizeof(w->opts));
			else if (!strcmp(w->kind, "rt-app"))
				same = !strcmp(o->file, w->file);
			else if (w->tool)
				same = !memcmp(o->value, w->value, sizeof(w->value));
			else
				same = !strcmp(o->canon, w->canon);
			if (same) {
				error_at(w->line, "duplicate workload: '%s' is '%s' (line %d) with its "
					 "options in another order or spelling", w->text, o->text, o->line);
				w->invalid = 1;
				break;
			}
		}
	}
}

/* accel thread=single|thread=multi: TCG's threading (run/boot --accel). */
static void do_accel(int line, int argc, char **argv)
{
	if (m.accel_line) {
		error_at(line, "accel given twice (first at line %d)", m.accel_line);
		return;
	}
	if (argc != 2 || (strcmp(argv[1], "thread=single") && strcmp(argv[1], "thread=multi"))) {
		error_at(line, "usage: accel thread=single|thread=multi (TCG: one host thread for all vCPUs, or one each)");
		return;
	}
	snprintf(m.accel, sizeof(m.accel), "tcg,%s", argv[1]);
	m.accel_line = line;
}

/* pin-vcpus CPU...: vCPU n's thread on the (n mod count)-th host CPU given
 * (run/boot --pin-vcpus). */
static void do_pin(int line, int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t len = 0;

	if (m.pin_line) {
		error_at(line, "pin-vcpus given twice (first at line %d)", m.pin_line);
		return;
	}
	if (argc < 2) {
		error_at(line, "usage: pin-vcpus CPU... (host CPU numbers, e.g. pin-vcpus 0 1)");
		return;
	}
	for (int i = 1; i < argc; i++) {
		unsigned long long c;

		if (parse_uint(argv[i], 4095, &c)) {
			error_at(line, "pin-vcpus: '%s' is not a host CPU number", argv[i]);
			return;
		}
		if (ncpu > 0 && (long)c >= ncpu)
			fprintf(stderr, "%s:%d: warning: pin-vcpus: CPU %llu is not on this host (%ld CPUs); the host that runs it must have it\n",
				m.path, line, c, ncpu);
		len += (size_t)snprintf(m.pin + len, sizeof(m.pin) - len, "%s%llu", i > 1 ? "," : "", c);
	}
	m.pin_line = line;
}

/* compare COMBO REFERENCE: a declared question. The names are checked
 * once every combo and factorial cell is known (check_compares). */
static void do_compare(int line, int argc, char **argv)
{
	if (argc != 3) {
		error_at(line, "usage: compare COMBO REFERENCE (two combo or factorial cell names)");
		return;
	}
	if (!strcmp(argv[1], argv[2])) {
		error_at(line, "compare: '%s' against itself", argv[1]);
		return;
	}
	for (int i = 0; i < m.nr_compares; i++)
		if ((!strcmp(m.compares[i].a, argv[1]) && !strcmp(m.compares[i].b, argv[2])) ||
		    (!strcmp(m.compares[i].a, argv[2]) && !strcmp(m.compares[i].b, argv[1]))) {
			error_at(line, "compare %s %s: declared already (line %d)", argv[1], argv[2],
				 m.compares[i].line);
			return;
		}
	add_name_pair(m.compares, &m.nr_compares, line, "compare", argv[1], argv[2]);
}

static void check_compares(void)
{
	for (int i = 0; i < m.nr_compares; i++)
		for (int side = 0; side < 2; side++) {
			const char *name = side ? m.compares[i].b : m.compares[i].a;

			if (!find_combo_name(name))
				error_at(m.compares[i].line, "compare: no combo or factorial cell is named '%s'",
					 name);
		}
}

struct directive {
	const char *name;
	void (*parse)(int line, int argc, char **argv);
};

static const struct directive directives[] = {
	{ "name", do_name }, { "smp", do_smp }, { "duration", do_duration },
	{ "reps", do_reps }, { "boots", do_boots }, { "counting", do_counting }, { "trace", do_trace }, { "settle", do_settle }, { "seed", do_seed },
	{ "combo", do_combo }, { "factorial", do_factorial }, { "fraction", do_fraction }, { "tunable", do_tunable },
	{ "workload", do_workload }, { "compare", do_compare }, { "accel", do_accel },
	{ "pin-vcpus", do_pin }, { "replicate", do_replicate }, { "order", do_order },
	{ NULL, NULL },
};

static void parse_line(int line, char *text)
{
	char *argv[64];
	int argc = 0;
	char *hash = strchr(text, '#');
	const struct directive *d;

	if (hash)
		*hash = 0;
	for (char *save = NULL, *tok = strtok_r(text, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (argc == 64) {
			error_at(line, "too many words");
			return;
		}
		argv[argc++] = tok;
	}
	if (argc == 0)
		return;
	m.nr_directive_lines++;
	/* Only smp's topology spells a comma; everywhere else it would split a CSV cell. */
	for (int i = 0; i < argc; i++) {
		for (const char *c = argv[i]; *c; c++) {
			if (*c == ',' && !strcmp(argv[0], "smp"))
				continue;
			if (*c == '=' && !strcmp(argv[0], "accel"))
				continue;
			if (!isprint((unsigned char)*c) || strchr(",'\"\\`$;|&<>(){}[]*?~!", *c)) {
				/* By value: a BOM or a UTF-8 byte printed as a character
				 * shows as '?' or garbles the terminal. */
				char what[32];

				if (isprint((unsigned char)*c))
					snprintf(what, sizeof(what), "character '%c'", *c);
				else
					snprintf(what, sizeof(what), "byte 0x%02x", (unsigned char)*c);
				error_at(line, "%s at column %d is not allowed in a matrix file word "
					 "(values end up in CSV cells and guest shell lines%s)", what,
					 (int)(c - text) + 1,
					 isprint((unsigned char)*c) ? "" : "; matrix files are ASCII");
				return;
			}
		}
	}
	for (d = directives; d->name && strcmp(d->name, argv[0]); d++)
		;
	if (!d->name) {
		error_at(line, "unknown directive '%s' (known: name smp duration reps boots counting trace settle seed "
			 "order combo factorial fraction replicate tunable workload compare accel pin-vcpus)", argv[0]);
		return;
	}
	d->parse(line, argc, argv);
}

static int parse_file(const char *path)
{
	FILE *f = NULL;
	char *buf = NULL;
	size_t cap = 0;
	int line = 0;
	const char *slash, *base;
	size_t len;

	struct stat st = { 0 };
	ssize_t got;

	/* stat() before fopen(): opening a FIFO with no writer blocks for ever;
	 * fstat() after it, for a file replaced in between. */
	if (stat(path, &st) || (S_ISREG(st.st_mode) && !(f = fopen(path, "r")))) {
		fprintf(stderr, "%s: cannot read the matrix file: %s\n", path, strerror(errno));
		return -1;
	}
	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: not a matrix file (%s)\n", path,
			S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		if (f)
			fclose(f);
		return -1;
	}
	m.path = path;
	slash = strrchr(path, '/');
	/* rt-app files are named relative to the matrix file; the plan holds absolute paths. */
	if (realpath(path, m.dir) && strrchr(m.dir, '/'))
		*strrchr(m.dir, '/') = 0;
	while ((got = getline(&buf, &cap, f)) != -1) {
		/* A NUL would end the line for every C string function: the rest
		 * of it would be silently dropped. */
		if (memchr(buf, 0, (size_t)got)) {
			error_at(++line, "NUL byte in the line (a binary or corrupt file?)");
			continue;
		}
		parse_line(++line, buf);
	}
	if (ferror(f)) {
		fprintf(stderr, "%s:%d: read error: %s\n", path, line + 1, strerror(errno));
		free(buf);
		fclose(f);
		return -1;
	}
	free(buf);
	fclose(f);
	m.last_line = line;
	if (m.nr_directive_lines == 0) { /* one error, not each directive's "missing" at line 0 */
		fprintf(stderr, "%s: no directive in the file (%s): a matrix wants at least a "
			"combo and a workload line (docs/matrix.md)\n", path,
			line ? "only comments and blank lines" : "empty");
		return -1;
	}

	if (!m.name_line) {
		base = slash ? slash + 1 : path;
		len = strlen(base);
		if (len > 7 && !strcmp(base + len - 7, ".matrix"))
			len -= 7;
		snprintf(m.name, sizeof(m.name), "%.*s", (int)len, base);
		if (!is_name(m.name, "_.-"))
			error_at(line, "no 'name' line and the file name is not usable as one");
	}
	expand_factorials();
	expand_fractions();
	resolve_replicates();
	check_compares();
	if (m.nr_combos == 0)
		error_at(line, "no 'combo', 'factorial' or 'fraction' line: nothing to compare");
	if (m.nr_workloads == 0)
		error_at(line, "no 'workload' line: nothing to run");
	return 0;
}

/* The plan's order: splitmix64, the same on every host. */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	return splitmix64_next(&rng_state);
}

static unsigned rng_below(unsigned n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, r;

	do
		r = rng_next();
	while (r >= limit);
	return (unsigned)(r % n);
}

/* Fisher-Yates, the seeded generator's draws from the last element down. */
static void shuffle(int *a, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_below((unsigned)i + 1), tmp = a[i];

		a[i] = a[j];
		a[j] = tmp;
	}
}

/*
 * A Williams design for t treatments (Williams 1949, the crossover
 * trials' standard): sequences in which every treatment takes every
 * position equally often and follows every other treatment equally
 * often.  Row r of the square is the first row 0, 1, t-1, 2, t-2, ... plus
 * r (mod t); for even t the t rows are the design, for odd t each ordered
 * pair is adjacent once in the square or once in its mirror (each row
 * reversed), so the design is the 2t rows of both.  The mirror rows come in
 * the order that continues the square's first elements (0, 1, ..., t-1,
 * then 0 again), so that any t consecutive sequences put each treatment
 * first once: the first run of a boot is where the drift is steepest.
 * Fills seq[s * t + p] (sequence s, position p) and returns the number of
 * sequences: 1 for t = 1, t for even t, 2t for odd t.
 */
static int williams_sequences(int t, int *seq)
{
	int *first = seq, lo = 1, hi = t - 1, mirror_start;

	first[0] = 0;
	for (int p = 1; p < t; p++)
		first[p] = p % 2 ? lo++ : hi--;
	for (int r = 1; r < t; r++)
		for (int p = 0; p < t; p++)
			seq[r * t + p] = (first[p] + r) % t;
	if (t % 2 == 0 || t == 1)
		return t;
	/* the reverse of square row r starts with first[t-1] + r: the mirror
	 * rows begin with the r whose reverse starts with 0 */
	mirror_start = (t - first[t - 1]) % t;
	for (int u = 0; u < t; u++)
		for (int p = 0; p < t; p++)
			seq[(t + u) * t + p] = seq[((mirror_start + u) % t) * t + (t - 1 - p)];
	return 2 * t;
}

/*
 * order williams: the cells of a block are its workloads, each running
 * every combo once in a row (the comparison is between combos of one
 * workload, so its runs stay together, close in time).  The combos of each
 * workload follow a Williams design of S_c sequences, the workloads one of
 * S_w: design step x (0 .. S_c x S_w - 1) is combo sequence x mod S_c with
 * workload sequence x / S_c, so over a cycle of S_c x S_w blocks every
 * combo order meets every workload order.
 *
 * Which step a block takes: pulls drift over a boot (steeply at first), so
 * the blocks in the same slot of their boots (every boot's first block,
 * every second, ...) should run consecutive steps, as balanced as their
 * number allows, while the whole plan runs every step equally often over
 * whole cycles.  Block (slot j, boot i, both counted from 0) takes step
 * (j x c + i) mod S, S = S_c x S_w: with c = boots mod S that numbers the
 * blocks slot by slot (j x boots + i), so the plan's blocks take
 * consecutive steps; when the boots are whole cycles (boots mod S = 0)
 * every slot is balanced by itself and c = 1 moves each next block of a
 * boot one step on, so that a boot does not repeat one order in all its
 * blocks.  The seed draws a labelling per topology: which
 * combo (per workload) and which workload is treatment 0, 1, ...
 */
struct williams {
	int combo_seqs, workload_seqs;
	int *combo_seq, *workload_seq;   /* the designs, williams_sequences() */
	int *combo_label, *workload_label; /* per topology: treatment -> combo, workload */
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		perror(PROG);
		exit(1);
	}
	return p;
}

static void williams_init(struct williams *w)
{
	int nc = m.nr_combos, nw = m.nr_workloads;

	w->combo_seq = xcalloc((size_t)2 * nc * nc, sizeof(int));
	w->workload_seq = xcalloc((size_t)2 * nw * nw, sizeof(int));
	w->combo_seqs = williams_sequences(nc, w->combo_seq);
	w->workload_seqs = williams_sequences(nw, w->workload_seq);
	w->combo_label = xcalloc((size_t)m.nr_topologies * nw * nc, sizeof(int));
	w->workload_label = xcalloc((size_t)m.nr_topologies * nw, sizeof(int));
	for (int t = 0; t < m.nr_topologies; t++) {
		int *wl = w->workload_label + t * nw;

		for (int i = 0; i < nw; i++)
			wl[i] = i;
		shuffle(wl, nw);
		for (int k = 0; k < nw; k++) {
			int *cl = w->combo_label + (t * nw + k) * nc;

			for (int i = 0; i < nc; i++)
				cl[i] = i;
			shuffle(cl, nc);
		}
	}
}

/* The block in slot SLOT (0, 1, ...) of boot BOOT (1, 2, ...) of topology
 * t: its cells (combo x workloads + workload) in order. */
static void williams_block(const struct williams *w, int t, long slot, long boot, int *order)
{
	int nc = m.nr_combos, nw = m.nr_workloads, k = 0;
	long steps = (long)w->combo_seqs * w->workload_seqs;
	long c = m.boots % steps ? m.boots % steps : 1, x = (slot * c + boot - 1) % steps;
	const int *cs = w->combo_seq + (x % w->combo_seqs) * nc;
	const int *ws = w->workload_seq + (x / w->combo_seqs) * nw;

	for (int pw = 0; pw < nw; pw++) {
		int wl = w->workload_label[t * nw + ws[pw]];

		for (int pc = 0; pc < nc; pc++)
			order[k++] = w->combo_label[(t * nw + wl) * nc + cs[pc]] * nw + wl;
	}
}

static void williams_free(struct williams *w)
{
	free(w->combo_seq);
	free(w->workload_seq);
	free(w->combo_label);
	free(w->workload_label);
}

static void topology_text(const struct topology *t, char *out, size_t size)
{
	snprintf(out, size, "%dx%dx%d", t->sockets, t->cores, t->threads);
}

/* A boot, and duty's calibration in it for each wss (matrix-exec.sh). */
static long long boot_estimate_ms(void)
{
	long long ms = EST_BOOT_MS;

	for (int i = 0; i < m.nr_workloads; i++) {
		const struct workload *w = &m.workloads[i];
		int first = w->mode == MODE_DUTY;

		for (int j = 0; j < i && first; j++)
			first = m.workloads[j].mode != MODE_DUTY || m.workloads[j].opts.wss != w->opts.wss;
		ms += first ? EST_CALIBRATE_MS : 0;
	}
	return ms;
}

/* The run's cost: what it waits for and what its workload really takes. */
static long long run_estimate_ms(const struct workload *w)
{
	long long work = m.duration_ms;

	if (!strcmp(w->kind, "crash"))
		return EST_CRASH_REBOOT_MS;
	if (w->tool) {
		/* Invocations until the duration is up: the one running then
		 * ends the run, about one invocation late on average (their
		 * times vary fivefold under TCG, and a long one is the likelier
		 * to be running): 1.0 s with quick.matrix's 1.3 s invocations.
		 * cyclictest: its duration, then its histogram read. */
		work = m.duration_ms + (invocation_ms(w) ? invocation_ms(w) : EST_CYCLICTEST_HIST_MS);
	} else if (!strcmp(w->kind, "rt-app")) {
		work = w->rtapp_duration_s * 1000 +
		       (w->rtapp_calibrates ? EST_RTAPP_CALIBRATION_MS : 0);
	}
	return m.settle_ms + work + EST_RUN_OVERHEAD_MS;
}

/*
 * --shard K/N: the boots of every topology dealt round-robin to N shards
 * (boot B to shard (B-1) % N + 1), so a shard holds whole repetition
 * blocks, hence every cell, of every topology.  The seeded order and the
 * seq numbers stay the whole plan's: a shard is a subset of it, and the N
 * shards together are the plan, each run once.  shard_n 0: no shard.
 */
static long shard_k, shard_n;

static int in_shard(long boot)
{
	return !shard_n || (boot - 1) % shard_n == shard_k - 1;
}

static int parse_shard(const char *s)
{
	const char *slash = strchr(s, '/');
	unsigned long long k, n;
	char text[16];

	if (!slash || (size_t)(slash - s) >= sizeof(text))
		return -1;
	memcpy(text, s, (size_t)(slash - s));
	text[slash - s] = '\0';
	if (parse_uint(text, 10000, &k) || parse_uint(slash + 1, 10000, &n) || k < 1 || k > n)
		return -1;
	shard_k = (long)k;
	shard_n = (long)n;
	return 0;
}

/*
 * The estimated duration of the plan (whole) or of its shard: each boot
 * of every topology, then its repetition blocks, each block every cell
 * once; boot B holds reps / boots blocks, one more if B <= reps % boots.
 */
static long long plan_estimate_ms(int whole)
{
	long long block = 0, ms = 0;

	for (int i = 0; i < m.nr_workloads; i++)
		block += run_estimate_ms(&m.workloads[i]);
	block *= m.nr_combos;
	for (long boot = 1; boot <= m.boots; boot++)
		if (whole || in_shard(boot))
			ms += boot_estimate_ms() + block * (m.reps / m.boots + (m.reps % m.boots >= boot));
	return ms * m.nr_topologies;
}

/* "4m09s", "2h05m00s", "3d04h05m": run/matrix's hms() spells them alike. */
static void duration_text(long long s, char *out, size_t size)
{
	if (s >= 24 * 3600)
		snprintf(out, size, "%lldd%02lldh%02lldm", s / 86400, s / 3600 % 24, s / 60 % 60);
	else if (s >= 3600)
		snprintf(out, size, "%lldh%02lldm%02llds", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(out, size, "%lldm%02llds", s / 60, s % 60);
}

static void print_plan(void)
{
	int cells = m.nr_combos * m.nr_workloads;
	int *order = malloc(sizeof(int) * (size_t)cells);
	char feat[TEXT_MAX], topo[64];
	int seq = 0, runs = 0;
	struct williams williams = { 0 };

	if (!order) {
		perror("matrix-plan");
		exit(1);
	}
	printf("matrix\t%s\n", m.path);
	printf("name\t%s\n", m.name);
	printf("seed\t%llu\n", m.seed);
	printf("duration_ms\t%lld\n", m.duration_ms);
	printf("settle_ms\t%lld\n", m.settle_ms);
	printf("reps\t%ld\n", m.reps);
	printf("boots\t%ld\n", m.boots);
	/* The seeded labelling draws first, so order random's shuffles draw
	 * what they always did from the seed. */
	rng_state = m.seed;
	if (m.order == ORDER_WILLIAMS) {
		williams_init(&williams);
		printf("order\twilliams\t%d\t%d\n", williams.combo_seqs, williams.workload_seqs);
	} else {
		printf("order\trandom\n");
	}
	if (shard_n)
		printf("shard\t%ld\t%ld\nplan_runs\t%ld\n", shard_k, shard_n,
		       (long)m.nr_topologies * m.reps * cells);
	printf("counting\t%d\n", m.counting);
	if (m.accel_line)
		printf("accel\t%s\n", m.accel);
	if (m.pin_line)
		printf("pin_vcpus\t%s\n", m.pin);
	printf("trace\t%d\n", m.trace);
	for (int i = 0; i < m.nr_tunables; i++)
		printf("tunable\t%s\t%lu\n", m.tunables[i].name, m.tunables[i].value);
	for (int i = 0; i < m.nr_topologies; i++) {
		struct topology *t = &m.topologies[i];

		topology_text(t, topo, sizeof(topo));
		if (t->plain)
			printf("topology\t%s\t--smp\t%d\n", topo, t->cores);
		else
			printf("topology\t%s\t--topology\t%d,%d,%d\n", topo, t->sockets, t->cores,
			       t->threads);
	}
	for (int i = 0; i < m.nr_combos; i++) {
		features_text(m.combos[i].bits, feat, sizeof(feat));
		printf("combo\t%s\t%s\n", m.combos[i].name, feat);
		if (m.combos[i].replicate_of >= 0)
			printf("replicate\t%s\t%s\n", m.combos[i].name,
			       m.combos[m.combos[i].replicate_of].name);
	}
	print_fractions();
	for (int i = 0; i < m.nr_compares; i++)
		printf("compare\t%s\t%s\n", m.compares[i].a, m.compares[i].b);
	for (int i = 0; i < m.nr_workloads; i++) {
		const struct workload *w = &m.workloads[i];
		const char *base = strrchr(w->file, '/');

		printf("workload\t%s\n", w->text);
		/* The guest stores each file under a name of its own (the
		 * workload's index): a/x.json and b/x.json must not collide. */
		if (w->file[0])
			printf("file\t%s\t%s\tw%d-%s\n", w->text, w->file, i + 1,
			       base ? base + 1 : w->file);
	}

	/*
	 * Interleave: within each repetition block every cell (combo x
	 * workload) runs once, in the order of a Williams design (order
	 * williams, williams_block) or in a fresh seeded shuffle (order
	 * random), so slow drift of the host and of the boot is spread over
	 * every cell alike.  The blocks are spread over m.boots boots per
	 * topology, whole, as evenly as possible (the first reps % boots boots
	 * hold one block more): the last field of a run record is its boot
	 * within the topology, 1..boots.
	 */
	for (int t = 0; t < m.nr_topologies; t++) {
		long boot = 1, slot = 0, left_in_boot = m.reps / m.boots + (m.reps % m.boots > 0);

		topology_text(&m.topologies[t], topo, sizeof(topo));
		for (long rep = 1; rep <= m.reps; rep++, slot++) {
			if (left_in_boot-- == 0) {
				boot++;
				slot = 0;
				left_in_boot = m.reps / m.boots + (m.reps % m.boots >= boot) - 1;
			}
			if (m.order == ORDER_WILLIAMS) {
				williams_block(&williams, t, slot, boot, order);
			} else {
				for (int i = 0; i < cells; i++)
					order[i] = i;
				shuffle(order, cells);
			}
			for (int i = 0; i < cells; i++) {
				struct combo *c = &m.combos[order[i] / m.nr_workloads];
				struct workload *w = &m.workloads[order[i] % m.nr_workloads];

				if (seq++, !in_shard(boot))
					continue;
				runs++;
				features_text(c->bits, feat, sizeof(feat));
				printf("run\t%d\t%s\t%s\t%s\t%ld\t%s\t%ld\n", seq, topo, c->name,
				       feat, rep, w->text, boot);
			}
		}
	}
	printf("runs\t%d\n", runs);
	printf("estimate_s\t%lld\n", (plan_estimate_ms(0) + 999) / 1000);
	williams_free(&williams);
	free(order);
}

/*
 * --workloads KIND,...: drop the file's workload lines of other kinds, so
 * one workload of a large matrix can be run alone (its plan, seeds and
 * design are otherwise the file's).  Returns nonzero, having said why, when
 * a kind names none of the file's workloads or nothing would be left.
 */
static int keep_workload_kinds(const char *list)
{
	char kinds[TEXT_MAX], *kind, *save;
	int keep[MAX_WORKLOADS] = { 0 }, bad = 0, n = 0;

	if (strlen(list) >= sizeof(kinds)) {
		fprintf(stderr, PROG ": --workloads: too long\n");
		return 1;
	}
	strcpy(kinds, list);
	for (kind = strtok_r(kinds, ",", &save); kind; kind = strtok_r(NULL, ",", &save)) {
		int found = 0;

		for (int i = 0; i < m.nr_workloads; i++)
			if (!strcmp(m.workloads[i].kind, kind))
				keep[i] = found = 1;
		if (!found) {
			fprintf(stderr, PROG ": --workloads: the matrix has no '%s' workload\n", kind);
			bad = 1;
		}
	}
	for (int i = 0; i < m.nr_workloads; i++)
		if (keep[i])
			m.workloads[n++] = m.workloads[i];
	if (!bad && n == 0) {
		fprintf(stderr, PROG ": --workloads: no kind given\n");
		bad = 1;
	}
	if (!bad)
		m.nr_workloads = n;
	return bad;
}

static void usage(const struct opt_parser *p)
{
	(void)p;
	fputs("usage: matrix-plan [--smp SPEC] [--reps N] [--duration TIME] [--counting on|off]\n"
	      "                   [--workloads KIND,...] [--shard K/N] FILE.matrix\n"
	      "\n"
	      "Parses and validates FILE.matrix (every bad line is reported as\n"
	      "FILE:LINE: message), expands combos, factorial and fraction cells, replicates,\n"
	      "workloads and repetitions, orders each repetition block (order\n"
	      "williams, the default: each workload's runs together, its combos in\n"
	      "the order of a Williams design, the workloads' order another; order\n"
	      "random: a seeded shuffle of the block), and prints the plan, one\n"
	      "tab-separated record a line:\n"
	      "  matrix FILE | name NAME | seed N | duration_ms N | settle_ms N | reps N\n"
	      "  boots N | order williams COMBO_SEQUENCES WORKLOAD_SEQUENCES | order random\n"
	      "  counting 0|1 | accel tcg,thread=single|multi | pin_vcpus CPU,CPU...\n"
	      "  trace 0|1 | tunable NAME VALUE\n"
	      "  topology SxCxT --smp N|--topology S,C,T\n"
	      "  combo NAME FEATURES | replicate NAME COMBO (after its combo record)\n"
	      "  fraction K P RESOLUTION CELLS | factor LETTER FEATURE | generator X=WORD\n"
	      "  defining I=WORD=... | alias TERM ALIASES (each fraction's letters: every\n"
	      "  main effect, then each chain of two-factor interactions once; ALIASES\n"
	      "  the words of at most two letters it is aliased with, space-separated, - none)\n"
	      "  compare COMBO REFERENCE (run/stats --power --plan sizes its family)\n"
	      "  workload TEXT | file TEXT HOSTPATH GUESTNAME\n"
	      "  run SEQ TOPOLOGY COMBO FEATURES REP WORKLOAD BOOT | runs N | estimate_s N\n"
	      "(BOOT: which of the topology's N boots holds the run's repetition block.)\n"
	      "pjtload workloads are checked by pjtload's own parser against each\n"
	      "topology's vCPUs; two workloads that parse the same are a duplicate.\n"
	      "--smp, --reps, --duration, --counting replace what the file says (--smp: all smp lines).\n"
	      "--workloads KIND,...: keep only the file's workload lines of these kinds\n"
	      "(duty, fork, hackbench, ...: the line's first word); a kind the file does not\n"
	      "have is refused.\n"
	      "--shard K/N: only the runs of the K-th of N shards (N at most boots): boot B\n"
	      "of every topology goes to shard (B-1) % N + 1, so each shard holds whole\n"
	      "repetition blocks; seq numbers and order are the whole plan's.  Adds the\n"
	      "records shard K N and plan_runs N (the whole plan's runs); runs and\n"
	      "estimate_s are the shard's.\n"
	      "-h, --help: this text; --version: the project's and the series' version.\n"
	      "Options may come before or after FILE.matrix, as --opt V or --opt=V; \"--\"\n"
	      "ends them.\n"
	      "A plan estimated above 24 h is printed with a warning on stderr; above 365 days\n"
	      "it is refused.  Every directive, its default and range: docs/matrix.md.\n"
	      "Exit: 0 plan printed, 1 out of memory or stdout not written, 2 bad file or usage.\n", stdout);
}

int main(int argc, char **argv)
{
	const char *smp_override = NULL, *reps_override = NULL, *duration_override = NULL;
	const char *counting_override = NULL, *shard_arg = NULL, *workloads_kept = NULL;
	const char *path;
	int usage_errors = 0;
	struct opt_parser opt;

	opt_init(&opt, PROG, "smp= reps= duration= counting= workloads= shard=", usage, argc - 1, argv + 1);
	while (opt_next(&opt)) {
		if (opt_is(&opt, "smp"))
			smp_override = opt.value;
		else if (opt_is(&opt, "reps"))
			reps_override = opt.value;
		else if (opt_is(&opt, "duration"))
			duration_override = opt.value;
		else if (opt_is(&opt, "counting"))
			counting_override = opt.value;
		else if (opt_is(&opt, "workloads"))
			workloads_kept = opt.value;
		else if (opt_is(&opt, "shard"))
			shard_arg = opt.value;
	}
	if (opt.noperands == 0)
		opt_error(PROG, "no matrix file given");
	if (opt.noperands > 1)
		opt_error(PROG, "one matrix file only, not %d", opt.noperands);
	path = opt.operands[0];

	m.duration_ms = 10000;
	m.settle_ms = 1000;
	m.reps = 5;
	m.boots = 1;
	m.order = ORDER_WILLIAMS;
	m.seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
	if (parse_file(path))
		return 2;

	/* Overrides: checked with the file's rules, reported against the option. */
	{
		int file_errors = nr_errors;
		char *one[2];

		if (smp_override) {
			struct topology t;
			char why[TEXT_MAX + 64];

			if (parse_smp(smp_override, &t, why, sizeof(why))) {
				fprintf(stderr, PROG ": --smp: %s\n", why);
				usage_errors++;
			} else {
				m.topologies[0] = t;
				m.nr_topologies = 1;
			}
		}
		if (reps_override) {
			one[0] = "reps";
			one[1] = (char *)reps_override;
			m.reps_line = 0;
			do_reps(0, 2, one);
		}
		if (counting_override) {
			one[0] = "counting";
			one[1] = (char *)counting_override;
			m.counting_line = 0;
			do_counting(0, 2, one);
		}
		if (duration_override) {
			one[0] = "duration";
			one[1] = (char *)duration_override;
			m.duration_line = 0;
			do_duration(0, 2, one);
		}
		if (workloads_kept && keep_workload_kinds(workloads_kept))
			usage_errors++;
		for (int i = file_errors; i < nr_errors; i++) {
			fprintf(stderr, PROG ": --%s\n", errors[i].text);
			usage_errors++;
		}
		nr_errors = file_errors;
	}
	if (m.nr_topologies == 0) {
		m.topologies[0] = (struct topology){ 1, 4, 1, 1, 0 };
		m.nr_topologies = 1;
	}
	if (m.boots > m.reps)
		error_at(m.boots_line, "boots %ld > reps %ld: a boot holds whole repetition blocks "
			 "(each block runs every cell once)", m.boots, m.reps);
	if (shard_arg && parse_shard(shard_arg)) {
		fprintf(stderr, PROG ": --shard '%s': want K/N, whole numbers with 1 <= K <= N\n",
			shard_arg);
		usage_errors++;
	} else if (shard_n > m.boots) {
		fprintf(stderr, PROG ": --shard %s: a shard is whole boots and the plan has %ld "
			"per topology, so N is at most %ld (more shards: raise boots in %s, up to reps)\n",
			shard_arg, m.boots, m.boots, path);
		usage_errors++;
	}
	if (usage_errors) /* after the options' errors, each "matrix-plan: --OPTION..." */
		fprintf(stderr, PROG ": see " PROG " --help\n");
	check_workloads();

	qsort(errors, (size_t)nr_errors, sizeof(errors[0]), error_cmp);
	for (int i = 0; i < nr_errors; i++)
		fprintf(stderr, "%s:%d: %s\n", path, errors[i].line, errors[i].text);
	if (nr_errors || usage_errors)
		return 2;
	if ((long long)m.nr_topologies * m.reps * m.nr_combos * m.nr_workloads > MAX_RUNS) {
		fprintf(stderr, "%s:%d: more than %d runs; lower reps or cells\n", path,
			m.reps_line ? m.reps_line : m.last_line, MAX_RUNS);
		return 2;
	}
	{
		long long est_s = (plan_estimate_ms(1) + 999) / 1000;
		char text[64];

		duration_text(est_s, text, sizeof(text));
		if (est_s > MAX_PLAN_S) {
			fprintf(stderr, "%s:%d: the plan would take about %s (%lld days): more than %lld "
				"days is refused; lower reps, duration or cells\n", path,
				m.reps_line ? m.reps_line : m.last_line, text, est_s / 86400,
				MAX_PLAN_S / 86400);
			return 2;
		}
		if (est_s > WARN_PLAN_S)
			fprintf(stderr, PROG ": warning: %s: the plan's estimated duration is %s, more "
				"than %lld h (run/distribute --shards N spreads it over hosts)\n", path, text,
				WARN_PLAN_S / 3600);
	}
	print_plan();
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
