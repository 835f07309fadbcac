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

/* Two-sided p of statistic x against its null distribution dist[0..top]:
 * twice the smaller tail, each tail holding x itself. */
static double two_sided_p(const double *dist, long top, double x)
{
	double lower = 0, upper = 0;

	for (long v = 0; v <= top; v++) {
		if (v <= x)
			lower += dist[v];
		if (v >= x)
			upper += dist[v];
	}
	return fmin(1, 2 * fmin(lower, upper));
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
		double *dist = mann_whitney_null(na, nb);

		tail = dist[0];
		while (k + 1 <= (mn + 1) / 2 && 1 - 2 * (tail + dist[k]) >= CI_TARGET - 1e-12)
			tail += dist[k++];
		*p = two_sided_p(dist, mn, u);
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

/* ---- paired procedures on the units: Wilcoxon signed-rank, paired t ---- */

#define SIGNED_RANK_EXACT_N 200 /* the DP's table is n(n+1) wide: ample for boots */

/* Twice the midranks of |d| (integers, so ties stay exact), NaN units
 * left out (rank 0); returns the count ranked. */
static int doubled_midranks(const double *d, int n, int *r2)
{
	struct ranked *v = xmalloc((n ? n : 1) * sizeof(*v));
	int m = 0;

	for (int i = 0; i < n; i++) {
		r2[i] = 0;
		if (!isnan(d[i])) {
			v[m].p = fabs(d[i]);
			v[m++].i = i;
		}
	}
	qsort(v, m, sizeof(*v), compare_ranked);
	for (int j = 0; j < m;) {
		int k = j;

		while (k + 1 < m && v[k + 1].p == v[j].p)
			k++;
		for (int t = j; t <= k; t++)
			r2[v[t].i] = j + k + 2; /* 2 x the mean of ranks j+1..k+1 */
		j = k + 1;
	}
	free(v);
	return m;
}

/* Two-sided p of the exact Wilcoxon signed-rank test of the units against
 * 0. Zeros by Pratt's rule: they keep their place in the ranking of |d|
 * but enter neither sum, so a tie at 0 costs no power to the units
 * around it. Ties among |d| get midranks, and the null distribution is the
 * exact one of those scores (each unit's sign a fair coin, enumerated by
 * a DP over the doubled ranks), not the untied table. Above
 * SIGNED_RANK_EXACT_N units: the normal approximation with the variance
 * of the same scores. NaN units are left out; NaN when nothing is left. */
double signed_rank_p(const double *d, int n)
{
	int *r2 = xmalloc((n ? n : 1) * sizeof(int)), m;
	long total = 0, w = 0, nz = 0;
	double p;

	m = doubled_midranks(d, n, r2);
	for (int i = 0; i < n; i++)
		if (r2[i] && d[i] != 0) {
			total += r2[i];
			nz++;
			if (d[i] > 0)
				w += r2[i];
		}
	if (!m) {
		free(r2);
		return NAN;
	}
	if (!nz) {
		free(r2);
		return 1;
	}
	if (nz <= SIGNED_RANK_EXACT_N) {
		double *dist = xcalloc(total + 1, sizeof(double));
		long top = 0;

		dist[0] = 1;
		for (int i = 0; i < n; i++) {
			if (!r2[i] || d[i] == 0)
				continue;
			top += r2[i];
			for (long s = top; s >= 0; s--)
				dist[s] = (dist[s] + (s >= r2[i] ? dist[s - r2[i]] : 0)) / 2;
		}
		p = two_sided_p(dist, total, w);
		free(dist);
	} else {
		double var = 0;

		for (int i = 0; i < n; i++)
			if (r2[i] && d[i] != 0)
				var += (double)r2[i] * r2[i] / 4;
		p = fmin(1, erfc(fabs(w - total / 2.0) / sqrt(var) / M_SQRT2));
	}
	free(r2);
	return p;
}

/* P(W <= w) for the untied signed-rank statistic of n units (ranks 1..n),
 * into cdf[0..n(n+1)/2]: the distribution the Walsh-average interval's
 * level is computed from. */
static double *signed_rank_cdf(int n)
{
	long top = (long)n * (n + 1) / 2;
	double *dist = xcalloc(top + 1, sizeof(double));

	dist[0] = 1;
	for (int r = 1; r <= n; r++)
		for (long s = (long)r * (r + 1) / 2; s >= 0; s--)
			dist[s] = (dist[s] + (s >= r ? dist[s - r] : 0)) / 2;
	for (long s = 1; s <= top; s++)
		dist[s] += dist[s - 1];
	return dist;
}

/* Hodges-Lehmann: the median of the n(n+1)/2 Walsh averages (d_i + d_j)/2,
 * i <= j, with the distribution-free interval the signed-rank test
 * inverts: Walsh averages (k, M+1-k), the largest k whose exact coverage
 * 1 - 2 P(W <= k-1) is >= 95% (the untied null; exact for continuous
 * data), or (1, M) at its own level, 1 - 2/2^n, when even that is below.
 * Units must be finite. */
struct interval walsh_interval(const double *d, int n, double *estimate)
{
	struct interval ci = { NAN, NAN, NAN };
	long mw = (long)n * (n + 1) / 2, k = 1, q = 0;
	double *w, *cdf;

	*estimate = NAN;
	if (n < 1)
		return ci;
	w = xmalloc(mw * sizeof(double));
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++)
			w[q++] = (d[i] + d[j]) / 2;
	sort_doubles(w, mw);
	*estimate = median_sorted(w, mw);
	if (n >= 2 && n <= SIGNED_RANK_EXACT_N) {
		cdf = signed_rank_cdf(n);
		while (k + 1 <= (mw + 1) / 2 && 1 - 2 * cdf[k] >= CI_TARGET - 1e-12)
			k++;
		ci.level = 1 - 2 * cdf[k - 1];
		free(cdf);
	} else if (n > SIGNED_RANK_EXACT_N) { /* normal approximation of W */
		double mean = mw / 2.0, sd = sqrt(n * (n + 1.0) * (2 * n + 1) / 24);

		k = (long)floor(mean - 1.959964 * sd);
		k = k < 1 ? 1 : k;
		ci.level = 1 - erfc((mean - (k - 1) - 0.5) / sd / M_SQRT2);
	}
	if (n >= 2) {
		ci.lo = w[k - 1];
		ci.hi = w[mw - k];
	}
	free(w);
	return ci;
}

