/*
 * matrix-plan: parse, validate and expand a feat-matrix file into the run
 * plan that run/matrix executes (see matrix-plan --help and INTERFACES.md).
 *
 * Every bad line is reported as FILE:LINE: message (all of them, in line
 * order) and nothing is printed on stdout; exit 2.  A good file gives one
 * tab-separated record a line on stdout.
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
#include <unistd.h>

#define MAX_COMBOS 256
#define MAX_WORKLOADS 64
#define MAX_TOPOLOGIES 16
#define MAX_TUNABLES 8
#define MAX_FACTORIALS 8
#define MAX_ERRORS 1000
#define MAX_RUNS 100000
#define MAX_VCPUS 64
#define TEXT_MAX 512

/* The project's feature bits, in the order the features column lists them. */
static const char *const project_bits[] = {
	"PJT_SHORT_TASKS", "PJT_BUSIEST", "PJT_IMBALANCE", "PJT_MOVE_TASKS",
	"PJT_IDLEST", "PJT_WAKE_AFFINE", "LEGACY_LOAD",
};
#define NR_BITS (sizeof(project_bits) / sizeof(project_bits[0]))

static const char *const tunable_names[] = { "pjt_short_load", "pjt_short_nr" };

/* Rough wall-clock costs for --dry-run's estimate (TCG guest, 2 host cores). */
#define EST_BOOT_MS 15000
#define EST_RUN_OVERHEAD_MS 1500
#define EST_CRASH_REBOOT_MS 15000

struct combo {
	char name[TEXT_MAX];
	unsigned bits;
	int line;
};

struct workload {
	char kind[32];
	char text[TEXT_MAX]; /* kind and args, single-spaced: the CSV value */
	char file[PATH_MAX]; /* rt-app: the JSON file on the host */
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
	unsigned long long seed;
	int seed_line;
	struct combo combos[MAX_COMBOS];
	int nr_combos;
	struct workload workloads[MAX_WORKLOADS];
	int nr_workloads;
	struct topology topologies[MAX_TOPOLOGIES];
	int nr_topologies;
	struct tunable tunables[MAX_TUNABLES];
	int nr_tunables;
	struct factorial factorials[MAX_FACTORIALS];
	int nr_factorials;
	int last_line;
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
		if (v > (max - (unsigned)(*s - '0')) / 10)
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

static const struct unit workload_time_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000ULL }, { NULL, 0 },
};

