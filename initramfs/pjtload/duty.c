/* duty and calibrate modes: the RFC's experiment.
 *
 * Each thread works in periods of P starting at boundaries b_k = t0 + k*P.
 * It sleeps with an absolute clock_nanosleep until b_k; the wake-up latency
 * is the actual wake time minus b_k. From its wake it is busy for duty% of
 * P by CLOCK_MONOTONIC: wall clock, as in the RFC, since a duty task asks
 * for a share of wall time; time lost to preemption by other tasks while
 * busy costs records, which is what rate_fraction shows (defined in rate.h:
 * at most 1 by construction). The busy part is
 * timed from the wake, not from b_k, so that a late wake-up (reported as
 * such) is not counted a second time as lost records; under TCG wake-ups
 * are often later than a 1 ms busy part is long. duty=100 never sleeps: its
 * busy part is the whole period, b_k to b_k+1.
 * A boundary that passes while the thread is still busy (for duty=100: any
 * but the one its busy part ends at) is an overrun: that period is skipped
 * and the thread resynchronises to the next boundary still ahead. */
#include "modes.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "gate.h"
#include "hist.h"
#include "output.h"
#include "rate.h"
#include "record.h"
#include "taskstat.h"

struct duty_shared {
	const struct pjt_options *o;
	struct gate gate;
	int abort;
	uint64_t t0, t_end, periods_total;
	unsigned records_per_check;
};

struct duty_thread {
	pthread_t handle;
	unsigned index;
	struct duty_shared *sh;
	struct record_state rec;
	struct hist hist;
	struct cpu_samples cpus;
	struct task_counters counters;
	struct rate_acc rate;
	uint64_t records, periods, overruns, finish_ns;
	int error;
	const char *error_what;
};

struct duty_result {
	struct duty_thread *threads;
	unsigned nthreads;
	uint64_t elapsed_ns;
};

static void busy_periods(struct duty_thread *t)
{
	const struct duty_shared *sh = t->sh;
	const uint64_t period = sh->o->period_ns, t0 = sh->t0, total = sh->periods_total;
	const uint64_t busy = period * sh->o->duty / 100;
	const uint64_t on_time = sh->o->duty == 100;  /* boundaries passed without overrun */
	const unsigned per_check = sh->records_per_check;
	uint64_t k = 0, now, start, boundary;
	unsigned i;

	sleep_until_ns(t0);
	start = now_ns();
	hist_record(&t->hist, start - t0);
	for (;;) {
		uint64_t busy_end = sh->o->duty == 100 ? t0 + (k + 1) * period : start + busy;
		uint64_t passed, missed, records_before = t->records;

		cpu_sample(&t->cpus);
		do {
			for (i = 0; i < per_check; i++)
				record_do(&t->rec);
			t->records += per_check;
			now = now_ns();
		} while (now < busy_end);
		t->periods++;
		rate_acc_window(&t->rate, t->records - records_before, now - start, busy_end - start);

		/* Boundaries after b_k up to now. */
		passed = (now - t0) / period - k;
		missed = passed > on_time ? passed - on_time : 0;
		if (k + 1 + missed > total)
			missed = total - k - 1;
		t->overruns += missed;
		k += 1 + missed;
		if (k >= total)
			break;
		boundary = t0 + k * period;
		if (now < boundary) {
			sleep_until_ns(boundary);
			start = now_ns();
			hist_record(&t->hist, start - boundary);
		} else {
			start = now;
		}
	}
}

static void *duty_thread_main(void *arg)
{
	struct duty_thread *t = arg;
	const struct pjt_options *o = t->sh->o;

	hist_init(&t->hist);
	counters_open(&t->counters, 0);
	if (record_init(&t->rec, o->wss, o->seed, t->index)) {
		t->error = errno;
		t->error_what = "allocating the working set";
	} else if (cpu_samples_init(&t->cpus)) {
		t->error = errno;
		t->error_what = "allocating CPU samples";
	}
	gate_check_in_and_wait(&t->sh->gate);
	if (!t->sh->abort) {
		counters_baseline(&t->counters);
		busy_periods(t);
		counters_finish(&t->counters);
		t->finish_ns = now_ns();
	}
	return NULL;
}

static void free_threads(struct duty_result *r)
{
	unsigned i;

	for (i = 0; i < r->nthreads; i++) {
		record_free(&r->threads[i].rec);
		cpu_samples_free(&r->threads[i].cpus);
	}
	free(r->threads);
}

