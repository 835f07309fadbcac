/* run/compare BASE A [B ...]: a baseline results folder against N others
 * (other kernels, configurations or topologies of the same matrix), in the
 * manner of mmtests' compare-kernels.
 *
 * Cells are matched by (topology, workload, feature set); when a folder
 * and the baseline each ran one topology and they differ, by (workload,
 * feature set) across the two topologies, and the output says so. Runs of
 * two folders are not paired (other boots, maybe another kernel), so each
 * side's units are its boots (the median of the cell's runs in each boot)
 * when the cell's runs come from two or more boots, as everywhere in
 * pjt-stats, else its runs. Per cell and metric:
 *   ratio     exp of the Hodges-Lehmann shift of the log units (the median
 *             of all pairwise ratios folder/base), with the distribution-free
 *             interval inverted from the exact Mann-Whitney distribution, at
 *             its exact level (95.89% for 6 units a side); with a 0 among
 *             the units there are no logs: the ratio of the medians, no
 *             interval
 *   p         exact Mann-Whitney (rank-based, so the same on raw and log
 *             values; ties count one half)
 *   q         Benjamini-Hochberg over every comparison made (all folders x
 *             cells x metrics that have a p); * when q <= 5%
 * The geometric mean of a folder's ratios over all cells of a metric is a
 * summary of the table, not a test: it has no interval.
 *
 * --fail-above PCT: the gate's family is fixed: the primary metrics' comparisons
 * of each folder (whatever --all-metrics shows; the counts, pulls and
 * migrations, only with --gate-counts), Holm at 5% within each folder. A primary metric regressed when its Holm-adjusted p <= 0.05 and
 * its interval's bound nearest to 1 lies beyond PCT in the metric's worse
 * direction (metric_better() in analysis.c: lower is better for pulls,
 * migrations and wake-up latency, so lo > 1 + PCT; higher is better for
 * throughput, so hi < 1 - PCT): the interval, not the point estimate.
 * Inconclusive (exit 5) when nothing regressed but the design cannot
 * detect the threshold: the family's smallest possible p is above Holm's
 * first threshold, or some gated interval still reaches beyond PCT on the
 * worse side (or has none). A count 0 in every unit of the base that rose
 * regressed on its Holm p alone. Fewer than --min-boots distinct boots a
 * side (not runs: the runs of one boot share its state): inconclusive,
 * never a regression. */
#include "pjt-stats.h"
#include "options.h" /* common/: the C tools' command line */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_REGRESSION 1
#define EXIT_REFUSED 3
#define EXIT_COMPARE_SYSTEM 4
#define EXIT_INCONCLUSIVE 5
#define GATE_MIN_UNITS 6     /* --fail-above's default minimum boots a side */

static const char compare_usage[] =
"usage: run/compare [options] BASE A [B ...]\n"
"\n"
"BASE and A, B, ... are results folders (or runs.csv files) of the same matrix:\n"
"other kernels, configurations or topologies. Every cell (topology, workload,\n"
"feature set) of BASE is compared with the same cell of each other folder.\n"
"\n"
"Options:\n"
"  --csv FILE        also write every comparison and the geometric means as CSV\n"
"  --json FILE       also write the metadata, comparisons, geometric means and\n"
"                    the verdict as JSON\n"
"  --fail-above PCT  exit 1 when a gated metric regressed beyond PCT (\"5%%\" or\n"
"                    \"5\"): its family is fixed, the primary metrics of each\n"
"                    folder but the counts (see --gate-counts; not\n"
"                    --all-metrics), Holm at 5%% within the folder;\n"
"                    regressed = Holm p <= 0.05 and the interval's bound nearest\n"
"                    1 beyond 1 + PCT where lower is better, below 1 - PCT where\n"
"                    higher is better (the interval, not the point estimate);\n"
"                    a count that rose from 0 in every unit regressed on its p;\n"
"                    exit 5, inconclusive, when nothing regressed but the design\n"
"                    cannot detect PCT (the smallest possible p misses Holm's\n"
"                    threshold, an interval still reaches beyond PCT, or a cell\n"
"                    has fewer than --min-boots boots a side)\n"
"  --min-boots N     with --fail-above, a cell with fewer than N distinct boots a\n"
"                    side (runs of one boot are not boots) is never a regression:\n"
"                    inconclusive, exit 5 (default 6)\n"
"  --gate-counts     with --fail-above, gate pulls and migrations too (more is\n"
"                    worse); without it they are described, not gated: fewer\n"
"                    pulls is not better in itself\n"
"  --all-metrics     compare every measured metric, not only the primary ones (the\n"
"                    family of the adjustment grows with them)\n"
"  --strict          refuse (exit 3) folders whose matrix differs from BASE's in\n"
"                    anything but its name and seed (kernel, image and series may\n"
"                    differ: that is what is compared)\n"
"\n"
"Metadata: each folder's matrix (plan.txt, else its *.matrix file, else the\n"
"cells of runs.csv), its duration and topologies are checked against BASE's;\n"
"every difference is named. Kernel, image and series version are listed.\n"
"\n"
"Statistics, per cell and metric:\n"
"  units     the boots of each side (the median of the cell's runs in each boot)\n"
"            when the cell's runs come from 2 or more boots, else its runs\n"
"  ratio     exp of the Hodges-Lehmann shift of log units (the median of all\n"
"            pairwise ratios folder/BASE), with the distribution-free interval\n"
"            inverted from the exact Mann-Whitney distribution at its own level\n"
"            (6 units a side: 95.89%%); with a 0 among the units, the ratio of the\n"
"            medians and no interval\n"
"  p, q      exact Mann-Whitney p; q: Benjamini-Hochberg over every comparison\n"
"            made (folders x cells x metrics with a p); * when q <= 0.05; the\n"
"            output says how many comparisons the family holds\n"
"  geomean   per folder and metric, the geometric mean of its ratios over all\n"
"            cells: a summary, no interval\n"
"  direction of the primary metrics (--fail-above's \"worse\"):\n"
"            %s\n"
"\n"
"  -h, --help        this text\n"
"  --version         the project's and the series' version\n"
"Options go anywhere on the command line, as --json F or --json=F; \"--\" ends\n"
"them.\n"
"\n"
"Exit: 0 no regression beyond --fail-above (or no --fail-above), 1 a gated\n"
"metric regressed beyond it, 5 inconclusive (--fail-above: the design cannot\n"
"detect PCT, or too few boots), 2 usage or bad input (a folder without a\n"
"readable runs.csv, a malformed runs.csv), 3 refused: a folder shares no cell\n"
"with BASE (nothing to compare), or with --strict its matrix differs;\n"
"4 system error (an output that cannot be written). A folder given twice, or a\n"
"copy of another, is warned about on stderr; so is a folder whose combinations\n"
"booted different kernels (runs.csv kernel_sha256; FILE:LINE of the first\n"
"change): its cells are still compared with BASE's, but a ratio between two of\n"
"its combinations measures the builds as well as the bits.\n";

