/* Statistics: hand-computed values, and a second method for each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/stats.h"
#include "lib/util.h"

#define assert_near(a, b, eps) do { \
		double a_ = (a), b_ = (b); \
		if (!(fabs(a_ - b_) <= (eps))) \
			fail_msg("%s = %.9g, expected %.9g (+-%g)", #a, a_, b_, (double)(eps)); \
	} while (0)

/*
 * x = 10, 3, 7, 1, 9, 2, 8, 4, 6, 5 (1..10 shuffled), n = 10, type 7:
 *   p50:   h = 9 * 0.5   = 4.5   -> x(4) + 0.5   (x(5) - x(4)) = 5 + 0.5   = 5.5
 *   p90:   h = 9 * 0.9   = 8.1   -> 9 + 0.1   = 9.1
 *   p99:   h = 9 * 0.99  = 8.91  -> 9 + 0.91  = 9.91
 *   p99.9: h = 9 * 0.999 = 8.991 -> 9 + 0.991 = 9.991
 *   mean = 55 / 10 = 5.5
 *   sd = sqrt(sum (x - 5.5)^2 / 9) = sqrt(2 (0.25 + 2.25 + 6.25 + 12.25 + 20.25) / 9)
 *      = sqrt(82.5 / 9) = 3.0276503541
 */
static void test_summary_hand(void **state)
{
	double x[] = { 10, 3, 7, 1, 9, 2, 8, 4, 6, 5 };
	double copy[10];
	struct summary s;

	(void)state;
	memcpy(copy, x, sizeof(x));
	stats_summary(x, 10, &s);
	assert_memory_equal(x, copy, sizeof(x)); /* input untouched */
	assert_int_equal(s.n, 10);
	assert_near(s.min, 1, 0);
	assert_near(s.max, 10, 0);
	assert_near(s.p50, 5.5, 1e-12);
	assert_near(s.p90, 9.1, 1e-12);
	assert_near(s.p99, 9.91, 1e-12);
	assert_near(s.p999, 9.991, 1e-12);
	assert_near(s.mean, 5.5, 1e-12);
	assert_near(s.sd, 3.0276503541, 1e-9);

	/* one value: every percentile is it, sd 0; none: NAN */
	stats_summary(x, 1, &s);
	assert_near(s.p99, 10, 0);
	assert_near(s.sd, 0, 0);
	stats_summary(x, 0, &s);
	assert_true(isnan(s.p50) && isnan(s.mean));
}

/* Second method: type 7 written out directly, mean and sd by two plain passes. */
static double type7(const double *sorted, size_t n, double p)
{
	double h = (n - 1) * p;
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void test_summary_second_method(void **state)
{
	static const size_t sizes[] = { 2, 3, 7, 100, 1001 };
	unsigned long seed = 12345;

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		double *x = malloc(n * sizeof(*x)), *s = malloc(n * sizeof(*s)), sum = 0, ss = 0, mean;
		struct summary sm;

		for (size_t i = 0; i < n; i++) {
			/* a small LCG: log-normal-ish latencies with ties */
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			x[i] = floor(exp((double)(seed >> 40) / (1 << 24) * 8)) + 100;
		}
		memcpy(s, x, n * sizeof(*x));
		qsort(s, n, sizeof(*s), cmp_d);
		for (size_t i = 0; i < n; i++)
			sum += x[i];
		mean = sum / n;
		for (size_t i = 0; i < n; i++)
			ss += (x[i] - mean) * (x[i] - mean);
		stats_summary(x, n, &sm);
		assert_near(sm.min, s[0], 0);
		assert_near(sm.max, s[n - 1], 0);
		assert_near(sm.p50, type7(s, n, 0.5), 1e-9);
		assert_near(sm.p90, type7(s, n, 0.9), 1e-9);
		assert_near(sm.p99, type7(s, n, 0.99), 1e-9);
		assert_near(sm.p999, type7(s, n, 0.999), 1e-9);
		assert_near(sm.mean, mean, 1e-9 * fabs(mean));
		assert_near(sm.sd, sqrt(ss / (n - 1)), 1e-9 * sqrt(ss / (n - 1)));
		for (double p = 0; p <= 1; p += 0.0625)
			assert_near(stats_quantile_sorted(s, n, p), type7(s, n, p), 1e-9);
		free(x);
		free(s);
	}
}

