/* What report.md and report.html say (doc.c writes both): the verdict,
 * the RFC beside ours, per-workload tables and charts, what was run,
 * excluded runs; each number once. */
#include "pjt-stats.h"
#include "doc.h"
#include "drift.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Readable numbers: thousands separators for large values, a few
 * significant digits otherwise. */
static char *human(double v)
{
	char buf[64];

	if (isnan(v))
		return xstrdup("-");
	if (isinf(v))
		return xstrdup(v > 0 ? "inf" : "-inf");
	if (fabs(v) >= 1000) {
		char digits[64], *out = buf;
		int len, lead;

		snprintf(digits, sizeof(digits), "%.0f", fabs(v));
		len = strlen(digits);
		lead = len % 3 ? len % 3 : 3;
		if (v < 0)
			*out++ = '-';
		for (int i = 0; i < len; i++) {
			if (i && (i - lead) % 3 == 0)
				*out++ = ',';
			*out++ = digits[i];
		}
		*out = '\0';
	} else {
		snprintf(buf, sizeof(buf), "%.4g", v);
	}
	return xstrdup(buf);
}

/* Units, level and n are said once per table, in the line above it; a
 * cell of other units says its own. */

/* "Median [96.14% interval] of n=12 runs": the header of a table of medians. */
static char *median_units(int n)
{
	double level;
	char *l, *text;

	if (n < 2)
		return xasprintf("Median of n=%d run%s (no interval)", n, n == 1 ? "" : "s");
	median_interval_rank(n, &level);
	l = format_level(level);
	text = xasprintf("Median [%s interval] of n=%d runs", l, n);
	free(l);
	return text;
}

/* "165 [140, 201]"; "(n=11, 93.46%)" added when the cell has other than
 * the table's n. */
static char *median_cell(const struct sample *s, int table_n)
{
	char *m, *level, *own, *cell;

	if (!s->n)
		return xstrdup("-");
	m = human(s->median);
	level = format_level(s->ci.level);
	own = s->n == table_n ? xstrdup("") : isnan(s->ci.lo) ? xasprintf(" (n=%d)", s->n)
		: xasprintf(" (n=%d, %s)", s->n, level);
	if (isnan(s->ci.lo)) {
		cell = xasprintf("%s%s", m, own);
	} else {
		char *lo = human(s->ci.lo), *hi = human(s->ci.hi);

		cell = xasprintf("%s [%s, %s]%s", m, lo, hi, own);
		free(lo);
		free(hi);
	}
	free(own);
	free(level);
	free(m);
	return cell;
}

/* The most runs any of the cells has: a table's n. */
static void note_n(int *table_n, const struct sample *s)
{
	if (s->n > *table_n)
		*table_n = s->n;
}

static char *ratio_number(double v)
{
	return isfinite(v) ? xasprintf("%.3f", v) : xstrdup(isinf(v) ? "unbounded" : "-");
}

/* The units of a set of comparisons, the most any has: a table's, said
 * once in the line above it. */
struct units {
	int n;
	const char *unit;
	double level;
};

static void note_units(struct units *u, const struct comparison *c)
{
	/* a count 0 on one side has no interval: its units, not its level */
	if (c && (c->n_units > u->n || (c->n_units == u->n && isnan(u->level) && !isnan(c->level)))) {
		u->n = c->n_units;
		u->unit = c->unit;
		u->level = c->level;
	}
}

/* "[96.14% interval] over 12 boots" */
static char *units_text(const struct units *u)
{
	char *l, *text;

	if (!u->n)
		return xstrdup("(no units)");
	if (isnan(u->level))
		return xasprintf("over %d %s%s (no interval)", u->n, u->unit, u->n == 1 ? "" : "s");
	l = format_level(u->level);
	text = xasprintf("[%s interval] over %d %ss", l, u->n, u->unit);
	free(l);
	return text;
}

/* Notes of a table's cells, each once below it: a mark in the cell. */
struct notes {
	int n;
	const char *text[4];
};
static const char *const note_marks[4] = { "†", "‡", "§", "¶" };

static char *note_mark(struct notes *nl, const char *note)
{
	if (!note || !*note)
		return xstrdup("");
	for (int i = 0; i < nl->n; i++)
		if (!strcmp(nl->text[i], note))
			return xasprintf(" %s", note_marks[i]);
	if (nl->n < 4) {
		nl->text[nl->n] = note;
		return xasprintf(" %s", note_marks[nl->n++]);
	}
	return xasprintf(" (%s)", note);
}

static void notes_para(struct doc *d, const struct notes *nl)
{
	for (int i = 0; i < nl->n; i++) {
		char *text = xasprintf("%s %s.", note_marks[i], nl->text[i]);

		para(d, text);
		free(text);
	}
}

/* "Holm p=0.0312" (a primary endpoint), "fixed-sequence p=0.0078" (a
 * secondary of a declared comparison) or "p=0.0078" (marginal) */
static char *test_text(const struct comparison *c)
{
	return c->secondary ? xasprintf("fixed-sequence p=%.3g", c->q)
		: c->confirmatory ? xasprintf("Holm p=%.3g", c->q) : xasprintf("p=%.3g", c->p);
}

/* ", Holm p=0.0312" or ", p=0.0078" after zero_side_text's "0 against 46";
 * "" when both are 0 (no test) */
static char *zero_side_test(const struct comparison *c)
{
	char *test, *text;

	if (c->zero_side == ZERO_BOTH)
		return xstrdup("");
	test = test_text(c);
	text = xasprintf(", %s", test);
	free(test);
	return text;
}

/* "0.400 [0.350, 0.450], Holm p=0.004 *": a comparison in a table whose
 * header line gives its units and level; a cell of other units says its
 * own ("(10 boots, 97.85%)"), a note is a mark (notes_para). */
static char *comparison_cell(const struct comparison *c, int is_ratio, const struct units *u,
			     struct notes *nl)
{
	char *v, *own, *mark, *cell;

	if (!c)
		return xstrdup("-");
	if (c->zero_side) {
		char *sides = zero_side_text(c), *test = zero_side_test(c);

		cell = xasprintf("%s%s%s", sides, test, c->sig ? " *" : "");
		free(sides);
		free(test);
		return cell;
	}
	if (isnan(c->value) && isnan(c->level))
		return xasprintf("- (%s)", *c->note ? c->note : "no value");
	v = is_ratio ? ratio_number(c->value) : human(c->value);
	mark = note_mark(nl, c->note);
	if (c->n_units == u->n) {
		own = xstrdup("");
	} else {
		char *level = format_level(c->level);

		own = isnan(c->level) ? xasprintf(" (%d %s%s)", c->n_units, c->unit, c->n_units == 1 ? "" : "s")
			: xasprintf(" (%d %ss, %s)", c->n_units, c->unit, level);
		free(level);
	}
	if (isnan(c->level)) {
		cell = xasprintf("%s%s%s", v, own, mark);
	} else {
		char *lo = is_ratio ? ratio_number(c->lo) : human(c->lo);
		char *hi = is_ratio ? ratio_number(c->hi) : human(c->hi);
		char *test = isnan(c->p) ? xstrdup(", no test") : zero_side_test(c);

		cell = xasprintf("%s [%s, %s]%s%s%s%s", v, lo, hi, test, c->sig ? " *" : "", own, mark);
		free(lo);
		free(hi);
		free(test);
	}
	free(v);
	free(own);
	free(mark);
	return cell;
}

/* Does a design's main effect carry q (adjust_main_effects)?  Then the
 * words "not adjusted" must leave it out. */
static int main_effects_adjusted(const struct analysis *a)
{
	for (int s = 0; s < a->nstudies; s++)
		for (int e = 0; e < a->studies[s].neffects; e++)
			if (!isnan(a->studies[s].effects[e].c.q))
				return 1;
	return 0;
}

static const char *main_effects_q(const struct analysis *a)
{
	return main_effects_adjusted(a) ?
		       ", except that a design's main effects on one metric also carry q, Holm's adjustment over that design's bits only (one family per workload and metric, none between them)" :
		       "";
}

static char *star_legend(const struct analysis *a)
{
	if (!a->ndeclared)
		return xasprintf("No comparison is starred: the matrix declares none (compare lines), so every p and interval here is marginal, not adjusted%s.",
				 main_effects_q(a));
	return xasprintf("* = resolved: a primary endpoint (pulls) after Holm's adjustment at 5%% over the declared family of %d test%s (the matrix's compare lines x topologies x workloads; %d resolved), or a secondary in its fixed sequence after it (%d resolved). Every other p and interval is marginal, not adjusted%s, and never starred.",
			 a->family, a->family == 1 ? "" : "s", a->n_sig, a->n_sig_secondary, main_effects_q(a));
}

static void include_file(struct doc *d, const char *label, const char *name);
static void include_file(struct doc *d, const char *label, const char *name)
{
	char *path = xasprintf("%s/%s", d->dir, name);
	char *text = read_whole_file(path, NULL);
	char *line = xasprintf("%s (%s): %s", label, name, text && *text ? "" : "not recorded");

	para(d, line);
	if (text && *text)
		preformatted(d, text);
	free(line);
	free(text);
	free(path);
}

static void matrix_files(struct doc *d)
{
	DIR *dir = opendir(d->dir);
	struct dirent *e;
	int found = 0;

	while (dir && (e = readdir(dir))) {
		size_t len = strlen(e->d_name);

		if (len > 7 && !strcmp(e->d_name + len - 7, ".matrix")) {
			char *path = xasprintf("%s/%s", d->dir, e->d_name);
			char *text = read_whole_file(path, NULL);
			char *line = xasprintf("Matrix file %s:", e->d_name);

			para(d, line);
			preformatted(d, text ? text : "");
			found = 1;
			free(line);
			free(text);
			free(path);
		}
	}
	if (dir)
		closedir(dir);
	if (!found)
		para(d, "Matrix file: not recorded (no *.matrix in the results folder).");
}

/* The host's load during the runs, from the columns the runner records
 * per row (host_load1, host_cpu_busy), when runs.csv has them. */
