/* pingpong mode: pairs of threads passing a token, so that every step is a
 * wake-up of the partner (the path wake_affine decides). The token is the
 * sender's CLOCK_MONOTONIC time, 0 means stop. */
#include "modes.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "gate.h"
#include "hist.h"
#include "output.h"
#include "rate.h"
#include "taskstat.h"

struct pp_shared {
	const struct pjt_options *o;
	struct gate gate;
	int abort;
	uint64_t t0, t_end;
};

struct pp_pair;

struct pp_side {
	pthread_t handle;
	unsigned role;            /* 0 starts and counts round trips, 1 answers */
	struct pp_pair *pair;
	struct hist hist;
	struct cpu_samples cpus;
	struct task_counters counters;
	uint64_t round_trips, finish_ns;
	int started;
};

struct pp_pair {
	struct pp_shared *sh;
	int pipes[2][2];          /* pipes[r]: written by the partner, read by role r */
	_Atomic uint32_t turn;    /* futex: the role holding the token */
	_Atomic uint64_t token;
	struct pp_side side[2];
};

static void send_token(struct pp_pair *p, unsigned to_role, uint64_t token)
{
	if (p->sh->o->via == VIA_FUTEX) {
		atomic_store_explicit(&p->token, token, memory_order_relaxed);
		atomic_store_explicit(&p->turn, to_role, memory_order_release);
		syscall(SYS_futex, &p->turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		return;
	}
	while (write(p->pipes[to_role][1], &token, sizeof(token)) < 0 && errno == EINTR)
		;
}

/* Returns the token, 0 for stop (also on a broken pipe). */
static uint64_t receive_token(struct pp_pair *p, unsigned role)
{
	uint64_t token;
	ssize_t got;

	if (p->sh->o->via == VIA_FUTEX) {
		uint32_t turn;

		while ((turn = atomic_load_explicit(&p->turn, memory_order_acquire)) != role)
			syscall(SYS_futex, &p->turn, FUTEX_WAIT_PRIVATE, turn, NULL, NULL, 0);
		return atomic_load_explicit(&p->token, memory_order_relaxed);
	}
	do
		got = read(p->pipes[role][0], &token, sizeof(token));
	while (got < 0 && errno == EINTR);
	return got == (ssize_t)sizeof(token) ? token : 0;
}

static void *pp_side_main(void *arg)
{
	struct pp_side *s = arg;
	struct pp_pair *p = s->pair;
	unsigned partner = !s->role;

	hist_init(&s->hist);
	counters_open(&s->counters, 0);
	s->started = cpu_samples_init(&s->cpus) == 0;
	gate_check_in_and_wait(&p->sh->gate);
	if (p->sh->abort || !s->started)
		return NULL;
	counters_baseline(&s->counters);
	sleep_until_ns(p->sh->t0);
	for (;;) {
		uint64_t token, now;

		if (s->role == 0) {
			now = now_ns();
			if (now >= p->sh->t_end) {
				send_token(p, partner, 0);
				break;
			}
			send_token(p, partner, now);
		}
		token = receive_token(p, s->role);
		now = now_ns();
		if (!token)
			break;
		hist_record(&s->hist, now > token ? now - token : 0);
		cpu_sample(&s->cpus);
		if (s->role == 0)
			s->round_trips++;
		else
			send_token(p, partner, now_ns());
	}
	counters_finish(&s->counters);
	s->finish_ns = now_ns();
	return NULL;
}

static int open_channels(struct pp_pair *p)
{
	if (p->sh->o->via == VIA_FUTEX)
		return 0;
	if (pipe(p->pipes[0]))
		return -1;
	if (pipe(p->pipes[1])) {
		close(p->pipes[0][0]);
		close(p->pipes[0][1]);
		return -1;
	}
	return 0;
}

static void close_channels(struct pp_pair *p)
{
	unsigned r;

	if (p->sh->o->via == VIA_FUTEX)
		return;
	for (r = 0; r < 2; r++) {
		close(p->pipes[r][0]);
		close(p->pipes[r][1]);
	}
}

static void out_result(const struct pjt_options *o, struct pp_pair *pairs, uint64_t elapsed_ns)
{
	struct hist all;
	uint64_t trips = 0;
	int64_t migrations = 0, nr_migrations = 0;
	const struct task_counters *unknown = NULL;
	unsigned i, r;

	hist_init(&all);
	for (i = 0; i < o->pairs; i++)
		for (r = 0; r < 2; r++) {
			struct pp_side *s = &pairs[i].side[r];

			trips += s->round_trips;
			hist_merge(&all, &s->hist);
			if (s->counters.migrations < 0 || s->counters.nr_migrations < 0)
				unknown = &s->counters;
			sum_known(&migrations, s->counters.migrations);
			sum_known(&nr_migrations, s->counters.nr_migrations);
		}
	if (unknown)
		counters_explain(unknown);
	out_str("mode", "pingpong");
	out_u64("pairs", o->pairs);
	out_str("via", o->via == VIA_FUTEX ? "futex" : "pipe");
	out_double("duration_s", 3, (double)elapsed_ns / 1e9);
	out_u64("round_trips", trips);
	out_empty("records_per_s");
	out_empty("rate_fraction");
	out_empty("periods");
	out_empty("overruns");
	out_wakeup(&all);
	out_i64_or_empty("migrations", migrations);
	out_i64_or_empty("nr_migrations", nr_migrations);
	out_double("ops_per_s", 1, per_second(trips, elapsed_ns));
	out_empty("top_cpus");
	for (i = 0; i < 2 * o->pairs; i++) {
		int cpu = cpu_samples_top(&pairs[i / 2].side[i % 2].cpus);
		printf(cpu >= 0 ? (i ? ",%d" : "%d") : (i ? ",-" : "-"), cpu);
	}
	out_end();
	if (!o->per_thread)
		return;
	for (i = 0; i < 2 * o->pairs; i++) {
		struct pp_side *s = &pairs[i / 2].side[i % 2];

		out_u64("thread", i);
		out_u64("pair", i / 2);
		out_str("role", s->role ? "pong" : "ping");
		out_double("ops_per_s", 1, per_second(pairs[i / 2].side[0].round_trips, elapsed_ns));
		out_wakeup(&s->hist);
		out_i64_or_empty("migrations", s->counters.migrations);
		out_i64_or_empty("nr_migrations", s->counters.nr_migrations);
		out_i64_or_empty("top_cpu", cpu_samples_top(&s->cpus));
		out_end();
	}
}

int run_pingpong(const struct pjt_options *o)
{
	struct pp_shared sh = { .o = o, .gate = GATE_INIT };
	struct pp_pair *pairs = calloc(o->pairs, sizeof(*pairs));
	unsigned i, r, opened = 0, created = 0;
	uint64_t last_finish = 0;
	int err;

	if (!pairs) {
		fprintf(stderr, "pjtload: out of memory for %u pairs\n", o->pairs);
		return 1;
	}
	for (; opened < o->pairs; opened++) {
		pairs[opened].sh = &sh;
		if (open_channels(&pairs[opened])) {
			fprintf(stderr, "pjtload: pipe for pair %u: %s\n", opened, strerror(errno));
			sh.abort = 1;
			break;
		}
	}
	for (i = 0; i < opened && !sh.abort; i++)
		for (r = 0; r < 2; r++) {
			struct pp_side *s = &pairs[i].side[r];

			s->role = r;
			s->pair = &pairs[i];
			err = pthread_create(&s->handle, NULL, pp_side_main, s);
			if (err) {
				fprintf(stderr, "pjtload: creating thread %u: %s\n", 2 * i + r, strerror(err));
				sh.abort = 1;
				break;
			}
			created++;
		}
	gate_wait_ready(&sh.gate, created);
	for (i = 0; i < created; i++)
		if (!pairs[i / 2].side[i % 2].started) {
			fprintf(stderr, "pjtload: thread %u: out of memory\n", i);
			sh.abort = 1;
		}
	sh.t0 = now_ns() + START_DELAY_NS + START_DELAY_PER_TASK_NS * created;
	sh.t_end = sh.t0 + o->duration_ns;
	gate_open(&sh.gate);
	for (i = 0; i < created; i++) {
		struct pp_side *s = &pairs[i / 2].side[i % 2];

		pthread_join(s->handle, NULL);
		if (s->finish_ns > last_finish)
			last_finish = s->finish_ns;
	}
	if (!sh.abort)
		out_result(o, pairs, (last_finish > sh.t_end ? last_finish : sh.t_end) - sh.t0);
	for (i = 0; i < opened; i++) {
		close_channels(&pairs[i]);
		for (r = 0; r < 2; r++)
			cpu_samples_free(&pairs[i].side[r].cpus);
	}
	free(pairs);
	return sh.abort ? 1 : 0;
}
