/* Drift: how pulls move with a run's position in its boot (issue 37).
 *
 * The candidates: runs.csv's state_* columns (scheduler state the guest
 * reads at each run's end: run/contract/columns), each with the slope
 * below over the same positions, for which of them moves with the pulls.
 *
 * A run's position is its rank by seq among all rows of its boot
 * (topology, boot), failed and crashed runs included: they took their
 * place in the boot's time too. Only ok runs enter the numbers.
 *
 * Per study and combination, the geometric mean of the metric by
 * position. A count of 0 has no logarithm: such runs are left out of the
 * geometric means and of the slope, and counted (a shift to log(x+1)
 * would bias small counts toward 1).
 *
 * The slope: per boot, the least-squares slope of log(metric) on
 * position with a term per combination (each combination's runs centred
 * on their own means: the drift within a combination, not the difference
 * between combinations placed early or late). Boots are the units, as in
 * every ratio of the analysis: the estimate is the median of the boots'
 * slopes, its interval the order-statistic interval and p the sign test
 * that interval inverts (comparison_of_units).
 *
 * The halves: a block's position is the mean position of its runs; a
 * block before the middle of its boot ((positions + 1) / 2) is in the
 * first half, after it in the second, at it in neither (counted). Each
 * declared comparison is estimated from each half as analysis.c does for
 * counts: per boot the log of the ratio of its summed counts (a boot 0 on
 * one side is -inf or +inf, both 0 a tie), boots as units (blocks when
 * the half holds one boot). The halves agree when the interval of their
 * per-boot difference covers 0; with no boot in both halves, when the
 * two intervals overlap. */
#include "drift.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct position_sort {
	const struct run_table *t;
	int *boot;                 /* per row: index of its (topology, boot) */
};
/* qsort takes no context (qsort_r is not POSIX): the table it sorts by */
static struct position_sort sort_ctx;

static int by_boot_then_seq(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;
	const struct run_table *t = sort_ctx.t;
	long sa = atol(t->rows[a].text[t->col_seq]), sb = atol(t->rows[b].text[t->col_seq]);

	if (sort_ctx.boot[a] != sort_ctx.boot[b])
		return sort_ctx.boot[a] - sort_ctx.boot[b];
	return (sa > sb) - (sa < sb);
}

/* pos[r]: row r's 1-based position in its boot; boot_of[r]: its boot's
 * index; boot_len[b]: the rows of boot b. Returns the number of boots. */
static int positions(const struct run_table *t, int *pos, int *boot_of, int **boot_len)
{
	struct strmap boots = { 0 };
	char **keys = xmalloc((t->nrows + 1) * sizeof(char *));
	int *order = xmalloc((t->nrows + 1) * sizeof(int)), nboots = 0;

	for (int r = 0; r < t->nrows; r++) {
		/* a boot is one QEMU boot of one topology */
		keys[r] = xasprintf("%s\t%s", t->rows[r].text[t->col_topology], t->rows[r].boot);
		if ((boot_of[r] = map_get(&boots, keys[r])) < 0)
			map_put(&boots, keys[r], boot_of[r] = nboots++);
		order[r] = r;
	}
	sort_ctx.t = t;
	sort_ctx.boot = boot_of;
	qsort(order, t->nrows, sizeof(int), by_boot_then_seq);
	*boot_len = xcalloc(nboots + 1, sizeof(int));
	for (int i = 0; i < t->nrows; i++)
		pos[order[i]] = ++(*boot_len)[boot_of[order[i]]];
	map_free(&boots);
	for (int r = 0; r < t->nrows; r++)
		free(keys[r]);
	free(keys);
	free(order);
	return nboots;
}

static int row_group(const struct analysis *a, const struct study *st, const struct run_row *row)
{
	const char *name = row->text[a->table->col_combo];

	for (int c = 0; c < a->ncombos; c++)
		if (!strcmp(a->combos[c].name, name))
			return study_group_of(st, c);
	return -1;
}

