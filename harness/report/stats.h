/*
 * Descriptive statistics and the two comparisons the reports use.
 *
 * Percentiles: linear interpolation between order statistics, Hyndman and
 * Fan's type 7 (the default of R's quantile() and NumPy's percentile()):
 * for sorted x[0..n-1] and 0 <= p <= 1, h = (n - 1) p and
 *   Q(p) = x[floor(h)] + (h - floor(h)) (x[floor(h) + 1] - x[floor(h)]),
 * so Q(0) is the minimum, Q(1) the maximum, Q(0.5) the usual median. This
 * is what gsl_stats_quantile_from_sorted_data computes.
 */
#ifndef CMB_STATS_H
#define CMB_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct summary {
	size_t n;
	double min, p50, p90, p99, p999, max, mean, sd; /* sd: sample (n - 1); 0 if n < 2 */
};

/* Type-7 quantile of sorted data (see above); NAN if n == 0. */
double stats_quantile_sorted(const double *sorted, size_t n, double p);
/* Summary of x (not modified); all fields NAN when n == 0. */
void stats_summary(const double *x, size_t n, struct summary *s);

/*
 * Wilson score interval for k successes in n trials at confidence
 * 1 - alpha (0.05 for 95%). n == 0 gives [0, 1].
 */
void stats_wilson(unsigned long k, unsigned long n, double alpha, double *lo, double *hi);

/*
 * Mann-Whitney U test (two-sided). U = R_a - n_a (n_a + 1) / 2 (R_a: the
 * sum of the mid-ranks of a in a u b). With n_a + n_b <= MW_EXACT_MAX the
 * p-value is exact: the share of the C(N, n_a) ways of drawing n_a of the
 * pooled mid-ranks whose sum lies at least as far from its mean as R_a
 * (the permutation distribution given the ties, as R's coin::wilcox_test
 * with distribution = "exact"); 5 against 5 completely separated gives
 * 2 / 252 = 0.0079. Above that, the normal approximation with the tie
 * correction of the variance and a continuity correction of 0.5, as R's
 * wilcox.test(exact = FALSE, correct = TRUE):
 *   sigma^2 = n_a n_b / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1)))
 *   z = (|U - n_a n_b / 2| - 0.5) / sigma,  p = 2 (1 - Phi(z))
 * z is filled in either way. p is 1 when either sample is empty or every
 * value is tied.
 */
#define MW_EXACT_MAX 50

struct mann_whitney {
	double u, z, p;
	bool exact;
};
void stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			struct mann_whitney *r);

/* The smallest two-sided exact p of n against m: 2 / C(n + m, n) (1 if either is 0). */
double stats_mw_smallest_p(size_t n, size_t m);

/*
 * Hodges-Lehmann estimate of the shift b - a: the median of the n_a n_b
 * differences b_j - a_i, with the distribution-free confidence interval
 * of Moses (Lehmann 1975, Hollander and Wolfe 4.3) from their order
 * statistics: [D_(k), D_(n_a n_b + 1 - k)], k the smallest u with
 * P(U <= u) >= alpha / 2 under the exact null distribution of U without
 * ties (R's qwilcox; normal approximation above MW_EXACT_MAX), and 1 if
 * that is 0. conf is the level the interval reaches (1 - 2 P(U <= k - 1)),
 * which is below 1 - alpha where the sample sizes cannot reach it (2 against
 * 2). For a ratio, pass logarithms and take exp() of all three.
 * Returns -1 (fields NAN) when a sample is empty.
 */
struct hodges_lehmann {
	double est, lo, hi, conf;
	bool exact;
};
int stats_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb, double alpha,
			 struct hodges_lehmann *r);

/*
 * Bootstrap percentile interval (1 - alpha) of median(b) / median(a):
 * both samples resampled with replacement iters times from an MT19937
 * generator seeded with seed, so the result is reproducible. ratio is the
 * ratio of the sample medians. Returns -1 if a sample is empty or a
 * median of a is zero.
 */
int stats_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb,
				 unsigned iters, unsigned long seed, double alpha,
				 double *ratio, double *lo, double *hi);

/*
 * Benjamini-Hochberg q-values of the n p-values (Benjamini and Hochberg,
 * 1995): q_(i) = min over j >= i of p_(j) m / j, capped at 1, over the m
 * that are not NaN; q[i] of a NaN p is left as it was.
 */
void stats_bh(const double *p, size_t n, double *q);

/* Every value of a and b the same (0 against 0): nothing to test. */
bool stats_one_value(const double *a, size_t na, const double *b, size_t nb);

#endif
