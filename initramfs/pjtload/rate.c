#include "rate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

double per_second(uint64_t count, uint64_t elapsed_ns)
{
	if (!elapsed_ns)
		return 0;
	return (double)count * 1e9 / (double)elapsed_ns;
}

void rate_acc_window(struct rate_acc *a, uint64_t records, uint64_t actual_ns,
		     uint64_t window_ns)
{
	double rate;

	if (!actual_ns)
		return;
	rate = per_second(records, actual_ns);
	if (rate > a->best_rate)
		a->best_rate = rate;
	a->credited += actual_ns > window_ns ? (double)records * (double)window_ns / (double)actual_ns
					     : (double)records;
	a->windows++;
}

void rate_acc_merge(struct rate_acc *into, const struct rate_acc *from)
{
	into->credited += from->credited;
	into->windows += from->windows;
	if (from->best_rate > into->best_rate)
		into->best_rate = from->best_rate;
}

double rate_acc_uncontended(const struct rate_acc *a, double calib_records_per_s)
{
	return a->best_rate > calib_records_per_s ? a->best_rate : calib_records_per_s;
}

double rate_fraction(const struct rate_acc *a, double intended_busy_ns,
		     double calib_records_per_s)
{
	double f;

	if (calib_records_per_s <= 0 || intended_busy_ns <= 0)
		return -1;
	f = a->credited / (intended_busy_ns / 1e9 * rate_acc_uncontended(a, calib_records_per_s));
	return f < 1 ? f : 1;
}

unsigned records_per_check(double clock_read_ns, double record_ns)
{
	double n;

	if (record_ns <= 0)
		return RECORDS_PER_CHECK_MAX;
	/* n records and one read: read / (n * record + read) <= 1/20. */
	n = ceil(19.0 * clock_read_ns / record_ns);
	if (n < 1)
		return 1;
	return n > RECORDS_PER_CHECK_MAX ? RECORDS_PER_CHECK_MAX : (unsigned)n;
}

const char *calib_path(void)
{
	const char *path = getenv("PJTLOAD_CALIB");

	return path && *path ? path : CALIB_PATH_DEFAULT;
}

int calib_lookup(const char *path, uint64_t wss, struct calibration *c)
{
	FILE *f = fopen(path, "r");
	unsigned long long line_wss;
	unsigned per_check;
	double rate;
	char line[256];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "wss=%llu records_per_check=%u calib_records_per_s=%lf",
			   &line_wss, &per_check, &rate) == 3 &&
		    line_wss == wss && rate > 0 && per_check >= 1 && per_check <= RECORDS_PER_CHECK_MAX) {
			c->records_per_s = rate;
			c->records_per_check = per_check;
			found = 0;
		}
	fclose(f);
	return found;
}

int calib_store(const char *path, uint64_t wss, const struct calibration *c)
{
	char tmp[4096], line[256];
	unsigned long long line_wss;
	FILE *in, *out;
	int failed;

	if (snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid()) >= (int)sizeof(tmp))
		return -1;
	out = fopen(tmp, "w");
	if (!out)
		return -1;
	in = fopen(path, "r");
	if (in) {
		while (fgets(line, sizeof(line), in))
			if (sscanf(line, "wss=%llu", &line_wss) == 1 && line_wss != wss)
				fputs(line, out);
		fclose(in);
	}
	fprintf(out, "wss=%llu records_per_check=%u calib_records_per_s=%.1f\n",
		(unsigned long long)wss, c->records_per_check, c->records_per_s);
	failed = ferror(out);
	if (fclose(out) || failed || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}
