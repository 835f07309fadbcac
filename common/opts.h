/* The command line of pjtload: MODE key=value ... */
#ifndef PJTLOAD_OPTS_H
#define PJTLOAD_OPTS_H

#include <sched.h>
#include <stdint.h>

enum pjt_mode { MODE_DUTY, MODE_CALIBRATE, MODE_PINGPONG, MODE_FORK };
enum pjt_via { VIA_PIPE, VIA_FUTEX };

struct pjt_options {
	enum pjt_mode mode;
	unsigned threads;        /* duty */
	unsigned duty;           /* duty: percent of the period spent busy */
	uint64_t period_ns;      /* duty */
	uint64_t duration_ns;    /* all modes */
	uint64_t wss;            /* duty, calibrate: bytes per thread */
	uint64_t seed;           /* duty, calibrate */
	int have_cpus;           /* all modes: cpus= given */
	cpu_set_t cpus;
	int per_thread;          /* duty, pingpong */
	int calibrate;           /* duty: calibrate first when no cache */
	unsigned pairs;          /* pingpong */
	enum pjt_via via;        /* pingpong */
	uint64_t rate;           /* fork: forks/s, 0 = as fast as possible */
};

/* What the machine allows; read by options_environment(), faked in tests. */
struct pjt_environment {
	uint64_t task_limit;     /* new tasks that may still be created */
	cpu_set_t available;     /* CPUs this process may run on */
};

const char *mode_name(enum pjt_mode mode);
int options_environment(struct pjt_environment *env);

/* Parses argv (argv[0] is the mode). On error returns -1 with a message
 * naming the option in err. Does not handle --help. */
int parse_options(int argc, char **argv, const struct pjt_environment *env,
		  struct pjt_options *opts, char *err, size_t err_size);

/* Tasks a run creates besides the main thread. */
uint64_t options_tasks_needed(const struct pjt_options *opts);

#define WSS_MIN 4096
#define WSS_MAX (1ULL << 32)
#define PERIOD_MAX_NS (10ULL * 1000000000)
#define DURATION_MAX_NS (24ULL * 3600 * 1000000000)
#define PAIRS_MAX 4096
#define FORK_RATE_MAX 1000000

#endif
