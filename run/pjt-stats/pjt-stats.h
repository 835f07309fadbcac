/* pjt-stats: statistics, chart data, report and comparison for runs.csv.
 * See run/stats --help and the header of analysis.c for the definitions. */
#ifndef PJT_STATS_H
#define PJT_STATS_H

#include <stdint.h>
#include <stdio.h>

#define EXIT_BAD_INPUT 2

/* ---- util.c ---- */
void die_input(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void die_system(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
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
void format_number(char *buf, size_t size, double v); /* "" for NaN */

/* ---- csv.c: runs.csv ---- */
enum run_status { RUN_OK, RUN_FAILED, RUN_CRASHED };

struct run_row {
	int line;          /* line in the file where the row starts */
	char **text;       /* every cell as written (unquoted) */
	double *value;     /* numeric cells; NaN = empty (not measured) */
	enum run_status status;
};

struct run_table {
	char *path;
	int ncols;
	char **names;
	int *is_metric;    /* 1 for numeric columns from duration_s on, not status */
	int nrows;
	struct run_row *rows;
	int col_seq, col_topology, col_combo, col_features, col_workload, col_rep,
	    col_status;
};

struct run_table *read_runs(const char *path);
int column_index(const struct run_table *t, const char *name); /* -1 absent */

/* ---- order.c: order statistics and resampling ---- */
#define BOOTSTRAP_RESAMPLES 2000
#define BOOTSTRAP_BASE_SEED UINT64_C(20121025) /* the RFC's date */
#define EXACT_CI_MIN_N 6

struct rng { uint64_t state; };
uint64_t rng_next(struct rng *r);              /* splitmix64 */
uint64_t rng_below(struct rng *r, uint64_t n); /* uniform in [0, n) */
struct rng rng_for_key(const char *key);       /* base seed ^ FNV-1a(key) */

void sort_doubles(double *v, int n);
double quantile_sorted(const double *sorted, int n, double p); /* type 7 */
double median_of(double *v, int n);  /* sorts v */

struct median_ci {
	double lo, hi;
	const char *method;  /* "binomial", "bootstrap" or "" (n < 2) */
};
struct median_ci median_confidence(const double *sorted, int n, const char *key);

/* Percentile interval (the 51st and 1950th of 2000 sorted values). */
void percentile_interval(double *stats, int count, double *lo, double *hi);
/* One bootstrap resample's median of v[0..n). scratch has room for n. */
double resampled_median(struct rng *r, const double *v, int n, double *scratch);
/* Bootstrap CI of median(b)/median(a), a and b resampled independently. */
void ratio_confidence(const double *a, int na, const double *b, int nb,
		      const char *key, double *lo, double *hi);
double ratio_of(double num, double den); /* 0/0 = 1, x/0 = inf */

/* ---- analysis.c ---- */
struct sample {              /* one metric's values in one group */
	int n;
	double *sorted;
	double median, q1, q3, min, max;
	struct median_ci ci;
};

struct ratio {
	int present;
	double value, lo, hi;
	int excludes_one;
};

struct combo {
	char *name;
	char *features;          /* as written, "none" for no bit */
	uint32_t bits;           /* mask over analysis.bit_names */
	int only_project_bits;   /* no unknown bits: usable as a factorial cell */
	int colour;              /* 0xRRGGBB */
};

struct group {               /* one study x one combo */
	int combo;               /* index into analysis.combos */
	int n_runs, n_ok, n_crashed, n_failed;
	struct sample *metric;   /* [analysis.nmetrics] */
	struct ratio *to_stock, *to_rfc_before;
};

struct effect {
	uint32_t term;           /* 1 bit = main effect, 2 bits = interaction */
	int metric;
	double value, lo, hi;
	int excludes_zero;
};

struct study {               /* one topology x workload */
	char *topology, *workload;
	int ngroups;
	struct group *groups;    /* in display order of the combos */
	int *measured;           /* [nmetrics]: some run has a value */
	int stock, rfc_before, rfc_after; /* group index or -1 */
	/* factorial design: the largest set of bits whose 2^k cells all exist */
	int k;
	uint32_t factor_bits[8];
	int cell_group[256];     /* cell mask (over factor_bits order) -> group */
	int neffects;
	struct effect *effects;
	char *skip_effects;      /* why there are no effects, or NULL */
};

struct analysis {
	const struct run_table *table;
	int nmetrics;
	char **metric_names;
	int *metric_col;         /* column in table, -1 for derived */
	int ncombos;
	struct combo *combos;    /* display order */
	int nbits;
	char *bit_names[32];
	int nstudies;
	struct study *studies;
	int n_ok, n_crashed, n_failed;
};

struct analysis *analyse(const struct run_table *t, int notes);
int metric_index(const struct analysis *a, const char *name);
int study_group_of(const struct study *s, int combo); /* -1 absent */
char *term_name(const struct analysis *a, const struct study *s, uint32_t term);
char *design_name(const struct analysis *a, const struct study *st); /* bits joined by + */

/* ---- output.c ---- */
struct chart_plan {
	char *name;          /* sN-kind: charts/NAME.png and .svg */
	const char *script;  /* plots/SCRIPT */
	char *caption;
	char *skip_reason;   /* NULL when the chart is made */
};
#define CHART_KINDS 7
/* The charts of study s, in report order; made or skipped with a reason. */
void plan_charts(const struct analysis *a, int s, struct chart_plan plan[CHART_KINDS]);
const char *throughput_metric(const struct analysis *a, const struct study *st);
void write_summary(const struct analysis *a, const char *path);
void write_effects(const struct analysis *a, const char *path);
void write_plot_data(const struct analysis *a, const char *dir);
char *study_slug(const struct analysis *a, int s);

/* ---- report.c ---- */
void write_report(const struct analysis *a, const char *results_dir);

/* ---- compare.c ---- */
int compare_results(const char *dir_a, const char *dir_b);

#endif
