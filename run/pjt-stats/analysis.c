/* From runs.csv to per-cell statistics, paired ratios and factorial effects.
 *
 * A study is one (topology, workload); a group is one combination in a
 * study; a block is one (boot, rep): the runner puts every cell of a study
 * once into each block, in a seeded order. Only runs with status ok enter
 * the statistics; the others are counted per group (n_crashed, n_failed)
 * and named on stderr.
 *
 * Cell: median, type 7 quartiles, and the median's exact order-statistic
 * interval (runs as units) at its own level (order.c).
 *
 * Ratio of group g to reference r: per block holding both, the paired log
 * ratio log x_g - log x_r; a 0 in a metric that is not a count drops the
 * block. The units are the blocks, or, when the pairs come from two or
 * more boots, the boots (each boot's median log ratio), so boot-to-boot
 * variance is inside the interval. A count is never shifted (log(x+1)
 * biases small counts toward 1): a boot's unit is the log ratio of its
 * summed counts, a unit 0 on one side -inf or +inf; a side 0 in every unit
 * has no ratio, "0 against 46" and the sign test of the counts instead
 * (count_ratio). Estimate exp(median of the units), interval exp of their
 * order-statistic interval, p from the sign test that interval inverts;
 * a declared comparison instead takes the Wilcoxon signed-rank test, the
 * Hodges-Lehmann estimate and the Walsh-average interval it inverts
 * (CONFIRMATORY_PROCEDURE, chosen by run/stats --procedures).
 *
 * Effects: every 2^k design (k >= 2) present: bits S and a base set B
 * (disjoint) such that every B | T, T a subset of S, is a combination.
 * Only maximal designs are kept. With sign_T(c) = product over the bits b
 * of term T of (+1 if cell c sets b else -1), a block's effect of T is
 *     sum_c sign_T(c) y(c) / 2^(k-|T|)
 * on the log values of the block's own runs (a block with a 0 dropped,
 * counted in the note): mean log with the bit minus mean log without it;
 * for A:B the difference of A's effect with and without B. Reported as
 * exp(): ratios (A:B the ratio of ratios: A's ratio with B over A's ratio
 * without B), 1 = no effect. Units, interval and p as for ratios, over
 * complete blocks.
 *
 * Only the declared comparisons (the matrix's compare lines) are tested
 * with a familywise error: per study one primary endpoint each (the
 * first primary metric in column order, pulls), Holm at 5% over them; the
 * study's other primary metrics (migrations, throughput, wake-up p99) in
 * a fixed sequence after it (adjust_family). Those are the only stars.
 * Everything else (other ratios, other metrics, effects) has its
 * marginal p, never starred; a design's main effects of one metric also
 * carry Holm's q over that design's bits. */
#include "pjt-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The reference points, their bits and what they stand for: run/contract/points */
const struct reference_point reference_points[NREFS] = { PJT_CONTRACT_POINTS };
const char *const reference_names[NREFS] = {
	reference_points[REF_STOCK].name, reference_points[REF_LEGACY].name,
	reference_points[REF_RFC_BEFORE].name, reference_points[REF_RFC_PELT].name,
	reference_points[REF_RFC_AFTER].name,
};
const int ratio_reference[NRATIOS] = { REF_STOCK, REF_RFC_BEFORE, REF_RFC_PELT };
const char *const ratio_column[NRATIOS] = { "ratio_to_stock", "ratio_to_rfc_before", "ratio_to_rfc_pelt" };
/* One colour per combination, the one mapping of every chart of a report
 * (charts.c writes it to plots-data/colours.txt for run/trace-report):
 * Okabe and Ito's palette, told apart with the common colour-vision
 * deficiencies. The reference points keep theirs in every report: stock
 * grey, legacy-6.1 bluish green, rfc-before orange, rfc-pelt reddish
 * purple, rfc-after blue; the other combinations take the rest in display
 * order (vermillion, sky blue, yellow), then Paul Tol's muted scheme. */
static const int reference_colours[NREFS] = { 0x666666, 0x009e73, 0xe69f00, 0xcc79a7, 0x0072b2 };
static const int palette[] = {
	0xd55e00, 0x56b4e9, 0xf0e442,
	0x332288, 0x88ccee, 0x44aa99, 0x117733, 0x999933, 0xddcc77, 0xcc6677, 0x882255, 0xaa4499,
	0x000000,
};
/* The primary metrics and which way each is better: the one definition
 * the statistics, the report's summary and run/compare's --fail-above
 * read. Pulls and migrations: each moves a task off the CPU whose cache
 * it warmed, and the RFC's aim is fewer of them (its throughput must not
 * drop for it); throughput: more is better; wake-up latency: less. */
static const struct {
	const char *name;
	int better;
	const char *what;        /* for sentences: "pulls", "throughput" */
} primary_metrics[] = {
	{ "lb_pulls_total", BETTER_LOWER, "pulls" },
	{ "migrations", BETTER_LOWER, "migrations" },
	{ "records_per_s", BETTER_HIGHER, "throughput" },
	{ "ops_per_s", BETTER_HIGHER, "throughput" },
	{ "wakeup_p99_us", BETTER_LOWER, "wake-up p99 latency" },
};
#define NPRIMARY (sizeof(primary_metrics) / sizeof(primary_metrics[0]))

int is_primary_metric(const char *name)
{
	for (size_t i = 0; i < NPRIMARY; i++)
		if (!strcmp(name, primary_metrics[i].name))
			return 1;
	return 0;
}

int metric_better(const char *name)
{
	for (size_t i = 0; i < NPRIMARY; i++)
		if (!strcmp(name, primary_metrics[i].name))
			return primary_metrics[i].better;
	return BETTER_UNDEFINED;
}

const char *metric_better_word(const char *name)
{
	int better = metric_better(name);

	return better == BETTER_HIGHER ? "higher" : better == BETTER_LOWER ? "lower" : NULL;
}

const char *metric_noun(const char *name)
{
	for (size_t i = 0; i < NPRIMARY; i++)
		if (!strcmp(name, primary_metrics[i].name))
			return primary_metrics[i].what;
	return name;
}

const char *better_text(int better)
{
	return better == BETTER_HIGHER ? "higher is better"
		: better == BETTER_LOWER ? "lower is better" : "no direction (secondary)";
}

/* The primary metrics with their directions, joined by sep. */
char *primary_metric_list(const char *sep)
{
	char *list = xstrdup("");

	for (size_t i = 0; i < NPRIMARY; i++) {
		char *next = xasprintf("%s%s%s (%s)", list, i ? sep : "", primary_metrics[i].name,
				       better_text(primary_metrics[i].better));

		free(list);
		list = next;
	}
	return list;
}

int metric_index(const struct analysis *a, const char *name)
{
	for (int m = 0; m < a->nmetrics; m++)
		if (!strcmp(a->metric_names[m], name))
			return m;
	return -1;
}

int study_group_of(const struct study *s, int combo)
{
	for (int g = 0; g < s->ngroups; g++)
		if (s->groups[g].combo == combo)
			return g;
	return -1;
}

static int popcount(uint32_t x)
{
	return __builtin_popcount(x);
}

static int compare_combos(const void *pa, const void *pb)
{
	const struct combo *a = pa, *b = pb;
	int ra = a->reference < 0 ? NREFS : a->reference, rb = b->reference < 0 ? NREFS : b->reference;

	if (ra != rb)
		return ra - rb;
	if (ra < NREFS) { /* two combos with one reference's bits: its name first */
		int na = strcmp(a->name, reference_names[ra]) != 0;
		int nb = strcmp(b->name, reference_names[rb]) != 0;

		if (na != nb)
			return na - nb;
	}
	if (popcount(a->bits) != popcount(b->bits))
		return popcount(a->bits) - popcount(b->bits);
	return strcmp(a->name, b->name);
}

