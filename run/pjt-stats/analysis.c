/* From runs.csv to per-cell statistics, ratios and factorial effects.
 *
 * A study is one (topology, workload); a group is one combination in a
 * study. Only runs with status ok enter the statistics; the others are
 * counted per group (n_crashed, n_failed) and named on stderr.
 *
 * Factorial effects use the cell medians y(c) of a 2^k design in the bits
 * s_1..s_k (cell c sets exactly the bits of c; the all-clear cell is
 * features "none"). With sign_T(c) = product over the bits b of term T of
 * (+1 if c sets b else -1), the effect of T is
 *     sum_c sign_T(c) y(c) / 2^(k-1),
 * i.e. for a main effect the mean of the cells with the bit minus the mean
 * of the cells without it, and for a two-way interaction half the
 * difference between one bit's effect with and without the other. Its
 * interval is a percentile bootstrap resampling every cell independently. */
#include "pjt-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const int reference_colours[] = { 0x555555, 0xe69f00, 0x0072b2 };
static const int palette[] = {
	0x009e73, 0xcc79a7, 0xd55e00, 0x56b4e9, 0x882255, 0x44aa99, 0x999933,
	0xaa4499, 0x332288, 0x117733, 0x661100, 0x6699cc, 0xdd7788, 0x88ccaa,
	0x994455, 0x997700, 0x4477aa, 0xee6677, 0x228833, 0xccbb44, 0x66ccee,
	0xaa3377, 0xbbbbbb, 0x7f3c8d, 0x8c564b,
};
static const char *const reference_names[] = { "stock", "rfc-before", "rfc-after" };

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

static int reference_rank(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(name, reference_names[i]))
			return i;
	return 3;
}

static int popcount(uint32_t x)
{
	return __builtin_popcount(x);
}

static int compare_combos(const void *pa, const void *pb)
{
	const struct combo *a = pa, *b = pb;
	int ra = reference_rank(a->name), rb = reference_rank(b->name);

	if (ra != rb)
		return ra - rb;
	if (popcount(a->bits) != popcount(b->bits))
		return popcount(a->bits) - popcount(b->bits);
	return strcmp(a->name, b->name);
}

static uint32_t feature_bits(struct analysis *a, const char *features, int line)
{
	uint32_t bits = 0;
	char *copy, *word, *save;

	if (!strcmp(features, "none"))
		return 0;
	copy = xstrdup(features);
	for (word = strtok_r(copy, "+", &save); word; word = strtok_r(NULL, "+", &save)) {
		int b;

		for (b = 0; b < a->nbits && strcmp(a->bit_names[b], word); b++)
			;
		if (b == a->nbits) {
			if (a->nbits == 32)
				die_input("%s:%d: more than 32 distinct feature bits",
					  a->table->path, line);
			a->bit_names[a->nbits++] = xstrdup(word);
		}
		bits |= UINT32_C(1) << b;
	}
	free(copy);
	return bits;
}

static double row_value(const struct analysis *a, const struct run_row *row, int m)
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
}

static void collect_combos(struct analysis *a)
{
	const struct run_table *t = a->table;
	int next_palette = 0;

	a->combos = xmalloc(t->nrows * sizeof(struct combo));
	for (int r = 0; r < t->nrows; r++) {
		const struct run_row *row = &t->rows[r];
		const char *name = row->text[t->col_combo];
		const char *features = row->text[t->col_features];
		int c;

		for (c = 0; c < a->ncombos && strcmp(a->combos[c].name, name); c++)
			;
		if (c < a->ncombos) {
			if (strcmp(a->combos[c].features, features))
				die_input("%s:%d: combo '%s' has features '%s' here but '%s' before",
					  t->path, row->line, name, features, a->combos[c].features);
			continue;
		}
		a->combos[c].name = xstrdup(name);
		a->combos[c].features = xstrdup(features);
		a->combos[c].bits = feature_bits(a, features, row->line);
		a->ncombos++;
	}
	qsort(a->combos, a->ncombos, sizeof(struct combo), compare_combos);
	for (int c = 0; c < a->ncombos; c++) {
		int rank = reference_rank(a->combos[c].name);

		a->combos[c].colour = rank < 3 ? reference_colours[rank]
			: palette[next_palette++ % (int)(sizeof(palette) / sizeof(palette[0]))];
	}
}