struct folder {
	const char *arg;
	char *label;             /* "base", "A", "B", ... */
	struct analysis *a;
	struct provenance *prov;
	int source;              /* metadata source shared with the base */
	int across_topology;     /* cells matched across two different topologies */
	int ncommon;             /* cells with a value in both */
	int ndiffs, nstrict;
	char **diffs;
	int nunmatched;
	char **unmatched;        /* "only in base: ..." / "only in A: ..." */
	int ncompared, nsig, nworse, nbetter;
	char *real_csv;          /* runs.csv's resolved path */
	uint64_t csv_hash;       /* of its bytes: a copy of another folder */
};

struct cmp {                 /* one folder against the base: a cell, a metric */
	int metric;              /* index into compared metric names */
	int study, group;        /* in the base analysis */
	int folder;
	int present;             /* the folder has the cell with values */
	int n_base, n;           /* units */
	const char *unit_base, *unit;
	double median_base, median;
	double ratio, lo, hi, level, p, min_p, q;
	int sig, change, regressed;
	int boots_base, boots;   /* distinct boots of each side: the gate's units */
	int from_zero;           /* a count 0 in every unit of one side: 1 base, -1 the folder */
	double gate_p;           /* Holm within the folder's gated comparisons; NaN: not gated */
	int gate_open;           /* gated, not regressed, but PCT not excluded */
	int too_few_boots;       /* gated, fewer than --min-boots boots a side: never regressed */
	const char *note;
};

struct compare {
	int nfolders;
	struct folder *f;        /* f[0] is the base */
	int nmetrics;
	char **metrics;
	int ncmp, cap;
	struct cmp *c;
	int family, nsig, nregressed, ninconclusive, gate_family_min, gate_unresolvable;
	int min_boots, ntoo_few, gate_counts;
	double fail_above;       /* fraction; NaN: no gate */
	double best_min_p;       /* smallest p any comparison can reach */
	int all_metrics, strict;
};

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void load(struct folder *f, const char *arg)
{
	char *csv = is_dir(arg) ? xasprintf("%s/runs.csv", arg) : xstrdup(arg);
	char *dir = is_dir(arg) ? xstrdup(arg) : provenance_dir(arg);

	if (access(csv, R_OK))
		die_input("run/compare: %s: %s (a results folder must hold runs.csv)", csv, strerror(errno));
	size_t length;
	char *bytes = read_whole_file(csv, &length);

	f->arg = arg;
	f->real_csv = realpath(csv, NULL);
	f->csv_hash = bytes ? hash_bytes(bytes, length) : 0;
	free(bytes);
	f->a = analyse(read_runs(csv), 1, NULL, 0);
	f->prov = read_provenance(dir, f->a->table);
	free(dir);
	free(csv);
}

/* A feature set in a canonical spelling: the bits sorted, "none" for none. */
static char *canonical_features(const char *features)
{
	char *copy = xstrdup(features), *word, *save, **words = NULL, *out;
	int n = 0;

	for (word = strtok_r(copy, "+", &save); word; word = strtok_r(NULL, "+", &save))
		if (strcmp(word, "none")) {
			words = xrealloc(words, (n + 1) * sizeof(char *));
			words[n++] = word;
		}
	for (int i = 1; i < n; i++) /* insertion sort: a handful of bits */
		for (int j = i; j > 0 && strcmp(words[j - 1], words[j]) > 0; j--) {
			char *t = words[j];

			words[j] = words[j - 1];
			words[j - 1] = t;
		}
	out = xstrdup(n ? "" : "none");
	for (int i = 0; i < n; i++) {
		char *next = xasprintf("%s%s%s", out, i ? "+" : "", words[i]);

		free(out);
		out = next;
	}
	free(words);
	free(copy);
	return out;
}

static int same_features(const char *x, const char *y)
{
	char *cx = canonical_features(x), *cy = canonical_features(y);
	int same = !strcmp(cx, cy);

	free(cx);
	free(cy);
	return same;
}

static const struct study *matching_study(const struct folder *f, const struct study *like)
{
	for (int s = 0; s < f->a->nstudies; s++)
		if ((f->across_topology || !strcmp(f->a->studies[s].topology, like->topology)) &&
		    !strcmp(f->a->studies[s].workload, like->workload))
			return &f->a->studies[s];
	return NULL;
}

static int matching_group(const struct folder *f, const struct study *st, const char *features)
{
	for (int g = 0; st && g < st->ngroups; g++)
		if (same_features(f->a->combos[st->groups[g].combo].features, features))
			return g;
	return -1;
}

static void add_string(char ***list, int *n, char *s)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(char *));
	(*list)[(*n)++] = s;
}

/* ---- metadata ---- */