static void host_load(struct doc *d, const struct analysis *a)
{
	static const char *const columns[] = { "host_load1", "host_cpu_busy" };

	for (int i = 0; i < 2; i++) {
		struct column_stats cs;
		char *text, *lo, *mid, *hi;

		column_summary(a->table, columns[i], &cs);
		if (!cs.n)
			continue;
		lo = human(cs.min);
		mid = human(cs.median);
		hi = human(cs.max);
		text = xasprintf("Host load during the runs (%s, %d runs): min %s, median %s, max %s.",
				 columns[i], cs.n, lo, mid, hi);
		para(d, text);
		free(text);
		free(lo);
		free(mid);
		free(hi);
	}
}

/* "0-1, 2-3": the CPUs of a span mask as ranges. */
static char *cpu_ranges(unsigned long long mask)
{
	char *text = xstrdup("");

	for (int cpu = 0; cpu < 64; cpu++) {
		int last = cpu;
		char *next;

		if (!(mask >> cpu & 1))
			continue;
		while (last + 1 < 64 && mask >> (last + 1) & 1)
			last++;
		next = last > cpu ? xasprintf("%s%s%d-%d", text, *text ? "," : "", cpu, last)
				  : xasprintf("%s%s%d", text, *text ? "," : "", cpu);
		free(text);
		text = next;
		cpu = last;
	}
	return text;
}

/*
 * The balancer's levels on each topology, from the results folder's
 * domains.txt ("topology=T cpu=N domain=M name=X span=HEX" per CPU and
 * level): the one parser of that file (run/trace-report reads its output
 * through pjt-stats --domains).
 */
enum { MAX_TOPOLOGIES = 8, MAX_LEVELS = 8, MAX_SPANS = 64 };
struct domain_levels {
	char topology[64];
	int levels;
	char names[MAX_LEVELS][32];
	unsigned long long spans[MAX_LEVELS][MAX_SPANS];   /* distinct, in order */
	int nspans[MAX_LEVELS];
};

/* Fills t[] (at most MAX_TOPOLOGIES); returns how many topologies. */
static int read_domains(const char *dir, struct domain_levels *t)
{
	char *path = xasprintf("%s/domains.txt", dir);
	char *text = read_whole_file(path, NULL), *line, *save = NULL;
	int ntop = 0;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		char topo[64], name[32], hex[160], digits[160];
		int cpu, level, n = 0, k;
		unsigned long long mask;
		struct domain_levels *l;

		if (sscanf(line, "topology=%63s cpu=%d domain=%d name=%31s span=%159s",
			   topo, &cpu, &level, name, hex) != 5 || level < 0 || level >= MAX_LEVELS)
			continue;
		for (k = 0; k < ntop && strcmp(t[k].topology, topo); k++)
			;
		if (k == ntop) {
			if (ntop == MAX_TOPOLOGIES)
				continue;
			memset(&t[ntop], 0, sizeof(t[ntop]));
			snprintf(t[ntop].topology, sizeof(t[ntop].topology), "%s", topo);
			ntop++;
		}
		l = &t[k];
		/* /proc/schedstat writes masks as 32-bit words separated by commas */
		for (char *h = hex; *h; h++)
			if (*h != ',')
				digits[n++] = *h;
		digits[n] = 0;
		mask = strtoull(digits, NULL, 16);
		snprintf(l->names[level], sizeof(l->names[level]), "%s", name);
		if (level + 1 > l->levels)
			l->levels = level + 1;
		for (n = 0; n < l->nspans[level] && l->spans[level][n] != mask; n++)
			;
		if (n == l->nspans[level] && n < MAX_SPANS)
			l->spans[level][l->nspans[level]++] = mask;
	}
	free(text);
	free(path);
	return ntop;
}

/* "MC over CPUs {0-1} {2-3}, then DIE over {0-3}": each level's distinct
 * spans once.  NULL when the folder has none for the topology; *levels is
 * the number of levels. */
static char *shape_of(const char *dir, const char *topology, int *levels)
{
	struct domain_levels t[MAX_TOPOLOGIES];
	int ntop = read_domains(dir, t), k;
	char *out = NULL;

	*levels = 0;
	for (k = 0; k < ntop && strcmp(t[k].topology, topology); k++)
		;
	if (k == ntop)
		return NULL;
	*levels = t[k].levels;
	for (int level = 0; level < t[k].levels; level++) {
		char *list = xstrdup(""), *next;

		for (int i = 0; i < t[k].nspans[level]; i++) {
			char *cpus = cpu_ranges(t[k].spans[level][i]);

			next = xasprintf("%s%s{%s}", list, *list ? " " : "", cpus);
			free(cpus);
			free(list);
			list = next;
		}
		next = xasprintf("%s%s%s over CPUs %s", out ? out : "", out ? ", then " : "",
				 *t[k].names[level] ? t[k].names[level] : "?", list);
		free(out);
		free(list);
		out = next;
	}
	return out;
}

/* pjt-stats --domains DIR: "TOPOLOGY LEVEL NAME" per level, for scripts. */
int print_domains(const char *dir)
{
	struct domain_levels t[MAX_TOPOLOGIES];
	int ntop = read_domains(dir, t);

	for (int k = 0; k < ntop; k++)
		for (int level = 0; level < t[k].levels; level++)
			printf("%s %d %s\n", t[k].topology, level,
			       *t[k].names[level] ? t[k].names[level] : "?");
	return 0;
}

/* A merged folder (run/merge): its shards and the hosts they ran on. */
static void shards_table(struct doc *d)
{
	char *path = xasprintf("%s/shards.txt", d->dir);
	char *text = read_whole_file(path, NULL), *save, *line;
	char *headers[] = { "shard", "host", "rows", "boots", "folder" };
	int n = 0;

	free(path);
	if (!text)
		return;
	for (char *p = text; *p; p++)
		n += *p == '\n';
	line = xasprintf("Shards (shards.txt): %d, merged by run/merge; each shard's boots are units of their own, paired within their host.", n);
	para(d, line);
	free(line);
	table_begin(d, headers, 5);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *cells[5] = { "", "", "", "", "" }, *fsave, *f;
		int i = 0;

		for (f = strtok_r(line, "\t", &fsave); f && i < 5; f = strtok_r(NULL, "\t", &fsave))
			cells[i++] = f;
		table_row(d, cells, 5, 0);
	}
	table_end(d);
	free(text);
}

static char *var_text(double v)
{
	return isnan(v) ? xstrdup("-") : xasprintf("%.3g", v);
}

/* Kalibera-Jones per workload: where the variance is (between boots,
 * within a boot), what this design resolves, and what would reach the
 * default half-widths (run/plan-design asks for others). */
static void variance_section(struct doc *d, const struct analysis *a)
{
	char *headers[] = { "metric", "between-boot variance (log ratio)", "within-boot variance (log ratio)",
			    "design run", "power for a 30% change (expected half-width)", "target half-width",
			    "boots x runs per boot to reach it (matrix time)" };

	heading(d, 2, "Where the variance is, and what to run");
	para(d, "Kalibera and Jones (ISMM 2013), two levels: boots, and the runs of a cell within a boot, on log values paired as the ratios are (each block's log ratio of a cell to the reference named below, so what the pairing cancels is not counted). The between-boot component is what more runs in one boot cannot remove; the within-boot one is what they can. The power is the probability that this design's boots and blocks resolve a true 30% change with the confirmatory test at Holm's first threshold for this matrix's family, simulated from these two variances (normal units; run/stats --power gives the heavy-tailed figure too), beside the half-width of the interval it would print; the last column is the cheapest boots x runs per boot that reach the target, a boot costing about 7 s and a run its duration plus the settle. run/plan-design DIR --half-width METRIC=PCT writes a matrix for other targets.");
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];
		char *title = xasprintf("%s, topology %s", st->workload, st->topology);
		double block = block_cost_s(a, st->topology);

		heading(d, 3, title);
		free(title);
		if (st->ngroups >= 2) {
			struct varcomp v0;
			char *ref;

			variance_components(a, st, 0, &v0);
			ref = xasprintf("Paired to %s.", a->combos[st->groups[v0.reference].combo].name);
			para(d, ref);
			free(ref);
		}
		table_begin(d, headers, 7);
		for (int m = 0; m < a->nmetrics; m++) {
			struct varcomp v;
			char *cells[7];

			if (!a->primary[m] || !st->measured[m])
				continue;
			variance_components(a, st, m, &v);
			plan_design(&v, default_half_width(a->metric_names[m]), BOOT_COST_S, block);
			cells[0] = xstrdup(a->metric_names[m]);
			cells[1] = var_text(v.between);
			cells[2] = v.within_estimable ? var_text(v.within) : xstrdup("- (one run per boot: counted between)");
			cells[3] = xasprintf("%d boots x %d", v.n1, v.n2);
			if (isnan(v.between)) {
				cells[4] = xstrdup("-");
			} else {
				struct design_power dp;

				design_power(&dp, v.n1, v.n2, a->family, 0.3, v.between,
					     v.within_estimable ? v.within : 0);
				cells[4] = isnan(dp.half_width) ? xasprintf("%.2f", dp.power)
					: xasprintf("%.2f (+-%.0f%%)", dp.power, (exp(dp.half_width) - 1) * 100);
			}
			cells[5] = xasprintf("%g%%", v.target * 100);
			cells[6] = !v.need_boots ? xstrdup("-")
				: v.need_boots > 200 ? xstrdup("more than 200 boots")
				: xasprintf("%d x %d (%.0f min)", v.need_boots, v.need_reps, v.need_cost_s / 60);
			table_row(d, cells, 7, 0);
			for (int c = 0; c < 7; c++)
				free(cells[c]);
		}
		table_end(d);
	}
}

