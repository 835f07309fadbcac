/* Choosing the confirmatory procedure by measurement, and the power of a
 * design (issue 37).
 *
 * The units are a declared comparison's boots: log ratios on the primary
 * endpoint. Each procedure (sign test, Wilcoxon signed-rank with its
 * Hodges-Lehmann interval, paired t) is simulated on n units drawn from
 *   resampled  the folder's real units, centred on their median (no
 *              change), drawn with replacement: the real shape, outliers
 *              included;
 *   normal     N(0, V), V the units' variance;
 *   t3         Student's t with 3 degrees of freedom scaled to variance V
 *              (heavy tails: a boot that misbehaves);
 * as they are (size: how often "no change" is resolved) and shifted by
 * log(1 - effect) (power), each test at the threshold alpha / F, Holm's
 * first over a family of F. The half-width is the median over the
 * shifted draws of half the interval's width on the log scale, printed
 * as exp(h) - 1.
 *
 * The power of a design (run/plan-design, run/matrix --dry-run) is the
 * same simulation under the normal and t3 models with the unit variance
 * of n1 boots x n2 blocks per boot, V = T1 + S2 / n2 (Kalibera-Jones: a
 * boot's unit is the mean of its blocks' log ratios), from a pilot's two
 * levels or the shipped default below. */
#include "pjt-stats.h"
#include "options.h" /* common/: the C tools' command line */

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MODEL_RESAMPLE, MODEL_NORMAL, MODEL_T3, NMODELS };
static const char *const model_names[NMODELS] = { "resampled", "normal", "t3" };

struct model {
	int kind;
	double var;              /* normal, t3 */
	const double *pool;      /* resampled: centred units */
	int npool;
	/* resampled, two levels (blocks > 0): a boot drawn with replacement,
	 * then blocks of its centred block log ratios, their mean the unit */
	int blocks, nboots;
	const double *block;     /* by boot: block[start[b] .. start[b] + len[b]) */
	const int *start, *len;
};

static double draw(const struct model *md, struct rng *r)
{
	double chi = 0;

	switch (md->kind) {
	case MODEL_RESAMPLE:
		if (md->blocks) {
			int b = (int)(rng_next(r) % (uint64_t)md->nboots);
			double sum = 0;

			for (int i = 0; i < md->blocks; i++)
				sum += md->block[md->start[b] + rng_next(r) % (uint64_t)md->len[b]];
			return sum / md->blocks;
		}
		return md->pool[rng_next(r) % (uint64_t)md->npool];
	case MODEL_NORMAL:
		return sqrt(md->var) * rng_normal(r);
	default: /* t3 = Z / sqrt(chi2_3 / 3), variance 3 */
		for (int i = 0; i < 3; i++) {
			double z = rng_normal(r);

			chi += z * z;
		}
		return sqrt(md->var / 3) * rng_normal(r) / sqrt(chi / 3);
	}
}

/* Rejection rate of procedure proc at threshold over sims draws of n
 * units shifted by shift, and the median half-width (log scale) of its
 * interval. */
static double simulate(int proc, const struct model *md, int n, double shift, double threshold,
		       int sims, struct rng *r, double *half_width)
{
	double *u = xmalloc(n * sizeof(double)), *hw = xmalloc(sims * sizeof(double));
	long rejected = 0;

	for (int s = 0; s < sims; s++) {
		struct interval ci;
		double est, p;

		for (int i = 0; i < n; i++)
			u[i] = draw(md, r) + shift;
		sort_doubles(u, n);
		test_units(proc, u, n, &est, &ci, &p);
		rejected += p <= threshold;
		hw[s] = (ci.hi - ci.lo) / 2;
	}
	sort_doubles(hw, sims);
	*half_width = median_sorted(hw, sims);
	free(u);
	free(hw);
	return (double)rejected / sims;
}

/* "+-18%": a log-scale half-width as the change it spans */
static char *percent(double h)
{
	return isnan(h) ? xstrdup("none") : xasprintf("+-%.0f%%", (exp(h) - 1) * 100);
}

/* pjt-stats --units V...: every procedure on the units V (log ratios),
 * for the tests' hand-computed values. */