static int in_study(const struct run_table *t, const struct study *st, const struct run_row *row)
{
	return !strcmp(row->text[t->col_topology], st->topology) &&
	       !strcmp(row->text[t->col_workload], st->workload);
}

/* A row's value of metric m, or of column col when col >= 0 (a state_*
 * column: not a metric). */
static double series_value(const struct analysis *a, const struct run_row *row, int m, int col)
{
	return col >= 0 ? row->value[col] : metric_value(a, row, m);
}

/* Per boot, the within-combination slope of log y on position; the
 * geometric means by position when geomean is not NULL. */
static void position_slope(const struct analysis *a, const struct study *st, int m, int col, const int *pos,
			   const int *boot_of, int nboots, int npos, double *geomean, int *n_at, int *runs,
			   int *zeros, struct comparison *slope)
{
	const struct run_table *t = a->table;
	int cells = nboots * st->ngroups, nunits = 0;
	/* per (boot, group): n, sum p, sum l, sum p*l, sum p*p */
	double (*acc)[5] = xcalloc(cells + 1, sizeof(*acc)), *units = xmalloc((nboots + 1) * sizeof(double));

	for (int r = 0; r < t->nrows; r++) {
		const struct run_row *row = &t->rows[r];
		int g = row->status == RUN_OK && in_study(t, st, row) ? row_group(a, st, row) : -1;
		double y = g >= 0 ? series_value(a, row, m, col) : NAN, l;

		if (isnan(y))
			continue;
		(*runs)++;
		if (y <= 0) {
			(*zeros)++;
			continue;
		}
		l = log(y);
		double *c = acc[boot_of[r] * st->ngroups + g];

		c[0]++;
		c[1] += pos[r];
		c[2] += l;
		c[3] += pos[r] * l;
		c[4] += (double)pos[r] * pos[r];
		if (geomean) {
			geomean[g * npos + pos[r] - 1] += l;
			n_at[g * npos + pos[r] - 1]++;
		}
	}
	for (int i = 0; geomean && i < st->ngroups * npos; i++)
		geomean[i] = n_at[i] ? exp(geomean[i] / n_at[i]) : NAN;
	for (int b = 0; b < nboots; b++) {
		double sxy = 0, sxx = 0;

		for (int g = 0; g < st->ngroups; g++) {
			const double *c = acc[b * st->ngroups + g];

			if (c[0] < 2)
				continue;
			sxy += c[3] - c[1] * c[2] / c[0];
			sxx += c[4] - c[1] * c[1] / c[0];
		}
		/* positions are whole numbers: the least spread is 1/2 (two runs
		 * one apart), anything below it is rounding of a spread of 0 */
		if (sxx > 0.25)
			units[nunits++] = sxy / sxx;
	}
	comparison_of_units(slope, units, nunits, "boot");
	free(acc);
	free(units);
}

struct block_sums {
	int boot;
	long rep;
	long pos_sum, runs;        /* every row of the block in the study */
	double x, ref;             /* the two sides' metric, NaN until an ok run */
};

/* One half's estimate: per boot the log ratio of summed counts (blocks
 * when the half holds one boot); units[b] keeps each boot's for the
 * difference (NaN: the boot has no pair in this half). */