static void what_was_run(struct doc *d, const struct analysis *a)
{
	char *text;

	heading(d, 3, "What was run");
	matrix_files(d);
	include_file(d, "Kernel", "uname.txt");
	include_file(d, "Kernel image", "kernel.txt");
	include_file(d, "Patch series version", "series-version.txt");
	include_file(d, "QEMU command line", "qemu-cmdline.txt");
	include_file(d, "Host", "host.txt");
	include_file(d, "Sched domains of each topology", "domains.txt");
	include_file(d, "Interleaving seed", "seed.txt");
	shards_table(d);
	text = xasprintf("runs.csv holds %d runs: %d ok, %d crashed, %d failed. Only ok runs enter the statistics; the others are counted per cell (n_crashed, n_failed) and listed under \"Excluded runs\".",
			 a->table->nrows, a->n_ok, a->n_crashed, a->n_failed);
	para(d, text);
	free(text);
	host_load(d, a);
	{
		char *headers[] = { "combination", "features", "runs ok", "crashed", "failed" };

		para(d, "Combinations (every one in runs.csv):");
		table_begin(d, headers, 5);
		for (int c = 0; c < a->ncombos; c++) {
			int ok = 0, crashed = 0, failed = 0;
			char *cells[5];

			for (int s = 0; s < a->nstudies; s++) {
				int g = study_group_of(&a->studies[s], c);

				if (g < 0)
					continue;
				ok += a->studies[s].groups[g].n_ok;
				crashed += a->studies[s].groups[g].n_crashed;
				failed += a->studies[s].groups[g].n_failed;
			}
			cells[0] = a->combos[c].name;
			cells[1] = a->combos[c].features;
			cells[2] = xasprintf("%d", ok);
			cells[3] = xasprintf("%d", crashed);
			cells[4] = xasprintf("%d", failed);
			table_row(d, cells, 5, 0);
			for (int i = 2; i < 5; i++)
				free(cells[i]);
		}
		table_end(d);
	}
	/* a reference's name on another feature set: say which one it is */
	for (int c = 0; c < a->ncombos; c++)
		for (int r = 0; r < NREFS; r++)
			if (!strcmp(a->combos[c].name, reference_names[r]) && a->combos[c].reference != r) {
				text = xasprintf("Note: the combination named %s has features %s, which are %s; references are found by their feature sets, so it is not used as %s.",
						 a->combos[c].name, a->combos[c].features,
						 a->combos[c].reference >= 0 ? reference_names[a->combos[c].reference]
						 : "no reference point", reference_names[r]);
				para(d, text);
				free(text);
			}
	para(d, "Workloads (topologies are sockets x cores x threads, QEMU's -smp):");
	for (int s = 0; s < a->nstudies; s++) {
		text = xasprintf("Workload %d: \"%s\" on topology %s, %d combinations.",
				 s + 1, a->studies[s].workload, a->studies[s].topology, a->studies[s].ngroups);
		bullet(d, text);
		free(text);
	}
	fputs("\n", d->md);
}

/* A point's bits as the report writes them: space-separated, or "none" */
static char *point_bits(int ref)
{
	char *bits = xstrdup(*reference_points[ref].bits ? reference_points[ref].bits : "none");

	for (char *p = bits; *p; p++)
		if (*p == '+')
			*p = ' ';
	return bits;
}

/* run/contract/points, as it is (run/tests/test-points.sh holds every
 * other copy to it) */
static void reference_points_table(struct doc *d)
{
	char *headers[] = { "reference point", "bits", "what it stands for" };

	para(d, "Reference points are found by their feature sets, whatever the combination is called (run/contract/points). Runs measured before PJT_CLASSIFY existed have rfc-before, rfc-pelt and rfc-after without it, and are recognised as the same points.");
	table_begin(d, headers, 3);
	for (int i = 0; i < NREFS; i++) {
		char *cells[3] = { (char *)reference_points[i].name, point_bits(i),
				   (char *)reference_points[i].what };

		table_row(d, cells, 3, 0);
		free(cells[1]);
	}
	table_end(d);
}

/* "rfc-pelt (BITS) is not in this matrix: CONSEQUENCE." */
static void missing_point(struct doc *d, int ref, const char *consequence)
{
	char *bits = point_bits(ref);
	char *text = xasprintf("%s (%s) is not in this matrix: %s.", reference_points[ref].name, bits, consequence);

	para(d, text);
	free(text);
	free(bits);
}

static void how_to_read(struct doc *d, const struct analysis *a)
{
	char *legend = star_legend(a);

	heading(d, 3, "How to read the numbers");
	para(d, "Every interval in this report carries its own level, the exact coverage of a distribution-free interval for continuous data. The interval of a median of n runs is the pair of order statistics (k, n+1-k) with the largest k whose coverage 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2), is at least 95%; with 5 runs or fewer no such pair exists and the interval is (min, max) at its real level: 93.75% for 5 runs, 87.5% for 4, 75% for 3, 50% for 2. Medians and quartiles are Hyndman-Fan type 7 (R's default).");
	para(d, "Ratios are paired: the runner puts every cell once in each block (boot, rep), so a ratio is computed per block, log(x_combination / x_reference). When the pairs come from two or more boots, each boot's median log ratio is one unit (a count's unit: the ratio of the boot's summed counts), so the interval includes boot-to-boot variance; with one boot the blocks are the units. A declared comparison's estimate is the Hodges-Lehmann estimate of its units (exp of the median of the Walsh averages, the pairwise means of the units' log ratios) with the distribution-free interval of the same averages; every other ratio is exp of the median unit with the order-statistic interval. The interval of one combination's median treats its runs as the units, so with several boots it leaves boot-to-boot variance out: compare combinations by their paired ratios. Factorial effects likewise, on the log scale: every block gives the effect on its own runs as a difference of mean logs, reported as a ratio (a main effect: the geometric mean with the bit over the one without it; an interaction A:B: the ratio of ratios, A's ratio with B over A's ratio without B, 1 = none). A count is never shifted to log(x+1): a unit 0 on one side is a ratio of 0 or unbounded, counted by its sign; a side 0 in every unit has no ratio and reads \"0 against 46\" (each side's median per run) with the sign test of the counts, or \"both 0\". A 0 in another metric drops that block; the note says which. Factorial effects drop a block with a 0.");
	para(d, "Tests: a declared comparison, the exact Wilcoxon signed-rank test of its units (midranks for ties, Pratt's rule for zeros), the test its Walsh-average interval inverts; chosen over the sign test and the paired t by measurement on real boots (run/stats --procedures: the sign test held 0.8% at a nominal 5% and lost power; the t test exceeded its size on resampled boots). Every other comparison, and a declared one with a unit at ratio 0 or unbounded: the exact sign test, which its order-statistic interval inverts. Either way an interval at level L excludes 1 exactly when p <= 1 - L. The confirmatory family is one primary endpoint, pulls, per declared comparison (compare lines) x topology x workload, adjusted together by Holm at 5% (a familywise error rate, for the summary's pass/fail verdict; an untestable member counts with p = 1, so the family's size is the design's); the other primary metrics (migrations, records_per_s, ops_per_s, wakeup_p99_us) are that comparison's secondaries, tested at its primary's level one after the other in that order, stopping at the first unresolved, which keeps the familywise error. Everything else (ratios to the reference points, factorial effects, secondary metrics) is marginal: its own p, never a star; a design's main effects of one metric also carry q, Holm over that design's bits (\"what does each bit do\" asks once per bit), which is not part of the verdict. With n units the smallest p either exact test gives is 2/2^n (4: 0.125; 6: 1/32; 10: 1/512), so a family of F needs 2/2^n <= 0.05/F before anything can be resolved; run/matrix --dry-run prints the design's power for a 30% change.");
	para(d, legend);
	para(d, "lb_pulls_total is lb_pulls_idle + lb_pulls_busy + lb_pulls_newidle of the same run: the load-balance pulls (lb_gained in /proc/schedstat) the RFC counted as \"migrations\". migrations is the perf cpu-migrations count of the workload's own threads.");
	reference_points_table(d);
	free(legend);
}

static const struct comparison *ratio_of_group(const struct study *st, int g, int r, int m)
{
	if (g < 0 || !st->groups[g].ratio[r])
		return NULL;
	return &st->groups[g].ratio[r][m];
}

/* Say at which level the intervals of this study are when some are below
 * 95% for want of runs. */
static void few_runs_caveat(struct doc *d, const struct analysis *a, const struct study *st)
{
	int fewest = -1;

	for (int g = 0; g < st->ngroups; g++)
		for (int m = 0; m < a->nmetrics; m++) {
			int n = st->groups[g].metric[m].n;

			if (st->measured[m] && n > 0 && (fewest < 0 || n < fewest))
				fewest = n;
		}
	if (fewest >= 0 && fewest < 6) {
		double level;
		char *l, *text;

		median_interval_rank(fewest, &level);
		l = format_level(level);
		text = fewest < 2
			? xasprintf("Caution: some cells have only %d ok run: no interval.", fewest)
			: xasprintf("Caution: some cells have only %d ok runs, so their intervals are (min, max), a %s interval, not 95%%; 6 runs give 96.9%%.",
				    fewest, l);
		para(d, text);
		free(text);
		free(l);
	}
}

/* The RFC ran 8 threads of 10% duty (10 ms period): duty mode with those
 * two options, whatever else the line sets. */
static int is_rfc_workload(const char *workload)
{
	char *padded = xasprintf(" %s ", workload);
	int match = !strncmp(workload, "duty ", 5) && strstr(padded, " threads=8 ") &&
		    strstr(padded, " duty=10 ");

	free(padded);
	return match;
}

/* The RFC's figures: the table of its cover letter (Preeti U Murthy,
 * 25 Oct 2012; the seed 001-cover-...txt, quoted in
 * patches/0000-cover-letter.patch), the one copy the report reads. The
 * RFC's "migrations" are pull requests from /proc/schedstat: our
 * lb_pulls_total. */
static const struct rfc_figure {
	const char *metric;
	const char *label;
	double with, without;    /* With_patchset (rfc-after), Without_patchset (rfc-before) */
} rfc_figures[] = {
	{ "lb_pulls_total", "Average number of migrations (pulls)", 0, 46 },
	{ "records_per_s", "Average number of records/s", 971114, 945158 },
};
#define NRFC_FIGURES (sizeof(rfc_figures) / sizeof(rfc_figures[0]))

/* "0.000 (-100%)", "1.027 (+2.7%)" */
static char *rfc_ratio_text(const struct rfc_figure *f)
{
	double r = f->with / f->without;

	return xasprintf("%.3f (%+.1f%%)", r, (r - 1) * 100);
}

/* ---- the summary the report leads with ---- */

/* Runs measured on a busy host: host_cpu_busy over host.txt's busy-limit
 * (run/matrix's default 0.15); returns how many, of *measured. */
