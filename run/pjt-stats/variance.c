/* Where the variance is, and what to run (Kalibera and Jones, "Rigorous
 * Benchmarking in Reasonable Time", ISMM 2013).
 *
 * Two levels: boots (level 1) and the runs of a cell within a boot
 * (level 2), on log values. A count is never shifted (log(x + 1) biases
 * small counts toward a ratio of 1): a block with a 0 on either side of a
 * pair has no log ratio and is left out, counted in v->dropped and said.
 * Per cell, S2 = the pooled within-boot variance, S1 = the variance of
 * the boot means; pooled over the cells of a study by their degrees of
 * freedom. The between-boot component is T1 = max(0, S1 - S2 / n2), n2
 * the mean runs per boot (KJ's unbiased estimator); with one run per boot
 * S2 cannot be told from T1 and all of the variance is counted between
 * boots (T1 = S1, said so).
 *
 * The log values are paired first, as the ratios are: each block's log
 * ratio of a cell to the study's reference (the first declared
 * comparison's reference, else stock), so what the pairing cancels (a
 * slow block, a slow boot for every cell alike) is not counted. A boot's
 * unit has variance about V = T1 + S2 / n2. The power of a design to
 * resolve a stated change, and the interval's expected half-width, are
 * simulated from V with the confirmatory test (procedures.c); the
 * half-width planning below uses the normal approximation 1.96
 * sqrt(V / n1) of the Hodges-Lehmann interval (its efficiency against the
 * mean is 3/pi = 0.955 under normality; taken as 1). The boots x reps
 * that reach a stated half-width: for each n2 in 1..10 the n1 that does,
 * costed as n1 (c1 + n2 c2), c1 a boot and c2 a block of runs; the
 * cheapest (KJ's optimum n2 = sqrt(c1 S2 / (c2 T1)) of the same cost
 * function, searched instead of rounded). At least 6 boots: fewer cannot
 * give p <= 0.05. */
#include "pjt-stats.h"
#include "options.h" /* common/: the C tools' command line */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define Z95 1.959964
#define MAX_PLANNED_BOOTS 200

double default_half_width(const char *metric)
{
	if (!strcmp(metric, "records_per_s") || !strcmp(metric, "ops_per_s"))
		return 0.03;
	return 0.10;
}

/* The reference a study's components are paired to: the first declared
 * comparison's reference, else stock, else the first combination. */
static int pairing_reference(const struct analysis *a, const struct study *st)
{
	for (int d = 0; d < a->ndeclared; d++)
		if (st->decl && st->decl_ref[d] >= 0 && st->decl_g[d] >= 0)
			return st->decl_ref[d];
	return st->ref[REF_STOCK] >= 0 ? st->ref[REF_STOCK] : 0;
}

int pair_block_ratios(const struct analysis *a, const struct study *st, int m, int g, int ref, double *lr,
		      int *boot, int *dropped)
{
	int n = 0;

	for (int b = 0; b < st->nblocks; b++) {
		int row = st->groups[g].block_row[b], rrow = st->groups[ref].block_row[b];
		double x, y;

		if (row < 0 || rrow < 0 || isnan(x = metric_value(a, &a->table->rows[row], m)) ||
		    isnan(y = metric_value(a, &a->table->rows[rrow], m)))
			continue;
		if (x <= 0 || y <= 0) {
			(*dropped)++;
			continue;
		}
		lr[n] = log(x) - log(y);
		boot[n++] = st->block_boot[b];
	}
	return n;
}

/* The components of metric m over the pairs (g, ref), every g but the
 * reference when only < 0, else group only. */
static void pair_components(const struct analysis *a, const struct study *st, int m, int only, int ref,
			    struct varcomp *v)
{
	double ssw = 0, ssb = 0, runs = 0, boots = 0;
	int dfw = 0, dfb = 0;
	double *sum = xcalloc(st->nboots + 1, sizeof(double)), *sq = xcalloc(st->nboots + 1, sizeof(double));
	double *lr = xmalloc((st->nblocks + 1) * sizeof(double));
	int *cnt = xcalloc(st->nboots + 1, sizeof(int)), *boot = xmalloc((st->nblocks + 1) * sizeof(int));

