#include "hist.h"

#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned hist_bucket(uint64_t ns)
{
	unsigned top;

	if (ns < HIST_SUB)
		return (unsigned)ns;
	top = 63 - (unsigned)__builtin_clzll(ns);
	if (top >= HIST_MAX_BITS)
		return HIST_BUCKETS - 1;
	return HIST_SUB + (top - HIST_SUB_BITS) * HIST_SUB +
	       (unsigned)((ns >> (top - HIST_SUB_BITS)) - HIST_SUB);
}

uint64_t hist_bucket_low(unsigned bucket)
{
	unsigned octave, sub;

	if (bucket < HIST_SUB)
		return bucket;
	octave = (bucket - HIST_SUB) / HIST_SUB;
	sub = (bucket - HIST_SUB) % HIST_SUB;
	return (uint64_t)(HIST_SUB + sub) << octave;
}

uint64_t hist_bucket_width(unsigned bucket)
{
	if (bucket < HIST_SUB)
		return 1;
	return 1ULL << ((bucket - HIST_SUB) / HIST_SUB);
}

void hist_record(struct hist *h, uint64_t ns)
{
	h->buckets[hist_bucket(ns)]++;
	h->count++;
	h->sum += ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

void hist_merge(struct hist *into, const struct hist *from)
{
	unsigned i;

	for (i = 0; i < HIST_BUCKETS; i++)
		into->buckets[i] += from->buckets[i];
	into->count += from->count;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

uint64_t hist_percentile(const struct hist *h, unsigned per10k)
{
	uint64_t rank, seen = 0, value;
	unsigned i;

	if (!h->count)
		return 0;
	/* Integer arithmetic: 0.999 * 1000 must be 999, not 1000. */
	rank = (per10k * h->count + 9999) / 10000;
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	/* The smallest and largest values are known exactly. */
	if (rank == 1)
		return h->min;
	if (rank == h->count)
		return h->max;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	value = hist_bucket_low(i) + hist_bucket_width(i) / 2;
	if (value < h->min)
		value = h->min;
	if (value > h->max)
		value = h->max;
	return value;
}