static int busy_runs(const struct doc *d, const struct analysis *a, int *measured, double *limit)
{
	const struct run_table *t = a->table;
	int col = column_index(t, "host_cpu_busy"), busy = 0;
	char *path = xasprintf("%s/host.txt", d->dir), *host = read_whole_file(path, NULL);

	*limit = 0.15;
	*measured = 0;
	if (host) {
		struct kv kv = { 0 };
		const char *v;

		kv_parse(&kv, host);
		if ((v = kv_get(&kv, "busy-limit")))
			*limit = atof(v);
	}
	for (int r = 0; col >= 0 && r < t->nrows; r++)
		if (!isnan(t->rows[r].value[col])) {
			(*measured)++;
			busy += t->rows[r].value[col] > *limit;
		}
	free(path);
	free(host);
	return busy;
}

/* What the verdict must be read with: runs measured on a busy host, and
 * combinations booted on different kernels. */
static void run_caveats(struct doc *d, const struct analysis *a)
{
	const struct run_table *t = a->table;
	int measured, nk;
	double limit;
	int busy = busy_runs(d, a, &measured, &limit);
	char **kernels;

	if (busy && !a->ndeclared) { /* else the verdict's line says it */
		char *text = xasprintf("Busy host: %d of %d runs were measured while the host's other load was above %g of its CPUs (host_cpu_busy): their times and counts may carry it, and the verdict below with them.",
				       busy, measured, limit);

		para(d, text);
		free(text);
	}
	nk = column_values(t, "kernel_sha256", &kernels);
	if (nk > 1) {
		char *text = xasprintf("Kernels: these runs booted %d different kernels (kernel_sha256): a ratio between combinations of two kernels measures the kernels as well as the bits (run/compare compares builds).",
				       nk);

		para(d, text);
		free(text);
	}
	free(kernels);
}

/* "66.7% fewer pulls", "2.7% higher throughput" */
static char *change_phrase(const char *metric, double ratio)
{
	const char *noun = metric_noun(metric);
	int count = !strcmp(metric, "lb_pulls_total") || !strcmp(metric, "migrations");

	if (ratio == 1)
		return xasprintf("the same %s", noun);
	return xasprintf("%.1f%% %s %s", fabs(ratio - 1) * 100,
			 ratio < 1 ? (count ? "fewer" : "lower") : (count ? "more" : "higher"), noun);
}

/* "0.400 [0.362, 0.434], Holm p=0.0312": a comparison in a sentence under
 * a line that gave the units and level; other units are said
 * ("0.400 [0.362, 0.434] 97.85% over 10 boots, p=0.002"). */
static char *compact_cell(const struct comparison *c, int is_ratio, const struct units *u)
{
	if (c->zero_side) {
		char *sides = zero_side_text(c), *test = zero_side_test(c);
		char *cell = xasprintf("%s%s", sides, test);

		free(sides);
		free(test);
		return cell;
	}
	char *v = is_ratio ? ratio_number(c->value) : human(c->value);
	char *lo = is_ratio ? ratio_number(c->lo) : human(c->lo);
	char *hi = is_ratio ? ratio_number(c->hi) : human(c->hi);
	char *level = format_level(c->level);
	char *test = test_text(c);
	char *own = c->n_units == u->n ? xstrdup("")
		: isnan(c->level) ? xasprintf(" over %d %s%s", c->n_units, c->unit, c->n_units == 1 ? "" : "s")
		: xasprintf(" %s over %d %ss", level, c->n_units, c->unit);
	char *cell = isnan(c->level) ? xasprintf("%s%s, %s", v, own, test)
		: xasprintf("%s [%s, %s]%s, %s", v, lo, hi, own, test);

	free(own);
	free(test);
	free(v);
	free(lo);
	free(hi);
	free(level);
	return cell;
}

/* The primary metrics a study measured, in the report's order. */
static int study_primaries(const struct analysis *a, const struct study *st, int *out)
{
	int n = 0;

	for (int m = 0; m < a->nmetrics; m++)
		if (a->primary[m] && st->measured[m])
			out[n++] = m;
	return n;
}

/* Whether a comparison is named as a change: a declared one when Holm
 * resolved it; any other when its marginal p is at most 0.05 (its interval
 * then excludes 1), labelled marginal, not adjusted. */
static int names_change(const struct comparison *c)
{
	if (!c || !c->present || isnan(c->p) || (isnan(c->value) && !c->zero_side))
		return 0;
	return c->confirmatory ? c->sig : c->p <= 0.05;
}

/* "+3.1%", "unbounded": a ratio's bound as a change */
static char *percent_change(double ratio)
{
	return isinf(ratio) ? xstrdup("unbounded") : xasprintf("%+.1f%%", (ratio - 1) * 100);
}

/* The size of an unresolved comparison, so that "not resolved" does not
 * read as "no change": "throughput -2.5% [-11.0%, +8.0%]", "pulls 3
 * against 5", "pulls: both 0". */
static char *effect_size_text(const char *metric, const struct comparison *c)
{
	char *v, *lo, *hi, *text;

	if (c->zero_side == ZERO_BOTH)
		return xasprintf("%s: both 0", metric_noun(metric));
	if (c->zero_side) {
		char *sides = zero_side_text(c);

		text = xasprintf("%s %s", metric_noun(metric), sides);
		free(sides);
		return text;
	}
	v = percent_change(c->value);
	if (isnan(c->level))
		return xasprintf("%s %s (no interval)", metric_noun(metric), v);
	lo = percent_change(c->lo);
	hi = percent_change(c->hi);
	text = xasprintf("%s %s [%s, %s]", metric_noun(metric), v, lo, hi);
	free(v);
	free(lo);
	free(hi);
	return text;
}

/* One sentence: what one combination did against one reference, over the
 * comparisons cs[nmetrics], under a line that gave the units (u); the
 * unresolved ones with their sizes. */
static char *declared_sentence(const struct analysis *a, const struct study *st,
			       const struct comparison *cs, const char *label, const char *name,
			       const char *ref, int *resolved, int *tested, const struct units *u)
{
	int *prim = xmalloc((a->nmetrics + 1) * sizeof(int)), np = study_primaries(a, st, prim);
	char *changed = xstrdup(""), *unresolved = xstrdup(""), *s;
	int marginal = 0;

	for (int i = 0; i < np; i++) {
		const struct comparison *c = cs ? &cs[prim[i]] : NULL;
		char **into, *next;

		if (!c || (isnan(c->p) && c->zero_side != ZERO_BOTH))
			continue;
		(*tested)++;
		marginal |= !c->confirmatory;
		if (names_change(c) && c->zero_side) {
			char *sides = zero_side_text(c), *test = zero_side_test(c);

			(*resolved)++;
			next = xasprintf("%s%s%s %s%s (%s%s)", changed, *changed ? ", " : "",
					 metric_noun(a->metric_names[prim[i]]), sides,
					 c->confirmatory ? ": resolved" : "", test + 2, c->sig ? " *" : "");
			free(sides);
			free(test);
			into = &changed;
		} else if (names_change(c)) {
			char *phrase = change_phrase(a->metric_names[prim[i]], c->value);
			char *cell = compact_cell(c, 1, u);

			(*resolved)++;
			next = xasprintf("%s%s%s (%s%s)", changed, *changed ? ", " : "", phrase, cell,
					 c->sig ? " *" : "");
			free(phrase);
			free(cell);
			into = &changed;
		} else {
			char *level = format_level(c->level);
			char *own = c->n_units == u->n ? xstrdup("")
				: xasprintf(" (%d %s%s%s%s)", c->n_units, c->unit, c->n_units == 1 ? "" : "s",
					    *level ? ", " : "", level);
			char *size = effect_size_text(a->metric_names[prim[i]], c);

			free(level);

			next = xasprintf("%s%s%s%s", unresolved, *unresolved ? ", " : "", size, own);
			free(size);
			free(own);
			into = &unresolved;
		}
		free(*into);
		*into = next;
	}
	if (!*changed && !*unresolved)
		s = NULL;
	else if (!*changed)
		s = xasprintf("%s%s against %s: %s: %s.", label, name, ref,
			      marginal ? "no p at or below 0.05" : "nothing resolved", unresolved);
	else
		s = xasprintf("%s%s against %s: %s%s%s.", label, name, ref, changed,
			      *unresolved ? (marginal ? "; p above 0.05: " : "; not resolved: ") : "",
			      unresolved);
	free(changed);
	free(unresolved);
	free(prim);
	return s;
}

static char *resolved_sentence(const struct analysis *a, const struct study *st, int g, int r,
			       const char *label, int *resolved, int *tested, const struct units *u)
{
	return declared_sentence(a, st, st->groups[g].ratio[r], label,
				 a->combos[st->groups[g].combo].name,
				 a->combos[st->groups[st->ref[ratio_reference[r]]].combo].name, resolved, tested, u);
}

/* Why no declared comparison of a study was resolved: the units, the
 * smallest p they allow against Holm's first threshold, or the smallest
 * adjusted p reached. */
static char *nothing_resolved_reason(const struct analysis *a, const struct study *st)
{
	int units = 0;
	const char *unit = "unit";
	double best_q = NAN, best_p = NAN, need = FAMILY_ALPHA / (a->family ? a->family : 1);

	for (int d = 0; d < a->ndeclared; d++)
		for (int m = 0; st->decl[d] && m < a->nmetrics; m++) {
			const struct comparison *c = &st->decl[d][m];

			if (!c->confirmatory || isnan(c->p))
				continue;
			if (c->n_units > units) {
				units = c->n_units;
				unit = c->unit;
			}
			if (isnan(best_q) || c->q < best_q) {
				best_q = c->q;
				best_p = c->p;
			}
		}
	if (!units)
		return xstrdup("no declared comparison could be tested here (a side is missing, no block holds both, or its pairs come from one boot of several)");
	if (sign_test_min_p(units) > need)
		return xasprintf("this design cannot resolve anything: with %d %ss as the units the smallest p the exact tests (signed-rank and sign) can give is 2/2^%d = %.3g, and Holm over the family of %d needs %.3g",
				 units, unit, units, sign_test_min_p(units), a->family, need);
	return xasprintf("over %d %ss the smallest Holm-adjusted p is %.3g (p = %.3g) in the family of %d: none is resolved at Holm's 5%% with this number of %ss",
			 units, unit, best_q, best_p, a->family, unit);
}

/* ---- topologies: the report's sections go topology by topology ---- */

/* The topologies of the studies, those of more sched-domain levels first
 * (the RFC's box balanced in two), else in order of appearance; returns
 * how many, their first study's index in first[]. */
