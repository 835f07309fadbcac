/* summary.csv, effects.csv and the data files the gnuplot scripts read
 * (plots-data/sN/: one directory per study, see the scripts in plots/). */
#include "pjt-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* s in double quotes; CSV doubles an inner quote, gnuplot escapes it and
 * backslashes with a backslash. */
static void quoted(FILE *f, const char *s, int csv)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || (!csv && *s == '\\'))
			fputc(csv ? '"' : '\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void csv_text(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\n\r"))
		quoted(f, s, 1);
	else
		fputs(s, f);
}

void csv_number(FILE *f, double v)
{
	char buf[64];

	format_number(buf, sizeof(buf), v);
	fprintf(f, ",%s", buf);
}

static void csv_level(FILE *f, double level)
{
	csv_number(f, level * 100); /* percent */
}

static void csv_comparison_header(FILE *f, const char *prefix)
{
	fprintf(f, ",%s,%s_lo,%s_hi,%s_level,%s_units,%s_unit,%s_p,%s_q,%s_sig,%s_note",
		prefix, prefix, prefix, prefix, prefix, prefix, prefix, prefix, prefix, prefix);
}

/* value,lo,hi,level,units,unit,p,q,sig,note */
static void csv_comparison(FILE *f, const struct comparison *c)
{
	if (!c) {
		fputs(",,,,,,,,,", f);
		return;
	}
	csv_number(f, c->value);
	csv_number(f, c->lo);
	csv_number(f, c->hi);
	csv_level(f, c->level);
	fprintf(f, ",%d,%s", c->n_units, c->unit ? c->unit : "");
	csv_number(f, c->p);
	csv_number(f, c->q);
	fprintf(f, ",%s,", c->sig ? "*" : "");
	csv_text(f, c->note ? c->note : "");
}

typedef void summary_cell_fn(void *ctx, const struct analysis *a, const struct study *st,
			     const struct group *gr, int m);

/* Every cell of summary.csv (and summary.json), in its order: study,
 * combination, metric; metrics a study never measured are left out. */
static void each_summary_cell(const struct analysis *a, summary_cell_fn *fn, void *ctx)
{
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];

		for (int g = 0; g < st->ngroups; g++)
			for (int m = 0; m < a->nmetrics; m++)
				if (st->measured[m])
					fn(ctx, a, st, &st->groups[g], m);
	}
}

static void summary_csv_row(void *ctx, const struct analysis *a, const struct study *st,
			    const struct group *gr, int m)
{
	FILE *f = ctx;
	const struct combo *c = &a->combos[gr->combo];
	const struct sample *smp = &gr->metric[m];

	csv_text(f, st->topology);
	fputc(',', f);
	csv_text(f, st->workload);
	fputc(',', f);
	csv_text(f, c->name);
	fputc(',', f);
	csv_text(f, c->features);
	fprintf(f, ",%s,%d,%d,%d,%d", a->metric_names[m], a->primary[m], smp->n, gr->n_crashed,
		gr->n_failed);
	csv_number(f, smp->median);
	csv_number(f, smp->q1);
	csv_number(f, smp->q3);
	csv_number(f, smp->min);
	csv_number(f, smp->max);
	csv_number(f, smp->ci.lo);
	csv_number(f, smp->ci.hi);
	csv_level(f, smp->ci.level);
	fprintf(f, ",%s", isnan(smp->ci.level) ? "" : "order-statistic");
	for (int r = 0; r < NRATIOS; r++)
		csv_comparison(f, gr->ratio[r] ? &gr->ratio[r][m] : NULL);
	fputc('\n', f);
}

void write_summary(const struct analysis *a, const char *path)
{
	FILE *f = open_output(path);

	fputs("topology,workload,combo,features,metric,primary,n,n_crashed,n_failed,median,q1,q3,min,max,"
	      "ci_lo,ci_hi,ci_level,ci_method", f);
	for (int r = 0; r < NRATIOS; r++)
		csv_comparison_header(f, ratio_column[r]);
	fputc('\n', f);
	each_summary_cell(a, summary_csv_row, f);
	close_output(f, path);
}

/* ---- summary.json: the run's provenance and summary.csv's cells ---- */

static void json_column_stats(struct json *j, const char *key, const struct column_stats *cs)
{
	if (!cs->n) {
		json_str(j, key, NULL);
		return;
	}
	json_object(j, key);
	json_int(j, "n", cs->n);
	json_num(j, "min", cs->min);
	json_num(j, "median", cs->median);
	json_num(j, "mean", cs->mean);
	json_num(j, "max", cs->max);
	json_end_object(j);
}

static void json_kv(struct json *j, const char *key, const struct kv *kv, int have)
{
	if (!have) {
		json_str(j, key, NULL);
		return;
	}
	json_object(j, key);
	for (int i = 0; i < kv->n; i++)
		json_str(j, kv->keys[i], kv->values[i]);
	json_end_object(j);
}

static void json_records(struct json *j, const struct provenance *p, const char *key, const char *kind)
{
	json_array(j, key);
	for (int i = 0; i < p->nrec[SRC_PLAN]; i++)
		if (!strcmp(p->rec[SRC_PLAN][i].kind, kind))
			json_str(j, NULL, p->rec[SRC_PLAN][i].value);
	json_end_array(j);
}

