/* pjtload: the workload generator of pjt-sched. See usage() below. */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "modes.h"
#include "options.h" /* common/: the command line convention of the C tools */
#include "opts.h"

static const char usage_text[] =
	"usage: pjtload MODE [key=value ...]\n"
	"       pjtload --help | pjtload MODE --help\n"
	"\n"
	"Modes:\n"
	"  duty       N threads; each period a thread does records for duty% of the\n"
	"             period (wall clock) and sleeps until the next period boundary\n"
	"  calibrate  one thread at duty 100: the uncontended records/s, cached\n"
	"  pingpong   pairs of threads passing a token (pipe or futex)\n"
	"  fork       fork children that exit at once, at rate forks/s\n"
	"\n"
	"Times take ns us ms s (decimals allowed: 1.5s), sizes k m g.\n"
	"Prints one line of key=value on stdout; an empty value is not measured.\n"
"-h and --help may come anywhere (after MODE: MODE's help); \"--\" ends the\n"
"options.\n"
	"Exit status: 0 done, 1 runtime failure, 2 bad options.\n";

static const char *const mode_help[] = {
	[MODE_DUTY] =
	"usage: pjtload duty [threads=1] [duty=50] [period=10ms] [duration=1s]\n"
	"       [wss=16k] [seed=1] [cpus=LIST] [per_thread=0] [calibrate=0]\n"
	"\n"
	"Each thread works in periods starting at common boundaries: from its\n"
	"wake-up it is busy (records over its own wss-byte working set) for duty%\n"
	"of the period by CLOCK_MONOTONIC, then clock_nanosleep(TIMER_ABSTIME) to\n"
	"the next boundary (duty=100: busy from boundary to boundary). A record\n"
	"is 64 dependent read-modify-write steps at random cache lines of the\n"
	"working set; the clock is read every records_per_check\n"
	"records, so that reading it costs at most 1/20 of the time (under TCG with\n"
	"the hpet clocksource one read costs about three records); a calibration\n"
	"fixes it, so duty runs and their calibration run the same loop.\n"
	"Wake-up latency is the actual wake time minus the boundary. An overrun is\n"
	"a boundary that passed while the thread was still busy with an earlier\n"
	"period (for duty=100: other than the one its busy part ends at); that\n"
	"period is skipped.\n"
	"rate_fraction: the records done in the busy windows (a window's last chunk\n"
	"past its end credited pro rata) over U x the busy time asked (threads x\n"
	"periods x duty% of a period), U = uncontended_records_per_s = the larger\n"
	"of the calibration and this run's fastest window: at most 1. It needs a\n"
	"calibration for this wss in the cache ($PJTLOAD_CALIB, default\n"
	"/tmp/pjtload.calib); calibrate=1 runs one (1s) when there is none.\n"
	"cpus=0-3,5 sets the affinity of all threads. per_thread=1 adds a line per\n"
	"thread (thread=N ...).\n"
	"Keys: mode threads duty period_ms wss duration_s records records_per_check\n"
	"records_per_s calib_records_per_s uncontended_records_per_s rate_fraction\n"
	"periods overruns wakeup_samples\n"
	"wakeup_p50_us wakeup_p90_us wakeup_p99_us wakeup_p999_us wakeup_max_us\n"
	"migrations nr_migrations ops_per_s top_cpus\n",
	[MODE_CALIBRATE] =
	"usage: pjtload calibrate [duration=1s] [wss=16k] [seed=1] [cpus=LIST]\n"
	"\n"
	"One thread at duty 100 (the duty mode's loop), one window a period:\n"
	"calib_records_per_s is its fastest window (the max of many short\n"
	"samples, so a preemption or a slow moment of the host does not lower\n"
	"it), records_per_s its average. Stores calib_records_per_s for this wss\n"
	"in $PJTLOAD_CALIB (default\n"
	"/tmp/pjtload.calib, per boot), where duty mode finds it.\n"
	"Keys: mode wss duration_s records records_per_check records_per_s\n"
	"calib_records_per_s overruns migrations nr_migrations calib_file\n",
	[MODE_PINGPONG] =
	"usage: pjtload pingpong [pairs=1] [via=pipe|futex] [duration=1s]\n"
	"       [cpus=LIST] [per_thread=0]\n"
	"\n"
	"Each pair passes a token carrying a CLOCK_MONOTONIC timestamp back and\n"
	"forth, through two pipes or a shared futex word. Wake-up latency is the\n"
	"time from the write to the partner's return from its read.\n"
	"Keys: mode pairs via duration_s round_trips ops_per_s (round trips/s)\n"
	"wakeup_samples wakeup_p50_us ... wakeup_max_us migrations nr_migrations\n"
	"top_cpus, and the duty keys left empty\n",
	[MODE_FORK] =
	"usage: pjtload fork [rate=0] [duration=1s] [cpus=LIST]\n"
	"\n"
	"Forks children that note their CPU and exit at once, rate forks/s paced\n"
	"by absolute sleeps (0: as fast as possible), reaping as it goes.\n"
	"migrations counts the parent and its children (inherited perf counter).\n"
	"Keys: mode rate duration_s forks ops_per_s (forks/s) child_cpus\n"
	"(CPU:children,...) migrations, and the other keys left empty\n",
};

/* -h, --help: MODE's help after a mode, else the usage. */
static void help(const struct opt_parser *p)
{
	enum pjt_mode mode;

	if (p->noperands)
		for (mode = MODE_DUTY; mode <= MODE_FORK; mode++)
			if (!strcmp(p->operands[0], mode_name(mode))) {
				fputs(mode_help[mode], stdout);
				return;
			}
	fputs(usage_text, stdout);
}

int main(int argc, char **argv)
{
	struct pjt_environment env;
	struct pjt_options opts;
	struct opt_parser cmd;
	char err[512];

	/* no options of its own: MODE and key=value are operands */
	opt_init(&cmd, "pjtload", "", help, argc - 1, argv + 1);
	while (opt_next(&cmd))
		;
	if (options_environment(&env)) {
		perror("pjtload: reading the affinity and task limits");
		return 1;
	}
	if (parse_options(cmd.noperands, cmd.operands, &env, &opts, err, sizeof(err)))
		opt_error(cmd.tool, "%s", err);
	/* Threads and children inherit the affinity. */
	if (opts.have_cpus && sched_setaffinity(0, sizeof(opts.cpus), &opts.cpus)) {
		perror("pjtload: sched_setaffinity");
		return 1;
	}
	switch (opts.mode) {
	case MODE_DUTY: return run_duty(&opts);
	case MODE_CALIBRATE: return run_calibrate(&opts);
	case MODE_PINGPONG: return run_pingpong(&opts);
	case MODE_FORK: return run_fork(&opts);
	}
	return 1;
}
