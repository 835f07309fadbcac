/* pjt-stats: the statistics behind run/stats, run/report and run/compare. */
#include "pjt-stats.h"
#include "drift.h"
#include "options.h" /* common/: the C tools' command line */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
"usage: run/stats [-o OUTDIR] [-q] [--declare COMBO,REF]... DIR_OR_CSV\n"
"                                               summary.csv, summary.json, effects.csv,\n"
"                                               exercised.csv, comparisons.csv, plots-data/\n"
"       run/stats --report DIR                  the same in DIR, and report.md, report.html\n"
"                                               with a marker where each chart goes\n"
"       run/stats --embed DIR                   put the drawn charts (DIR/charts/*.png) in\n"
"                                               place of the markers (no analysis)\n"
"       run/stats --compare [options] BASE A ... a baseline folder against others: run/compare\n"
"                                               (options and exit codes: run/compare --help)\n"
"       run/stats --drift DIR                   pulls by the run's position in its boot: the\n"
"                                               slope, each drift candidate's (state_* columns)\n"
"                                               and the declared comparisons from each half of\n"
"                                               the boots (see drift.c)\n"
"       run/stats --random SEED COUNT           the generator's first outputs (for its test)\n"
"       run/stats --units V...                  sign, signed-rank and paired-t on the units V\n"
"                                               (log ratios): estimate, interval, level, p\n"
"       run/stats --procedures [options] DIR    the procedures' size, power and half-width on\n"
"                                               DIR's boots (run/stats --procedures --help)\n"
"       run/stats --power --boots N --blocks K | --plan PLAN  a design's power for a\n"
"                                               stated change (run/stats --power --help)\n"
"       run/stats --coverage KIND N REPS SEED   simulated coverage (for the tests): KIND median,\n"
"                                               ratio (paired, lognormal blocks), boots (N boots\n"
"                                               of 3 blocks, boot-to-boot variance) or pooled (the\n"
"                                               same, blocks as units: what boots avoid); prints the\n"
"                                               claimed level, the empirical coverage and the\n"
"                                               rate of p <= 0.05 (the null is true)\n"
"       run/stats -h | --help | --version      this text; the project's and the series' version\n"
"\n"
"Options may come before or after DIR_OR_CSV, as -o DIR, -oDIR, --declare C,R or\n"
"--declare=C,R; \"--\" ends them.\n"
"run/stats builds build/pjt-stats when needed and runs it with the same\n"
"arguments. DIR_OR_CSV is a results folder holding runs.csv, or a runs.csv file; the\n"
"outputs go beside it unless -o names another folder. -q drops the notes\n"
"about excluded (crashed or failed) runs from stderr. Columns are read by\n"
"name; boot, kernel_sha256, image_sha256, host_load1, host_cpu_busy are\n"
"optional (no boot column: one boot). Counts must be whole decimal numbers,\n"
"measurements numbers >= 0, empty = not measured; a seq seen twice, or a\n"
"combination twice in one block (boot, rep), is an error.\n"
"\n"
"Statistics (per topology x workload x combination x metric, ok runs only):\n"
"  quartiles   Hyndman-Fan type 7 (R's default): h = (n-1)p, linear interpolation\n"
"  interval    of a median: order statistics (k, n+1-k), the largest k whose exact\n"
"              coverage 1 - 2 P(Bin(n,1/2) <= k-1) is >= 95%; n <= 5: (min, max) at its\n"
"              own level (5: 93.75%, 4: 87.5%, 3: 75%, 2: 50%); ci_level says which;\n"
"              the runs are its units (boot-to-boot variance only in the ratios)\n"
"  ratios      paired within blocks (boot, rep): exp(median of log(x / x_ref)) (declared:\n"
"              the Hodges-Lehmann estimate, see tests); a count\n"
"              is never shifted: per boot the ratio of its summed counts, a unit 0 on\n"
"              one side a ratio of 0 or unbounded; a side 0 in every unit: no ratio,\n"
"              \"0 against 46\" (medians per run) and the test of the counts; a 0\n"
"              in another metric drops its block (the note says so); its\n"
"              interval is the same rule over the blocks, or over the boots (each\n"
"              boot's median log ratio) when the pairs come from 2 or more boots, so\n"
"              boot-to-boot variance is inside; references by feature set: stock (no\n"
"              bit), rfc-before, rfc-pelt (decomposition, rfc-after only)\n"
"  effects     every 2^k design (k >= 2 bits, all other bits fixed): main effects and\n"
"              two-way interactions per block on the log scale (a block with a 0 dropped),\n"
"              reported as ratios (exp of the contrast; 1 = no effect; A:B the ratio\n"
"              of ratios, A's ratio with B over A's without B); units and interval as\n"
"              for ratios. Regular fractions too, found from the combinations present\n"
"              (closed under symmetric difference, resolution 3 or more: no two main\n"
"              effects aliased): each main effect, and one two-way interaction per\n"
"              alias chain that holds no main effect, with its aliases of up to two bits\n"
"  tests       a declared comparison (--declare, the matrix's compare lines): the exact\n"
"              Wilcoxon signed-rank test of its units (midranks for ties, a unit at\n"
"              exactly 1 ranked but in neither sum: Pratt), the Hodges-Lehmann estimate\n"
"              (median of the Walsh averages) and the Walsh-average interval the test\n"
"              inverts, at its exact level (8 boots: 96.1%); chosen by measurement\n"
"              (run/stats --procedures): it kept its size on resampled real boots where\n"
"              the paired t did not, and resolves without unanimity; a count unit at\n"
"              ratio 0 or unbounded keeps the sign test. Every other ratio and effect:\n"
"              the exact sign test, the test the median's interval inverts\n"
"  family      per declared comparison and study (topology x workload) one primary\n"
"              endpoint, the first primary metric the study measured in run/contract/\n"
"              columns order (lb_pulls_total: the RFC's headline); these are one\n"
"              family, Holm at 5%: q, and sig * when q <= 0.05 (one whose pairs come\n"
"              from one boot of several is untested, p = 1). The study's other primary\n"
"              metrics (migrations, records_per_s, wakeup_p99_us, ops_per_s) are\n"
"              secondary: tested in that order after their primary endpoint, at its\n"
"              level, stopping at the first unresolved (a fixed sequence: the\n"
"              familywise error stays at 5%); comparisons.csv labels them \"secondary\n"
"              (fixed sequence)\". Every other ratio, effect and metric: its marginal\n"
"              p, never *; no q, except a design's main effects of one metric: Holm\n"
"              over that design's bits (effects.csv q)\n"
"\n"
"Outputs:\n"
"  summary.csv topology,workload,combo,features,metric,primary,n,n_crashed,n_failed,\n"
"              median,q1,q3,min,max,ci_lo,ci_hi,ci_level,ci_method, then for R in\n"
"              ratio_to_stock, ratio_to_rfc_before, ratio_to_rfc_pelt: R,R_lo,R_hi,\n"
"              R_level,R_units,R_unit,R_p,R_q,R_sig,R_note; levels in percent;\n"
"              lb_pulls_total = idle+busy+newidle\n"
"  summary.json the run's provenance (matrix, seed, duration, topologies, kernel and image\n"
"              sha256, series-version.txt, host.txt, host load, date, runs, boots: from the\n"
"              results folder's files, null when absent) and summary.csv's cells\n"
"  effects.csv topology,workload,metric,primary,term (BIT or BIT:BIT),order,design,base,\n"
"              cells,baseline (median of the base cell),effect,ci_lo,ci_hi,ci_level,\n"
"              units,unit,p,q,sig,note,unit_sd (the units' standard deviation of the\n"
"              effect's log contrast: run/stats --power --unit-sd),aliases (a fraction's: the term's aliases of\n"
"              up to two bits, \" = \"-separated; empty for a full design),exercised (a\n"
"              main effect: exercised.csv's verdict for its bit's point; \"no counter\"\n"
"              for PJT_CLASSIFY, LEGACY_LOAD; empty for an interaction)\n"
"  exercised.csv topology,workload,point,bit,runs,evaluated,differed,applied,\n"
"              runs_differed,verdict: each decision counter summed over the ok runs\n"
"              with counting on; verdict differed (differed > 0 in some run), reached\n"
"              (evaluated, never differed), not reached, counting off (no run counted)\n"
"  plots-data/ charts.txt (each chart made or skipped, with the reason) and chart data\n"
"\n"
"Exit: 0 ok, 1 system error, 2 usage or bad input (FILE:LINE: message).\n";

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *runs_csv_of(const char *dir_or_csv, char **dir)
{
	if (is_dir(dir_or_csv)) {
		*dir = xstrdup(dir_or_csv);
		return xasprintf("%s/runs.csv", dir_or_csv);
	}
	*dir = provenance_dir(dir_or_csv);
	return xstrdup(dir_or_csv);
}

