/* Throughput arithmetic and the per-boot calibration cache. */
#ifndef PJTLOAD_RATE_H
#define PJTLOAD_RATE_H

#include <stdint.h>

#define CALIB_PATH_DEFAULT "/tmp/pjtload.calib"
#define RECORDS_PER_CHECK_MAX 1024

double per_second(uint64_t count, uint64_t elapsed_ns);
/*
 * rate_fraction: the share of the records an uncontended thread would have
 * done in the busy time the workload asked for, that the threads did do.
 *
 *   rate_fraction = credited / (intended_busy_s * U)
 *
 * intended_busy_s: threads x periods x duty% of a period (what was asked);
 * credited: per busy window, the records done, less the part of the last
 * chunk that ran past the window's end (pro rata), so a window never
 * credits more than U x its own length;
 * U, the uncontended rate: the larger of the calibration (the fastest of
 * its windows: the max of many short samples, not one long average) and
 * the fastest window of this very run.  Every window's rate is at most U,
 * so credited <= U x (sum of windows) <= U x intended_busy_s: the fraction
 * cannot exceed 1 (the final min() only absorbs floating-point rounding).
 * A calibration taken while the guest ran slower than during the run (the
 * likely cause of the values up to 1.5 of the old definition, records/s
 * over one 1 s calibration average) can no longer push it above 1: U then
 * follows the run's own fastest window.
 */
struct rate_acc {
	double credited;   /* records credited to the busy windows */
	double best_rate;  /* fastest window, records/s */
	uint64_t windows;
};

/* One busy window: records done in actual_ns, of a window window_ns long. */
void rate_acc_window(struct rate_acc *a, uint64_t records, uint64_t actual_ns,
		     uint64_t window_ns);
void rate_acc_merge(struct rate_acc *into, const struct rate_acc *from);
/* The uncontended rate U: max(calib, the fastest window). */
double rate_acc_uncontended(const struct rate_acc *a, double calib_records_per_s);
/* The fraction above; negative when there is no calibration (calib <= 0)
 * or nothing was asked (intended_busy_ns == 0). */
double rate_fraction(const struct rate_acc *a, double intended_busy_ns,
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