/* The kernel or image booted: kernel.txt's (image.txt's) path and sha256,
 * and the sha256 values runs.csv recorded. */
static void json_booted(struct json *j, const char *key, const char *path, const char *sha,
			char **in_runs, int n)
{
	json_object(j, key);
	json_str(j, "path", path);
	json_str(j, "sha256", sha);
	json_array(j, "sha256_in_runs");
	for (int i = 0; i < n; i++)
		json_str(j, NULL, in_runs[i]);
	json_end_array(j);
	json_end_object(j);
}

/* A seed is a 64-bit number: a JSON number only while it is exact in a
 * double, else a string. */
static void json_seed(struct json *j, const char *seed)
{
	if (seed && *seed && strspn(seed, "0123456789") == strlen(seed) && strlen(seed) <= 15)
		json_num(j, "seed", strtod(seed, NULL));
	else
		json_str(j, "seed", seed);
}

static void json_provenance(struct json *j, const struct analysis *a, const struct provenance *p)
{
	char **values;
	int n;

	json_object(j, "provenance");
	json_str(j, "results_dir", p->dir);
	json_str(j, "runs_csv", p->runs_csv);
	json_str(j, "matrix", p->name);
	json_str(j, "matrix_file", p->matrix_file);
	json_str(j, "matrix_source", p->have[SRC_PLAN] ? "plan.txt" : p->have[SRC_MATRIX] ? "matrix file" : NULL);
	json_seed(j, p->seed);
	json_num(j, "duration_s", p->duration_s);
	json_num(j, "settle_s", p->settle_s);
	for (int i = 0; i < 3; i++) { /* the planner's numbers, when it was kept */
		static const char *const kinds[] = { "reps", "boots", "counting" };
		static const char *const keys[] = { "reps", "boots_planned", "counting" };
		const char *v = provenance_value(p, SRC_PLAN, kinds[i]);

		json_num(j, keys[i], v ? strtod(v, NULL) : NAN);
	}
	json_array(j, "topologies");
	n = column_values(a->table, "topology", &values);
	for (int i = 0; i < n; i++) {
		json_object(j, NULL);
		json_str(j, "name", values[i]);
		for (int r = 0; r < p->nrec[SRC_PLAN]; r++) /* "1x4x1 --smp 4": how QEMU was told */
			if (!strcmp(p->rec[SRC_PLAN][r].kind, "topology") &&
			    !strncmp(p->rec[SRC_PLAN][r].value, values[i], strlen(values[i])) &&
			    p->rec[SRC_PLAN][r].value[strlen(values[i])] == ' ')
				json_str(j, "qemu", p->rec[SRC_PLAN][r].value + strlen(values[i]) + 1);
		json_end_object(j);
	}
	free(values);
	json_end_array(j);
	json_records(j, p, "tunables", "tunable");
	json_booted(j, "kernel", p->kernel_path, p->kernel_sha, p->kernel_shas, p->n_kernel_shas);
	json_booted(j, "image", p->image_path, p->image_sha, p->image_shas, p->n_image_shas);
	json_kv(j, "series_version", &p->series, p->have_series);
	json_str(j, "date", p->date);
	json_kv(j, "host", &p->host, p->have_host);
	json_object(j, "host_load");
	json_column_stats(j, "host_load1", &p->host_load1);
	json_column_stats(j, "host_cpu_busy", &p->host_cpu_busy);
	json_end_object(j);
	json_object(j, "runs");
	json_int(j, "total", a->table->nrows);
	json_int(j, "ok", a->n_ok);
	json_int(j, "crashed", a->n_crashed);
	json_int(j, "failed", a->n_failed);
	json_int(j, "boots", p->nboots);
	json_end_object(j);
	json_end_object(j);
}

static void json_comparison(struct json *j, const char *key, const struct comparison *c)
{
	if (!c) {
		json_str(j, key, NULL);
		return;
	}
	json_object(j, key);
	json_num(j, "value", c->value);
	json_num(j, "lo", c->lo);
	json_num(j, "hi", c->hi);
	json_num(j, "level", c->level * 100);
	json_int(j, "units", c->n_units);
	json_str(j, "unit", c->unit);
	json_num(j, "p", c->p);
	json_num(j, "q", c->q);
	json_bool(j, "sig", c->sig);
	json_str(j, "note", c->note && *c->note ? c->note : NULL);
	json_end_object(j);
}

static void summary_json_cell(void *ctx, const struct analysis *a, const struct study *st,
			      const struct group *gr, int m)
{
	struct json *j = ctx;
	const struct combo *c = &a->combos[gr->combo];
	const struct sample *smp = &gr->metric[m];

	json_object(j, NULL);
	json_str(j, "topology", st->topology);
	json_str(j, "workload", st->workload);
	json_str(j, "combo", c->name);
	json_str(j, "features", c->features);
	json_str(j, "metric", a->metric_names[m]);
	json_bool(j, "primary", a->primary[m]);
	json_str(j, "better", metric_better_word(a->metric_names[m]));
	json_int(j, "n", smp->n);
	json_int(j, "n_crashed", gr->n_crashed);
	json_int(j, "n_failed", gr->n_failed);
	json_num(j, "median", smp->median);
	json_num(j, "q1", smp->q1);
	json_num(j, "q3", smp->q3);
	json_num(j, "min", smp->min);
	json_num(j, "max", smp->max);
	json_num(j, "ci_lo", smp->ci.lo);
	json_num(j, "ci_hi", smp->ci.hi);
	json_num(j, "ci_level", smp->ci.level * 100);
	json_str(j, "ci_method", isnan(smp->ci.level) ? NULL : "order-statistic");
	for (int r = 0; r < NRATIOS; r++)
		json_comparison(j, ratio_column[r], gr->ratio[r] ? &gr->ratio[r][m] : NULL);
	json_end_object(j);
}

