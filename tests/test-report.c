/*
 * Reports: a run compared with itself shows no significant difference, a
 * clearly slower set-up is marked, failed and degraded runs are listed,
 * and `cmabench report` writes the same bytes twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "dataset.h"
#include "report.h"

static const char fixture[] = TEST_DATA "/results/smoke-fixture";

static void load(struct dataset *ds, const char *dir)
{
	struct strbuf errs = { 0 };

	if (dataset_load(ds, dir, &errs))
		fail_msg("%s", errs.buf);
	sb_free(&errs);
}

static void test_compare_self(void **state)
{
	struct dataset a, b;
	struct strbuf txt = { 0 }, md = { 0 };
	struct report_col cols[2];

	(void)state;
	load(&a, fixture);
	load(&b, fixture);
	cols[0] = (struct report_col){ "A:vanilla", &a, "vanilla" };
	cols[1] = (struct report_col){ "B:vanilla", &b, "vanilla" };
	sb_init(&txt);
	sb_init(&md);
	report_tables(cols, 2, &txt, &md);
	assert_int_equal(report_count_significant(txt.buf), 0);
	assert_int_equal(report_count_significant(md.buf), 0);
	/* the tables are there, and every difference is zero */
	assert_non_null(strstr(txt.buf, "allocation latency, 1024 pages, user-side (us)"));
	assert_non_null(strstr(txt.buf, "allocation latency, 1024 pages, kernel-side"));
	assert_non_null(strstr(txt.buf, "307.63 (+0.00%)"));
	assert_non_null(strstr(txt.buf, "fio job randread"));
	assert_non_null(strstr(md.buf, "| p50 | lower |"));
	assert_null(strstr(txt.buf, "(-"));
	for (const char *p = txt.buf; (p = strstr(p, "%)")); p += 2)
		assert_memory_equal(p - 5, "+0.00", 5);
	/* Mann-Whitney p of identical samples is 1 */
	assert_non_null(strstr(txt.buf, "Mann-Whitney p"));
	assert_non_null(strstr(txt.buf, "1.0000"));
	sb_free(&txt);
	sb_free(&md);
	dataset_free(&a);
	dataset_free(&b);
}

/* Two set-ups in memory: "slow" takes twice as long as "fast". */
static void fake(struct dataset *ds)
{
	static const char *const sec[2] = { "fast", "slow" };

	memset(ds, 0, sizeof(*ds));
	ds->dir = xstrdup("/nonexistent");
	ds->run_id = xstrdup("fake");
	ds->nruns = 2;
	ds->runs = xcalloc(2, sizeof(*ds->runs));
	for (int r = 0; r < 2; r++) {
		ds->runs[r].name = xasprintf("%s-r1", sec[r]);
		ds->runs[r].section = xstrdup(sec[r]);
		ds->runs[r].setup = xstrdup(r ? "gcma" : "cma");
		ds->runs[r].kernel = xstrdup(r ? "gcma" : "vanilla");
		ds->runs[r].status = xstrdup("ok");
		ds->runs[r].rep = 1;
		sl_add(&ds->sections, sec[r]);
	}
	ds->nallocs = ds->cap_allocs = 40;
	ds->allocs = xcalloc(40, sizeof(*ds->allocs));
	for (int i = 0; i < 40; i++) {
		struct ds_alloc *a = &ds->allocs[i];

		a->run = i / 20;
		a->seq = i % 20;
		a->pages = 512;
		a->user_ns = (1000 + 10 * (i % 20)) * (a->run ? 2 : 1) * 1000LL;
		a->kernel_ns = a->user_ns - 1000;
		a->retries = a->run ? 3 : 0;
		a->kerrno = 0;
		a->free_ns = DS_NONE;
		a->burst = a->start_ns = DS_NONE;
		a->success = 1;
	}
}

/*
 * Bursts of 4 back-to-back requests: a burst lasts the sum of its four
 * latencies, 4060 + 160 b us for burst b of "fast" and twice that for
 * "slow". Fast's last burst has a failed request: counted, not measured.
 */
static void test_bursts(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };

	(void)state;
	fake(&ds);
	for (int i = 0; i < 40; i++) {
		struct ds_alloc *a = &ds.allocs[i];

		a->burst = a->seq / 4;
		a->start_ns = i % 4 ? a[-1].start_ns + a[-1].user_ns : a->burst * 1000000000LL;
	}
	ds.allocs[19].success = 0;
	dataset_derive_bursts(&ds);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "burst latency, first request's start to last request's end"));
	/* fast: 4060 4220 4380 4540 -> p50 4300, max 4540; slow: p50 8760, max 9400 */
	assert_non_null(strstr(txt.buf, "4300.00"));
	assert_non_null(strstr(txt.buf, "4540.00"));
	assert_non_null(strstr(txt.buf, "8760.00"));
	assert_non_null(strstr(txt.buf, "9400.00"));
	assert_non_null(strstr(txt.buf, "bursts with a failed request"));
	sb_free(&txt);
	dataset_free(&ds);
}