	memset(v, 0, sizeof(*v));
	v->metric = m;
	v->reference = ref;
	v->between = v->within = v->half_width = NAN;
	for (int g = 0; g < st->ngroups; g++) {
		double mean_sum = 0, mean_sq = 0;
		int nb = 0;

		if (g == ref || (only >= 0 && g != only))
			continue;
		memset(sum, 0, (st->nboots + 1) * sizeof(double));
		memset(sq, 0, (st->nboots + 1) * sizeof(double));
		memset(cnt, 0, (st->nboots + 1) * sizeof(int));
		int n = pair_block_ratios(a, st, m, g, ref, lr, boot, &v->dropped);

		for (int i = 0; i < n; i++) {
			sum[boot[i]] += lr[i];
			sq[boot[i]] += lr[i] * lr[i];
			cnt[boot[i]]++;
		}
		for (int b = 0; b < st->nboots; b++) {
			double mean;

			if (!cnt[b])
				continue;
			mean = sum[b] / cnt[b];
			ssw += sq[b] - cnt[b] * mean * mean;
			dfw += cnt[b] - 1;
			mean_sum += mean;
			mean_sq += mean * mean;
			nb++;
			runs += cnt[b];
			boots++;
		}
		if (nb >= 2) {
			ssb += mean_sq - mean_sum * mean_sum / nb;
			dfb += nb - 1;
		}
	}
	free(sum);
	free(sq);
	free(cnt);
	free(lr);
	free(boot);
	v->n1 = st->nboots;
	v->n2 = boots ? (int)lround(runs / boots) : 0;
	if (!dfb)
		return;
	v->within_estimable = dfw > 0;
	double s1 = fmax(0, ssb / dfb), s2 = dfw ? fmax(0, ssw / dfw) : 0;
	double n2 = runs / boots;

	v->within = dfw ? s2 : NAN;
	v->between = dfw ? fmax(0, s1 - s2 / n2) : s1;
	v->half_width = exp(Z95 * sqrt((v->between + s2 / n2) / v->n1)) - 1;
}

void variance_components(const struct analysis *a, const struct study *st, int m, struct varcomp *v)
{
	pair_components(a, st, m, -1, pairing_reference(a, st), v);
}

/* The two levels of a pilot's first declared comparison on its study's
 * primary endpoint (the pair alone: what the confirmatory test sees); 0
 * when it has none. *source names them. */
int pilot_variance(const struct analysis *a, const char *dir, double *t1, double *s2, char **source)
{
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];
		int m = primary_endpoint(a, st);

		for (int d = 0; m >= 0 && d < a->ndeclared; d++) {
			struct varcomp v;

			if (st->decl_g[d] < 0 || st->decl_ref[d] < 0)
				continue;
			pair_components(a, st, m, st->decl_g[d], st->decl_ref[d], &v);
			if (isnan(v.between))
				continue;
			*t1 = v.between;
			*s2 = v.within_estimable ? v.within : 0;
			*source = xasprintf("pilot %s: %s against %s, %s, %d boots, %s%s", dir, a->declared[d].combo,
					    a->declared[d].reference, a->metric_names[m], v.n1,
					    v.within_estimable ? "two levels" : "one block per boot: all of it counted between boots",
					    v.dropped ? xasprintf(", %d block%s with a 0 left out", v.dropped,
								  v.dropped == 1 ? "" : "s") : "");
			return 1;
		}
	}
	return 0;
}

void plan_design(struct varcomp *v, double target, double boot_cost_s, double block_cost_s)
{
	double s2 = isnan(v->within) ? 0 : v->within, best = INFINITY, l = log(1 + target);

	v->target = target;
	v->need_boots = v->need_reps = 0;
	if (isnan(v->between) || target <= 0)
		return;
	for (int n2 = 1; n2 <= (isnan(v->within) ? 1 : 10); n2++) {
		double n1 = ceil(Z95 * Z95 * (v->between + s2 / n2) / (l * l));
		double cost;

		if (n1 < 6)
			n1 = 6;
		if (n1 > MAX_PLANNED_BOOTS)
			n1 = MAX_PLANNED_BOOTS + 1; /* not reachable: said so */
		cost = n1 * (boot_cost_s + n2 * block_cost_s);
		if (cost < best) {
			best = cost;
			v->need_boots = (int)n1;
			v->need_reps = n2;
			v->need_cost_s = cost;
		}
	}
}

/* One block of a topology: every cell of every workload once, each run its
 * measured median duration_s plus the settle and 0.4 s of overhead. */
double block_cost_s(const struct analysis *a, const char *topology)
{
	int dm = metric_index(a, "duration_s");
	double cost = 0;

	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];

		if (strcmp(st->topology, topology))
			continue;
		for (int g = 0; g < st->ngroups; g++) {
			double d = dm >= 0 ? st->groups[g].metric[dm].median : NAN;

			cost += (isnan(d) ? 2 : d) + (isnan(a->settle_s) ? 1 : a->settle_s) + 0.4;
		}
	}
	return cost;
}