/* A missing runs.csv is a wrong operand: a usage error in run/stats' name. */
static void need_runs(const char *csv)
{
	if (access(csv, R_OK))
		opt_error("run/stats", "%s: %s (want a results folder or its runs.csv)", csv, strerror(errno));
}

/* One analysis; the report, when asked, from the same one. The declared
 * comparisons: the folder's (plan.txt, *.matrix), then --declare's. */
static int summarise(const char *input, const char *outdir, int notes, int with_report,
		     struct declared *extra, int nextra)
{
	char *dir, *csv = runs_csv_of(input, &dir);
	struct analysis *a;
	struct provenance *prov;
	struct declared *declared;
	int nd;
	char *cwd;

	need_runs(csv);
	nd = read_declared(dir, &declared);
	declared = xrealloc(declared, (nd + nextra + 1) * sizeof(*declared));
	for (int i = 0; i < nextra; i++) {
		int seen = 0;

		/* a question declared twice (the folder's and --declare) is one test */
		for (int d = 0; d < nd && !seen; d++)
			seen = !strcmp(declared[d].combo, extra[i].combo) &&
			       !strcmp(declared[d].reference, extra[i].reference);
		if (!seen)
			declared[nd++] = extra[i];
	}
	a = analyse(read_runs(csv), notes, declared, nd);
	prov = read_provenance(dir, a->table);
	a->settle_s = isnan(prov->settle_s) ? 1 : prov->settle_s;
	if (outdir) {
		make_dir(outdir);
		free(dir);
		dir = xstrdup(outdir);
	}
	if (!(cwd = getcwd(NULL, 0)))
		die_system("getcwd");
	if (chdir(dir))
		die_system("cannot enter %s", dir);
	write_summary(a, "summary.csv");
	write_summary_json(a, prov, "summary.json");
	write_effects(a, "effects.csv");
	write_exercised(a, "exercised.csv");
	write_comparisons(a, "comparisons.csv");
	write_plot_data(a, ".");
	if (with_report)
		write_report(a, ".");
	if (chdir(cwd))
		die_system("cannot return to %s", cwd);
	free(cwd);
	return 0;
}

