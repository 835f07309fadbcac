/* The modes. Each prints its result line(s) and returns the exit status:
 * 0 done, 1 runtime failure (message on stderr). */
#ifndef PJTLOAD_MODES_H
#define PJTLOAD_MODES_H

#include "opts.h"

/* Measurement starts this long after the threads are ready plus 1 ms per
 * task, so that start-up (thread creation, first placement) is excluded. */
#define START_DELAY_NS 50000000ULL
#define START_DELAY_PER_TASK_NS 1000000ULL
/* How long duty mode's calibrate=1 calibrates. */
#define CALIBRATE_NS 1000000000ULL

int run_duty(const struct pjt_options *o);
int run_calibrate(const struct pjt_options *o);
int run_pingpong(const struct pjt_options *o);
int run_fork(const struct pjt_options *o);

#endif
