#include "rate.h"

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

double rate_fraction(double records_per_s, unsigned threads, unsigned duty,
		     double calib_records_per_s)
{
	if (calib_records_per_s <= 0 || !threads || !duty)
		return -1;
	return records_per_s / ((double)threads * duty / 100.0 * calib_records_per_s);
}

const char *calib_path(void)
{
	const char *path = getenv("PJTLOAD_CALIB");

	return path && *path ? path : CALIB_PATH_DEFAULT;
}

int calib_lookup(const char *path, uint64_t wss, double *records_per_s)
{
	FILE *f = fopen(path, "r");
	unsigned long long line_wss;
	double rate;
	char line[256];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "wss=%llu calib_records_per_s=%lf", &line_wss, &rate) == 2 &&
		    line_wss == wss && rate > 0) {
			*records_per_s = rate;
			found = 0;
		}
	fclose(f);
	return found;
}

int calib_store(const char *path, uint64_t wss, double records_per_s)
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
	fprintf(out, "wss=%llu calib_records_per_s=%.1f\n", (unsigned long long)wss, records_per_s);
	failed = ferror(out);
	if (fclose(out) || failed || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}