static int compare_strings(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The values of one kind of record, sorted. */
static int values_of(const struct provenance *p, int src, const char *kind, char ***out)
{
	int n = 0;

	*out = xmalloc((p->nrec[src] + 1) * sizeof(char *));
	for (int i = 0; i < p->nrec[src]; i++)
		if (!strcmp(p->rec[src][i].kind, kind))
			(*out)[n++] = p->rec[src][i].value;
	qsort(*out, n, sizeof(char *), compare_strings);
	return n;
}

static char *joined(char **v, int n, int quote)
{
	char *s = xstrdup("");

	for (int i = 0; i < n; i++) {
		char *next = xasprintf(quote ? "%s%s'%s'" : "%s%s%s", s, i ? ", " : "", v[i]);

		free(s);
		s = next;
	}
	return s;
}

/* One difference of one kind of record, or NULL when the same. */
static char *kind_difference(const struct folder *base, const struct folder *f, const char *kind)
{
	char **x, **y, **only_x, **only_y, *text = NULL;
	int nx = values_of(base->prov, f->source, kind, &x), ny = values_of(f->prov, f->source, kind, &y);
	int i = 0, j = 0, ox = 0, oy = 0;

	only_x = xmalloc((nx + 1) * sizeof(char *));
	only_y = xmalloc((ny + 1) * sizeof(char *));
	while (i < nx || j < ny) { /* both sorted: a merge */
		int c = i == nx ? 1 : j == ny ? -1 : strcmp(x[i], y[j]);

		if (c < 0)
			only_x[ox++] = x[i++];
		else if (c > 0)
			only_y[oy++] = y[j++];
		else
			i++, j++;
	}
	if (ox || oy) {
		char *a = joined(only_x, ox, 1), *b = joined(only_y, oy, 1);

		if (nx == 1 && ny == 1)
			text = xasprintf("%s: %s in %s, %s in %s", kind, a, base->label, b, f->label);
		else
			text = xasprintf("%s: %s%s%s%s%s%s%s%s", kind, ox ? "only in " : "", ox ? base->label : "",
					 ox ? ": " : "", a, ox && oy ? "; " : "", oy ? "only in " : "",
					 oy ? f->label : "", oy ? ": " : "");
		if (oy && !(nx == 1 && ny == 1)) {
			char *full = xasprintf("%s%s", text, b);

			free(text);
			text = full;
		}
		free(a);
		free(b);
	}
	free(only_x);
	free(only_y);
	free(x);
	free(y);
	return text;
}

/* The kinds of record, duration and topology first. */
static int kinds_of(const struct folder *base, const struct folder *f, const char ***out)
{
	static const char *const first[] = { "duration_ms", "duration", "topology", "smp" };
	const char **kinds = xmalloc((base->prov->nrec[f->source] + f->prov->nrec[f->source] + 4) * sizeof(char *));
	int n = 0;

	for (int i = 0; i < 4; i++)
		kinds[n++] = first[i];
	for (int side = 0; side < 2; side++) {
		const struct provenance *p = side ? f->prov : base->prov;

		for (int i = 0; i < p->nrec[f->source]; i++) {
			int seen = 0;

			for (int k = 0; k < n && !seen; k++)
				seen = !strcmp(kinds[k], p->rec[f->source][i].kind);
			if (!seen)
				kinds[n++] = p->rec[f->source][i].kind;
		}
	}
	*out = kinds;
	return n;
}

static void check_metadata(struct compare *c, struct folder *f)
{
	const struct folder *base = &c->f[0];
	const char **kinds;
	int nkinds;

	for (f->source = 0; f->source < NSOURCES; f->source++)
		if (base->prov->have[f->source] && f->prov->have[f->source])
			break;
	nkinds = kinds_of(base, f, &kinds);
	for (int k = 0; k < nkinds; k++) {
		char *d = kind_difference(base, f, kinds[k]);

		if (!d)
			continue;
		add_string(&f->diffs, &f->ndiffs, d);
		f->nstrict += strcmp(kinds[k], "name") && strcmp(kinds[k], "seed");
	}
	free(kinds);
	if (f->source != SRC_RUNS) { /* runs.csv may lack cells the plan has (a run stopped early) */
		int keep = f->source;

		for (int k = 0; k < 3; k++) {
			static const char *const kinds3[] = { "topology", "workload", "combo" };
			char *d;

			f->source = keep;
			if ((d = kind_difference(base, f, kinds3[k]))) {
				free(d); /* named already */
				continue;
			}
			f->source = SRC_RUNS;
			if ((d = kind_difference(base, f, kinds3[k]))) {
				char *full = xasprintf("runs.csv %s", d);

				free(d);
				add_string(&f->diffs, &f->ndiffs, full);
				f->nstrict++;
			}
		}
		f->source = keep;
	}
}

/* Cells are matched by topology when the two folders share one; a folder
 * that ran one other topology than the base's one is matched across them. */
static void choose_topology_matching(struct compare *c, struct folder *f)
{
	char **tb, **tf;
	int nb = column_values(c->f[0].a->table, "topology", &tb);
	int nf = column_values(f->a->table, "topology", &tf), shared = 0;

	for (int i = 0; i < nb; i++)
		for (int j = 0; j < nf; j++)
			shared |= !strcmp(tb[i], tf[j]);
	f->across_topology = !shared && nb == 1 && nf == 1;
	if (f->across_topology)
		add_string(&f->diffs, &f->ndiffs,
			   xasprintf("cells are matched across topologies: %s ran %s, %s ran %s",
				     c->f[0].label, tb[0], f->label, tf[0]));
	free(tb);
	free(tf);
}

/* Names cells one side has and the other lacks, and combinations whose
 * names differ for the same bits. */
static void match_cells(struct compare *c, struct folder *f)
{
	const struct folder *base = &c->f[0];

	for (int side = 0; side < 2; side++) {
		const struct folder *x = side ? f : base, *y = side ? base : f;
		struct folder yy = *y;

		yy.across_topology = f->across_topology;
		for (int s = 0; s < x->a->nstudies; s++) {
			const struct study *sx = &x->a->studies[s], *sy = matching_study(&yy, sx);

			for (int g = 0; g < sx->ngroups; g++) {
				const struct combo *cx = &x->a->combos[sx->groups[g].combo];
				int gy = matching_group(&yy, sy, cx->features);

				if (gy < 0) {
					add_string(&f->unmatched, &f->nunmatched,
						   xasprintf("only in %s: %s / %s (%s, topology %s)", x->label,
							     sx->workload, cx->name, cx->features, sx->topology));
					continue;
				}
				if (side)
					continue;
				f->ncommon++;
				if (strcmp(cx->name, y->a->combos[sy->groups[gy].combo].name))
					add_string(&f->diffs, &f->ndiffs,
						   xasprintf("combination %s (%s) is called %s in %s", cx->name,
							     cx->features, y->a->combos[sy->groups[gy].combo].name,
							     f->label));
			}
		}
	}
}

/* ---- statistics ---- */

/* A cell's values of one metric and their units (boots when 2 or more). */
static int cell_units(const struct analysis *a, const struct study *st, int g, int m,
		      double *out, const char **unit)
{
	int *boot = xmalloc((st->nblocks + 1) * sizeof(int)), n = 0;

	for (int b = 0; b < st->nblocks; b++) {
		int row = st->groups[g].block_row[b];
		double v;

		if (row >= 0 && !isnan(v = metric_value(a, &a->table->rows[row], m))) {
			out[n] = v;
			boot[n++] = st->block_boot[b];
		}
	}
	n = boot_units(out, boot, n, st->nboots, unit);
	if (!strcmp(*unit, "block"))
		*unit = "run"; /* one cell has one run per block */
	free(boot);
	return n;
}

/* The distinct boots of a cell's runs with a value: what the gate counts
 * (runs of one boot share its state, they are not boots). */
static int cell_boots(const struct analysis *a, const struct study *st, int g, int m)
{
	char *seen = xcalloc(st->nboots + 1, 1);
	int n = 0;

	for (int b = 0; b < st->nblocks; b++) {
		int row = st->groups[g].block_row[b];

		if (row >= 0 && !isnan(metric_value(a, &a->table->rows[row], m)))
			n += !seen[st->block_boot[b]]++;
	}
	free(seen);
	return n;
}

/* The smallest two-sided p the exact Mann-Whitney test can give. */
static double smallest_p(int na, int nb)
{
	double log_choose = lgamma(na + nb + 1.0) - lgamma(na + 1.0) - lgamma(nb + 1.0);

	return fmin(1, 2 * exp(-log_choose));
}

static void compare_cell(struct cmp *x, const double *a, int na, const double *b, int nb)
{
	double est, *la, *lb, *sa, *sb;
	int positive = 1;
	struct interval ci;

	x->ratio = x->lo = x->hi = x->level = x->p = x->q = NAN;
	x->min_p = smallest_p(na, nb);
	x->note = "";
	if (!na || !nb) {
		x->note = "no values";
		return;
	}
	shift_interval(a, na, b, nb, &est, &x->p); /* p: ranks, so the same as on logs */
	sa = xmalloc(na * sizeof(double));
	sb = xmalloc(nb * sizeof(double));
	memcpy(sa, a, na * sizeof(double));
	memcpy(sb, b, nb * sizeof(double));
	sort_doubles(sa, na);
	sort_doubles(sb, nb);
	for (int i = 0; i < na; i++)
		positive &= a[i] > 0;
	for (int i = 0; i < nb; i++)
		positive &= b[i] > 0;
	if (positive) {
		double p;

		la = xmalloc(na * sizeof(double));
		lb = xmalloc(nb * sizeof(double));
		for (int i = 0; i < na; i++)
			la[i] = log(a[i]);
		for (int i = 0; i < nb; i++)
			lb[i] = log(b[i]);
		ci = shift_interval(la, na, lb, nb, &est, &p);
		x->ratio = exp(est);
		x->lo = exp(ci.lo);
		x->hi = exp(ci.hi);
		x->level = ci.level;
		if (isnan(ci.level))
			x->note = "too few units for an interval";
		free(la);
		free(lb);
	} else {
		/* x/0 = inf: a count that rose from nothing */
		x->ratio = median_sorted(sb, nb) / median_sorted(sa, na);
		x->note = "a 0 among the units: ratio of the medians, no interval";
		if (sa[na - 1] == 0 && sb[nb - 1] > 0) {
			x->from_zero = 1;
			x->note = "0 in every unit of the base: a rise from 0, no ratio";
		} else if (sb[nb - 1] == 0 && sa[na - 1] > 0) {
			x->from_zero = -1;
			x->note = "0 in every unit of this folder: a fall to 0";
		}
	}
	free(sa);
	free(sb);
}

static struct cmp *new_cmp(struct compare *c)
{
	if (c->ncmp == c->cap)
		c->c = xrealloc(c->c, (c->cap = c->cap ? 2 * c->cap : 256) * sizeof(struct cmp));
	memset(&c->c[c->ncmp], 0, sizeof(struct cmp));
	return &c->c[c->ncmp++];
}

static void choose_metrics(struct compare *c)
{
	const struct analysis *a = c->f[0].a;

	c->metrics = xmalloc((a->nmetrics + 1) * sizeof(char *));
	for (int pass = 1; pass >= 0; pass--) /* primary first */
		for (int m = 0; m < a->nmetrics; m++) {
			int measured = 0;

			if (a->primary[m] != pass || (!pass && !c->all_metrics))
				continue;
			for (int s = 0; s < a->nstudies; s++)
				measured |= a->studies[s].measured[m];
			if (measured)
				c->metrics[c->nmetrics++] = a->metric_names[m];
		}
}

static void compare_all(struct compare *c)
{
	const struct analysis *base = c->f[0].a;
	int cap = 1;

	for (int i = 0; i < c->nfolders; i++)
		for (int s = 0; s < c->f[i].a->nstudies; s++)
			if (c->f[i].a->studies[s].nblocks + 1 > cap)
				cap = c->f[i].a->studies[s].nblocks + 1;
	double *ua = xmalloc(cap * sizeof(double)), *ub = xmalloc(cap * sizeof(double));

	for (int mi = 0; mi < c->nmetrics; mi++) {
		int m = metric_index(base, c->metrics[mi]);

		for (int s = 0; s < base->nstudies; s++) {
			const struct study *st = &base->studies[s];

			if (!st->measured[m])
				continue;
			for (int g = 0; g < st->ngroups; g++) {
				const char *features = base->combos[st->groups[g].combo].features;
				const char *unit_a;
				int na = cell_units(base, st, g, m, ua, &unit_a);

				if (!na)
					continue;
				for (int i = 1; i < c->nfolders; i++) {
					struct folder *f = &c->f[i];
					const struct study *sf = matching_study(f, st);
					int gf = matching_group(f, sf, features), mf = metric_index(f->a, c->metrics[mi]);
					struct cmp *x = new_cmp(c);

					x->metric = mi;
					x->study = s;
					x->group = g;
					x->folder = i;
					x->n_base = na;
					x->unit_base = unit_a;
					x->boots_base = cell_boots(base, st, g, m);
					x->median_base = st->groups[g].metric[m].median;
					x->ratio = x->lo = x->hi = x->level = x->p = x->q = x->min_p = x->median = x->gate_p = NAN;
					if (gf < 0 || mf < 0 || !sf->groups[gf].metric[mf].n) {
						x->note = gf < 0 ? "not in this folder" : "not measured in this folder";
						continue;
					}
					x->present = 1;
					x->median = sf->groups[gf].metric[mf].median;
					x->n = cell_units(f->a, sf, gf, mf, ub, &x->unit);
					x->boots = cell_boots(f->a, sf, gf, mf);
					/* cell_units sorts neither; compare_cell copies */
					compare_cell(x, ua, na, ub, x->n);
					f->ncompared++;
				}
			}
		}
	}
	free(ua);
	free(ub);
}

/* The gate's metrics: the primary ones, but a count (pulls, migrations)
 * only with --gate-counts: fewer pulls is not "better" in itself. */
static int gated_metric(const struct compare *c, int metric)
{
	const char *name = c->metrics[metric];

	return is_primary_metric(name) && (c->gate_counts || !is_count_metric(name));
}

/* --fail-above: per folder, Holm over its gated comparisons (a fixed
 * family), each verdict from the interval's bound against the threshold;
 * a comparison with fewer than --min-boots distinct boots a side is
 * inconclusive, never a regression. */
static void gate(struct compare *c)
{
	double *p = xmalloc((c->ncmp + 1) * sizeof(double)), *q = xmalloc((c->ncmp + 1) * sizeof(double));
	int *index = xmalloc((c->ncmp + 1) * sizeof(int));

	for (int i = 1; i < c->nfolders; i++) {
		int n = 0;
		double best = 1;

		for (int k = 0; k < c->ncmp; k++) {
			struct cmp *x = &c->c[k];

			if (x->folder != i || !x->present || !gated_metric(c, x->metric))
				continue;
			index[n] = k;
			p[n++] = x->p;
			if (x->min_p < best)
				best = x->min_p;
		}
		holm_adjust(p, q, n);
		if (n && best > 0.05 / n)
			c->gate_unresolvable = 1;
		if (n > c->gate_family_min)
			c->gate_family_min = n;
		for (int j = 0; j < n; j++) {
			struct cmp *x = &c->c[index[j]];
			int better = metric_better(c->metrics[x->metric]);
			double near = better == BETTER_LOWER ? x->lo : x->hi; /* the bound nearest 1 on the worse side */
			double far = better == BETTER_LOWER ? x->hi : x->lo;
			int beyond_near = better == BETTER_LOWER ? near > 1 + c->fail_above : near < 1 - c->fail_above;
			int beyond_far = isnan(far) || (better == BETTER_LOWER ? far > 1 + c->fail_above
							: far < 1 - c->fail_above);

			/* a count that rose from 0 (or a throughput that fell to 0)
			 * is beyond any threshold: its p decides */
			int zero_worse = x->from_zero == (better == BETTER_LOWER ? 1 : -1);

			x->gate_p = q[j];
			if (x->boots_base < c->min_boots || x->boots < c->min_boots) {
				x->too_few_boots = 1; /* runs of one boot are not boots: never a regression */
				c->ntoo_few++;
			} else if (q[j] <= 0.05 && (zero_worse || (!isnan(near) && beyond_near))) {
				x->regressed = 1;
				c->nregressed++;
			} else if (x->from_zero && !zero_worse) {
				continue; /* from 0 the better way: nothing to exclude */
			} else if (beyond_far) {
				x->gate_open = 1;
				c->ninconclusive++;
			}
		}
	}
	free(p);
	free(q);
	free(index);
}

/* Benjamini-Hochberg over every comparison made, then the verdicts. */
static void adjust_and_judge(struct compare *c)
{
	double *p = xmalloc((c->ncmp + 1) * sizeof(double)), *q = xmalloc((c->ncmp + 1) * sizeof(double));
	int *index = xmalloc((c->ncmp + 1) * sizeof(int));

	c->best_min_p = 1;
	for (int i = 0; i < c->ncmp; i++)
		if (c->c[i].present && !isnan(c->c[i].p)) {
			index[c->family] = i;
			p[c->family++] = c->c[i].p;
			if (c->c[i].min_p < c->best_min_p)
				c->best_min_p = c->c[i].min_p;
		}
	bh_adjust(p, q, c->family);
	for (int k = 0; k < c->family; k++) {
		struct cmp *x = &c->c[index[k]];
		int better = metric_better(c->metrics[x->metric]);
		struct folder *f = &c->f[x->folder];

		x->q = q[k];
		x->sig = q[k] <= FDR_Q;
		if (!x->sig || isnan(x->ratio) || x->ratio == 1)
			continue;
		c->nsig++;
		f->nsig++;
		x->change = better == BETTER_UNDEFINED ? (x->ratio > 1 ? 2 : -2)
			: (x->ratio > 1) == (better == BETTER_HIGHER) ? 1 : -1;
		f->nworse += x->change == -1;
		f->nbetter += x->change == 1;
	}
	free(p);
	free(q);
	free(index);
	if (!isnan(c->fail_above))
		gate(c);
}

static const char *change_word(int change)
{
	switch (change) {
	case 1: return "better";
	case -1: return "worse";
	case 2: return "higher";
	case -2: return "lower";
	default: return "";
	}
}

/* ---- output ---- */

static char *num(const char *fmt, double v)
{
	return isnan(v) ? xstrdup("-") : isinf(v) ? xstrdup(v > 0 ? "unbounded" : "-unbounded")
		: xasprintf(fmt, v);
}

static char *units_text(int n, const char *unit)
{
	return xasprintf("%d %s%s", n, unit ? unit : "unit", n == 1 ? "" : "s");
}

struct text_table {
	int ncols, nrows;
	char ***rows;            /* a row with only cell 0 is a heading */
};

static void text_row(struct text_table *t, char **cells)
{
	t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof(char **));
	t->rows[t->nrows] = xmalloc(t->ncols * sizeof(char *));
	memcpy(t->rows[t->nrows++], cells, t->ncols * sizeof(char *));
}