static int topology_order(const struct doc *d, const struct analysis *a, int *first)
{
	int *depth = xcalloc(a->nstudies + 1, sizeof(int)), n = 0;

	for (int s = 0; s < a->nstudies; s++) {
		int i, levels;
		char *shape;

		for (i = 0; i < n && strcmp(a->studies[first[i]].topology, a->studies[s].topology); i++)
			;
		if (i < n)
			continue;
		shape = shape_of(d->dir, a->studies[s].topology, &levels);
		free(shape);
		for (i = n++; i > 0 && depth[i - 1] < levels; i--) { /* stable among equals */
			first[i] = first[i - 1];
			depth[i] = depth[i - 1];
		}
		first[i] = s;
		depth[i] = levels;
	}
	free(depth);
	return n;
}

/* "Sched domains of 2x2x1 (domains.txt): MC over CPUs {0-1} {2-3}, then
 * DIE over CPUs {0-3}.": the line before a topology's tables. */
static void domains_line(struct doc *d, const char *topology)
{
	int levels;
	char *shape = shape_of(d->dir, topology, &levels);
	char *text = shape ? xasprintf("Sched domains of %s (domains.txt): %s.", topology, shape)
		: xasprintf("Sched domains of %s: not recorded (domains.txt has none).", topology);

	para(d, text);
	free(text);
	free(shape);
}

static void summary_rfc_table(struct doc *d, const struct analysis *a, const struct study *st)
{
	int after = st->ref[REF_RFC_AFTER], before = st->ref[REF_RFC_BEFORE], table_n = 0;
	char *headers[] = { "", "RFC With_patchset", "RFC Without_patchset", "RFC ratio",
			    "our rfc-after", "our rfc-before", "our paired ratio after/before",
			    "the RFC's ratio" };
	struct units u = { 0, "unit", NAN };
	struct notes nl = { 0, { NULL } };
	char *mu, *ut, *length, *text;

	for (size_t i = 0; i < NRFC_FIGURES; i++) {
		int m = metric_index(a, rfc_figures[i].metric);

		if (m < 0 || !st->measured[m])
			continue;
		note_n(&table_n, &st->groups[after].metric[m]);
		note_n(&table_n, &st->groups[before].metric[m]);
		note_units(&u, ratio_of_group(st, after, RATIO_RFC_BEFORE, m));
	}
	mu = median_units(table_n);
	ut = units_text(&u);
	length = run_length_text(a, st);
	text = xasprintf("Ours: %s per combination%s%s; the paired ratio %s with its Holm-adjusted p (* = resolved).",
			 mu, *length ? ", " : "", length, ut);
	para(d, text);
	free(text);
	free(length);
	free(ut);
	free(mu);
	table_begin(d, headers, 8);
	for (size_t i = 0; i < NRFC_FIGURES; i++) {
		const struct rfc_figure *fig = &rfc_figures[i];
		int m = metric_index(a, fig->metric);
		const struct comparison *c;
		double rfc = fig->with / fig->without;
		char *row[8];

		if (m < 0 || !st->measured[m])
			continue;
		row[0] = xasprintf("%s (%s)", fig->label, fig->metric);
		row[1] = human(fig->with);
		row[2] = human(fig->without);
		row[3] = rfc_ratio_text(fig);
		row[4] = median_cell(&st->groups[after].metric[m], table_n);
		row[5] = median_cell(&st->groups[before].metric[m], table_n);
		c = ratio_of_group(st, after, RATIO_RFC_BEFORE, m);
		row[6] = comparison_cell(c, 1, &u, &nl);
		row[7] = xstrdup(c && c->zero_side == ZERO_X && fig->with == 0 ? "0 with the patches, as ours"
				 : !c || isnan(c->lo) || isnan(c->hi) ? "-"
				 : rfc < c->lo ? "below our interval" : rfc > c->hi ? "above our interval"
				 : "inside our interval");
		table_row(d, row, 8, 0);
		for (int k = 0; k < 8; k++)
			free(row[k]);
	}
	table_end(d);
	notes_para(d, &nl);
}

/* The one RFC section of a topology that ran rfc-after and rfc-before:
 * its figures beside ours (the RFC's workload where it ran, else the
 * first such workload), with what can and cannot be compared; the
 * cover letter's experiment told once (FIRST). */
static void rfc_table(struct doc *d, const struct analysis *a, const char *topology, int first)
{
	const struct study *st;
	int chosen = -1;
	char *text, *length;

	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];

		if (strcmp(st->topology, topology) || st->ref[REF_RFC_AFTER] < 0 || st->ref[REF_RFC_BEFORE] < 0)
			continue;
		if (chosen < 0 || (is_rfc_workload(st->workload) && !is_rfc_workload(a->studies[chosen].workload)))
			chosen = s;
	}
	if (chosen < 0)
		return;
	st = &a->studies[chosen];
	heading(d, 4, "The RFC beside ours");
	if (first)
		para(d, "The RFC's cover letter (Preeti U Murthy, 25 Oct 2012) ran 8 threads of 10% duty cycle (10 ms period) on a 1-socket, 4-core machine and counted load-balance pulls from /proc/schedstat (it calls them migrations). Its With_patchset is our rfc-after, its Without_patchset our rfc-before; the reference points are defined under \"How to read the numbers\".");
	length = run_length_text(a, st);
	text = xasprintf("The RFC's table beside ours (%s, topology %s%s). Comparability: the RFC gives averages with no spread, no number of runs and no run length, so its 0 against 46 pulls cannot be set against our counts; ours are counts per run of %s, and records/s under QEMU TCG are not the RFC's 2012 machine's. Compare the ratios.",
			 st->workload, topology,
			 is_rfc_workload(st->workload) ? ", the RFC's workload" : "; no workload here is the RFC's duty threads=8 duty=10",
			 *length ? length : "the matrix's duration");
	para(d, text);
	free(text);
	free(length);
	summary_rfc_table(d, a, st);
	if (st->ref[REF_RFC_PELT] < 0)
		missing_point(d, REF_RFC_PELT, "the change from rfc-before to rfc-after cannot be decomposed into the metric's and the new rules' effects here");
}

/* Cells with crashed or failed runs, first: their comparisons have fewer
 * units than the design's. */
static void crashed_cells(struct doc *d, const struct analysis *a)
{
	int any = 0;

	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];

		for (int g = 0; g < st->ngroups; g++) {
			const struct group *gr = &st->groups[g];
			char *text;

			if (!gr->n_crashed && !gr->n_failed)
				continue;
			if (!any++)
				para(d, "Cells with crashed or failed runs (excluded from the statistics; each comparison below states the units it has):");
			text = xasprintf("%s, %s, topology %s: %d of %d runs crashed, %d failed (%d ok).",
					 a->combos[gr->combo].name, st->workload, st->topology,
					 gr->n_crashed, gr->n_runs, gr->n_failed, gr->n_ok);
			bullet(d, text);
			free(text);
		}
	}
	if (any)
		fputs("\n", d->md);
}

/* The paired-ratio charts of a topology's workloads: the report's first
 * figures. */
static void ratio_charts(struct doc *d, const struct analysis *a, const char *topology)
{
	for (int s = 0; s < a->nstudies; s++) {
		struct chart_plan plan[CHART_KINDS];

		if (strcmp(a->studies[s].topology, topology))
			continue;
		plan_charts(a, s, plan);
		if (!plan[0].skip_reason)
			chart(d, &plan[0]);
		free_chart_plan(plan);
	}
}

/* The declared questions of one topology: the verdict of its share of the
 * family (Holm over all of it), then the paired-ratio charts. */
static void declared_summary(struct doc *d, const struct analysis *a, const char *topology)
{
	struct units u = { 0, "unit", NAN };
	char *text, *ut;

	heading(d, 4, "The declared questions (confirmatory)");
	if (!a->ndeclared) {
		char *none = xasprintf("This matrix declares no comparison (a `compare COMBO REFERENCE` line): nothing here is confirmatory and nothing is starred; every interval and p below is marginal, not adjusted%s.",
				       main_effects_q(a));

		para(d, none);
		free(none);
		ratio_charts(d, a, topology);
		return;
	}
	for (int s = 0; s < a->nstudies; s++)
		for (int k = 0; k < a->ndeclared && !strcmp(a->studies[s].topology, topology); k++)
			for (int m = 0; a->studies[s].decl[k] && m < a->nmetrics; m++)
				if (a->primary[m] && a->studies[s].measured[m] && !isnan(a->studies[s].decl[k][m].p))
					note_units(&u, &a->studies[s].decl[k][m]);
	ut = units_text(&u);
	text = xasprintf("Each declared comparison's ratio %s (unless it says otherwise): pulls, its primary endpoint, with the Holm-adjusted p; the other primary metrics, its secondaries, with their fixed-sequence p:", ut);
	para(d, text);
	free(text);
	free(ut);
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];
		int resolved = 0, tested = 0;

		if (strcmp(st->topology, topology))
			continue;
		for (int k = 0; k < a->ndeclared; k++) {
			char *label = xasprintf("%s: ", st->workload);
			char *sentence = declared_sentence(a, st, st->decl[k], label, a->declared[k].combo,
							   a->declared[k].reference, &resolved, &tested, &u);

			if (sentence) {
				bullet(d, sentence);
			} else {
				char *none = xasprintf("%s%s against %s: not tested (%s).", label, a->declared[k].combo,
						       a->declared[k].reference,
						       st->decl[k] && *st->decl[k][0].note ? st->decl[k][0].note : "no primary metric");

				bullet(d, none);
				free(none);
			}
			free(sentence);
			free(label);
		}
		fputs("\n", d->md);
		if (!resolved) {
			char *why = nothing_resolved_reason(a, st);

			text = xasprintf("Not resolved in %s: %s.", st->workload, why);
			para(d, text);
			free(text);
			free(why);
		}
	}
	ratio_charts(d, a, topology);
}

/* Every other comparison of one study, marginal and not adjusted. */
/* One of the declared comparisons (its ratios to one reference): the
 * verdict's, not the exploratory list's */
static int is_declared(const struct analysis *a, const struct comparison *ratios)
{
	for (int m = 0; ratios && m < a->nmetrics; m++)
		if (ratios[m].confirmatory)
			return 1;
	return 0;
}