static int bit_index(struct analysis *a, const char *word, int add, int line)
{
	int b;

	for (b = 0; b < a->nbits && strcmp(a->bit_names[b], word); b++)
		;
	if (b == a->nbits) {
		if (!add)
			return -1;
		if (a->nbits == 32)
			die_input("%s:%d: more than 32 distinct feature bits", a->table->path, line);
		a->bit_names[a->nbits++] = xstrdup(word);
	}
	return b;
}

/* The mask of a '+'-joined feature list, in any order; add: learn new
 * names, else -1 when one is unknown (no combination can have it). */
static int64_t feature_bits(struct analysis *a, const char *features, int add, int line)
{
	uint32_t bits = 0;
	char *copy, *word, *save;

	if (!strcmp(features, "none") || !*features)
		return 0;
	copy = xstrdup(features);
	for (word = strtok_r(copy, "+", &save); word; word = strtok_r(NULL, "+", &save)) {
		int b = bit_index(a, word, add, line);

		if (b < 0) {
			free(copy);
			return -1;
		}
		bits |= UINT32_C(1) << b;
	}
	free(copy);
	return bits;
}

/* FEATURES ("A+B+C") without the word WORD, newly allocated */
static char *without_word(const char *features, const char *word)
{
	char *out = xstrdup(""), *copy = xstrdup(features), *w, *save;

	for (w = strtok_r(copy, "+", &save); w; w = strtok_r(NULL, "+", &save)) {
		char *joined;

		if (!strcmp(w, word))
			continue;
		joined = xasprintf("%s%s%s", out, *out ? "+" : "", w);
		free(out);
		out = joined;
	}
	free(copy);
	return out;
}

char *base_name(const struct analysis *a, uint32_t bits)
{
	char *name = xstrdup("");

	for (int b = 0; b < a->nbits; b++) {
		char *joined;

		if (!(bits & (UINT32_C(1) << b)))
			continue;
		joined = xasprintf("%s%s%s", name, *name ? "+" : "", a->bit_names[b]);
		free(name);
		name = joined;
	}
	if (!*name) {
		free(name);
		name = xstrdup("none");
	}
	return name;
}

double metric_value(const struct analysis *a, const struct run_row *row, int m)
{
	int col = a->metric_col[m];

	if (col >= 0)
		return row->value[col];
	/* lb_pulls_total: what the RFC counted, pulls of every idle type */
	double sum = 0;
	for (int i = 0; i < 3; i++) {
		static const char *const parts[] = { "lb_pulls_idle", "lb_pulls_busy", "lb_pulls_newidle" };
		double v = row->value[column_index(a->table, parts[i])];

		if (isnan(v))
			return NAN;
		sum += v;
	}
	return sum;
}

static void set_metrics(struct analysis *a)
{
	const struct run_table *t = a->table;

	a->metric_names = xmalloc((t->ncols + 1) * sizeof(char *));
	a->metric_col = xmalloc((t->ncols + 1) * sizeof(int));
	a->primary = xmalloc((t->ncols + 1) * sizeof(int));
	for (int j = 0; j < t->ncols; j++) {
		if (!t->is_metric[j])
			continue;
		a->metric_names[a->nmetrics] = t->names[j];
		a->metric_col[a->nmetrics++] = j;
		if (!strcmp(t->names[j], "lb_pulls_newidle")) {
			a->metric_names[a->nmetrics] = "lb_pulls_total";
			a->metric_col[a->nmetrics++] = -1;
		}
	}
	for (int m = 0; m < a->nmetrics; m++)
		a->primary[m] = is_primary_metric(a->metric_names[m]);
}

/* Combos by name (first appearance), each row's combo index in row_combo. */
static void collect_combos(struct analysis *a, int *row_combo)
{
	const struct run_table *t = a->table;
	struct strmap names = { 0 };
	int next_palette = 0, *order;
	int64_t ref_bits[NREFS], ref_old[NREFS];

	a->combos = xmalloc(t->nrows * sizeof(struct combo));
	for (int r = 0; r < t->nrows; r++) {
		const struct run_row *row = &t->rows[r];
		const char *name = row->text[t->col_combo];
		int c = map_get(&names, name);
		uint32_t bits = feature_bits(a, row->text[t->col_features], 1, row->line);

		if (c >= 0) {
			if (a->combos[c].bits != bits)
				die_input("%s:%d: combo '%s' has features '%s' here but '%s' before",
					  t->path, row->line, name, row->text[t->col_features],
					  a->combos[c].features);
			row_combo[r] = c;
			continue;
		}
		c = a->ncombos++;
		a->combos[c].name = xstrdup(name);
		a->combos[c].features = xstrdup(row->text[t->col_features]);
		a->combos[c].bits = bits;
		map_put(&names, a->combos[c].name, c);
		row_combo[r] = c;
	}
	map_free(&names);
	/* patch 11 added 3.7's group classification (PJT_CLASSIFY) to the
	 * RFC's reference points: runs.csv from before it has rfc-before,
	 * rfc-pelt and rfc-after without it, the same points then */
	for (int i = 0; i < NREFS; i++) {
		char *without = without_word(reference_points[i].bits, "PJT_CLASSIFY");

		ref_bits[i] = feature_bits(a, reference_points[i].bits, 0, 0);
		ref_old[i] = i >= REF_RFC_BEFORE ? feature_bits(a, without, 0, 0) : -1;
		free(without);
	}
	for (int c = 0; c < a->ncombos; c++) {
		a->combos[c].reference = -1;
		for (int i = 0; i < NREFS; i++)
			if (ref_bits[i] == a->combos[c].bits ||
			    (ref_old[i] >= 0 && ref_old[i] == a->combos[c].bits))
				a->combos[c].reference = i;
		a->combos[c].colour = c; /* the old index, until sorted */
	}
	qsort(a->combos, a->ncombos, sizeof(struct combo), compare_combos);
	order = xmalloc(a->ncombos * sizeof(int));
	for (int c = 0; c < a->ncombos; c++)
		order[a->combos[c].colour] = c;
	for (int r = 0; r < t->nrows; r++)
		row_combo[r] = order[row_combo[r]];
	free(order);
	for (int c = 0; c < a->ncombos; c++) {
		int ref = a->combos[c].reference;

		/* a second combination on a reference's bits takes a colour of its own */
		if (ref >= 0 && (c == 0 || a->combos[c - 1].reference != ref))
			a->combos[c].colour = reference_colours[ref];
		else
			a->combos[c].colour = palette[next_palette++ % (int)(sizeof(palette) / sizeof(palette[0]))];
	}
}

/* The units of a comparison, sorted in place, by procedure proc: the
 * estimate, interval and test of order.c (the sign test: the median and
 * the order-statistic interval it inverts; the signed-rank test: the
 * Hodges-Lehmann estimate and the Walsh-average interval it inverts). A
 * unit at ratio 0 or unbounded (a count 0 on one side) has a sign and a
 * rank but no Walsh average: such a comparison keeps the sign test. */
