/* Censored quantiles and Kaplan-Meier on fixture data, against hand-computed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/dataset.h"
#include "lib/csv.h"
#include "lib/util.h"
#include "report/report.h"
#include "report/stats.h"
#include "report/survival.h"

#define assert_near(a, b, eps) do { \
		double a_ = (a), b_ = (b); \
		if (!(fabs(a_ - b_) <= (eps))) \
			fail_msg("%s = %.9g, expected %.9g (+-%g)", #a, a_, b_, (double)(eps)); \
	} while (0)

struct sample {
	double x[64];
	bool cens[64];
	size_t n;
};

/* tests/data/survival/NAME: latency_us,censored */
static void load(const char *name, struct sample *s)
{
	char *path = xasprintf("%s/survival/%s", TEST_DATA, name);
	struct csv c;
	int lat, cen;

	memset(s, 0, sizeof(*s));
	assert_int_equal(csv_open(&c, path), 0);
	lat = csv_col(&c, "latency_us");
	cen = csv_col(&c, "censored");
	assert_true(lat >= 0 && cen >= 0);
	while (csv_next(&c) && s->n < 64) {
		long long k;

		assert_true(csv_double(&c, lat, &s->x[s->n]));
		assert_true(csv_ll(&c, cen, &k));
		s->cens[s->n++] = k != 0;
	}
	csv_close(&c);
	free(path);
}

/*
 * deadline.csv: 5 7 9 11 13 15 17 and three requests aborted at 60 s
 * (60000000 us), n = 10, type 7 (h = 9p; positions 7..9 censored):
 *   p50: h = 4.5 -> 13 + 0.5 (15 - 13) = 14, exact (uses positions 4, 5)
 *   p60: h = 5.4 -> 15 + 0.4 (17 - 15) = 15.8, exact (5, 6)
 *   p70: h = 6.3 -> 17 + 0.3 (60000000 - 17): position 7 is censored, a lower bound
 *   p90: h = 8.1 -> 60000000, a lower bound ("> deadline")
 *   p0:  5, exact
 */
static void test_quantile_censored(void **state)
{
	struct sample s;
	bool lower;

	(void)state;
	load("deadline.csv", &s);
	assert_int_equal(s.n, 10);
	assert_near(surv_quantile(s.x, s.cens, s.n, 0.5, &lower), 14, 1e-9);
	assert_false(lower);
	assert_near(surv_quantile(s.x, s.cens, s.n, 0.6, &lower), 15.8, 1e-9);
	assert_false(lower);
	assert_near(surv_quantile(s.x, s.cens, s.n, 0.7, &lower), 17 + 0.3 * (60000000 - 17), 1e-6);
	assert_true(lower);
	assert_near(surv_quantile(s.x, s.cens, s.n, 0.9, &lower), 60000000, 1e-9);
	assert_true(lower);
	assert_near(surv_quantile(s.x, s.cens, s.n, 0, &lower), 5, 1e-9);
	assert_false(lower);
	assert_true(isnan(surv_quantile(s.x, s.cens, 0, 0.5, &lower)));
}