int units_main(int argc, char **argv)
{
	double *u = xmalloc((argc + 1) * sizeof(double));

	for (int i = 0; i < argc; i++) {
		char *end;

		u[i] = strtod(argv[i], &end);
		if (end == argv[i] || *end || !isfinite(u[i]))
			opt_error("run/stats", "--units wants numbers, not '%s'", argv[i]);
	}
	if (argc < 1)
		opt_error("run/stats", "--units wants at least one number");
	sort_doubles(u, argc);
	for (int proc = 0; proc < NPROCEDURES; proc++) {
		struct interval ci;
		double est, p;

		test_units(proc, u, argc, &est, &ci, &p);
		printf("%s estimate=%.10g lo=%.10g hi=%.10g level=%.10g p=%.10g\n", procedure_names[proc], est,
		       ci.lo, ci.hi, ci.level, p);
	}
	free(u);
	return 0;
}

/* A folder's first declared comparison with boots on its primary
 * endpoint: the per-boot units (sorted), the blocks' log ratios grouped
 * by boot, and the two levels. */
struct folder_data {
	double *units;
	int n;
	double *block;
	int *start, *len, nboots;
	double t1, s2;
	char *what;
	int family;
};

static void folder_data(const char *dir, struct folder_data *fd)
{
	struct analysis *a = analyse_folder(dir);
	char *source;

	fd->family = a->family;
	for (int s = 0; s < a->nstudies; s++) {
		const struct study *st = &a->studies[s];
		int m = primary_endpoint(a, st);

		for (int d = 0; m >= 0 && d < a->ndeclared; d++) {
			double *lr;
			int *boot, nlr, dropped = 0, k = 0;

			if (st->decl_g[d] < 0 || st->decl_ref[d] < 0)
				continue;
			fd->units = xmalloc((st->nblocks + 1) * sizeof(double));
			fd->n = declared_units(a, st, d, m, fd->units);
			if (fd->n < 2 || !pilot_variance(a, dir, &fd->t1, &fd->s2, &source)) {
				free(fd->units);
				continue;
			}
			fd->what = xasprintf("compare %s %s, %s, workload %s, topology %s", a->declared[d].combo,
					     a->declared[d].reference, a->metric_names[m], st->workload, st->topology);
			lr = xmalloc((st->nblocks + 1) * sizeof(double));
			boot = xmalloc((st->nblocks + 1) * sizeof(int));
			nlr = pair_block_ratios(a, st, m, st->decl_g[d], st->decl_ref[d], lr, boot, &dropped);
			fd->block = xmalloc((nlr + 1) * sizeof(double));
			fd->start = xmalloc((st->nboots + 1) * sizeof(int));
			fd->len = xmalloc((st->nboots + 1) * sizeof(int));
			fd->nboots = 0;
			for (int b = 0; b < st->nboots; b++) {
				fd->start[fd->nboots] = k;
				for (int i = 0; i < nlr; i++)
					if (boot[i] == b)
						fd->block[k++] = lr[i];
				if (k > fd->start[fd->nboots])
					fd->len[fd->nboots] = k - fd->start[fd->nboots], fd->nboots++;
			}
			free(lr);
			free(boot);
			return;
		}
	}
	die_input("%s/runs.csv: no declared comparison with two or more boots of finite ratios on a primary endpoint (a compare line in the matrix, two boots)",
		  dir);
}

static void procedures_help(const struct opt_parser *p)
{
	(void)p;
	puts("usage: run/stats --procedures [--boots N] [--blocks B] [--effect PCT] [--alpha A]\n"
	     "                              [--resamples K] [--seed S] DIR\n"
	     "Measures the paired procedures (sign test, Wilcoxon signed-rank with Hodges-Lehmann,\n"
	     "paired t) on the per-boot units of DIR's first declared comparison on its primary\n"
	     "endpoint: per model (the real units resampled after centring, normal with their\n"
	     "variance, t3 scaled to it), the rejection rate with no change (size) and with a\n"
	     "change of PCT (default 30%: a ratio of 0.7), over K draws (default 2000) of N boots\n"
	     "(default the folder's), at alpha / F (default 0.05, F the folder's Holm family),\n"
	     "and the median half-width of the interval each prints. --blocks B: designs of N\n"
	     "boots x B blocks: boots resampled, then B of each boot's blocks, the unit their\n"
	     "mean log ratio; the models' variance T1 + S2 / B (DIR's two levels).\n"
	     "Exit: 0 ok, 2 usage or bad input.");
}

static double number_option(const struct opt_parser *opt, double lo, double hi)
{
	char *end;
	double v = strtod(opt->value, &end);

	if (end == opt->value || *end || !(v >= lo && v <= hi))
		opt_error(opt->tool, "--%s wants a number from %g to %g, not '%s'", opt->name, lo, hi, opt->value);
	return v;
}