static void exploratory_study(struct doc *d, const struct analysis *a, const struct study *st)
{
	int resolved = 0, tested = 0, stock = st->ref[REF_STOCK];
	struct units u = { 0, "unit", NAN };
	char *text, *ut;

	heading(d, 5, st->workload);
	for (int g = 0; g < st->ngroups; g++)
		for (int r = 0; r < NRATIOS; r++)
			for (int m = 0; st->groups[g].ratio[r] && m < a->nmetrics; m++)
				if (a->primary[m] && st->measured[m] && !isnan(st->groups[g].ratio[r][m].p))
					note_units(&u, &st->groups[g].ratio[r][m]);
	ut = units_text(&u);
	text = xasprintf("Paired ratios %s (unless one says otherwise), each with its own p:", ut);
	para(d, text);
	free(text);
	free(ut);
	for (int g = 0; g < st->ngroups; g++) {
		int comb_ref = a->combos[st->groups[g].combo].reference;

		for (int r = 0; r < NRATIOS; r++) {
			char *sentence;
			const char *label = "";

			if (!st->groups[g].ratio[r] || st->ref[ratio_reference[r]] < 0)
				continue;
			/* against rfc-before: only the RFC's change and its decomposition */
			if (r == RATIO_RFC_BEFORE && comb_ref != REF_RFC_AFTER && comb_ref != REF_RFC_PELT)
				continue;
			if (r == RATIO_RFC_BEFORE)
				label = comb_ref == REF_RFC_AFTER ? "The RFC's change, " : "The metric's effect, ";
			if (r == RATIO_RFC_PELT)
				label = "The new rules' effect, ";
			if (r == RATIO_STOCK && stock < 0)
				continue;
			if (is_declared(a, st->groups[g].ratio[r]))
				continue; /* in the verdict above, once */
			sentence = resolved_sentence(a, st, g, r, label, &resolved, &tested, &u);
			if (sentence)
				bullet(d, sentence);
			free(sentence);
		}
	}
	if (st->ndesigns) {
		int eff_resolved = 0, eff_tested = 0, eff_excluding = 0;
		struct units eu = { 0, "unit", NAN };

		for (int e = 0; e < st->neffects; e++)
			if (st->effects[e].c.primary && !isnan(st->effects[e].c.p))
				note_units(&eu, &st->effects[e].c);
		for (int e = 0; e < st->neffects; e++) {
			const struct effect *ef = &st->effects[e];
			char *changes = xstrdup(""), *term;

			if (!ef->c.primary || isnan(ef->c.p))
				continue;
			eff_tested++;
			tested++;
			/* all of few units agreeing: an interval below 95% that excludes 1
			 * while p > 0.05; it must not read as "within the noise" */
			eff_excluding += !names_change(&ef->c) && (ef->c.lo > 1 || ef->c.hi < 1);
			/* one bullet per term: its first primary effect gathers the others */
			for (int e2 = 0; e2 < e && changes; e2++)
				if (st->effects[e2].design == ef->design && st->effects[e2].term == ef->term &&
				    st->effects[e2].c.primary && !isnan(st->effects[e2].c.p)) {
					free(changes);
					changes = NULL;
				}
			if (names_change(&ef->c)) {
				eff_resolved++;
				resolved++;
			}
			if (!changes)
				continue;
			for (int e2 = e; e2 < st->neffects; e2++) {
				const struct effect *x = &st->effects[e2];
				char *cell, *next;

				if (x->design != ef->design || x->term != ef->term || !x->c.primary ||
				    !names_change(&x->c))
					continue;
				cell = compact_cell(&x->c, 0, &eu);
				if (!isnan(x->c.q)) { /* a main effect: Holm over its design's bits */
					char *with_q = xasprintf("%s, q=%.3g", cell, x->c.q);

					free(cell);
					cell = with_q;
				}
				next = xasprintf("%s%s%s %s (%s)", changes, *changes ? ", " : "",
						 metric_noun(a->metric_names[x->metric]),
						 x->c.value > 1 ? "up" : "down", cell);
				free(cell);
				free(changes);
				changes = next;
			}
			if (*changes) {
				char *eut = eu.n == u.n ? xstrdup("") : units_text(&eu);

				char *al = alias_names(a, st, ef->design, ef->term);

				term = term_name(a, st, ef->design, ef->term);
				if (*al) {
					char *both = xasprintf("%s (aliased with %s)", term, al);

					free(term);
					term = both;
				}
				free(al);
				text = xasprintf("%s %s (factorial effect, %s%s%s): %s.",
						 __builtin_popcount(ef->term) > 1 ? "Interaction" : "Bit", term,
						 __builtin_popcount(ef->term) > 1
						 ? "a ratio of ratios: the first bit's ratio with the second over it without"
						 : "a ratio of geometric means",
						 *eut ? " " : "", eut, changes);
				bullet(d, text);
				free(text);
				free(term);
				free(eut);
			}
			free(changes);
		}
		if (!eff_resolved && eff_tested && eff_excluding) {
			text = xasprintf("Bits (factorial effects): no p at or below 0.05 in %d primary effect%s tested, but %d interval%s exclude%s 1 at %s own level below 95%%: every unit agrees, and too few units for the sign test to reach 0.05 (see effects.csv).",
					 eff_tested, eff_tested == 1 ? "" : "s", eff_excluding, eff_excluding == 1 ? "" : "s",
					 eff_excluding == 1 ? "s" : "", eff_excluding == 1 ? "its" : "their");
			bullet(d, text);
			free(text);
		} else if (!eff_resolved && eff_tested) {
			text = xasprintf("Bits (factorial effects): nothing beyond the noise in %d primary effect%s tested.",
					 eff_tested, eff_tested == 1 ? "" : "s");
			bullet(d, text);
			free(text);
		}
	}
	fputs("\n", d->md);
	text = xasprintf("%d of the %d other primary comparisons of this workload have a marginal p <= 0.05 (%s).",
			 resolved, tested, marginal_note());
	para(d, text);
	free(text);
}

/* The report's first section, topology by topology: the sched domains,
 * the declared family's verdict (Holm) with the paired-ratio charts (the
 * first figures), what the other comparisons show (marginal, not
 * adjusted), the RFC's table beside ours. */
static void summary_section(struct doc *d, const struct analysis *a)
{
	int *first = xcalloc(a->nstudies + 1, sizeof(int)), ntop = topology_order(d, a, first);
	int rfc_tables = 0;
	char *text, *legend = star_legend(a);

	heading(d, 2, "Summary: what changed beyond the noise");
	crashed_cells(d, a);
	run_caveats(d, a);
	para(d, "A pull is one task the load balancer moved to the CPU that balanced (lb_gained in /proc/schedstat); pulls (lb_pulls_total) are a run's pulls summed over CPUs, sched domains and idle types. The RFC set out to make fewer of them.");
	if (a->ndeclared) {
		int measured;
		double limit;
		int busy = busy_runs(d, a, &measured, &limit);
		/* the verdict carries the load it was measured under, and what it means */
		char *busy_text = !measured ? xstrdup("")
			: !busy ? xasprintf(", with %d of %d runs measured on a busy host", busy, measured)
			: xasprintf(", with %d of %d runs measured on a busy host (the host's other load above %g of its CPUs, host_cpu_busy: their times and counts may carry it, and this verdict with them)",
				    busy, measured, limit);

		text = xasprintf("The matrix declares %d comparison%s; its primary endpoint, pulls, in each workload and topology makes one family of %d test%s, adjusted together by Holm at 5%% (familywise error: the verdict hangs on it), and the other primary metrics (migrations, throughput, wake-up p99) are secondaries, each tested at its primary's level after it in a fixed sequence that stops at the first unresolved. %d primary %s resolved (*), and %d secondar%s%s.",
				 a->ndeclared, a->ndeclared == 1 ? "" : "s", a->family, a->family == 1 ? "" : "s",
				 a->n_sig, a->n_sig == 1 ? "is" : "are", a->n_sig_secondary,
				 a->n_sig_secondary == 1 ? "y" : "ies", busy_text);
		free(busy_text);
		para(d, text);
		free(text);
	}
	para(d, legend);
	free(legend);
	for (int t = 0; t < ntop; t++) {
		const char *topology = a->studies[first[t]].topology;
		int rfc = 0, after_only = 0;

		text = xasprintf("Topology %s", topology);
		heading(d, 3, text);
		free(text);
		domains_line(d, topology);
		declared_summary(d, a, topology);
		heading(d, 4, "Exploratory: never starred");
		if (!t) {
			char *text = xasprintf("Every other comparison: each combination against the reference points (stock; rfc-before and rfc-pelt for the RFC's change and its decomposition) and each bit's factorial effect. A change is named when its own p is at most 0.05 (its interval then excludes 1); these are marginal, not adjusted for the many comparisons made%s, never starred and not part of the verdict above: read them as leads for a matrix that declares them.",
					       main_effects_q(a));

			para(d, text);
			free(text);
		}
		for (int s = 0; s < a->nstudies; s++)
			if (!strcmp(a->studies[s].topology, topology)) {
				exploratory_study(d, a, &a->studies[s]);
				rfc |= a->studies[s].ref[REF_RFC_AFTER] >= 0 && a->studies[s].ref[REF_RFC_BEFORE] >= 0;
				after_only |= a->studies[s].ref[REF_RFC_AFTER] >= 0 && a->studies[s].ref[REF_RFC_BEFORE] < 0;
			}
		if (rfc)
			rfc_table(d, a, topology, !rfc_tables++);
		else if (after_only)
			missing_point(d, REF_RFC_BEFORE, "the RFC's change cannot be measured here");
	}
	free(first);
}

/* ---- the tables per workload ---- */

/* A cell of a per-metric table: group g, metric m, ratio r. */
struct table_ctx {
	int n;                   /* medians: the table's n */
	struct units u;          /* ratios: the table's units */
	struct notes nl;
};
typedef char *table_cell(const struct study *st, int g, int m, int r, struct table_ctx *ctx);

static char *median_table_cell(const struct study *st, int g, int m, int r, struct table_ctx *ctx)
{
	(void)r;
	return median_cell(&st->groups[g].metric[m], ctx->n);
}

