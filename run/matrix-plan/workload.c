/* matrix-plan: workload lines, checked by pjtload's own parser or against
 * the other tools' key tables, bounded by the run's duration, duplicates
 * found by meaning. */
#include "matrix-plan.h"

/*
 * Workloads.  pjtload's modes (duty calibrate pingpong fork) are checked by
 * pjtload's own parser (common/opts.c, linked in), against the
 * guest each topology boots: its vCPUs and GUEST_TASK_LIMIT.  The planner
 * adds only what a matrix file needs beyond pjtload: duration= comes from
 * the directive, a key is written once, and no ',' (CSV cells).  The other
 * tools' keys (hackbench, perf bench, cyclictest) are the runner's own
 * translation to their flags, so they are checked here (tool_kinds).
 */

/* run/boot gives the guest 512 MB: the kernel sizes threads-max from
 * memory (totalram pages / 32 on x86_64: about 3900 here), and the guest's
 * own tasks take some; 3500 leaves room. */
#define GUEST_TASK_LIMIT 3500

/*
 * Workloads that are other people's tools: hackbench, perf bench sched
 * messaging / pipe, cyclictest.  Their keys are the runner's own
 * translation to the tool's flags (matrix-exec.sh), so they are checked
 * here: each key once, a whole number in its range (a time for a
 * microsecond key), the required ones given.  An absent key has its
 * default, so two workloads with the same values are one.
 */
struct tool_key {
	const char *key;
	unsigned long long min, max, def;
	int required;
	int micros; /* a time (ns us ms s), held in whole microseconds */
};

struct tool_kind {
	const char *kind;
	const char *needs; /* why the required keys are required */
	int groups_of_40;  /* groups= is hackbench's: 20 senders + 20 receivers each */
	struct tool_key keys[TOOL_KEYS + 1];
};

static const struct tool_kind tool_kinds[] = {
	{ "hackbench", "one invocation passes groups x 400 x loops messages; invocations "
	  "repeat until the duration is up", 1,
	  { { "groups", 1, 1000, 0, 1, 0 }, { "loops", 1, 10000000, 0, 1, 0 },
	    { "pipe", 0, 1, 0, 0, 0 }, { NULL, 0, 0, 0, 0, 0 } } },
	{ "perf-messaging", "one 'perf bench sched messaging' passes groups x 400 x loops "
	  "messages; invocations repeat until the duration is up", 1,
	  { { "groups", 1, 1000, 0, 1, 0 }, { "loops", 1, 10000000, 0, 1, 0 },
	    { "pipe", 0, 1, 0, 0, 0 }, { "threads", 0, 1, 0, 0, 0 }, { NULL, 0, 0, 0, 0, 0 } } },
	{ "perf-pipe", "one 'perf bench sched pipe' makes loops round trips; invocations "
	  "repeat until the duration is up", 0,
	  { { "loops", 1, 1000000000, 0, 1, 0 }, { "threads", 0, 1, 0, 0, 0 },
	    { NULL, 0, 0, 0, 0, 0 } } },
	{ "cyclictest", "", 0,
	  { { "threads", 1, MAX_VCPUS, 1, 0, 0 }, { "interval", 100, 1000000, 1000, 0, 1 },
	    { "prio", 0, 99, 0, 0, 0 }, { NULL, 0, 0, 0, 0, 0 } } },
	{ NULL, NULL, 0, { { NULL, 0, 0, 0, 0, 0 } } },
};

static const struct tool_kind *tool_kind_of(const char *kind)
{
	for (const struct tool_kind *t = tool_kinds; t->kind; t++)
		if (!strcmp(t->kind, kind))
			return t;
	return NULL;
}

/* The value of KEY (its default when not given). */
static unsigned long long tool_value(const struct workload *w, const char *key)
{
	for (int i = 0; w->tool && w->tool->keys[i].key; i++)
		if (!strcmp(w->tool->keys[i].key, key))
			return w->value[i];
	return 0;
}

static int pjtload_mode(const char *kind)
{
	for (int mode = MODE_DUTY; mode <= MODE_FORK; mode++)
		if (!strcmp(kind, mode_name((enum pjt_mode)mode)))
			return mode;
	return -1;
}