/*
 * Wilson, z = 1.959964 (z^2 = 3.841459):
 *   10 of 10: p = 1, d = 1 + 3.841459 / 10 = 1.3841459,
 *     centre = (1 + 3.841459 / 20) / d = 1.1920729 / 1.3841459 = 0.8612336,
 *     half = z / d sqrt(0 + 3.841459 / 400) = 1.4160135 * 0.0979982 = 0.1387664,
 *     -> [0.7224672, 1]
 *   5 of 10: centre = (0.5 + 0.1920729) / 1.3841459 = 0.5,
 *     half = 1.4160135 * sqrt(0.025 + 0.0096036) = 1.4160135 * 0.1860206 = 0.2634069,
 *     -> [0.2365931, 0.7634069]
 *   0 of 0: [0, 1]
 */
static void test_wilson(void **state)
{
	double lo, hi;

	(void)state;
	stats_wilson(10, 10, 0.05, &lo, &hi);
	assert_near(lo, 0.7224672, 1e-6);
	assert_near(hi, 1, 1e-12);
	stats_wilson(5, 10, 0.05, &lo, &hi);
	assert_near(lo, 0.2365931, 1e-6);
	assert_near(hi, 0.7634069, 1e-6);
	stats_wilson(0, 10, 0.05, &lo, &hi);
	assert_near(lo, 0, 1e-12);
	assert_near(hi, 1 - 0.7224672, 1e-6);
	stats_wilson(0, 0, 0.05, &lo, &hi);
	assert_near(lo, 0, 0);
	assert_near(hi, 1, 0);
}

/*
 * The two-sample example of R's wilcox.test help page (Hollander & Wolfe):
 *   x = 0.80 0.83 1.89 1.04 1.45 1.38 1.91 1.64 0.73 1.46
 *   y = 1.15 0.88 0.90 0.74 1.21
 * pooled ranks of x: 0.73->1 0.80->3 0.83->4 1.04->7 1.38->10 1.45->11
 *   1.46->12 1.64->13 1.89->14 1.91->15, R_x = 90, U = 90 - 10*11/2 = 35
 *   (R reports W = 35). No ties: sigma^2 = 10*5/12 * 16 = 66.667,
 *   z = (|35 - 25| - 0.5) / 8.164966 = 1.163508. N = 15 is small: the p is
 *   exact, 2 x R's one-sided "p-value = 0.1272" = 764 / 3003 = 0.254412
 *   (of the C(15, 10) = 3003 draws, 764 lie as far from the mean).
 */
static void test_mann_whitney_textbook(void **state)
{
	double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	struct mann_whitney r;

	(void)state;
	stats_mann_whitney(x, 10, y, 5, &r);
	assert_near(r.u, 35, 0);
	assert_near(r.z, 1.163508, 1e-6);
	assert_true(r.exact);
	assert_near(r.p, 764.0 / 3003, 1e-12);
	/* swapped: U' = n_x n_y - U = 15, same p */
	stats_mann_whitney(y, 5, x, 10, &r);
	assert_near(r.u, 15, 0);
	assert_near(r.p, 764.0 / 3003, 1e-12);
}

/*
 * 5 against 5 completely separated: of the C(10, 5) = 252 draws of five
 * ranks only 1-5 and 6-10 lie as far from the mean, p = 2 / 252 =
 * 7.9365e-3 (the normal approximation said 0.0122); either direction.
 */
static void test_mann_whitney_exact_separated(void **state)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 60, 70, 80, 90, 100 };
	struct mann_whitney r;

	(void)state;
	stats_mann_whitney(a, 5, b, 5, &r);
	assert_true(r.exact);
	assert_near(r.u, 0, 0);
	assert_near(r.p, 2.0 / 252, 1e-15);
	assert_near(r.p, 7.9365e-3, 1e-7);
	stats_mann_whitney(b, 5, a, 5, &r);
	assert_near(r.u, 25, 0);
	assert_near(r.p, 2.0 / 252, 1e-15);
	/* 3 against 3: 2 / 20, never below 0.05 */
	stats_mann_whitney(a, 3, b, 3, &r);
	assert_near(r.p, 0.1, 1e-15);
	/* large samples: the normal approximation, still tiny */
	{
		double x[40], y[40];

		for (int i = 0; i < 40; i++) {
			x[i] = i;
			y[i] = 100 + i;
		}
		stats_mann_whitney(x, 40, y, 40, &r);
		assert_false(r.exact);
		assert_true(r.p < 1e-12);
	}
}