static void test_significant(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 }, md = { 0 };

	(void)state;
	fake(&ds);
	sb_init(&txt);
	sb_init(&md);
	report_dataset(&ds, NULL, &txt, &md);
	/* p50 1095 us -> 2190 us: +100%, marked */
	assert_non_null(strstr(txt.buf, "1095.00"));
	assert_non_null(strstr(txt.buf, "2190.00 *+100.00%*"));
	/* min is not tested, so not marked */
	assert_non_null(strstr(txt.buf, "2000.00 (+100.00%)"));
	assert_true(report_count_significant(txt.buf) >= 4);
	/* baseline chosen by name */
	sb_free(&txt);
	sb_init(&txt);
	report_dataset(&ds, "slow", &txt, NULL);
	assert_non_null(strstr(txt.buf, "1095.00 *-50.00%*"));
	assert_non_null(strstr(txt.buf, "failed or degraded runs in fake: 0"));
	sb_free(&txt);
	sb_free(&md);
	dataset_free(&ds);
}

static void test_problems_listed(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 }, md = { 0 }, txt2 = { 0 };

	(void)state;
	load(&ds, fixture);
	sb_init(&txt);
	sb_init(&md);
	sb_init(&txt2);
	report_dataset(&ds, NULL, &txt, &md);
	assert_non_null(strstr(txt.buf, "failed or degraded runs in smoke-fixture: 2"));
	assert_non_null(strstr(txt.buf, "  broken-r1: timeout\n"));
	assert_non_null(strstr(txt.buf, "runs/vanilla-r2/trace.dat: cannot be read"));
	assert_non_null(strstr(md.buf, "- `broken-r1`: timeout"));
	/* the failed section has a column, with no values */
	assert_non_null(strstr(txt.buf, "vanilla  broken"));
	/* n: 20 user-side samples (two runs), 10 kernel-side (one trace) */
	assert_non_null(strstr(txt.buf, "        20       0\n"));
	assert_non_null(strstr(txt.buf, "        10       0\n"));
	/* same input, same text */
	report_dataset(&ds, NULL, &txt2, NULL);
	assert_string_equal(txt.buf, txt2.buf);
	sb_free(&txt);
	sb_free(&txt2);
	sb_free(&md);
	dataset_free(&ds);
}

static char *slurp(const char *dir, const char *rel)
{
	char *p = path_join(dir, rel), *s = read_file(p, NULL);

	if (!s)
		fail_msg("%s: missing", p);
	free(p);
	return s;
}

static void test_cmd_report(void **state)
{
	char tmp[] = "/tmp/cmb-report-XXXXXX";
	char *dir, *argv[4];
	static const char *const outputs[] = {
		"report.md", "data/alloc.csv", "data/fio.csv", "data/counters.csv", "data/problems.txt",
		"data/plot-vars.gp", "data/plot-latency-user-1024.dat", "data/plot-bars-kernel.dat",
	};
	char *const cp[] = { "cp", "-r", (char *)fixture, tmp, NULL };
	struct cmb_env env;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	assert_int_equal(run_cmd(cp, NULL, NULL, NULL, NULL), 0);
	dir = path_join(tmp, "smoke-fixture");
	env_init(&env);
	argv[0] = "report";
	argv[1] = "--quiet";
	argv[2] = dir;
	argv[3] = NULL;
	assert_int_equal(cmd_report(3, argv, &env), 0);
	char *before[ARRAY_SIZE(outputs)];

	for (size_t i = 0; i < ARRAY_SIZE(outputs); i++)
		before[i] = slurp(dir, outputs[i]);
	assert_non_null(strstr(before[4], "runs/vanilla-r2/snapshots/after/sys-cma/reserved/"
				"alloc_pages_fail: missing\n"));
	assert_non_null(strstr(before[5], "sections = \"vanilla broken\""));
	assert_int_equal(cmd_report(3, argv, &env), 0);
	for (size_t i = 0; i < ARRAY_SIZE(outputs); i++) {
		char *after = slurp(dir, outputs[i]);

		assert_string_equal(before[i], after);
		free(after);
		free(before[i]);
	}
	/* a directory that is not a results directory */
	argv[2] = tmp;
	assert_int_equal(cmd_report(3, argv, &env), 1);
	free(dir);
	assert_int_equal(rm_rf(tmp), 0);
}

/* A job=build scenario's report carries its main result: the timed job. */
static void test_jobs(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 }, md = { 0 };
	char *dir = xasprintf("%s/reproduce/rfc-v2-background-a", TEST_DATA);

	(void)state;
	load(&ds, dir);
	sb_init(&txt);
	sb_init(&md);
	report_dataset(&ds, "none", &txt, &md);
	assert_non_null(strstr(md.buf, "### timed job build: elapsed (s), one value per run"));
	/* none: 100 and 110 s; cma: 120 and 126 s (the fixture's jobtime.csv) */
	assert_non_null(strstr(md.buf, "| p50 | lower | 105.00 | 123.00 (+17.14%)"));
	sb_free(&txt);
	sb_free(&md);
	dataset_free(&ds);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_self),
		cmocka_unit_test(test_significant),
		cmocka_unit_test(test_bursts),
		cmocka_unit_test(test_problems_listed),
		cmocka_unit_test(test_cmd_report),
		cmocka_unit_test(test_jobs),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
