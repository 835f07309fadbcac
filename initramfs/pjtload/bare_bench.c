/* The bare loop of initramfs/bench-pjtload.sh: the records of pjtload's
 * duty=100 thread with nothing else (no clock reads, no periods), timed as
 * a whole. Usage: pjtload-bare DURATION [WSS [SEED]]; prints records_per_s. */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "record.h"
#include "units.h"

/* Records between the clock reads that end the run: rare enough to cost
 * nothing measurable. */
#define BARE_BATCH 100000

int main(int argc, char **argv)
{
	struct record_state rec;
	uint64_t duration, wss = 16384, seed = 1, records = 0, start, now;
	const char *why;
	int i;

	if (argc < 2 || argc > 4 || parse_time_ns(argv[1], &duration, &why) ||
	    (argc > 2 && parse_size(argv[2], &wss, &why)) ||
	    (argc > 3 && parse_u64(argv[3], &seed, &why))) {
		fprintf(stderr, "usage: pjtload-bare DURATION [WSS [SEED]]\n");
		return 2;
	}
	if (record_init(&rec, wss, seed, 0)) {
		perror("pjtload-bare: working set");
		return 1;
	}
	start = now_ns();
	do {
		for (i = 0; i < BARE_BATCH; i++)
			record_do(&rec);
		records += BARE_BATCH;
		now = now_ns();
	} while (now - start < duration);
	printf("records=%llu records_per_s=%.1f\n", (unsigned long long)records,
	       (double)records * 1e9 / (double)(now - start));
	record_free(&rec);
	return 0;
}