/* The regularised incomplete beta I_x(a, b) by its continued fraction
 * (Lentz), for Student's t distribution. */
static double incomplete_beta(double a, double b, double x)
{
	double front, c = 1, dd, f;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	if (x > (a + 1) / (a + b + 2))
		return 1 - incomplete_beta(b, a, 1 - x);
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)) / a;
	dd = 1 - (a + b) * x / (a + 1);
	dd = 1 / (fabs(dd) < 1e-300 ? 1e-300 : dd);
	f = dd;
	for (int i = 2; i <= 300; i++) { /* the first term is in dd already */
		int m = i / 2;
		double num = i % 2 ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
			: m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		double delta;

		dd = 1 + num * dd;
		dd = 1 / (fabs(dd) < 1e-300 ? 1e-300 : dd);
		c = 1 + num / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		delta = c * dd;
		f *= delta;
		if (fabs(delta - 1) < 1e-15)
			break;
	}
	return front * f;
}

/* Two-sided tail P(|T| >= t) of Student's t with df degrees of freedom. */
double student_t_two_sided(double t, double df)
{
	return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

/* The t with P(|T| >= t) = tail, by bisection (monotone, and cheap next
 * to a simulation). */
double student_t_quantile(double tail, double df)
{
	double lo = 0, hi = 1e4;

	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (student_t_two_sided(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The paired t on the units: their mean, its 95% t interval and the
 * two-sided p (units should be finite; n >= 2). */
struct interval paired_t(const double *d, int n, double *mean, double *p)
{
	struct interval ci = { NAN, NAN, NAN };
	double sum = 0, ss = 0, se, half;

	*mean = *p = NAN;
	if (n < 1)
		return ci;
	for (int i = 0; i < n; i++)
		sum += d[i];
	*mean = sum / n;
	if (n < 2)
		return ci;
	for (int i = 0; i < n; i++)
		ss += (d[i] - *mean) * (d[i] - *mean);
	se = sqrt(ss / (n - 1) / n);
	if (se == 0) { /* identical units: nothing to scale by */
		*p = *mean == 0 ? 1 : 0;
		ci.lo = ci.hi = *mean;
		ci.level = CI_TARGET;
		return ci;
	}
	*p = student_t_two_sided(fabs(*mean) / se, n - 1);
	half = student_t_quantile(1 - CI_TARGET, n - 1) * se;
	ci.lo = *mean - half;
	ci.hi = *mean + half;
	ci.level = CI_TARGET;
	return ci;
}

const char *const procedure_names[NPROCEDURES] = { "sign", "signed-rank", "paired-t" };

/* One procedure on n sorted units: its estimate, interval and p. */
void test_units(int proc, const double *sorted, int n, double *estimate, struct interval *ci, double *p)
{
	switch (proc) {
	case PROC_SIGN:
		*estimate = median_sorted(sorted, n);
		*ci = median_interval(sorted, n);
		*p = sign_test_p(sorted, n);
		break;
	case PROC_SIGNED_RANK:
		*ci = walsh_interval(sorted, n, estimate);
		*p = signed_rank_p(sorted, n);
		break;
	default:
		*ci = paired_t(sorted, n, estimate, p);
	}
}
