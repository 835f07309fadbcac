/* matrix-plan: the command line, the overrides, the exit status. */
#include "matrix-plan.h"

/*
 * --workloads KIND,...: drop the file's workload lines of other kinds, so
 * one workload of a large matrix can be run alone (its plan, seeds and
 * design are otherwise the file's).  Returns nonzero, having said why, when
 * a kind names none of the file's workloads or nothing would be left.
 */
static int keep_workload_kinds(const char *list)
{
	char kinds[TEXT_MAX], *kind, *save;
	int keep[MAX_WORKLOADS] = { 0 }, bad = 0, n = 0;

	if (strlen(list) >= sizeof(kinds)) {
		fprintf(stderr, PROG ": --workloads: too long\n");
		return 1;
	}
	strcpy(kinds, list);
	for (kind = strtok_r(kinds, ",", &save); kind; kind = strtok_r(NULL, ",", &save)) {
		int found = 0;

		for (int i = 0; i < m.nr_workloads; i++)
			if (!strcmp(m.workloads[i].kind, kind))
				keep[i] = found = 1;
		if (!found) {
			fprintf(stderr, PROG ": --workloads: the matrix has no '%s' workload\n", kind);
			bad = 1;
		}
	}
	for (int i = 0; i < m.nr_workloads; i++)
		if (keep[i])
			m.workloads[n++] = m.workloads[i];
	if (!bad && n == 0) {
		fprintf(stderr, PROG ": --workloads: no kind given\n");
		bad = 1;
	}
	if (!bad)
		m.nr_workloads = n;
	return bad;
}

static void usage(const struct opt_parser *p)
{
	(void)p;
	fputs("usage: matrix-plan [--smp SPEC] [--reps N] [--duration TIME] [--counting on|off]\n"
	      "                   [--workloads KIND,...] [--shard K/N] FILE.matrix\n"
	      "\n"
	      "Parses and validates FILE.matrix (every bad line is reported as\n"
	      "FILE:LINE: message), expands combos, factorial and fraction cells, replicates,\n"
	      "workloads and repetitions, orders each repetition block (order\n"
	      "williams, the default: each workload's runs together, its combos in\n"
	      "the order of a Williams design, the workloads' order another; order\n"
	      "random: a seeded shuffle of the block), and prints the plan, one\n"
	      "tab-separated record a line:\n"
	      "  matrix FILE | name NAME | seed N | duration_ms N | settle_ms N | reps N\n"
	      "  boots N | order williams COMBO_SEQUENCES WORKLOAD_SEQUENCES | order random\n"
	      "  counting 0|1 | accel tcg,thread=single|multi | pin_vcpus CPU,CPU...\n"
	      "  trace 0|1 | tunable NAME VALUE\n"
	      "  topology SxCxT --smp N|--topology S,C,T\n"
	      "  combo NAME FEATURES | replicate NAME COMBO (after its combo record)\n"
	      "  fraction K P RESOLUTION CELLS | factor LETTER FEATURE | generator X=WORD\n"
	      "  defining I=WORD=... | alias TERM ALIASES (each fraction's letters: every\n"
	      "  main effect, then each chain of two-factor interactions once; ALIASES\n"
	      "  the words of at most two letters it is aliased with, space-separated, - none)\n"
	      "  compare COMBO REFERENCE (run/stats --power --plan sizes its family)\n"
	      "  workload TEXT | file TEXT HOSTPATH GUESTNAME\n"
	      "  run SEQ TOPOLOGY COMBO FEATURES REP WORKLOAD BOOT | runs N | estimate_s N\n"
	      "(BOOT: which of the topology's N boots holds the run's repetition block.)\n"
	      "pjtload workloads are checked by pjtload's own parser against each\n"
	      "topology's vCPUs; two workloads that parse the same are a duplicate.\n"
	      "--smp, --reps, --duration, --counting replace what the file says (--smp: all smp lines).\n"
	      "--workloads KIND,...: keep only the file's workload lines of these kinds\n"
	      "(duty, fork, hackbench, ...: the line's first word); a kind the file does not\n"
	      "have is refused.\n"
	      "--shard K/N: only the runs of the K-th of N shards (N at most boots): boot B\n"
	      "of every topology goes to shard (B-1) % N + 1, so each shard holds whole\n"
	      "repetition blocks; seq numbers and order are the whole plan's.  Adds the\n"
	      "records shard K N and plan_runs N (the whole plan's runs); runs and\n"
	      "estimate_s are the shard's.\n"
	      "-h, --help: this text; --version: the project's and the series' version.\n"
	      "Options may come before or after FILE.matrix, as --opt V or --opt=V; \"--\"\n"
	      "ends them.\n"
	      "A plan estimated above 24 h is printed with a warning on stderr; above 365 days\n"
	      "it is refused.  Every directive, its default and range: docs/matrix.md.\n"
	      "Exit: 0 plan printed, 1 out of memory or stdout not written, 2 bad file or usage.\n", stdout);
}

