/* The unit of work: one record is RECORD_STEPS read-modify-write steps at
 * pseudo-random cache lines of the thread's working set. Each step's
 * address depends on the value read before it, so a large working set is
 * bound by memory latency (the RFC's "more memory intensive" tasks) and a
 * record's cost does not depend on how many are done in a row. */
#ifndef PJTLOAD_RECORD_H
#define PJTLOAD_RECORD_H

#include <stdint.h>

#define RECORD_STEPS 64
#define RECORD_LINE_WORDS 8   /* 64-byte cache line */

struct record_state {
	uint64_t *buf;
	uint64_t lines;
	uint64_t rng;
};

/* Allocates and touches the working set; -1 with errno on failure. */
int record_init(struct record_state *s, uint64_t wss, uint64_t seed, unsigned index);
void record_free(struct record_state *s);

static inline void record_do(struct record_state *s)
{
	uint64_t rng = s->rng;
	int step;

	for (step = 0; step < RECORD_STEPS; step++) {
		uint64_t line, *word;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		line = (uint64_t)(((unsigned __int128)rng * s->lines) >> 64);
		word = &s->buf[line * RECORD_LINE_WORDS + (rng & (RECORD_LINE_WORDS - 1))];
		*word = *word * 6364136223846793005ULL + rng;
		rng ^= *word >> 32;
		rng |= 1;  /* xorshift must never reach 0 */
	}
	s->rng = rng;
}

#endif
