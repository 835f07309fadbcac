/* Host test driver: exposes pjtload's pure parts on the command line for
 * run/tests/test-pjtload.sh. Not installed in the image.
 *   parse [--task-limit N] [--available LIST] MODE key=value...
 *   time TEXT | size TEXT | cpulist TEXT
 *   hist V... [-- V...]       values in ns; "--" merges a second histogram
 *   bucket V
 *   rate_fraction CALIB INTENDED_NS [RECORDS ACTUAL_NS WINDOW_NS]...
 *   per_second COUNT NS
 *   records_per_check CLOCK_READ_NS RECORD_NS
 *   calib-store PATH WSS RATE PER_CHECK | calib-lookup PATH WSS
 * Prints key=value results; exit 2 with the message on a refusal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "opts.h"
#include "rate.h"
#include "units.h"

static int refuse(const char *what, const char *why)
{
	fprintf(stderr, "%s: %s\n", what, why);
	return 2;
}

static int cmd_parse(int argc, char **argv)
{
	struct pjt_environment env = { .task_limit = 1000 };
	struct pjt_options o;
	char err[512], cpus[256];
	const char *why;
	int i;

	for (i = 0; i < CPU_SETSIZE && i < 4; i++)
		CPU_SET(i, &env.available);
	while (argc >= 2 && !strncmp(argv[0], "--", 2)) {
		if (!strcmp(argv[0], "--task-limit")) {
			if (parse_u64(argv[1], &env.task_limit, &why))
				return refuse("--task-limit", why);
		} else if (!strcmp(argv[0], "--available")) {
			if (parse_cpulist(argv[1], &env.available, &why))
				return refuse("--available", why);
		} else {
			return refuse(argv[0], "unknown driver flag");
		}
		argc -= 2;
		argv += 2;
	}
	if (parse_options(argc, argv, &env, &o, err, sizeof(err)))
		return refuse("pjtload", err);
	format_cpulist(&o.cpus, cpus, sizeof(cpus));
	printf("mode=%s threads=%u duty=%u period_ns=%llu duration_ns=%llu wss=%llu seed=%llu cpus=%s per_thread=%d calibrate=%d pairs=%u via=%s rate=%llu tasks=%llu\n",
	       mode_name(o.mode), o.threads, o.duty, (unsigned long long)o.period_ns,
	       (unsigned long long)o.duration_ns, (unsigned long long)o.wss,
	       (unsigned long long)o.seed, o.have_cpus ? cpus : "", o.per_thread, o.calibrate,
	       o.pairs, o.via == VIA_FUTEX ? "futex" : "pipe", (unsigned long long)o.rate,
	       (unsigned long long)options_tasks_needed(&o));
	return 0;
}

static int cmd_hist(int argc, char **argv)
{
	static struct hist first, second;
	struct hist *h = &first;
	uint64_t v;
	const char *why;
	int i;

	hist_init(&first);
	hist_init(&second);
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			h = &second;
			continue;
		}
		if (parse_u64(argv[i], &v, &why))
			return refuse(argv[i], why);
		hist_record(h, v);
	}
	hist_merge(&first, &second);
	printf("count=%llu min=%llu p50=%llu p90=%llu p99=%llu p999=%llu max=%llu\n",
	       (unsigned long long)first.count,
	       (unsigned long long)(first.count ? first.min : 0),
	       (unsigned long long)hist_percentile(&first, 5000),
	       (unsigned long long)hist_percentile(&first, 9000),
	       (unsigned long long)hist_percentile(&first, 9900),
	       (unsigned long long)hist_percentile(&first, 9990),
	       (unsigned long long)hist_percentile(&first, 10000));
	return 0;
}

static int number_arg(const char *text, double *value)
{
	char *end;

	*value = strtod(text, &end);
	return *text && !*end ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "", *why;
	uint64_t value, wss;
	cpu_set_t set;
	char list[1024];
	double a[4];
	int i;

	if (!strcmp(cmd, "parse"))
		return cmd_parse(argc - 2, argv + 2);
	if (!strcmp(cmd, "hist"))
		return cmd_hist(argc - 2, argv + 2);
	if (argc == 3 && !strcmp(cmd, "time")) {
		if (parse_time_ns(argv[2], &value, &why))
			return refuse(argv[2], why);
		printf("%llu\n", (unsigned long long)value);
		return 0;
	}
	if (argc == 3 && !strcmp(cmd, "size")) {
		if (parse_size(argv[2], &value, &why))
			return refuse(argv[2], why);
		printf("%llu\n", (unsigned long long)value);
		return 0;
	}
	if (argc == 3 && !strcmp(cmd, "cpulist")) {
		if (parse_cpulist(argv[2], &set, &why))
			return refuse(argv[2], why);
		format_cpulist(&set, list, sizeof(list));
		printf("%s count=%d\n", list, CPU_COUNT(&set));
		return 0;
	}
	if (argc == 3 && !strcmp(cmd, "bucket")) {
		unsigned b;

		if (parse_u64(argv[2], &value, &why))
			return refuse(argv[2], why);
		b = hist_bucket(value);
		printf("bucket=%u low=%llu width=%llu\n", b, (unsigned long long)hist_bucket_low(b),
		       (unsigned long long)hist_bucket_width(b));
		return 0;
	}
	if (argc == 4 && !strcmp(cmd, "per_second")) {
		if (number_arg(argv[2], &a[0]) || number_arg(argv[3], &a[1]))
			return refuse("per_second", "not a number");
		printf("%.4f\n", per_second((uint64_t)a[0], (uint64_t)a[1]));
		return 0;
	}
	if (argc >= 4 && (argc - 4) % 3 == 0 && !strcmp(cmd, "rate_fraction")) {
		struct rate_acc acc = { 0 };
		double calib, intended, w[3], f;

		if (number_arg(argv[2], &calib) || number_arg(argv[3], &intended))
			return refuse("rate_fraction", "not a number");
		for (i = 4; i < argc; i += 3) {
			if (number_arg(argv[i], &w[0]) || number_arg(argv[i + 1], &w[1]) ||
			    number_arg(argv[i + 2], &w[2]))
				return refuse("rate_fraction", "not a number");
			rate_acc_window(&acc, (uint64_t)w[0], (uint64_t)w[1], (uint64_t)w[2]);
		}
		f = rate_fraction(&acc, intended, calib);
		if (f < 0)
			printf("none\n");
		else
			printf("%.4f uncontended=%.1f\n", f, rate_acc_uncontended(&acc, calib));
		return 0;
	}
	if (argc == 4 && !strcmp(cmd, "records_per_check")) {
		if (number_arg(argv[2], &a[0]) || number_arg(argv[3], &a[1]))
			return refuse("records_per_check", "not a number");
		printf("%u\n", records_per_check(a[0], a[1]));
		return 0;
	}
	if (argc == 6 && !strcmp(cmd, "calib-store")) {
		struct calibration cal;

		if (parse_u64(argv[3], &wss, &why) || number_arg(argv[4], &cal.records_per_s) ||
		    parse_u64(argv[5], &value, &why))
			return refuse("calib-store", "bad WSS, RATE or PER_CHECK");
		cal.records_per_check = (unsigned)value;
		if (calib_store(argv[2], wss, &cal)) {
			perror(argv[2]);
			return 1;
		}
		return 0;
	}
	if (argc == 4 && !strcmp(cmd, "calib-lookup")) {
		struct calibration cal;

		if (parse_u64(argv[3], &wss, &why))
			return refuse(argv[3], why);
		if (calib_lookup(argv[2], wss, &cal))
			printf("none\n");
		else
			printf("%.1f %u\n", cal.records_per_s, cal.records_per_check);
		return 0;
	}
	return refuse(cmd, "unknown command (see the comment at the top of test_driver.c)");
}
