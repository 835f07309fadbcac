/* Log-linear latency histogram (HdrHistogram-like) in nanoseconds:
 * values below 32 ns are exact, above that each power of two is split into
 * 32 linear sub-buckets, so a bucket is at most 1/32 (3%) of its value wide.
 * Values from 2^40 ns (~18 min) up share the last bucket; max stays exact. */
#ifndef PJTLOAD_HIST_H
#define PJTLOAD_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 5
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS 40
#define HIST_BUCKETS (HIST_SUB + (HIST_MAX_BITS - HIST_SUB_BITS) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min, max;
	uint64_t sum;
	uint64_t buckets[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_record(struct hist *h, uint64_t ns);
void hist_merge(struct hist *into, const struct hist *from);
unsigned hist_bucket(uint64_t ns);
/* Lowest value of a bucket and its width. */
uint64_t hist_bucket_low(unsigned bucket);
uint64_t hist_bucket_width(unsigned bucket);
/* Nearest-rank percentile in hundredths of a percent (9990 = p99.9): the
 * middle of the bucket that holds the ceil(per10k/10000 * count)-th smallest value, clamped to [min, max].
 * The first and last ranks give min and max exactly. 0 for an empty histogram. */
uint64_t hist_percentile(const struct hist *h, unsigned per10k);

#endif
