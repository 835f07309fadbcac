/* report.md and report.html from the same content: what was run, the RFC's
 * figures beside ours, per-workload tables and charts, excluded runs. The
 * HTML embeds the PNG charts as data URIs, so it opens with no server. */
#include "pjt-stats.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct doc {
	FILE *md, *html;
	const char *dir;
};

static void html_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* Markdown table cells must not contain a bare '|'. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void heading(struct doc *d, int level, const char *text)
{
	fprintf(d->md, "\n%.*s %s\n\n", level, "######", text);
	fprintf(d->html, "<h%d>", level);
	html_escaped(d->html, text);
	fprintf(d->html, "</h%d>\n", level);
}

static void para(struct doc *d, const char *text)
{
	fprintf(d->md, "%s\n\n", text);
	fputs("<p>", d->html);
	html_escaped(d->html, text);
	fputs("</p>\n", d->html);
}

static void preformatted(struct doc *d, const char *text)
{
	fprintf(d->md, "```\n%s%s```\n\n", text, text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
	fputs("<pre>", d->html);
	html_escaped(d->html, text);
	fputs("</pre>\n", d->html);
}

static void bullet(struct doc *d, const char *text)
{
	fprintf(d->md, "- %s\n", text);
	fputs("<ul><li>", d->html);
	html_escaped(d->html, text);
	fputs("</li></ul>\n", d->html);
}

static void table_row(struct doc *d, char **cells, int n, int header)
{
	fputs("|", d->md);
	fputs("<tr>", d->html);
	for (int i = 0; i < n; i++) {
		fputc(' ', d->md);
		md_cell(d->md, cells[i]);
		fputs(" |", d->md);
		fputs(header ? "<th>" : "<td>", d->html);
		html_escaped(d->html, cells[i]);
		fputs(header ? "</th>" : "</td>", d->html);
	}
	fputs("\n", d->md);
	fputs("</tr>\n", d->html);
	if (header) {
		fputs("|", d->md);
		for (int i = 0; i < n; i++)
			fputs(i ? "---:|" : "---|", d->md);
		fputs("\n", d->md);
	}
}

static void table_begin(struct doc *d, char **headers, int n)
{
	fputs("\n", d->md);
	fputs("<table>\n", d->html);
	table_row(d, headers, n, 1);
}

static void table_end(struct doc *d)
{
	fputs("\n", d->md);
	fputs("</table>\n", d->html);
}

static void base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);

		fputc(digits[v >> 18 & 63], f);
		fputc(digits[v >> 12 & 63], f);
		fputc(i + 1 < n ? digits[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? digits[v & 63] : '=', f);
	}
}

static void chart(struct doc *d, const struct chart_plan *plan)
{
	char *png = xasprintf("%s/charts/%s.png", d->dir, plan->name);
	size_t len;
	char *data = read_whole_file(png, &len);

	if (!data) {
		char *text = xasprintf("Chart %s was not rendered (see charts/%s.log): %s.",
				       plan->name, plan->name, plan->caption);

		para(d, text);
		free(text);
		free(png);
		return;
	}
	fprintf(d->md, "![%s](charts/%s.png)\n\n*%s* ([SVG](charts/%s.svg))\n\n", plan->caption,
		plan->name, plan->caption, plan->name);
	fputs("<figure><img alt=\"", d->html);
	html_escaped(d->html, plan->caption);
	fputs("\" src=\"data:image/png;base64,", d->html);
	base64(d->html, (const unsigned char *)data, len);
	fputs("\"><figcaption>", d->html);
	html_escaped(d->html, plan->caption);
	fprintf(d->html, " (<a href=\"charts/%s.svg\">SVG</a>)</figcaption></figure>\n", plan->name);
	free(data);
	free(png);
}

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

static char *median_cell(const struct sample *s)
{
	char *m = human(s->median), *lo, *hi, *cell;

	if (!s->n)
		cell = xstrdup("-");
	else if (isnan(s->ci.lo))
		cell = xasprintf("%s (n=%d)", m, s->n);
	else {
		lo = human(s->ci.lo);
		hi = human(s->ci.hi);
		cell = xasprintf("%s [%s, %s] (n=%d)", m, lo, hi, s->n);
		free(lo);
		free(hi);
	}
	free(m);
	return cell;
}