/* pjt-stats --procedures DIR: the table docs/results.md's choice rests on. */
int procedures_main(int argc, char **argv)
{
	struct opt_parser opt;
	struct folder_data fd;
	int boots = 0, blocks = 0, sims = 2000;
	double effect = 0.3, alpha = FAMILY_ALPHA, mean = 0, var = 0, threshold, centre;
	uint64_t seed = BASE_SEED;
	struct rng r;

	opt_init(&opt, "run/stats --procedures", "boots= blocks= effect= alpha= resamples= seed=", procedures_help,
		 argc, argv);
	while (opt_next(&opt)) {
		if (opt_is(&opt, "boots"))
			boots = (int)number_option(&opt, 2, 200);
		else if (opt_is(&opt, "blocks"))
			blocks = (int)number_option(&opt, 1, 100);
		else if (opt_is(&opt, "effect"))
			effect = number_option(&opt, 0, 99) / 100;
		else if (opt_is(&opt, "alpha"))
			alpha = number_option(&opt, 1e-6, 0.5);
		else if (opt_is(&opt, "resamples"))
			sims = (int)number_option(&opt, 10, 1e6);
		else if (opt_is(&opt, "seed"))
			seed = (uint64_t)number_option(&opt, 0, 1e15);
	}
	if (opt.noperands != 1)
		opt_error(opt.tool, "want one results folder, not %d", opt.noperands);
	folder_data(opt.operands[0], &fd);
	if (!boots)
		boots = fd.n;
	centre = median_sorted(fd.units, fd.n);
	for (int i = 0; i < fd.n; i++)
		mean += fd.units[i] / fd.n;
	for (int i = 0; i < fd.n; i++) {
		var += (fd.units[i] - mean) * (fd.units[i] - mean) / (fd.n - 1);
		fd.units[i] -= centre;
	}
	for (int i = 0; i < fd.start[fd.nboots - 1] + fd.len[fd.nboots - 1]; i++)
		fd.block[i] -= centre;
	threshold = alpha / (fd.family ? fd.family : 1);
	printf("%s: %d boots as units, mean log ratio %.3f (ratio %.3f), variance %.4g; T1 %.4g, S2 %.4g\n",
	       fd.what, fd.n, mean, exp(mean), var, fd.t1, fd.s2);
	if (blocks) {
		var = fd.t1 + fd.s2 / blocks;
		printf("draws of %d boots x %d blocks (resampled: boots, then blocks within each, from %d boots' %d blocks; normal, t3: variance %.4g)",
		       boots, blocks, fd.nboots, fd.start[fd.nboots - 1] + fd.len[fd.nboots - 1], var);
	} else {
		printf("draws of %d boots", boots);
	}
	printf(", %d each; tests at %g / %d = %.4g; power for a ratio of %.3g (a %g%% change); seed %llu\n", sims,
	       alpha, fd.family ? fd.family : 1, threshold, 1 - effect, effect * 100, (unsigned long long)seed);
	printf("%-12s %-10s %-8s %-8s %s\n", "procedure", "model", "size", "power", "half-width");
	for (int proc = 0; proc < NPROCEDURES; proc++)
		for (int k = 0; k < NMODELS; k++) {
			struct model md = { k, var, fd.units, fd.n, blocks, fd.nboots, fd.block, fd.start, fd.len };
			double hw0, hw, size, power;
			char *h;

			r.state = seed ^ ((uint64_t)k << 32); /* the same draws for every procedure */
			size = simulate(proc, &md, boots, 0, threshold, sims, &r, &hw0);
			power = simulate(proc, &md, boots, log(1 - effect), threshold, sims, &r, &hw);
			h = percent(hw);
			printf("%-12s %-10s %-8.3f %-8.3f %s\n", procedure_names[proc], model_names[k], size, power, h);
			free(h);
		}
	return 0;
}

/* The shipped variance of the declared comparison's primary endpoint when
 * no pilot is given: pulls, rfc-after against rfc-before on the RFC's duty
 * workload (2x2x1, 2-s runs), measured on the pilot copied to
 * run/tests/fixtures/pilot-duty (host.txt: 2026-12-06T04:08Z; 24 blocks over 10
 * boots, mostly 3 per boot, 8 boots holding both sides) from the log
 * ratio of each block, the pair alone: between boots T1, within a boot S2. */
#define DEFAULT_T1 0.0133
#define DEFAULT_S2 0.0358
#define DEFAULT_VARIANCE_SOURCE "shipped default: pulls, rfc-after / rfc-before on duty, pilot of 2026-12-06, 24 blocks over 10 boots"
#define POWER_SIMS 4000