static void text_print(const struct text_table *t, int left_columns)
{
	int *w = xcalloc(t->ncols, sizeof(int));

	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols && t->rows[r][1]; c++)
			if ((int)strlen(t->rows[r][c]) > w[c])
				w[c] = strlen(t->rows[r][c]);
	for (int r = 0; r < t->nrows; r++) {
		int last = t->ncols - 1;

		if (!t->rows[r][1]) {
			printf("%s\n", t->rows[r][0]);
			continue;
		}
		while (last > 0 && !*t->rows[r][last])
			last--;
		for (int c = 0; c <= last; c++)
			printf(c < left_columns ? "%-*s" : "%*s", c == last && c < left_columns ? 0 : w[c],
			       t->rows[r][c]), fputs(c == last ? "\n" : "  ", stdout);
	}
	free(w);
}

static char *folder_summary(const struct folder *f)
{
	const struct provenance *p = f->prov;
	char **t, *top, *duration, *s;
	int nt = column_values(f->a->table, "topology", &t);

	top = joined(t, nt, 0);
	free(t);
	duration = isnan(p->duration_s) ? xstrdup("unknown") : xasprintf("%g s", p->duration_s);
	s = xasprintf("matrix %s (%s); duration %s; topology %s; %d runs (%d ok, %d crashed, %d failed) in %d boot%s",
		      p->name ? p->name : "-",
		      p->have[SRC_PLAN] ? "plan.txt" : p->have[SRC_MATRIX] ? p->matrix_file : "no plan.txt or *.matrix",
		      duration, top, f->a->table->nrows, f->a->n_ok, f->a->n_crashed, f->a->n_failed,
		      p->nboots, p->nboots == 1 ? "" : "s");
	free(duration);
	free(top);
	return s;
}