/* Without censoring it is stats.h's type 7, at every p. */
static void test_quantile_uncensored_is_type7(void **state)
{
	double x[] = { 10, 3, 7, 1, 9, 2, 8, 4, 6, 5 }, sorted[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	bool lower;

	(void)state;
	for (double p = 0; p <= 1.0001; p += 0.05) {
		double q = p > 1 ? 1 : p;

		assert_near(surv_quantile(x, NULL, 10, q, &lower), stats_quantile_sorted(sorted, 10, q),
			    1e-12);
		assert_false(lower);
	}
}

/* A censored value below an event: its true value may lie anywhere above,
 * so every quantile from its position up is a lower bound. */
static void test_quantile_early_censoring(void **state)
{
	double x[] = { 1, 2, 3, 4, 5 };
	bool c[] = { false, true, false, false, false }, lower;

	(void)state;
	assert_near(surv_quantile(x, c, 5, 0, &lower), 1, 1e-12);
	assert_false(lower);
	assert_near(surv_quantile(x, c, 5, 0.5, &lower), 3, 1e-12);
	assert_true(lower);
}

/*
 * km.csv: 1, 2, 2+, 3, 4+, 5 (+: censored). At risk, events, S:
 *   t=1: 6 at risk, 1 event:             S = 5/6          = 0.833333
 *   t=2: 5 at risk, 1 event, 1 censored: S = 5/6 * 4/5    = 0.666667
 *   t=3: 3 at risk, 1 event:             S = 2/3 * 2/3    = 0.444444
 *   t=4: 2 at risk, 0 events, 1 censored: S unchanged     = 0.444444
 *   t=5: 1 at risk, 1 event:             S = 0
 * Greenwood at t=3: S^2 (1/(6*5) + 1/(5*4) + 1/(3*2)) = S^2 * 0.25,
 * se = 0.444444 * 0.5 = 0.222222 (R: survfit(Surv(t, e) ~ 1)$std.err * surv).
 */
static void test_kaplan_meier(void **state)
{
	struct sample s;
	struct km_step *k;
	size_t n;

	(void)state;
	load("km.csv", &s);
	n = surv_kaplan_meier(s.x, s.cens, s.n, &k);
	assert_int_equal(n, 5);
	assert_near(k[0].t, 1, 0);
	assert_near(k[0].s, 5.0 / 6, 1e-12);
	assert_int_equal(k[0].at_risk, 6);
	assert_near(k[1].t, 2, 0);
	assert_near(k[1].s, 2.0 / 3, 1e-12);
	assert_int_equal(k[1].at_risk, 5);
	assert_int_equal(k[1].events, 1);
	assert_int_equal(k[1].censored, 1);
	assert_near(k[2].s, 4.0 / 9, 1e-12);
	assert_near(k[2].se, 4.0 / 9 * 0.5, 1e-12);
	assert_int_equal(k[2].at_risk, 3);
	assert_near(k[3].t, 4, 0);
	assert_near(k[3].s, 4.0 / 9, 1e-12);
	assert_int_equal(k[3].events, 0);
	assert_near(k[4].s, 0, 0);
	assert_near(k[4].se, 0, 0);
	free(k);
}

/* All censored at a common deadline past every event: the curve is the
 * empirical survival and ends at the share aborted (3/10), not at 0. */
static void test_kaplan_meier_deadline(void **state)
{
	struct sample s;
	struct km_step *k;
	size_t n;

	(void)state;
	load("deadline.csv", &s);
	n = surv_kaplan_meier(s.x, s.cens, s.n, &k);
	assert_int_equal(n, 8);
	for (size_t i = 0; i < 7; i++)
		assert_near(k[i].s, 1 - (i + 1) / 10.0, 1e-12);
	assert_near(k[7].t, 60000000, 0);
	assert_near(k[7].s, 0.3, 1e-12);
	assert_int_equal(k[7].censored, 3);
	free(k);
	assert_int_equal(surv_kaplan_meier(s.x, s.cens, 0, &k), 0);
	free(k);
}

/*
 * tests/data/results/deadline-fixture: cma-r1 ok, six requests, three
 * aborted at the 60 s deadline; cma-r2 cut short by its VM timeout after
 * two requests (partial); cma-r1's requests in bursts of two; gcma-r1 ok,
 * written by a driver without the timed_out column. The partial run's
 * rows count and it is named; the
 * censored statistics print as lower bounds; the plot data has the
 * Kaplan-Meier curve ending at 3/8 for cma.
 */
static void test_report_deadline(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 }, errs = { 0 };
	char *dir = xasprintf("%s/results/deadline-fixture", TEST_DATA);
	char tmp[] = "/tmp/cmb-survival-XXXXXX";
	char *vars, *km, *p;
	size_t timed = 0;

	(void)state;
	assert_int_equal(dataset_load(&ds, dir, &errs), 0);
	assert_int_equal(ds.nruns, 3);
	for (size_t i = 0; i < ds.nallocs; i++) {
		timed += ds.allocs[i].timed_out;
		/* a timed-out request is a failure */
		if (ds.allocs[i].timed_out)
			assert_int_equal(ds.allocs[i].success, 0);
	}
	assert_int_equal(timed, 3);
	for (size_t i = 0; i < ds.nruns; i++)
		assert_int_equal(ds.runs[i].partial, !strcmp(ds.runs[i].name, "cma-r2"));
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	/* both cma runs count: 6 + 2 requests, the 3 aborted ones as failures */
	assert_non_null(strstr(txt.buf, "2: 8 (3 failed)"));
	assert_non_null(strstr(txt.buf, "cma-r2 (timeout: partial, its rows kept)"));
	assert_non_null(strstr(txt.buf, "cma: 1 of 2 runs partial"));
	assert_null(strstr(txt.buf, "runs failed"));
	assert_non_null(strstr(txt.buf, "3 in 1 run, at 60 s"));
	/* median of run p50s: cma-r1's (6 ms .. deadline) is a lower bound */
	assert_non_null(strstr(txt.buf, "> 15003500.00"));
	assert_non_null(strstr(txt.buf, "> 60000000.00"));
	/* cma-r1's requests go in bursts of two: two of its three bursts hold
	 * an aborted request, and their median (60.007 s) is a lower bound */
	assert_non_null(strstr(txt.buf, "2 of 3"));
	assert_non_null(strstr(txt.buf, "> 60007000.00"));
	/* gcma's cells stay plain numbers */
	assert_non_null(strstr(txt.buf, "102.50"));
	/* the primary table says so too: cma's median is a lower bound, so
	 * gcma / cma can only be smaller than its estimate */
	assert_non_null(strstr(txt.buf, "A > 15003500 (2), B 102.5 (1), < x"));
	/* pooled by occupancy: 3 of cma's 8 requests censored, above the median */
	p = strstr(txt.buf, "occupancy >= 90%: p50");
	assert_non_null(p);
	assert_non_null(strstr(p, "5500.00"));
	assert_null(strstr(p, "> 5500.00"));
	assert_non_null(mkdtemp(tmp));
	assert_int_equal(report_plot_data(&ds, tmp), 0);
	p = path_join(tmp, "plot-vars.gp");
	vars = read_file(p, NULL);
	free(p);
	assert_non_null(strstr(vars, "survival_sets = \"1024\""));
	assert_non_null(strstr(vars, "survsecs_1024 = \"cma gcma\""));
	p = path_join(tmp, "plot-survival-1024.dat");
	km = read_file(p, NULL);
	free(p);
	assert_non_null(strstr(km, "\n60000000.000 0.375000 "));
	assert_non_null(strstr(km, "\n105.000 0.000000 "));
	free(vars);
	free(km);
	rm_rf(tmp);
	sb_free(&txt);
	sb_free(&errs);
	dataset_free(&ds);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantile_censored),
		cmocka_unit_test(test_quantile_uncensored_is_type7),
		cmocka_unit_test(test_quantile_early_censoring),
		cmocka_unit_test(test_kaplan_meier),
		cmocka_unit_test(test_kaplan_meier_deadline),
		cmocka_unit_test(test_report_deadline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
