/* The result line: space-separated key=value on stdout. An empty value
 * means "not measured", never 0. */
#ifndef PJTLOAD_OUTPUT_H
#define PJTLOAD_OUTPUT_H

#include <stdint.h>

#include "hist.h"

void out_str(const char *key, const char *value);
void out_u64(const char *key, uint64_t value);
void out_i64_or_empty(const char *key, int64_t value);   /* < 0: empty */
void out_double(const char *key, int decimals, double value);
void out_empty(const char *key);
/* wakeup_samples and wakeup_p50_us ... wakeup_max_us (empty if none). */
void out_wakeup(const struct hist *h);
/* Ends the line and flushes it, so a crash later loses no finished line. */
void out_end(void);

#endif