void design_power(struct design_power *dp, int boots, int blocks, int family, double effect, double t1,
		  double s2)
{
	struct rng r = { BASE_SEED };
	/* one boot: its blocks are the units (analysis.c), T1 is common to all */
	struct model md = { MODEL_NORMAL, boots == 1 ? s2 : t1 + s2 / blocks, NULL, 0, 0, 0, NULL, NULL, NULL };
	int units = boots == 1 ? blocks : boots;
	double hw;

	dp->boots = boots;
	dp->blocks = blocks;
	dp->family = family ? family : 1;
	dp->effect = effect;
	dp->threshold = FAMILY_ALPHA / dp->family;
	dp->procedure = CONFIRMATORY_PROCEDURE;
	dp->cells = 0;
	dp->power = simulate(dp->procedure, &md, units, log(1 - effect), dp->threshold, POWER_SIMS, &r,
			     &dp->half_width);
	md.kind = MODEL_T3;
	dp->power_t3 = simulate(dp->procedure, &md, units, log(1 - effect), dp->threshold, POWER_SIMS, &r,
				&hw);
}

void effect_power(struct design_power *dp, int boots, int blocks, int cells, int bits, double effect,
		  double t1, double s2)
{
	struct rng r = { BASE_SEED };
	double scale = 2.0 / cells;
	struct model md = { MODEL_NORMAL, scale * (boots == 1 ? s2 : t1 + s2 / blocks), NULL, 0, 0, 0, NULL, NULL,
			    NULL };
	int units = boots == 1 ? blocks : boots;
	double hw;

	dp->boots = boots;
	dp->blocks = blocks;
	dp->family = bits; /* q: Holm over the design's bits (analysis.c) */
	dp->effect = effect;
	dp->threshold = FAMILY_ALPHA / bits;
	dp->procedure = PROC_SIGN;
	dp->cells = cells;
	dp->power = simulate(dp->procedure, &md, units, log(1 - effect), dp->threshold, POWER_SIMS, &r,
			     &dp->half_width);
	md.kind = MODEL_T3;
	dp->power_t3 = simulate(dp->procedure, &md, units, log(1 - effect), dp->threshold, POWER_SIMS, &r, &hw);
}

void print_design_power(FILE *f, const char *what, const struct design_power *dp, double t1, double s2,
			const char *source)
{
	char *h = percent(dp->half_width);
	char *design = dp->boots == 1
		? xasprintf("1 boot of %d block%s (the blocks are the units: the boot's own T1 is outside the interval)",
			    dp->blocks, dp->blocks == 1 ? "" : "s")
		: xasprintf("%d boots x %d block%s per boot", dp->boots, dp->blocks, dp->blocks == 1 ? "" : "s");
	char *variance = dp->boots == 1 ? xasprintf("%.4g = S2", s2)
		: xasprintf("%.4g = T1 %.4g + S2 %.4g / %d", t1 + s2 / dp->blocks, t1, s2, dp->blocks);

	if (dp->cells) /* a main effect: its q, Holm over the design's bits */
		fprintf(f, "%s: a %g%% change (ratio %.3g) in a main effect over %d cells with %s: power %.2f (%.2f if heavy-tailed, t3), %s test at Holm's first threshold over the design's %d bits %g / %d = %.3g (its q; never starred); expected interval half-width %s; unit variance 2/%d x the pair's %s (%s)\n",
			what, dp->effect * 100, 1 - dp->effect, dp->cells, design, dp->power, dp->power_t3,
			procedure_names[dp->procedure], dp->family, FAMILY_ALPHA, dp->family, dp->threshold, h,
			dp->cells, variance, source);
	else
		fprintf(f, "%s: a %g%% change (ratio %.3g) with %s: power %.2f (%.2f if heavy-tailed, t3), %s test at Holm's first threshold %g / %d = %.3g; expected interval half-width %s; unit variance %s (%s)\n",
			what, dp->effect * 100, 1 - dp->effect, design, dp->power, dp->power_t3,
			procedure_names[dp->procedure], FAMILY_ALPHA, dp->family, dp->threshold, h, variance,
			source);
	free(h);
	free(design);
	free(variance);
}

