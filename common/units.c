#include "units.h"

#include <stdio.h>
#include <string.h>

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Reads the digits at *pos into *value; fails on none or on overflow. */
static int read_digits(const char **pos, uint64_t *value, const char **why)
{
	const char *p = *pos;
	uint64_t v = 0;

	if (!is_digit(*p)) {
		*why = "not a number";
		return -1;
	}
	for (; is_digit(*p); p++) {
		unsigned digit = *p - '0';
		if (v > (UINT64_MAX - digit) / 10) {
			*why = "number too large";
			return -1;
		}
		v = v * 10 + digit;
	}
	*pos = p;
	*value = v;
	return 0;
}

int parse_u64(const char *text, uint64_t *value, const char **why)
{
	const char *p = text;

	if (read_digits(&p, value, why))
		return -1;
	if (*p) {
		*why = "trailing garbage after the number";
		return -1;
	}
	return 0;
}

int parse_time_ns(const char *text, uint64_t *ns, const char **why)
{
	static const struct { const char *suffix; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	const char *p = text;
	uint64_t whole, fraction = 0, fraction_scale = 1;
	size_t i;

	if (read_digits(&p, &whole, why))
		return -1;
	if (*p == '.') {
		p++;
		if (!is_digit(*p)) {
			*why = "no digits after the decimal point";
			return -1;
		}
		for (; is_digit(*p); p++) {
			if (fraction_scale >= 1000000000) {
				*why = "more than 9 decimal places";
				return -1;
			}
			fraction = fraction * 10 + (uint64_t)(*p - '0');
			fraction_scale *= 10;
		}
	}
	if (!*p) {
		*why = "needs a unit: ns, us, ms or s";
		return -1;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		uint64_t unit = units[i].ns;
		if (strcmp(p, units[i].suffix))
			continue;
		if (whole > UINT64_MAX / unit) {
			*why = "time too large";
			return -1;
		}
		if ((fraction * unit) % fraction_scale) {
			*why = "not a whole number of nanoseconds";
			return -1;
		}
		*ns = whole * unit + fraction * unit / fraction_scale;
		return 0;
	}
	*why = "trailing garbage (units are ns, us, ms, s)";
	return -1;
}

int parse_size(const char *text, uint64_t *bytes, const char **why)
{
	const char *p = text;
	uint64_t v, shift = 0;

	if (read_digits(&p, &v, why))
		return -1;
	switch (*p) {
	case '\0': break;
	case 'k': case 'K': shift = 10; p++; break;
	case 'm': case 'M': shift = 20; p++; break;
	case 'g': case 'G': shift = 30; p++; break;
	default:
		*why = "trailing garbage (size suffixes are k, m, g)";
		return -1;
	}
	if (*p) {
		*why = "trailing garbage (size suffixes are k, m, g)";
		return -1;
	}
	if (v > (UINT64_MAX >> shift)) {
		*why = "size too large";
		return -1;
	}
	*bytes = v << shift;
	return 0;
}

int parse_cpulist(const char *text, cpu_set_t *set, const char **why)
{
	const char *p = text;

	CPU_ZERO(set);
	for (;;) {
		uint64_t first, last;

		if (read_digits(&p, &first, why))
			return -1;
		last = first;
		if (*p == '-') {
			p++;
			if (read_digits(&p, &last, why))
				return -1;
			if (last < first) {
				*why = "range ends before it starts";
				return -1;
			}
		}
		if (last >= CPU_SETSIZE) {
			*why = "CPU number too large";
			return -1;
		}
		for (; first <= last; first++)
			CPU_SET(first, set);
		if (!*p)
			return 0;
		if (*p != ',') {
			*why = "trailing garbage (expected a list like 0-3,5)";
			return -1;
		}
		p++;
	}
}

void format_cpulist(const cpu_set_t *set, char *buf, size_t size)
{
	size_t used = 0;
	int cpu = 0;

	buf[0] = '\0';
	while (cpu < CPU_SETSIZE) {
		int last;

		if (!CPU_ISSET(cpu, set)) {
			cpu++;
			continue;
		}
		for (last = cpu; last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set); last++)
			;
		if (used < size) {
			const char *sep = used ? "," : "";
			if (last == cpu)
				used += snprintf(buf + used, size - used, "%s%d", sep, cpu);
			else
				used += snprintf(buf + used, size - used, "%s%d-%d", sep, cpu, last);
		}
		cpu = last + 1;
	}
}