static const struct unit size_units[] = {
	{ "", 1 }, { "k", 1ULL << 10 }, { "m", 1ULL << 20 }, { "g", 1ULL << 30 }, { NULL, 0 },
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
	error_at(line, "unknown feature '%s' (known: PJT_SHORT_TASKS PJT_BUSIEST PJT_IMBALANCE "
		 "PJT_MOVE_TASKS PJT_IDLEST PJT_WAKE_AFFINE LEGACY_LOAD)", name);
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

static void do_reps(int line, int argc, char **argv)
{
	unsigned long long v;

	if (want_args(line, argc, 1, 1, "reps N") || once(line, "reps", &m.reps_line))
		return;
	if (parse_uint(argv[1], 10000, &v) || v == 0) {
		error_at(line, "reps '%s': want a whole number 1..10000", argv[1]);
		return;
	}
	m.reps = (long)v;
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
	if (m.nr_combos == MAX_COMBOS) {
		error_at(line, "more than %d combos", MAX_COMBOS);
		return;
	}
	snprintf(m.combos[m.nr_combos].name, TEXT_MAX, "%s", argv[1]);
	m.combos[m.nr_combos].bits = bits;
	m.combos[m.nr_combos++].line = line;
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
 * Factorial cells join the explicit combos after the whole file is read.  A
 * cell whose bit set an existing combo already has is that combo (the name
 * the matrix chose wins, it is measured once); a cell whose name is taken by
 * a combo with other bits is an error.
 */
static void expand_factorials(void)
{
	for (int i = 0; i < m.nr_factorials; i++) {
		struct factorial *f = &m.factorials[i];

		for (unsigned mask = 0; mask < (1u << f->n); mask++) {
			char name[TEXT_MAX] = "";
			unsigned bits = 0;
			struct combo *c;
			int same_bits = 0;

			for (int k = 0; k < f->n; k++) {
				if (!(mask & (1u << k)))
					continue;
				bits |= 1u << f->bits[k];
				if (name[0])
					strcat(name, "+");
				strcat(name, project_bits[f->bits[k]]);
			}
			if (!name[0])
				strcpy(name, "stock");
			c = find_combo_name(name);
			if (c && c->bits != bits) {
				error_at(f->line, "factorial cell '%s' has other bits than combo '%s' "
					 "(line %d)", name, name, c->line);
				continue;
			}
			for (int k = 0; k < m.nr_combos; k++)
				same_bits |= m.combos[k].bits == bits;
			if (c || same_bits)
				continue;
			if (m.nr_combos == MAX_COMBOS) {
				error_at(f->line, "more than %d combos", MAX_COMBOS);
				return;
			}
			snprintf(m.combos[m.nr_combos].name, TEXT_MAX, "%s", name);
			m.combos[m.nr_combos].bits = bits;
			m.combos[m.nr_combos++].line = f->line;
		}
	}
}

static void do_tunable(int line, int argc, char **argv)
{
	const char *name = NULL;
	unsigned long long v;

	if (want_args(line, argc, 2, 2, "tunable NAME VALUE"))
		return;
	for (unsigned i = 0; i < sizeof(tunable_names) / sizeof(tunable_names[0]); i++)
		if (!strcmp(argv[1], tunable_names[i]))
			name = tunable_names[i];
	if (!name) {
		error_at(line, "unknown tunable '%s' (known: pjt_short_load pjt_short_nr)", argv[1]);
		return;
	}
	for (int i = 0; i < m.nr_tunables; i++) {
		if (m.tunables[i].name == name) {
			error_at(line, "tunable %s given twice (first at line %d)", name,
				 m.tunables[i].line);
			return;
		}
	}
	if (parse_uint(argv[2], UINT32_MAX, &v)) {
		error_at(line, "tunable %s: '%s' is not a whole number 0..%u", name, argv[2],
			 (unsigned)UINT32_MAX);
		return;
	}
	m.tunables[m.nr_tunables].name = name;
	m.tunables[m.nr_tunables].value = (unsigned long)v;
	m.tunables[m.nr_tunables++].line = line;
}

enum value_kind { V_COUNT, V_PERCENT, V_TIME, V_SIZE, V_CPUS, V_BOOL, V_UINT, V_VIA };

struct key_rule {
	const char *key;
	enum value_kind kind;
	unsigned long long max;
};

struct kind_rule {
	const char *kind;
	const struct key_rule *keys;
	const char *required[3];
};

static const struct key_rule duty_keys[] = {
	{ "threads", V_COUNT, 4096 }, { "duty", V_PERCENT, 100 }, { "period", V_TIME, 0 },
	{ "wss", V_SIZE, 0 }, { "seed", V_UINT, UINT32_MAX }, { "cpus", V_CPUS, 0 },
	{ "per_thread", V_BOOL, 1 }, { "calibrate", V_BOOL, 1 }, { NULL, 0, 0 },
};
static const struct key_rule calibrate_keys[] = {
	{ "wss", V_SIZE, 0 }, { "seed", V_UINT, UINT32_MAX }, { "cpus", V_CPUS, 0 },
	{ NULL, 0, 0 },
};
static const struct key_rule pingpong_keys[] = {
	{ "pairs", V_COUNT, 4096 }, { "via", V_VIA, 0 }, { "cpus", V_CPUS, 0 },
	{ "per_thread", V_BOOL, 1 }, { NULL, 0, 0 },
};
static const struct key_rule fork_keys[] = {
	{ "rate", V_UINT, 1000000 }, { "cpus", V_CPUS, 0 }, { NULL, 0, 0 },
};
static const struct key_rule hackbench_keys[] = {
	{ "groups", V_COUNT, 1000 }, { "loops", V_COUNT, 10000000 }, { "pipe", V_BOOL, 1 },
	{ NULL, 0, 0 },
};
static const struct key_rule no_keys[] = { { NULL, 0, 0 } };

static const struct kind_rule kinds[] = {
	{ "duty", duty_keys, { NULL } },
	{ "calibrate", calibrate_keys, { NULL } },
	{ "pingpong", pingpong_keys, { NULL } },
	{ "fork", fork_keys, { NULL } },
	{ "hackbench", hackbench_keys, { "groups", "loops", NULL } },
	{ "crash", no_keys, { NULL } },
	{ NULL, NULL, { NULL } },
};

static int valid_cpus(const char *s)
{
	/* A range or single CPU: commas would split the CSV cell. */
	size_t a = strspn(s, "0123456789");

	if (a == 0)
		return 0;
	if (!s[a])
		return 1;
	if (s[a] != '-')
		return 0;
	return strspn(s + a + 1, "0123456789") > 0 && !s[a + 1 + strspn(s + a + 1, "0123456789")] &&
	       atoi(s) <= atoi(s + a + 1);
}

static int check_value(int line, const char *kind, const struct key_rule *r, const char *v)
{
	unsigned long long x;

	switch (r->kind) {
	case V_COUNT:
		if (!parse_uint(v, r->max, &x) && x > 0)
			return 0;
		error_at(line, "%s %s='%s': want a whole number 1..%llu", kind, r->key, v, r->max);
		return -1;
	case V_PERCENT:
		if (!parse_uint(v, r->max, &x) && x > 0)
			return 0;
		error_at(line, "%s %s='%s': want a percentage 1..100", kind, r->key, v);
		return -1;
	case V_UINT:
		if (!parse_uint(v, r->max, &x))
			return 0;
		error_at(line, "%s %s='%s': want a whole number 0..%llu", kind, r->key, v, r->max);
		return -1;
	case V_BOOL:
		if (!strcmp(v, "0") || !strcmp(v, "1"))
			return 0;
		error_at(line, "%s %s='%s': want 0 or 1", kind, r->key, v);
		return -1;
	case V_TIME:
		if (!parse_with_unit(v, workload_time_units, DAY_MS * 1000000ULL, &x) && x > 0)
			return 0;
		error_at(line, "%s %s='%s': want a time > 0 with a unit (ns, us, ms, s), e.g. 10ms",
			 kind, r->key, v);
		return -1;
	case V_SIZE:
		if (!parse_with_unit(v, size_units, 1ULL << 40, &x) && x > 0)
			return 0;
		error_at(line, "%s %s='%s': want a size > 0 in bytes or with k, m, g, e.g. 16k",
			 kind, r->key, v);
		return -1;
	case V_VIA:
		if (!strcmp(v, "pipe") || !strcmp(v, "futex"))
			return 0;
		error_at(line, "%s %s='%s': want pipe or futex", kind, r->key, v);
		return -1;
	case V_CPUS:
		if (valid_cpus(v))
			return 0;
		error_at(line, "%s %s='%s': want a CPU or a range, e.g. 0-3", kind, r->key, v);
		return -1;
	}
	return -1;
}

static int check_rtapp(int line, int argc, char **argv, struct workload *w)
{
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
	if ((size_t)snprintf(w->file, sizeof(w->file), "%s%s%s", argv[2][0] == '/' ? "" : m.dir,
			     argv[2][0] == '/' ? "" : "/", argv[2]) >= sizeof(w->file)) {
		error_at(line, "rt-app file path too long");
		return -1;
	}
	if (access(w->file, R_OK)) {
		error_at(line, "rt-app file %s: %s", w->file, strerror(errno));
		return -1;
	}
	return 0;
}

static void do_workload(int line, int argc, char **argv)
{
	const struct kind_rule *k;
	struct workload w = { .line = line };
	int bad = 0;

	if (argc < 2) {
		error_at(line, "usage: workload KIND [key=value...]");
		return;
	}
	for (k = kinds; k->kind && strcmp(k->kind, argv[1]); k++)
		;
	if (!k->kind && strcmp(argv[1], "rt-app")) {
		error_at(line, "unknown workload '%s' (known: duty calibrate pingpong fork "
			 "hackbench rt-app crash)", argv[1]);
		return;
	}
	snprintf(w.kind, sizeof(w.kind), "%s", argv[1]);
	if (!k->kind) {
		bad = check_rtapp(line, argc, argv, &w);
	} else {
		for (int i = 2; i < argc; i++) {
			char key[64];
			const char *eq = strchr(argv[i], '=');
			const struct key_rule *r;
			int dup = 0;

			if (!eq || eq == argv[i] || (size_t)(eq - argv[i]) >= sizeof(key)) {
				error_at(line, "%s: '%s' is not key=value", argv[1], argv[i]);
				bad = 1;
				continue;
			}
			memcpy(key, argv[i], (size_t)(eq - argv[i]));
			key[eq - argv[i]] = 0;
			if (!strcmp(key, "duration")) {
				error_at(line, "%s: duration= comes from the 'duration' directive",
					 argv[1]);
				bad = 1;
				continue;
			}
			for (r = k->keys; r->key && strcmp(r->key, key); r++)
				;
			if (!r->key) {
				error_at(line, "%s: unknown option '%s'", argv[1], key);
				bad = 1;
				continue;
			}
			for (int j = 2; j < i; j++)
				dup |= !strncmp(argv[j], argv[i], (size_t)(eq - argv[i]) + 1);
			if (dup) {
				error_at(line, "%s: option '%s' given twice", argv[1], key);
				bad = 1;
				continue;
			}
			bad |= check_value(line, argv[1], r, eq + 1) != 0;
		}
		for (int q = 0; k->required[q]; q++) {
			int found = 0;

			for (int i = 2; i < argc; i++)
				found |= !strncmp(argv[i], k->required[q], strlen(k->required[q])) &&
					 argv[i][strlen(k->required[q])] == '=';
			if (!found) {
				error_at(line, "%s needs %s=", argv[1], k->required[q]);
				bad = 1;
			}
		}
	}
	if (bad)
		return;
	w.text[0] = 0;
	for (int i = 1; i < argc; i++) {
		if (strlen(w.text) + strlen(argv[i]) + 2 > sizeof(w.text)) {
			error_at(line, "workload line too long");
			return;
		}
		if (i > 1)
			strcat(w.text, " ");
		strcat(w.text, argv[i]);
	}
	for (int i = 0; i < m.nr_workloads; i++) {
		if (!strcmp(m.workloads[i].text, w.text)) {
			error_at(line, "duplicate workload (first at line %d)", m.workloads[i].line);
			return;
		}
	}
	if (m.nr_workloads == MAX_WORKLOADS) {
		error_at(line, "more than %d workloads", MAX_WORKLOADS);
		return;
	}
	m.workloads[m.nr_workloads++] = w;
}

struct directive {
	const char *name;
	void (*parse)(int line, int argc, char **argv);
};

static const struct directive directives[] = {
	{ "name", do_name }, { "smp", do_smp }, { "duration", do_duration },
	{ "reps", do_reps }, { "settle", do_settle }, { "seed", do_seed },
	{ "combo", do_combo }, { "factorial", do_factorial }, { "tunable", do_tunable },
	{ "workload", do_workload }, { NULL, NULL },
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
	/* Only smp's topology spells a comma; everywhere else it would split a CSV cell. */
	for (int i = 0; i < argc; i++) {
		for (const char *c = argv[i]; *c; c++) {
			if (*c == ',' && !strcmp(argv[0], "smp"))
				continue;
			if (!isprint((unsigned char)*c) || strchr(",'\"\\`$;|&<>(){}[]*?~!", *c)) {
				error_at(line, "character '%c' is not allowed in a matrix file word "
					 "(values end up in CSV cells and guest shell lines)",
					 isprint((unsigned char)*c) ? *c : '?');
				return;
			}
		}
	}
	for (d = directives; d->name && strcmp(d->name, argv[0]); d++)
		;
	if (!d->name) {
		error_at(line, "unknown directive '%s' (known: name smp duration reps settle seed "
			 "combo factorial tunable workload)", argv[0]);
		return;
	}
	d->parse(line, argc, argv);
}

static int parse_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	int line = 0;
	const char *slash, *base;
	size_t len;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	m.path = path;
	slash = strrchr(path, '/');
	/* rt-app files are named relative to the matrix file; the plan holds absolute paths. */
	if (realpath(path, m.dir) && strrchr(m.dir, '/'))
		*strrchr(m.dir, '/') = 0;
	while (getline(&buf, &cap, f) != -1)
		parse_line(++line, buf);
	free(buf);
	fclose(f);
	m.last_line = line;

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
	if (m.nr_combos == 0)
		error_at(line, "no 'combo' or 'factorial' line: nothing to compare");
	if (m.nr_workloads == 0)
		error_at(line, "no 'workload' line: nothing to run");
	return 0;
}

/* splitmix64: small, well mixed, and the same on every host. */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned rng_below(unsigned n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, r;

	do
		r = rng_next();
	while (r >= limit);
	return (unsigned)(r % n);
}

static void topology_text(const struct topology *t, char *out, size_t size)
{
	snprintf(out, size, "%dx%dx%d", t->sockets, t->cores, t->threads);
}

static long long run_estimate_ms(const struct workload *w)
{
	if (!strcmp(w->kind, "crash"))
		return EST_CRASH_REBOOT_MS;
	return m.settle_ms + m.duration_ms + EST_RUN_OVERHEAD_MS;
}

static void print_plan(void)
{
	int cells = m.nr_combos * m.nr_workloads;
	int *order = malloc(sizeof(int) * (size_t)cells);
	long long estimate = 0;
	char feat[TEXT_MAX], topo[64];
	int seq = 0;

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
	}
	for (int i = 0; i < m.nr_workloads; i++) {
		printf("workload\t%s\n", m.workloads[i].text);
		if (m.workloads[i].file[0])
			printf("file\t%s\t%s\n", m.workloads[i].text, m.workloads[i].file);
	}

	/*
	 * Interleave: within each repetition block every cell (combo x
	 * workload) runs once, in a fresh seeded shuffle, so slow drift of the
	 * host is spread over every cell alike.
	 */
	rng_state = m.seed;
	for (int t = 0; t < m.nr_topologies; t++) {
		topology_text(&m.topologies[t], topo, sizeof(topo));
		estimate += EST_BOOT_MS;
		for (long rep = 1; rep <= m.reps; rep++) {
			for (int i = 0; i < cells; i++)
				order[i] = i;
			for (int i = cells - 1; i > 0; i--) {
				int j = (int)rng_below((unsigned)i + 1), tmp = order[i];

				order[i] = order[j];
				order[j] = tmp;
			}
			for (int i = 0; i < cells; i++) {
				struct combo *c = &m.combos[order[i] / m.nr_workloads];
				struct workload *w = &m.workloads[order[i] % m.nr_workloads];

				features_text(c->bits, feat, sizeof(feat));
				printf("run\t%d\t%s\t%s\t%s\t%ld\t%s\n", ++seq, topo, c->name, feat,
				       rep, w->text);
				estimate += run_estimate_ms(w);
			}
		}
	}
	printf("runs\t%d\n", seq);
	printf("estimate_s\t%lld\n", (estimate + 999) / 1000);
	free(order);
}

