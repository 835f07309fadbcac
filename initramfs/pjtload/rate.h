/* Throughput arithmetic and the per-boot calibration cache. */
#ifndef PJTLOAD_RATE_H
#define PJTLOAD_RATE_H

#include <stdint.h>

#define CALIB_PATH_DEFAULT "/tmp/pjtload.calib"
#define RECORDS_PER_CHECK_MAX 1024

double per_second(uint64_t count, uint64_t elapsed_ns);
/* records/s over what threads uncontended threads would do in duty% of the
 * time: records_per_s / (threads * duty/100 * calib). Negative when there
 * is no calibration (calib <= 0). */
double rate_fraction(double records_per_s, unsigned threads, unsigned duty,
		     double calib_records_per_s);
/* Records done between two clock reads: enough that reading the clock
 * costs at most 1/20 of the busy time (under TCG with the hpet clocksource
 * one read costs about three records), from 1 to RECORDS_PER_CHECK_MAX. */
unsigned records_per_check(double clock_read_ns, double record_ns);

/* A calibration: the uncontended rate, and the records per clock read it
 * was measured with (duty runs then use the same, so both loops match). */
struct calibration {
	double records_per_s;
	unsigned records_per_check;
};

/* The cache holds one line per working-set size, as records/s depends on
 * it: "wss=16384 records_per_check=1 calib_records_per_s=123456.7". The
 * path is $PJTLOAD_CALIB or CALIB_PATH_DEFAULT. */
const char *calib_path(void);
/* Returns 0 and the calibration for wss, or -1 when the cache has none. */
int calib_lookup(const char *path, uint64_t wss, struct calibration *c);
/* Replaces the line for wss; written to a temporary file and renamed, so
 * a reader never sees half a file. Returns -1 with errno on failure. */
int calib_store(const char *path, uint64_t wss, const struct calibration *c);

#endif