static int combo_of(const struct analysis *a, const char *name)
{
	for (int c = 0; c < a->ncombos; c++)
		if (!strcmp(a->combos[c].name, name))
			return c;
	return -1;
}

static void fill_sample(struct sample *s, double *values, int n, const char *key)
{
	s->n = n;
	s->sorted = values;
	s->median = s->q1 = s->q3 = s->min = s->max = NAN;
	s->ci = median_confidence(values, 0, key);
	if (!n)
		return;
	sort_doubles(values, n);
	s->median = quantile_sorted(values, n, 0.5);
	s->q1 = quantile_sorted(values, n, 0.25);
	s->q3 = quantile_sorted(values, n, 0.75);
	s->min = values[0];
	s->max = values[n - 1];
	s->ci = median_confidence(values, n, key);
}

static void fill_ratio(struct ratio *r, const struct sample *num, const struct sample *den,
		       const char *key)
{
	memset(r, 0, sizeof(*r));
	r->lo = r->hi = NAN;
	if (!num->n || !den->n)
		return;
	r->present = 1;
	r->value = ratio_of(num->median, den->median);
	if (num->n < 2 || den->n < 2)
		return;
	ratio_confidence(den->sorted, den->n, num->sorted, num->n, key, &r->lo, &r->hi);
	r->excludes_one = r->lo > 1 || r->hi < 1;
}

/* Group g's ratio to the reference group ref (none for ref itself). */
static void ratio_to_reference(const struct analysis *a, const struct study *st, int g, int m,
			       int ref, struct ratio *out)
{
	char *key;

	memset(out, 0, sizeof(*out));
	out->lo = out->hi = NAN;
	if (ref < 0 || ref == g)
		return;
	key = xasprintf("ratio|%s|%s|%s|%s|%s", st->topology, st->workload,
			a->combos[st->groups[g].combo].name, a->combos[st->groups[ref].combo].name,
			a->metric_names[m]);
	fill_ratio(out, &st->groups[g].metric[m], &st->groups[ref].metric[m], key);
	free(key);
}

char *term_name(const struct analysis *a, const struct study *s, uint32_t term)
{
	char *name = xstrdup("");

	for (int i = 0; i < s->k; i++) {
		if (!(term & (UINT32_C(1) << i)))
			continue;
		int b = __builtin_ctz(s->factor_bits[i]);
		char *joined = xasprintf("%s%s%s", name, *name ? ":" : "", a->bit_names[b]);

		free(name);
		name = joined;
	}
	return name;
}

/* The largest set of bits (at least 2) whose every subset is exactly the
 * feature set of some combination in the study. */
static void find_factorial(const struct analysis *a, struct study *s)
{
	uint32_t candidates[32];
	int ncand = 0, best = 0;
	uint32_t best_set = 0;

	for (int b = 0; b < a->nbits; b++)
		for (int g = 0; g < s->ngroups; g++)
			if (a->combos[s->groups[g].combo].bits == UINT32_C(1) << b) {
				candidates[ncand++] = UINT32_C(1) << b;
				break;
			}
	if (ncand > 8)
		ncand = 8; /* 256 cells is far beyond any matrix this harness runs */
	for (uint32_t set = 1; set < (UINT32_C(1) << ncand); set++) {
		int k = popcount(set), full = 1;

		if (k < 2 || k <= best)
			continue;
		for (uint32_t sub = 0; full && sub < (UINT32_C(1) << ncand); sub++) {
			uint32_t bits = 0;
			int found = 0;

			if (sub & ~set)
				continue;
			for (int i = 0; i < ncand; i++)
				if (sub & (UINT32_C(1) << i))
					bits |= candidates[i];
			for (int g = 0; g < s->ngroups && !found; g++)
				found = a->combos[s->groups[g].combo].bits == bits;
			full = found;
		}
		if (full) {
			best = k;
			best_set = set;
		}
	}
	s->k = best;
	if (!best) {
		s->skip_effects = xstrdup("no factorial design: the combinations do not include all 2^k cells of any two or more bits");
		return;
	}
	for (int i = 0, j = 0; i < ncand; i++)
		if (best_set & (UINT32_C(1) << i))
			s->factor_bits[j++] = candidates[i];
	for (uint32_t cell = 0; cell < (UINT32_C(1) << best); cell++) {
		uint32_t bits = 0;

		for (int i = 0; i < best; i++)
			if (cell & (UINT32_C(1) << i))
				bits |= s->factor_bits[i];
		s->cell_group[cell] = -1;
		for (int g = 0; g < s->ngroups; g++)
			if (a->combos[s->groups[g].combo].bits == bits) {
				s->cell_group[cell] = g; /* first in display order */
				break;
			}
	}
}