/* run/plan-design [--half-width METRIC=PCT]... [--effect PCT] [--out FILE]
 * PILOT_DIR: the components of a pilot folder, the boots x runs per boot
 * each primary metric needs for its half-width, the power of the pilot's
 * design and of the plan for a stated change in the declared comparison's
 * primary endpoint, and the pilot's matrix with reps and boots set to what
 * the most demanding one needs (and at least what its declared family
 * needs for Holm: 2/2^boots <= 0.05/F). */
static void plan_design_help(const struct opt_parser *p)
{
	(void)p;
	puts("usage: run/plan-design [--half-width METRIC=PCT]... [--effect PCT] [--out FILE] PILOT_DIR\n"
	     "Estimates, from a pilot results folder, each primary metric's between-boot and\n"
	     "within-boot variance of log values (Kalibera-Jones; a block with a count of 0\n"
	     "has no log ratio and is left out, counted), and the cheapest boots x runs per\n"
	     "boot that give a paired ratio a 95% interval of the asked half-width (default\n"
	     "10%, throughput 3%). For the pilot's design and for the plan it prints the\n"
	     "power: the probability of resolving a change of PCT (default 30%, a ratio of\n"
	     "0.7) in the first declared comparison's primary endpoint at Holm's first\n"
	     "threshold with the signed-rank test, simulated from that pair's two levels\n"
	     "(unit variance T1 + S2 / runs per boot), and the interval's expected half-width.\n"
	     "Then writes the pilot's matrix with reps and boots set to the most demanding\n"
	     "metric's (and enough boots for Holm over its declared family) to FILE, or stdout.\n"
	     "Options: -h, --help (this text), --version; before or after PILOT_DIR, as\n"
	     "--out F or --out=F; \"--\" ends them.\n"
	     "Exit: 0 ok, 1 a system error (a file not written), 2 usage (an unknown metric,\n"
	     "no PILOT_DIR/runs.csv) or bad input.");
}

