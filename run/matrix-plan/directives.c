/* matrix-plan: the plan's directives (name, smp, duration, settle, reps,
 * boots, counting, trace, seed, order, tunable, accel, pin-vcpus, compare)
 * and the cells: combo, factorial, replicate. */
#include "matrix-plan.h"

/* The kernel tunables a matrix may set, with the ranges the kernel accepts. */
static const struct tunable_rule {
	const char *name;
	unsigned long long min, max;
} tunable_rules[] = { PJT_CONTRACT_TUNABLES };

void do_name(int line, int argc, char **argv)
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
int parse_smp(const char *s, struct topology *t, char *why, size_t whysize)
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

void do_smp(int line, int argc, char **argv)
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

void do_duration(int line, int argc, char **argv)
{
	if (want_args(line, argc, 1, 1, "duration TIME (e.g. 10s)") ||
	    once(line, "duration", &m.duration_line))
		return;
	parse_matrix_time(line, "duration", argv[1], 0, &m.duration_ms);
}

void do_settle(int line, int argc, char **argv)
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

void do_reps(int line, int argc, char **argv)
{
	count_directive(line, argc, argv, &m.reps_line, &m.reps);
}

/* boots N: the repetition blocks spread over N boots per topology. */
void do_boots(int line, int argc, char **argv)
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
void do_counting(int line, int argc, char **argv)
{
	on_off_directive(line, argc, argv, &m.counting_line, &m.counting);
}

/*
 * trace on|off: record the series' trace events in every run (each pull,
 * each CPU's load at each tick) into the results folder's traces/.  Off
 * (the default), the events stay disabled: one static-key test each.
 */
void do_trace(int line, int argc, char **argv)
{
	on_off_directive(line, argc, argv, &m.trace_line, &m.trace);
}

void do_seed(int line, int argc, char **argv)
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
int parse_bits(int line, int n, char **names, unsigned *mask, unsigned *order)
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

void do_combo(int line, int argc, char **argv)
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
void do_replicate(int line, int argc, char **argv)
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
void resolve_replicates(void)
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
void do_order(int line, int argc, char **argv)
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

void do_factorial(int line, int argc, char **argv)
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
int add_cell(int line, const char *what, const unsigned *bits_of, int n, unsigned letters)
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

void expand_factorials(void)
{
	for (int i = 0; i < m.nr_factorials; i++) {
		struct factorial *f = &m.factorials[i];

		for (unsigned mask = 0; mask < (1u << f->n); mask++)
			if (add_cell(f->line, "factorial", f->bits, f->n, mask))
				return;
	}
}

/* tunable NAME VALUE: a kernel tunable of run/contract/tunables, set in the
 * guest before every run. */
void do_tunable(int line, int argc, char **argv)
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

/* accel thread=single|thread=multi: TCG's threading (run/boot --accel). */
void do_accel(int line, int argc, char **argv)
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
void do_pin(int line, int argc, char **argv)
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
void do_compare(int line, int argc, char **argv)
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

void check_compares(void)
{
	for (int i = 0; i < m.nr_compares; i++)
		for (int side = 0; side < 2; side++) {
			const char *name = side ? m.compares[i].b : m.compares[i].a;

			if (!find_combo_name(name))
				error_at(m.compares[i].line, "compare: no combo or factorial cell is named '%s'",
					 name);
		}
}