static char *ratio_cell(const struct ratio *r)
{
	if (!r->present)
		return xstrdup("-");
	if (isnan(r->lo))
		return xasprintf("%.3f", r->value);
	return xasprintf("%.3f [%.3f, %.3f]%s", r->value, r->lo, r->hi, r->excludes_one ? " *" : "");
}

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

static void what_was_run(struct doc *d, const struct analysis *a)
{
	char *text;

	heading(d, 2, "What was run");
	matrix_files(d);
	include_file(d, "Kernel", "uname.txt");
	include_file(d, "Kernel image", "kernel.txt");
	include_file(d, "Patch series version", "series-version.txt");
	include_file(d, "QEMU command line", "qemu-cmdline.txt");
	include_file(d, "Host", "host.txt");
	include_file(d, "Interleaving seed", "seed.txt");
	text = xasprintf("runs.csv holds %d runs: %d ok, %d crashed, %d failed. Only ok runs enter the statistics; the others are counted per cell (n_crashed, n_failed) and listed under \"Excluded runs\".",
			 a->table->nrows, a->n_ok, a->n_crashed, a->n_failed);
	para(d, text);
	free(text);
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
	for (int s = 0; s < a->nstudies; s++) {
		text = xasprintf("Workload %d: \"%s\" on topology %s (sockets x cores x threads), %d combinations.",
				 s + 1, a->studies[s].workload, a->studies[s].topology, a->studies[s].ngroups);
		bullet(d, text);
		free(text);
	}
	fputs("\n", d->md);
}

static void how_to_read(struct doc *d)
{
	heading(d, 2, "How to read the numbers");
	para(d, "Every cell is the median over the ok runs of one combination, with its 95% confidence interval in brackets and the number of runs n. Medians and quartiles use Hyndman-Fan type 7 quantiles (R's default). The interval of a median is the exact order-statistic (binomial) interval for n >= 6 and a percentile bootstrap of the median for 2 <= n < 6; with one run there is none.");
	para(d, "A ratio is median(combination) / median(reference) with a bootstrap interval (2000 resamples of both sides, splitmix64 with a fixed seed per statistic, so the numbers repeat exactly). A * marks an interval that excludes 1 (no change); an interval containing 1 means these runs cannot tell the two apart. Intervals from fewer than 6 runs are bootstrap intervals of very few values and usually too narrow. Factorial effects are on cell medians; * marks an interval that excludes 0.");
	para(d, "lb_pulls_total is lb_pulls_idle + lb_pulls_busy + lb_pulls_newidle of the same run: the load-balance pulls (lb_gained in /proc/schedstat) the RFC counted as \"migrations\". migrations is the perf cpu-migrations count of the workload's own threads.");
}

static const struct ratio *ratio_between(const struct study *st, int g, int ref, int m)
{
	if (ref == st->stock)
		return &st->groups[g].to_stock[m];
	if (ref == st->rfc_before)
		return &st->groups[g].to_rfc_before[m];
	return NULL;
}

/* "rfc-after made 23.0% fewer pulls than rfc-before (ratio 0.770, 95% CI
 * 0.700..0.850): the interval excludes 1." */
static char *comparison_sentence(const struct analysis *a, const struct study *st, int g,
				 int ref, int m, const char *noun_more, const char *noun_less,
				 double rfc_ratio)
{
	const struct ratio *r = ratio_between(st, g, ref, m);
	const char *name = a->combos[st->groups[g].combo].name;
	const char *ref_name = a->combos[st->groups[ref].combo].name;
	char *s, *rfc = NULL, *base;

	if (!r || !r->present)
		return xasprintf("%s against %s (%s): no values on one side.", name, ref_name,
				 a->metric_names[m]);
	if (isinf(r->value) || isnan(r->value))
		base = xasprintf("%s against %s (%s): the reference median is 0, so no ratio.",
				 name, ref_name, a->metric_names[m]);
	else {
		char *change = r->value == 1
			? xasprintf("%s had the same median %s as %s", name, a->metric_names[m], ref_name)
			: xasprintf("%s had %.1f%% %s than %s", name, fabs(r->value - 1) * 100,
				    r->value < 1 ? noun_less : noun_more, ref_name);

		if (isnan(r->lo))
			base = xasprintf("%s (ratio %.3f; too few runs for an interval).", change, r->value);
		else
			base = xasprintf("%s (ratio %.3f, 95%% CI %.3f..%.3f): %s.", change, r->value, r->lo, r->hi,
				 r->excludes_one ? "the 95% interval excludes 1, the no-change value"
					 : "the 95% interval includes 1, so these runs cannot tell the two apart");
		free(change);
	}
	if (!isnan(rfc_ratio) && !isnan(r->lo) && !isinf(r->hi))
		rfc = xasprintf(" The RFC's ratio, %.3f, is %s our interval.", rfc_ratio,
				rfc_ratio >= r->lo && rfc_ratio <= r->hi ? "inside" : "outside");
	s = xasprintf("%s%s", base, rfc ? rfc : "");
	free(base);
	free(rfc);
	return s;
}