static void half_estimate(const struct block_sums *blk, int nblk, int half, const int *block_half,
			  int nboots, struct comparison *c, double *boot_unit)
{
	double *sx = xcalloc(nboots + 1, sizeof(double)), *sr = xcalloc(nboots + 1, sizeof(double));
	double *units = xmalloc((nblk + nboots + 1) * sizeof(double)), tot_x = 0, tot_r = 0;
	int *has = xcalloc(nboots + 1, sizeof(int)), nb = 0, n = 0;

	for (int i = 0; i < nblk; i++) {
		if (block_half[i] != half || isnan(blk[i].x) || isnan(blk[i].ref))
			continue;
		nb += !has[blk[i].boot]++;
		sx[blk[i].boot] += blk[i].x;
		sr[blk[i].boot] += blk[i].ref;
		tot_x += blk[i].x;
		tot_r += blk[i].ref;
	}
	for (int b = 0; b < nboots; b++)
		boot_unit[b] = NAN;
	if (nb >= 2) {
		for (int b = 0; b < nboots; b++)
			if (has[b])
				units[n++] = boot_unit[b] = sx[b] == sr[b] ? 0 : log(sx[b] / sr[b]);
	} else {
		for (int i = 0; i < nblk; i++)
			if (block_half[i] == half && !isnan(blk[i].x) && !isnan(blk[i].ref))
				units[n++] = blk[i].x == blk[i].ref ? 0 : log(blk[i].x / blk[i].ref);
	}
	comparison_of_units(c, units, n, nb >= 2 ? "boot" : "block");
	if (n && (tot_x == 0 || tot_r == 0)) {
		/* a side 0 in every unit: no ratio, as in analysis.c */
		c->present = 0;
		c->value = c->lo = c->hi = NAN;
		c->note = tot_x == tot_r ? "both sides 0 in every unit" : tot_x == 0
			? "the combination 0 in every unit: no ratio" : "the reference 0 in every unit: no ratio";
	}
	free(sx);
	free(sr);
	free(units);
	free(has);
}

static void halves_of(const struct analysis *a, const struct study *st, int m, int d,
		      const int *pos, const int *boot_of, const int *boot_len, int nboots,
		      struct drift_halves *h)
{
	const struct run_table *t = a->table;
	int g = st->decl_g[d], ref = st->decl_ref[d], nblk = 0;
	struct block_sums *blk = xcalloc(t->nrows + 1, sizeof(*blk));
	int *block_half = xmalloc((t->nrows + 1) * sizeof(int));
	double *unit[2], *diff = xmalloc((nboots + 1) * sizeof(double));
	int ndiff = 0;

	h->declared = d;
	for (int r = 0; r < t->nrows; r++) {
		const struct run_row *row = &t->rows[r];
		int i, rg;
		double y;

		if (!in_study(t, st, row))
			continue;
		for (i = 0; i < nblk; i++)
			if (blk[i].boot == boot_of[r] && blk[i].rep == row->rep)
				break;
		if (i == nblk) {
			blk[nblk].boot = boot_of[r];
			blk[nblk].rep = row->rep;
			blk[nblk].x = blk[nblk].ref = NAN;
			nblk++;
		}
		blk[i].pos_sum += pos[r];
		blk[i].runs++;
		rg = row_group(a, st, row);
		y = row->status == RUN_OK ? metric_value(a, row, m) : NAN;
		if (rg == g)
			blk[i].x = y;
		else if (rg == ref)
			blk[i].ref = y;
	}
	for (int i = 0; i < nblk; i++) {
		/* mean position against the middle, (len + 1) / 2, in whole numbers */
		long twice_mean = 2 * blk[i].pos_sum, middle = blk[i].runs * (boot_len[blk[i].boot] + 1L);

		block_half[i] = twice_mean < middle ? 0 : twice_mean > middle ? 1 : -1;
		h->at_middle += block_half[i] < 0 && !isnan(blk[i].x) && !isnan(blk[i].ref);
	}
	for (int k = 0; k < 2; k++) {
		unit[k] = xmalloc((nboots + 1) * sizeof(double));
		half_estimate(blk, nblk, k, block_half, nboots, &h->half[k], unit[k]);
	}
	for (int b = 0; b < nboots; b++) {
		double v = unit[0][b] - unit[1][b];

		if (!isnan(v)) /* also drops inf - inf: no size to compare */
			diff[ndiff++] = v;
	}
	comparison_of_units(&h->diff, diff, ndiff, "boot");
	if (ndiff >= 2 && h->half[0].present && h->half[1].present) {
		h->agree_by = "difference";
		h->agree = h->diff.lo <= 0 && 0 <= h->diff.hi;
	} else if (!isnan(h->half[0].level) && !isnan(h->half[1].level) && h->half[0].present &&
		   h->half[1].present) {
		h->agree_by = "overlap";
		h->agree = h->half[0].lo <= h->half[1].hi && h->half[1].lo <= h->half[0].hi;
	} else {
		h->agree_by = NULL; /* no interval to tell by */
	}
	free(unit[0]);
	free(unit[1]);
	free(diff);
	free(blk);
	free(block_half);
}