static char *ratio_table_cell(const struct study *st, int g, int m, int r, struct table_ctx *ctx)
{
	const struct comparison *c = ratio_of_group(st, g, r, m);

	/* a declared comparison's numbers are the summary's, once */
	return g == st->ref[ratio_reference[r]] ? xstrdup("1 (reference)")
		: c && c->confirmatory && !isnan(c->q) ? xstrdup(c->sig ? "declared: in the summary *" : "declared: in the summary")
		: comparison_cell(c, 1, &ctx->u, &ctx->nl);
}

/* Whether metric m belongs in a table of the primary (1) or secondary (0) metrics. */
static int in_table(const struct analysis *a, const struct study *st, int m, int primary)
{
	return st->measured[m] && a->primary[m] == primary;
}

/* One row per measured metric of the kind (primary or secondary), one
 * column per combination; the notes of its cells below it. */
static void metric_table(struct doc *d, const struct analysis *a, const struct study *st,
			 char **headers, int r, table_cell *cell, int primary, struct table_ctx *ctx)
{
	char **cells = xmalloc((st->ngroups + 1) * sizeof(char *));

	table_begin(d, headers, st->ngroups + 1);
	for (int m = 0; m < a->nmetrics; m++) {
		if (!in_table(a, st, m, primary))
			continue;
		cells[0] = xstrdup(a->metric_names[m]);
		for (int g = 0; g < st->ngroups; g++)
			cells[1 + g] = cell(st, g, m, r, ctx);
		table_row(d, cells, st->ngroups + 1, 0);
		for (int g = 0; g <= st->ngroups; g++)
			free(cells[g]);
	}
	table_end(d);
	notes_para(d, &ctx->nl);
	free(cells);
}

/* The medians, then the paired ratios to stock and to rfc-before, of the
 * primary or the secondary metrics of one study, each table under the
 * line that gives its n (or units) and level. */
static void study_tables(struct doc *d, const struct analysis *a, const struct study *st, int primary)
{
	char **headers = xmalloc((st->ngroups + 1) * sizeof(char *));
	struct table_ctx ctx;
	char *text, *units, *length = run_length_text(a, st);

	headers[0] = "metric";
	for (int g = 0; g < st->ngroups; g++)
		headers[1 + g] = a->combos[st->groups[g].combo].name;
	memset(&ctx, 0, sizeof(ctx));
	for (int m = 0; m < a->nmetrics; m++)
		for (int g = 0; g < st->ngroups && in_table(a, st, m, primary); g++)
			note_n(&ctx.n, &st->groups[g].metric[m]);
	units = median_units(ctx.n);
	text = xasprintf("%s per combination%s%s (runs as units), %d blocks in %d boot%s:", units,
			 *length ? ", " : "", length, st->nblocks, st->nboots, st->nboots == 1 ? "" : "s");
	para(d, text);
	free(text);
	free(units);
	if (primary)
		few_runs_caveat(d, a, st);
	metric_table(d, a, st, headers, -1, median_table_cell, primary, &ctx);
	for (int r = 0; r < 2; r++) {
		int ref = st->ref[ratio_reference[r]];

		if (ref < 0)
			continue;
		memset(&ctx, 0, sizeof(ctx));
		ctx.u.level = NAN;
		for (int m = 0; m < a->nmetrics; m++)
			for (int g = 0; g < st->ngroups && in_table(a, st, m, primary); g++)
				if (g != ref)
					note_units(&ctx.u, ratio_of_group(st, g, r, m));
		units = units_text(&ctx.u);
		text = xasprintf("Paired ratio to %s (features %s) %s; p marginal, not adjusted, or Holm p for a declared comparison (* = resolved):",
				 a->combos[st->groups[ref].combo].name, a->combos[st->groups[ref].combo].features, units);
		para(d, text);
		free(text);
		free(units);
		metric_table(d, a, st, headers, r, ratio_table_cell, primary, &ctx);
	}
	free(length);
	free(headers);
}

static void effects_tables(struct doc *d, const struct analysis *a, const struct study *st)
{
	for (int i = 0; i < st->ndesigns; i++) {
		const struct design *ds = &st->designs[i];
		char *eh[] = { "term", "metric", "effect [interval], p, q", "exercised" };
		char *design = design_name(a, st, i), *base = base_name(a, ds->base), *units, *title;
		struct units u = { 0, "unit", NAN };
		struct notes nl = { 0, { NULL } };

		for (int e = 0; e < st->neffects; e++)
			if (st->effects[e].design == i && a->primary[st->effects[e].metric])
				note_units(&u, &st->effects[e].c);
		units = units_text(&u);
		if (ds->nwords)
			title = xasprintf("Fractional factorial design %d over %s (2^(%d-%d), resolution %d: %d cells, the other bits fixed at %s). Effects are ratios (exp of the per-block difference of mean logs, on the block's own runs; 1 = no effect) %s, marginal p; q: Holm over the design's %d main effects of that metric, the bits' own family (never starred, not in the verdict); each names what it is aliased with (up to two-bit interactions): an aliased pair is one contrast, the sum of both; A:B is the two-way interaction, one per alias chain (all metrics in effects.csv):",
					  i + 1, design, ds->k, ds->k - __builtin_ctz((unsigned)ds->ncells), ds->resolution,
					  ds->ncells, base, units, ds->k);
		else
			title = xasprintf("Factorial design %d over %s (%d cells, the other bits fixed at %s). Effects are ratios (exp of the per-block difference of mean logs, on the block's own runs; 1 = no effect) %s, marginal p; q: Holm over the design's %d main effects of that metric, the bits' own family (never starred, not in the verdict); A:B is the two-way interaction (all metrics in effects.csv):",
					  i + 1, design, ds->ncells, base, units, ds->k);
		para(d, title);
		free(title);
		free(units);
		free(design);
		free(base);
		table_begin(d, eh, 4);
		for (int e = 0; e < st->neffects; e++) {
			const struct effect *ef = &st->effects[e];
			const char *metric = a->metric_names[ef->metric];
			const char *verdict = "";
			char *row[4];

			if (ef->design != i || !a->primary[ef->metric])
				continue;
			row[0] = term_name(a, st, i, ef->term);
			if (ds->nwords) {
				char *al = alias_names(a, st, i, ef->term), *named;

				named = xasprintf("%s (aliased: %s)", row[0], *al ? al : "none up to two bits");
				free(row[0]);
				free(al);
				row[0] = named;
			}
			row[1] = (char *)metric;
			row[2] = comparison_cell(&ef->c, 0, &u, &nl);
			if (!isnan(ef->c.q)) {
				char *with_q = xasprintf("%s, q=%.3g", row[2], ef->c.q);

				free(row[2]);
				row[2] = with_q;
			}
			if (__builtin_popcount(ef->term) == 1) {
				char *bit = term_name(a, st, i, ef->term);

				verdict = bit_exercised(a, st, bit);
				free(bit);
				/* a point that never differed cannot show its bit's
				 * effect: "not exercised", not "no effect" */
				if (!strcmp(verdict, "reached") || !strcmp(verdict, "not reached")) {
					char *marked = xasprintf("%s (not exercised)", row[2]);

					free(row[2]);
					row[2] = marked;
				}
			}
			row[3] = (char *)verdict;
			table_row(d, row, 4, 0);
			free(row[0]);
			free(row[2]);
		}
		table_end(d);
		notes_para(d, &nl);
	}
}

/* A chart of the plan: its marker, or why it is not drawn, and which
 * panels it leaves out. */
static void plan_chart(struct doc *d, const struct chart_plan *plan)
{
	char *text;

	if (plan->skip_reason) {
		text = xasprintf("Chart %s skipped: %s.", plan->name, plan->skip_reason);
		para(d, text);
		free(text);
		return;
	}
	chart(d, plan);
	if (plan->left_out) {
		text = xasprintf("Chart %s leaves out what would be all 0: %s.", plan->name, plan->left_out);
		para(d, text);
		free(text);
	}
}

/* The primary metrics of one study: tables, factorial effects and charts
 * (the paired-ratio chart is in the summary). */
static void primary_study(struct doc *d, const struct analysis *a, int s)
{
	const struct study *st = &a->studies[s];
	struct chart_plan plan[CHART_KINDS];
	char *title = xasprintf("Workload %d: %s", s + 1, st->workload);

	heading(d, 4, title);
	free(title);
	study_tables(d, a, st, 1);
	if (st->ndesigns) {
		effects_tables(d, a, st);
	} else {
		title = xasprintf("No factorial effects: %s.", st->skip_effects);
		para(d, title);
		free(title);
	}
	plan_charts(a, s, plan);
	for (int i = 1; i < CHART_KINDS; i++)
		if (i != 7) /* the decision counters are secondary */
			plan_chart(d, &plan[i]);
	free_chart_plan(plan);
}

/* Which decision points each workload reached (exercised.csv): a bit's
 * effect can only show where its point's answer differed from 6.1's. */
static void exercised_section(struct doc *d, const struct analysis *a)
{
	char *eh[] = { "point", "bit", "runs counted", "evaluated", "differed", "applied", "runs differed", "verdict" };

	int counted = 0;

	for (int s = 0; s < a->nstudies; s++)
		for (const struct decision_point *p = decision_points; p->point; p++) {
			struct exercised x;

			point_exercised(a, &a->studies[s], p->point, &x);
			counted += x.runs;
		}
	heading(d, 3, "Which points each workload reached");
	if (!counted) {
		para(d, "Not known: no run counted the decision points (counting off, or a runs.csv from before the counters; exercised.csv says \"counting off\").");
		return;
	}
	para(d, "The kernel's decision counters (counting on), summed over each workload's ok runs: evaluated, the point computed both answers; differed, the PJT answer was not 6.1's; applied, it was used because its bit was on. differed: above 0 in some run; reached: evaluated but never differed; not reached: never evaluated; counting off: no run counted. A main effect of a bit whose point never differed is marked \"not exercised\" in the effects tables: the workload gave the bit nothing to change, which is not evidence of no effect. PJT_CLASSIFY and LEGACY_LOAD have no counter (exercised.csv).");
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];
		char *title = xasprintf("%s, %s:", st->topology, st->workload);

		para(d, title);
		free(title);
		table_begin(d, eh, 8);
		for (const struct decision_point *p = decision_points; p->point; p++) {
			struct exercised x;
			char *row[8];

			point_exercised(a, st, p->point, &x);
			row[0] = (char *)p->point;
			row[1] = (char *)p->bit;
			row[2] = xasprintf("%d", x.runs);
			row[3] = xasprintf("%.0f", x.evaluated);
			row[4] = xasprintf("%.0f", x.differed);
			row[5] = xasprintf("%.0f", x.applied);
			row[6] = xasprintf("%d", x.runs_differed);
			row[7] = (char *)x.verdict;
			table_row(d, row, 8, 0);
			for (int k = 2; k < 7; k++)
				free(row[k]);
		}
		table_end(d);
	}
}