/*
 * Hodges-Lehmann: the same textbook pair (Hollander and Wolfe, the
 * permeability constants; R's wilcox.test(x, y, conf.int = TRUE) gives
 * "difference in location 0.305", interval -0.76 to 0.15 for x - y). Here
 * the shift is y - x: estimate -0.305, interval [-0.76, 0.15]: U with
 * m = 10, n = 5 has P(U <= 8) = 0.0200 < 0.025 <= P(U <= 9), so k = 9
 * and the interval is [D_(9), D_(42)] of the 50 sorted differences,
 * reaching 1 - 2 x 0.0200 = 96.0%.
 */
static void test_hodges_lehmann_textbook(void **state)
{
	double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 11, 12, 13, 14, 15 };
	struct hodges_lehmann h;

	(void)state;
	assert_int_equal(stats_hodges_lehmann(x, 10, y, 5, 0.05, &h), 0);
	assert_true(h.exact);
	assert_near(h.est, -0.305, 1e-12);
	assert_near(h.lo, -0.76, 1e-12);
	assert_near(h.hi, 0.15, 1e-12);
	assert_near(h.conf, 0.9600399600, 1e-9);
	/* 5 against 5 shifted by 10: differences 6, 7, 7, 8, 8, 8, ..., 13, 13, 14;
	 * k = 3, [D_(3), D_(23)] = [7, 13] at 1 - 2 x 4/252 = 96.8% */
	assert_int_equal(stats_hodges_lehmann(a, 5, b, 5, 0.05, &h), 0);
	assert_near(h.est, 10, 0);
	assert_near(h.lo, 7, 0);
	assert_near(h.hi, 13, 0);
	assert_near(h.conf, 1 - 8.0 / 252, 1e-12);
	/* 2 against 2 cannot reach 95%: the whole range 9-11, at 1 - 2/6 */
	assert_int_equal(stats_hodges_lehmann(a, 2, b, 2, 0.05, &h), 0);
	assert_near(h.lo, 9, 0);
	assert_near(h.hi, 11, 0);
	assert_near(h.conf, 1 - 2.0 / 6, 1e-12);
	/* nothing to estimate from */
	assert_int_equal(stats_hodges_lehmann(a, 0, b, 2, 0.05, &h), -1);
	assert_true(isnan(h.est) && isnan(h.lo));
}

/*
 * With ties: a = 1 2 2 3, b = 2 3 4 5. Pooled: 1 | 2 2 2 | 3 3 | 4 | 5,
 * mid-ranks 1 | 3 3 3 | 5.5 5.5 | 7 | 8; R_a = 1 + 3 + 3 + 5.5 = 12.5,
 * U = 12.5 - 10 = 2.5. Ties t = 3 and 2: sum (t^3 - t) = 24 + 6 = 30.
 * sigma^2 = 16/12 (9 - 30 / 56) = 11.285714, sigma = 3.359422,
 * z = -(|2.5 - 8| - 0.5) / sigma = -1.488351. Exact, given the ties: of
 * the C(8, 4) = 70 draws of four of the mid-ranks, 14 sum at least 5.5
 * from the mean 18, p = 0.2 (an enumeration in Python agrees).
 */
static void test_mann_whitney_ties(void **state)
{
	double a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 4, 5 };
	struct mann_whitney r;

	(void)state;
	stats_mann_whitney(a, 4, b, 4, &r);
	assert_near(r.u, 2.5, 0);
	assert_near(r.z, -1.488351, 1e-6);
	assert_near(r.p, 0.2, 1e-12);
	/* all tied: no evidence, p = 1 */
	stats_mann_whitney(a + 1, 2, b, 1, &r);
	assert_near(r.p, 1, 0);
	/* a sample against itself: p = 1 */
	stats_mann_whitney(b, 4, b, 4, &r);
	assert_near(r.u, 8, 0);
	assert_near(r.p, 1, 0);
	/* empty */
	stats_mann_whitney(a, 0, b, 4, &r);
	assert_near(r.p, 1, 0);
}