int drift_of(const struct analysis *a, struct drift_study **out)
{
	const struct run_table *t = a->table;
	int m = metric_index(a, DRIFT_METRIC), n = 0, nboots, *boot_len;
	int *pos = xmalloc((t->nrows + 1) * sizeof(int)), *boot_of = xmalloc((t->nrows + 1) * sizeof(int));

	*out = NULL;
	if (m < 0)
		return 0;
	nboots = positions(t, pos, boot_of, &boot_len);
	*out = xcalloc(a->nstudies + 1, sizeof(**out));
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];
		struct drift_study *ds = &(*out)[n];

		if (!st->measured[m])
			continue;
		ds->study = s;
		for (int r = 0; r < t->nrows; r++)
			if (in_study(t, st, &t->rows[r]) && pos[r] > ds->npos)
				ds->npos = pos[r];
		ds->geomean = xcalloc((size_t)st->ngroups * ds->npos + 1, sizeof(double));
		ds->n = xcalloc((size_t)st->ngroups * ds->npos + 1, sizeof(int));
		position_slope(a, st, m, -1, pos, boot_of, nboots, ds->npos, ds->geomean, ds->n, &ds->runs,
			       &ds->zeros, &ds->slope);
		/* the candidates the study has a value of, in column order */
		ds->candidates = xcalloc(t->ncols + 1, sizeof(*ds->candidates));
		for (int j = 0; j < t->ncols; j++) {
			struct drift_candidate *dc = &ds->candidates[ds->ncandidates];

			if (!is_state_column(t->names[j]) || !t->is_numeric[j])
				continue;
			dc->col = j;
			position_slope(a, st, m, j, pos, boot_of, nboots, ds->npos, NULL, NULL, &dc->runs,
				       &dc->zeros, &dc->slope);
			ds->ncandidates += dc->runs > 0;
		}
		ds->halves = xcalloc(a->ndeclared + 1, sizeof(*ds->halves));
		for (int d = 0; d < a->ndeclared; d++)
			if (st->decl_g[d] >= 0 && st->decl_ref[d] >= 0)
				halves_of(a, st, m, d, pos, boot_of, boot_len, nboots,
					  &ds->halves[ds->nhalves++]);
		n++;
	}
	free(pos);
	free(boot_of);
	free(boot_len);
	return n;
}

/* "0.462 [0.347, 0.561] 99.22% over 8 boots, p=0.0078" of a log comparison */
static void print_ratio(const struct comparison *c)
{
	char *level = format_level(c->level);

	if (!c->present)
		printf("no estimate (%s)", *c->note ? c->note : "no block holds both");
	else if (isnan(c->level))
		printf("%.3f over %d %s (no interval)", exp(c->value), c->n_units, c->unit);
	else
		printf("%.3f [%.3f, %.3f] %s over %d %ss, p=%.3g", exp(c->value), exp(c->lo),
		       exp(c->hi), level, c->n_units, c->unit, c->p);
	free(level);
}