/* Percentile bootstraps of 2 to 5 values cover less than they claim;
 * say so wherever such intervals are shown. */
static void few_runs_caveat(struct doc *d, const struct analysis *a, const struct study *st)
{
	int fewest = -1;

	for (int g = 0; g < st->ngroups; g++)
		for (int m = 0; m < a->nmetrics; m++) {
			int n = st->groups[g].metric[m].n;

			if (st->measured[m] && n > 0 && (fewest < 0 || n < fewest))
				fewest = n;
		}
	if (fewest >= 0 && fewest < EXACT_CI_MIN_N) {
		char *text = xasprintf("Caution: some cells have only %d ok runs. Below %d runs the intervals are bootstrap intervals of very few values, which are usually too narrow; read them as indicative and run more repetitions before relying on a difference.",
				       fewest, EXACT_CI_MIN_N);

		para(d, text);
		free(text);
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

static void rfc_section(struct doc *d, const struct analysis *a)
{
	const double rfc_pulls_after = 0, rfc_pulls_before = 46;
	const double rfc_records_after = 971114, rfc_records_before = 945158;
	int shown = 0;
	int any_rfc_workload = 0;

	heading(d, 2, "The RFC's figures beside ours");
	para(d, "The RFC's cover letter (Preeti U Murthy, 25 Oct 2012) ran 8 threads of 10% duty cycle (10 ms period) on a 1-socket, 4-core machine and counted load-balance pull requests from /proc/schedstat:");
	{
		char *headers[] = { "", "With_patchset (our rfc-after)", "Without_patchset (our rfc-before)", "ratio after/before" };
		char *row1[] = { "Average number of migrations (pulls)", "0", "46", "0.000 (-100%)" };
		char *row2[] = { "Average number of records/s", "971,114", "945,158", NULL };

		row2[3] = xasprintf("%.3f (+%.1f%%)", rfc_records_after / rfc_records_before,
				    (rfc_records_after / rfc_records_before - 1) * 100);
		table_begin(d, headers, 4);
		table_row(d, row1, 4, 0);
		table_row(d, row2, 4, 0);
		table_end(d);
		free(row2[3]);
	}
	para(d, "The RFC gives no spread and no number of runs. Our guest runs under QEMU TCG, so absolute records/s are not comparable to the RFC's hardware; the ratios are what can be compared.");
	for (int s = 0; s < a->nstudies; s++)
		any_rfc_workload |= is_rfc_workload(a->studies[s].workload);
	para(d, any_rfc_workload
		? "Ours, for the workload that repeats the RFC's experiment (the other workloads are in their own sections):"
		: "No workload here repeats the RFC's experiment (duty threads=8 duty=10); the nearest, every workload that ran the reference combinations:");
	for (int s = 0; s < a->nstudies; s++) {
		if (any_rfc_workload && !is_rfc_workload(a->studies[s].workload))
			continue;
		const struct study *st = &a->studies[s];
		const char *tput = throughput_metric(a, st);
		int refs[3] = { st->rfc_after, st->rfc_before, st->stock };
		const char *metrics[3] = { "lb_pulls_total", "migrations", tput };
		char *title, *headers[4] = { "combination", NULL, NULL, NULL };
		int nm = 0;

		if (st->rfc_after < 0 && st->rfc_before < 0)
			continue;
		shown++;
		title = xasprintf("%s (topology %s)", st->workload, st->topology);
		heading(d, 3, title);
		free(title);
		for (int i = 0; i < 3; i++)
			if (metrics[i] && metric_index(a, metrics[i]) >= 0 &&
			    st->measured[metric_index(a, metrics[i])])
				headers[1 + nm++] = (char *)metrics[i];
		table_begin(d, headers, 1 + nm);
		for (int i = 0; i < 3; i++) {
			char *cells[4];

			if (refs[i] < 0)
				continue;
			cells[0] = a->combos[st->groups[refs[i]].combo].name;
			for (int j = 0; j < nm; j++)
				cells[1 + j] = median_cell(&st->groups[refs[i]].metric[metric_index(a, headers[1 + j])]);
			table_row(d, cells, 1 + nm, 0);
			for (int j = 0; j < nm; j++)
				free(cells[1 + j]);
		}
		table_end(d);
		few_runs_caveat(d, a, st);
		for (int j = 0; j < nm; j++) {
			int m = metric_index(a, headers[1 + j]);
			int pulls = !strcmp(headers[1 + j], "lb_pulls_total");
			int is_tput = tput && !strcmp(headers[1 + j], tput);
			double rfc = pulls ? rfc_pulls_after / rfc_pulls_before
				: is_tput && !strcmp(tput, "records_per_s") ? rfc_records_after / rfc_records_before : NAN;
			const char *more = pulls ? "more pulls" : is_tput ? "higher throughput" : "more migrations";
			const char *less = pulls ? "fewer pulls" : is_tput ? "lower throughput" : "fewer migrations";
			char *text;

			if (st->rfc_after >= 0 && st->rfc_before >= 0) {
				text = comparison_sentence(a, st, st->rfc_after, st->rfc_before, m, more, less, rfc);
				bullet(d, text);
				free(text);
			}
			if (st->stock >= 0 && st->rfc_after >= 0) {
				text = comparison_sentence(a, st, st->rfc_after, st->stock, m, more, less, NAN);
				bullet(d, text);
				free(text);
			}
			if (st->stock >= 0 && st->rfc_before >= 0) {
				text = comparison_sentence(a, st, st->rfc_before, st->stock, m, more, less, NAN);
				bullet(d, text);
				free(text);
			}
		}
		fputs("\n", d->md);
	}
	if (!shown)
		para(d, "No workload ran both rfc-after and rfc-before, so the RFC's comparison cannot be repeated from these results.");
}

/* A cell of a per-metric table: group g, metric m, against group ref. */
typedef char *table_cell(const struct study *st, int g, int m, int ref);

static char *median_table_cell(const struct study *st, int g, int m, int ref)
{
	(void)ref;
	return median_cell(&st->groups[g].metric[m]);
}

static char *ratio_table_cell(const struct study *st, int g, int m, int ref)
{
	return g == ref ? xstrdup("1 (reference)") : ratio_cell(ratio_between(st, g, ref, m));
}

/* One row per measured metric, one column per combination. */
static void metric_table(struct doc *d, const struct analysis *a, const struct study *st,
			 char **headers, int ref, table_cell *cell)
{
	char **cells = xmalloc((st->ngroups + 1) * sizeof(char *));

	table_begin(d, headers, st->ngroups + 1);
	for (int m = 0; m < a->nmetrics; m++) {
		if (!st->measured[m])
			continue;
		cells[0] = a->metric_names[m];
		for (int g = 0; g < st->ngroups; g++)
			cells[1 + g] = cell(st, g, m, ref);
		table_row(d, cells, st->ngroups + 1, 0);
		for (int g = 0; g < st->ngroups; g++)
			free(cells[1 + g]);
	}
	table_end(d);
	free(cells);
}

static void study_section(struct doc *d, const struct analysis *a, int s)
{
	const struct study *st = &a->studies[s];
	struct chart_plan plan[CHART_KINDS];
	char *title = xasprintf("Workload %d: %s (topology %s)", s + 1, st->workload, st->topology);
	char **headers = xmalloc((st->ngroups + 1) * sizeof(char *));

	heading(d, 2, title);
	free(title);
	headers[0] = "metric";
	for (int g = 0; g < st->ngroups; g++)
		headers[1 + g] = a->combos[st->groups[g].combo].name;
	para(d, "Median [95% CI] (n) per combination:");
	few_runs_caveat(d, a, st);
	metric_table(d, a, st, headers, -1, median_table_cell);
	for (int pass = 0; pass < 2; pass++) {
		int ref = pass ? st->rfc_before : st->stock;

		if (ref < 0)
			continue;
		title = xasprintf("Ratio to %s [95%% CI], * = the interval excludes 1:",
				  a->combos[st->groups[ref].combo].name);
		para(d, title);
		free(title);
		metric_table(d, a, st, headers, ref, ratio_table_cell);
	}
	if (st->k) {
		char *eh[] = { "term", "metric", "effect [95% CI]" };
		char *design = design_name(a, st);
		const char *tput = throughput_metric(a, st);

		title = xasprintf("Factorial design over %s (%d cells). Effects on cell medians, in the metric's units; A:B is the two-way interaction of A and B; * = the interval excludes 0 (all metrics in effects.csv):",
				  design, 1 << st->k);
		para(d, title);
		free(title);
		free(design);
		table_begin(d, eh, 3);
		for (int e = 0; e < st->neffects; e++) {
			const struct effect *ef = &st->effects[e];
			const char *metric = a->metric_names[ef->metric];
			char *row[3], *v, *lo, *hi;

			if (strcmp(metric, "lb_pulls_total") && strcmp(metric, "migrations") &&
			    strcmp(metric, "wakeup_p99_us") && !(tput && !strcmp(metric, tput)))
				continue;
			v = human(ef->value);
			lo = human(ef->lo);
			hi = human(ef->hi);
			row[0] = term_name(a, st, ef->term);
			row[1] = (char *)metric;
			row[2] = xasprintf("%s [%s, %s]%s", v, lo, hi, ef->excludes_zero ? " *" : "");
			table_row(d, row, 3, 0);
			free(row[0]);
			free(row[2]);
			free(v);
			free(lo);
			free(hi);
		}
		table_end(d);
	} else {
		title = xasprintf("No factorial effects: %s.", st->skip_effects);
		para(d, title);
		free(title);
	}
	plan_charts(a, s, plan);
	for (int i = 0; i < CHART_KINDS; i++) {
		if (plan[i].skip_reason) {
			title = xasprintf("Chart %s skipped: %s.", plan[i].name, plan[i].skip_reason);
			para(d, title);
			free(title);
		} else {
			chart(d, &plan[i]);
		}
	}
	free(headers);
}

static void excluded_runs(struct doc *d, const struct analysis *a)
{
	const struct run_table *t = a->table;
	char *headers[] = { "runs.csv line", "seq", "combination", "workload", "rep", "status" };

	heading(d, 2, "Excluded runs");
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

void write_report(const struct analysis *a, const char *results_dir)
{
	char *md_path = xasprintf("%s/report.md", results_dir);
	char *html_path = xasprintf("%s/report.html", results_dir);
	const char *name = strrchr(results_dir, '/');
	struct doc d = { open_output(md_path), open_output(html_path), results_dir };
	char *title;

	/* results/latest is a link: name the folder it points at */
	char *real = realpath(results_dir, NULL);
	name = real && strrchr(real, '/') ? strrchr(real, '/') + 1 : name ? name + 1 : results_dir;
	title = xasprintf("pjt-sched results: %s", name);
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", d.html);
	html_escaped(d.html, title);
	fputs("</title><style>body{font-family:sans-serif;max-width:84em;margin:1em auto;padding:0 1em}"
	      "table{border-collapse:collapse;margin:0.5em 0 1em}td,th{border:1px solid #bbb;padding:0.2em 0.5em;font-size:90%}"
	      "td{text-align:right}td:first-child{text-align:left}pre{background:#f4f4f4;padding:0.5em;overflow-x:auto}"
	      "figure{margin:1em 0}img{max-width:100%}figcaption{font-style:italic}ul{margin:0.2em 0}</style></head><body>\n",
	      d.html);
	fprintf(d.md, "# %s\n", title);
	fputs("<h1>", d.html);
	html_escaped(d.html, title);
	fputs("</h1>\n", d.html);
	what_was_run(&d, a);
	how_to_read(&d);
	rfc_section(&d, a);
	for (int s = 0; s < a->nstudies; s++)
		study_section(&d, a, s);
	excluded_runs(&d, a);
	heading(&d, 2, "Files");
	para(&d, "summary.csv (every metric of every cell), effects.csv (factorial effects), charts/*.png and *.svg, plots-data/ (the numbers each chart shows). All are re-made from runs.csv by: make plots RESULTS=<this folder>.");
	fputs("</body></html>\n", d.html);
	close_output(d.md, md_path);
	close_output(d.html, html_path);
	free(real);
	free(title);
	free(md_path);
	free(html_path);
}