void comparison_of_units_by(struct comparison *c, double *units, int n, const char *unit, int proc)
{
	struct interval ci;
	int infinite = 0;

	memset(c, 0, sizeof(*c));
	c->value = c->lo = c->hi = c->level = c->p = c->q = NAN;
	c->note = "";
	c->unit = unit;
	c->n_units = n;
	if (!n) {
		c->note = "no block holds both";
		return;
	}
	sort_doubles(units, n);
	for (int i = 0; i < n; i++)
		infinite += isinf(units[i]);
	if (infinite)
		proc = PROC_SIGN;
	c->procedure = procedure_names[proc];
	c->present = 1;
	test_units(proc, units, n, &c->value, &ci, &c->p);
	c->lo = ci.lo;
	c->hi = ci.hi;
	c->level = ci.level;
	if (n < 2) {
		c->note = "one unit: no interval";
	} else {
		int ties = 0;

		for (int i = 0; i < n; i++)
			ties += units[i] == 0;
		/* equal values (a quantised metric: wake-up p50 in 1-us steps) */
		if (ties && proc == PROC_SIGN)
			c->note = xasprintf("%d of %d %ss tie at a ratio of exactly 1 (equal values): each counts on both sides of the sign test and p is at least %.3g",
					    ties, n, unit, sign_test_tie_floor(n, ties));
		else if (ties == n) /* Pratt's zeros cost only power, unless nothing else is left */
			c->note = xasprintf("every %s ties at a ratio of exactly 1 (equal values): no signed-rank test, p = 1",
					    unit);
	}
}

void comparison_of_units(struct comparison *c, double *units, int n, const char *unit)
{
	comparison_of_units_by(c, units, n, unit, PROC_SIGN);
}

/* d[i] with the boot index of each: the units (boots when several). */
int boot_units(double *d, const int *boot, int n, int nboots, const char **unit)
{
	int nb = 0, *seen, out = 0;
	double *tmp;

	*unit = "block";
	if (nboots < 2 || n < 2)
		return n;
	seen = xcalloc(nboots, sizeof(int));
	for (int i = 0; i < n; i++)
		nb += !seen[boot[i]]++;
	if (nb < 2) {
		free(seen);
		return n;
	}
	*unit = "boot";
	tmp = xmalloc(n * sizeof(double));
	for (int b = 0; b < nboots; b++) {
		int k = 0;

		if (!seen[b])
			continue;
		for (int i = 0; i < n; i++)
			if (boot[i] == b)
				tmp[k++] = d[i];
		sort_doubles(tmp, k);
		d[out++] = median_sorted(tmp, k);
	}
	free(tmp);
	free(seen);
	return out;
}

/* Counts (pulls, migrations, counters) may be 0 in a run; any other
 * measurement that reads 0 was not really measured. */
int is_count_metric(const char *name)
{
	return !strcmp(name, "lb_pulls_total") || is_count_column(name);
}

static const char *dropped_note(int dropped)
{
	return dropped ? xasprintf("%d block%s with a 0 dropped", dropped, dropped == 1 ? "" : "s") : "";
}

/* Counts: each unit's totals of both sides, packed at the front of vx and
 * vr, and its runs in runs[]: a boot's sums when the pairs come from 2 or
 * more boots (a rate ratio per boot: no median of tiny per-run ratios),
 * else each block's pair. Returns the number of units. */
static int count_units(double *vx, double *vr, int *runs, const int *boot, int n, int nboots,
		       const char **unit)
{
	int nb = 0, out = 0, *slot = xmalloc((nboots + 1) * sizeof(int));

	for (int b = 0; b < nboots; b++)
		slot[b] = -1;
	for (int i = 0; i < n; i++)
		if (slot[boot[i]] < 0)
			slot[boot[i]] = nb++;
	*unit = nb >= 2 ? "boot" : "block";
	if (nb < 2) {
		for (int i = 0; i < n; i++)
			runs[i] = 1;
		free(slot);
		return n;
	}
	double *sx = xcalloc(nb, sizeof(double)), *sr = xcalloc(nb, sizeof(double));

	for (int i = 0; i < nb; i++)
		runs[i] = 0;
	for (int i = 0; i < n; i++) {
		int u = slot[boot[i]];

		sx[u] += vx[i];
		sr[u] += vr[i];
		runs[u]++;
	}
	for (out = 0; out < nb; out++) {
		vx[out] = sx[out];
		vr[out] = sr[out];
	}
	free(sx);
	free(sr);
	free(slot);
	return out;
}

/* The median over the units of a side's total per run. */
static double per_run_median(const double *v, const int *runs, int n)
{
	double *t = xmalloc((n + 1) * sizeof(double)), med;

	for (int i = 0; i < n; i++)
		t[i] = v[i] / runs[i];
	sort_doubles(t, n);
	med = median_sorted(t, n);
	free(t);
	return med;
}

/* A count's comparison. With each side's total somewhere above 0, the
 * units are log(total_x) - log(total_ref), a unit with a 0 on one side
 * -inf or +inf (its sign is what the sign test needs; the order
 * statistics may then reach 0 or unbounded), a unit 0 on both a tie. When
 * one side is 0 in every unit there is no ratio to estimate: the sides'
 * medians per run ("0 against 46") and the exact sign test of the units'
 * differences. Never a shifted log(x+1), which biases small counts toward
 * a ratio of 1 and turns 0 against 46 into 1/47. */
static void count_ratio(struct comparison *out, double *vx, double *vr, int *boot, int n,
			int nboots, double *d, int proc)
{
	const char *unit;
	int *runs = xmalloc((n + 1) * sizeof(int)), zx = 0, zr = 0, one_side = 0;

	n = count_units(vx, vr, runs, boot, n, nboots, &unit);
	for (int i = 0; i < n; i++) {
		zx += vx[i] == 0;
		zr += vr[i] == 0;
		one_side += (vx[i] == 0) != (vr[i] == 0);
	}
	if (n && (zx == n || zr == n)) {
		for (int i = 0; i < n; i++)
			d[i] = vx[i] - vr[i];
		comparison_of_units_by(out, d, n, unit, proc);
		out->zero_side = zx == n && zr == n ? ZERO_BOTH : zx == n ? ZERO_X : ZERO_REF;
		out->x_median = per_run_median(vx, runs, n);
		out->ref_median = per_run_median(vr, runs, n);
		out->value = out->lo = out->hi = out->level = NAN;
		if (out->zero_side == ZERO_BOTH) {
			out->p = NAN;
			out->note = xasprintf("both 0 in every %s: no ratio, no test", unit);
		} else {
			out->note = xasprintf("%s 0 in every %s: no ratio; per run %g against %g, %s test of the counts per %s",
					      zx == n ? "this side" : "the reference", unit,
					      out->x_median, out->ref_median, out->procedure, unit);
		}
		free(runs);
		return;
	}
	for (int i = 0; i < n; i++)
		d[i] = vx[i] == vr[i] ? 0 : log(vx[i]) - log(vr[i]);
	comparison_of_units_by(out, d, n, unit, proc);
	if (out->present) {
		/* the two middle units one at ratio 0 (or unbounded): no mean of
		 * logs; their mean as ratios */
		out->value = isnan(out->value) ? (exp(d[n / 2 - 1]) + exp(d[n / 2])) / 2 : exp(out->value);
		out->lo = exp(out->lo);
		out->hi = exp(out->hi);
	}
	if (one_side) {
		char *zn = xasprintf("%d %s%s with a 0 on one side (log ratio -inf or +inf: counted by its sign)",
				     one_side, unit, one_side == 1 ? "" : "s");

		out->note = *out->note ? xasprintf("%s; %s", out->note, zn) : zn;
	}
	free(runs);
}

