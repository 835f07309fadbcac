#include "record.h"
#include "splitmix64.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One splitmix64 step from x: spreads seed and thread index into a
 * well-mixed state. */
static uint64_t splitmix64(uint64_t x)
{
	return splitmix64_next(&x);
}

int record_init(struct record_state *s, uint64_t wss, uint64_t seed, unsigned index)
{
	void *buf;
	int error = posix_memalign(&buf, 64, wss);

	if (error) {
		errno = error;
		return -1;
	}
	memset(buf, 0, wss);
	s->buf = buf;
	s->lines = wss / (RECORD_LINE_WORDS * sizeof(uint64_t));
	s->rng = splitmix64(seed ^ splitmix64(index)) | 1;
	return 0;
}

void record_free(struct record_state *s)
{
	free(s->buf);
	s->buf = NULL;
}