static void primary_section(struct doc *d, const struct analysis *a)
{
	int *first = xcalloc(a->nstudies + 1, sizeof(int)), ntop = topology_order(d, a, first);
	char *text;

	heading(d, 2, "Primary metrics");
	para(d, "The primary metrics (pulls, migrations, throughput, wake-up p99 latency; the declared family's) per topology and workload: the medians, the paired ratios to the reference points and the charts. The paired-ratio charts are in the summary above; the other metrics under \"Secondary metrics and provenance\".");
	for (int t = 0; t < ntop; t++) {
		const char *topology = a->studies[first[t]].topology;

		text = xasprintf("Topology %s", topology);
		heading(d, 3, text);
		free(text);
		/* its sched domains: in the summary, once */
		for (int s = 0; s < a->nstudies; s++)
			if (!strcmp(a->studies[s].topology, topology))
				primary_study(d, a, s);
	}
	exercised_section(d, a);
	free(first);
}

/* The secondary metrics of every study: tables, and the decision counters. */
static void secondary_metrics(struct doc *d, const struct analysis *a)
{
	heading(d, 3, "Secondary metrics");
	para(d, "Every other column of runs.csv: the pulls by idle type, the other counters, the other latency percentiles and the run's duration. Their p are marginal, not adjusted, never starred.");
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];
		struct chart_plan plan[CHART_KINDS];
		char *title = xasprintf("Workload %d: %s (topology %s)", s + 1, st->workload, st->topology);
		int any = 0;

		heading(d, 4, title);
		free(title);
		for (int m = 0; m < a->nmetrics; m++)
			any |= in_table(a, st, m, 0);
		if (any)
			study_tables(d, a, st, 0);
		else
			para(d, "No secondary metric was measured.");
		plan_charts(a, s, plan);
		plan_chart(d, &plan[7]);
		free_chart_plan(plan);
	}
}

static void excluded_runs(struct doc *d, const struct analysis *a)
{
	const struct run_table *t = a->table;
	char *headers[] = { "runs.csv line", "seq", "combination", "workload", "rep", "status" };

	heading(d, 3, "Excluded runs");
	if (!a->n_crashed && !a->n_failed) {
		para(d, "None: every run has status ok.");
		return;
	}
	table_begin(d, headers, 6);
	for (int r = 0; r < t->nrows; r++) {
		const struct run_row *row = &t->rows[r];
		char *cells[6];

		if (row->status == RUN_OK)
			continue;
		cells[0] = xasprintf("%d", row->line);
		cells[1] = row->text[t->col_seq];
		cells[2] = row->text[t->col_combo];
		cells[3] = row->text[t->col_workload];
		cells[4] = row->text[t->col_rep];
		cells[5] = row->text[t->col_status];
		table_row(d, cells, 6, 0);
		free(cells[0]);
	}
	table_end(d);
}

/* report.md and report.html: the summary (the verdict, the paired-ratio
 * charts first), the primary metrics, where the variance is, then the
 * secondary metrics and the provenance under their own heading. */
/* "0.505 [0.287, 0.591]" of a log comparison, its level said when asked */
static char *log_ratio_text(const struct comparison *c, int with_level)
{
	char *level, *text;

	if (!c->present)
		return xasprintf("no estimate (%s)", c->note);
	if (isnan(c->level))
		return xasprintf("%.3f (%d %s, no interval)", exp(c->value), c->n_units, c->unit);
	level = format_level(c->level);
	text = with_level ? xasprintf("%.3f [%.3f, %.3f] (%s over %d %ss)", exp(c->value), exp(c->lo),
				      exp(c->hi), level, c->n_units, c->unit)
		: xasprintf("%.3f [%.3f, %.3f]", exp(c->value), exp(c->lo), exp(c->hi));
	free(level);
	return text;
}

/* Drift (drift.c): the position slope and each declared comparison from
 * the first and the second half of the boots, with one sentence on
 * whether the answer depends on where in a boot it was measured. */
static void drift_section(struct doc *d, const struct analysis *a)
{
	struct drift_study *drift;
	int n = drift_of(a, &drift);

	if (!n)
		return;
	heading(d, 3, "Drift: pulls by the run's position in its boot");
	para(d, "A run's position is its place in its boot's order (1 = first run after the boot). The slope is the change of log pulls per position within each combination, per boot, with the boots as units (the median and its order-statistic interval); runs with 0 pulls have no logarithm and are left out of it (counted). Each declared comparison is estimated again from the blocks in the first half of each boot and from those in the second (a block by the mean position of its runs). The drift candidates, scheduler state the guest reads at the end of each run (state_* columns: the domains' newidle balance cost bounds, the runqueues' avg_idle and idle balance cost, means over CPUs), get the same slope when the folder has them. run/stats --drift DIR prints the geometric means by position.");
	for (int i = 0; i < n; i++) {
		const struct drift_study *ds = &drift[i];
		const struct study *st = &a->studies[ds->study];
		const struct comparison *sl = &ds->slope;
		char *level = format_level(sl->level), *zeros, *text;

		zeros = ds->zeros ? xasprintf(" (%d of %d runs with 0 pulls left out)", ds->zeros, ds->runs) : xstrdup("");
		if (!sl->present)
			text = xasprintf("%s, %s: no slope (%s)%s.", st->workload, st->topology, sl->note, zeros);
		else if (isnan(sl->level))
			text = xasprintf("%s, %s: pulls %+.1f%% a position (%+.4f log per position, one boot: no interval)%s.",
					 st->workload, st->topology, (exp(sl->value) - 1) * 100, sl->value, zeros);
		else
			text = xasprintf("%s, %s: pulls %+.1f%% a position (%+.4f log per position [%+.4f, %+.4f], %s over %d %ss, p=%.3g)%s.",
					 st->workload, st->topology, (exp(sl->value) - 1) * 100, sl->value, sl->lo,
					 sl->hi, level, sl->n_units, sl->unit, sl->p, zeros);
		bullet(d, text);
		free(text);
		free(level);
		free(zeros);
		/* the candidates: scheduler state at each run's end (state_* columns) */
		for (int k = 0; k < ds->ncandidates; k++) {
			const struct comparison *c = &ds->candidates[k].slope;
			const char *name = a->table->names[ds->candidates[k].col];

			if (!c->present)
				text = xasprintf("%s (drift candidate): no slope (%s).", name, c->note);
			else if (isnan(c->level))
				text = xasprintf("%s (drift candidate): %+.1f%% a position (one boot: no interval).", name,
						 (exp(c->value) - 1) * 100);
			else
				text = xasprintf("%s (drift candidate): %+.1f%% a position (%+.4f log per position [%+.4f, %+.4f], p=%.3g).",
						 name, (exp(c->value) - 1) * 100, c->value, c->lo, c->hi, c->p);
			bullet(d, text);
			free(text);
		}
		for (int k = 0; k < ds->nhalves; k++) {
			const struct drift_halves *h = &ds->halves[k];
			char *first = log_ratio_text(&h->half[0], 1), *second = log_ratio_text(&h->half[1], 1);
			char *both = log_ratio_text(&h->diff, 0), *verdict;
			char *middle = h->at_middle ? xasprintf(" (%d block%s at the middle of a boot in neither half)",
								 h->at_middle, h->at_middle == 1 ? "" : "s") : xstrdup("");
			const char *combo = a->declared[h->declared].combo, *ref = a->declared[h->declared].reference;

			if (!h->agree_by)
				verdict = xstrdup("too few units to tell whether the halves agree");
			else if (h->agree)
				verdict = xasprintf("the halves agree (%s): no sign that the answer depends on where in the boot it was measured",
						    !strcmp(h->agree_by, "difference") ? "the interval of their ratio covers 1" : "their intervals overlap");
			else
				verdict = xasprintf("the halves disagree (%s): the answer depends on where in the boot it was measured, and a design that puts every combination in every position equally often is needed to read it as one number",
						    !strcmp(h->agree_by, "difference") ? "the interval of their ratio excludes 1" : "their intervals do not overlap");
			text = xasprintf("%s against %s: first half %s, second half %s; first over second %s: %s%s.",
					 combo, ref, first, second, both, verdict, middle);
			bullet(d, text);
			free(text);
			free(first);
			free(second);
			free(both);
			free(verdict);
			free(middle);
		}
		fputs("\n", d->md);
	}
}

void write_report(const struct analysis *a, const char *results_dir)
{
	const char *name = strrchr(results_dir, '/');
	struct doc d;
	char *title;

	/* results/latest is a link: name the folder it points at */
	char *real = realpath(results_dir, NULL);
	name = real && strrchr(real, '/') ? strrchr(real, '/') + 1 : name ? name + 1 : results_dir;
	title = xasprintf("pjt-sched results: %s", name);
	doc_begin(&d, results_dir, title);
	summary_section(&d, a);
	primary_section(&d, a);
	variance_section(&d, a);
	drift_section(&d, a);
	heading(&d, 2, "Secondary metrics and provenance");
	para(&d, "What the verdict does not rest on: the other metrics runs.csv holds, what was run and on what, how to read the numbers, the excluded runs.");
	secondary_metrics(&d, a);
	what_was_run(&d, a);
	how_to_read(&d, a);
	excluded_runs(&d, a);
	heading(&d, 3, "Files");
	para(&d, "summary.csv (every metric of every cell), summary.json (the same cells with this run's provenance), comparisons.csv (every paired comparison), effects.csv (factorial effects), exercised.csv (which decision points each workload reached), charts/*.png and *.svg, plots-data/ (the numbers each chart shows; colours.txt: each combination's colour in every chart). All are re-made from runs.csv by: make plots RESULTS=<this folder>.");
	doc_end(&d, title);
	free(real);
	free(title);
}