char *zero_side_text(const struct comparison *c)
{
	return c->zero_side == ZERO_BOTH ? xstrdup("both 0")
		: xasprintf("%g against %g", c->x_median, c->ref_median);
}

static void paired_ratio(const struct analysis *a, const struct study *st, int g, int ref, int m,
			 struct comparison *out, double *d, int *boot, int proc)
{
	const struct group *x = &st->groups[g], *r = &st->groups[ref];
	const char *unit, *note;
	int n = 0, dropped = 0, count = is_count_metric(a->metric_names[m]);
	double *vx = xmalloc((st->nblocks + 1) * sizeof(double));
	double *vr = xmalloc((st->nblocks + 1) * sizeof(double));

	for (int b = 0; b < st->nblocks; b++) {
		int rx = x->block_row[b], rr = r->block_row[b];

		if (rx < 0 || rr < 0)
			continue;
		vx[n] = metric_value(a, &a->table->rows[rx], m);
		vr[n] = metric_value(a, &a->table->rows[rr], m);
		if (isnan(vx[n]) || isnan(vr[n]))
			continue;
		if (!count && (vx[n] <= 0 || vr[n] <= 0)) {
			dropped++;
			continue;
		}
		boot[n++] = st->block_boot[b];
	}
	if (count) {
		count_ratio(out, vx, vr, boot, n, st->nboots, d, proc);
		out->primary = a->primary[m];
		free(vx);
		free(vr);
		return;
	}
	/* a difference of logs: log(x / r) underflows to -inf for extreme values */
	for (int i = 0; i < n; i++)
		d[i] = log(vx[i]) - log(vr[i]);
	free(vx);
	free(vr);
	note = dropped_note(dropped);
	n = boot_units(d, boot, n, st->nboots, &unit);
	comparison_of_units_by(out, d, n, unit, proc);
	out->primary = a->primary[m];
	if (!out->present) {
		if (dropped)
			out->note = note;
		return;
	}
	out->value = exp(out->value);
	out->lo = exp(out->lo);
	out->hi = exp(out->hi);
	if (*note)
		out->note = *out->note ? xasprintf("%s; %s", out->note, note) : note;
}

char *term_name(const struct analysis *a, const struct study *s, int design, uint32_t term)
{
	const struct design *d = &s->designs[design];
	char *name = xstrdup("");

	for (int i = 0; i < d->k; i++) {
		if (!(term & (UINT32_C(1) << i)))
			continue;
		int b = __builtin_ctz(d->factor_bits[i]);
		char *joined = xasprintf("%s%s%s", name, *name ? ":" : "", a->bit_names[b]);

		free(name);
		name = joined;
	}
	return name;
}

char *design_name(const struct analysis *a, const struct study *st, int design)
{
	char *name = term_name(a, st, design, (UINT32_C(1) << st->designs[design].k) - 1);

	for (char *p = name; *p; p++)
		if (*p == ':')
			*p = '+'; /* a design is a feature set */
	return name;
}

static int group_with_bits(const struct analysis *a, const struct study *s, uint32_t bits)
{
	for (int g = 0; g < s->ngroups; g++)
		if (a->combos[s->groups[g].combo].bits == bits)
			return g; /* first in display order */
	return -1;
}

/* (base, set) dominated by (base2, set2): a face of the larger design. */
static int dominated(uint32_t base, uint32_t set, uint32_t base2, uint32_t set2)
{
	return (base2 & ~base) == 0 && (set & ~set2) == 0 && ((base & ~base2) & ~set2) == 0 &&
	       !(base == base2 && set == set2);
}

#define MAX_DESIGNS 256
static void find_designs(const struct analysis *a, struct study *s)
{
	uint32_t bases[MAX_DESIGNS], sets[MAX_DESIGNS];
	int n = 0;

	for (int g = 0; g < s->ngroups && n < MAX_DESIGNS; g++) {
		uint32_t base = a->combos[s->groups[g].combo].bits, cand[32];
		int nc = 0;

		for (int gg = 0; gg < s->ngroups; gg++) {
			uint32_t bits = a->combos[s->groups[gg].combo].bits, extra = bits & ~base;

			if ((bits & base) == base && popcount(extra) == 1) {
				int dup = 0;

				for (int i = 0; i < nc; i++)
					dup |= cand[i] == extra;
				if (!dup && nc < 32)
					cand[nc++] = extra;
			}
		}
		if (nc > 10)
			nc = 10; /* 2^10 cells is far beyond any matrix this harness runs */
		for (uint32_t sub = 3; sub < (UINT32_C(1) << nc) && n < MAX_DESIGNS; sub++) {
			uint32_t set = 0;
			int full = popcount(sub) >= 2 && popcount(sub) <= 8;

			for (int i = 0; i < nc; i++)
				if (sub & (UINT32_C(1) << i))
					set |= cand[i];
			/* every subset of set, added to base, must be a combination */
			for (uint32_t t = set; full; t = (t - 1) & set) {
				full = group_with_bits(a, s, base | t) >= 0;
				if (!t)
					break;
			}
			if (full) {
				bases[n] = base;
				sets[n++] = set;
			}
		}
	}
	s->designs = xmalloc((n ? n : 1) * sizeof(struct design));
	for (int i = 0; i < n; i++) {
		struct design *d = &s->designs[s->ndesigns];
		int keep = 1;

		for (int j = 0; j < n && keep; j++) /* maximal, and once */
			keep = !dominated(bases[i], sets[i], bases[j], sets[j]) &&
			       !(j < i && bases[j] == bases[i] && sets[j] == sets[i]);
		if (!keep)
			continue;
		d->base = bases[i];
		d->k = 0;
		for (int b = 0; b < 32; b++)
			if (sets[i] & (UINT32_C(1) << b))
				d->factor_bits[d->k++] = UINT32_C(1) << b;
		d->ncells = 1 << d->k;
		d->nwords = d->resolution = 0;
		for (uint32_t cell = 0; cell < (UINT32_C(1) << d->k); cell++) {
			uint32_t bits = d->base;

			for (int j = 0; j < d->k; j++)
				if (cell & (UINT32_C(1) << j))
					bits |= d->factor_bits[j];
			d->cell_levels[cell] = cell;
			d->cell_group[cell] = group_with_bits(a, s, bits);
		}
		s->ndesigns++;
	}
}

/* CELL (bits) is one of full design D's cells. */
static int in_full_design(const struct design *d, uint32_t cell)
{
	uint32_t set = 0;

	for (int i = 0; i < d->k; i++)
		set |= d->factor_bits[i];
	return (cell & ~set) == d->base;
}

/*
 * Regular fractions among the combinations: a base set B and a set V of
 * bit sets closed under symmetric difference (a linear space over GF(2),
 * 0 included), every B | v a combination, v disjoint from B.  The factors
 * are V's bits S; with |S| > dim V it is a 2^(|S|-p) fraction whose
 * defining relation is every nonempty W within S meeting each v in an
 * even number of bits.  Kept when its resolution (the shortest word) is
 * at least 3, so that no two main effects are aliased, when it is not
 * inside a full design already found and not inside a larger fraction.
 * Each combination not yet in a closed set of this base starts a greedy
 * closure (adding v when B | (u ^ v) is a combination for every u already
 * in V): one pass finds the largest closed set holding the start, since a
 * v that cannot join now cannot join a larger V either.  Skipping starts
 * already in a set keeps a full 2^8 matrix (256 combinations) to one
 * closure per base.
 */
static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;

	return (x > y) - (x < y);
}

