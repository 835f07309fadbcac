/* Start gate: threads check in when ready and wait for the go; the main
 * thread waits for as many as it managed to create, so a failed
 * pthread_create cannot leave anyone waiting forever (as a barrier would). */
#ifndef PJTLOAD_GATE_H
#define PJTLOAD_GATE_H

#include <pthread.h>

struct gate {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	unsigned ready;
	int open;
};

#define GATE_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 }

static inline void gate_check_in_and_wait(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->ready++;
	pthread_cond_broadcast(&g->changed);
	while (!g->open)
		pthread_cond_wait(&g->changed, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

static inline void gate_wait_ready(struct gate *g, unsigned count)
{
	pthread_mutex_lock(&g->lock);
	while (g->ready < count)
		pthread_cond_wait(&g->changed, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

/* Everything the threads read after the go must be written before this. */
static inline void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = 1;
	pthread_cond_broadcast(&g->changed);
	pthread_mutex_unlock(&g->lock);
}

#endif