/* " (same as base)", " (differs from base)", or nothing when neither knows */
static const char *sameness(const char *x, const char *base)
{
	if (!x && !base)
		return "";
	return x && base && !strcmp(x, base) ? " (same as base)" : " (differs from base)";
}

/* Kernel, image and series of a folder, and whether each is the base's. */
static char *build_summary(const struct folder *f, const struct folder *base)
{
	const struct provenance *p = f->prov, *b = base->prov;
	const char *patches = kv_get(&p->series, "patches sha256");
	const char *mark[3] = { "", "", "" };

	if (f != base) {
		mark[0] = sameness(p->kernel_sha, b->kernel_sha);
		mark[1] = sameness(p->image_sha, b->image_sha);
		mark[2] = sameness(patches, kv_get(&b->series, "patches sha256"));
	}
	return xasprintf("kernel sha256 %s%s%s%s%s\n       image sha256 %s%s\n       series: patches sha256 %s%s",
			 p->kernel_sha ? p->kernel_sha : "unknown", p->kernel_path ? " (" : "",
			 p->kernel_path ? p->kernel_path : "", p->kernel_path ? ")" : "", mark[0],
			 p->image_sha ? p->image_sha : "unknown", mark[1], patches ? patches : "unknown", mark[2]);
}

static double geomean(const struct compare *c, int mi, int folder, int *n, int *worse, int *improved)
{
	double sum = 0;

	*n = *worse = *improved = 0;
	for (int k = 0; k < c->ncmp; k++) {
		const struct cmp *x = &c->c[k];

		if (x->metric != mi || x->folder != folder || !x->present)
			continue;
		*worse += x->change == -1;
		*improved += x->change == 1;
		if (isfinite(x->ratio) && x->ratio > 0) {
			sum += log(x->ratio);
			(*n)++;
		}
	}
	return *n ? exp(sum / *n) : NAN;
}