static double contrast(const struct study *s, uint32_t term, const double *cell_values)
{
	double sum = 0;
	uint32_t cells = UINT32_C(1) << s->k;

	for (uint32_t c = 0; c < cells; c++) {
		int sign = popcount(term & ~c) % 2 ? -1 : 1;

		sum += sign * cell_values[c];
	}
	return sum / (cells / 2);
}

static void compute_effects(const struct analysis *a, struct study *s)
{
	uint32_t cells = UINT32_C(1) << s->k;
	uint32_t terms[64];
	int nterms = 0;

	for (int i = 0; i < s->k; i++)
		terms[nterms++] = UINT32_C(1) << i;
	for (int i = 0; i < s->k; i++)
		for (int j = i + 1; j < s->k; j++)
			terms[nterms++] = (UINT32_C(1) << i) | (UINT32_C(1) << j);
	s->effects = xmalloc(a->nmetrics * nterms * sizeof(struct effect));
	for (int m = 0; m < a->nmetrics; m++) {
		double point[256], resample[256], *stats[64], *scratch;
		int complete = s->measured[m], maxn = 1;
		struct rng r;
		char *key;

		for (uint32_t c = 0; c < cells && complete; c++) {
			const struct sample *smp = &s->groups[s->cell_group[c]].metric[m];

			complete = smp->n > 0;
			if (complete) {
				point[c] = smp->median;
				if (smp->n > maxn)
					maxn = smp->n;
			}
		}
		if (!complete)
			continue;
		key = xasprintf("effects|%s|%s|%s", s->topology, s->workload, a->metric_names[m]);
		r = rng_for_key(key);
		free(key);
		scratch = xmalloc(maxn * sizeof(double));
		for (int t = 0; t < nterms; t++)
			stats[t] = xmalloc(BOOTSTRAP_RESAMPLES * sizeof(double));
		for (int i = 0; i < BOOTSTRAP_RESAMPLES; i++) {
			for (uint32_t c = 0; c < cells; c++) {
				const struct sample *smp = &s->groups[s->cell_group[c]].metric[m];

				resample[c] = resampled_median(&r, smp->sorted, smp->n, scratch);
			}
			for (int t = 0; t < nterms; t++)
				stats[t][i] = contrast(s, terms[t], resample);
		}
		for (int t = 0; t < nterms; t++) {
			struct effect *e = &s->effects[s->neffects++];

			e->term = terms[t];
			e->metric = m;
			e->value = contrast(s, terms[t], point);
			percentile_interval(stats[t], BOOTSTRAP_RESAMPLES, &e->lo, &e->hi);
			e->excludes_zero = e->lo > 0 || e->hi < 0;
			free(stats[t]);
		}
		free(scratch);
	}
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

struct analysis *analyse(const struct run_table *t, int notes)
{
	struct analysis *a = xcalloc(1, sizeof(*a));

	a->table = t;
	set_metrics(a);
	collect_combos(a);
	a->studies = xmalloc(t->nrows * sizeof(struct study));
	for (int r = 0; r < t->nrows; r++) {
		const struct run_row *row = &t->rows[r];
		int s;

		for (s = 0; s < a->nstudies; s++)
			if (!strcmp(a->studies[s].topology, row->text[t->col_topology]) &&
			    !strcmp(a->studies[s].workload, row->text[t->col_workload]))
				break;
		if (s == a->nstudies) {
			struct study *st = &a->studies[a->nstudies++];

			memset(st, 0, sizeof(*st));
			st->topology = row->text[t->col_topology];
			st->workload = row->text[t->col_workload];
		}
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
	for (int s = 0; s < a->nstudies; s++) {
		struct study *st = &a->studies[s];

		st->groups = xcalloc(a->ncombos, sizeof(struct group));
		st->measured = xcalloc(a->nmetrics, sizeof(int));
		for (int c = 0; c < a->ncombos; c++) {
			struct group *g = &st->groups[st->ngroups];
			double **values = xmalloc(a->nmetrics * sizeof(double *));
			int *counts = xcalloc(a->nmetrics, sizeof(int));

			g->combo = c;
			for (int m = 0; m < a->nmetrics; m++)
				values[m] = xmalloc(t->nrows * sizeof(double));
			for (int r = 0; r < t->nrows; r++) {
				const struct run_row *row = &t->rows[r];

				if (strcmp(row->text[t->col_topology], st->topology) ||
				    strcmp(row->text[t->col_workload], st->workload) ||
				    strcmp(row->text[t->col_combo], a->combos[c].name))
					continue;
				g->n_runs++;
				if (row->status != RUN_OK) {
					g->n_crashed += row->status == RUN_CRASHED;
					g->n_failed += row->status == RUN_FAILED;
					continue;
				}
				g->n_ok++;
				for (int m = 0; m < a->nmetrics; m++) {
					double v = row_value(a, row, m);

					if (!isnan(v))
						values[m][counts[m]++] = v;
				}
			}
			if (!g->n_runs) {
				for (int m = 0; m < a->nmetrics; m++)
					free(values[m]);
				free(values);
				free(counts);
				continue;
			}
			g->metric = xmalloc(a->nmetrics * sizeof(struct sample));
			for (int m = 0; m < a->nmetrics; m++) {
				char *key = xasprintf("median|%s|%s|%s|%s", st->topology,
						      st->workload, a->combos[c].name, a->metric_names[m]);

				fill_sample(&g->metric[m], values[m], counts[m], key);
				st->measured[m] |= counts[m] > 0;
				free(key);
			}
			free(values);
			free(counts);
			st->ngroups++;
		}
		st->stock = study_group_of(st, combo_of(a, "stock"));
		st->rfc_before = study_group_of(st, combo_of(a, "rfc-before"));
		st->rfc_after = study_group_of(st, combo_of(a, "rfc-after"));
		for (int g = 0; g < st->ngroups; g++) {
			struct group *gr = &st->groups[g];

			gr->to_stock = xcalloc(a->nmetrics, sizeof(struct ratio));
			gr->to_rfc_before = xcalloc(a->nmetrics, sizeof(struct ratio));
			for (int m = 0; m < a->nmetrics; m++) {
				ratio_to_reference(a, st, g, m, st->stock, &gr->to_stock[m]);
				ratio_to_reference(a, st, g, m, st->rfc_before, &gr->to_rfc_before[m]);
			}
		}
		find_factorial(a, st);
		if (st->k)
			compute_effects(a, st);
	}
	if (notes && (a->n_crashed || a->n_failed))
		fprintf(stderr, "pjt-stats: note: %s: %d runs ok, %d crashed, %d failed; only the ok runs are in the statistics\n",
			t->path, a->n_ok, a->n_crashed, a->n_failed);
	return a;
}

char *design_name(const struct analysis *a, const struct study *st)
{
	char *name = term_name(a, st, (UINT32_C(1) << st->k) - 1);

	for (char *p = name; *p; p++)
		if (*p == ':')
			*p = '+'; /* a design is a feature set */
	return name;
}