/* "key=value" words, each key once; duration= belongs to the directive. */
static int check_key_words(int line, int argc, char **argv)
{
	int bad = 0;

	for (int i = 2; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		int dup = 0;

		if (!eq || eq == argv[i]) {
			error_at(line, "%s: '%s' is not key=value", argv[1], argv[i]);
			bad = 1;
			continue;
		}
		if (!strncmp(argv[i], "duration=", 9)) {
			error_at(line, "%s: duration= comes from the 'duration' directive", argv[1]);
			bad = 1;
			continue;
		}
		for (int j = 2; j < i; j++)
			dup |= !strncmp(argv[j], argv[i], (size_t)(eq - argv[i]) + 1);
		if (dup) {
			error_at(line, "%s: option '%.*s' given twice", argv[1], (int)(eq - argv[i]),
				 argv[i]);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/* A tool's value: a whole number, or for a microsecond key a time. */
static int tool_number(const struct tool_key *k, const char *text, unsigned long long *v)
{
	uint64_t ns;
	const char *why;

	if (!k->micros)
		return parse_uint(text, k->max, v) || *v < k->min ? -1 : 0;
	if (parse_time_ns(text, &ns, &why) || ns % 1000)
		return -1;
	*v = ns / 1000;
	return *v < k->min || *v > k->max ? -1 : 0;
}

static int check_tool(int line, int argc, char **argv, struct workload *w)
{
	const struct tool_kind *t = w->tool;
	int bad = 0, given[TOOL_KEYS] = { 0 };
	char known[128] = "";

	for (int k = 0; t->keys[k].key; k++) {
		w->value[k] = t->keys[k].def;
		snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", k ? " " : "",
			 t->keys[k].key);
	}
	for (int i = 2; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		int k;

		for (k = 0; t->keys[k].key; k++)
			if (strlen(t->keys[k].key) == (size_t)(eq - argv[i]) &&
			    !strncmp(argv[i], t->keys[k].key, (size_t)(eq - argv[i])))
				break;
		if (!t->keys[k].key) {
			error_at(line, "%s: unknown option '%.*s' (known: %s)", t->kind,
				 (int)(eq - argv[i]), argv[i], known);
			bad = 1;
		} else if (tool_number(&t->keys[k], eq + 1, &w->value[k])) {
			if (t->keys[k].micros)
				error_at(line, "%s %s='%s': want a time %lluus..%llus in whole "
					 "microseconds (e.g. 1000us, 1ms)", t->kind, t->keys[k].key,
					 eq + 1, t->keys[k].min, t->keys[k].max / 1000000);
			else
				error_at(line, "%s %s='%s': want a whole number %llu..%llu", t->kind,
					 t->keys[k].key, eq + 1, t->keys[k].min, t->keys[k].max);
			bad = 1;
		} else {
			given[k] = 1;
		}
	}
	for (int k = 0; t->keys[k].key; k++)
		if (t->keys[k].required && !given[k] && !bad) {
			error_at(line, "%s needs %s= (%s)", t->kind, t->keys[k].key, t->needs);
			bad = 1;
		}
	if (!bad && t->groups_of_40 && tool_value(w, "groups") * 40 > GUEST_TASK_LIMIT) {
		error_at(line, "%s groups=%llu: %llu tasks, more than the guest's %d", t->kind,
			 tool_value(w, "groups"), tool_value(w, "groups") * 40, GUEST_TASK_LIMIT);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* One invocation of a tool repeated until the duration is up, under TCG
 * (matrix-exec.sh); 0 for a tool that takes the duration itself. */
long long invocation_ms(const struct workload *w)
{
	long long groups = (long long)tool_value(w, "groups"), loops = (long long)tool_value(w, "loops");

	if (!strcmp(w->kind, "hackbench"))
		return groups * (EST_HACKBENCH_GROUP_MS + EST_HACKBENCH_LOOP_MS * loops);
	if (!strcmp(w->kind, "perf-messaging"))
		return EST_PERF_START_MS + groups * (EST_HACKBENCH_GROUP_MS + EST_HACKBENCH_LOOP_MS * loops);
	if (!strcmp(w->kind, "perf-pipe"))
		return EST_PERF_START_MS + loops * EST_PERF_PIPE_LOOP_US / 1000;
	return 0;
}

static int word_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The kind, then its words sorted: one text for any order of the options. */
static void canonical_text(int n, char **words, char *out, size_t size)
{
	char *sorted[64];

	memcpy(sorted, words, sizeof(char *) * (size_t)n);
	qsort(sorted + 1, (size_t)(n - 1), sizeof(char *), word_cmp);
	out[0] = 0;
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? " " : "", sorted[i]);
}

void do_workload(int line, int argc, char **argv)
{
	struct workload w = { .line = line };
	int bad = 0;

	if (argc < 2) {
		error_at(line, "usage: workload KIND [key=value...]");
		return;
	}
	w.mode = pjtload_mode(argv[1]);
	w.tool = tool_kind_of(argv[1]);
	if (w.mode < 0 && !w.tool && strcmp(argv[1], "rt-app") && strcmp(argv[1], "crash")) {
		error_at(line, "unknown workload '%s' (known: duty calibrate pingpong fork "
			 "hackbench perf-messaging perf-pipe cyclictest rt-app crash)", argv[1]);
		return;
	}
	snprintf(w.kind, sizeof(w.kind), "%s", argv[1]);
	if (!strcmp(argv[1], "rt-app"))
		bad = check_rtapp(line, argc, argv, &w);
	else if (!strcmp(argv[1], "crash"))
		bad = argc > 2 ? (error_at(line, "workload crash takes no options"), -1) : 0;
	else if (check_key_words(line, argc, argv))
		bad = -1;
	else if (w.tool)
		bad = check_tool(line, argc, argv, &w);
	if (bad)
		return;
	w.text[0] = 0;
	w.argc = argc - 1;
	for (int i = 1; i < argc; i++) {
		if (strlen(w.text) + strlen(argv[i]) + 2 > sizeof(w.text)) {
			error_at(line, "workload line too long");
			return;
		}
		if (i > 1)
			strcat(w.text, " ");
		strcat(w.text, argv[i]);
	}
	canonical_text(argc - 1, argv + 1, w.canon, sizeof(w.canon));
	if (m.nr_workloads == MAX_WORKLOADS) {
		error_at(line, "more than %d workloads", MAX_WORKLOADS);
		return;
	}
	m.workloads[m.nr_workloads++] = w;
}

/* The words of a workload's text (kind first), in buf. */
static int workload_words(const struct workload *w, char *buf, size_t size, char **words)
{
	int n = 0;

	snprintf(buf, size, "%s", w->text);
	for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok && n < 64;
	     tok = strtok_r(NULL, " ", &save))
		words[n++] = tok;
	return n;
}

static int topology_vcpus(const struct topology *t)
{
	return t->sockets * t->cores * t->threads;
}

/* Every run ends near its duration (pjtload's modes and cyclictest take it;
 * the guest repeats hackbench and perf bench until it is up), or its
 * workload is refused. */
static void check_bounded(struct workload *w)
{
	long long one;

	if (!strcmp(w->kind, "rt-app") && w->rtapp_duration_s <= 0) {
		error_at(w->line, "rt-app %s: no global.duration above 0: rt-app would run until "
			 "its tasks end, maybe never (give it at most the run's duration, %lld ms)",
			 w->file, m.duration_ms);
		w->invalid = 1;
	} else if (!strcmp(w->kind, "rt-app") && w->rtapp_duration_s * 1000 > m.duration_ms) {
		error_at(w->line, "rt-app %s: global.duration %llds is longer than the run's "
			 "duration, %lld ms", w->file, w->rtapp_duration_s, m.duration_ms);
		w->invalid = 1;
	} else if ((one = invocation_ms(w)) > HACKBENCH_MAX_DURATIONS * m.duration_ms) {
		error_at(w->line, "%s: one invocation takes about %lld s under TCG, more "
			 "than %d times the run's duration (%lld ms): lower %sloops=", w->kind,
			 one / 1000, HACKBENCH_MAX_DURATIONS, m.duration_ms,
			 tool_value(w, "groups") ? "groups= or " : "");
		w->invalid = 1;
	} else if (!strcmp(w->kind, "cyclictest") && m.duration_ms % 1000) {
		error_at(w->line, "cyclictest: its -D takes whole seconds and the run's duration "
			 "is %lld ms (give the matrix a duration in whole seconds)", m.duration_ms);
		w->invalid = 1;
	}
}

/*
 * After the whole file and the overrides (the duration): every workload
 * bounded, pjtload's parser on every pjtload workload for every topology,
 * then duplicates by meaning (the parsed options, a tool's values with
 * its defaults, the rt-app file's real path).
 */
void check_workloads(void)
{
	for (int i = 0; i < m.nr_workloads; i++)
		check_bounded(&m.workloads[i]);
	for (int i = 0; i < m.nr_workloads; i++) {
		struct workload *w = &m.workloads[i];
		char buf[TEXT_MAX], *words[64], err[512];
		int n;

		if (w->mode < 0)
			continue;
		n = workload_words(w, buf, sizeof(buf), words);
		for (int t = 0; t < m.nr_topologies; t++) {
			struct pjt_environment env = { .task_limit = GUEST_TASK_LIMIT };
			char topo[64];

			CPU_ZERO(&env.available);
			for (int c = 0; c < topology_vcpus(&m.topologies[t]); c++)
				CPU_SET(c, &env.available);
			if (!parse_options(n, words, &env, &w->opts, err, sizeof(err)))
				continue;
			snprintf(topo, sizeof(topo), "%dx%dx%d", m.topologies[t].sockets,
				 m.topologies[t].cores, m.topologies[t].threads);
			error_at(w->line, "%s: %s (pjtload would refuse it on topology %s, %d vCPUs)",
				 w->kind, err, topo, topology_vcpus(&m.topologies[t]));
			w->invalid = 1;
			break;
		}
	}
	for (int i = 0; i < m.nr_workloads; i++) {
		struct workload *w = &m.workloads[i];

		if (w->invalid)
			continue;
		for (int j = 0; j < i; j++) {
			struct workload *o = &m.workloads[j];
			int same = 0;

			if (o->invalid || strcmp(o->kind, w->kind))
				continue;
			if (w->mode >= 0)
				same = !memcmp(&o->opts, &w->opts, sizeof(w->opts));
			else if (!strcmp(w->kind, "rt-app"))
				same = !strcmp(o->file, w->file);
			else if (w->tool)
				same = !memcmp(o->value, w->value, sizeof(w->value));
			else
				same = !strcmp(o->canon, w->canon);
			if (same) {
				error_at(w->line, "duplicate workload: '%s' is '%s' (line %d) with its "
					 "options in another order or spelling", w->text, o->text, o->line);
				w->invalid = 1;
				break;
			}
		}
	}
}