static void print_text(const struct compare *c)
{
	const struct analysis *base = c->f[0].a;
	char *directions;

	printf("run/compare: %d folder%s against the baseline\n", c->nfolders - 1, c->nfolders == 2 ? "" : "s");
	for (int i = 0; i < c->nfolders; i++) {
		const struct folder *f = &c->f[i];
		char *sum = folder_summary(f), *build = build_summary(f, &c->f[0]);

		printf("  %-4s %s\n       %s\n       %s\n", f->label, f->arg, sum, build);
		free(sum);
		free(build);
	}
	printf("\nMetadata against %s:\n", c->f[0].label);
	for (int i = 1; i < c->nfolders; i++) {
		const struct folder *f = &c->f[i];

		printf("  %s (%s): %s\n", f->label, provenance_source_names[f->source],
		       f->ndiffs ? "differs:" : "same matrix, duration and topology");
		for (int d = 0; d < f->ndiffs; d++)
			printf("    - %s\n", f->diffs[d]);
	}
	directions = primary_metric_list(", ");
	printf("\nratio: folder / %s, exp of the Hodges-Lehmann shift of log units (median of the pairwise ratios);\n"
	       "interval: exact Mann-Whitney interval of the ratio at the level shown; units: boots (median of a\n"
	       "boot's runs) when a cell ran in 2 or more boots, else runs; p: exact Mann-Whitney;\n"
	       "q: Benjamini-Hochberg over all %d comparisons made (%d folder%s x cells x %d metric%s); * = q <= %g.\n"
	       "better/worse: starred, in the metric's direction: %s.\n",
	       c->f[0].label, c->family, c->nfolders - 1, c->nfolders == 2 ? "" : "s", c->nmetrics,
	       c->nmetrics == 1 ? "" : "s", FDR_Q, directions);
	free(directions);
	if (c->best_min_p > FDR_Q)
		printf("note: with these units no comparison can reach p <= %g (the smallest possible p is %.3g):\n"
		       "nothing can be starred%s.\n", FDR_Q, c->best_min_p,
		       isnan(c->fail_above) ? "" : " and --fail-above cannot fail");
	for (int mi = 0; mi < c->nmetrics; mi++) {
		int m = metric_index(base, c->metrics[mi]);
		int better = metric_better(c->metrics[mi]);

		printf("\n== %s: %s, %s ==\n", c->metrics[mi], base->primary[m] ? "primary" : "secondary",
		       better_text(better));
		for (int s = 0; s < base->nstudies; s++) {
			struct text_table t = { 11, 0, NULL };
			char *head[11] = { "combo", "folder", "units", "median", "ratio", "interval", "level", "p", "q", "", "change" };
			int any = 0;

			for (int k = 0; k < c->ncmp; k++)
				any |= c->c[k].metric == mi && c->c[k].study == s;
			if (!any)
				continue;
			printf("\n-- %s (topology %s) --\n", base->studies[s].workload, base->studies[s].topology);
			text_row(&t, head);
			for (int g = 0; g < base->studies[s].ngroups; g++) {
				int first = 1;

				for (int k = 0; k < c->ncmp; k++) {
					const struct cmp *x = &c->c[k];
					char *cells[11];

					if (x->metric != mi || x->study != s || x->group != g)
						continue;
					if (first) {
						char *row[11] = { base->combos[base->studies[s].groups[g].combo].name,
								  c->f[0].label, units_text(x->n_base, x->unit_base),
								  num("%.6g", x->median_base), "", "", "", "", "", "", "" };

						text_row(&t, row);
						first = 0;
					}
					cells[0] = "";
					cells[1] = c->f[x->folder].label;
					if (!x->present) {
						char *row[11] = { "", cells[1], "-", "-", "", "", "", "", "", "", (char *)x->note };

						text_row(&t, row);
						continue;
					}
					cells[2] = units_text(x->n, x->unit);
					cells[3] = num("%.6g", x->median);
					cells[4] = num("%.3f", x->ratio);
					cells[5] = isnan(x->lo) ? xstrdup("-") : xasprintf("%s..%s", num("%.3f", x->lo), num("%.3f", x->hi));
					cells[6] = format_level(x->level);
					cells[7] = num("%.3g", x->p);
					cells[8] = num("%.3g", x->q);
					cells[9] = x->sig ? "*" : "";
					cells[10] = x->regressed ? xasprintf("worse, beyond %g%%: REGRESSION", c->fail_above * 100)
						: x->too_few_boots ? xasprintf("%d and %d boots, fewer than --min-boots %d: not gated",
									      x->boots_base, x->boots, c->min_boots)
						: *x->note ? xasprintf("%s%s%s", change_word(x->change), x->change ? "; " : "", x->note)
						: (char *)change_word(x->change);
					text_row(&t, cells);
				}
			}
			text_print(&t, 2);
		}
		/* the geometric mean of each folder's ratios over the cells */
		printf("\ngeometric mean of the ratios over the cells of %s (a summary of the table, no interval):\n",
		       c->metrics[mi]);
		for (int i = 1; i < c->nfolders; i++) {
			int n, worse, improved;
			double g = geomean(c, mi, i, &n, &worse, &improved);
			char *gt = num("%.3f", g);

			printf("  %-4s %s over %d cell%s; starred: %d worse, %d better\n", c->f[i].label, gt, n,
			       n == 1 ? "" : "s", worse, improved);
			free(gt);
		}
	}
	for (int i = 1; i < c->nfolders; i++)
		for (int u = 0; u < c->f[i].nunmatched; u++)
			printf("%s%s\n", i == 1 && !u ? "\n" : "", c->f[i].unmatched[u]);
	if (!isnan(c->fail_above)) {
		printf("\n--fail-above %g%%: ", c->fail_above * 100);
		if (!c->nregressed && c->ntoo_few)
			printf("inconclusive (exit 5): %d gated comparison%s ha%s fewer than --min-boots %d distinct boots a side (runs of one boot are not boots), and nothing regressed where there were enough\n",
			       c->ntoo_few, c->ntoo_few == 1 ? "" : "s", c->ntoo_few == 1 ? "s" : "ve", c->min_boots);
		else if (!c->nregressed && c->gate_unresolvable)
			printf("inconclusive (exit 5): the design cannot detect it: the smallest possible p (%.3g) is above Holm's first threshold over a folder's %d primary comparisons (%.3g); more boots a side\n",
			       c->best_min_p, c->gate_family_min, 0.05 / (c->gate_family_min ? c->gate_family_min : 1));
		else if (!c->nregressed && c->ninconclusive)
			printf("inconclusive (exit 5): nothing regressed, but %d primary comparison%s cannot exclude a change beyond it (the interval reaches past the threshold on the worse side)\n",
			       c->ninconclusive, c->ninconclusive == 1 ? "" : "s");
		else if (!c->nregressed)
			printf("no primary metric regressed beyond it, and every interval excludes such a change (exit 0)\n");
		else {
			printf("%d regression%s beyond it (exit 1):\n", c->nregressed, c->nregressed == 1 ? "" : "s");
			for (int k = 0; k < c->ncmp; k++) {
				const struct cmp *x = &c->c[k];
				const struct study *st = &base->studies[x->study];

				if (x->regressed)
					printf("  %s: %s, %s / %s (topology %s): ratio %.3f [%s..%s] %s, Holm p %.3g\n",
					       c->f[x->folder].label, c->metrics[x->metric], st->workload,
					       base->combos[st->groups[x->group].combo].name, st->topology, x->ratio,
					       num("%.3f", x->lo), num("%.3f", x->hi), format_level(x->level), x->gate_p);
			}
		}
	}
}

