/* matrix-plan: the estimate, shards and the printed plan. */
#include "matrix-plan.h"

static void topology_text(const struct topology *t, char *out, size_t size)
{
	snprintf(out, size, "%dx%dx%d", t->sockets, t->cores, t->threads);
}

/* A boot, and duty's calibration in it for each wss (matrix-exec.sh). */
static long long boot_estimate_ms(void)
{
	long long ms = EST_BOOT_MS;

	for (int i = 0; i < m.nr_workloads; i++) {
		const struct workload *w = &m.workloads[i];
		int first = w->mode == MODE_DUTY;

		for (int j = 0; j < i && first; j++)
			first = m.workloads[j].mode != MODE_DUTY || m.workloads[j].opts.wss != w->opts.wss;
		ms += first ? EST_CALIBRATE_MS : 0;
	}
	return ms;
}

/* The run's cost: what it waits for and what its workload really takes. */
static long long run_estimate_ms(const struct workload *w)
{
	long long work = m.duration_ms;

	if (!strcmp(w->kind, "crash"))
		return EST_CRASH_REBOOT_MS;
	if (w->tool) {
		/* Invocations until the duration is up: the one running then
		 * ends the run, about one invocation late on average (their
		 * times vary fivefold under TCG, and a long one is the likelier
		 * to be running): 1.0 s with quick.matrix's 1.3 s invocations.
		 * cyclictest: its duration, then its histogram read. */
		work = m.duration_ms + (invocation_ms(w) ? invocation_ms(w) : EST_CYCLICTEST_HIST_MS);
	} else if (!strcmp(w->kind, "rt-app")) {
		work = w->rtapp_duration_s * 1000 +
		       (w->rtapp_calibrates ? EST_RTAPP_CALIBRATION_MS : 0);
	}
	return m.settle_ms + work + EST_RUN_OVERHEAD_MS;
}

/*
 * --shard K/N: the boots of every topology dealt round-robin to N shards
 * (boot B to shard (B-1) % N + 1), so a shard holds whole repetition
 * blocks, hence every cell, of every topology.  The seeded order and the
 * seq numbers stay the whole plan's: a shard is a subset of it, and the N
 * shards together are the plan, each run once.  shard_n 0: no shard.
 */
long shard_k, shard_n;

static int in_shard(long boot)
{
	return !shard_n || (boot - 1) % shard_n == shard_k - 1;
}

int parse_shard(const char *s)
{
	const char *slash = strchr(s, '/');
	unsigned long long k, n;
	char text[16];

	if (!slash || (size_t)(slash - s) >= sizeof(text))
		return -1;
	memcpy(text, s, (size_t)(slash - s));
	text[slash - s] = '\0';
	if (parse_uint(text, 10000, &k) || parse_uint(slash + 1, 10000, &n) || k < 1 || k > n)
		return -1;
	shard_k = (long)k;
	shard_n = (long)n;
	return 0;
}

/*
 * The estimated duration of the plan (whole) or of its shard: each boot
 * of every topology, then its repetition blocks, each block every cell
 * once; boot B holds reps / boots blocks, one more if B <= reps % boots.
 */
long long plan_estimate_ms(int whole)
{
	long long block = 0, ms = 0;

	for (int i = 0; i < m.nr_workloads; i++)
		block += run_estimate_ms(&m.workloads[i]);
	block *= m.nr_combos;
	for (long boot = 1; boot <= m.boots; boot++)
		if (whole || in_shard(boot))
			ms += boot_estimate_ms() + block * (m.reps / m.boots + (m.reps % m.boots >= boot));
	return ms * m.nr_topologies;
}

