/* run/compare A B: the same cells of two results folders side by side, in
 * the manner of mmtests' compare-kernels: median A, median B, B/A, and the
 * exact distribution-free interval of the ratio (the Mann-Whitney interval
 * of the shift of log values: runs of two folders are not paired) at its
 * own level, with the Mann-Whitney p. No adjustment for multiplicity: the
 * marker is per cell, and the header says so. */
#include "pjt-stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COMPARE_COLUMNS 8

struct text_table {
	int nrows, cap;
	char *(*rows)[COMPARE_COLUMNS];
};

static void add_row(struct text_table *t, char *cells[COMPARE_COLUMNS])
{
	if (t->nrows == t->cap)
		t->rows = xrealloc(t->rows, (t->cap = t->cap ? 2 * t->cap : 64) * sizeof(*t->rows));
	memcpy(t->rows[t->nrows++], cells, sizeof(*t->rows));
}

static struct analysis *load(const char *dir_or_csv)
{
	struct stat st;
	char *csv = stat(dir_or_csv, &st) == 0 && S_ISDIR(st.st_mode)
		? xasprintf("%s/runs.csv", dir_or_csv) : xstrdup(dir_or_csv);

	if (access(csv, R_OK))
		die_input("run/compare: %s: %s (a results folder must hold runs.csv)", csv, strerror(errno));
	return analyse(read_runs(csv), 1);
}

static const struct study *matching_study(const struct analysis *a, const struct study *like)
{
	for (int s = 0; s < a->nstudies; s++)
		if (!strcmp(a->studies[s].topology, like->topology) &&
		    !strcmp(a->studies[s].workload, like->workload))
			return &a->studies[s];
	return NULL;
}

static double *log_values(const struct sample *s)
{
	double *v = xmalloc(s->n * sizeof(double));

	for (int i = 0; i < s->n; i++)
		v[i] = log(s->sorted[i]);
	return v;
}

static char *number(double v)
{
	char buf[64];

	format_number(buf, sizeof(buf), v);
	return xstrdup(*buf ? buf : "-");
}

/* Names the (workload, combo) cells of x that y lacks, so nothing drops
 * out of the comparison unsaid. */
static void report_unmatched(const struct analysis *x, const struct analysis *y, const char *side)
{
	for (int s = 0; s < x->nstudies; s++) {
		const struct study *sx = &x->studies[s], *sy = matching_study(y, sx);

		for (int g = 0; g < sx->ngroups; g++) {
			const char *combo = x->combos[sx->groups[g].combo].name;
			int found = 0;

			for (int h = 0; sy && h < sy->ngroups && !found; h++)
				found = !strcmp(y->combos[sy->groups[h].combo].name, combo);
			if (!found)
				printf("only in %s: %s / %s (topology %s)\n", side, sx->workload, combo,
				       sx->topology);
		}
	}
}

int compare_results(const char *dir_a, const char *dir_b)
{
	struct analysis *a = load(dir_a), *b = load(dir_b);
	struct text_table table = { 0 };
	char *header[COMPARE_COLUMNS] = { "combo", "metric", "A median", "B median", "B/A", "interval", "level", "p" };
	int widths[COMPARE_COLUMNS] = { 0 }, cells_compared = 0;

	printf("A: %s\nB: %s\nB/A: ratio of medians; interval: exact Mann-Whitney interval of the ratio (shift of log values) at the level shown; p: exact Mann-Whitney (unadjusted, per cell: expect 5%% of unchanged cells below 0.05)\n",
	       a->table->path, b->table->path);
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *sa = &a->studies[s], *sb = matching_study(b, sa);
		int first_row = table.nrows;

		if (!sb)
			continue;
		for (int ga = 0; ga < sa->ngroups; ga++) {
			const char *combo = a->combos[sa->groups[ga].combo].name;
			int gb;

			for (gb = 0; gb < sb->ngroups && strcmp(b->combos[sb->groups[gb].combo].name, combo); gb++)
				;
			if (gb == sb->ngroups)
				continue;
			for (int ma = 0; ma < a->nmetrics; ma++) {
				int mb = metric_index(b, a->metric_names[ma]);
				const struct sample *xa, *xb;
				double ratio, est, p = NAN;
				struct interval ci = { NAN, NAN, NAN };
				char *cells[COMPARE_COLUMNS];

				if (mb < 0)
					continue;
				xa = &sa->groups[ga].metric[ma];
				xb = &sb->groups[gb].metric[mb];
				if (!xa->n || !xb->n)
					continue;
				ratio = xa->median > 0 ? xb->median / xa->median : NAN;
				if (xa->min > 0 && xb->min > 0) {
					double *la = log_values(xa), *lb = log_values(xb);

					ci = shift_interval(la, xa->n, lb, xb->n, &est, &p);
					free(la);
					free(lb);
				}
				cells[0] = xstrdup(combo);
				cells[1] = xstrdup(a->metric_names[ma]);
				cells[2] = number(xa->median);
				cells[3] = number(xb->median);
				cells[4] = isfinite(ratio) ? xasprintf("%.3f", ratio) : xstrdup("- (A median 0)");
				cells[5] = isnan(ci.lo) ? xstrdup(xa->min > 0 && xb->min > 0 ? "-" : "- (a 0: no log)")
					: xasprintf("%.3f..%.3f", exp(ci.lo), exp(ci.hi));
				cells[6] = format_level(ci.level);
				cells[7] = isnan(p) ? xstrdup("-") : xasprintf("%.3g", p);
				add_row(&table, cells);
				cells_compared++;
			}
		}
		if (table.nrows > first_row) {
			/* a study heading row: only the first cell is printed */
			char *cells[COMPARE_COLUMNS] = { xasprintf("== %s (topology %s)", sa->workload, sa->topology) };

			for (int i = 1; i < COMPARE_COLUMNS; i++)
				cells[i] = NULL;
			add_row(&table, cells);
			/* move the heading before its rows */
			char *(heading)[COMPARE_COLUMNS];
			memcpy(heading, table.rows[table.nrows - 1], sizeof(heading));
			memmove(&table.rows[first_row + 1], &table.rows[first_row],
				(table.nrows - 1 - first_row) * sizeof(*table.rows));
			memcpy(table.rows[first_row], heading, sizeof(heading));
		}
	}
	if (!cells_compared) {
		fprintf(stderr, "run/compare: %s and %s have no (workload, combo, metric) with values in both\n",
			a->table->path, b->table->path);
		return 1;
	}
	for (int c = 0; c < COMPARE_COLUMNS; c++)
		widths[c] = strlen(header[c]);
	for (int r = 0; r < table.nrows; r++)
		for (int c = 0; c < COMPARE_COLUMNS && table.rows[r][1]; c++)
			if ((int)strlen(table.rows[r][c]) > widths[c])
				widths[c] = strlen(table.rows[r][c]);
	for (int r = -1; r < table.nrows; r++) {
		char **cells = r < 0 ? header : table.rows[r];

		if (r >= 0 && !cells[1]) {
			printf("\n%s\n", cells[0]);
			continue;
		}
		for (int c = 0; c < COMPARE_COLUMNS - 1; c++)
			printf(c < 2 ? "%-*s  " : "%*s  ", widths[c], cells[c]);
		printf("%s\n", cells[COMPARE_COLUMNS - 1]);
	}
	report_unmatched(a, b, "A");
	report_unmatched(b, a, "B");
	return 0;
}