static int print_random(const char *seed_text, const char *count_text)
{
	char *end1, *end2;
	struct rng r;
	long count;

	r.state = strtoull(seed_text, &end1, 0);
	count = strtol(count_text, &end2, 10);
	if (*end1 || *end2 || !*seed_text || count < 0)
		opt_error("run/stats", "--random wants SEED COUNT, whole numbers, not '%s' '%s'", seed_text, count_text);
	while (count--)
		printf("%016" PRIx64 "\n", rng_next(&r));
	return 0;
}

/* Coverage of the intervals on simulated lognormal data with a known
 * median: what the test suite holds against the claimed level. */
int coverage_simulation(int argc, char **argv)
{
	const char *kind;
	long n, reps, seed;
	char *e1, *e2, *e3;
	struct rng r;
	long covered = 0, rejected = 0, tested = 0;
	double claimed = NAN, *x, *d;
	int *boot;

	if (argc != 6)
		return EXIT_BAD_INPUT;
	kind = argv[2];
	n = strtol(argv[3], &e1, 10);
	reps = strtol(argv[4], &e2, 10);
	seed = strtol(argv[5], &e3, 10);
	if (*e1 || *e2 || *e3 || n < 2 || n > 1000 || reps < 1 ||
	    (strcmp(kind, "median") && strcmp(kind, "ratio") && strcmp(kind, "boots") &&
	     strcmp(kind, "pooled")))
		return EXIT_BAD_INPUT;
	r.state = BASE_SEED ^ (uint64_t)seed;
	x = xmalloc(3 * n * sizeof(double));
	d = xmalloc(3 * n * sizeof(double));
	boot = xmalloc(3 * n * sizeof(int));
	for (long i = 0; i < reps; i++) {
		struct comparison c;
		const char *unit;
		int m = 0;

		if (!strcmp(kind, "median")) { /* true median 100 */
			struct interval ci;

			for (int j = 0; j < n; j++)
				x[j] = 100 * exp(0.5 * rng_normal(&r));
			sort_doubles(x, n);
			ci = median_interval(x, n);
			covered += ci.lo <= 100 && 100 <= ci.hi;
			claimed = ci.level;
			continue;
		}
		if (!strcmp(kind, "ratio")) { /* true ratio 1.2; block effects cancel */
			for (int j = 0; j < n; j++) {
				double block = exp(0.7 * rng_normal(&r));
				double ref = 100 * block * exp(0.3 * rng_normal(&r));
				double combo = 120 * block * exp(0.3 * rng_normal(&r));

				d[m] = log(combo / ref);
				boot[m++] = 0;
			}
			m = boot_units(d, boot, m, 1, &unit);
		} else { /* n boots of 3 blocks; the ratio varies from boot to boot */
			for (int b = 0; b < n; b++) {
				double shift = 0.3 * rng_normal(&r);

				for (int j = 0; j < 3; j++) {
					d[m] = log(1.2) + shift + 0.1 * rng_normal(&r);
					boot[m++] = b;
				}
			}
			/* pooled: the blocks as units, boot variance ignored */
			m = boot_units(d, boot, m, strcmp(kind, "pooled") ? n : 1, &unit);
		}
		comparison_of_units(&c, d, m, unit);
		covered += exp(c.lo) <= 1.2 && 1.2 <= exp(c.hi);
		claimed = c.level;
		/* the test's size: the same data shifted to a true ratio of 1 */
		for (int j = 0; j < m; j++)
			d[j] -= log(1.2);
		tested++;
		rejected += sign_test_p(d, m) <= 0.05;
	}
	printf("kind=%s n=%ld reps=%ld claimed=%.4f empirical=%.4f", kind, n, reps, claimed,
	       (double)covered / reps);
	if (tested)
		printf(" null_rejections=%.4f", (double)rejected / tested);
	putchar('\n');
	free(x);
	free(d);
	free(boot);
	return 0;
}