void write_summary_json(const struct analysis *a, const struct provenance *p, const char *path)
{
	struct json j = { open_output(path), 0, { 0 } };

	json_object(&j, NULL);
	json_str(&j, "format", "pjt-sched summary");
	json_int(&j, "format_version", 1);
	json_provenance(&j, a, p);
	json_object(&j, "statistics");
	json_str(&j, "interval", "order-statistic interval of the median at its exact level (levels in percent)");
	json_str(&j, "ratios", "paired by block (boot, rep); boots as units when the pairs come from 2 or more boots");
	json_str(&j, "test", "exact sign test of the units (the test the order-statistic interval inverts)");
	json_str(&j, "adjustment", "holm over the declared family (compare lines x primary metrics x topologies x workloads); everything else marginal, not adjusted");
	json_num(&j, "alpha", FAMILY_ALPHA);
	json_int(&j, "family", a->family);
	json_int(&j, "significant", a->n_sig);
	json_end_object(&j);
	json_array(&j, "cells");
	each_summary_cell(a, summary_json_cell, &j);
	json_end_array(&j);
	json_end_object(&j);
	close_output(j.f, path);
}

static void comparison_row(FILE *f, const struct analysis *a, const struct study *st, const char *combo,
			   const char *reference, int m, const struct comparison *c)
{
	csv_text(f, st->topology);
	fputc(',', f);
	csv_text(f, st->workload);
	fputc(',', f);
	csv_text(f, combo);
	fputc(',', f);
	csv_text(f, reference);
	fprintf(f, ",%s,%d,%s", a->metric_names[m], a->primary[m],
		c->confirmatory ? "confirmatory" : "exploratory");
	csv_comparison(f, c);
	fputc('\n', f);
}

/* comparisons.csv: the declared comparisons (every metric; the primary
 * ones are the confirmatory family, q = Holm-adjusted p), then the other
 * primary ratios to the reference points (exploratory: marginal, not
 * adjusted). The paired-ratio charts draw it. */
void write_comparisons(const struct analysis *a, const char *path)
{
	FILE *f = open_output(path);

	fputs("topology,workload,combo,reference,metric,primary,family,ratio,ratio_lo,ratio_hi,ratio_level,"
	      "units,unit,p,q,sig,note\n", f);
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];

		for (int d = 0; d < a->ndeclared; d++)
			for (int m = 0; m < a->nmetrics; m++)
				if (st->measured[m])
					comparison_row(f, a, st, a->declared[d].combo, a->declared[d].reference,
						       m, &st->decl[d][m]);
		for (int g = 0; g < st->ngroups; g++)
			for (int r = 0; r < NRATIOS; r++)
				for (int m = 0; st->groups[g].ratio[r] && m < a->nmetrics; m++) {
					const struct comparison *c = &st->groups[g].ratio[r][m];

					if (!a->primary[m] || !st->measured[m] || c->confirmatory)
						continue;
					comparison_row(f, a, st, a->combos[st->groups[g].combo].name,
						       a->combos[st->groups[st->ref[ratio_reference[r]]].combo].name, m, c);
				}
	}
	close_output(f, path);
}

void write_effects(const struct analysis *a, const char *path)
{
	FILE *f = open_output(path);

	fputs("topology,workload,metric,primary,term,order,design,base,cells,baseline,effect,ci_lo,ci_hi,"
	      "ci_level,units,unit,p,q,sig,note\n", f);
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];

		for (int e = 0; e < st->neffects; e++) {
			const struct effect *ef = &st->effects[e];
			const struct design *ds = &st->designs[ef->design];
			char *term = term_name(a, st, ef->design, ef->term);
			char *design = design_name(a, st, ef->design);
			char *base = base_name(a, ds->base);

			csv_text(f, st->topology);
			fputc(',', f);
			csv_text(f, st->workload);
			fprintf(f, ",%s,%d,%s,%d,%s,%s,%d", a->metric_names[ef->metric],
				ef->c.primary, term, __builtin_popcount(ef->term), design, base,
				1 << ds->k);
			csv_number(f, ef->baseline);
			csv_comparison(f, &ef->c);
			fputc('\n', f);
			free(term);
			free(design);
			free(base);
		}
	}
	close_output(f, path);
}

char *study_slug(const struct analysis *a, int s)
{
	(void)a;
	return xasprintf("s%d", s + 1);
}

