/* summary.csv, summary.json, comparisons.csv and effects.csv (the charts'
 * data: charts.c). */
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
	json_str(&j, "test", "declared comparisons: exact Wilcoxon signed-rank test of the boots (Pratt's zeros, midranks), Hodges-Lehmann estimate and the Walsh-average interval it inverts; a unit at ratio 0 or unbounded, and every other comparison: exact sign test and the order-statistic interval it inverts");
	json_str(&j, "adjustment", "holm over the declared comparisons x topologies x workloads, one primary endpoint each (the first primary metric in column order: lb_pulls_total); the other primary metrics secondary, in a fixed sequence after theirs at its level; everything else marginal, not adjusted");
	json_num(&j, "alpha", FAMILY_ALPHA);
	json_int(&j, "family", a->family);
	json_int(&j, "significant", a->n_sig);
	json_int(&j, "secondaries", a->secondaries);
	json_int(&j, "secondaries_significant", a->n_sig_secondary);
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
		c->secondary ? "secondary (fixed sequence)" : c->confirmatory ? "confirmatory" : "exploratory");
	csv_comparison(f, c);
	fputc('\n', f);
}

/* comparisons.csv: the declared comparisons (every metric; the primary
 * endpoint is in Holm's family, "confirmatory", the other primary metrics
 * "secondary (fixed sequence)", q their adjusted p), then the other
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

const struct decision_point decision_points[] = {
	{ "short_tasks", "PJT_SHORT_TASKS" }, { "busiest", "PJT_BUSIEST" },
	{ "imbalance", "PJT_IMBALANCE" }, { "move_tasks", "PJT_MOVE_TASKS" },
	{ "idlest", "PJT_IDLEST" }, { "wake_affine", "PJT_WAKE_AFFINE" }, { NULL, NULL },
};

void point_exercised(const struct analysis *a, const struct study *st, const char *point,
		     struct exercised *x)
{
	const struct run_table *t = a->table;
	char *names[3] = { xasprintf("%s_evaluated", point), xasprintf("%s_differed", point),
			   xasprintf("%s_applied", point) };
	int col[3];

	for (int k = 0; k < 3; k++) {
		col[k] = column_index(t, names[k]);
		free(names[k]);
	}
	memset(x, 0, sizeof(*x));
	/* an old folder has no counter columns: counting off */
	for (int r = 0; col[0] >= 0 && r < t->nrows; r++) {
		const struct run_row *row = &t->rows[r];
		double v[3];

		if (row->status != RUN_OK || strcmp(row->text[t->col_topology], st->topology) ||
		    strcmp(row->text[t->col_workload], st->workload) || isnan(row->value[col[0]]))
			continue;
		for (int k = 0; k < 3; k++)
			v[k] = col[k] >= 0 && !isnan(row->value[col[k]]) ? row->value[col[k]] : 0;
		x->runs++;
		x->evaluated += v[0];
		x->differed += v[1];
		x->applied += v[2];
		x->runs_differed += v[1] > 0;
	}
	x->verdict = !x->runs ? "counting off" : x->runs_differed ? "differed"
		: x->evaluated > 0 ? "reached" : "not reached";
}

const char *bit_exercised(const struct analysis *a, const struct study *st, const char *bit)
{
	struct exercised x;

	for (const struct decision_point *p = decision_points; p->point; p++)
		if (!strcmp(p->bit, bit)) {
			point_exercised(a, st, p->point, &x);
			return x.verdict;
		}
	return "no counter";
}

/* exercised.csv: which decision points each workload reached, so that a
 * null effect of a bit whose point never differed reads "not exercised". */
void write_exercised(const struct analysis *a, const char *path)
{
	FILE *f = open_output(path);

	fputs("topology,workload,point,bit,runs,evaluated,differed,applied,runs_differed,verdict\n", f);
	for (int s = 0; s < a->nstudies; s++)
		for (const struct decision_point *p = decision_points; p->point; p++) {
			const struct study *st = &a->studies[s];
			struct exercised x;

			point_exercised(a, st, p->point, &x);
			csv_text(f, st->topology);
			fputc(',', f);
			csv_text(f, st->workload);
			fprintf(f, ",%s,%s,%d,%.0f,%.0f,%.0f,%d,%s\n", p->point, p->bit, x.runs, x.evaluated,
				x.differed, x.applied, x.runs_differed, x.verdict);
		}
	close_output(f, path);
}

void write_effects(const struct analysis *a, const char *path)
{
	FILE *f = open_output(path);

	fputs("topology,workload,metric,primary,term,order,design,base,cells,baseline,effect,ci_lo,ci_hi,"
	      "ci_level,units,unit,p,q,sig,note,unit_sd,aliases,exercised\n", f);
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];

		for (int e = 0; e < st->neffects; e++) {
			const struct effect *ef = &st->effects[e];
			const struct design *ds = &st->designs[ef->design];
			char *term = term_name(a, st, ef->design, ef->term);
			char *design = design_name(a, st, ef->design);
			char *base = base_name(a, ds->base);
			char *aliases = alias_names(a, st, ef->design, ef->term);

			csv_text(f, st->topology);
			fputc(',', f);
			csv_text(f, st->workload);
			fprintf(f, ",%s,%d,%s,%d,%s,%s,%d", a->metric_names[ef->metric],
				ef->c.primary, term, __builtin_popcount(ef->term), design, base,
				ds->ncells);
			csv_number(f, ef->baseline);
			csv_comparison(f, &ef->c);
			csv_number(f, ef->unit_sd);
			fputc(',', f);
			csv_text(f, aliases);
			fputc(',', f);
			/* a main effect: its point's verdict; empty for an interaction */
			if (__builtin_popcount(ef->term) == 1)
				csv_text(f, bit_exercised(a, st, term));
			fputc('\n', f);
			free(aliases);
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