static void power_help(const struct opt_parser *p)
{
	(void)p;
	puts("usage: run/stats --power --boots N --blocks K [--family F] [--effect PCT] [--pilot DIR]\n"
	     "                         [--what TEXT] [--cells N] [--unit-sd SD]\n"
	     "       run/stats --power --plan PLAN [--effect PCT] [--pilot DIR]\n"
	     "The probability that N boots x K blocks per boot resolve a change of PCT (default\n"
	     "30%: a ratio of 0.7) in the declared comparison's primary endpoint at Holm's first\n"
	     "threshold 0.05 / F (F default 1), with the confirmatory test, simulated from the\n"
	     "unit variance T1 + S2 / K (N = 1: the K blocks of one boot are the units, variance\n"
	     "S2): DIR's two levels (run/plan-design), or without --pilot\n"
	     "the shipped default; and the expected half-width of the interval it prints. TEXT\n"
	     "starts the line (default \"power\").\n"
	     "--plan PLAN (build/matrix-plan's output): one line per compare record, \"compare A B:\n"
	     "...\", N, K and F from the plan: N its boots (1 when it has one boot, whose reps are\n"
	     "the units), K its reps / boots, F the declared family the report of the run will\n"
	     "use (analysis.c's declared_family: compare lines x topologies x workloads that\n"
	     "measure pulls; a crash workload measures nothing); \"no compare line: ...\" when the\n"
	     "plan declares nothing. run/matrix --dry-run prints these lines.\n"
	     "--cells N: instead, a main effect of a two-level design of N cells (a fraction's\n"
	     "or a full factorial's) over F bits (--family, default 1), tested as its q is (the\n"
	     "sign test at Holm's first threshold 0.05 / F): its per-block contrast has 2/N of\n"
	     "the pair's variance (cells varying alike and independently). With --plan, the\n"
	     "plan's fraction records add one such line each (N the fraction's cells, F its\n"
	     "bits, the effect 20% unless --effect).\n"
	     "--unit-sd SD: a unit's standard deviation of the log ratio (of a main effect's log\n"
	     "contrast with --cells: effects.csv's unit_sd of an earlier run) instead of a\n"
	     "pilot's two levels; not with --pilot or --plan.\n"
	     "Exit: 0 ok, 2 usage or bad input.");
}

/* The design a plan describes: its declared comparisons, their units and
 * blocks, and the family its report will adjust over. */
struct plan_design {
	int ncompares, boots, blocks, family;
	char **compares; /* "A B" */
	int nfractions;
	char **fractions; /* "K P CELLS" of each fraction record */
};

static void read_plan_design(const char *path, struct plan_design *pd)
{
	char *text = read_whole_file(path, NULL);
	long boots = 1, reps = 0;
	int topologies = 0, workloads = 0, line = 0;

	if (!text)
		die_input("%s: cannot read the plan", path);
	memset(pd, 0, sizeof(*pd));
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *ws, *kind = strtok_r(l, "\t", &ws), *a = strtok_r(NULL, "\t", &ws);
		char *b = strtok_r(NULL, "\t", &ws);

		line++;
		if (!kind)
			continue;
		if (!strcmp(kind, "topology"))
			topologies++;
		/* "workload crash" (tests) panics the guest: crashed rows, no study */
		else if (!strcmp(kind, "workload") && a && strncmp(a, "crash", 5))
			workloads++;
		else if (!strcmp(kind, "boots") && a)
			boots = strtol(a, NULL, 10);
		else if (!strcmp(kind, "reps") && a)
			reps = strtol(a, NULL, 10);
		else if (!strcmp(kind, "compare")) {
			if (!a || !b)
				die_input("%s:%d: a compare record wants two names", path, line);
			pd->compares = xrealloc(pd->compares, (pd->ncompares + 1) * sizeof(char *));
			pd->compares[pd->ncompares++] = xasprintf("%s %s", a, b);
		} else if (!strcmp(kind, "fraction")) {
			/* fraction K P RESOLUTION CELLS */
			char *resolution = strtok_r(NULL, "\t", &ws), *cells = strtok_r(NULL, "\t", &ws);

			if (!a || !b || !resolution || !cells)
				die_input("%s:%d: a fraction record wants K P RESOLUTION CELLS", path, line);
			pd->fractions = xrealloc(pd->fractions, (pd->nfractions + 1) * sizeof(char *));
			pd->fractions[pd->nfractions++] = xasprintf("%s %s %s", a, b, cells);
		}
	}
	free(text);
	if (reps < 1 || boots < 1)
		die_input("%s: no reps or boots record: not a plan of build/matrix-plan", path);
	/* one boot: its blocks are the units (analysis.c) */
	pd->boots = boots < 2 ? 1 : (int)boots;
	pd->blocks = boots < 2 ? (int)reps : (int)(reps / boots > 0 ? reps / boots : 1);
	pd->family = declared_family(pd->ncompares, topologies * workloads);
}