/* Second method: U by counting pairs (a > b counts 1, a == b counts 1/2). */
static void test_mann_whitney_pairs(void **state)
{
	unsigned long seed = 99;

	(void)state;
	for (int round = 0; round < 20; round++) {
		size_t na = 3 + round, nb = 25 - round;
		double a[40], b[40], u = 0;
		struct mann_whitney r;

		for (size_t i = 0; i < na + nb; i++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			/* few distinct values: many ties */
			double v = (double)((seed >> 33) % 12) + (round % 3 ? 0 : 0.5 * (i % 2));

			if (i < na)
				a[i] = v;
			else
				b[i - na] = v;
		}
		for (size_t i = 0; i < na; i++)
			for (size_t j = 0; j < nb; j++)
				u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
		stats_mann_whitney(a, na, b, nb, &r);
		assert_near(r.u, u, 1e-9);
		assert_true(r.p >= 0 && r.p <= 1);
	}
}

static void test_bootstrap(void **state)
{
	double a[] = { 100, 110, 120, 130, 140, 150, 160 };
	double b[] = { 200, 220, 240, 260, 280, 300, 320 };
	double r1, lo1, hi1, r2, lo2, hi2;

	(void)state;
	/* medians 130 and 260: ratio exactly 2 */
	assert_int_equal(stats_bootstrap_median_ratio(a, 7, b, 7, 2000, 42, 0.05, &r1, &lo1, &hi1), 0);
	assert_near(r1, 2, 1e-12);
	assert_true(lo1 <= 2 && 2 <= hi1 && lo1 < hi1);
	/* every resampled ratio lies within max(b)/min(a) and min(b)/max(a) */
	assert_true(lo1 >= 200.0 / 160 && hi1 <= 320.0 / 100);
	/* fixed seed: the same interval again */
	assert_int_equal(stats_bootstrap_median_ratio(a, 7, b, 7, 2000, 42, 0.05, &r2, &lo2, &hi2), 0);
	assert_true(lo1 == lo2 && hi1 == hi2);
	/* a sample against itself: ratio 1 inside the interval */
	assert_int_equal(stats_bootstrap_median_ratio(a, 7, a, 7, 500, 1, 0.05, &r2, &lo2, &hi2), 0);
	assert_near(r2, 1, 0);
	assert_true(lo2 <= 1 && 1 <= hi2);
	/* refused: empty sample */
	assert_int_equal(stats_bootstrap_median_ratio(a, 0, b, 7, 10, 1, 0.05, &r2, &lo2, &hi2), -1);
}

/*
 * Benjamini-Hochberg by hand: p (0.01, NaN, 0.04, 0.03, 0.04), m = 4:
 * 0.01*4/1 = 0.04; the tied 0.04s 0.04*4/4 = 0.04; 0.03*4/2 = 0.06, but a
 * larger p's q is smaller: min(0.06, 0.04) = 0.04; the NaN's q untouched.
 * A p of 0.5 alone (m = 1) stays 0.5; p = 0.9, 0.95 give 0.95 both.
 */
static void test_bh(void **state)
{
	const double p[] = { 0.01, NAN, 0.04, 0.03, 0.04 }, one[] = { 0.5 }, two[] = { 0.9, 0.95 };
	double q[5] = { -1, -1, -1, -1, -1 }, q1[1], q2[2];

	(void)state;
	stats_bh(p, 5, q);
	assert_true(fabs(q[0] - 0.04) < 1e-12);
	assert_true(q[1] == -1);
	assert_true(fabs(q[2] - 0.04) < 1e-12);
	assert_true(fabs(q[3] - 0.04) < 1e-12);
	assert_true(fabs(q[4] - 0.04) < 1e-12);
	stats_bh(one, 1, q1);
	assert_true(fabs(q1[0] - 0.5) < 1e-12);
	stats_bh(two, 2, q2);
	assert_true(fabs(q2[0] - 0.95) < 1e-12 && fabs(q2[1] - 0.95) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_hand),
		cmocka_unit_test(test_summary_second_method),
		cmocka_unit_test(test_wilson),
		cmocka_unit_test(test_mann_whitney_textbook),
		cmocka_unit_test(test_mann_whitney_ties),
		cmocka_unit_test(test_mann_whitney_pairs),
		cmocka_unit_test(test_mann_whitney_exact_separated),
		cmocka_unit_test(test_hodges_lehmann_textbook),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_bh),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
