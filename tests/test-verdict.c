/*
 * The one decision behind every verdict of docs/reproducing.md
 * (repro-verdict.c): bands parsed from a tolerance, and intervals placed
 * on each side of each band edge: agrees, differs, inconclusive (with the
 * runs it would need), not comparable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "reproduce/repro-verdict.h"

/* A published row: value v in unit, its tolerance parsed. */
static struct pub_row row(double v, const char *unit, const char *metric, const char *tol)
{
	struct pub_row r = { 0 };

	r.v = v;
	r.unit = (char *)unit;
	r.metric = (char *)metric;
	r.tolerance = (char *)tol;
	assert_int_equal(band_parse(tol, v, unit, metric, &r.band), 0);
	return r;
}

/* The verdict of an interval lo-hi around est, 5 runs against 5 with sd (on the scale). */
static enum verdict decide(const struct pub_row *r, double est, double lo, double hi,
			   double sd, size_t *need)
{
	struct claim c = { 0 };

	c.row = r;
	c.ours.est = est;
	c.ours.lo = lo;
	c.ours.hi = hi;
	c.ours.sd = sd;
	c.ours.na = c.ours.nb = 5;
	c.ours.p = c.ours.q = 0.5;
	claim_decide(&c);
	if (need)
		*need = c.need;
	return c.v;
}

static void test_band_parse(void **state)
{
	struct band b;

	(void)state;
	assert_int_equal(band_parse("x2", 20, "x", "ratio", &b), 0);
	assert_true(b.kind == BAND_RANGE && b.lo == 10 && b.hi == 40 && b.sc == SC_LOG);
	assert_int_equal(band_parse("<=x2", 10, "x", "ratio", &b), 0);
	assert_true(b.lo == 1 && b.hi == 20 && b.side == 1);
	assert_int_equal(band_parse(">=x1", 15, "x", "ratio", &b), 0);
	assert_true(b.lo == 15 && isinf(b.hi));
	assert_int_equal(band_parse("direction", 0.58, "x", "ratio", &b), 0);
	assert_true(b.direction && b.side == -1 && b.hi == 1 && isinf(b.lo));
	assert_int_equal(band_parse("+-5", 40, "%", "share", &b), 0);
	assert_true(b.lo == 35 && b.hi == 45 && b.sc == SC_LIN && b.null == 0);
	assert_int_equal(band_parse("x2", 3.15, "%", "elapsed-overhead", &b), 0);
	assert_true(b.sc == SC_OVERHEAD && b.lo == 1.575 && b.hi == 6.3);
	assert_int_equal(band_parse("not comparable: a level", 40, "%", "share", &b), 0);
	assert_true(b.kind == BAND_NC && !strcmp(b.why, "a level"));
	assert_int_equal(band_parse("", 40, "%", "share", &b), 0);
	assert_int_equal(b.kind, BAND_NONE);
	/* what is not a band */
	assert_int_equal(band_parse("x0.5", 20, "x", "ratio", &b), -1);
	assert_int_equal(band_parse("x", 20, "x", "ratio", &b), -1);
	assert_int_equal(band_parse("x2 ", 20, "x", "ratio", &b), -1);
	assert_int_equal(band_parse("<=x2", 0.5, "x", "ratio", &b), -1);
	assert_int_equal(band_parse("direction", 1, "x", "ratio", &b), -1);
	assert_int_equal(band_parse("not comparable: ", 1, "x", "ratio", &b), -1);
	assert_int_equal(band_parse("about 2x", 1, "x", "ratio", &b), -1);
}

/* A magnitude band, 10x-40x: each side of each edge. */
static void test_decide_magnitude(void **state)
{
	struct pub_row r = row(20, "x", "ratio", "x2");
	size_t need;

	(void)state;
	assert_int_equal(decide(&r, 20, 11, 39, 0.1, NULL), V_AGREES);
	assert_int_equal(decide(&r, 20, 10, 40, 0.1, NULL), V_AGREES);
	assert_int_equal(decide(&r, 45, 41, 50, 0.1, NULL), V_DIFFERS);
	assert_int_equal(decide(&r, 7, 5, 9.9, 0.1, NULL), V_DIFFERS);
	assert_int_equal(decide(&r, 10, 9, 11, 0.1, NULL), V_INCONCLUSIVE);
	/*
	 * 30x, sd 0.5 of the logs: d = ln(40 / 30) = 0.2877 to the top edge,
	 * n = 2 ((1.96 + 0.8416) 0.5 / 0.2877)^2 = 47.4: 48 runs per set-up
	 */
	assert_int_equal(decide(&r, 30, 20, 41, 0.5, &need), V_INCONCLUSIVE);
	assert_int_equal(need, 48);
	/* on the edge itself: no number of runs decides */
	assert_int_equal(decide(&r, 40, 30, 50, 0.5, &need), V_INCONCLUSIVE);
	assert_int_equal(need, 0);
}