static void find_fractions(const struct analysis *a, struct study *s)
{
	int nfull = s->ndesigns, found = 0;
	struct design *fr = xmalloc(MAX_DESIGNS * sizeof(struct design));
	uint32_t *all = xmalloc((s->ngroups + 1) * sizeof(uint32_t));
	char *covered = xmalloc(s->ngroups + 1);

	for (int g = 0; g < s->ngroups; g++)
		all[g] = a->combos[s->groups[g].combo].bits;
	qsort(all, s->ngroups, sizeof(uint32_t), cmp_u32);
#define HAS_BITS(x) (bsearch(&(uint32_t){ (x) }, all, s->ngroups, sizeof(uint32_t), cmp_u32) != NULL)
	for (int g = 0; g < s->ngroups; g++) {
		uint32_t base = a->combos[s->groups[g].combo].bits;

		memset(covered, 0, s->ngroups);
		for (int start = 0; start < s->ngroups && found < MAX_DESIGNS; start++) {
			uint32_t space[256], support = 0, words[256];
			int n = 1, dim = 0, nwords = 0, res = 99, dup = 0;
			struct design *d = &fr[found];

			if (covered[start])
				continue;
			space[0] = 0;
			for (int i = 0; i < s->ngroups; i++) {
				int gi = (start + i) % s->ngroups, ok = 1;
				uint32_t v = a->combos[s->groups[gi].combo].bits;

				if ((v & base) != base || !(v &= ~base) || n >= 128)
					continue;
				for (int u = 0; u < n && ok; u++)
					ok = space[u] != v && HAS_BITS(base | (space[u] ^ v));
				if (!ok)
					continue;
				for (int u = 0; u < n; u++)
					space[n + u] = space[u] ^ v;
				n *= 2;
				dim++;
				support |= v;
			}
			for (int i = 0; i < s->ngroups; i++) {
				uint32_t v = a->combos[s->groups[i].combo].bits;

				for (int u = 0; u < n && !covered[i]; u++)
					covered[i] = (v & base) == base && (v & ~base) == space[u];
			}
			if (dim < 2 || popcount(support) <= dim || popcount(support) > 8)
				continue; /* a full factorial (find_designs) or too small */
			for (uint32_t w = support; w; w = (w - 1) & support) {
				int even = 1;

				for (int u = 0; u < n && even; u++)
					even = popcount(w & space[u]) % 2 == 0;
				if (even) {
					words[nwords++] = w;
					if (popcount(w) < res)
						res = popcount(w);
				}
			}
			if (res < 3)
				continue;
			for (int f = 0; f < nfull && !dup; f++) {
				int inside = 1;

				for (int u = 0; u < n && inside; u++)
					inside = in_full_design(&s->designs[f], base | space[u]);
				dup = inside;
			}
			for (int f = 0; f < found && !dup; f++) {
				int inside = 1;

				for (int u = 0; u < n && inside; u++) {
					int hit = 0;

					for (int c = 0; c < fr[f].ncells && !hit; c++)
						hit = a->combos[s->groups[fr[f].cell_group[c]].combo].bits == (base | space[u]);
					inside = hit;
				}
				if (inside && fr[f].ncells >= n)
					dup = 1;
				else if (inside) /* fr[f] is inside this larger one */
					fr[f].ncells = 0;
			}
			if (dup)
				continue;
			d->base = base;
			d->k = 0;
			for (int b = 0; b < 32; b++)
				if (support & (UINT32_C(1) << b))
					d->factor_bits[d->k++] = UINT32_C(1) << b;
			d->ncells = n;
			for (int u = 0; u < n; u++) {
				d->cell_levels[u] = 0;
				for (int i = 0; i < d->k; i++)
					if (space[u] & d->factor_bits[i])
						d->cell_levels[u] |= UINT32_C(1) << i;
				d->cell_group[u] = group_with_bits(a, s, base | space[u]);
			}
			d->nwords = 0;
			for (int w = 0; w < nwords; w++) {
				uint32_t lw = 0;

				for (int i = 0; i < d->k; i++)
					if (words[w] & d->factor_bits[i])
						lw |= UINT32_C(1) << i;
				d->words[d->nwords++] = lw;
			}
			d->resolution = res;
			found++;
		}
	}
#undef HAS_BITS
	s->designs = xrealloc(s->designs, (nfull + found + 1) * sizeof(struct design));
	for (int f = 0; f < found; f++)
		if (fr[f].ncells)
			s->designs[s->ndesigns++] = fr[f];
	free(fr);
	free(all);
	free(covered);
	if (!s->ndesigns)
		s->skip_effects = xstrdup("no factorial design: the combinations do not include all 2^k cells of any two or more bits, nor a regular fraction of resolution 3 or more");
}

/* TERM's aliases in fraction DS: TERM ^ W for each word W. */
static int term_aliases(const struct design *ds, uint32_t term, uint32_t *out)
{
	int n = 0;

	for (int w = 0; w < ds->nwords; w++)
		out[n++] = term ^ ds->words[w];
	return n;
}

char *alias_names(const struct analysis *a, const struct study *st, int design, uint32_t term)
{
	const struct design *ds = &st->designs[design];
	uint32_t al[256];
	int n = term_aliases(ds, term, al);
	char *text = xstrdup("");

	for (int order = 1; order <= 2; order++)
		for (int i = 0; i < n; i++) {
			char *name, *joined;

			if (popcount(al[i]) != order)
				continue;
			name = term_name(a, st, design, al[i]);
			joined = xasprintf("%s%s%s", text, *text ? " = " : "", name);
			free(name);
			free(text);
			text = joined;
		}
	return text;
}

/* The sample standard deviation of x[0..n-1]; NaN below 2 values.  A
 * main effect's, over its units, is what run/stats --power --unit-sd
 * takes to size a design for it. */
static double sample_sd(const double *x, int n)
{
	double mean = 0, ss = 0;

	if (n < 2)
		return NAN;
	for (int i = 0; i < n; i++)
		mean += x[i] / n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (n - 1));
}

/* A main effect over the design's cells, half with the bit and half
 * without; an interaction A:B over quarters, so that it is the ratio of
 * ratios (A's ratio with B over A's ratio without B), not its square
 * root. A full design's cells or a fraction's of resolution 3 or more
 * hold every level pair of two factors equally often. */
static double contrast(const struct design *ds, uint32_t term, const double *cell_values)
{
	double sum = 0;

	for (int c = 0; c < ds->ncells; c++) {
		int sign = popcount(term & ~ds->cell_levels[c]) % 2 ? -1 : 1;

		sum += sign * cell_values[c];
	}
	return sum / (ds->ncells >> popcount(term));
}

