/*
 * matrix-plan: parse, validate and expand a feat-matrix file into the run
 * plan that run/matrix executes (see matrix-plan --help, docs/matrix.md
 * and INTERFACES.md).  One file a job:
 *   parse.c       the file: lines, words, the directive table, errors
 *   directives.c  the plan's directives, combos, factorial, replicates
 *   fraction.c    regular two-level fractions, their aliases
 *   workload.c    workloads: pjtload's parser, the other tools' keys
 *   rtapp.c       rt-app's JSON files, read with json-c
 *   order.c       the run order: seeded shuffle, Williams designs
 *   plan.c        the estimate, shards, the printed plan
 *   main.c        the command line and the overrides
 *
 * Every bad line is reported as FILE:LINE: message (all of them, in line
 * order) and nothing is printed on stdout; exit 2.  A good file gives one
 * tab-separated record a line on stdout.
 *
 * One source of truth for each contract: the bits, the tunables and their
 * ranges come from run/contract (build/contract.h, generated), workload
 * options are parsed by the workload generator's own parser (common/opts.c
 * and units.c, linked in), so a plan never holds what the guest
 * would refuse.
 */
#ifndef MATRIX_PLAN_H
#define MATRIX_PLAN_H

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contract.h" /* generated from run/contract by run/matrix.mk */
#include "options.h"  /* the C tools' command line (common/) */
#include "opts.h"     /* the workload generator's own option parser */
#include "units.h"    /* its time parser (a tool's microsecond keys) */
#include "splitmix64.h" /* the seeded generator pjtload and pjt-stats share */

#define PROG "matrix-plan"
#define MAX_COMBOS 256
#define MAX_WORKLOADS 64
#define MAX_TOPOLOGIES 16
#define MAX_TUNABLES 8
#define MAX_FACTORIALS 8
#define MAX_ERRORS 1000
#define MAX_RUNS 100000
/* A plan estimated above a day is warned about, above a year refused:
 * 76,800 runs of 600 min is a typo, not a study. */
#define WARN_PLAN_S (24LL * 3600)
#define MAX_PLAN_S (365LL * 24 * 3600)
#define MAX_VCPUS 64
#define TEXT_MAX 512

/* The project's feature bits, in the order the features column lists them. */
extern const char *const project_bits[]; /* parse.c */
#define NR_BITS (sizeof((const char *const[]){ PJT_CONTRACT_BITS }) / sizeof(const char *))

/*
 * Wall-clock costs for --dry-run's estimate, measured under TCG (4 vCPUs)
 * on a 2-core host: a boot, with the guest plan's last 2 s; a run beyond
 * its settle and duration; duty's calibration (pjtload calibrate
 * duration=1s, once per boot and wss); rt-app measuring its ns per loop
 * (9 to 18 s); one hackbench invocation, per group and per loop (400
 * messages) of each group: groups=1 loops=10 took 0.5 to 4.6 s, 1.3 s
 * on average over quick.matrix's 69.
 */
#define EST_BOOT_MS 6000
#define EST_RUN_OVERHEAD_MS 400
#define EST_CRASH_REBOOT_MS 15000
#define EST_CALIBRATE_MS 1200
#define EST_RTAPP_CALIBRATION_MS 12000
#define EST_HACKBENCH_GROUP_MS 250
#define EST_HACKBENCH_LOOP_MS 100
/* perf bench: perf's own start-up (a large binary) beside the benchmark;
 * sched messaging is hackbench's program, sched pipe one round trip a loop
 * (about 1 ms under TCG on 2 vCPUs: loops=2000 made 1010 a second). */
#define EST_PERF_START_MS 300
#define EST_PERF_PIPE_LOOP_US 1000
/* cyclictest: reading its histogram (a line per microsecond up to 100 ms). */
#define EST_CYCLICTEST_HIST_MS 1000
/* An invocation (hackbench, perf bench) estimated longer than this many run
 * durations is refused: the run would be that invocation, whatever its
 * duration. */
#define HACKBENCH_MAX_DURATIONS 10

struct combo {
	char name[TEXT_MAX];
	unsigned bits;
	int line;
	int replicate_of; /* a replicate arm: the index of the combo it repeats, else -1 */
};

/* Two names a line declares: compare A B, replicate NAME COMBO. */
struct name_pair {
	char a[TEXT_MAX], b[TEXT_MAX];
	int line;
};

/* The order of the runs within a repetition block. */
enum order { ORDER_WILLIAMS, ORDER_RANDOM };

#define TOOL_KEYS 4

struct workload {
	char kind[32];
	char text[TEXT_MAX]; /* kind and args, single-spaced: the CSV value */
	char canon[TEXT_MAX]; /* kind and args sorted: duplicates by meaning */
	char file[PATH_MAX]; /* rt-app: the JSON file on the host (real path) */
	/* hackbench, perf-*, cyclictest: the options' values, by the index of
	 * their key in the kind's table (tool_kinds), 0 when not given. */
	const struct tool_kind *tool;
	unsigned long long value[TOOL_KEYS];
	long long rtapp_duration_s; /* rt-app: its global.duration, or -1 (none: forever) */
	int rtapp_calibrates; /* rt-app: measures its ns per loop before it starts */
	int argc;
	int mode; /* a pjtload mode, or -1 */
	struct pjt_options opts; /* pjtload: as its parser read them */
	int invalid;
	int line;
};