int plan_design_main(int argc, char **argv)
{
	const char *dir, *out = NULL;
	char *names[64];
	double targets[64];
	int ntargets = 0, boots = 0, reps = 1, min_boots = 6, unreachable = 0, seen_reps = 0, seen_boots = 0;
	double effect = 0.3, t1, s2;
	char *source;
	struct analysis *a;
	struct provenance *prov;
	struct opt_parser opt;
	char *csv, *text;
	FILE *f, *table;

	opt_init(&opt, "run/plan-design", "half-width= effect= out=", plan_design_help, argc, argv);
	while (opt_next(&opt)) {
		const char *val = opt.value, *e = strchr(val, '=');
		char *end;

		if (opt_is(&opt, "out")) {
			out = val;
			continue;
		}
		if (opt_is(&opt, "effect")) {
			effect = strtod(val, &end) / 100;
			if (end == val || (*end && strcmp(end, "%")) || !(effect > 0 && effect < 1))
				opt_error(opt.tool, "--effect %s: want a percentage above 0 and below 100", val);
			continue;
		}
		if (!e || ntargets == 64)
			opt_error(opt.tool, "--half-width wants METRIC=PCT, not '%s'", val);
		names[ntargets] = xasprintf("%.*s", (int)(e - val), val);
		targets[ntargets] = strtod(e + 1, &end) / 100;
		if (end == e + 1 || (*end && strcmp(end, "%")) || targets[ntargets] <= 0)
			opt_error(opt.tool, "--half-width %s: want a percentage above 0", val);
		ntargets++;
	}
	if (opt.noperands != 1)
		opt_error(opt.tool, "want one PILOT_DIR, not %d (run/plan-design [--half-width METRIC=PCT]... [--out FILE] PILOT_DIR)",
			  opt.noperands);
	dir = opt.operands[0];
	csv = xasprintf("%s/runs.csv", dir);
	/* Usage errors before any reading: a metric not in the one list of
	 * primary metrics (analysis.c), a folder without runs.csv. */
	for (int t = 0; t < ntargets; t++)
		if (!is_primary_metric(names[t]))
			opt_error(opt.tool, "--half-width %s=...: %s is not a primary metric (%s)", names[t],
				  names[t], primary_metric_list(", "));
	if (access(csv, R_OK))
		opt_error(opt.tool, "%s: not a results folder (%s: %s)", dir, csv, strerror(errno));
	a = analyse_folder(dir);
	for (int t = 0; t < ntargets; t++) { /* a target no row can meet is a typo, not "nan" */
		int m = metric_index(a, names[t]), measured = 0;

		for (int s = 0; m >= 0 && s < a->nstudies; s++)
			measured |= a->studies[s].measured[m];
		if (m < 0 || !a->primary[m] || !measured) {
			char *list = primary_metric_list(", ");

			die_input("run/plan-design: --half-width %s=...: %s is not a primary metric %s measures (%s)",
				  names[t], names[t], csv, list);
		}
	}
	prov = read_provenance(dir, a->table);
	a->settle_s = isnan(prov->settle_s) ? 1 : prov->settle_s;
	table = out ? stdout : stderr;
	fprintf(table, "%-16s %-22s %-10s %-10s %-8s %-8s %s\n", "metric", "workload", "between", "within",
		"dropped", "target", "boots x runs per boot");
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];

		for (int m = 0; m < a->nmetrics; m++) {
			struct varcomp v;
			double target = NAN;
			char wl[23];

			if (!a->primary[m] || !st->measured[m])
				continue;
			for (int t = 0; t < ntargets; t++)
				if (!strcmp(names[t], a->metric_names[m]))
					target = targets[t];
			if (ntargets && isnan(target))
				continue; /* asked for others only */
			if (isnan(target))
				target = default_half_width(a->metric_names[m]);
			variance_components(a, st, m, &v);
			plan_design(&v, target, BOOT_COST_S, block_cost_s(a, st->topology));
			snprintf(wl, sizeof(wl), "%s", st->workload);
			{
				char tg[32], need[64];

				snprintf(tg, sizeof(tg), "%g%%", target * 100);
				if (v.need_boots > MAX_PLANNED_BOOTS)
					snprintf(need, sizeof(need), "more than %d boots", MAX_PLANNED_BOOTS);
				else
					snprintf(need, sizeof(need), "%d x %d (%.0f min)", v.need_boots, v.need_reps,
						 v.need_cost_s / 60);
				fprintf(table, "%-16s %-22s %-10.3g %-10.3g %-8d %-8s %s\n", a->metric_names[m], wl,
					v.between, v.within, v.dropped, tg, need);
			}
			if (v.need_boots > MAX_PLANNED_BOOTS) {
				unreachable++;
				continue;
			}
			if (v.need_boots > boots || (v.need_boots == boots && v.need_reps > reps)) {
				boots = v.need_boots;
				reps = v.need_reps;
			}
		}
	}
	if (a->family)
		while (min_boots < 60 && 2.0 / ldexp(1, min_boots) > FAMILY_ALPHA / a->family)
			min_boots++;
	if (boots < min_boots) {
		fprintf(table, "at least %d boots: 2/2^%d <= 0.05/%d, Holm over the declared family\n", min_boots,
			min_boots, a->family);
		boots = min_boots;
	}
	fprintf(table, "plan: boots %d, reps %d (%d runs per boot per cell)%s\n", boots, boots * reps, reps,
		unreachable ? "; the targets marked 'more than' are left out: ask a wider half-width" : "");
	if (pilot_variance(a, dir, &t1, &s2, &source)) {
		struct design_power dp;
		const struct study *st = &a->studies[0];

		design_power(&dp, st->nboots, st->nboots ? (st->nblocks + st->nboots / 2) / st->nboots : 1,
			     a->family, effect, t1, s2);
		print_design_power(table, "the pilot's design", &dp, t1, s2, source);
		design_power(&dp, boots, reps, a->family, effect, t1, s2);
		print_design_power(table, "the plan", &dp, t1, s2, source);
	} else {
		fprintf(table, "no power: %s declares no comparison with boots on both sides (a compare line)\n", dir);
	}
	text = NULL;
	if (prov->matrix_file) {
		char *path = xasprintf("%s/%s", dir, prov->matrix_file);

		text = read_whole_file(path, NULL);
		free(path);
	}
	if (!text) {
		fprintf(stderr, "run/plan-design: %s has no matrix file: only the plan above\n", dir);
		return 0;
	}
	f = out ? open_output(out) : stdout;
	fprintf(f, "# planned by run/plan-design from %s: boots %d, reps %d\n", dir, boots, boots * reps);
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char word[16] = "";

		sscanf(line, "%15s", word);
		if (!strcmp(word, "reps") && (seen_reps = 1))
			fprintf(f, "reps      %d\n", boots * reps);
		else if (!strcmp(word, "boots") && (seen_boots = 1))
			fprintf(f, "boots     %d\n", boots);
		else
			fprintf(f, "%s\n", line);
	}
	if (!seen_reps)
		fprintf(f, "reps      %d\n", boots * reps);
	if (!seen_boots)
		fprintf(f, "boots     %d\n", boots);
	if (out)
		close_output(f, out);
	return 0;
}