/* Runs the threads; 0 with the result filled, or 1 after a message. */
static int duty_engine(const struct pjt_options *o, unsigned per_check, struct duty_result *r)
{
	struct duty_shared sh = { .o = o, .gate = GATE_INIT, .records_per_check = per_check };
	unsigned i, created;
	uint64_t last_finish = 0;
	int err, failed = 0;

	r->threads = calloc(o->threads, sizeof(*r->threads));
	if (!r->threads) {
		fprintf(stderr, "pjtload: out of memory for %u threads\n", o->threads);
		return 1;
	}
	for (created = 0; created < o->threads; created++) {
		struct duty_thread *t = &r->threads[created];

		t->index = created;
		t->sh = &sh;
		err = pthread_create(&t->handle, NULL, duty_thread_main, t);
		if (err) {
			fprintf(stderr, "pjtload: creating thread %u: %s\n", created, strerror(err));
			break;
		}
	}
	r->nthreads = created;
	if (created < o->threads)
		sh.abort = 1;
	gate_wait_ready(&sh.gate, created);
	for (i = 0; i < created; i++)
		if (r->threads[i].error) {
			fprintf(stderr, "pjtload: thread %u: %s: %s\n", i,
				r->threads[i].error_what, strerror(r->threads[i].error));
			sh.abort = 1;
		}
	sh.periods_total = (o->duration_ns + o->period_ns - 1) / o->period_ns;
	sh.t0 = now_ns() + START_DELAY_NS + START_DELAY_PER_TASK_NS * o->threads;
	sh.t_end = sh.t0 + sh.periods_total * o->period_ns;
	gate_open(&sh.gate);
	for (i = 0; i < created; i++) {
		pthread_join(r->threads[i].handle, NULL);
		if (r->threads[i].finish_ns > last_finish)
			last_finish = r->threads[i].finish_ns;
	}
	if (sh.abort)
		failed = 1;
	r->elapsed_ns = (last_finish > sh.t_end ? last_finish : sh.t_end) - sh.t0;
	if (failed)
		free_threads(r);
	return failed;
}

/* Sums over the threads; migrations stay unknown (-1) if any thread's are. */
struct duty_totals {
	struct rate_acc rate;
	uint64_t records, periods, overruns;
	int64_t migrations, nr_migrations;
	struct hist hist;
};

static void duty_totals(const struct duty_result *r, struct duty_totals *tot)
{
	unsigned i;

	memset(tot, 0, sizeof(*tot));
	hist_init(&tot->hist);
	for (i = 0; i < r->nthreads; i++) {
		const struct duty_thread *t = &r->threads[i];

		tot->records += t->records;
		tot->periods += t->periods;
		tot->overruns += t->overruns;
		rate_acc_merge(&tot->rate, &t->rate);
		sum_known(&tot->migrations, t->counters.migrations);
		sum_known(&tot->nr_migrations, t->counters.nr_migrations);
		hist_merge(&tot->hist, &t->hist);
	}
	if (tot->migrations < 0 || tot->nr_migrations < 0)
		for (i = 0; i < r->nthreads; i++)
			if (r->threads[i].counters.migrations < 0 || r->threads[i].counters.nr_migrations < 0) {
				counters_explain(&r->threads[i].counters);
				break;
			}
}

/* "top_cpus=0,1,1,3": the CPU each thread ran on most, in thread order. */
static void out_top_cpus(const struct duty_result *r)
{
	unsigned i;

	out_empty("top_cpus");
	for (i = 0; i < r->nthreads; i++) {
		int cpu = cpu_samples_top(&r->threads[i].cpus);
		if (cpu >= 0)
			printf(i ? ",%d" : "%d", cpu);
		else
			printf(i ? ",-" : "-");
	}
}

static void out_per_thread(const struct duty_result *r)
{
	unsigned i;

	for (i = 0; i < r->nthreads; i++) {
		const struct duty_thread *t = &r->threads[i];
		int cpu = cpu_samples_top(&t->cpus);

		out_u64("thread", i);
		out_u64("records", t->records);
		out_double("records_per_s", 1, per_second(t->records, r->elapsed_ns));
		out_u64("periods", t->periods);
		out_u64("overruns", t->overruns);
		out_wakeup(&t->hist);
		out_i64_or_empty("migrations", t->counters.migrations);
		out_i64_or_empty("nr_migrations", t->counters.nr_migrations);
		out_i64_or_empty("top_cpu", cpu);
		out_end();
	}
}

/* How many records to do between clock reads, from the cost of both here
 * (best of a few tries, so that a preemption does not count). */
static int probe_records_per_check(const struct pjt_options *o, unsigned *per_check)
{
	struct record_state rec;
	double best_clock = 1e18, best_record = 1e18, cost;
	uint64_t start;
	int try, i;

	if (record_init(&rec, o->wss, o->seed, 0)) {
		perror("pjtload: working set for the clock probe");
		return 1;
	}
	for (try = 0; try < 5; try++) {
		start = now_ns();
		for (i = 0; i < 255; i++)
			now_ns();
		cost = (double)(now_ns() - start) / 256;  /* 256 reads after start */
		if (cost < best_clock)
			best_clock = cost;
		start = now_ns();
		for (i = 0; i < 64; i++)
			record_do(&rec);
		cost = (double)(now_ns() - start) / 64;
		if (cost < best_record)
			best_record = cost;
	}
	record_free(&rec);
	*per_check = records_per_check(best_clock, best_record);
	return 0;
}