/* "up to 10x" with x2: above 1 and at most 20x; below 1 is the other direction. */
static void test_decide_up_to(void **state)
{
	struct pub_row r = row(10, "x", "ratio", "<=x2");

	(void)state;
	assert_int_equal(decide(&r, 10, 2, 19, 0.1, NULL), V_AGREES);
	assert_int_equal(decide(&r, 101, 26.3, 363, 0.1, NULL), V_DIFFERS);
	assert_int_equal(decide(&r, 20, 19, 21, 0.1, NULL), V_INCONCLUSIVE);
	assert_int_equal(decide(&r, 0.7, 0.5, 0.9, 0.1, NULL), V_DIFFERS);
	assert_int_equal(decide(&r, 1, 0.9, 1.1, 0.1, NULL), V_INCONCLUSIVE);
}

/* The published direction alone: 0.58x, GCMA slower. */
static void test_decide_direction(void **state)
{
	struct pub_row r = row(0.58, "x", "ratio", "direction");
	struct pub_row up = row(15, "x", "ratio", ">=x1");

	(void)state;
	assert_int_equal(decide(&r, 0.7, 0.5, 0.9, 0.1, NULL), V_AGREES);
	assert_int_equal(decide(&r, 57.8, 21.5, 97.8, 0.1, NULL), V_DIFFERS);
	assert_int_equal(decide(&r, 1, 0.9, 1.1, 0.1, NULL), V_INCONCLUSIVE);
	/* "at least 15x" with a point value (no interval) */
	assert_int_equal(decide(&up, 25, 25, 25, NAN, NULL), V_AGREES);
	assert_int_equal(decide(&up, 14, 14, 14, NAN, NULL), V_DIFFERS);
}

/* An overhead in %, x2 around +3.15%; an additive band on a level. */
static void test_decide_overhead(void **state)
{
	struct pub_row r = row(3.15, "%", "elapsed-overhead", "x2");
	struct pub_row lin = row(40, "%", "share", "+-5");
	struct pub_row near0 = row(2, "%", "share", "+-5");
	size_t need;

	(void)state;
	assert_int_equal(decide(&r, 3, 2, 6, 0.05, NULL), V_AGREES);
	assert_int_equal(decide(&r, 8, 7, 9, 0.05, NULL), V_DIFFERS);
	assert_int_equal(decide(&r, 0.5, -1, 1.5, 0.05, NULL), V_DIFFERS);
	assert_int_equal(decide(&r, 4.33, -6.54, 18.82, 0.05, &need), V_INCONCLUSIVE);
	assert_true(need > 5);
	assert_int_equal(decide(&lin, 40, 36, 44, 1, NULL), V_AGREES);
	assert_int_equal(decide(&lin, 48, 46, 50, 1, NULL), V_DIFFERS);
	assert_int_equal(decide(&lin, 45, 44, 46, 1, NULL), V_INCONCLUSIVE);
	/* inside a band that straddles no effect, but on neither side: not agreeing */
	assert_int_equal(decide(&near0, 2, 1, 3, 1, NULL), V_AGREES);
	assert_int_equal(decide(&near0, 1, -1, 3, 1, NULL), V_INCONCLUSIVE);
}

static void test_decide_not_comparable(void **state)
{
	struct pub_row nc = row(40, "%", "share", "not comparable: a level");
	struct pub_row none = row(40, "%", "share", "");
	struct pub_row r = row(20, "x", "ratio", "x2");
	struct claim c = { 0 };
	double a[] = { 1, 2 }, b[] = { 3 };

	(void)state;
	assert_int_equal(decide(&nc, 40, 39, 41, 1, NULL), V_NOT_COMPARABLE);
	assert_int_equal(decide(&none, 40, 39, 41, 1, NULL), V_NOT_COMPARABLE);
	/* 2 runs against 1: p can never fall below 0.05, no interval */
	c.row = &r;
	ours_two(&c.ours, a, 2, b, 1, SC_LOG);
	assert_int_equal(claim_decide(&c), V_NOT_COMPARABLE);
	assert_non_null(strstr(c.ours.why, "too few runs: 2 against 1"));
	ours_two(&c.ours, a, 2, b, 0, SC_LOG);
	assert_int_equal(claim_decide(&c), V_NOT_COMPARABLE);
}

/* ours_two on separated samples: B / A = 10 exactly, every pair the same. */
static void test_ours_two(void **state)
{
	double a[] = { 1, 2, 3, 4 }, b[] = { 10, 20, 30, 40 };
	struct ours o;

	(void)state;
	ours_two(&o, a, 4, b, 4, SC_LOG);
	assert_true(fabs(o.est - 10) < 1e-9);
	assert_true(o.lo < 10 && o.hi > 10);
	assert_true(fabs(o.p - 2.0 / 70) < 1e-9);
	ours_two(&o, a, 4, b, 4, SC_LIN);
	assert_true(fabs(o.est - 22.5) < 1e-9);
	ours_two(&o, a, 4, b, 4, SC_OVERHEAD);
	assert_true(fabs(o.est - 900) < 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_band_parse),
		cmocka_unit_test(test_decide_magnitude),
		cmocka_unit_test(test_decide_up_to),
		cmocka_unit_test(test_decide_direction),
		cmocka_unit_test(test_decide_overhead),
		cmocka_unit_test(test_decide_not_comparable),
		cmocka_unit_test(test_ours_two),
	};

	return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
