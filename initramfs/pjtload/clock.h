/* CLOCK_MONOTONIC in nanoseconds, and absolute sleeps on it. */
#ifndef PJTLOAD_CLOCK_H
#define PJTLOAD_CLOCK_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

static inline void sleep_until_ns(uint64_t when)
{
	struct timespec ts = { .tv_sec = (time_t)(when / 1000000000), .tv_nsec = (long)(when % 1000000000) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

#endif