static void compute_effects(const struct analysis *a, struct study *s)
{
	int cap = 0;
	double *d = xmalloc((s->nblocks + 1) * sizeof(double));
	int *boot = xmalloc((s->nblocks + 1) * sizeof(int));

	for (int i = 0; i < s->ndesigns; i++)
		cap += a->nmetrics * (s->designs[i].k + s->designs[i].k * (s->designs[i].k - 1) / 2);
	s->effects = xmalloc((cap ? cap : 1) * sizeof(struct effect));
	for (int i = 0; i < s->ndesigns; i++) {
		const struct design *ds = &s->designs[i];
		uint32_t cells = (uint32_t)ds->ncells, terms[64];
		int nterms = 0;

		for (int x = 0; x < ds->k; x++)
			terms[nterms++] = UINT32_C(1) << x;
		/* in a fraction, one interaction per alias chain, none that is a
		 * main effect's contrast (resolution 3) */
		for (int x = 0; x < ds->k; x++)
			for (int y = x + 1; y < ds->k; y++) {
				uint32_t t = (UINT32_C(1) << x) | (UINT32_C(1) << y), al[256];
				int n = term_aliases(ds, t, al), keep = 1;

				for (int j = 0; j < n && keep; j++)
					for (int u = 0; u < nterms && keep; u++)
						keep = al[j] != terms[u];
				if (keep)
					terms[nterms++] = t;
			}
		for (int m = 0; m < a->nmetrics; m++) {
			double *per_block = xmalloc((size_t)nterms * (s->nblocks + 1) * sizeof(double));
			int nb = 0;

			if (!s->measured[m]) {
				free(per_block);
				continue;
			}
			/* log(y); a block with a 0 has no log and is dropped (the note
			 * counts them): no shifted log(y+1), which biases toward 1 */
			int dropped = 0;

			for (int b = 0; b < s->nblocks; b++) {
				double y[256];
				uint32_t c;

				for (c = 0; c < cells; c++) {
					int row = s->groups[ds->cell_group[c]].block_row[b];

					if (row < 0 || isnan(y[c] = metric_value(a, &a->table->rows[row], m)))
						break;
					if (y[c] <= 0) {
						dropped++;
						break;
					}
					y[c] = log(y[c]);
				}
				if (c < cells)
					continue; /* an incomplete block */
				for (int t = 0; t < nterms; t++)
					per_block[(size_t)t * (s->nblocks + 1) + nb] = contrast(ds, terms[t], y);
				boot[nb++] = s->block_boot[b];
			}
			for (int t = 0; t < nterms && nb; t++) {
				struct effect *e = &s->effects[s->neffects++];
				const char *unit;
				int n;

				memcpy(d, per_block + (size_t)t * (s->nblocks + 1), nb * sizeof(double));
				n = boot_units(d, boot, nb, s->nboots, &unit);
				e->design = i;
				e->term = terms[t];
				e->metric = m;
				e->baseline = s->groups[ds->cell_group[0]].metric[m].median;
				comparison_of_units(&e->c, d, n, unit);
				e->unit_sd = sample_sd(d, n);
				e->c.primary = a->primary[m];
				/* reported as a ratio: exp of the log-scale contrast */
				e->c.value = exp(e->c.value);
				e->c.lo = exp(e->c.lo);
				e->c.hi = exp(e->c.hi);
				if (dropped) {
					const char *zn = dropped_note(dropped);

					e->c.note = *e->c.note ? xasprintf("%s; %s", e->c.note, zn) : zn;
				}
			}
			free(per_block);
		}
	}
	free(d);
	free(boot);
}

static int compare_studies(const void *pa, const void *pb)
{
	const struct study *a = pa, *b = pb;
	int by_topology = strcmp(a->topology, b->topology);

	return by_topology ? by_topology : strcmp(a->workload, b->workload);
}

static void note_excluded(const struct run_table *t, const struct run_row *row)
{
	fprintf(stderr, "pjt-stats: note: %s:%d: run seq=%s combo=%s rep=%s has status %s: counted in n_%s, excluded from the statistics\n",
		t->path, row->line, row->text[t->col_seq], row->text[t->col_combo],
		row->text[t->col_rep], row->text[t->col_status], row->text[t->col_status]);
}

const char *marginal_note(void)
{
	return "marginal, not adjusted";
}

static void mark_marginal(struct comparison *c)
{
	if (c->confirmatory || isnan(c->p))
		return;
	c->q = NAN; /* an empty q: the CSVs' mark of a marginal p (comparisons.csv: exploratory) */
	c->sig = 0;
}

/* The study's primary endpoint: the first primary metric it measured, in
 * runs.csv's column order (run/contract/columns): lb_pulls_total, the
 * RFC's headline (its cover letter counts pulls), for every workload the
 * harness runs, since every one counts pulls; -1 when none. */
int primary_endpoint(const struct analysis *a, const struct study *st)
{
	for (int m = 0; m < a->nmetrics; m++)
		if (a->primary[m] && st->measured[m])
			return m;
	return -1;
}

/* The confirmatory tests: per study and declared comparison a chain, its
 * primary endpoint first, then the study's other primary metrics in
 * column order as secondaries. The primaries are one family, Holm at
 * FAMILY_ALPHA; a secondary is tested only after everything before it in
 * its chain is resolved, at the level its primary had (a fixed sequence
 * that stops at the first unresolved one). As a graph (Bretz et al.,
 * Stat Med 2009): each node passes its level to the next of its chain,
 * the last to the other chains, so the familywise error stays at
 * FAMILY_ALPHA; with no secondaries it is Holm. The adjusted p (q) is
 * that procedure's: step by step the chain head with the smallest p,
 * q = the running max of p x the chains still open. A comparison that
 * could not be tested counts with p = 1, so the family's size is the
 * design's, not the data's. Everything else (the ratio columns to the
 * reference points, the factorial effects, the metrics that are not
 * primary) is marginal: its own p, never starred; a design's main effects
 * also carry Holm's q over that design's bits (adjust_main_effects). */
int declared_family(int ndeclared, int nstudies)
{
	return ndeclared * nstudies;
}

/* Is effect f a main effect of e's design and metric? */
static int same_bits_family(const struct study *st, int f, int e)
{
	return st->effects[f].design == st->effects[e].design &&
	       st->effects[f].metric == st->effects[e].metric &&
	       __builtin_popcount(st->effects[f].term) == 1;
}

/* A design's main effects on one metric are the bits' own family: "what
 * does each bit do" asks it once per bit, so their q is Holm over the
 * design's k main effects (an untested one counts with p = 1). It stays
 * outside the confirmatory family: never a star, not in the verdict. */
static void adjust_main_effects(struct study *st)
{
	for (int e = 0; e < st->neffects; e++) {
		struct comparison *member[32];
		double p[32], q[32];
		int n = 0, first = same_bits_family(st, e, e);

		for (int f = 0; f < e && first; f++)
			first = !same_bits_family(st, f, e);
		if (!first)
			continue;
		for (int f = e; f < st->neffects && n < 32; f++)
			if (same_bits_family(st, f, e)) {
				member[n] = &st->effects[f].c;
				p[n] = member[n]->p;
				n++;
			}
		holm_adjust(p, q, n);
		for (int i = 0; i < n; i++)
			member[i]->q = isnan(member[i]->p) ? NAN : q[i];
	}
}