static void write_csv(const struct compare *c, const char *path)
{
	const struct analysis *base = c->f[0].a;
	FILE *f = open_output(path);

	fputs("kind,metric,primary,better,topology,workload,combo,features,folder,folder_path,"
	      "base_units,units,unit,base_median,median,ratio,ratio_lo,ratio_hi,ratio_level,p,q,sig,"
	      "change,regressed,note\n", f);
	for (int k = 0; k < c->ncmp; k++) {
		const struct cmp *x = &c->c[k];
		const struct study *st = &base->studies[x->study];
		const struct combo *cb = &base->combos[st->groups[x->group].combo];
		const char *better = metric_better_word(c->metrics[x->metric]);

		fprintf(f, "cell,%s,%d,%s,", c->metrics[x->metric], is_primary_metric(c->metrics[x->metric]),
			better ? better : "");
		csv_text(f, st->topology);
		fputc(',', f);
		csv_text(f, st->workload);
		fputc(',', f);
		csv_text(f, cb->name);
		fputc(',', f);
		csv_text(f, cb->features);
		fprintf(f, ",%s,", c->f[x->folder].label);
		csv_text(f, c->f[x->folder].arg);
		fprintf(f, ",%d,%d,%s", x->n_base, x->n, x->present ? x->unit : "");
		csv_number(f, x->median_base);
		csv_number(f, x->median);
		csv_number(f, x->ratio);
		csv_number(f, x->lo);
		csv_number(f, x->hi);
		csv_number(f, x->level * 100);
		csv_number(f, x->p);
		csv_number(f, x->q);
		fprintf(f, ",%s,%s,%d,", x->sig ? "*" : "", change_word(x->change), x->regressed);
		csv_text(f, x->note ? x->note : "");
		fputc('\n', f);
	}
	for (int mi = 0; mi < c->nmetrics; mi++)
		for (int i = 1; i < c->nfolders; i++) {
			int n, worse, improved;
			double g = geomean(c, mi, i, &n, &worse, &improved);
			const char *better = metric_better_word(c->metrics[mi]);

			fprintf(f, "geomean,%s,%d,%s,,,,,%s,", c->metrics[mi], is_primary_metric(c->metrics[mi]),
				better ? better : "", c->f[i].label);
			csv_text(f, c->f[i].arg);
			fprintf(f, ",,%d,cell", n);
			csv_number(f, NAN);
			csv_number(f, NAN);
			csv_number(f, g);
			fprintf(f, ",,,,,,,,,%d worse and %d better starred cells; no interval\n", worse, improved);
		}
	close_output(f, path);
}

static void json_folder(struct json *j, const struct folder *f, int is_base)
{
	const struct provenance *p = f->prov;
	char **t;
	int nt = column_values(f->a->table, "topology", &t);

	json_object(j, NULL);
	json_str(j, "label", f->label);
	json_str(j, "path", f->arg);
	json_str(j, "role", is_base ? "baseline" : "compared");
	json_str(j, "matrix", p->name);
	json_num(j, "duration_s", p->duration_s);
	json_array(j, "topologies");
	for (int i = 0; i < nt; i++)
		json_str(j, NULL, t[i]);
	json_end_array(j);
	free(t);
	json_str(j, "kernel_sha256", p->kernel_sha);
	json_str(j, "kernel_path", p->kernel_path);
	json_str(j, "image_sha256", p->image_sha);
	json_str(j, "image_path", p->image_path);
	json_str(j, "series_patches_sha256", kv_get(&p->series, "patches sha256"));
	json_int(j, "runs", f->a->table->nrows);
	json_int(j, "runs_ok", f->a->n_ok);
	json_int(j, "boots", p->nboots);
	if (!is_base) {
		json_str(j, "metadata_source", provenance_source_names[f->source]);
		json_bool(j, "across_topology", f->across_topology);
		json_int(j, "common_cells", f->ncommon);
		json_array(j, "differences");
		for (int d = 0; d < f->ndiffs; d++)
			json_str(j, NULL, f->diffs[d]);
		json_end_array(j);
		json_array(j, "unmatched_cells");
		for (int u = 0; u < f->nunmatched; u++)
			json_str(j, NULL, f->unmatched[u]);
		json_end_array(j);
	}
	json_end_object(j);
}

static void json_cmp(struct json *j, const struct compare *c, const struct cmp *x)
{
	const struct analysis *base = c->f[0].a;
	const struct study *st = &base->studies[x->study];
	const struct combo *cb = &base->combos[st->groups[x->group].combo];

	json_object(j, NULL);
	json_str(j, "metric", c->metrics[x->metric]);
	json_str(j, "topology", st->topology);
	json_str(j, "workload", st->workload);
	json_str(j, "combo", cb->name);
	json_str(j, "features", cb->features);
	json_str(j, "folder", c->f[x->folder].label);
	json_bool(j, "present", x->present);
	json_int(j, "base_units", x->n_base);
	json_int(j, "units", x->n);
	json_str(j, "unit", x->present ? x->unit : NULL);
	json_num(j, "base_median", x->median_base);
	json_num(j, "median", x->median);
	json_num(j, "ratio", x->ratio);
	json_num(j, "ratio_lo", x->lo);
	json_num(j, "ratio_hi", x->hi);
	json_num(j, "ratio_level_pct", x->level * 100);
	json_num(j, "p", x->p);
	json_num(j, "smallest_possible_p", x->min_p);
	json_num(j, "q", x->q);
	json_bool(j, "significant", x->sig);
	json_str(j, "change", *change_word(x->change) ? change_word(x->change) : NULL);
	json_bool(j, "regressed", x->regressed);
	json_str(j, "note", x->note && *x->note ? x->note : NULL);
	json_end_object(j);
}

