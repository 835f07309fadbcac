/* The charts' data: plots-data/sN/ per study, the specs the gnuplot
 * scripts in plots/ load (titles, panels, axis ranges and tics), and
 * plots-data/charts.txt, the list run/report draws.
 *
 * What every chart keeps to:
 * - one colour per combination (analysis.c's mapping, written once more
 *   to plots-data/colours.txt for run/trace-report);
 * - n and the interval level once, in the title, not on every bar; a cell
 *   with fewer runs than the others says so in its axis label;
 * - counts (pulls, migrations) per second of each run's duration_s, the
 *   run length in the title;
 * - throughput and latency as points on an axis fitted to the data (the
 *   subtitle names the panels whose axis does not start at 0), numbers
 *   with thousands separators; ops_per_s in the workload's own unit
 *   (INTERFACES.md: hackbench messages/s, pingpong round trips/s, ...);
 * - ratios on a log axis with a line at 1, each printed beside its row;
 * - a panel whose medians and intervals are 0 in every combination is
 *   left out (a stray pull in a few runs does not make a panel), and the
 *   report says which (chart_plan.left_out). */
#include "pjt-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A gnuplot string literal: double quotes, backslashes and quotes
 * escaped, a newline as \n (a line break in a title or tic label). */
static void gp_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void dat_number(FILE *f, double v)
{
	char buf[64];

	format_number(buf, sizeof(buf), v);
	fprintf(f, " %s", *buf ? buf : "NaN");
}

static int measured(const struct analysis *a, const struct study *st, const char *name)
{
	int m = metric_index(a, name);

	return m >= 0 && st->measured[m];
}

static int has_effects(const struct study *st, int m)
{
	for (int e = 0; e < st->neffects; e++)
		if (st->effects[e].metric == m)
			return 1;
	return 0;
}

/* Whether a chart of metric m would show anything but 0: some cell's
 * median or interval above 0 (a few runs above 0 among many do not
 * move either). */
static int nonzero(const struct analysis *a, const struct study *st, int m)
{
	(void)a;
	for (int g = 0; m >= 0 && g < st->ngroups; g++) {
		const struct sample *smp = &st->groups[g].metric[m];

		if (smp->n && (smp->median > 0 || (!isnan(smp->ci.hi) && smp->ci.hi > 0)))
			return 1;
	}
	return 0;
}

/* How many of the study's runs have metric m above 0, of how many, and
 * its sum over them. */
static void above_zero(const struct study *st, int m, int *runs, int *of, double *sum)
{
	*runs = *of = 0;
	*sum = 0;
	for (int g = 0; g < st->ngroups; g++) {
		const struct sample *smp = &st->groups[g].metric[m];

		*of += smp->n;
		for (int i = 0; i < smp->n; i++)
			if (smp->sorted[i] > 0) {
				(*runs)++;
				*sum += smp->sorted[i];
			}
	}
}

/* What ops_per_s counts, by the workload's kind (INTERFACES.md, "Matrix
 * results"): "messages" for hackbench, ... */
static const char *ops_unit(const char *workload)
{
	static const struct { const char *kind, *unit; } units[] = {
		{ "hackbench", "messages" }, { "perf-messaging", "messages" },
		{ "perf-pipe", "round trips" }, { "pingpong", "round trips" },
		{ "fork", "forks" }, { "rt-app", "activations" },
	};
	size_t len = strcspn(workload, " ");

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].kind) == len && !strncmp(workload, units[i].kind, len))
			return units[i].unit;
	return "operations";
}

/* ---- the panels of the per-combination charts ---- */

enum { AXIS_ZERO, AXIS_FITTED };
struct panel_def {
	const char *metric, *title, *ylabel;
};
struct bars_def {
	const char *what;            /* the title's first words */
	int per_second;              /* counts: per second of the run */
	int axis;                    /* AXIS_ZERO: bars from 0; AXIS_FITTED: points */
	const struct panel_def *panels;
};

#define LATENCY_LABEL "wake-up latency, µs of guest (TCG-emulated) time"
static const struct panel_def pull_panels[] = {
	{ "lb_pulls_idle", "idle", "pulls per second" },
	{ "lb_pulls_busy", "busy (not idle)", "pulls per second" },
	{ "lb_pulls_newidle", "newly idle", "pulls per second" },
	{ NULL, NULL, NULL },
};
static const struct panel_def migration_panels[] = {
	{ "migrations", "perf cpu-migrations", "migrations per second" },
	{ "nr_migrations", "se.nr_migrations", "migrations per second" },
	{ NULL, NULL, NULL },
};
static const struct panel_def throughput_panels[] = {
	{ "records_per_s", "records/s", "records per second" },
	{ "rate_fraction", "rate fraction", "fraction of the calibrated rate" },
	{ "ops_per_s", "ops/s", "operations per second" },
	{ NULL, NULL, NULL },
};
static const struct panel_def latency_panels[] = {
	{ "wakeup_p50_us", "p50", LATENCY_LABEL },
	{ "wakeup_p99_us", "p99", LATENCY_LABEL },
	{ "wakeup_p999_us", "p99.9", LATENCY_LABEL },
	{ NULL, NULL, NULL },
};
static const struct bars_def pulls_chart = { "Load-balance pulls per second by idle type", 1, AXIS_ZERO, pull_panels };
static const struct bars_def migrations_chart = { "Task migrations per second", 1, AXIS_ZERO, migration_panels };
static const struct bars_def throughput_chart = { "Throughput", 0, AXIS_FITTED, throughput_panels };
static const struct bars_def latency_chart = { "Wake-up latency", 0, AXIS_FITTED, latency_panels };
static const char *const decision_kinds[] = { "evaluated", "differed", "applied" };

/* Panels of a chart that have data: measured; all_zero counts those
 * measured whose every run is 0 (left out of the chart). */
static int panels_drawn(const struct analysis *a, const struct study *st, const struct bars_def *def,
			int *all_zero)
{
	int n = 0;

	if (all_zero)
		*all_zero = 0;
	for (const struct panel_def *p = def->panels; p->metric; p++) {
		int m = metric_index(a, p->metric);

		if (m < 0 || !st->measured[m])
			continue;
		if (nonzero(a, st, m))
			n++;
		else if (all_zero)
			(*all_zero)++;
	}
	return n;
}

/* "lb_pulls_busy: the median and interval are 0 in every combination
 * (1 of the 60 runs above 0, 1 in all)", the panels left out, or NULL. */
static char *left_out_panels(const struct analysis *a, const struct study *st, const struct bars_def *def)
{
	char *list = NULL;

	for (const struct panel_def *p = def->panels; p->metric; p++) {
		int m = metric_index(a, p->metric), runs, of;
		double sum;
		char *next;

		if (m < 0 || !st->measured[m] || nonzero(a, st, m))
			continue;
		above_zero(st, m, &runs, &of, &sum);
		next = !runs ? xasprintf("%s%s%s is 0 in every one of the %d runs", list ? list : "", list ? "; " : "",
					  p->metric, of)
			: xasprintf("%s%s%s has its median and interval at 0 in every combination (%d of the %d runs above 0, %g in all)",
				    list ? list : "", list ? "; " : "", p->metric, runs, of, sum);
		free(list);
		list = next;
	}
	return list;
}

static int decision_nonzero(const struct analysis *a, const struct study *st, const char *point)
{
	for (int k = 0; k < 3; k++) {
		char *name = xasprintf("%s_%s", point, decision_kinds[k]);
		int m = metric_index(a, name);

		free(name);
		if (nonzero(a, st, m))
			return 1;
	}
	return 0;
}

static int decisions_measured(const struct analysis *a, const struct study *st, int *drawn)
{
	int n = 0;

	*drawn = 0;
	for (const struct decision_point *p = decision_points; p->point; p++) {
		char *name = xasprintf("%s_evaluated", p->point);

		if (measured(a, st, name)) {
			n++;
			*drawn += decision_nonzero(a, st, p->point);
		}
		free(name);
	}
	return n;
}

