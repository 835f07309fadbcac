/* Order statistics, the exact distribution-free intervals and tests.
 * Nothing here resamples: every interval is a pair of order statistics
 * whose coverage is known exactly for continuous data, and printed. */
#include "pjt-stats.h"
#include "splitmix64.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t rng_next(struct rng *r)
{
	return splitmix64_next(&r->state);
}

double rng_uniform(struct rng *r)
{
	return ((rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

double rng_normal(struct rng *r)
{
	return sqrt(-2 * log(rng_uniform(r))) * cos(2 * M_PI * rng_uniform(r));
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void sort_doubles(double *v, int n)
{
	qsort(v, n, sizeof(double), compare_doubles);
}

/* Hyndman & Fan type 7 (R's default): h = (n-1)p, linear interpolation
 * between the order statistics around h. */
double quantile_sorted(const double *sorted, int n, double p)
{
	double h = (n - 1) * p;
	int lo = (int)floor(h);

	if (lo >= n - 1)
		return sorted[n - 1];
	if (sorted[lo] == sorted[lo + 1] || h == lo)
		return sorted[lo];
	return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
}

/* The middle value, or the mean of the middle two; NaN when only one of
 * those is infinite (a log ratio with a 0 on one side): no median then. */
double median_sorted(const double *sorted, int n)
{
	if (!n)
		return NAN;
	if (n % 2 || sorted[n / 2 - 1] == sorted[n / 2])
		return sorted[n / 2];
	if (isinf(sorted[n / 2 - 1]) || isinf(sorted[n / 2]))
		return NAN;
	return (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* P(B <= j) for B ~ Binomial(n, 1/2). */
static double binomial_half_cdf(int n, int j)
{
	double sum = 0;

	for (int i = 0; i <= j; i++)
		sum += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * M_LN2);
	return sum;
}

int median_interval_rank(int n, double *level)
{
	int k = 1;
	double tail, next;

	*level = NAN;
	if (n < 2)
		return 0;
	tail = binomial_half_cdf(n, 0);
	/* grow k while the next pair still keeps 95% */
	while (k + 1 <= (n + 1) / 2 &&
	       (next = tail + exp(lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) - n * M_LN2),
		1 - 2 * next >= CI_TARGET - 1e-12)) {
		tail = next;
		k++;
	}
	*level = 1 - 2 * tail;
	return k;
}

struct interval median_interval(const double *sorted, int n)
{
	struct interval ci = { NAN, NAN, NAN };
	int k = median_interval_rank(n, &ci.level);

	if (k) {
		ci.lo = sorted[k - 1];
		ci.hi = sorted[n - k];
	}
	return ci;
}

/* Two-sided p of the exact sign test of the units against 0, the test the
 * order-statistic interval inverts: a unit equal to 0 counts on both
 * sides, so the interval [x(k), x(n+1-k)] at level L excludes 0 exactly
 * when p <= 1 - L. p = min(1, 2 P(B <= min(#{d <= 0}, #{d >= 0}))),
 * B ~ Binomial(n, 1/2). NaN units are not counted; NaN when none is left. */
double sign_test_p(const double *d, int n)
{
	int le = 0, ge = 0, m = 0;

	for (int i = 0; i < n; i++) {
		if (isnan(d[i]))
			continue;
		m++;
		le += d[i] <= 0;
		ge += d[i] >= 0;
	}
	if (!m)
		return NAN;
	return fmin(1, 2 * binomial_half_cdf(m, le < ge ? le : ge));
}

/* The smallest p the sign test can give with n units of which ties are
 * 0: each tie counts on both sides, 2 P(B <= ties). */
double sign_test_tie_floor(int n, int ties)
{
	return fmin(1, 2 * binomial_half_cdf(n, ties));
}

/* The smallest p the sign test can give with n units: 2 / 2^n. */
double sign_test_min_p(int n)
{
	return n < 1 ? 1 : fmin(1, ldexp(2, -n));
}

/* Holm's step-down adjustment of p[0..n): q[i] = max over the j-th
 * smallest p up to p[i] of min(1, (n - j) p(j)), j from 0. NaN counts as 1. */
void holm_adjust(const double *p, double *q, int n)
{
	struct { double p; int i; } *r = xmalloc((n ? n : 1) * sizeof(*r));
	double running = 0;

	for (int i = 0; i < n; i++) {
		r[i].p = isnan(p[i]) ? 1 : p[i];
		r[i].i = i;
	}
	for (int i = 1; i < n; i++) /* insertion sort: families are small */
		for (int j = i; j > 0 && r[j - 1].p > r[j].p; j--) {
			double tp = r[j].p;
			int ti = r[j].i;

			r[j].p = r[j - 1].p;
			r[j].i = r[j - 1].i;
			r[j - 1].p = tp;
			r[j - 1].i = ti;
		}
	for (int j = 0; j < n; j++) {
		double v = fmin(1, (n - j) * r[j].p);

		if (v > running)
			running = v;
		q[r[j].i] = running;
	}
	free(r);
}

struct ranked { double p; int i; };

static int compare_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return (x->p > y->p) - (x->p < y->p);
}

void bh_adjust(const double *p, double *q, int n)
{
	struct ranked *r = xmalloc((n ? n : 1) * sizeof(*r));
	double running = 1;

	for (int i = 0; i < n; i++) {
		r[i].p = p[i];
		r[i].i = i;
	}
	qsort(r, n, sizeof(*r), compare_ranked);
	for (int j = n - 1; j >= 0; j--) {
		double v = r[j].p * n / (j + 1);

		if (v < running)
			running = v;
		q[r[j].i] = running;
	}
	free(r);
}

/* Null distribution of the Mann-Whitney U for sizes m, n (no ties): the
 * coefficients of the Gaussian binomial [m+n choose m]. dist[u] = P(U=u). */
static double *mann_whitney_null(int m, int n)
{
	long top = (long)m * n;
	double *c = xcalloc(top + 1, sizeof(double)), total = 0;

	c[0] = 1;
	for (int i = 1; i <= m; i++) {
		for (long u = top; u >= n + i; u--) /* times (1 - q^(n+i)) */
			c[u] -= c[u - n - i];
		for (long u = i; u <= top; u++)     /* divided by (1 - q^i) */
			c[u] += c[u - i];
	}
	for (long u = 0; u <= top; u++)
		total += c[u];
	for (long u = 0; u <= top; u++)
		c[u] /= total;
	return c;
}

struct interval shift_interval(const double *a, int na, const double *b, int nb,
			       double *estimate, double *p)
{
	struct interval ci = { NAN, NAN, NAN };
	long mn = (long)na * nb, k = 1;
	double *diff, tail, u = 0;

	*estimate = *p = NAN;
	if (!na || !nb)
		return ci;
	diff = xmalloc(mn * sizeof(double));
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++) {
			diff[(long)i * nb + j] = b[j] - a[i];
			u += b[j] > a[i] ? 1 : b[j] == a[i] ? 0.5 : 0;
		}
	sort_doubles(diff, mn);
	*estimate = median_sorted(diff, mn);
	if (mn <= 250000) {
		double *dist = mann_whitney_null(na, nb), lower = 0, upper = 0;

		tail = dist[0];
		while (k + 1 <= (mn + 1) / 2 && 1 - 2 * (tail + dist[k]) >= CI_TARGET - 1e-12)
			tail += dist[k++];
		for (long x = 0; x <= mn; x++) {
			if (x <= u)
				lower += dist[x];
			if (x >= u)
				upper += dist[x];
		}
		*p = fmin(1, 2 * fmin(lower, upper));
		free(dist);
	} else { /* normal approximation of U */
		double mean = mn / 2.0, sd = sqrt(mn * (na + nb + 1.0) / 12);

		k = (long)floor(mean - 1.959964 * sd);
		if (k < 1)
			k = 1;
		tail = 0.5 * erfc((mean - (k - 1) - 0.5) / sd / M_SQRT2);
		*p = fmin(1, erfc(fmax(0, fabs(u - mean) - 0.5) / sd / M_SQRT2));
	}
	if (mn >= 2 && 1 - 2 * tail > 0) {
		ci.lo = diff[k - 1];
		ci.hi = diff[mn - k];
		ci.level = 1 - 2 * tail;
	}
	free(diff);
	return ci;
}
