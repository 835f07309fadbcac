/* splitmix64 (Steele, Lea and Flood, 2014): the seeded generator the
 * workload generator, the matrix planner and the statistics share, so
 * that a seed means the same sequence in each of them. */
#ifndef PJT_SPLITMIX64_H
#define PJT_SPLITMIX64_H

#include <stdint.h>

/* Advance *state and return the next value. */
static inline uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

#endif