static void usage(FILE *out)
{
	fputs("usage: matrix-plan [--smp SPEC] [--reps N] [--duration TIME] FILE.matrix\n"
	      "\n"
	      "Parses and validates FILE.matrix (every bad line is reported as\n"
	      "FILE:LINE: message), expands combos, factorial cells, workloads and\n"
	      "repetitions, orders each repetition block by a seeded shuffle, and\n"
	      "prints the plan, one tab-separated record a line:\n"
	      "  matrix FILE | name NAME | seed N | duration_ms N | settle_ms N | reps N\n"
	      "  tunable NAME VALUE | topology SxCxT --smp N|--topology S,C,T\n"
	      "  combo NAME FEATURES | workload TEXT | file TEXT HOSTPATH\n"
	      "  run SEQ TOPOLOGY COMBO FEATURES REP WORKLOAD | runs N | estimate_s N\n"
	      "--smp, --reps, --duration replace what the file says (--smp: all smp lines).\n"
	      "Exit: 0 plan printed, 2 bad file or usage.\n", out);
}

int main(int argc, char **argv)
{
	const char *smp_override = NULL, *reps_override = NULL, *duration_override = NULL;
	const char *path = NULL;
	int usage_errors = 0;

	for (int i = 1; i < argc; i++) {
		const char **dst = NULL;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--smp"))
			dst = &smp_override;
		else if (!strcmp(argv[i], "--reps"))
			dst = &reps_override;
		else if (!strcmp(argv[i], "--duration"))
			dst = &duration_override;
		if (dst) {
			if (++i == argc) {
				fprintf(stderr, "matrix-plan: %s needs a value\n", argv[i - 1]);
				return 2;
			}
			*dst = argv[i];
		} else if (argv[i][0] == '-' || path) {
			fprintf(stderr, "matrix-plan: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		usage(stderr);
		return 2;
	}

	m.duration_ms = 10000;
	m.settle_ms = 1000;
	m.reps = 5;
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
				fprintf(stderr, "matrix-plan: --smp: %s\n", why);
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
		if (duration_override) {
			one[0] = "duration";
			one[1] = (char *)duration_override;
			m.duration_line = 0;
			do_duration(0, 2, one);
		}
		for (int i = file_errors; i < nr_errors; i++) {
			fprintf(stderr, "matrix-plan: --%s\n", errors[i].text);
			usage_errors++;
		}
		nr_errors = file_errors;
	}
	if (m.nr_topologies == 0) {
		m.topologies[0] = (struct topology){ 1, 4, 1, 1, 0 };
		m.nr_topologies = 1;
	}

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
	print_plan();
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