static char *decisions_left_out(const struct analysis *a, const struct study *st)
{
	char *list = NULL, *text;
	int n = 0;

	for (const struct decision_point *p = decision_points; p->point; p++) {
		char *name = xasprintf("%s_evaluated", p->point), *next;

		if (measured(a, st, name) && !decision_nonzero(a, st, p->point)) {
			next = xasprintf("%s%s%s", list ? list : "", list ? ", " : "", p->point);
			free(list);
			list = next;
			n++;
		}
		free(name);
	}
	if (!list)
		return NULL;
	text = xasprintf("the counters of %s are 0 (median and interval) in every combination, so %s left out",
			 list, n == 1 ? "its panel is" : "their panels are");
	free(list);
	return text;
}

/* ---- runs and their lengths ---- */

/* The runs' length in the study: median, min and max of duration_s over
 * its ok runs; 0 when runs.csv has none. */
struct run_length {
	int n;
	double median, min, max;
};

static void study_run_length(const struct analysis *a, const struct study *st, struct run_length *rl)
{
	int col = column_index(a->table, "duration_s"), total = 0;
	double *v;

	memset(rl, 0, sizeof(*rl));
	if (col < 0)
		return;
	for (int g = 0; g < st->ngroups; g++)
		total += st->nblocks;
	v = xmalloc((total + 1) * sizeof(double));
	for (int g = 0; g < st->ngroups; g++)
		for (int b = 0; b < st->nblocks; b++) {
			int r = st->groups[g].block_row[b];
			double d = r >= 0 ? a->table->rows[r].value[col] : NAN;

			if (d > 0)
				v[rl->n++] = d;
		}
	if (rl->n) {
		sort_doubles(v, rl->n);
		rl->median = median_sorted(v, rl->n);
		rl->min = v[0];
		rl->max = v[rl->n - 1];
	}
	free(v);
}

/* "5-s runs", "runs of 1.3 to 2.4 s", "" when unknown. */
char *run_length_text(const struct analysis *a, const struct study *st)
{
	struct run_length rl;

	study_run_length(a, st, &rl);
	if (!rl.n)
		return xstrdup("");
	if (rl.max <= rl.min * 1.05)
		return xasprintf("%.2g-s runs", rl.median);
	return xasprintf("runs of %.2g to %.2g s", rl.min, rl.max);
}

/* Metric m of every ok run of group g, in block order, per second of the
 * run's duration_s when per_second (a run without one is left out);
 * sorted. Returns the count; out holds st->nblocks values at most. */
static int cell_values(const struct analysis *a, const struct study *st, int g, int m, int per_second,
		       double *out)
{
	int col = per_second ? column_index(a->table, "duration_s") : -1, n = 0;

	for (int b = 0; b < st->nblocks; b++) {
		int r = st->groups[g].block_row[b];
		double v, d;

		if (r < 0 || isnan(v = metric_value(a, &a->table->rows[r], m)))
			continue;
		if (per_second) {
			d = col >= 0 ? a->table->rows[r].value[col] : NAN;
			if (!(d > 0))
				continue;
			v /= d;
		}
		out[n++] = v;
	}
	sort_doubles(out, n);
	return n;
}

/* Whether the study's runs all carry a duration: per-second charts. */
static int have_durations(const struct analysis *a, const struct study *st)
{
	struct run_length rl;

	study_run_length(a, st, &rl);
	return rl.n > 0;
}

/* ---- axes: ranges and tics ---- */