/* The calibration run: one thread at duty 100 under the same options. */
static int calibrate(const struct pjt_options *o, uint64_t duration_ns,
		     struct duty_result *r, struct calibration *cal)
{
	struct pjt_options c = *o;

	c.mode = MODE_CALIBRATE;
	c.threads = 1;
	c.duty = 100;
	c.duration_ns = duration_ns;
	if (probe_records_per_check(o, &cal->records_per_check) ||
	    duty_engine(&c, cal->records_per_check, r))
		return 1;
	/* The fastest window (one a period): the max of many short samples,
	 * so a preemption or a slow host moment does not lower it. */
	cal->records_per_s = r->threads[0].rate.best_rate;
	if (cal->records_per_s <= 0)
		cal->records_per_s = per_second(r->threads[0].records, r->elapsed_ns);
	if (calib_store(calib_path(), o->wss, cal))
		fprintf(stderr, "pjtload: writing calibration %s: %s\n", calib_path(), strerror(errno));
	return 0;
}

int run_calibrate(const struct pjt_options *o)
{
	struct duty_result r;
	struct duty_totals tot;
	struct calibration cal;

	if (calibrate(o, o->duration_ns, &r, &cal))
		return 1;
	duty_totals(&r, &tot);
	out_str("mode", "calibrate");
	out_u64("wss", o->wss);
	out_double("duration_s", 3, (double)r.elapsed_ns / 1e9);
	out_u64("records", tot.records);
	out_u64("records_per_check", cal.records_per_check);
	out_double("records_per_s", 1, per_second(tot.records, r.elapsed_ns));
	out_double("calib_records_per_s", 1, cal.records_per_s);
	out_u64("overruns", tot.overruns);
	out_i64_or_empty("migrations", tot.migrations);
	out_i64_or_empty("nr_migrations", tot.nr_migrations);
	out_str("calib_file", calib_path());
	out_end();
	free_threads(&r);
	return 0;
}

int run_duty(const struct pjt_options *o)
{
	struct duty_result r;
	struct duty_totals tot;
	struct calibration cal = { .records_per_s = -1 };
	double records_per_s, fraction, intended_busy_ns;

	if (calib_lookup(calib_path(), o->wss, &cal)) {
		cal.records_per_s = -1;
		if (o->calibrate) {
			if (calibrate(o, CALIBRATE_NS, &r, &cal))
				return 1;
			free_threads(&r);
		} else if (probe_records_per_check(o, &cal.records_per_check)) {
			return 1;
		}
	}
	if (duty_engine(o, cal.records_per_check, &r))
		return 1;
	duty_totals(&r, &tot);
	records_per_s = per_second(tot.records, r.elapsed_ns);
	/* What was asked: every thread busy duty% of every period (rate.h). */
	intended_busy_ns = (double)o->threads * (double)((o->duration_ns + o->period_ns - 1) / o->period_ns) *
			   (double)(o->period_ns * o->duty / 100);
	fraction = rate_fraction(&tot.rate, intended_busy_ns, cal.records_per_s);

	out_str("mode", "duty");
	out_u64("threads", o->threads);
	out_u64("duty", o->duty);
	out_double("period_ms", 3, (double)o->period_ns / 1e6);
	out_u64("wss", o->wss);
	out_double("duration_s", 3, (double)r.elapsed_ns / 1e9);
	out_u64("records", tot.records);
	out_u64("records_per_check", cal.records_per_check);
	out_double("records_per_s", 1, records_per_s);
	if (cal.records_per_s > 0) {
		out_double("calib_records_per_s", 1, cal.records_per_s);
		out_double("uncontended_records_per_s", 1, rate_acc_uncontended(&tot.rate, cal.records_per_s));
		out_double("rate_fraction", 4, fraction);
	} else {
		out_empty("calib_records_per_s");
		out_empty("uncontended_records_per_s");
		out_empty("rate_fraction");
	}
	out_u64("periods", tot.periods);
	out_u64("overruns", tot.overruns);
	out_wakeup(&tot.hist);
	out_i64_or_empty("migrations", tot.migrations);
	out_i64_or_empty("nr_migrations", tot.nr_migrations);
	out_empty("ops_per_s");
	out_top_cpus(&r);
	out_end();
	if (o->per_thread)
		out_per_thread(&r);
	free_threads(&r);
	return 0;
}
