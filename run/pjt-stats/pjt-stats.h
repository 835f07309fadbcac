/* pjt-stats: statistics, chart data, report and comparison for runs.csv.
 * See run/stats --help and the header of analysis.c for the definitions. */
#ifndef PJT_STATS_H
#define PJT_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "contract.h"

#define EXIT_BAD_INPUT 2

/* ---- util.c ---- */
void die_input(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void die_system(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
extern int system_error_exit; /* die_system's exit status: 1, run/compare 4 */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *read_whole_file(const char *path, size_t *length); /* NULL if absent */
/* Writes go to PATH.tmp and are renamed over PATH on close, so a crash never
 * leaves a half-written output in place of a good one. */
FILE *open_output(const char *path);
void close_output(FILE *f, const char *path);
void make_dir(const char *path);
void format_number(char *buf, size_t size, double v); /* "" for NaN and +-inf */
char *format_level(double level);                     /* "87.5%", "" for NaN */
uint64_t hash_bytes(const char *s, size_t len);       /* FNV-1a */

struct strmap {              /* string -> int; keys are not copied */
	size_t cap, count;
	const char **keys;
	int *values;
};
int map_get(const struct strmap *m, const char *key); /* -1 absent */
void map_put(struct strmap *m, const char *key, int value);
void map_free(struct strmap *m);

/* ---- csv.c: runs.csv ---- */
enum run_status { RUN_OK, RUN_FAILED, RUN_CRASHED };

struct run_row {
	int line;          /* line in the file where the row starts */
	char **text;       /* every cell as written (unquoted) */
	double *value;     /* numeric cells; NaN = empty (not measured) */
	enum run_status status;
	long rep;
	const char *boot;  /* the boot column, "1" when the file has none */
};

struct run_table {
	char *path;
	char *data;        /* the file, cells point into it */
	int ncols;
	char **names;
	int *is_metric;    /* measurements (not seq, rep, boot, host_*, text) */
	int *is_numeric;
	int nrows;
	struct run_row *rows;
	char **cells;
	double *values;
	int col_seq, col_topology, col_combo, col_features, col_workload, col_rep,
	    col_status, col_boot;
};

struct run_table *read_runs(const char *path);
int column_index(const struct run_table *t, const char *name); /* -1 absent */
int is_count_column(const char *name);
int is_state_column(const char *name); /* state_*: the drift's candidates */

/* ---- order.c: order statistics, exact intervals and tests ---- */
#define CI_TARGET 0.95       /* intervals aim at this level; smaller n print theirs */
#define FDR_Q 0.05           /* Benjamini-Hochberg */
#define EXACT_P_MAX_N 50     /* "2/2^n" is printed up to this many units */
#define BASE_SEED UINT64_C(20121025) /* the RFC's date */

struct rng { uint64_t state; };
uint64_t rng_next(struct rng *r);              /* splitmix64 */
double rng_uniform(struct rng *r);             /* (0, 1) */
double rng_normal(struct rng *r);

void sort_doubles(double *v, int n);
double quantile_sorted(const double *sorted, int n, double p); /* type 7 */
double median_sorted(const double *sorted, int n); /* type 7, safe with +-inf */

struct interval {
	double lo, hi;
	double level;      /* exact coverage of [x(k), x(n+1-k)]; NaN: none */
};
/* The distribution-free interval of the median of n sorted values: order
 * statistics (k, n+1-k), the largest k whose coverage 1 - 2 P(B <= k-1),
 * B ~ Binomial(n, 1/2), is >= 95%; (1, n) at its own level when n <= 5. */
struct interval median_interval(const double *sorted, int n);
int median_interval_rank(int n, double *level);
/* The exact sign test of the units against 0, the test the median's
 * order-statistic interval inverts (a 0 counts on both sides), and the
 * smallest p it can give with n units (2/2^n). */
double sign_test_p(const double *d, int n);
double sign_test_min_p(int n);
double sign_test_tie_floor(int n, int ties); /* the smallest p with ties among n */
/* Holm's step-down adjusted p-values of p[0..n) (NaN counts as 1). */
void holm_adjust(const double *p, double *q, int n);
/* Benjamini-Hochberg adjusted p-values (q) of p[0..n). */
void bh_adjust(const double *p, double *q, int n);
/* Unpaired: Hodges-Lehmann shift of b against a with the distribution-free
 * interval inverted from the exact Mann-Whitney distribution, and its p. */
struct interval shift_interval(const double *a, int na, const double *b, int nb,
			       double *estimate, double *p);
/* Paired procedures on the units (boots): the exact Wilcoxon signed-rank
 * test (midranks, zeros by Pratt), the Hodges-Lehmann estimate with the
 * Walsh-average interval it inverts, and the paired t (mean, 95% t
 * interval). order.c says how each treats ties. */
double signed_rank_p(const double *d, int n);
struct interval walsh_interval(const double *d, int n, double *estimate);
struct interval paired_t(const double *d, int n, double *mean, double *p);
double student_t_two_sided(double t, double df);
double student_t_quantile(double tail, double df);
enum { PROC_SIGN, PROC_SIGNED_RANK, PROC_T, NPROCEDURES };
extern const char *const procedure_names[NPROCEDURES];
/* The declared comparisons' test, chosen by run/stats --procedures on the
 * pilot (docs/results.md): the signed-rank test kept its size where the
 * paired t did not and resolves without unanimity, where the sign test
 * cannot at 8 boots. */
#define CONFIRMATORY_PROCEDURE PROC_SIGNED_RANK
/* procedure proc on n sorted units: estimate, interval, p */
void test_units(int proc, const double *sorted, int n, double *estimate, struct interval *ci, double *p);

/* ---- analysis.c ---- */
/* The reference points, in run/contract/points' order (build/contract.h):
 * a point renamed or dropped there fails to compile here. */
enum reference {
	REF_STOCK = PJT_CONTRACT_POINT_STOCK,
	REF_LEGACY = PJT_CONTRACT_POINT_LEGACY_6_1,
	REF_RFC_BEFORE = PJT_CONTRACT_POINT_RFC_BEFORE,
	REF_RFC_PELT = PJT_CONTRACT_POINT_RFC_PELT,
	REF_RFC_AFTER = PJT_CONTRACT_POINT_RFC_AFTER,
	NREFS = PJT_CONTRACT_NPOINTS
};
struct reference_point {
	const char *name;
	const char *bits;        /* joined by '+', "" for none */
	const char *what;        /* what it stands for, one line */
};
extern const struct reference_point reference_points[NREFS];
extern const char *const reference_names[NREFS];
/* The references ratios are taken to (summary.csv columns ratio_to_NAME):
 * stock and rfc-before for every combination, rfc-pelt for rfc-after (the
 * new rules' share of the RFC's change). */
enum { RATIO_STOCK, RATIO_RFC_BEFORE, RATIO_RFC_PELT, NRATIOS };
extern const int ratio_reference[NRATIOS];
extern const char *const ratio_column[NRATIOS];

struct sample {              /* one metric's values in one group */
	int n;
	double *sorted;
	double median, q1, q3, min, max;
	struct interval ci;
};

/* A paired comparison (ratio) or a factorial effect: the median of its
 * units (blocks, or boots when there are several), the order-statistic
 * interval of the units, the sign test's p and, in the declared family,
 * Holm's adjusted p (q). */
struct comparison {
	int present;             /* value computed */
	double value, lo, hi, level;
	int n_units;
	const char *unit;        /* "block" or "boot" */
	double p, q;             /* q: Holm-adjusted p, NaN when not in the declared family */
	int primary, sig;
	int confirmatory;        /* tested with a familywise error (Holm); else marginal, not adjusted */
	int secondary;           /* confirmatory, after its primary endpoint in a fixed sequence */
	const char *procedure;   /* the test: "sign", "signed-rank" */
	const char *note;        /* why a cell is empty, or "" */
	/* a count 0 in every unit of a side: no ratio (value NaN), the sides'
	 * medians per run instead ("0 against 46") and the sign test's p */
	int zero_side;           /* ZERO_NONE, ZERO_X, ZERO_REF, ZERO_BOTH */
	double x_median, ref_median;
};
enum { ZERO_NONE, ZERO_X, ZERO_REF, ZERO_BOTH };
/* "0 against 46" (the sides' medians per run), "both 0" */
char *zero_side_text(const struct comparison *c);

struct combo {
	char *name;
	char *features;          /* as written, "none" for no bit */
	uint32_t bits;           /* mask over analysis.bit_names */
	int reference;           /* enum reference, or -1 */
	int colour;              /* 0xRRGGBB */
};

struct group {               /* one study x one combo */
	int combo;               /* index into analysis.combos */
	int n_runs, n_ok, n_crashed, n_failed;
	int *block_row;          /* [study.nblocks]: the ok row of each block, or -1 */
	struct sample *metric;   /* [analysis.nmetrics] */
	struct comparison *ratio[NRATIOS]; /* [nmetrics] each */
};

/* A 2^k design: the cells base | T for every subset T of the k factors. */
/* A full 2^k factorial (nwords 0: cells 2^k, cell c's levels c) or a
 * regular fraction (its defining relation's nwords words, over the
 * factors' indexes; resolution the shortest word's length). */
struct design {
	uint32_t base;
	int k;
	uint32_t factor_bits[8];
	int ncells;
	uint32_t cell_levels[256]; /* cell -> its levels (bit i: factor_bits[i] set) */
	int cell_group[256];     /* cell -> group */
	int nwords, resolution;
	uint32_t words[256];
};

struct effect {
	int design;
	uint32_t term;           /* 1 bit = main effect, 2 bits = interaction */
	int metric;
	double baseline;         /* median of the base cell */
	struct comparison c;
	double unit_sd;          /* standard deviation of the units' log contrasts (NaN below 2 units) */
};

struct study {               /* one topology x workload */
	char *topology, *workload;
	int ngroups;
	struct group *groups;    /* in display order of the combos */
	int *measured;           /* [nmetrics]: some run has a value */
	int ref[NREFS];          /* group index or -1 */
	int nblocks, nboots;
	int *block_boot;         /* [nblocks] boot index */
	int ndesigns;
	struct design *designs;
	int neffects;
	struct effect *effects;
	char *skip_effects;      /* why there are no effects, or NULL */
	/* the matrix's declared comparisons (compare A B): groups, or -1 when
	 * a side is not in this study; the comparisons [ndeclared][nmetrics] */
	int *decl_g, *decl_ref;
	struct comparison **decl;
};

/* A declared comparison: combination A against reference B (by name). */
struct declared { char *combo, *reference; };
/* compare records of DIR/plan.txt, else compare lines of the .matrix file in DIR */
int read_declared(const char *dir, struct declared **out);

struct analysis {
	const struct run_table *table;
	int nmetrics;
	char **metric_names;
	int *metric_col;         /* column in table, -1 for derived */
	int *primary;            /* [nmetrics] */
	int ncombos;
	struct combo *combos;    /* display order */
	int nbits;
	char *bit_names[32];
	int nstudies;
	struct study *studies;
	int n_ok, n_crashed, n_failed;
	int ndeclared;
	struct declared *declared;
	double settle_s;         /* from the folder's plan (1 s when unknown): the design's costs */
	int family;              /* Holm's family: declared comparisons x studies, one primary endpoint each */
	int n_sig;               /* of it, significant after Holm at 5% */
	int secondaries;         /* the other primary metrics, tested in a fixed sequence after theirs */
	int n_sig_secondary;     /* of them, significant */
};

#define FAMILY_ALPHA 0.05    /* Holm's familywise error over the declared family */
struct analysis *analyse(const struct run_table *t, int notes, const struct declared *declared,
			 int ndeclared);
/* DIR/runs.csv with DIR's declared comparisons (plan.txt or the .matrix), no notes */
struct analysis *analyse_folder(const char *dir);
const char *marginal_note(void); /* "marginal, not adjusted" */
int metric_index(const struct analysis *a, const char *name);
int study_group_of(const struct study *s, int combo); /* -1 absent */
char *term_name(const struct analysis *a, const struct study *s, int design, uint32_t term);
char *design_name(const struct analysis *a, const struct study *st, int design);
/* A fraction's term's aliases of at most two bits, "A:B = C:D" ("": none) */
char *alias_names(const struct analysis *a, const struct study *st, int design, uint32_t term);
char *base_name(const struct analysis *a, uint32_t bits); /* "none" or A+B */
/* "unit" interval for a set of paired units (sorted in place). */
void comparison_of_units(struct comparison *c, double *units, int n, const char *unit);
/* The same with procedure proc (PROC_SIGN: the above). */
void comparison_of_units_by(struct comparison *c, double *units, int n, const char *unit, int proc);
/* Paired values d[i] from boot[i] (0..nboots-1): each boot's median when
 * the values come from two or more boots, else d itself; returns the count. */
int boot_units(double *d, const int *boot, int n, int nboots, const char **unit);
int is_primary_metric(const char *name);
/* The study's primary endpoint (the first primary metric it measured in
 * column order), -1 when none. */
int primary_endpoint(const struct analysis *a, const struct study *st);
/* Holm's declared family, its one definition: one primary endpoint per
 * declared comparison in each study (topology x workload) that measured
 * one. The report sizes its family by it, run/stats --power --plan a
 * design's before it runs. */
int declared_family(int ndeclared, int nstudies);
/* The sorted units (log ratios, one per boot) of declared comparison d on
 * metric m into out (st->nblocks + 1 wide); their count, 0 when it has no
 * finite ratio units (a side 0 in every unit, or a unit at 0 or unbounded). */
int declared_units(const struct analysis *a, const struct study *st, int d, int m, double *out);
int is_count_metric(const char *name); /* pulls, migrations, counters: may be 0 */
/* Which way a metric is better: the one definition (analysis.c). */
enum { BETTER_LOWER = -1, BETTER_UNDEFINED = 0, BETTER_HIGHER = 1 };
int metric_better(const char *name);
const char *better_text(int better);  /* "lower is better", ... */
const char *metric_better_word(const char *name); /* "higher", "lower", NULL */
const char *metric_noun(const char *name); /* "pulls", "throughput", else the name */
char *primary_metric_list(const char *sep);
/* Metric m of one run (lb_pulls_total summed); NaN when not measured. */
double metric_value(const struct analysis *a, const struct run_row *row, int m);

/* ---- variance.c: Kalibera-Jones variance components and design ---- */
struct varcomp {
	int metric;
	int reference;           /* the group the log values are paired to */
	double between, within;  /* of log values; within NaN: one run per boot */
	int within_estimable;
	int n1, n2;              /* the design run: boots, runs per boot per cell */
	int dropped;             /* blocks left out: a count 0 on a side (no log ratio) */
	double half_width;       /* of a paired ratio's 95% interval, as a fraction */
	double target;           /* the half-width asked for */
	int need_boots, need_reps; /* boots x runs per boot reaching it, cheapest */
	double need_cost_s;
};
double default_half_width(const char *metric); /* 10%, 3% for throughput */
void variance_components(const struct analysis *a, const struct study *st, int m, struct varcomp *v);
void plan_design(struct varcomp *v, double target, double boot_cost_s, double block_cost_s);
/* seconds: a boot (with duty's calibration), one block of a topology's cells */
#define BOOT_COST_S 7.2
double block_cost_s(const struct analysis *a, const char *topology);
int plan_design_main(int argc, char **argv);
/* A pilot's two levels (T1 between boots, S2 within) of its first declared
 * comparison's primary endpoint; 0 when it has none. */
/* The log ratios of group g to ref, block by block, with each block's boot
 * (0 .. st->nboots-1); a block with a 0 on a side is left out, counted in
 * *dropped. Returns the count; lr and boot are st->nblocks + 1 wide. */
int pair_block_ratios(const struct analysis *a, const struct study *st, int m, int g, int ref, double *lr,
		      int *boot, int *dropped);
int pilot_variance(const struct analysis *a, const char *dir, double *t1, double *s2, char **source);

/* ---- procedures.c: the procedures measured, the power of a design ---- */
struct design_power {
	int boots, blocks, family;
	double effect;           /* 0.3: a ratio of 0.7 */
	double threshold;        /* Holm's first: FAMILY_ALPHA / family */
	double power, power_t3;  /* normal and heavy-tailed (t3) units */
	double half_width;       /* median, log scale */
	int procedure;           /* the test simulated */
	int cells;               /* a main effect over this many cells, or 0: a pair */
};
/* A main effect of a two-level design (full or fraction) of CELLS cells:
 * marginal, so the effects' test (the sign test) at FAMILY_ALPHA; its
 * per-block contrast, half the cells' mean log against the other half's,
 * has 2/CELLS of a paired ratio's variance when the cells vary alike and
 * independently, so T1 and S2 are scaled by it. */
void effect_power(struct design_power *dp, int boots, int blocks, int cells, int bits, double effect,
		  double t1, double s2);
void design_power(struct design_power *dp, int boots, int blocks, int family, double effect, double t1,
		  double s2);
void print_design_power(FILE *f, const char *what, const struct design_power *dp, double t1, double s2,
			const char *source);
int units_main(int argc, char **argv);
int procedures_main(int argc, char **argv);
int power_main(int argc, char **argv);

/* ---- output.c (CSV, JSON) and charts.c (plots-data/) ---- */
struct chart_plan {
	char *name;          /* sN-kind: charts/NAME.png and .svg */
	const char *script;  /* plots/SCRIPT */
	char *caption;
	char *skip_reason;   /* NULL when the chart is made */
	char *left_out;      /* panels left out (all 0) and why, or NULL */
};
#define CHART_KINDS 8
/* The charts of study s, in report order; made or skipped with a reason. */
void plan_charts(const struct analysis *a, int s, struct chart_plan plan[CHART_KINDS]);
void free_chart_plan(struct chart_plan plan[CHART_KINDS]);
/* "5-s runs", "runs of 1.3 to 2.4 s" (duration_s of the study's ok runs), or "" */
char *run_length_text(const struct analysis *a, const struct study *st);
const char *throughput_metric(const struct analysis *a, const struct study *st);
void csv_text(FILE *f, const char *s);   /* quoted when it must be */
void csv_number(FILE *f, double v);      /* ",V", "," when not finite */
void write_summary(const struct analysis *a, const char *path);
struct provenance;
/* summary.json: the provenance and summary.csv's cells */
void write_summary_json(const struct analysis *a, const struct provenance *p, const char *path);
void write_effects(const struct analysis *a, const char *path);
void write_comparisons(const struct analysis *a, const char *path);
/* The kernel's decision points (runs.csv's POINT_evaluated, POINT_differed,
 * POINT_applied) and the bit whose rule each one counts; the one table of
 * the mapping (PJT_CLASSIFY and LEGACY_LOAD have no counter). */
struct decision_point { const char *point, *bit; };
extern const struct decision_point decision_points[]; /* ends with { NULL, NULL } */
/* One point in one study: over the ok runs with counting on (the point's
 * POINT_evaluated cell filled) the sums and how many runs differed. */
struct exercised {
	int runs, runs_differed;
	double evaluated, differed, applied;
	const char *verdict;     /* "differed", "reached", "not reached", "counting off" */
};
void point_exercised(const struct analysis *a, const struct study *st, const char *point,
		     struct exercised *x);
/* The verdict of BIT's point in ST, "no counter" for a bit without one */
const char *bit_exercised(const struct analysis *a, const struct study *st, const char *bit);
void write_exercised(const struct analysis *a, const char *path);
void write_plot_data(const struct analysis *a, const char *dir);
char *study_slug(const struct analysis *a, int s);

/* ---- report.c ---- */
/* report.md and report.html with one marker line per chart; embed_charts
 * replaces the markers once the charts are drawn (no second analysis). */
void write_report(const struct analysis *a, const char *results_dir);
int embed_charts(const char *results_dir);
/* pjt-stats --domains DIR: each topology's sched-domain levels from DIR/domains.txt. */
int print_domains(const char *dir);

/* ---- compare.c: run/compare BASE A [B ...] (argv after --compare) ---- */
int compare_main(int argc, char **argv);

/* ---- json.c: a streaming writer; keys are NULL inside arrays ---- */
#define JSON_MAX_DEPTH 16
struct json {
	FILE *f;
	int depth;
	int first[JSON_MAX_DEPTH];
};
void json_string(FILE *f, const char *s);
void json_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_array(struct json *j, const char *key);
void json_end_array(struct json *j);
void json_str(struct json *j, const char *key, const char *value); /* NULL: null */
void json_num(struct json *j, const char *key, double value);      /* NaN, inf: null */
void json_int(struct json *j, const char *key, long value);
void json_bool(struct json *j, const char *key, int value);

/* ---- provenance.c: what a results folder says about its runs ---- */
struct kv {                  /* "key: value" lines (host.txt, series-version.txt) */
	int n;
	char **keys, **values;
};
void kv_parse(struct kv *kv, const char *text);
const char *kv_get(const struct kv *kv, const char *key);

struct record { char *kind, *value; };
/* The matrix as planned, at three levels of detail: plan.txt (the
 * planner's records), the *.matrix file (its directives), runs.csv (the
 * topologies, workloads and combinations it holds). */
enum { SRC_PLAN, SRC_MATRIX, SRC_RUNS, NSOURCES };
extern const char *const provenance_source_names[NSOURCES];

struct column_stats { int n; double min, median, max, mean; };
void column_summary(const struct run_table *t, const char *name, struct column_stats *out);
int column_values(const struct run_table *t, const char *name, char ***out);

struct provenance {
	char *dir, *runs_csv;
	char *matrix_file;           /* basename, or NULL */
	int have[NSOURCES];
	int nrec[NSOURCES];
	struct record *rec[NSOURCES];
	const char *name;            /* the matrix's name, or NULL */
	char *seed;
	double duration_s, settle_s; /* NaN: unknown */
	char *kernel_path, *kernel_sha, *image_path, *image_sha;
	int n_kernel_shas, n_image_shas; /* distinct values in runs.csv */
	char **kernel_shas, **image_shas;
	int have_series, have_host;
	struct kv series, host;
	const char *date;            /* host.txt's date, or NULL */
	int nboots;
	char **boots;
	struct column_stats host_load1, host_cpu_busy;
};
struct provenance *read_provenance(const char *dir, const struct run_table *t);
const char *provenance_value(const struct provenance *p, int src, const char *kind);
char *provenance_dir(const char *csv_path);

/* ---- main.c ---- */
int coverage_simulation(int argc, char **argv);

#endif
