#include "output.h"

#include <stdio.h>

static int line_started;

static void key(const char *k)
{
	printf("%s%s=", line_started ? " " : "", k);
	line_started = 1;
}

void out_str(const char *k, const char *value)
{
	key(k);
	fputs(value, stdout);
}

void out_u64(const char *k, uint64_t value)
{
	key(k);
	printf("%llu", (unsigned long long)value);
}

void out_i64_or_empty(const char *k, int64_t value)
{
	key(k);
	if (value >= 0)
		printf("%lld", (long long)value);
}

void out_double(const char *k, int decimals, double value)
{
	key(k);
	printf("%.*f", decimals, value);
}

void out_empty(const char *k)
{
	key(k);
}

void out_wakeup(const struct hist *h)
{
	static const struct { const char *key; unsigned per10k; } points[] = {
		{ "wakeup_p50_us", 5000 }, { "wakeup_p90_us", 9000 },
		{ "wakeup_p99_us", 9900 }, { "wakeup_p999_us", 9990 },
		{ "wakeup_max_us", 10000 },
	};
	unsigned i;

	out_u64("wakeup_samples", h->count);
	for (i = 0; i < sizeof(points) / sizeof(points[0]); i++)
		if (h->count)
			out_double(points[i].key, 1, (double)hist_percentile(h, points[i].per10k) / 1000.0);
		else
			out_empty(points[i].key);
}

void out_end(void)
{
	putchar('\n');
	fflush(stdout);
	line_started = 0;
}
