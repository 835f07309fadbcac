/* pjt-stats: the statistics behind run/stats, run/report and run/compare. */
#include "pjt-stats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
"usage: pjt-stats [-o OUTDIR] [-q] DIR_OR_CSV   summary.csv, effects.csv, plots-data/\n"
"       pjt-stats --report DIR                  report.md and report.html (after the charts)\n"
"       pjt-stats --compare A B                 cell-by-cell comparison of two results folders\n"
"       pjt-stats --random SEED COUNT           the generator's first outputs (for its test)\n"
"\n"
"DIR_OR_CSV is a results folder holding runs.csv, or a runs.csv file; the\n"
"outputs go beside it unless -o names another folder. -q drops the notes\n"
"about excluded (crashed or failed) runs from stderr.\n"
"\n"
"Statistics (per topology x workload x combo x metric, ok runs only):\n"
"  quartiles    Hyndman-Fan type 7 (R's default): h = (n-1)p, linear interpolation\n"
"  95% CI       n >= 6: exact order-statistic interval [x(j), x(n+1-j)] from\n"
"               Binomial(n, 1/2), coverage >= 95%; 2 <= n < 6: percentile bootstrap\n"
"               of the median; n < 2: none\n"
"  ratios       median(combo) / median(stock or rfc-before), percentile bootstrap of\n"
"               medians, both sides resampled; marker * when the CI excludes 1\n"
"  effects      factorial main effects and two-way interactions of cell medians,\n"
"               bootstrap CI; marker * when the CI excludes 0\n"
"  bootstrap    2000 resamples; the interval is the 51st and 1950th sorted value;\n"
"               generator splitmix64 seeded with 20121025 xor FNV-1a-64 of a key\n"
"               naming the statistic, so results repeat exactly on any machine\n"
"\n"
"Outputs:\n"
"  summary.csv  topology,workload,combo,features,metric,n,n_crashed,n_failed,median,q1,q3,\n"
"               min,max,ci_lo,ci_hi,ci_method,ratio_to_stock[,_lo,_hi,_sig],\n"
"               ratio_to_rfc_before[,_lo,_hi,_sig]; lb_pulls_total = idle+busy+newidle\n"
"  effects.csv  topology,workload,metric,term (BIT or BIT:BIT),order (1 main, 2 interaction),\n"
"               design,cells,baseline (median of the none cell),effect,ci_lo,ci_hi,sig\n"
"  plots-data/  charts.txt (each chart made or skipped, with the reason) and chart data\n"
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
	const char *slash = strrchr(dir_or_csv, '/');

	*dir = slash ? xasprintf("%.*s", (int)(slash - dir_or_csv), dir_or_csv) : xstrdup(".");
	if (!**dir) {
		free(*dir);
		*dir = xstrdup("/");
	}
	return xstrdup(dir_or_csv);
}

static void need_runs(const char *csv)
{
	if (access(csv, R_OK))
		die_input("pjt-stats: %s: %s", csv, strerror(errno));
}

static int summarise(const char *input, const char *outdir, int notes)
{
	char *dir, *csv = runs_csv_of(input, &dir);
	struct run_table *t;
	struct analysis *a;

	need_runs(csv);
	t = read_runs(csv);
	a = analyse(t, notes);
	if (outdir) {
		make_dir(outdir);
		free(dir);
		dir = xstrdup(outdir);
	}
	if (chdir(dir))
		die_system("cannot enter %s", dir);
	write_summary(a, "summary.csv");
	write_effects(a, "effects.csv");
	write_plot_data(a, ".");
	return 0;
}

static int report(const char *dir)
{
	char *csv = xasprintf("%s/runs.csv", dir);
	struct analysis *a;

	need_runs(csv);
	a = analyse(read_runs(csv), 0);
	write_report(a, dir);
	return 0;
}

static int print_random(const char *seed_text, const char *count_text)
{
	char *end1, *end2;
	struct rng r;
	long count;

	r.state = strtoull(seed_text, &end1, 0);
	count = strtol(count_text, &end2, 10);
	if (*end1 || *end2 || !*seed_text || count < 0) {
		fputs(usage, stderr);
		return EXIT_BAD_INPUT;
	}
	while (count--)
		printf("%016" PRIx64 "\n", rng_next(&r));
	return 0;
}

int main(int argc, char **argv)
{
	const char *outdir = NULL;
	int notes = 1, i = 1;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--report"))
		return report(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "--compare"))
		return compare_results(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "--random"))
		return print_random(argv[2], argv[3]);
	for (; i < argc - 1; i++) {
		if (!strcmp(argv[i], "-q"))
			notes = 0;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc - 1)
			outdir = argv[++i];
		else
			break;
	}
	if (i != argc - 1 || argv[i][0] == '-') {
		fputs(usage, stderr);
		return EXIT_BAD_INPUT;
	}
	return summarise(argv[i], outdir, notes);
}