/* "+0.0123 log per position (...) [lo, hi] level over n boots, p=..." */
static void print_slope(const struct comparison *sl)
{
	char *level;

	if (!sl->present) {
		printf("none (%s)\n", sl->note);
		return;
	}
	level = format_level(sl->level);
	printf("%+.4f log per position (x%.3f, %+.1f%% a position)", sl->value, exp(sl->value),
	       (exp(sl->value) - 1) * 100);
	if (isnan(sl->level))
		printf(", over %d %s: no interval\n", sl->n_units, sl->unit);
	else
		printf(" [%+.4f, %+.4f] %s over %d %ss, p=%.3g\n", sl->lo, sl->hi, level, sl->n_units,
		       sl->unit, sl->p);
	free(level);
}

int drift_main(const char *dir)
{
	char *csv = xasprintf("%s/runs.csv", dir);
	struct declared *declared;
	struct analysis *a;
	struct drift_study *drift;
	int nd, n;

	/* a folder without runs.csv is a wrong operand (exit 2), not a system error */
	if (access(csv, R_OK))
		die_input("pjt-stats: %s: %s", csv, strerror(errno));
	nd = read_declared(dir, &declared);
	a = analyse(read_runs(csv), 0, declared, nd);
	n = drift_of(a, &drift);

	if (!n) {
		printf("%s: no run measured %s: no drift to show\n", csv, DRIFT_METRIC);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		const struct drift_study *ds = &drift[i];
		const struct study *st = &a->studies[ds->study];

		printf("%s, %s: %s by the run's position in its boot (1-%d)\n", st->topology,
		       st->workload, DRIFT_METRIC, ds->npos);
		printf("  geometric mean per run (runs with a 0 left out: %d of %d)\n", ds->zeros, ds->runs);
		printf("    %-14s", "position");
		for (int p = 1; p <= ds->npos; p++)
			printf(" %7d", p);
		putchar('\n');
		for (int g = 0; g < st->ngroups; g++) {
			printf("    %-14s", a->combos[st->groups[g].combo].name);
			for (int p = 0; p < ds->npos; p++) {
				double v = ds->geomean[g * ds->npos + p];

				if (isnan(v))
					printf(" %7s", "-");
				else
					printf(" %7.0f", v);
			}
			putchar('\n');
		}
		printf("  slope (within each combination, per boot): ");
		print_slope(&ds->slope);
		if (!ds->ncandidates)
			printf("  candidates: none recorded (no state_* column with a value: runs.csv from before they were, or the guest could not read them)\n");
		for (int k = 0; k < ds->ncandidates; k++) {
			const struct drift_candidate *dc = &ds->candidates[k];

			printf("  candidate %s: ", a->table->names[dc->col]);
			print_slope(&dc->slope);
			if (dc->zeros)
				printf("    (%d of %d runs at 0: out of the logs)\n", dc->zeros, dc->runs);
		}
		for (int k = 0; k < ds->nhalves; k++) {
			const struct drift_halves *h = &ds->halves[k];

			printf("  %s against %s, from the blocks of each half of the boots (a block by its runs' mean position):\n",
			       a->declared[h->declared].combo, a->declared[h->declared].reference);
			printf("    first half:  ");
			print_ratio(&h->half[0]);
			printf("\n    second half: ");
			print_ratio(&h->half[1]);
			printf("\n    first over second: ");
			print_ratio(&h->diff);
			if (!h->agree_by)
				printf("\n    too few units to tell whether the halves agree\n");
			else if (!strcmp(h->agree_by, "difference"))
				printf("\n    the halves %s: the interval of their ratio %s 1\n",
				       h->agree ? "agree" : "disagree", h->agree ? "covers" : "excludes");
			else
				printf("\n    the halves %s: their intervals %s (no boot holds both halves)\n",
				       h->agree ? "agree" : "disagree", h->agree ? "overlap" : "do not overlap");
			if (h->at_middle)
				printf("    %d block%s at the middle of %s boot: in neither half\n", h->at_middle,
				       h->at_middle == 1 ? "" : "s", h->at_middle == 1 ? "its" : "their");
		}
	}
	return 0;

}