static void stats_help(const struct opt_parser *p)
{
	(void)p;
	fputs(usage, stdout);
}

/* pjt-stats --MODE ARG...: the mode is MODE (true) with WANT arguments. */
static int is_mode(int argc, char **argv, const char *mode, int want, const char *what)
{
	if (strcmp(argv[1], mode))
		return 0;
	if (argc - 2 != want)
		opt_error("run/stats", "%s wants %s", mode, what);
	return 1;
}

int main(int argc, char **argv)
{
	const char *outdir = NULL;
	struct declared *extra = xmalloc(argc * sizeof(*extra));
	int notes = 1, nextra = 0, report = 0;
	struct opt_parser opt;

	/* modes first: the rest of the command line is theirs */
	if (argc >= 2 && !strcmp(argv[1], "--plan-design"))
		return plan_design_main(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "--compare"))
		return compare_main(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "--procedures"))
		return procedures_main(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "--power"))
		return power_main(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "--units"))
		return units_main(argc - 2, argv + 2);
	if (argc >= 2 && is_mode(argc, argv, "--embed", 1, "a results folder"))
		return embed_charts(argv[2]);
	if (argc >= 2 && is_mode(argc, argv, "--drift", 1, "a results folder"))
		return drift_main(argv[2]);
	if (argc >= 2 && is_mode(argc, argv, "--domains", 1, "a results folder"))
		return print_domains(argv[2]);
	if (argc >= 2 && is_mode(argc, argv, "--random", 2, "SEED COUNT"))
		return print_random(argv[2], argv[3]);
	if (argc >= 2 && is_mode(argc, argv, "--coverage", 4, "KIND N REPS SEED")) {
		if (coverage_simulation(argc, argv))
			opt_error("run/stats", "--coverage wants KIND N REPS SEED: KIND median, ratio, boots or pooled; N 2..1000; REPS >= 1");
		return 0;
	}
	/* the analysis: options anywhere, --opt V or --opt=V, -oDIR */
	opt_init(&opt, "run/stats", "o= q declare= report", stats_help, argc - 1, argv + 1);
	while (opt_next(&opt)) {
		const char *val = opt.value;
		char *comma;

		if (opt_is(&opt, "q")) {
			notes = 0;
		} else if (opt_is(&opt, "report")) {
			report = 1;
		} else if (opt_is(&opt, "o")) {
			outdir = val;
		} else if (opt_is(&opt, "declare")) {
			comma = strchr(val, ',');
			if (!comma || comma == val || !comma[1])
				opt_error(opt.tool, "--declare wants COMBO,REFERENCE, not '%s'", val);
			extra[nextra].combo = xasprintf("%.*s", (int)(comma - val), val);
			extra[nextra++].reference = xstrdup(comma + 1);
		}
	}
	if (!opt.noperands)
		opt_error(opt.tool, "no DIR_OR_CSV given (a results folder or a runs.csv)");
	if (opt.noperands > 1)
		opt_error(opt.tool, "one DIR_OR_CSV only, not %d", opt.noperands);
	return summarise(opt.operands[0], outdir, notes, report, extra, nextra);
}