/* pjt-stats --power: run/matrix --dry-run's power lines. */
int power_main(int argc, char **argv)
{
	struct opt_parser opt;
	int boots = 0, blocks = 0, family = 1, cells = 0;
	double effect = 0.3, t1 = DEFAULT_T1, s2 = DEFAULT_S2;
	int effect_given = 0;
	double unit_sd = 0;
	const char *pilot = NULL, *what = "power", *plan = NULL;
	char *source = DEFAULT_VARIANCE_SOURCE;
	struct design_power dp;
	struct plan_design pd;

	opt_init(&opt, "run/stats --power", "boots= blocks= family= effect= pilot= what= plan= cells= unit-sd=", power_help,
		 argc, argv);
	while (opt_next(&opt)) {
		if (opt_is(&opt, "boots"))
			boots = (int)number_option(&opt, 1, 1000);
		else if (opt_is(&opt, "blocks"))
			blocks = (int)number_option(&opt, 1, 1000);
		else if (opt_is(&opt, "family"))
			family = (int)number_option(&opt, 1, 10000);
		else if (opt_is(&opt, "effect")) {
			effect = number_option(&opt, 0.1, 99) / 100;
			effect_given = 1;
		}
		else if (opt_is(&opt, "pilot"))
			pilot = opt.value;
		else if (opt_is(&opt, "what"))
			what = opt.value;
		else if (opt_is(&opt, "plan"))
			plan = opt.value;
		else if (opt_is(&opt, "cells"))
			cells = (int)number_option(&opt, 4, 256);
		else if (opt_is(&opt, "unit-sd"))
			unit_sd = number_option(&opt, 1e-6, 10);
	}
	if (opt.noperands || (plan ? boots || blocks || family != 1 : !boots || !blocks))
		opt_error(opt.tool, "wants --boots N and --blocks K, or --plan PLAN (without them), and no operand");
	if (unit_sd && (pilot || plan))
		opt_error(opt.tool, "--unit-sd gives the variance itself: not with --pilot or --plan");
	if (pilot && !pilot_variance(analyse_folder(pilot), pilot, &t1, &s2, &source))
		die_input("run/stats --power: %s: no declared comparison with a two-level variance on its primary endpoint (a compare line, two boots)",
			  pilot);
	if (unit_sd) {
		/* a unit's variance, given: as T1 alone, a main effect's scaled
		 * back to the pair's (effect_power takes 2/N of it) */
		t1 = unit_sd * unit_sd * (cells ? cells / 2.0 : 1);
		s2 = 0;
		source = xasprintf("--unit-sd %g: a unit's standard deviation of the log %s, given", unit_sd,
				   cells ? "contrast (effects.csv's unit_sd)" : "ratio");
	}
	if (!plan) {
		if (cells)
			effect_power(&dp, boots, blocks, cells, family, effect, t1, s2);
		else
			design_power(&dp, boots, blocks, family, effect, t1, s2);
		print_design_power(stdout, what, &dp, t1, s2, source);
		return 0;
	}
	read_plan_design(plan, &pd);
	if (!pd.ncompares)
		puts("no compare line: no declared question, every comparison of the report will be exploratory (marginal, not adjusted)");
	for (int i = 0; i < pd.ncompares; i++) {
		char *line = xasprintf("compare %s", pd.compares[i]);

		design_power(&dp, pd.boots, pd.blocks, pd.family, effect, t1, s2);
		print_design_power(stdout, line, &dp, t1, s2, source);
		free(line);
		free(pd.compares[i]);
	}
	free(pd.compares);
	/* each fraction's main effects, at their q's threshold: a 20% change,
	 * the pulls target of the per-bit question */
	for (int i = 0; i < pd.nfractions; i++) {
		int k, p, n;
		char *line;

		if (sscanf(pd.fractions[i], "%d %d %d", &k, &p, &n) != 3 || n < 4 || n > 256)
			die_input("%s: fraction record '%s': want K P CELLS", plan, pd.fractions[i]);
		line = xasprintf("fraction 2^(%d-%d) main effect", k, p);
		effect_power(&dp, pd.boots, pd.blocks, n, k, effect_given ? effect : 0.2, t1, s2);
		print_design_power(stdout, line, &dp, t1, s2, source);
		free(line);
		free(pd.fractions[i]);
	}
	free(pd.fractions);
	return 0;
}