static void adjust_family(struct analysis *a)
{
	struct comparison ***chain = NULL; /* [nchains][len]: primary first */
	int *len = NULL, *head = NULL, nchains = 0, open, total = 0, measured = 0;
	double running = 0;

	for (int s = 0; s < a->nstudies; s++) {
		struct study *st = &a->studies[s];
		int pe = primary_endpoint(a, st);

		measured += pe >= 0;

		for (int d = 0; pe >= 0 && d < a->ndeclared; d++) {
			if (!st->decl[d])
				continue;
			chain = xrealloc(chain, (nchains + 1) * sizeof(*chain));
			len = xrealloc(len, (nchains + 1) * sizeof(int));
			chain[nchains] = xmalloc((a->nmetrics + 1) * sizeof(**chain));
			chain[nchains][0] = &st->decl[d][pe];
			len[nchains] = 1;
			for (int m = 0; m < a->nmetrics; m++)
				if (m != pe && a->primary[m] && st->measured[m]) {
					st->decl[d][m].secondary = 1;
					chain[nchains][len[nchains]++] = &st->decl[d][m];
				}
			for (int i = 0; i < len[nchains]; i++)
				chain[nchains][i]->confirmatory = 1;
			total += len[nchains];
			nchains++;
		}
	}
	/* Holm's multiplier is the family's definition (one chain per member) */
	a->family = declared_family(a->ndeclared, measured);
	head = xcalloc(nchains + 1, sizeof(int));
	for (open = a->family; total--;) {
		int best = -1;
		double pb = 2;

		for (int c = 0; c < nchains; c++) {
			double p;

			if (head[c] == len[c])
				continue;
			p = isnan(chain[c][head[c]]->p) ? 1 : chain[c][head[c]]->p;
			if (p < pb) {
				pb = p;
				best = c;
			}
		}
		running = fmax(running, fmin(1, pb * open));
		chain[best][head[best]]->q = running;
		chain[best][head[best]]->sig = running <= FAMILY_ALPHA && chain[best][head[best]]->present;
		if (chain[best][head[best]]->secondary)
			a->n_sig_secondary += chain[best][head[best]]->sig;
		else
			a->n_sig += chain[best][head[best]]->sig;
		open -= ++head[best] == len[best];
	}
	for (int c = 0; c < nchains; c++) {
		a->secondaries += len[c] - 1;
		free(chain[c]);
	}
	free(chain);
	free(len);
	free(head);
	/* a ratio column that is a declared comparison shares its verdict */
	for (int s = 0; s < a->nstudies; s++) {
		struct study *st = &a->studies[s];

		for (int g = 0; g < st->ngroups; g++)
			for (int r = 0; r < NRATIOS; r++)
				for (int m = 0; st->groups[g].ratio[r] && m < a->nmetrics; m++) {
					struct comparison *c = &st->groups[g].ratio[r][m];

					for (int d = 0; d < a->ndeclared; d++)
						if (st->decl[d] && st->decl_g[d] == g &&
						    st->decl_ref[d] == st->ref[ratio_reference[r]])
							*c = st->decl[d][m];
					mark_marginal(c);
				}
		for (int d = 0; d < a->ndeclared; d++)
			for (int m = 0; st->decl[d] && m < a->nmetrics; m++)
				mark_marginal(&st->decl[d][m]);
		for (int e = 0; e < st->neffects; e++)
			mark_marginal(&st->effects[e].c);
		adjust_main_effects(st);
	}
}

static int group_named(const struct analysis *a, const struct study *st, const char *name)
{
	for (int g = 0; g < st->ngroups; g++)
		if (!strcmp(a->combos[st->groups[g].combo].name, name))
			return g;
	return -1;
}

/* The declared comparisons of one study, paired like the ratio columns. */
static void declared_comparisons(const struct analysis *a, struct study *st)
{
	double *scratch = xmalloc((st->nblocks + 1) * sizeof(double));
	int *iscratch = xmalloc((st->nblocks + 1) * sizeof(int));

	st->decl_g = xmalloc((a->ndeclared + 1) * sizeof(int));
	st->decl_ref = xmalloc((a->ndeclared + 1) * sizeof(int));
	st->decl = xcalloc(a->ndeclared + 1, sizeof(*st->decl));
	for (int d = 0; d < a->ndeclared; d++) {
		int g = group_named(a, st, a->declared[d].combo);
		int ref = group_named(a, st, a->declared[d].reference);

		st->decl_g[d] = g;
		st->decl_ref[d] = ref;
		st->decl[d] = xcalloc(a->nmetrics, sizeof(struct comparison));
		for (int m = 0; m < a->nmetrics; m++) {
			struct comparison *c = &st->decl[d][m];

			if (g >= 0 && ref >= 0) {
				paired_ratio(a, st, g, ref, m, c, scratch, iscratch, CONFIRMATORY_PROCEDURE);
				/* its blocks, all from one boot, would stand for boots the
				 * other comparisons have: p = 1 in the family, no star */
				if (c->present && st->nboots >= 2 && strcmp(c->unit, "boot")) {
					c->p = NAN;
					c->note = xasprintf("untested: its %d pair%s come%s from one boot of %d, and a declared comparison needs 2 boots",
							    c->n_units, c->n_units == 1 ? "" : "s",
							    c->n_units == 1 ? "s" : "", st->nboots);
				}
			} else {
				memset(c, 0, sizeof(*c));
				c->value = c->lo = c->hi = c->level = c->p = c->q = NAN;
				c->unit = "boot";
				c->primary = a->primary[m];
				c->note = xasprintf("%s is not in this workload", g < 0 ? a->declared[d].combo
						    : a->declared[d].reference);
			}
		}
	}
	free(scratch);
	free(iscratch);
}

struct analysis *analyse_folder(const char *dir)
{
	struct declared *declared;
	int nd = read_declared(dir, &declared);

	return analyse(read_runs(xasprintf("%s/runs.csv", dir)), 0, declared, nd);
}

int declared_units(const struct analysis *a, const struct study *st, int d, int m, double *out)
{
	int *boot = xmalloc((st->nblocks + 1) * sizeof(int));
	struct comparison c;

	paired_ratio(a, st, st->decl_g[d], st->decl_ref[d], m, &c, out, boot, PROC_SIGN);
	free(boot);
	for (int i = 0; i < c.n_units; i++)
		if (!isfinite(out[i]))
			return 0;
	return c.present && !c.zero_side ? c.n_units : 0;
}