/* "4m09s", "2h05m00s", "3d04h05m": run/matrix's hms() spells them alike. */
void duration_text(long long s, char *out, size_t size)
{
	if (s >= 24 * 3600)
		snprintf(out, size, "%lldd%02lldh%02lldm", s / 86400, s / 3600 % 24, s / 60 % 60);
	else if (s >= 3600)
		snprintf(out, size, "%lldh%02lldm%02llds", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(out, size, "%lldm%02llds", s / 60, s % 60);
}

void print_plan(void)
{
	int cells = m.nr_combos * m.nr_workloads;
	int *order = malloc(sizeof(int) * (size_t)cells);
	char feat[TEXT_MAX], topo[64];
	int seq = 0, runs = 0;
	struct williams williams = { 0 };

	if (!order) {
		perror("matrix-plan");
		exit(1);
	}
	printf("matrix\t%s\n", m.path);
	printf("name\t%s\n", m.name);
	printf("seed\t%llu\n", m.seed);
	printf("duration_ms\t%lld\n", m.duration_ms);
	printf("settle_ms\t%lld\n", m.settle_ms);
	printf("reps\t%ld\n", m.reps);
	printf("boots\t%ld\n", m.boots);
	/* The seeded labelling draws first, so order random's shuffles draw
	 * what they always did from the seed. */
	rng_state = m.seed;
	if (m.order == ORDER_WILLIAMS) {
		williams_init(&williams);
		printf("order\twilliams\t%d\t%d\n", williams.combo_seqs, williams.workload_seqs);
	} else {
		printf("order\trandom\n");
	}
	if (shard_n)
		printf("shard\t%ld\t%ld\nplan_runs\t%ld\n", shard_k, shard_n,
		       (long)m.nr_topologies * m.reps * cells);
	printf("counting\t%d\n", m.counting);
	if (m.accel_line)
		printf("accel\t%s\n", m.accel);
	if (m.pin_line)
		printf("pin_vcpus\t%s\n", m.pin);
	printf("trace\t%d\n", m.trace);
	for (int i = 0; i < m.nr_tunables; i++)
		printf("tunable\t%s\t%lu\n", m.tunables[i].name, m.tunables[i].value);
	for (int i = 0; i < m.nr_topologies; i++) {
		struct topology *t = &m.topologies[i];

		topology_text(t, topo, sizeof(topo));
		if (t->plain)
			printf("topology\t%s\t--smp\t%d\n", topo, t->cores);
		else
			printf("topology\t%s\t--topology\t%d,%d,%d\n", topo, t->sockets, t->cores,
			       t->threads);
	}
	for (int i = 0; i < m.nr_combos; i++) {
		features_text(m.combos[i].bits, feat, sizeof(feat));
		printf("combo\t%s\t%s\n", m.combos[i].name, feat);
		if (m.combos[i].replicate_of >= 0)
			printf("replicate\t%s\t%s\n", m.combos[i].name,
			       m.combos[m.combos[i].replicate_of].name);
	}
	print_fractions();
	for (int i = 0; i < m.nr_compares; i++)
		printf("compare\t%s\t%s\n", m.compares[i].a, m.compares[i].b);
	for (int i = 0; i < m.nr_workloads; i++) {
		const struct workload *w = &m.workloads[i];
		const char *base = strrchr(w->file, '/');

		printf("workload\t%s\n", w->text);
		/* The guest stores each file under a name of its own (the
		 * workload's index): a/x.json and b/x.json must not collide. */
		if (w->file[0])
			printf("file\t%s\t%s\tw%d-%s\n", w->text, w->file, i + 1,
			       base ? base + 1 : w->file);
	}

	/*
	 * Interleave: within each repetition block every cell (combo x
	 * workload) runs once, in the order of a Williams design (order
	 * williams, williams_block) or in a fresh seeded shuffle (order
	 * random), so slow drift of the host and of the boot is spread over
	 * every cell alike.  The blocks are spread over m.boots boots per
	 * topology, whole, as evenly as possible (the first reps % boots boots
	 * hold one block more): the last field of a run record is its boot
	 * within the topology, 1..boots.
	 */
	for (int t = 0; t < m.nr_topologies; t++) {
		long boot = 1, slot = 0, left_in_boot = m.reps / m.boots + (m.reps % m.boots > 0);

		topology_text(&m.topologies[t], topo, sizeof(topo));
		for (long rep = 1; rep <= m.reps; rep++, slot++) {
			if (left_in_boot-- == 0) {
				boot++;
				slot = 0;
				left_in_boot = m.reps / m.boots + (m.reps % m.boots >= boot) - 1;
			}
			if (m.order == ORDER_WILLIAMS) {
				williams_block(&williams, t, slot, boot, order);
			} else {
				for (int i = 0; i < cells; i++)
					order[i] = i;
				shuffle(order, cells);
			}
			for (int i = 0; i < cells; i++) {
				struct combo *c = &m.combos[order[i] / m.nr_workloads];
				struct workload *w = &m.workloads[order[i] % m.nr_workloads];

				if (seq++, !in_shard(boot))
					continue;
				runs++;
				features_text(c->bits, feat, sizeof(feat));
				printf("run\t%d\t%s\t%s\t%s\t%ld\t%s\t%ld\n", seq, topo, c->name,
				       feat, rep, w->text, boot);
			}
		}
	}
	printf("runs\t%d\n", runs);
	printf("estimate_s\t%lld\n", (plan_estimate_ms(0) + 999) / 1000);
	williams_free(&williams);
	free(order);
}