static void write_json(const struct compare *c, const char *path, int exit_code)
{
	struct json j = { open_output(path), 0, { 0 } };

	json_object(&j, NULL);
	json_str(&j, "tool", "run/compare");
	json_int(&j, "format_version", 1);
	json_object(&j, "method");
	json_str(&j, "ratio", "exp of the Hodges-Lehmann shift of log units (median of the pairwise ratios folder/baseline)");
	json_str(&j, "interval", "distribution-free, inverted from the exact Mann-Whitney distribution, at its own level");
	json_str(&j, "units", "boots (median of a cell's runs in each boot) when a cell ran in 2 or more boots, else runs");
	json_str(&j, "test", "exact Mann-Whitney, two-sided");
	json_str(&j, "adjustment", "benjamini-hochberg");
	json_num(&j, "fdr", FDR_Q);
	json_int(&j, "family", c->family);
	json_int(&j, "significant", c->nsig);
	json_num(&j, "smallest_possible_p", c->best_min_p);
	json_end_object(&j);
	json_array(&j, "metrics");
	for (int mi = 0; mi < c->nmetrics; mi++) {
		json_object(&j, NULL);
		json_str(&j, "name", c->metrics[mi]);
		json_bool(&j, "primary", is_primary_metric(c->metrics[mi]));
		json_str(&j, "better", metric_better_word(c->metrics[mi]));
		json_end_object(&j);
	}
	json_end_array(&j);
	json_array(&j, "folders");
	for (int i = 0; i < c->nfolders; i++)
		json_folder(&j, &c->f[i], i == 0);
	json_end_array(&j);
	json_array(&j, "comparisons");
	for (int k = 0; k < c->ncmp; k++)
		json_cmp(&j, c, &c->c[k]);
	json_end_array(&j);
	json_array(&j, "geometric_means");
	for (int mi = 0; mi < c->nmetrics; mi++)
		for (int i = 1; i < c->nfolders; i++) {
			int n, worse, improved;
			double g = geomean(c, mi, i, &n, &worse, &improved);

			json_object(&j, NULL);
			json_str(&j, "metric", c->metrics[mi]);
			json_str(&j, "folder", c->f[i].label);
			json_int(&j, "cells", n);
			json_num(&j, "geomean_ratio", g);
			json_int(&j, "worse", worse);
			json_int(&j, "better", improved);
			json_end_object(&j);
		}
	json_end_array(&j);
	json_object(&j, "verdict");
	json_num(&j, "fail_above_pct", c->fail_above * 100);
	json_str(&j, "outcome", isnan(c->fail_above) ? NULL : exit_code == EXIT_REGRESSION ? "regression"
		 : exit_code == EXIT_INCONCLUSIVE ? "inconclusive" : "pass");
	json_int(&j, "min_boots", c->min_boots);
	json_int(&j, "regressions", c->nregressed);
	json_array(&j, "regressed");
	for (int k = 0; k < c->ncmp; k++)
		if (c->c[k].regressed)
			json_cmp(&j, c, &c->c[k]);
	json_end_array(&j);
	json_int(&j, "exit", exit_code);
	json_end_object(&j);
	json_end_object(&j);
	close_output(j.f, path);
}

/* "5%", "5", "2.5%", "150%" -> 0.05, 0.05, 0.025, 1.5; -1 when not a
 * percentage >= 0. (Where higher is better, 100% or more cannot be
 * exceeded: a ratio is never below 0.) */
static double parse_percent(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%")) || !isfinite(v) || v < 0)
		return -1;
	return v / 100;
}

static void compare_help(const struct opt_parser *p)
{
	char *list = primary_metric_list(",\n            ");

	(void)p;
	printf(compare_usage, list);
	free(list);
}

int compare_main(int argc, char **argv)
{
	struct compare c = { 0 };
	const char *csv = NULL, *json = NULL;
	struct opt_parser opt;
	char **folders;
	int code = 0;

	c.fail_above = NAN;
	system_error_exit = EXIT_COMPARE_SYSTEM;
	c.min_boots = GATE_MIN_UNITS;
	opt_init(&opt, "run/compare", "csv= json= fail-above= min-boots= gate-counts all-metrics strict",
		 compare_help, argc, argv);
	while (opt_next(&opt)) {
		const char *val = opt.value;

		if (opt_is(&opt, "csv")) {
			csv = val;
		} else if (opt_is(&opt, "json")) {
			json = val;
		} else if (opt_is(&opt, "min-boots")) {
			char *end;
			long v = strtol(val, &end, 10);

			if (*end || !*val || v < 1 || v > 1000)
				opt_error(opt.tool, "--min-boots %s: want a whole number >= 1", val);
			c.min_boots = (int)v;
		} else if (opt_is(&opt, "fail-above")) {
			if ((c.fail_above = parse_percent(val)) < 0)
				opt_error(opt.tool, "--fail-above %s: want a percentage >= 0, e.g. 5%%", val);
		} else if (opt_is(&opt, "gate-counts")) {
			c.gate_counts = 1;
		} else if (opt_is(&opt, "all-metrics")) {
			c.all_metrics = 1;
		} else if (opt_is(&opt, "strict")) {
			c.strict = 1;
		}
	}
	folders = opt.operands;
	c.nfolders = opt.noperands;
	if (c.nfolders < 2)
		opt_error(opt.tool, "want a baseline and at least one other folder, not %d (run/compare [options] BASE A [B ...])",
			  c.nfolders);
	c.f = xcalloc(c.nfolders, sizeof(struct folder));
	for (int i = 0; i < c.nfolders; i++) {
		c.f[i].label = i == 0 ? xstrdup("base") : i <= 26 ? xasprintf("%c", 'A' + i - 1) : xasprintf("F%d", i);
		load(&c.f[i], folders[i]);
	}
	/* a folder against itself (or a copy) shows no change by construction */
	for (int i = 1; i < c.nfolders; i++)
		for (int j = 0; j < i; j++)
			if ((c.f[i].real_csv && c.f[j].real_csv && !strcmp(c.f[i].real_csv, c.f[j].real_csv)) ||
			    c.f[i].csv_hash == c.f[j].csv_hash) {
				fprintf(stderr, "run/compare: warning: %s (%s) %s %s (%s): its comparisons with it show no change by construction\n",
					c.f[i].arg, c.f[i].label,
					c.f[i].real_csv && c.f[j].real_csv && !strcmp(c.f[i].real_csv, c.f[j].real_csv)
					? "is the same folder as" : "holds the same runs.csv as",
					c.f[j].arg, c.f[j].label);
				break;
			}
	for (int i = 1; i < c.nfolders; i++) {
		check_metadata(&c, &c.f[i]);
		choose_topology_matching(&c, &c.f[i]);
		match_cells(&c, &c.f[i]);
	}
	for (int i = 1; i < c.nfolders; i++) {
		const struct folder *f = &c.f[i];

		if (!f->ncommon) {
			fprintf(stderr, "run/compare: refused: %s (%s) shares no cell (topology, workload, feature set) with the baseline %s: nothing to compare\n",
				f->arg, f->label, c.f[0].arg);
			for (int d = 0; d < f->ndiffs; d++)
				fprintf(stderr, "  %s differs: %s\n", f->label, f->diffs[d]);
			code = EXIT_REFUSED;
		} else if (c.strict && f->nstrict) {
			fprintf(stderr, "run/compare: refused (--strict): the matrix of %s (%s) differs from the baseline's:\n",
				f->arg, f->label);
			for (int d = 0; d < f->ndiffs; d++)
				fprintf(stderr, "  %s\n", f->diffs[d]);
			code = EXIT_REFUSED;
		}
	}
	if (code)
		return code;
	choose_metrics(&c);
	compare_all(&c);
	adjust_and_judge(&c);
	for (int i = 1; i < c.nfolders; i++)
		if (!c.f[i].ncompared) {
			fprintf(stderr, "run/compare: refused: %s (%s) has no value of the compared metrics in any cell it shares with the baseline\n",
				c.f[i].arg, c.f[i].label);
			return EXIT_REFUSED;
		}
	code = c.nregressed ? EXIT_REGRESSION
		: !isnan(c.fail_above) && (c.gate_unresolvable || c.ninconclusive || c.ntoo_few) ? EXIT_INCONCLUSIVE
		: 0;
	print_text(&c);
	if (csv)
		write_csv(&c, csv);
	if (json)
		write_json(&c, json, code);
	return code;
}