static void build_study(struct analysis *a, struct study *st, const int *rows, int nrows,
			const int *row_combo)
{
	const struct run_table *t = a->table;
	struct strmap blocks = { 0 }, boots = { 0 };
	char **block_keys = xmalloc(nrows * sizeof(char *));
	char **boot_keys = xmalloc(nrows * sizeof(char *));
	int *row_block = xmalloc(nrows * sizeof(int));
	int *group_of = xmalloc(a->ncombos * sizeof(int));
	int *count = xcalloc(a->ncombos, sizeof(int));
	double *scratch;
	int *iscratch;

	/* blocks (boot, rep) and boots */
	st->block_boot = xmalloc(nrows * sizeof(int));
	for (int i = 0; i < nrows; i++) {
		const struct run_row *row = &t->rows[rows[i]];
		char *key = xasprintf("%s\037%ld", row->boot, row->rep);
		int b = map_get(&blocks, key), bo = map_get(&boots, row->boot);

		if (bo < 0) {
			bo = st->nboots++;
			boot_keys[bo] = (char *)row->boot;
			map_put(&boots, row->boot, bo);
		}
		if (b < 0) {
			b = st->nblocks++;
			block_keys[b] = key;
			st->block_boot[b] = bo;
			map_put(&blocks, key, b);
		} else {
			free(key);
		}
		row_block[i] = b;
		count[row_combo[rows[i]]]++;
	}
	/* groups in combo display order */
	st->groups = xcalloc(a->ncombos, sizeof(struct group));
	for (int c = 0; c < a->ncombos; c++) {
		group_of[c] = -1;
		if (!count[c])
			continue;
		group_of[c] = st->ngroups;
		st->groups[st->ngroups].combo = c;
		st->groups[st->ngroups].block_row = xmalloc(st->nblocks * sizeof(int));
		for (int b = 0; b < st->nblocks; b++)
			st->groups[st->ngroups].block_row[b] = -1;
		st->ngroups++;
	}
	for (int i = 0; i < nrows; i++) {
		const struct run_row *row = &t->rows[rows[i]];
		struct group *g = &st->groups[group_of[row_combo[rows[i]]]];
		int *slot = &g->block_row[row_block[i]];

		g->n_runs++;
		if (row->status != RUN_OK) {
			g->n_crashed += row->status == RUN_CRASHED;
			g->n_failed += row->status == RUN_FAILED;
			continue;
		}
		g->n_ok++;
		if (*slot >= 0)
			die_input("%s:%d: combo '%s' ran twice in the block boot=%s rep=%ld of workload '%s' (first at line %d): each block holds every cell once",
				  t->path, row->line, row->text[t->col_combo], row->boot, row->rep,
				  st->workload, t->rows[*slot].line);
		*slot = rows[i];
	}
	/* samples: one sort per cell and metric */
	st->measured = xcalloc(a->nmetrics, sizeof(int));
	for (int g = 0; g < st->ngroups; g++) {
		struct group *gr = &st->groups[g];

		gr->metric = xmalloc(a->nmetrics * sizeof(struct sample));
		for (int m = 0; m < a->nmetrics; m++) {
			struct sample *s = &gr->metric[m];
			double *v = xmalloc((gr->n_ok ? gr->n_ok : 1) * sizeof(double));
			int n = 0;

			for (int b = 0; b < st->nblocks; b++) {
				double x;

				if (gr->block_row[b] >= 0 &&
				    !isnan(x = metric_value(a, &t->rows[gr->block_row[b]], m)))
					v[n++] = x;
			}
			s->n = n;
			s->sorted = v;
			s->median = s->q1 = s->q3 = s->min = s->max = NAN;
			s->ci = median_interval(v, 0);
			st->measured[m] |= n > 0;
			if (!n)
				continue;
			sort_doubles(v, n);
			s->median = quantile_sorted(v, n, 0.5);
			s->q1 = quantile_sorted(v, n, 0.25);
			s->q3 = quantile_sorted(v, n, 0.75);
			s->min = v[0];
			s->max = v[n - 1];
			s->ci = median_interval(v, n);
		}
	}
	/* references by feature set */
	for (int r = 0; r < NREFS; r++) {
		st->ref[r] = -1;
		for (int g = 0; g < st->ngroups && st->ref[r] < 0; g++)
			if (a->combos[st->groups[g].combo].reference == r)
				st->ref[r] = g;
	}
	scratch = xmalloc((st->nblocks + 1) * sizeof(double));
	iscratch = xmalloc((st->nblocks + 1) * sizeof(int));
	for (int g = 0; g < st->ngroups; g++)
		for (int r = 0; r < NRATIOS; r++) {
			int ref = st->ref[ratio_reference[r]];

			if (ref < 0 || ref == g)
				continue;
			if (r == RATIO_RFC_PELT && g != st->ref[REF_RFC_AFTER])
				continue; /* the decomposition only */
			if (r == RATIO_RFC_BEFORE && g == st->ref[REF_STOCK])
				continue; /* the inverse of rfc-before's ratio to stock */
			st->groups[g].ratio[r] = xcalloc(a->nmetrics, sizeof(struct comparison));
			for (int m = 0; m < a->nmetrics; m++)
				paired_ratio(a, st, g, ref, m, &st->groups[g].ratio[r][m], scratch, iscratch,
					     PROC_SIGN);
		}
	free(scratch);
	free(iscratch);
	find_designs(a, st);
	find_fractions(a, st);
	if (st->ndesigns)
		compute_effects(a, st);
	declared_comparisons(a, st);
	for (int b = 0; b < st->nblocks; b++)
		free(block_keys[b]);
	map_free(&blocks);
	map_free(&boots);
	free(block_keys);
	free(boot_keys);
	free(row_block);
	free(group_of);
	free(count);
}

struct analysis *analyse(const struct run_table *t, int notes, const struct declared *declared,
			 int ndeclared)
{
	struct analysis *a = xcalloc(1, sizeof(*a));
	struct strmap studies = { 0 };
	int *row_combo = xmalloc(t->nrows * sizeof(int));
	int *row_study = xmalloc(t->nrows * sizeof(int));
	int *start, *order, *fill, *rank;
	char **keys = xmalloc(t->nrows * sizeof(char *));

	a->table = t;
	set_metrics(a);
	collect_combos(a, row_combo);
	a->ndeclared = ndeclared;
	a->declared = xmalloc((ndeclared + 1) * sizeof(*a->declared));
	for (int d = 0; d < ndeclared; d++) {
		int found[2] = { 0, 0 };

		a->declared[d] = declared[d];
		for (int c = 0; c < a->ncombos; c++) {
			found[0] |= !strcmp(a->combos[c].name, declared[d].combo);
			found[1] |= !strcmp(a->combos[c].name, declared[d].reference);
		}
		if (!found[0] || !found[1])
			die_input("%s: the declared comparison 'compare %s %s' names a combination runs.csv does not hold (%s)",
				  t->path, declared[d].combo, declared[d].reference,
				  !found[0] ? declared[d].combo : declared[d].reference);
	}
	a->studies = xmalloc(t->nrows * sizeof(struct study));
	for (int r = 0; r < t->nrows; r++) {
		const struct run_row *row = &t->rows[r];
		char *key = xasprintf("%s\037%s", row->text[t->col_topology], row->text[t->col_workload]);
		int s = map_get(&studies, key);

		if (s < 0) {
			struct study *st = &a->studies[a->nstudies];

			memset(st, 0, sizeof(*st));
			st->topology = row->text[t->col_topology];
			st->workload = row->text[t->col_workload];
			keys[a->nstudies] = key;
			/* the position before sorting, kept in ngroups until then */
			st->ngroups = a->nstudies;
			map_put(&studies, key, s = a->nstudies++);
		} else {
			free(key);
		}
		row_study[r] = s;
		if (row->status == RUN_OK)
			a->n_ok++;
		else {
			if (row->status == RUN_CRASHED)
				a->n_crashed++;
			else
				a->n_failed++;
			if (notes)
				note_excluded(t, row);
		}
	}
	/* runs.csv is in interleaved order: list the studies by name instead */
	qsort(a->studies, a->nstudies, sizeof(struct study), compare_studies);
	rank = xmalloc(a->nstudies * sizeof(int));
	for (int s = 0; s < a->nstudies; s++) {
		rank[a->studies[s].ngroups] = s;
		a->studies[s].ngroups = 0;
	}
	/* rows of each study, by a counting sort */
	start = xcalloc(a->nstudies + 1, sizeof(int));
	fill = xcalloc(a->nstudies, sizeof(int));
	order = xmalloc(t->nrows * sizeof(int));
	for (int r = 0; r < t->nrows; r++)
		start[rank[row_study[r]] + 1]++;
	for (int s = 0; s < a->nstudies; s++)
		start[s + 1] += start[s];
	for (int r = 0; r < t->nrows; r++) {
		int s = rank[row_study[r]];

		order[start[s] + fill[s]++] = r;
	}
	for (int s = 0; s < a->nstudies; s++)
		build_study(a, &a->studies[s], order + start[s], start[s + 1] - start[s], row_combo);
	if (!a->n_ok)
		die_input("%s: no ok run (%d crashed, %d failed): nothing to analyse",
			  t->path, a->n_crashed, a->n_failed);
	adjust_family(a);
	if (notes && (a->n_crashed || a->n_failed))
		fprintf(stderr, "pjt-stats: note: %s: %d runs ok, %d crashed, %d failed; only the ok runs are in the statistics\n",
			t->path, a->n_ok, a->n_crashed, a->n_failed);
	for (int s = 0; s < a->nstudies; s++)
		free(keys[s]);
	map_free(&studies);
	free(keys);
	free(rank);
	free(start);
	free(fill);
	free(order);
	free(row_combo);
	free(row_study);
	return a;
}
