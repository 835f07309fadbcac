/* Order statistics, the median's confidence interval, and the resampling
 * machinery. Everything is deterministic: the generator is splitmix64
 * (Steele, Lea, Flood 2014), seeded per statistic from a hash of what it
 * describes, so an interval depends only on its own data, not on the order
 * of the file or on the machine. */
#include "pjt-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Lemire's multiply-shift; the bias (n / 2^64) is far below anything a
 * bootstrap of a few runs could show. */
uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

struct rng rng_for_key(const char *key)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	struct rng r;

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * UINT64_C(0x100000001b3);
	r.state = BOOTSTRAP_BASE_SEED ^ h;
	return r;
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
	return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
}

double median_of(double *v, int n)
{
	sort_doubles(v, n);
	return quantile_sorted(v, n, 0.5);
}

double resampled_median(struct rng *r, const double *v, int n, double *scratch)
{
	for (int i = 0; i < n; i++)
		scratch[i] = v[rng_below(r, n)];
	return median_of(scratch, n);
}

void percentile_interval(double *stats, int count, double *lo, double *hi)
{
	int tail = (int)floor(0.025 * count);

	sort_doubles(stats, count);
	*lo = stats[tail];
	*hi = stats[count - 1 - tail];
}

/* P(X <= k) for X ~ Binomial(n, 1/2). */
static double binomial_half_cdf(int n, int k)
{
	double sum = 0;

	for (int i = 0; i <= k; i++)
		sum += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * log(2.0));
	return sum;
}

/* For n >= 6: the distribution-free interval [x(j), x(n+1-j)] with the
 * largest j such that P(Bin(n,1/2) <= j-1) <= 0.025, so its coverage is
 * at least 95%. Below 6 runs no such j exists (n = 5 gives 93.75% at best),
 * so a percentile bootstrap of the median is used instead. */
struct median_ci median_confidence(const double *sorted, int n, const char *key)
{
	struct median_ci ci = { NAN, NAN, "" };

	if (n < 2)
		return ci;
	if (n >= EXACT_CI_MIN_N) {
		int j = 1;

		while (binomial_half_cdf(n, j) <= 0.025)
			j++;
		ci.lo = sorted[j - 1];
		ci.hi = sorted[n - j];
		ci.method = "binomial";
	} else {
		struct rng r = rng_for_key(key);
		double *medians = xmalloc(BOOTSTRAP_RESAMPLES * sizeof(double));
		double *scratch = xmalloc(n * sizeof(double));

		for (int i = 0; i < BOOTSTRAP_RESAMPLES; i++)
			medians[i] = resampled_median(&r, sorted, n, scratch);
		percentile_interval(medians, BOOTSTRAP_RESAMPLES, &ci.lo, &ci.hi);
		ci.method = "bootstrap";
		free(medians);
		free(scratch);
	}
	return ci;
}

double ratio_of(double num, double den)
{
	if (den == 0)
		return num == 0 ? 1 : (num > 0 ? INFINITY : -INFINITY);
	return num / den;
}

void ratio_confidence(const double *a, int na, const double *b, int nb,
		      const char *key, double *lo, double *hi)
{
	struct rng r = rng_for_key(key);
	double *ratios = xmalloc(BOOTSTRAP_RESAMPLES * sizeof(double));
	double *scratch = xmalloc((na > nb ? na : nb) * sizeof(double));

	for (int i = 0; i < BOOTSTRAP_RESAMPLES; i++) {
		double den = resampled_median(&r, a, na, scratch);
		double num = resampled_median(&r, b, nb, scratch);

		ratios[i] = ratio_of(num, den);
	}
	percentile_interval(ratios, BOOTSTRAP_RESAMPLES, lo, hi);
	free(ratios);
	free(scratch);
}