struct topology {
	int sockets, cores, threads;
	int plain; /* written as "smp N": booted with --smp N */
	int line;
};

struct tunable {
	const char *name;
	unsigned long value;
	int line;
};

struct factorial {
	unsigned bits[NR_BITS]; /* in the order written */
	int n;
	int line;
};

struct error {
	int line;
	int order;
	char text[TEXT_MAX + 128];
};

/* The matrix as the file and the overrides give it (parse.c). */
struct matrix {
	const char *path;
	char dir[PATH_MAX];
	char name[TEXT_MAX];
	int name_line;
	long long duration_ms;
	int duration_line;
	long long settle_ms;
	int settle_line;
	long reps;
	int reps_line;
	long boots;
	int boots_line;
	int counting; /* pjt_counting: the decision counters on (1) or off (0) */
	int counting_line;
	int trace; /* trace events per run (traces/SEQ.csv) on (1) or off (0) */
	int trace_line;
	unsigned long long seed;
	int seed_line;
	struct combo combos[MAX_COMBOS];
	int nr_combos;
	/* compare A B: the declared questions (the confirmatory family) */
	struct name_pair compares[MAX_COMBOS];
	int nr_compares;
	/* the noise study's QEMU options: accel thread=single|multi, vCPUs pinned */
	char accel[64];
	int accel_line;
	char pin[TEXT_MAX];
	int pin_line;
	struct workload workloads[MAX_WORKLOADS];
	int nr_workloads;
	struct topology topologies[MAX_TOPOLOGIES];
	int nr_topologies;
	struct tunable tunables[MAX_TUNABLES];
	int nr_tunables;
	struct factorial factorials[MAX_FACTORIALS];
	int nr_factorials;
	/* replicate NAME COMBO: an arm on COMBO's bits under a name of its own
	 * (A/A checks); a the arm's name, b the combo it repeats */
	struct name_pair replicates[MAX_COMBOS];
	int nr_replicates;
	enum order order;
	int order_line;
	int last_line;
	int nr_directive_lines; /* lines with a word: 0 is an empty file */
};
extern struct matrix m;

extern struct error errors[MAX_ERRORS]; /* parse.c: every bad line, then sorted */
extern int nr_errors;

/* order.c */
struct williams {
	int combo_seqs, workload_seqs;
	int *combo_seq, *workload_seq;   /* the designs, williams_sequences() */
	int *combo_label, *workload_label; /* per topology: treatment -> combo, workload */
};
extern uint64_t rng_state; /* the plan's seeded generator */

/* plan.c: --shard K/N (0: no shard) */
extern long shard_k, shard_n;

/* parse.c */
int bit_index(const char *name);
void error_at(int line, const char *fmt, ...);
int error_cmp(const void *a, const void *b);
void features_text(unsigned bits, char *out, size_t size);
int is_name(const char *s, const char *extra);
int once(int line, const char *directive, int *seen_line);
int parse_file(const char *path);
int parse_matrix_time(int line, const char *what, const char *s, int allow_zero,
			     long long *out);
int parse_uint(const char *s, unsigned long long max, unsigned long long *out);
void unknown_bit(int line, const char *name);
int want_args(int line, int argc, int min, int max, const char *usage);
/* directives.c */
int add_cell(int line, const char *what, const unsigned *bits_of, int n, unsigned letters);
void check_compares(void);
void do_accel(int line, int argc, char **argv);
void do_boots(int line, int argc, char **argv);
void do_combo(int line, int argc, char **argv);
void do_compare(int line, int argc, char **argv);
void do_counting(int line, int argc, char **argv);
void do_duration(int line, int argc, char **argv);
void do_factorial(int line, int argc, char **argv);
void do_name(int line, int argc, char **argv);
void do_order(int line, int argc, char **argv);
void do_pin(int line, int argc, char **argv);
void do_replicate(int line, int argc, char **argv);
void do_reps(int line, int argc, char **argv);
void do_seed(int line, int argc, char **argv);
void do_settle(int line, int argc, char **argv);
void do_smp(int line, int argc, char **argv);
void do_trace(int line, int argc, char **argv);
void do_tunable(int line, int argc, char **argv);
void expand_factorials(void);
int parse_bits(int line, int n, char **names, unsigned *mask, unsigned *order);
int parse_smp(const char *s, struct topology *t, char *why, size_t whysize);
void resolve_replicates(void);
/* fraction.c */
void do_fraction(int line, int argc, char **argv);
void expand_fractions(void);
void print_fractions(void);
/* workload.c */
void check_workloads(void);
void do_workload(int line, int argc, char **argv);
long long invocation_ms(const struct workload *w);
/* rtapp.c */
int check_rtapp(int line, int argc, char **argv, struct workload *w);
/* order.c */
void shuffle(int *a, int n);
void williams_block(const struct williams *w, int t, long slot, long boot, int *order);
void williams_free(struct williams *w);
void williams_init(struct williams *w);
/* plan.c */
void duration_text(long long s, char *out, size_t size);
int parse_shard(const char *s);
long long plan_estimate_ms(int whole);
void print_plan(void);

#endif