int main(int argc, char **argv)
{
	const char *smp_override = NULL, *reps_override = NULL, *duration_override = NULL;
	const char *counting_override = NULL, *shard_arg = NULL, *workloads_kept = NULL;
	const char *path;
	int usage_errors = 0;
	struct opt_parser opt;

	opt_init(&opt, PROG, "smp= reps= duration= counting= workloads= shard=", usage, argc - 1, argv + 1);
	while (opt_next(&opt)) {
		if (opt_is(&opt, "smp"))
			smp_override = opt.value;
		else if (opt_is(&opt, "reps"))
			reps_override = opt.value;
		else if (opt_is(&opt, "duration"))
			duration_override = opt.value;
		else if (opt_is(&opt, "counting"))
			counting_override = opt.value;
		else if (opt_is(&opt, "workloads"))
			workloads_kept = opt.value;
		else if (opt_is(&opt, "shard"))
			shard_arg = opt.value;
	}
	if (opt.noperands == 0)
		opt_error(PROG, "no matrix file given");
	if (opt.noperands > 1)
		opt_error(PROG, "one matrix file only, not %d", opt.noperands);
	path = opt.operands[0];

	m.duration_ms = 10000;
	m.settle_ms = 1000;
	m.reps = 5;
	m.boots = 1;
	m.order = ORDER_WILLIAMS;
	m.seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
	if (parse_file(path))
		return 2;

	/* Overrides: checked with the file's rules, reported against the option. */
	{
		int file_errors = nr_errors;
		char *one[2];

		if (smp_override) {
			struct topology t;
			char why[TEXT_MAX + 64];

			if (parse_smp(smp_override, &t, why, sizeof(why))) {
				fprintf(stderr, PROG ": --smp: %s\n", why);
				usage_errors++;
			} else {
				m.topologies[0] = t;
				m.nr_topologies = 1;
			}
		}
		if (reps_override) {
			one[0] = "reps";
			one[1] = (char *)reps_override;
			m.reps_line = 0;
			do_reps(0, 2, one);
		}
		if (counting_override) {
			one[0] = "counting";
			one[1] = (char *)counting_override;
			m.counting_line = 0;
			do_counting(0, 2, one);
		}
		if (duration_override) {
			one[0] = "duration";
			one[1] = (char *)duration_override;
			m.duration_line = 0;
			do_duration(0, 2, one);
		}
		if (workloads_kept && keep_workload_kinds(workloads_kept))
			usage_errors++;
		for (int i = file_errors; i < nr_errors; i++) {
			fprintf(stderr, PROG ": --%s\n", errors[i].text);
			usage_errors++;
		}
		nr_errors = file_errors;
	}
	if (m.nr_topologies == 0) {
		m.topologies[0] = (struct topology){ 1, 4, 1, 1, 0 };
		m.nr_topologies = 1;
	}
	if (m.boots > m.reps)
		error_at(m.boots_line, "boots %ld > reps %ld: a boot holds whole repetition blocks "
			 "(each block runs every cell once)", m.boots, m.reps);
	if (shard_arg && parse_shard(shard_arg)) {
		fprintf(stderr, PROG ": --shard '%s': want K/N, whole numbers with 1 <= K <= N\n",
			shard_arg);
		usage_errors++;
	} else if (shard_n > m.boots) {
		fprintf(stderr, PROG ": --shard %s: a shard is whole boots and the plan has %ld "
			"per topology, so N is at most %ld (more shards: raise boots in %s, up to reps)\n",
			shard_arg, m.boots, m.boots, path);
		usage_errors++;
	}
	if (usage_errors) /* after the options' errors, each "matrix-plan: --OPTION..." */
		fprintf(stderr, PROG ": see " PROG " --help\n");
	check_workloads();

	qsort(errors, (size_t)nr_errors, sizeof(errors[0]), error_cmp);
	for (int i = 0; i < nr_errors; i++)
		fprintf(stderr, "%s:%d: %s\n", path, errors[i].line, errors[i].text);
	if (nr_errors || usage_errors)
		return 2;
	if ((long long)m.nr_topologies * m.reps * m.nr_combos * m.nr_workloads > MAX_RUNS) {
		fprintf(stderr, "%s:%d: more than %d runs; lower reps or cells\n", path,
			m.reps_line ? m.reps_line : m.last_line, MAX_RUNS);
		return 2;
	}
	{
		long long est_s = (plan_estimate_ms(1) + 999) / 1000;
		char text[64];

		duration_text(est_s, text, sizeof(text));
		if (est_s > MAX_PLAN_S) {
			fprintf(stderr, "%s:%d: the plan would take about %s (%lld days): more than %lld "
				"days is refused; lower reps, duration or cells\n", path,
				m.reps_line ? m.reps_line : m.last_line, text, est_s / 86400,
				MAX_PLAN_S / 86400);
			return 2;
		}
		if (est_s > WARN_PLAN_S)
			fprintf(stderr, PROG ": warning: %s: the plan's estimated duration is %s, more "
				"than %lld h (run/distribute --shards N spreads it over hosts)\n", path, text,
				WARN_PLAN_S / 3600);
	}
	print_plan();
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