static double nice_step(double span, int target)
{
	double raw, mag, f;

	if (!(span > 0))
		return 1;
	raw = span / target;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

/* A tic label: "1,024,000" (thousands separated), or the decimals the
 * step needs ("0.75"). */
static char *tic_label(double v, double step)
{
	int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	char digits[64], out[96], *o = out;
	int len, lead;

	if (fabs(v) < step * 1e-6)
		v = 0;
	if (decimals > 0) {
		snprintf(out, sizeof(out), "%.*f", decimals, v);
		return xstrdup(out);
	}
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	len = strlen(digits);
	lead = len % 3 ? len % 3 : 3;
	if (v <= -0.5)
		*o++ = '-';
	for (int i = 0; i < len; i++) {
		if (i && (i - lead) % 3 == 0)
			*o++ = ',';
		*o++ = digits[i];
	}
	*o = '\0';
	return xstrdup(out);
}

/* "set ytics ('0' 0, '50' 50, ...)": the tics of [lo, hi] at step. */
static char *linear_tics(const char *axis, double lo, double hi, double step)
{
	char *cmd = xasprintf("set %stics (", axis), *next;
	int first = 1;

	for (double k = ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k++) {
		char *label = tic_label(k * step, step);

		next = xasprintf("%s%s'%s' %.10g", cmd, first ? "" : ", ", label, k * step + 0.0);
		free(label);
		free(cmd);
		cmd = next;
		first = 0;
	}
	next = xasprintf("%s)", cmd);
	free(cmd);
	return next;
}

/* A linear axis over data in [dlo, dhi]: from 0 (bars), or fitted with
 * a margin (points). Writes its range and tics into *lo, *hi, *tics. */
static void linear_axis(const char *axis, double dlo, double dhi, int fitted, double *lo, double *hi,
			char **tics)
{
	double step;

	if (!isfinite(dlo) || !isfinite(dhi)) {
		dlo = 0;
		dhi = 1;
	}
	if (!fitted) {
		if (dhi <= 0)
			dhi = 1;
		step = nice_step(dhi * 1.06, 5);
		*lo = 0;
		*hi = ceil(dhi * 1.06 / step) * step;
	} else {
		double span = dhi - dlo;

		if (span <= 0)
			span = dhi > 0 ? dhi * 0.04 : 1;
		step = nice_step(span * 1.3, 5);
		*lo = floor((dlo - span * 0.12) / step) * step;
		*hi = ceil((dhi + span * 0.12) / step) * step;
		if (dlo >= 0 && *lo < 0)
			*lo = 0;
	}
	*tics = linear_tics(axis, *lo, *hi, step);
}

/* A log axis for ratios over [dlo, dhi], 1 always inside: range and tics
 * (a ladder of round ratios; narrow ranges get linear steps, which a
 * log axis shows nearly evenly). */
static void ratio_axis(const char *axis, double dlo, double dhi, double *lo, double *hi, char **tics)
{
	static const double fine[] = { 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1,
				       1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000 };
	static const double coarse[] = { 0.001, 0.01, 0.1, 1, 10, 100, 1000 };
	double l, h, pad;
	int nfine = 0, ncoarse = 0;
	char *cmd, *next;

	if (!(dlo > 0) || !isfinite(dlo))
		dlo = 1;
	if (!(dhi > 0) || !isfinite(dhi))
		dhi = 1;
	l = log(fmin(dlo, 1));
	h = log(fmax(dhi, 1));
	if (h - l < log(1.06)) { /* at least 0.97 to 1.03 around the data */
		double mid = (h + l) / 2;

		l = fmin(mid - log(1.03), l);
		h = fmax(mid + log(1.03), h);
	}
	pad = (h - l) * 0.08;
	*lo = exp(l - pad);
	*hi = exp(h + pad);
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
		nfine += fine[i] >= *lo && fine[i] <= *hi;
	for (size_t i = 0; i < sizeof(coarse) / sizeof(coarse[0]); i++)
		ncoarse += coarse[i] >= *lo && coarse[i] <= *hi;
	cmd = xasprintf("set %stics (", axis);
	if (nfine >= 4 || ncoarse >= 3) {
		const double *ladder = nfine <= 10 ? fine : coarse;
		size_t n = nfine <= 10 ? sizeof(fine) / sizeof(fine[0]) : sizeof(coarse) / sizeof(coarse[0]);
		int first = 1;

		for (size_t i = 0; i < n; i++) {
			if (ladder[i] < *lo || ladder[i] > *hi)
				continue;
			next = xasprintf("%s%s'%g' %g", cmd, first ? "" : ", ", ladder[i], ladder[i]);
			free(cmd);
			cmd = next;
			first = 0;
		}
	} else { /* too narrow for the ladders: evenly spaced tics */
		free(cmd);
		*tics = linear_tics(axis, *lo, *hi, nice_step(*hi - *lo, 6));
		return;
	}
	next = xasprintf("%s)", cmd);
	free(cmd);
	*tics = next;
}

/* ---- n and levels, once per chart ---- */

struct n_range {
	int min, max;               /* runs (or units) per cell, over the chart */
};

static void n_note(struct n_range *r, int n)
{
	if (n <= 0)
		return;
	if (!r->max || n < r->min)
		r->min = n;
	if (n > r->max)
		r->max = n;
}

/* "medians of n=12 runs per combination\nwhiskers: their 96.14%
 * intervals" (the order-statistic interval of n values is at a level
 * fixed by n); when cells differ, the most runs, and the axis names the
 * combinations with fewer. */
static char *n_text(const struct n_range *r, const char *unit, const char *per, const char *where)
{
	double level;
	char *l, *text;

	if (!r->max)
		return xasprintf("no %ss", unit);
	median_interval_rank(r->max, &level);
	l = format_level(level);
	if (r->max < 2)
		text = xasprintf("medians of n=%d %s %s, no interval", r->max, unit, per);
	else if (r->min == r->max)
		text = xasprintf("medians of n=%d %ss %s\nwhiskers: their %s intervals", r->max, unit, per, l);
	else
		text = xasprintf("medians of n=%d %ss %s (fewer where the %s says)\nwhiskers: their intervals (%s at n=%d)",
				 r->max, unit, per, where, l, r->max);
	free(l);
	return text;
}

static char *chart_title(const struct study *st, const char *what)
{
	return xasprintf("%s: %s (topology %s)", what, st->workload, st->topology);
}

/* "set xtics ('stock' 0, 'rfc-before\n(n=10)' 1, ...)": a combination
 * whose cells have fewer runs than the chart's most says how many. */
static void write_xtics(FILE *f, const struct analysis *a, const struct study *st, const int *n, int nmax)
{
	fprintf(f, "ncombos = %d\nset xtics (", st->ngroups);
	for (int g = 0; g < st->ngroups; g++) {
		char *label = n && n[g] < nmax ? xasprintf("%s\n(n=%d)", a->combos[st->groups[g].combo].name, n[g])
			: xstrdup(a->combos[st->groups[g].combo].name);

		fputs(g ? ", " : "", f);
		gp_string(f, label);
		fprintf(f, " %d", g);
		free(label);
	}
	fputs(")\n", f);
}

/* Cells with fewer runs than this have every run drawn as a point over
 * the median and its interval: with few runs the reader sees them all. */
#define RUN_POINTS_BELOW 8

/* The x of run i of n around a bar at x: spread over a third of the bar. */
static double run_x(double x, int i, int n)
{
	return n < 2 ? x : x - 0.12 + 0.24 * i / (n - 1);
}

/* One panel of a per-combination chart: combo-METRIC.dat (x median ci_lo
 * ci_hi rgb n combo level; per second when per_second), and
 * combo-METRIC-runs.dat (x value: every run of the cells with fewer than
 * RUN_POINTS_BELOW runs) or "" when no cell has that few. Notes the
 * cells' n, the data's range (medians, intervals, runs). */
static void write_combo_panel(const struct analysis *a, const struct study *st, const char *dir, int m,
			      int per_second, char **dat_path, char **runs_path, int *cell_n,
			      struct n_range *nr, double *dlo, double *dhi)
{
	char *path = xasprintf("%s/combo-%s.dat", dir, a->metric_names[m]);
	FILE *f = open_output(path), *runs = NULL;
	double *v = xmalloc((st->nblocks + 1) * sizeof(double));

	*runs_path = NULL;
	fprintf(f, "# x median ci_lo ci_hi rgb n combo level: %s%s\n", a->metric_names[m],
		per_second ? " per second of the run (duration_s)" : "");
	for (int g = 0; g < st->ngroups; g++) {
		int n = cell_values(a, st, g, m, per_second, v);
		struct interval ci = median_interval(v, n);
		double med = n ? median_sorted(v, n) : NAN;
		int have_ci = n && !isnan(ci.lo);
		char *level = format_level(n ? ci.level : NAN);

		if (n > cell_n[g])
			cell_n[g] = n;
		n_note(nr, n);
		fprintf(f, "%d", g);
		dat_number(f, med);
		dat_number(f, have_ci ? ci.lo : med);
		dat_number(f, have_ci ? ci.hi : med);
		fprintf(f, " %d %d ", a->combos[st->groups[g].combo].colour, n);
		gp_string(f, a->combos[st->groups[g].combo].name);
		fputc(' ', f);
		gp_string(f, level);
		fputc('\n', f);
		free(level);
		if (n) { /* the range: what is drawn, the runs only when they are */
			*dlo = fmin(*dlo, n < RUN_POINTS_BELOW ? v[0] : have_ci ? ci.lo : med);
			*dhi = fmax(*dhi, n < RUN_POINTS_BELOW ? v[n - 1] : have_ci ? ci.hi : med);
		}
		if (!n || n >= RUN_POINTS_BELOW)
			continue;
		if (!runs) {
			*runs_path = xasprintf("%s/combo-%s-runs.dat", dir, a->metric_names[m]);
			runs = open_output(*runs_path);
			fprintf(runs, "# x value: every run of the cells with fewer than %d runs: %s%s\n",
				RUN_POINTS_BELOW, a->metric_names[m], per_second ? " per second" : "");
		}
		for (int i = 0; i < n; i++) {
			fprintf(runs, "%g", run_x(g, i, n));
			dat_number(runs, v[i]);
			fputc('\n', runs);
		}
	}
	close_output(f, path);
	if (runs)
		close_output(runs, *runs_path);
	free(v);
	*dat_path = path;
}

/* A combo-bars.gp spec: one panel per measured metric of the chart that
 * is not 0 in every run. */
static void write_bars_spec(const struct analysis *a, const struct study *st, const char *dir,
			    const char *chart, const struct bars_def *def)
{
	char *path = xasprintf("%s/%s.gp", dir, chart);
	FILE *f = open_output(path);
	int per_second = def->per_second && have_durations(a, st);
	char *what = per_second || !def->per_second ? xstrdup(def->what)
		: xasprintf("%s (per run: runs.csv has no duration_s)", def->what);
	char *title = chart_title(st, what), *length = run_length_text(a, st), *counts, *subtitle;
	int n = panels_drawn(a, st, def, NULL), panel = 0, noff = 0;
	int *cell_n = xcalloc(st->ngroups + 1, sizeof(int));
	char *off_zero = xstrdup(""), *title_ops = NULL, *ylabel_ops = NULL, *axis_note;
	struct n_range nr = { 0, 0 };

	fputs("chart_title = ", f);
	gp_string(f, title);
	fprintf(f, "\nnpanels = %d\narray pfile[%d]\narray prunfile[%d]\narray ptitle[%d]\narray pylabel[%d]\n"
		"array pfitted[%d]\narray pymin[%d]\narray pymax[%d]\narray pytics[%d]\n",
		n, n, n, n, n, n, n, n, n);
	for (const struct panel_def *p = def->panels; p->metric; p++) {
		int m = metric_index(a, p->metric);
		char *dat, *runs, *tics;
		double dlo = INFINITY, dhi = -INFINITY, lo, hi;

		if (m < 0 || !st->measured[m] || !nonzero(a, st, m))
			continue;
		panel++;
		write_combo_panel(a, st, dir, m, per_second, &dat, &runs, cell_n, &nr, &dlo, &dhi);
		linear_axis("y", dlo, dhi, def->axis == AXIS_FITTED, &lo, &hi, &tics);
		if (lo != 0) { /* the subtitle names the axes that do not start at 0 */
			char *next = xasprintf("%s%s%s", off_zero, *off_zero ? ", " : "", p->title);

			free(off_zero);
			off_zero = next;
			noff++;
		}
		if (!strcmp(p->metric, "ops_per_s")) {
			title_ops = xasprintf("%s/s", ops_unit(st->workload));
			ylabel_ops = xasprintf("%s per second", ops_unit(st->workload));
		}
		fprintf(f, "pfile[%d] = ", panel);
		gp_string(f, dat);
		fprintf(f, "\nprunfile[%d] = ", panel);
		gp_string(f, runs ? runs : "");
		fprintf(f, "\nptitle[%d] = ", panel);
		gp_string(f, title_ops ? title_ops : p->title);
		fprintf(f, "\npylabel[%d] = ", panel);
		gp_string(f, ylabel_ops ? ylabel_ops : p->ylabel);
		free(title_ops);
		free(ylabel_ops);
		title_ops = ylabel_ops = NULL;
		fprintf(f, "\npfitted[%d] = %d\npymin[%d] = %.10g\npymax[%d] = %.10g\npytics[%d] = ", panel,
			def->axis == AXIS_FITTED, panel, lo, panel, hi, panel);
		gp_string(f, tics);
		fputc('\n', f);
		free(dat);
		free(runs);
		free(tics);
	}
	counts = n_text(&nr, "run", "per combination", "axis");
	/* computed from the axes drawn: only those that do not start at 0 say so */
	axis_note = !noff ? xstrdup("")
		: noff == n ? xstrdup(n == 1 ? "\nthe axis is fitted to the data: it does not start at 0"
				      : "\nthe axes are fitted to the data: they do not start at 0")
		: xasprintf("\naxes fitted to the data; not from 0: %s", off_zero);
	subtitle = xasprintf("%s%s%s: %s%s", *length ? length : "", *length ? "; " : "",
			     def->axis == AXIS_FITTED ? "points" : "bars", counts, axis_note);
	free(axis_note);
	free(off_zero);
	fputs("chart_subtitle = ", f);
	gp_string(f, subtitle);
	fputc('\n', f);
	write_xtics(f, a, st, cell_n, nr.max);
	close_output(f, path);
	free(subtitle);
	free(counts);
	free(length);
	free(cell_n);
	free(what);
	free(title);
	free(path);
}

/* ---- factorial effects ---- */

static uint32_t design_bits(const struct design *ds)
{
	uint32_t bits = 0;

	for (int i = 0; i < ds->k; i++)
		bits |= ds->factor_bits[i];
	return bits;
}

static int bit_colour(const struct analysis *a, const struct study *st, uint32_t bits)
{
	for (int g = 0; g < st->ngroups; g++)
		if (a->combos[st->groups[g].combo].bits == bits)
			return a->combos[st->groups[g].combo].colour;
	return 0x777777;
}

static int compare_effect_values(const void *pa, const void *pb)
{
	const struct effect *x = *(const struct effect *const *)pa, *y = *(const struct effect *const *)pb;

	return (x->c.value > y->c.value) - (x->c.value < y->c.value);
}

static int count_mains(const struct study *st, int m)
{
	int n = 0;

	for (int e = 0; e < st->neffects; e++)
		n += st->effects[e].metric == m && __builtin_popcount(st->effects[e].term) == 1;
	return n;
}

/* "over 12 boots with 96.14% intervals": the units of a set of comparisons,
 * once (the most units; rows with fewer say so themselves). */
static char *units_text(int units, const char *unit, double level)
{
	char *l = format_level(level), *text;

	text = !units ? xstrdup("no units")
		: isnan(level) ? xasprintf("over %d %s%s, no interval", units, unit, units == 1 ? "" : "s")
		: xasprintf("over %d %ss with %s intervals", units, unit, l);
	free(l);
	return text;
}

static void write_effects_spec(const struct analysis *a, const struct study *st, const char *dir,
			       const char *chart)
{
	const char *names[] = { "lb_pulls_total", "migrations", throughput_metric(a, st) };
	const char *units[] = { "ratio of pulls (with the bit / without)", "ratio of migrations (with / without)", NULL };
	char *path = xasprintf("%s/%s.gp", dir, chart);
	FILE *f = open_output(path);
	char *title = chart_title(st, "Main effect of each bit");
	int n = 0, panel = 0, nterms = 1, label_chars = 10, mark_chars = 8, most = 0;
	const char *unit = "block";
	double level = NAN;

	units[2] = names[2] ? xasprintf("ratio of %s (with / without)", names[2]) : NULL;
	for (int i = 0; i < 3; i++) {
		int m = names[i] ? metric_index(a, names[i]) : -1;

		if (m >= 0 && has_effects(st, m)) {
			n++;
			if (count_mains(st, m) > nterms)
				nterms = count_mains(st, m);
		}
	}
	fputs("chart_title = ", f);
	gp_string(f, title);
	fprintf(f, "\nnpanels = %d\nnterms = %d\narray pfile[%d]\narray ptitle[%d]\narray pxlabel[%d]\n"
		"array pxmin[%d]\narray pxmax[%d]\narray pxtics[%d]\n", n, nterms, n, n, n, n, n, n);
	for (int i = 0; i < 3; i++) {
		const struct effect **mains;
		int m, count = 0;
		char *dat, *tics;
		double dlo = 1, dhi = 1, lo, hi;
		FILE *d;

		if (!names[i] || (m = metric_index(a, names[i])) < 0 || !has_effects(st, m))
			continue;
		mains = xmalloc(st->neffects * sizeof(*mains));
		for (int e = 0; e < st->neffects; e++)
			if (st->effects[e].metric == m && __builtin_popcount(st->effects[e].term) == 1 &&
			    !isnan(st->effects[e].c.value))
				mains[count++] = &st->effects[e];
		qsort(mains, count, sizeof(mains[0]), compare_effect_values);
		for (int e = 0; e < count; e++) {
			const struct comparison *c = &mains[e]->c;

			if (c->n_units > most) {
				most = c->n_units;
				unit = c->unit;
				level = c->level;
			}
			dlo = fmin(dlo, isfinite(c->lo) ? c->lo : c->value);
			dhi = fmax(dhi, isfinite(c->hi) ? c->hi : c->value);
		}
		ratio_axis("x", dlo, dhi, &lo, &hi, &tics);
		dat = xasprintf("%s/effects-%s.dat", dir, names[i]);
		d = open_output(dat);
		fprintf(d, "# y effect ci_lo ci_hi rgb mark term: %s\n", names[i]);
		for (int e = 0; e < count; e++) {
			const struct comparison *c = &mains[e]->c;
			const struct design *ds = &st->designs[mains[e]->design];
			char *term = term_name(a, st, mains[e]->design, mains[e]->term);
			char *mark, *label;
			uint32_t bit = ds->factor_bits[__builtin_ctz(mains[e]->term)];

			if (st->ndesigns > 1) { /* which design: its other factors */
				char *others = base_name(a, design_bits(ds) & ~bit);

				label = xasprintf("%s (x %s)", term, others);
				free(others);
			} else {
				label = xstrdup(term);
			}
			if ((int)strlen(label) > label_chars)
				label_chars = strlen(label);
			/* its marginal p and Holm's q over the design's bits (effects
			 * are never starred); the level is in the title, a cell of
			 * fewer units says its own */
			{
				char *q = isnan(c->q) ? xstrdup("") : xasprintf(" q=%.2g", c->q);

				mark = c->n_units < most
					? xasprintf("p=%.2g%s (%d %s%s)", c->p, q, c->n_units, c->unit, c->n_units == 1 ? "" : "s")
					: xasprintf("p=%.2g%s", c->p, q);
				free(q);
			}
			if ((int)strlen(mark) > mark_chars)
				mark_chars = strlen(mark);
			fprintf(d, "%d", e);
			dat_number(d, c->value);
			dat_number(d, isfinite(c->lo) ? c->lo : lo);
			dat_number(d, isfinite(c->hi) ? c->hi : hi);
			fprintf(d, " %d ", bit_colour(a, st, ds->base | bit));
			gp_string(d, mark);
			fputc(' ', d);
			gp_string(d, label);
			fputc('\n', d);
			free(term);
			free(mark);
			free(label);
		}
		close_output(d, dat);
		free(mains);
		panel++;
		fprintf(f, "pfile[%d] = ", panel);
		gp_string(f, dat);
		fprintf(f, "\nptitle[%d] = ", panel);
		gp_string(f, names[i]);
		fprintf(f, "\npxlabel[%d] = ", panel);
		gp_string(f, units[i]);
		fprintf(f, "\npxmin[%d] = %.10g\npxmax[%d] = %.10g\npxtics[%d] = ", panel, lo, panel, hi, panel);
		gp_string(f, tics);
		fputc('\n', f);
		free(tics);
		free(dat);
	}
	{
		char *u = units_text(most, unit, level);
		char *sub = xasprintf("each bit's main effect (median ratio, log axis, 1 = no effect), %s; p marginal, q Holm over the design's bits", u);

		fputs("chart_subtitle = ", f);
		gp_string(f, sub);
		fputc('\n', f);
		free(sub);
		free(u);
	}
	fprintf(f, "label_chars = %d\nmark_chars = %d\n", label_chars, mark_chars);
	close_output(f, path);
	free((char *)units[2]);
	free(title);
	free(path);
}

/* ---- migrations against throughput ---- */

static void write_scatter_spec(const struct analysis *a, const struct study *st, const char *dir,
			       const char *chart)
{
	const char *tput = throughput_metric(a, st);
	int mm = metric_index(a, "migrations"), tm = metric_index(a, tput);
	int per_second = have_durations(a, st);
	char *path = xasprintf("%s/%s.gp", dir, chart);
	char *dat = xasprintf("%s/scatter.dat", dir);
	char *title = chart_title(st, "Migrations against throughput");
	FILE *f = open_output(path), *d = open_output(dat), *runs = NULL;
	char *runs_path = NULL, *xtics, *ytics, *length = run_length_text(a, st), *counts, *sub;
	double *x = xmalloc((st->nblocks + 1) * sizeof(double)), *y = xmalloc((st->nblocks + 1) * sizeof(double));
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY, x0, x1, y0, y1;
	struct n_range nr = { 0, 0 };

	fprintf(d, "# migrations%s lo hi %s lo hi rgb combo\n", per_second ? " per second" : "", tput);
	for (int g = 0; g < st->ngroups; g++) { /* the most runs: a point of fewer says its n */
		int nx = cell_values(a, st, g, mm, per_second, x), ny = cell_values(a, st, g, tm, 0, y);

		if (nx && ny)
			n_note(&nr, nx < ny ? nx : ny);
	}
	for (int g = 0; g < st->ngroups; g++) {
		int nx = cell_values(a, st, g, mm, per_second, x), ny = cell_values(a, st, g, tm, 0, y);
		struct interval cx = median_interval(x, nx), cy = median_interval(y, ny);
		double mx, my;
		char *label;

		if (!nx || !ny)
			continue;
		mx = median_sorted(x, nx);
		my = median_sorted(y, ny);
		dat_number(d, mx);
		dat_number(d, isnan(cx.lo) ? mx : cx.lo);
		dat_number(d, isnan(cx.hi) ? mx : cx.hi);
		dat_number(d, my);
		dat_number(d, isnan(cy.lo) ? my : cy.lo);
		dat_number(d, isnan(cy.hi) ? my : cy.hi);
		fprintf(d, " %d ", a->combos[st->groups[g].combo].colour);
		label = (nx < ny ? nx : ny) < nr.max ? xasprintf("%s (n=%d)", a->combos[st->groups[g].combo].name, nx < ny ? nx : ny)
			: xstrdup(a->combos[st->groups[g].combo].name);
		gp_string(d, label);
		free(label);
		fputc('\n', d);
		/* the range: what is drawn, the runs only when they are */
		xlo = fmin(xlo, nx < RUN_POINTS_BELOW ? x[0] : isnan(cx.lo) ? mx : cx.lo);
		xhi = fmax(xhi, nx < RUN_POINTS_BELOW ? x[nx - 1] : isnan(cx.hi) ? mx : cx.hi);
		ylo = fmin(ylo, ny < RUN_POINTS_BELOW ? y[0] : isnan(cy.lo) ? my : cy.lo);
		yhi = fmax(yhi, ny < RUN_POINTS_BELOW ? y[ny - 1] : isnan(cy.hi) ? my : cy.hi);
	}
	close_output(d, dat);
	/* every run of the cells with few runs: both metrics of the same run */
	for (int g = 0; g < st->ngroups; g++) {
		const struct group *gr = &st->groups[g];
		int col = column_index(a->table, "duration_s");

		if (!gr->metric[mm].n || !gr->metric[tm].n ||
		    (gr->metric[mm].n >= RUN_POINTS_BELOW && gr->metric[tm].n >= RUN_POINTS_BELOW))
			continue;
		for (int b = 0; b < st->nblocks; b++) {
			const struct run_row *row = gr->block_row[b] >= 0 ? &a->table->rows[gr->block_row[b]] : NULL;
			double vx = row ? metric_value(a, row, mm) : NAN, vy = row ? metric_value(a, row, tm) : NAN;

			if (per_second && row)
				vx = col >= 0 && row->value[col] > 0 ? vx / row->value[col] : NAN;
			if (isnan(vx) || isnan(vy))
				continue;
			if (!runs) {
				runs_path = xasprintf("%s/scatter-runs.dat", dir);
				runs = open_output(runs_path);
				fprintf(runs, "# migrations%s %s rgb: every run of the cells with fewer than %d runs\n",
					per_second ? " per second" : "", tput, RUN_POINTS_BELOW);
			}
			dat_number(runs, vx);
			dat_number(runs, vy);
			fprintf(runs, " %d\n", a->combos[gr->combo].colour);
		}
	}
	if (runs)
		close_output(runs, runs_path);
	linear_axis("x", xlo, xhi, 1, &x0, &x1, &xtics);
	linear_axis("y", ylo, yhi, 1, &y0, &y1, &ytics);
	counts = n_text(&nr, "run", "per combination", "label");
	sub = xasprintf("%s%s%s, both ways\n%s", length, *length ? "; points: " : "points: ", counts,
			x0 != 0 && y0 != 0 ? "both axes fitted to the data (neither starts at 0)"
			: x0 != 0 ? "axes fitted to the data: the x axis does not start at 0"
			: y0 != 0 ? "axes fitted to the data: the y axis does not start at 0"
			: "axes fitted to the data, both from 0");
	fputs("chart_title = ", f);
	gp_string(f, title);
	fputs("\nchart_subtitle = ", f);
	gp_string(f, sub);
	fputs("\nrunsfile = ", f);
	gp_string(f, runs_path ? runs_path : "");
	free(runs_path);
	fputs("\ndatafile = ", f);
	gp_string(f, dat);
	fputs("\nxlabel_text = ", f);
	gp_string(f, per_second ? "task migrations per second (perf cpu-migrations)" : "task migrations per run (perf cpu-migrations)");
	fputs("\nylabel_text = ", f);
	if (!strcmp(tput, "ops_per_s")) {
		char *label = xasprintf("throughput, %s per second", ops_unit(st->workload));

		gp_string(f, label);
		free(label);
	} else {
		gp_string(f, !strcmp(tput, "records_per_s") ? "throughput, records per second"
			  : "rate_fraction (fraction of the calibrated rate)");
	}
	fprintf(f, "\nxmin = %.10g\nxmax = %.10g\nymin = %.10g\nymax = %.10g\nxtics_cmd = ", x0, x1, y0, y1);
	gp_string(f, xtics);
	fputs("\nytics_cmd = ", f);
	gp_string(f, ytics);
	fputc('\n', f);
	close_output(f, path);
	free(xtics);
	free(ytics);
	free(counts);
	free(sub);
	free(length);
	free(x);
	free(y);
	free(title);
	free(dat);
	free(path);
}

/* ---- pjt_stats decision counters ---- */

/* decisions-POINT-runs.dat: x value, every run of the cells with fewer
 * than RUN_POINTS_BELOW runs, at its counter's bar; only counts above 0,
 * which the log scale can show (a missing bar is 0). NULL: no file. */
static char *write_decision_runs(const struct analysis *a, const struct study *st, const char *dir,
				 const char *point)
{
	char *path = NULL;
	FILE *f = NULL;

	for (int g = 0; g < st->ngroups; g++)
		for (int k = 0; k < 3; k++) {
			char *name = xasprintf("%s_%s", point, decision_kinds[k]);
			int m = metric_index(a, name);
			const struct sample *smp = m >= 0 ? &st->groups[g].metric[m] : NULL;

			free(name);
			if (!smp || !smp->n || smp->n >= RUN_POINTS_BELOW)
				continue;
			for (int i = 0; i < smp->n; i++) {
				if (smp->sorted[i] <= 0)
					continue;
				if (!f) {
					path = xasprintf("%s/decisions-%s-runs.dat", dir, point);
					f = open_output(path);
					fprintf(f, "# x value: every run (above 0) of the cells with fewer than %d runs\n",
						RUN_POINTS_BELOW);
				}
				fprintf(f, "%g", run_x(g + (k - 1) * 0.27, i, smp->n));
				dat_number(f, smp->sorted[i]);
				fputc('\n', f);
			}
		}
	if (f)
		close_output(f, path);
	return path;
}

/* decisions-POINT.dat: x median lo hi rgb kind combo, kind 0 evaluated,
 * 1 differed, 2 applied, side by side around the combo's x; the points
 * whose counters are all 0 are left out. */
static void write_decisions_spec(const struct analysis *a, const struct study *st, const char *dir,
				 const char *chart)
{
	char *path = xasprintf("%s/%s.gp", dir, chart);
	FILE *f = open_output(path);
	char *length = run_length_text(a, st), *what, *title, *counts, *sub;
	int n, panel = 0, *cell_n = xcalloc(st->ngroups + 1, sizeof(int));
	struct n_range nr = { 0, 0 };

	decisions_measured(a, st, &n);
	what = xasprintf("pjt_stats decision counters per run%s%s%s", *length ? " (" : "", length, *length ? ")" : "");
	title = chart_title(st, what);
	fputs("chart_title = ", f);
	gp_string(f, title);
	fprintf(f, "\nnpanels = %d\narray pfile[%d]\narray prunfile[%d]\narray ptitle[%d]\n", n, n, n, n);
	for (const struct decision_point *p = decision_points; p->point; p++) {
		char *evaluated = xasprintf("%s_evaluated", p->point), *dat;
		FILE *d;

		if (!measured(a, st, evaluated) || !decision_nonzero(a, st, p->point)) {
			free(evaluated);
			continue;
		}
		dat = xasprintf("%s/decisions-%s.dat", dir, p->point);
		d = open_output(dat);
		fputs("# x median lo hi rgb kind combo\n", d);
		for (int g = 0; g < st->ngroups; g++)
			for (int k = 0; k < 3; k++) {
				char *name = xasprintf("%s_%s", p->point, decision_kinds[k]);
				int m = metric_index(a, name);
				const struct sample *smp = m >= 0 ? &st->groups[g].metric[m] : NULL;

				free(name);
				if (!smp || !smp->n)
					continue;
				if (smp->n > cell_n[g])
					cell_n[g] = smp->n;
				n_note(&nr, smp->n);
				fprintf(d, "%g", g + (k - 1) * 0.27);
				dat_number(d, smp->median);
				dat_number(d, isnan(smp->ci.lo) ? smp->median : smp->ci.lo);
				dat_number(d, isnan(smp->ci.hi) ? smp->median : smp->ci.hi);
				fprintf(d, " %d %d ", a->combos[st->groups[g].combo].colour, k);
				gp_string(d, a->combos[st->groups[g].combo].name);
				fputc('\n', d);
			}
		close_output(d, dat);
		panel++;
		fprintf(f, "pfile[%d] = ", panel);
		gp_string(f, dat);
		free(dat);
		dat = write_decision_runs(a, st, dir, p->point);
		fprintf(f, "\nprunfile[%d] = ", panel);
		gp_string(f, dat ? dat : "");
		fprintf(f, "\nptitle[%d] = ", panel);
		gp_string(f, p->point);
		fputc('\n', f);
		free(dat);
		free(evaluated);
	}
	counts = n_text(&nr, "run", "per combination", "axis");
	sub = xasprintf("bars: %s; log axis, a missing bar is 0", counts);
	fputs("chart_subtitle = ", f);
	gp_string(f, sub);
	fputc('\n', f);
	write_xtics(f, a, st, cell_n, nr.max);
	close_output(f, path);
	free(sub);
	free(counts);
	free(cell_n);
	free(what);
	free(length);
	free(title);
	free(path);
}

/* ---- the paired ratios ---- */

/* The primary metrics of the paired-ratio chart, in its order. */
static int ratio_metrics(const struct analysis *a, const struct study *st, int out[4])
{
	const char *names[] = { "lb_pulls_total", "migrations", throughput_metric(a, st), "wakeup_p99_us" };
	int n = 0;

	for (int i = 0; i < 4; i++) {
		int m = names[i] ? metric_index(a, names[i]) : -1;

		if (m >= 0 && st->measured[m] && a->primary[m])
			out[n++] = m;
	}
	return n;
}

/* The rows of one metric's panel: the declared comparisons, then every
 * other ratio to a reference point; their count. With rows: each one's
 * comparison, names and whether it is declared. A side 0 in every unit
 * ("0 against 46", the RFC's own result) has no ratio but is a row: drawn
 * at an edge of the axis, not dropped. */
struct ratio_row {
	const struct comparison *c;
	const char *who, *ref;
	int declared;
};

static int ratio_rows(const struct analysis *a, const struct study *st, int m, struct ratio_row *rows)
{
	int n = 0;

	for (int d = 0; d < a->ndeclared; d++) {
		const struct comparison *c = &st->decl[d][m];

		if (!c->present || (isnan(c->value) && !c->zero_side))
			continue;
		if (rows)
			rows[n] = (struct ratio_row){ c, a->declared[d].combo, a->declared[d].reference, 1 };
		n++;
	}
	for (int g = 0; g < st->ngroups; g++)
		for (int r = 0; r < NRATIOS; r++) {
			const struct comparison *c;

			if (!st->groups[g].ratio[r] || st->ref[ratio_reference[r]] < 0)
				continue;
			c = &st->groups[g].ratio[r][m];
			if (!c->present || (isnan(c->value) && !c->zero_side) || c->confirmatory)
				continue;
			if (rows)
				rows[n] = (struct ratio_row){ c, a->combos[st->groups[g].combo].name,
					a->combos[st->groups[st->ref[ratio_reference[r]]].combo].name, 0 };
			n++;
		}
	return n;
}

static int combo_colour(const struct analysis *a, const char *name)
{
	for (int c = 0; c < a->ncombos; c++)
		if (!strcmp(a->combos[c].name, name))
			return a->combos[c].colour;
	return 0x777777;
}

/* A ratio beside its point: three decimals (0.467, 1.276), more
 * significant digits far from 1 (0.0123, 12.3) */
static char *chart_ratio(double v)
{
	return v >= 0.1 && v < 10 ? xasprintf("%.3f", v) : xasprintf("%.3g", v);
}

static const char *ratio_panel_title(const char *metric)
{
	return !strcmp(metric, "lb_pulls_total") ? "pulls (lb_pulls_total)"
		: !strcmp(metric, "migrations") ? "migrations (perf cpu-migrations)"
		: !strcmp(metric, "records_per_s") ? "throughput (records_per_s)"
		: !strcmp(metric, "ops_per_s") ? "throughput (ops_per_s)"
		: !strcmp(metric, "wakeup_p99_us") ? "wake-up p99 latency (wakeup_p99_us, guest's emulated time)"
		: metric;
}

/* ratios-METRIC.dat (y ratio lo hi rgb declared) per panel; the rows'
 * names as the left tics, each one's test as the right ones; the units
 * and level once in the subtitle, a row of fewer units says its own. */
static void write_ratios_spec(const struct analysis *a, const struct study *st, const char *dir,
			      const char *chart)
{
	char *path = xasprintf("%s/%s.gp", dir, chart);
	char *title = chart_title(st, "Paired ratios");
	FILE *f = open_output(path);
	int ms[4], np = ratio_metrics(a, st, ms), total = 0, most = 0, panel = 0, any_zero = 0;
	size_t label_chars = 0;  /* the longest right-hand label: the margin it needs */
	const char *unit = "unit";
	double level = NAN;

	for (int i = 0; i < np; i++) { /* the units most rows have */
		int n = ratio_rows(a, st, ms[i], NULL);
		struct ratio_row *rows = xmalloc((n + 1) * sizeof(*rows));

		ratio_rows(a, st, ms[i], rows);
		for (int r = 0; r < n; r++)
			/* a zero side has units but no interval: not the title's level */
			if (rows[r].c->n_units > most && !rows[r].c->zero_side) {
				most = rows[r].c->n_units;
				unit = rows[r].c->unit;
				level = rows[r].c->level;
			}
		free(rows);
	}
	for (int i = 0; i < np; i++)
		panel += ratio_rows(a, st, ms[i], NULL) > 0;
	fputs("chart_title = ", f);
	gp_string(f, title);
	fprintf(f, "\nnpanels = %d\narray pfile[%d]\narray pzfile[%d]\narray ptitle[%d]\narray prows[%d]\narray pdeclared[%d]\n"
		"array pxmin[%d]\narray pxmax[%d]\narray pxtics[%d]\narray pytics[%d]\narray py2tics[%d]\n",
		panel, panel, panel, panel, panel, panel, panel, panel, panel, panel, panel);
	panel = 0;
	for (int i = 0; i < np; i++) {
		int n = ratio_rows(a, st, ms[i], NULL), ndecl = 0;
		struct ratio_row *rows;
		char *dat, *xtics, *ytics = xstrdup("set ytics ("), *y2tics = xstrdup("set y2tics ("), *next;
		char *zdat = NULL;
		double dlo = 1, dhi = 1, lo, hi;
		FILE *d, *zd = NULL;
		int nratio = 0;

		if (!n)
			continue;
		rows = xmalloc((n + 1) * sizeof(*rows));
		ratio_rows(a, st, ms[i], rows);
		for (int r = 0; r < n; r++) {
			const struct comparison *c = rows[r].c;

			ndecl += rows[r].declared;
			if (c->zero_side)
				continue;
			nratio++;
			dlo = fmin(dlo, isfinite(c->lo) ? c->lo : c->value);
			dhi = fmax(dhi, isfinite(c->hi) ? c->hi : c->value);
		}
		ratio_axis("x", dlo, dhi, &lo, &hi, &xtics);
		dat = xasprintf("%s/ratios-%s.dat", dir, a->metric_names[ms[i]]);
		d = open_output(dat);
		fprintf(d, "# y ratio lo hi rgb declared: %s / reference, paired\n", a->metric_names[ms[i]]);
		for (int r = 0; r < n; r++) {
			const struct comparison *c = rows[r].c;
			char *label = xasprintf("%s / %s", rows[r].who, rows[r].ref);
			char *units = c->n_units != most ? xasprintf(" (%d %s%s)", c->n_units, c->unit,
								      c->n_units == 1 ? "" : "s") : xstrdup("");
			char *ratio = c->zero_side ? xstrdup("") : xasprintf("%s, ", chart_ratio(c->value));
			char *test = isnan(c->p) ? xasprintf("%sno test%s", ratio, units)
				: rows[r].declared ? xasprintf("%s%s p=%.2g%s%s", ratio, c->secondary ? "fixed-sequence" : "Holm",
							       c->q, c->sig ? " *" : "", units)
				: xasprintf("%sp=%.2g%s", ratio, c->p, units);

			free(ratio);

			if (c->zero_side) {
				/* no ratio: a diamond at the edge it goes to (2% in from
				 * it, on the log axis), both 0 at 1; the sides in the label */
				double edge = c->zero_side == ZERO_BOTH ? 1
					: c->zero_side == ZERO_X ? exp(log(lo) + 0.02 * (log(hi) - log(lo)))
					: exp(log(hi) - 0.02 * (log(hi) - log(lo)));
				char *sides = zero_side_text(c);

				if (!zd) {
					zdat = xasprintf("%s/ratios-%s-zero.dat", dir, a->metric_names[ms[i]]);
					zd = open_output(zdat);
					fprintf(zd, "# y x rgb declared: %s, a side 0 in every unit (no ratio): x is the axis edge it goes to\n",
						a->metric_names[ms[i]]);
				}
				fprintf(zd, "%d", r);
				dat_number(zd, edge);
				fprintf(zd, " %d %d\n", combo_colour(a, rows[r].who), rows[r].declared);
				next = xasprintf("%s, %s", sides, test);
				free(test);
				test = next;
				free(sides);
			} else {
				fprintf(d, "%d", r);
				dat_number(d, c->value);
				dat_number(d, isfinite(c->lo) ? c->lo : c->value);
				dat_number(d, isfinite(c->hi) ? c->hi : isinf(c->hi) ? hi : c->value);
				fprintf(d, " %d %d\n", combo_colour(a, rows[r].who), rows[r].declared);
			}
			next = xasprintf("%s%s'%s' %d", ytics, r ? ", " : "", label, r);
			free(ytics);
			ytics = next;
			label_chars = strlen(test) > label_chars ? strlen(test) : label_chars;
			next = xasprintf("%s%s'%s' %d", y2tics, r ? ", " : "", test, r);
			free(y2tics);
			y2tics = next;
			free(label);
			free(units);
			free(test);
		}
		close_output(d, dat);
		if (zd)
			close_output(zd, zdat);
		any_zero |= zd != NULL;
		next = xasprintf("%s)", ytics);
		free(ytics);
		ytics = next;
		next = xasprintf("%s)", y2tics);
		free(y2tics);
		y2tics = next;
		panel++;
		/* "": no row of that kind in the panel (gnuplot draws no file then) */
		fprintf(f, "pfile[%d] = ", panel);
		gp_string(f, nratio ? dat : "");
		fprintf(f, "\npzfile[%d] = ", panel);
		gp_string(f, zdat ? zdat : "");
		fprintf(f, "\nptitle[%d] = ", panel);
		gp_string(f, ratio_panel_title(a->metric_names[ms[i]]));
		fprintf(f, "\nprows[%d] = %d\npdeclared[%d] = %d\npxmin[%d] = %.10g\npxmax[%d] = %.10g\npxtics[%d] = ",
			panel, n, panel, ndecl, panel, lo, panel, hi, panel);
		gp_string(f, xtics);
		fprintf(f, "\npytics[%d] = ", panel);
		gp_string(f, ytics);
		fprintf(f, "\npy2tics[%d] = ", panel);
		gp_string(f, y2tics);
		fputc('\n', f);
		total += n;
		free(dat);
		free(zdat);
		free(xtics);
		free(ytics);
		free(y2tics);
		free(rows);
	}
	{
		char *u = units_text(most, unit, level);
		char *sub = xasprintf("each comparison's paired ratio (log axis, 1 = no change): %s\n"
				      "filled: declared (Hodges-Lehmann; Holm-adjusted p, or a secondary's fixed-sequence p; * = resolved at 5%%); open: median, marginal p, not adjusted%s", u,
				      any_zero ? "\ndiamond at an edge: a side 0 in every unit, no ratio (left edge: to 0, right edge: from 0)" : "");

		fputs("chart_subtitle = ", f);
		gp_string(f, sub);
		fprintf(f, "\ntotal_rows = %d\nsubtitle_lines = %d\nlabel_chars = %zu\n", total, 2 + any_zero,
			label_chars);
		free(sub);
		free(u);
	}
	close_output(f, path);
	free(title);
	free(path);
}

/* ---- the plan: which charts, in report order ---- */

static const char *const kinds[CHART_KINDS] = { "ratios", "pulls", "migrations", "throughput", "latency", "effects", "scatter", "decisions" };
static const char *const scripts[CHART_KINDS] = { "ratios.gp", "combo-bars.gp", "combo-bars.gp", "combo-bars.gp", "combo-bars.gp", "effects.gp", "scatter.gp", "decisions.gp" };
static const struct bars_def *const bar_defs[CHART_KINDS] = { NULL, &pulls_chart, &migrations_chart, &throughput_chart, &latency_chart, NULL, NULL, NULL };

void plan_charts(const struct analysis *a, int s, struct chart_plan plan[CHART_KINDS])
{
	const struct study *st = &a->studies[s];
	char *slug = study_slug(a, s);
	const char *tput = throughput_metric(a, st);
	int eff = 0, ms[4], np = ratio_metrics(a, st, ms), rows = 0, zero, drawn;
	/* short: what each chart draws; how to read intervals and p is in
	 * the report's "How to read the numbers", once */
	static const char *const captions[CHART_KINDS] = {
		"Paired ratios of the primary metrics: each comparison's ratio and interval on a log axis (1 = no change), the ratio and p beside it; filled rows are the declared comparisons, whose p the stars come from",
		"Load-balance pulls per second by idle type: median and interval of the median of each combination's runs",
		"Task migrations per second: median and interval of the median of each combination's runs",
		"Throughput per run: median and interval of the median of each combination's runs",
		"Wake-up latency percentiles (µs of the guest's TCG-emulated clock): median and interval of the median",
		"Main effect of each bit: the ratio with the bit over without it, its interval, its marginal p and its q (Holm over the design's bits on this metric only); never starred",
		"Migrations per second against throughput: one point per combination, medians with both intervals",
		"pjt_stats decision counters per run: evaluated, differed from stock's rule, applied (log scale; a missing bar is 0)",
	};

	for (const char *names[] = { "lb_pulls_total", "migrations", tput }, **p = names; p < names + 3; p++)
		if (*p && metric_index(a, *p) >= 0)
			eff += has_effects(st, metric_index(a, *p));
	for (int i = 0; i < np; i++)
		rows += ratio_rows(a, st, ms[i], NULL);
	for (int i = 0; i < CHART_KINDS; i++) {
		plan[i].name = xasprintf("%s-%s", slug, kinds[i]);
		plan[i].script = scripts[i];
		plan[i].caption = xstrdup(captions[i]);
		plan[i].skip_reason = NULL;
		plan[i].left_out = NULL;
		if (!bar_defs[i])
			continue;
		drawn = panels_drawn(a, st, bar_defs[i], &zero);
		if (!drawn && !zero)
			plan[i].skip_reason = xasprintf("no %s values in this workload's runs",
							i == 1 ? "lb_pulls_*" : i == 2 ? "migrations"
							: i == 3 ? "records_per_s, rate_fraction or ops_per_s (not a duty, pingpong, fork or rate workload)"
							: "wake-up latency");
		else if (!drawn)
			plan[i].skip_reason = left_out_panels(a, st, bar_defs[i]);
		else
			plan[i].left_out = left_out_panels(a, st, bar_defs[i]);
	}
	if (!rows)
		plan[0].skip_reason = xstrdup("no paired comparison of a primary metric in this workload");
	if (!st->ndesigns)
		plan[5].skip_reason = xstrdup(st->skip_effects);
	else if (!eff)
		plan[5].skip_reason = xstrdup("the factorial cells lack values of pulls, migrations and throughput");
	if (!measured(a, st, "migrations") || !tput)
		plan[6].skip_reason = xstrdup("needs both migrations and a throughput metric");
	if (!decisions_measured(a, st, &drawn))
		plan[7].skip_reason = xstrdup("no pjt_stats counters in this workload's runs");
	else if (!drawn)
		plan[7].skip_reason = xstrdup("every pjt_stats counter is 0 in every run: no decision point was evaluated");
	else
		plan[7].left_out = decisions_left_out(a, st);
	free(slug);
}

void free_chart_plan(struct chart_plan plan[CHART_KINDS])
{
	for (int i = 0; i < CHART_KINDS; i++) {
		free(plan[i].name);
		free(plan[i].caption);
		free(plan[i].skip_reason);
		free(plan[i].left_out);
	}
}

/* plots-data/colours.txt: "COMBO\t#RRGGBB", the one mapping every chart
 * uses, for the tools that draw charts of their own (run/trace-report). */
static void write_colours(const struct analysis *a, const char *data_dir)
{
	char *path = xasprintf("%s/colours.txt", data_dir);
	FILE *f = open_output(path);

	for (int c = 0; c < a->ncombos; c++)
		fprintf(f, "%s\t#%06x\n", a->combos[c].name, a->combos[c].colour);
	close_output(f, path);
	free(path);
}

/* DIR/plots-data/charts.txt: one line per chart, tab-separated:
 * "chart NAME SCRIPT SPEC" or "skip NAME - REASON". Paths are relative
 * to the results folder, where the scripts run. */
void write_plot_data(const struct analysis *a, const char *dir)
{
	char *data_dir = xasprintf("%s/plots-data", dir);
	char *list_path = xasprintf("%s/charts.txt", data_dir);
	FILE *list;

	make_dir(data_dir);
	write_colours(a, data_dir);
	list = open_output(list_path);
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];
		struct chart_plan plan[CHART_KINDS];
		char *slug = study_slug(a, s);
		char *study_dir = xasprintf("%s/%s", data_dir, slug);
		char *rel = xasprintf("plots-data/%s", slug);

		make_dir(study_dir);
		plan_charts(a, s, plan);
		/* data file paths inside specs are relative to the results folder */
		for (int i = 0; i < CHART_KINDS; i++) {
			if (plan[i].skip_reason) {
				fprintf(list, "skip\t%s\t-\t%s\n", plan[i].name, plan[i].skip_reason);
				continue;
			}
			if (i == 0)
				write_ratios_spec(a, st, rel, plan[i].name);
			else if (bar_defs[i])
				write_bars_spec(a, st, rel, plan[i].name, bar_defs[i]);
			else if (i == 5)
				write_effects_spec(a, st, rel, plan[i].name);
			else if (i == 6)
				write_scatter_spec(a, st, rel, plan[i].name);
			else
				write_decisions_spec(a, st, rel, plan[i].name);
			fprintf(list, "chart\t%s\t%s\t%s/%s.gp\n", plan[i].name, plan[i].script, rel, plan[i].name);
		}
		free_chart_plan(plan);
		free(rel);
		free(study_dir);
		free(slug);
	}
	close_output(list, list_path);
	free(list_path);
	free(data_dir);
}
