/* Parsing of the numbers, times, sizes and CPU lists pjtload options take.
 * Pure functions: they return 0 on success, or -1 and set *why to a short
 * reason used in the caller's message. */
#ifndef PJTLOAD_UNITS_H
#define PJTLOAD_UNITS_H

#include <sched.h>
#include <stdint.h>

int parse_u64(const char *text, uint64_t *value, const char **why);
/* Times need a unit (ns us ms s) and may have a decimal fraction ("1.5s"),
 * as long as the result is a whole number of nanoseconds. */
int parse_time_ns(const char *text, uint64_t *ns, const char **why);
/* Sizes in bytes, optional binary suffix k m g (either case). */
int parse_size(const char *text, uint64_t *bytes, const char **why);
/* "0-3,5": ranges and single CPUs, each below CPU_SETSIZE. */
int parse_cpulist(const char *text, cpu_set_t *set, const char **why);
/* Writes the list form of set into buf ("0-3,5"); "" for an empty set. */
void format_cpulist(const cpu_set_t *set, char *buf, size_t size);

#endif