const char *throughput_metric(const struct analysis *a, const struct study *st)
{
	static const char *const preference[] = { "records_per_s", "ops_per_s", "rate_fraction" };

	for (int i = 0; i < 3; i++) {
		int m = metric_index(a, preference[i]);

		if (m >= 0 && st->measured[m])
			return preference[i];
	}
	return NULL;
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

static const char *const pull_metrics[] = { "lb_pulls_idle", "lb_pulls_busy", "lb_pulls_newidle", NULL };
static const char *const pull_titles[] = { "idle", "busy (not idle)", "newly idle" };
static const char *const migration_metrics[] = { "migrations", "nr_migrations", NULL };
static const char *const migration_titles[] = { "perf cpu-migrations", "se.nr_migrations" };
static const char *const throughput_metrics[] = { "records_per_s", "rate_fraction", "ops_per_s", NULL };
static const char *const throughput_titles[] = { "records/s", "rate fraction", "ops/s" };
static const char *const throughput_units[] = { "records per second", "fraction of calibrated rate", "operations per second" };
static const char *const latency_metrics[] = { "wakeup_p50_us", "wakeup_p99_us", "wakeup_p999_us", NULL };
static const char *const latency_titles[] = { "p50", "p99", "p99.9" };
static const char *const decision_points[] = { "short_tasks", "busiest", "imbalance", "move_tasks", "idlest", "wake_affine", NULL };

static int count_measured(const struct analysis *a, const struct study *st, const char *const *names)
{
	int n = 0;

	for (; *names; names++)
		n += measured(a, st, *names);
	return n;
}

static int decisions_measured(const struct analysis *a, const struct study *st)
{
	int n = 0;

	for (const char *const *p = decision_points; *p; p++) {
		char *name = xasprintf("%s_evaluated", *p);

		n += measured(a, st, name);
		free(name);
	}
	return n;
}

/* Whether any decision counter of the study is non-zero in some run. */
static int decisions_nonzero(const struct analysis *a, const struct study *st)
{
	static const char *const kinds[] = { "evaluated", "differed", "applied" };

	for (const char *const *p = decision_points; *p; p++)
		for (int k = 0; k < 3; k++) {
			char *name = xasprintf("%s_%s", *p, kinds[k]);
			int m = metric_index(a, name);

			free(name);
			for (int g = 0; m >= 0 && g < st->ngroups; g++)
				if (st->groups[g].metric[m].n && st->groups[g].metric[m].max > 0)
					return 1;
		}
	return 0;
}

static int ratio_rows(const struct analysis *a, const struct study *st, FILE *f);

void plan_charts(const struct analysis *a, int s, struct chart_plan plan[CHART_KINDS])
{
	const struct study *st = &a->studies[s];
	char *slug = study_slug(a, s);
	const char *tput = throughput_metric(a, st);
	int eff = 0;
	static const char *const kinds[CHART_KINDS] = { "ratios", "pulls", "migrations", "throughput", "latency", "effects", "scatter", "decisions" };
	static const char *const scripts[CHART_KINDS] = { "ratios.gp", "combo-bars.gp", "combo-bars.gp", "combo-bars.gp", "combo-bars.gp", "effects.gp", "scatter.gp", "decisions.gp" };
	static const char *const captions[CHART_KINDS] = {
		"Paired ratios, the numbers the stars come from: each comparison's ratio (exp of the median paired log ratio over its units, boots when several), its order-statistic interval at the level printed beside it, its units, and its test: a declared comparison's Holm-adjusted p (* = resolved), any other's marginal p, not adjusted (log axis; pulls and throughput)",
		"Load-balance pulls (lb_gained, summed over CPUs and domains) per run, by idle type: median and the order-statistic interval of the median, its exact level under each bar (95% needs 6 runs); these intervals treat the runs as units, so boot-to-boot variance is only in the paired ratios",
		"Task migrations of the workload's threads per run: median and order-statistic interval, its level under each bar (runs as units; boot-to-boot variance is in the paired ratios only)",
		"Throughput per run: median and order-statistic interval, its level under each bar (runs as units; boot-to-boot variance is in the paired ratios only)",
		"Wake-up latency percentiles per run: median and order-statistic interval, its level under each bar (runs as units; boot-to-boot variance is in the paired ratios only)",
		"Main effect of each bit in each factorial design, a ratio (geometric mean with the bit over without it, per block, median over the units), order-statistic interval at the level printed beside it; marginal, not adjusted (effects are never in the declared family)",
		"Migrations against throughput: one point per combination, medians with both order-statistic intervals (levels as in the bar charts)",
		"pjt_stats decision counters per run: evaluated, differed from stock's rule, applied (median and order-statistic interval, levels as in the bar charts; log scale, a missing bar is 0)",
	};

	for (const char *names[] = { "lb_pulls_total", "migrations", tput }, **p = names; p < names + 3; p++)
		if (*p && metric_index(a, *p) >= 0)
			eff += has_effects(st, metric_index(a, *p));
	for (int i = 0; i < CHART_KINDS; i++) {
		plan[i].name = xasprintf("%s-%s", slug, kinds[i]);
		plan[i].script = scripts[i];
		plan[i].caption = xstrdup(captions[i]);
		plan[i].skip_reason = NULL;
	}
	if (!ratio_rows(a, st, NULL))
		plan[0].skip_reason = xstrdup("no paired comparison of pulls or throughput in this workload");
	if (!count_measured(a, st, pull_metrics))
		plan[1].skip_reason = xstrdup("no lb_pulls_* values in this workload's runs");
	if (!count_measured(a, st, migration_metrics))
		plan[2].skip_reason = xstrdup("no migrations values in this workload's runs");
	if (!count_measured(a, st, throughput_metrics))
		plan[3].skip_reason = xstrdup("no records_per_s, rate_fraction or ops_per_s values (not a duty, pingpong or fork workload)");
	if (!count_measured(a, st, latency_metrics))
		plan[4].skip_reason = xstrdup("no wake-up latency values in this workload's runs");
	if (!st->ndesigns)
		plan[5].skip_reason = xstrdup(st->skip_effects);
	else if (!eff)
		plan[5].skip_reason = xstrdup("the factorial cells lack values of pulls, migrations and throughput");
	if (!measured(a, st, "migrations") || !tput)
		plan[6].skip_reason = xstrdup("needs both migrations and a throughput metric");
	if (!decisions_measured(a, st))
		plan[7].skip_reason = xstrdup("no pjt_stats counters in this workload's runs");
	else if (!decisions_nonzero(a, st))
		plan[7].skip_reason = xstrdup("every pjt_stats counter is 0 in every run: no decision point was evaluated");
	free(slug);
}

/* A gnuplot string literal. */
static void gp_string(FILE *f, const char *s)
{
	quoted(f, s, 0);
}

static void dat_number(FILE *f, double v)
{
	char buf[64];

	format_number(buf, sizeof(buf), v);
	fprintf(f, " %s", *buf ? buf : "NaN");
}

/* Cells with fewer runs than this have every run drawn as a point over
 * the median and its interval: with few runs the reader sees them all. */
#define RUN_POINTS_BELOW 8

/* The x of run i of n around a bar at x: spread over a third of the bar. */
static double run_x(double x, int i, int n)
{
	return n < 2 ? x : x - 0.12 + 0.24 * i / (n - 1);
}

/* combo-METRIC-runs.dat: x value, every run of the cells with fewer than
 * RUN_POINTS_BELOW runs; NULL (no file) when no cell has that few. */
static char *write_combo_runs(const struct analysis *a, const struct study *st, const char *dir,
			      int m)
{
	char *path = NULL;
	FILE *f = NULL;

	for (int g = 0; g < st->ngroups; g++) {
		const struct sample *smp = &st->groups[g].metric[m];

		if (!smp->n || smp->n >= RUN_POINTS_BELOW)
			continue;
		if (!f) {
			path = xasprintf("%s/combo-%s-runs.dat", dir, a->metric_names[m]);
			f = open_output(path);
			fprintf(f, "# x value: every run of the cells with fewer than %d runs: %s\n",
				RUN_POINTS_BELOW, a->metric_names[m]);
		}
		for (int i = 0; i < smp->n; i++) {
			fprintf(f, "%g", run_x(g, i, smp->n));
			dat_number(f, smp->sorted[i]);
			fputc('\n', f);
		}
	}
	if (f)
		close_output(f, path);
	return path;
}

/* combo-METRIC.dat: x median ci_lo ci_hi rgb n "combo" "level". Without
 * an interval (n < 2) the bar ends at the median. */
static char *write_combo_metric(const struct analysis *a, const struct study *st,
				const char *dir, int m)
{
	char *path = xasprintf("%s/combo-%s.dat", dir, a->metric_names[m]);
	FILE *f = open_output(path);

	fprintf(f, "# x median ci_lo ci_hi rgb n combo level: %s\n", a->metric_names[m]);
	for (int g = 0; g < st->ngroups; g++) {
		const struct sample *smp = &st->groups[g].metric[m];
		int have_ci = !isnan(smp->ci.lo);
		char *level;

		fprintf(f, "%d", g);
		dat_number(f, smp->median);
		dat_number(f, have_ci ? smp->ci.lo : smp->median);
		dat_number(f, have_ci ? smp->ci.hi : smp->median);
		fprintf(f, " %d %d ", a->combos[st->groups[g].combo].colour, smp->n);
		gp_string(f, a->combos[st->groups[g].combo].name);
		level = format_level(smp->ci.level);
		fputc(' ', f);
		gp_string(f, level);
		free(level);
		fputc('\n', f);
	}
	close_output(f, path);
	return path;
}

static void write_xtics(FILE *f, const struct analysis *a, const struct study *st)
{
	fprintf(f, "ncombos = %d\nset xtics (", st->ngroups);
	for (int g = 0; g < st->ngroups; g++) {
		fputs(g ? ", " : "", f);
		gp_string(f, a->combos[st->groups[g].combo].name);
		fprintf(f, " %d", g);
	}
	fputs(")\n", f);
}

static char *chart_title(const struct study *st, const char *what)
{
	return xasprintf("%s: %s (topology %s)", what, st->workload, st->topology);
}

/* A combo-bars.gp spec: one panel per measured metric of names[]. */
static void write_bars_spec(const struct analysis *a, const struct study *st, const char *dir,
			    const char *chart, const char *what, const char *const *names,
			    const char *const *titles, const char *const *units)
{
	char *path = xasprintf("%s/%s.gp", dir, chart);
	FILE *f = open_output(path);
	char *title = chart_title(st, what);
	int n = count_measured(a, st, names), panel = 0;

	fputs("chart_title = ", f);
	gp_string(f, title);
	fprintf(f, "\nnpanels = %d\narray pfile[%d]\narray prunfile[%d]\narray ptitle[%d]\narray pylabel[%d]\n",
		n, n, n, n, n);
	for (int i = 0; names[i]; i++) {
		int m = metric_index(a, names[i]);
		char *dat;

		if (m < 0 || !st->measured[m])
			continue;
		panel++;
		dat = write_combo_metric(a, st, dir, m);
		fprintf(f, "pfile[%d] = ", panel);
		gp_string(f, dat);
		free(dat);
		dat = write_combo_runs(a, st, dir, m);
		fprintf(f, "\nprunfile[%d] = ", panel);
		gp_string(f, dat ? dat : "");
		free(dat);
		fprintf(f, "\nptitle[%d] = ", panel);
		gp_string(f, titles[i]);
		fprintf(f, "\npylabel[%d] = ", panel);
		gp_string(f, units[i]);
		fputc('\n', f);
	}
	write_xtics(f, a, st);
	close_output(f, path);
	free(title);
	free(path);
}

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

static void write_effects_spec(const struct analysis *a, const struct study *st, const char *dir,
			       const char *chart)
{
	const char *names[] = { "lb_pulls_total", "migrations", throughput_metric(a, st) };
	const char *units[] = { "ratio of pulls (with the bit / without)", "ratio of migrations (with / without)", NULL };
	char *path = xasprintf("%s/%s.gp", dir, chart);
	FILE *f = open_output(path);
	char *title = chart_title(st, "Main effect of each bit");
	int n = 0, panel = 0, nterms = 1, label_chars = 10;

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
	fprintf(f, "\nnpanels = %d\nnterms = %d\narray pfile[%d]\narray ptitle[%d]\narray pxlabel[%d]\n",
		n, nterms, n, n, n);
	for (int i = 0; i < 3; i++) {
		const struct effect **mains;
		int m, count = 0;
		char *dat;
		FILE *d;

		if (!names[i] || (m = metric_index(a, names[i])) < 0 || !has_effects(st, m))
			continue;
		mains = xmalloc(st->neffects * sizeof(*mains));
		for (int e = 0; e < st->neffects; e++)
			if (st->effects[e].metric == m && __builtin_popcount(st->effects[e].term) == 1 &&
			    !isnan(st->effects[e].c.value))
				mains[count++] = &st->effects[e];
		qsort(mains, count, sizeof(mains[0]), compare_effect_values);
		dat = xasprintf("%s/effects-%s.dat", dir, names[i]);
		d = open_output(dat);
		fprintf(d, "# y effect ci_lo ci_hi rgb mark term: %s\n", names[i]);
		for (int e = 0; e < count; e++) {
			const struct design *ds = &st->designs[mains[e]->design];
			char *term = term_name(a, st, mains[e]->design, mains[e]->term);
			char *level = format_level(mains[e]->c.level), *mark, *label;
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
			mark = xasprintf("%s%s", level, mains[e]->c.sig ? " *" : "");
			fprintf(d, "%d", e);
			dat_number(d, mains[e]->c.value);
			dat_number(d, isnan(mains[e]->c.lo) ? mains[e]->c.value : mains[e]->c.lo);
			dat_number(d, isnan(mains[e]->c.hi) ? mains[e]->c.value : mains[e]->c.hi);
			fprintf(d, " %d ", bit_colour(a, st, ds->base | bit));
			gp_string(d, mark);
			fputc(' ', d);
			gp_string(d, label);
			fputc('\n', d);
			free(term);
			free(level);
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
		fputc('\n', f);
		free(dat);
	}
	fprintf(f, "label_chars = %d\n", label_chars);
	close_output(f, path);
	free((char *)units[2]);
	free(title);
	free(path);
}

static void write_scatter_spec(const struct analysis *a, const struct study *st, const char *dir,
			       const char *chart)
{
	const char *tput = throughput_metric(a, st);
	int mm = metric_index(a, "migrations"), tm = metric_index(a, tput);
	char *path = xasprintf("%s/%s.gp", dir, chart);
	char *dat = xasprintf("%s/scatter.dat", dir);
	char *title = chart_title(st, "Migrations against throughput");
	FILE *f = open_output(path), *d = open_output(dat), *runs = NULL;
	char *runs_path = NULL;

	fprintf(d, "# migrations lo hi %s lo hi rgb combo\n", tput);
	for (int g = 0; g < st->ngroups; g++) {
		const struct sample *x = &st->groups[g].metric[mm], *y = &st->groups[g].metric[tm];

		if (!x->n || !y->n)
			continue;
		dat_number(d, x->median);
		dat_number(d, isnan(x->ci.lo) ? x->median : x->ci.lo);
		dat_number(d, isnan(x->ci.hi) ? x->median : x->ci.hi);
		dat_number(d, y->median);
		dat_number(d, isnan(y->ci.lo) ? y->median : y->ci.lo);
		dat_number(d, isnan(y->ci.hi) ? y->median : y->ci.hi);
		fprintf(d, " %d ", a->combos[st->groups[g].combo].colour);
		gp_string(d, a->combos[st->groups[g].combo].name);
		fputc('\n', d);
	}
	close_output(d, dat);
	/* every run of the cells with few runs: both metrics of the same run */
	for (int g = 0; g < st->ngroups; g++) {
		const struct group *gr = &st->groups[g];

		if (!gr->metric[mm].n || !gr->metric[tm].n ||
		    (gr->metric[mm].n >= RUN_POINTS_BELOW && gr->metric[tm].n >= RUN_POINTS_BELOW))
			continue;
		for (int b = 0; b < st->nblocks; b++) {
			const struct run_row *row = gr->block_row[b] >= 0 ? &a->table->rows[gr->block_row[b]] : NULL;
			double x = row ? metric_value(a, row, mm) : NAN, y = row ? metric_value(a, row, tm) : NAN;

			if (isnan(x) || isnan(y))
				continue;
			if (!runs) {
				runs_path = xasprintf("%s/scatter-runs.dat", dir);
				runs = open_output(runs_path);
				fprintf(runs, "# migrations %s rgb: every run of the cells with fewer than %d runs\n",
					tput, RUN_POINTS_BELOW);
			}
			dat_number(runs, x);
			dat_number(runs, y);
			fprintf(runs, " %d\n", a->combos[gr->combo].colour);
		}
	}
	if (runs)
		close_output(runs, runs_path);
	fputs("chart_title = ", f);
	gp_string(f, title);
	fputs("\nrunsfile = ", f);
	gp_string(f, runs_path ? runs_path : "");
	free(runs_path);
	fputs("\ndatafile = ", f);
	gp_string(f, dat);
	fputs("\nylabel_text = ", f);
	gp_string(f, !strcmp(tput, "records_per_s") ? "throughput (records per second)"
		  : !strcmp(tput, "ops_per_s") ? "throughput (operations per second)"
		  : "rate_fraction (fraction of the calibrated rate)");
	fputc('\n', f);
	close_output(f, path);
	free(title);
	free(dat);
	free(path);
}

/* decisions-POINT-runs.dat: x value, every run of the cells with fewer
 * than RUN_POINTS_BELOW runs, at its counter's bar; only counts above 0,
 * which the log scale can show (a missing bar is 0). NULL: no file. */
static char *write_decision_runs(const struct analysis *a, const struct study *st, const char *dir,
				 const char *point)
{
	static const char *const kinds[] = { "evaluated", "differed", "applied" };
	char *path = NULL;
	FILE *f = NULL;

	for (int g = 0; g < st->ngroups; g++)
		for (int k = 0; k < 3; k++) {
			char *name = xasprintf("%s_%s", point, kinds[k]);
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
 * 1 differed, 2 applied, side by side around the combo's x. */
static void write_decisions_spec(const struct analysis *a, const struct study *st, const char *dir,
				 const char *chart)
{
	static const char *const kinds[] = { "evaluated", "differed", "applied" };
	char *path = xasprintf("%s/%s.gp", dir, chart);
	FILE *f = open_output(path);
	char *title = chart_title(st, "pjt_stats decision counters per run");
	int n = decisions_measured(a, st), panel = 0;

	fputs("chart_title = ", f);
	gp_string(f, title);
	fprintf(f, "\nnpanels = %d\narray pfile[%d]\narray prunfile[%d]\narray ptitle[%d]\n", n, n, n, n);
	for (const char *const *p = decision_points; *p; p++) {
		char *evaluated = xasprintf("%s_evaluated", *p), *dat;
		FILE *d;

		if (!measured(a, st, evaluated)) {
			free(evaluated);
			continue;
		}
		dat = xasprintf("%s/decisions-%s.dat", dir, *p);
		d = open_output(dat);
		fputs("# x median lo hi rgb kind combo\n", d);
		for (int g = 0; g < st->ngroups; g++)
			for (int k = 0; k < 3; k++) {
				char *name = xasprintf("%s_%s", *p, kinds[k]);
				int m = metric_index(a, name);
				const struct sample *smp = m >= 0 ? &st->groups[g].metric[m] : NULL;

				free(name);
				if (!smp || !smp->n)
					continue;
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
		dat = write_decision_runs(a, st, dir, *p);
		fprintf(f, "\nprunfile[%d] = ", panel);
		gp_string(f, dat ? dat : "");
		fprintf(f, "\nptitle[%d] = ", panel);
		gp_string(f, *p);
		fputc('\n', f);
		free(dat);
		free(evaluated);
	}
	write_xtics(f, a, st);
	close_output(f, path);
	free(title);
	free(path);
}

/* DIR/plots-data/charts.txt: one line per chart, tab-separated:
 * "chart NAME SCRIPT SPEC" or "skip NAME - REASON". Paths are relative
 * to the results folder, where the scripts run. */
/* The rows of a study's paired-ratio chart: the declared comparisons, then
 * the ratio columns, for pulls and the throughput metric; their count
 * (written to f when not NULL: y ratio lo hi rgb mark label). */
static int ratio_rows(const struct analysis *a, const struct study *st, FILE *f)
{
	const char *names[] = { "lb_pulls_total", throughput_metric(a, st) };
	int n = 0;

	for (int i = 0; i < 2; i++) {
		int m = names[i] ? metric_index(a, names[i]) : -1;

		if (m < 0 || !st->measured[m])
			continue;
		for (int pass = 0; pass < 2 + NRATIOS * st->ngroups; pass++) {
			const struct comparison *c;
			const char *who, *ref;

			if (pass < 2) { /* the declared ones first */
				if (pass)
					continue;
				for (int d = 0; d < a->ndeclared; d++) {
					c = &st->decl[d][m];
					if (!c->present || isnan(c->value))
						continue;
					if (f) {
						char *mark = xasprintf("%s over %d %ss, Holm p=%.3g%s", format_level(c->level),
								       c->n_units, c->unit, c->q, c->sig ? " *" : "");
						char *label = xasprintf("%s / %s: %s", a->declared[d].combo,
									a->declared[d].reference, metric_noun(names[i]));

						fprintf(f, "%d", n);
						dat_number(f, c->value);
						dat_number(f, isnan(c->lo) ? c->value : c->lo);
						dat_number(f, isnan(c->hi) ? c->value : c->hi);
						fprintf(f, " %d ", 0x0072b2);
						gp_string(f, mark);
						fputc(' ', f);
						gp_string(f, label);
						fputc('\n', f);
						free(mark);
						free(label);
					}
					n++;
				}
				continue;
			}
			int g = (pass - 2) / NRATIOS, r = (pass - 2) % NRATIOS;

			if (!st->groups[g].ratio[r] || st->ref[ratio_reference[r]] < 0)
				continue;
			c = &st->groups[g].ratio[r][m];
			if (!c->present || isnan(c->value) || c->confirmatory)
				continue;
			who = a->combos[st->groups[g].combo].name;
			ref = a->combos[st->groups[st->ref[ratio_reference[r]]].combo].name;
			if (f) {
				char *mark = xasprintf("%s over %d %ss, p=%.3g marginal", format_level(c->level),
						       c->n_units, c->unit, c->p);
				char *label = xasprintf("%s / %s: %s", who, ref, metric_noun(names[i]));

				fprintf(f, "%d", n);
				dat_number(f, c->value);
				dat_number(f, isnan(c->lo) ? c->value : c->lo);
				dat_number(f, isnan(c->hi) ? c->value : c->hi);
				fprintf(f, " %d ", 0x999999);
				gp_string(f, mark);
				fputc(' ', f);
				gp_string(f, label);
				fputc('\n', f);
				free(mark);
				free(label);
			}
			n++;
		}
	}
	return n;
}

static void write_ratios_spec(const struct analysis *a, const struct study *st, const char *dir,
			      const char *chart)
{
	char *path = xasprintf("%s/%s.gp", dir, chart), *dat = xasprintf("%s/ratios.dat", dir);
	char *title = chart_title(st, "Paired ratios (declared: Holm; others: marginal, not adjusted)");
	FILE *f = open_output(path), *d = open_output(dat);
	int n;

	fputs("# y ratio lo hi rgb mark label\n", d);
	n = ratio_rows(a, st, d);
	close_output(d, dat);
	fputs("chart_title = ", f);
	gp_string(f, title);
	fputs("\nratiofile = ", f);
	gp_string(f, dat);
	fprintf(f, "\nnrows = %d\n", n);
	close_output(f, path);
	free(title);
	free(dat);
	free(path);
}

void write_plot_data(const struct analysis *a, const char *dir)
{
	char *data_dir = xasprintf("%s/plots-data", dir);
	char *list_path = xasprintf("%s/charts.txt", data_dir);
	FILE *list;

	make_dir(data_dir);
	list = open_output(list_path);
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];
		struct chart_plan plan[CHART_KINDS];
		char *slug = study_slug(a, s);
		char *study_dir = xasprintf("%s/%s", data_dir, slug);
		char *rel = xasprintf("plots-data/%s", slug);
		static const char *const count_units[] = { "pulls per run", "pulls per run", "pulls per run" };
		static const char *const migration_units[] = { "migrations per run", "migrations per run" };
		static const char *const latency_units[] = { "wake-up latency (us)", "wake-up latency (us)", "wake-up latency (us)" };

		make_dir(study_dir);
		plan_charts(a, s, plan);
		/* data file paths inside specs are relative to the results folder */
		if (!plan[0].skip_reason)
			write_ratios_spec(a, st, rel, plan[0].name);
		if (!plan[1].skip_reason)
			write_bars_spec(a, st, rel, plan[1].name, "Load-balance pulls per run", pull_metrics, pull_titles, count_units);
		if (!plan[2].skip_reason)
			write_bars_spec(a, st, rel, plan[2].name, "Task migrations per run", migration_metrics, migration_titles, migration_units);
		if (!plan[3].skip_reason)
			write_bars_spec(a, st, rel, plan[3].name, "Throughput", throughput_metrics, throughput_titles, throughput_units);
		if (!plan[4].skip_reason)
			write_bars_spec(a, st, rel, plan[4].name, "Wake-up latency", latency_metrics, latency_titles, latency_units);
		if (!plan[5].skip_reason)
			write_effects_spec(a, st, rel, plan[5].name);
		if (!plan[6].skip_reason)
			write_scatter_spec(a, st, rel, plan[6].name);
		if (!plan[7].skip_reason)
			write_decisions_spec(a, st, rel, plan[7].name);
		for (int i = 0; i < CHART_KINDS; i++) {
			if (plan[i].skip_reason)
				fprintf(list, "skip\t%s\t-\t%s\n", plan[i].name, plan[i].skip_reason);
			else
				fprintf(list, "chart\t%s\t%s\t%s/%s.gp\n", plan[i].name, plan[i].script,
					rel, plan[i].name);
		}
		free(rel);
		free(study_dir);
		free(slug);
	}
	close_output(list, list_path);
	free(list_path);
	free(data_dir);
}
