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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "dataset/dataset.h"
#include "report/report.h"

static const char fixture[] = TEST_DATA "/results/smoke-fixture";

static void load(struct dataset *ds, const char *dir)
{
	struct strbuf errs = { 0 };

	if (dataset_load(ds, dir, &errs))
		fail_msg("%s", errs.buf);
	sb_free(&errs);
}

/* The "*+x.xx%*" marks in a rendered report: what tables_significant must
 * count (each test is printed once in these reports). */
static size_t marks(const char *text)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, " *")); p += 2)
		if ((p[2] == '+' || p[2] == '-') && p[3] >= '0' && p[3] <= '9' && strchr(p + 2, '*') &&
		    strcspn(p + 2, "*") < strcspn(p + 2, "\n"))
			n++;
	return n;
}

static void test_compare_self(void **state)
{
	struct dataset a, b;
	struct strbuf txt = { 0 }, md = { 0 };
	struct report_col cols[2];
	struct tables ts = { 0 };

	(void)state;
	load(&a, fixture);
	load(&b, fixture);
	cols[0] = (struct report_col){ "A:vanilla", &a, "vanilla" };
	cols[1] = (struct report_col){ "B:vanilla", &b, "vanilla" };
	sb_init(&txt);
	sb_init(&md);
	report_tables(cols, 2, &ts);
	tables_render(&ts, &txt, &md);
	assert_int_equal(tables_significant(&ts), 0);
	assert_int_equal(marks(txt.buf), 0);
	assert_int_equal(marks(md.buf), 0);
	tables_free(&ts);
	/* the tables are there, and every difference is zero */
	assert_non_null(strstr(txt.buf, "allocation latency, 1024 pages, user-side"));
	assert_non_null(strstr(txt.buf, "allocation latency, 1024 pages, kernel-side"));
	assert_non_null(strstr(txt.buf, "fio job randread of fio-randread-smoke.json"));
	assert_non_null(strstr(md.buf, "| p50 (median of run p50s) | lower |"));
	assert_null(strstr(txt.buf, "(-"));
	for (const char *p = txt.buf; (p = strstr(p, "%")); p++)
		if (p[1] == ')' || p[1] == ',')
			assert_memory_equal(p - 5, "+0.00", 5);
	/* identical per-run values: q is 1 */
	assert_non_null(strstr(txt.buf, "(+0.00%, q 1.000)"));
	/* a report links its figures; compare (no_figures) has none to link */
	assert_non_null(strstr(md.buf, "](plots/latency-"));
	sb_free(&md);
	sb_init(&md);
	ts.no_figures = true;
	report_tables(cols, 2, &ts);
	tables_render(&ts, NULL, &md);
	tables_free(&ts);
	assert_non_null(strstr(md.buf, "| p50 (median of run p50s) | lower |"));
	assert_null(strstr(md.buf, "plots/"));
	sb_free(&txt);
	sb_free(&md);
	dataset_free(&a);
	dataset_free(&b);
}

/*
 * Two set-ups in memory, five runs each of eight 512-page requests:
 * "slow" takes twice as long as "fast"; run k adds 10k us to each request.
 */
#define RUNS 5
#define REQS 8
static void fake(struct dataset *ds)
{
	static const char *const sec[2] = { "fast", "slow" };

	memset(ds, 0, sizeof(*ds));
	ds->dir = xstrdup("/nonexistent");
	ds->run_id = xstrdup("fake");
	ds->nruns = 2 * RUNS;
	ds->runs = xcalloc(ds->nruns, sizeof(*ds->runs));
	for (int r = 0; r < 2 * RUNS; r++) {
		int s = r / RUNS;

		ds->runs[r].name = xasprintf("%s-r%d", sec[s], r % RUNS + 1);
		ds->runs[r].section = xstrdup(sec[s]);
		ds->runs[r].setup = xstrdup(s ? "gcma" : "cma");
		ds->runs[r].kernel = xstrdup(s ? "gcma" : "vanilla");
		ds->runs[r].status = xstrdup("ok");
		ds->runs[r].rep = r % RUNS + 1;
	}
	sl_add(&ds->sections, sec[0]);
	sl_add(&ds->sections, sec[1]);
	ds->nallocs = ds->cap_allocs = 2 * RUNS * REQS;
	ds->allocs = xcalloc(ds->nallocs, sizeof(*ds->allocs));
	for (size_t i = 0; i < ds->nallocs; i++) {
		struct ds_alloc *a = &ds->allocs[i];
		int run = (int)(i / REQS), slow = run >= RUNS;

		a->run = run;
		a->seq = i % REQS;
		a->pages = 512;
		a->user_ns = (1000 + 10 * (long long)(i % REQS) + 10 * (run % RUNS)) * (slow ? 2 : 1) *
			     1000LL;
		a->kernel_ns = a->user_ns - 1000;
		a->retries = slow ? 3 : 0;
		a->kerrno = 0;
		a->free_ns = DS_NONE;
		a->burst = a->start_ns = DS_NONE;
		a->success = 1;
	}
}

/*
 * Bursts of 4 back-to-back requests: a burst lasts the sum of its four
 * latencies. Run 1 of "fast": bursts 1035 + 10 (4 b + 1.5) us long x 4, i.e.
 * 4060 and 4220 us; one request of its last burst fails: counted in.
 */
static void test_bursts(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };

	(void)state;
	fake(&ds);
	for (size_t i = 0; i < ds.nallocs; i++) {
		struct ds_alloc *a = &ds.allocs[i];

		a->burst = a->seq / 4;
		a->start_ns = i % 4 ? a[-1].start_ns + a[-1].user_ns : a->burst * 1000000000LL;
	}
	ds.allocs[7].success = 0;
	dataset_derive_bursts(&ds);
	assert_int_equal(ds.nbursts, 2 * RUNS * REQS / 4);
	assert_int_equal(ds.bursts[0].latency_ns, 4060000);
	assert_int_equal(ds.bursts[1].latency_ns, 4220000);
	assert_int_equal(ds.bursts[1].failed, 1);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "burst latency, first request's start to last request's end"));
	/* 10 bursts of fast, one with a failure: 90% of bursts without one */
	assert_non_null(strstr(txt.buf, "5: 10 (1 failed)"));
	assert_non_null(strstr(txt.buf, "bursts without a failure % (mean of runs)"));
	/* fast's run p50s: 4140 + 40 k us for run k */
	assert_non_null(strstr(txt.buf, "4140-4300"));
	sb_free(&txt);
	dataset_free(&ds);
}

static void test_significant(void **state)
{
	size_t significant;
	struct dataset ds;
	struct strbuf txt = { 0 }, md = { 0 };

	(void)state;
	fake(&ds);
	sb_init(&txt);
	sb_init(&md);
	significant = report_dataset(&ds, NULL, &txt, &md);
	/* run p50s 1035..1075 us -> 2070..2150 us: the median of runs doubles, every
	 * slow run above every fast one: p 2/252 = 0.0079 (5 vs 5, exact), q below 0.05, marked */
	assert_non_null(strstr(txt.buf, "1035-1075"));
	assert_non_null(strstr(txt.buf, "2110.00 *+100.00%* (q 0.0"));
	/* max is not tested, so not marked */
	assert_non_null(strstr(txt.buf, "2220.00 (+100.00%)"));
	assert_true(significant >= 4);
	assert_int_equal(significant, marks(txt.buf));
	/* baseline chosen by name */
	sb_free(&txt);
	sb_init(&txt);
	report_dataset(&ds, "slow", &txt, NULL);
	assert_non_null(strstr(txt.buf, "1055.00 *-50.00%*"));
	/* ... or by the scenario (the runs' metadata) */
	sb_free(&txt);
	sb_init(&txt);
	ds.baseline = xstrdup("slow");
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "1055.00 *-50.00%*"));
	assert_non_null(strstr(txt.buf, "failed or degraded runs in fake: 0"));
	sb_free(&txt);
	sb_free(&md);
	dataset_free(&ds);
}

/*
 * Declared primaries: tested exactly with a Hodges-Lehmann ratio, q over
 * the primaries only, the table's cell marked "primary"; a primary without
 * values is "n/a", untested; 0 against 0 is never tested.
 */
/*
 * Two kernels side by side (run --kernels vanilla,mine): the sections
 * SECTION.KERNEL, the first kernel the baseline; the report names both
 * kernels in its sections table, compares them in its tables, and tests
 * the primary between them.
 */
static void test_kernels_side_by_side(void **state)
{
	struct dataset ds;
	struct strbuf md = { 0 };

	(void)state;
	fake(&ds);
	for (size_t r = 0; r < ds.nruns; r++) {
		bool mine = r >= RUNS;

		free(ds.runs[r].section);
		free(ds.runs[r].kernel);
		free(ds.runs[r].setup);
		free(ds.runs[r].name);
		ds.runs[r].section = xstrdup(mine ? "x.mine" : "x.vanilla");
		ds.runs[r].kernel = xstrdup(mine ? "mine" : "vanilla");
		ds.runs[r].setup = xstrdup("cma");
		ds.runs[r].name = xasprintf("%s-r%zu", ds.runs[r].section, r % RUNS + 1);
	}
	sl_free(&ds.sections);
	sl_add(&ds.sections, "x.vanilla");
	sl_add(&ds.sections, "x.mine");
	ds.primary = xstrdup("user-p50@512:x.vanilla/x.mine");
	sb_init(&md);
	report_dataset(&ds, NULL, NULL, &md);
	assert_non_null(strstr(md.buf, "| x.vanilla | cma | vanilla "));
	assert_non_null(strstr(md.buf, "| x.mine | cma | mine "));
	assert_non_null(strstr(md.buf, "| metric | better | x.vanilla | x.mine |"));
	assert_non_null(strstr(md.buf, "user-p50, 512 pages: x.mine / x.vanilla"));
	sb_free(&md);
	dataset_free(&ds);
}

static void test_primaries(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 }, md = { 0 };

	(void)state;
	fake(&ds);
	ds.primary = xstrdup("user-p50@512:fast/slow, burst-p50:fast/slow, kernel-retries@all:fast/slow");
	ds.primary_from = xstrdup("metadata.json");
	sb_init(&txt);
	sb_init(&md);
	report_dataset(&ds, NULL, &txt, &md);
	assert_non_null(strstr(md.buf, "## Primary comparisons\n\nDeclared in metadata.json."));
	/* slow's run p50s are exactly twice fast's: every pairwise ratio of a
	 * run with itself is 2, the median of the 25 is 2; 5 against 5
	 * separated: p = 2/252, and with two tested primaries q = 0.0079 */
	assert_non_null(strstr(md.buf, "| user-p50, 512 pages: slow / fast | 1055 (5) | 2110 (5) | x2 | "));
	assert_non_null(strstr(md.buf, "| 0.0079 | 0.0079 | significant: B higher |"));
	/* no bursts: n/a, not tested */
	assert_non_null(strstr(md.buf, "| burst-p50: slow / fast | n/a | n/a | n/a | n/a | n/a | n/a | "
				       "not tested: neither section has the value |"));
	/* retries 0 against 3: a shift of +3 points, not a ratio */
	assert_non_null(strstr(md.buf, "| kernel-retries, 512 pages: slow / fast | 0 (5) | 3 (5) | +3 | "));
	/* the table's own cell carries the primary's q */
	assert_non_null(strstr(txt.buf, "2110.00 *+100.00%* (q 0.008, primary)"));
	/* 100% against 100% success: shown, never tested */
	assert_non_null(strstr(txt.buf, "100.0 (+0.00%)"));
	assert_null(strstr(txt.buf, "100.0 (+0.00%, q"));
	sb_free(&txt);
	sb_free(&md);
	dataset_free(&ds);
}

/*
 * compare --equivalence: a data set against itself is equivalent within
 * +-10% (run p50s 1035-1075 us: every pairwise ratio within 4%); against
 * one 1.5 times slower it is not; and too few runs per arm never are.
 */
static void test_equivalence(void **state)
{
	struct dataset a, b;
	struct strbuf txt = { 0 }, md = { 0 };
	bool eq;

	(void)state;
	fake(&a);
	fake(&b);
	a.primary = xstrdup("user-p50@512:fast/slow");
	sb_init(&txt);
	sb_init(&md);
	assert_int_equal(report_equivalence(&a, &a, 0.10, 5, &txt, &md, &eq), 2);
	assert_true(eq);
	assert_non_null(strstr(md.buf, "| fast | user-p50@512 | 1055 (5) | 1055 (5) | x1 | "));
	assert_non_null(strstr(md.buf, "Decision: equivalent"));
	for (size_t i = 0; i < b.nallocs; i++)
		b.allocs[i].user_ns = b.allocs[i].user_ns * 3 / 2;
	sb_free(&md);
	sb_init(&md);
	report_equivalence(&a, &b, 0.10, 5, &txt, &md, &eq);
	assert_false(eq);
	assert_non_null(strstr(md.buf, "| x1.5 | "));
	assert_non_null(strstr(md.buf, "no: the interval leaves the margin"));
	/* 5 runs per arm, 8 asked for */
	sb_free(&md);
	sb_init(&md);
	report_equivalence(&a, &a, 0.10, 8, &txt, &md, &eq);
	assert_false(eq);
	assert_non_null(strstr(md.buf, "no: too few runs"));
	sb_free(&txt);
	sb_free(&md);
	dataset_free(&a);
	dataset_free(&b);
}

/*
 * Runs whose values overlap entirely are never marked, however small the
 * p: one slow run among the fast ones makes the slow column's range contain
 * the fast one's. And a section with a failed run says so.
 */
static void test_overlap_and_failed_runs(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };

	(void)state;
	fake(&ds);
	/* slow run 1 as fast as fast's fastest run: slow's range now holds fast's */
	for (size_t i = RUNS * REQS; i < (RUNS + 1) * REQS; i++)
		ds.allocs[i].user_ns = ds.allocs[i].kernel_ns = 1000000;
	free(ds.runs[RUNS - 1].status);
	ds.runs[RUNS - 1].status = xstrdup("timeout");
	sb_init(&txt);
	assert_int_equal(report_dataset(&ds, NULL, &txt, NULL), 0);
	assert_int_equal(marks(txt.buf), 0);
	assert_non_null(strstr(txt.buf, "fast: 1 of 5 runs failed; its numbers rest on 4 runs."));
	assert_non_null(strstr(txt.buf, "fast-r5 (timeout)"));
	sb_free(&txt);
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
	/* 20 user-side requests (two runs), 10 kernel-side (one trace) */
	assert_non_null(strstr(txt.buf, "2: 20"));
	assert_non_null(strstr(txt.buf, "1: 10"));
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

/*
 * Each report says how many VMs ran beside its runs and in what order the
 * set-ups ran (start times per repetition), and the seed of a shuffle.
 */
static void test_run_conditions(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };

	(void)state;
	fake(&ds);
	for (size_t i = 0; i < ds.nruns; i++) {
		/* fast before slow in r1, slow first in every later repetition */
		int slow = i >= RUNS, rep = ds.runs[i].rep;

		ds.runs[i].start_unix = 1000 * rep + (rep == 1 ? slow : !slow);
		ds.runs[i].vms_beside = i < 2 ? 1 : 0;
		ds.runs[i].order_seed = -1;
	}
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "Host sharing: 8 runs alone, 2 beside one other VM, 0 beside "
				       "two or more. Order of the set-ups (by start time): r1: fast, "
				       "slow; r2: slow, fast; r3: slow, fast;"));
	assert_null(strstr(txt.buf, "the same in every repetition"));
	for (size_t i = 0; i < ds.nruns; i++) {
		ds.runs[i].start_unix = 1000 * ds.runs[i].rep + (i >= RUNS);
		ds.runs[i].order_seed = 0;
	}
	sb_free(&txt);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "r5: fast, slow (the same in every repetition)."));
	for (size_t i = 0; i < ds.nruns; i++)
		ds.runs[i].order_seed = 77;
	sb_free(&txt);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "Shuffled per repetition, seed 77."));
	sb_free(&txt);
	dataset_free(&ds);
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
	assert_non_null(strstr(md.buf, "### timed job build (s, one value per run)"));
	/* none: 100 and 110 s; cma: 120 and 126 s (the fixture's jobtime.csv) */
	assert_non_null(strstr(md.buf, "| elapsed (median of runs) | lower | 105.00 | 123.00 (+17.14%, q "));
	/* the RFC's CPU %: none (80+10)/100, (85+12)/110; cma (90+15)/120, (92+16)/126 */
	assert_non_null(strstr(md.buf, "| CPU % ((user + sys) / elapsed, mean of runs) |  | 89.1 | "
				       "86.6 ("));
	assert_non_null(strstr(md.buf, "| CPU % of runs |  | 88.2-90.0 | 85.7-87.5 |"));
	sb_free(&txt);
	sb_free(&md);
	dataset_free(&ds);
	free(dir);
}

/*
 * job=apps: launches.csv is read, kept in data/launches.csv, and the report
 * compares launch times per run: none's runs launch in 10, 20, 30 and 12,
 * 22 ms (p50s 20 and 17: median 18.5), cma's in 40, 50, 60 and 44, 54 ms
 * (p50s 50 and 49: 49.5); cold ones apart, with their major faults.
 */
static void test_launches(void **state)
{
	char tmp[] = "/tmp/cmb-report-XXXXXX";
	static const char *const rows[][2] = {
		{ "none-r1", "0,0,cold,10000000,5,1\n1,1,cold,30000000,7,2\n2,0,warm,20000000,0,2\n" },
		{ "none-r2", "0,0,cold,12000000,9,1\n1,0,warm,22000000,0,1\n" },
		{ "cma-r1", "0,0,cold,40000000,50,1\n1,1,cold,60000000,70,2\n2,0,warm,50000000,0,2\n" },
		{ "cma-r2", "0,0,cold,44000000,90,1\n1,0,warm,54000000,0,1\n" },
	};
	char *cp[] = { "cp", "-r", TEST_DATA "/reproduce/rfc-v2-background-a", NULL, NULL };
	struct dataset ds;
	struct strbuf txt = { 0 }, errs = { 0 };
	char *dir, *csv;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	cp[3] = tmp;
	assert_int_equal(run_cmd(cp, NULL, NULL, NULL, NULL), 0);
	dir = path_join(tmp, "rfc-v2-background-a");
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char *p = xasprintf("%s/runs/%s/launches.csv", dir, rows[i][0]);
		char *text = xasprintf("seq,app,kind,launch_ns,majflt,alive\n%s", rows[i][1]);

		assert_int_equal(write_file(p, text, strlen(text)), 0);
		free(text);
		free(p);
	}
	if (dataset_load(&ds, dir, &errs))
		fail_msg("%s", errs.buf);
	assert_int_equal(ds.nlaunches, 10);
	csv = dataset_launches_csv(&ds);
	assert_non_null(strstr(csv, ",0,0,cold,10000000,5\n"));
	free(csv);
	sb_init(&txt);
	report_dataset(&ds, "none", &txt, NULL);
	assert_non_null(strstr(txt.buf, "app launches (ms to ready; one value per run)"));
	assert_non_null(strstr(txt.buf, "p50, every launch (median of run p50s)"));
	assert_non_null(strstr(txt.buf, "18.50"));
	assert_non_null(strstr(txt.buf, "49.50 (+167.57%"));
	/* cold p50s: none 20 and 12 (16), cma 50 and 44 (47) */
	assert_non_null(strstr(txt.buf, "16.00"));
	assert_non_null(strstr(txt.buf, "47.00 (+193.75%"));
	/* major faults per cold launch: none 6 and 9 (7.5), cma 60 and 90 (75) */
	assert_non_null(strstr(txt.buf, "major faults per cold launch (mean of runs)"));
	sb_free(&txt);
	dataset_free(&ds);
	sb_free(&errs);
	free(dir);
	assert_int_equal(rm_rf(tmp), 0);
}

/* steps.csv's job-start-build says when the job began beside the plan;
 * none-r1 ran its job alone (no such step). */
static void test_job_start_read(void **state)
{
	char tmp[] = "/tmp/cmb-report-XXXXXX";
	char *cp[] = { "cp", "-r", TEST_DATA "/reproduce/rfc-v2-background-a", NULL, NULL };
	const char *steps = "step,begin_uptime,end_uptime,rc\nscratch,1.00,1.10,0\n"
			    "job-start-build,10.50,10.60,0\nalloc,10.70,200.00,0\n";
	const char *alone = "step,begin_uptime,end_uptime,rc\njob-build,10.50,130.50,0\n";
	struct dataset ds;
	struct strbuf errs = { 0 };
	char *dir, *p;
	size_t seen = 0;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	cp[3] = tmp;
	assert_int_equal(run_cmd(cp, NULL, NULL, NULL, NULL), 0);
	dir = path_join(tmp, "rfc-v2-background-a");
	p = xasprintf("%s/runs/cma-r1/steps.csv", dir);
	assert_int_equal(write_file(p, steps, strlen(steps)), 0);
	free(p);
	p = xasprintf("%s/runs/none-r1/steps.csv", dir);
	assert_int_equal(write_file(p, alone, strlen(alone)), 0);
	free(p);
	if (dataset_load(&ds, dir, &errs))
		fail_msg("%s", errs.buf);
	for (size_t i = 0; i < ds.njobs; i++) {
		const char *run = ds.runs[ds.jobs[i].run].name;

		if (!strcmp(run, "cma-r1")) {
			/* began at 10.5 s and took 120 s */
			assert_true(fabs(ds.jobs[i].start_s - 10.5) < 1e-9);
			seen++;
		} else {
			assert_true(isnan(ds.jobs[i].start_s));
		}
	}
	assert_int_equal(seen, 1);
	/* a request at 130 s is inside the job, one at 131 s after it */
	ds.nallocs = ds.cap_allocs = 2;
	ds.allocs = xcalloc(2, sizeof(*ds.allocs));
	for (size_t i = 0; i < ds.nruns; i++)
		if (!strcmp(ds.runs[i].name, "cma-r1"))
			ds.allocs[0].run = ds.allocs[1].run = i;
	ds.allocs[0].start_ns = 130000000000LL;
	ds.allocs[1].start_ns = 131000000000LL;
	ds.allocs[0].occupancy = ds.allocs[1].occupancy = NAN;
	assert_false(ds_alloc_after_job(&ds, &ds.allocs[0]));
	assert_true(ds_alloc_after_job(&ds, &ds.allocs[1]));
	dataset_free(&ds);
	sb_free(&errs);
	free(dir);
	assert_int_equal(rm_rf(tmp), 0);
}

/* A report mixing runs made alone with runs made beside other VMs says so. */
static void test_mixed_parallelism(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };

	(void)state;
	fake(&ds);
	for (size_t i = 0; i < ds.nruns; i++)
		ds.runs[i].vms_beside = i == 0 ? 1 : 0;
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "Mixed: 9 runs alone, 1 beside other VMs: fast-r1 (1)."));
	sb_free(&txt);
	for (size_t i = 0; i < ds.nruns; i++)
		ds.runs[i].vms_beside = 0;
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_null(strstr(txt.buf, "Mixed:"));
	sb_free(&txt);
	dataset_free(&ds);
}

/*
 * A scaled disk's divisor is named with its rounds, spread and date, once
 * per distinct one; results that predate the record show only emmc/4.8.
 */
static void test_disk_divisor(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 }, md = { 0 };

	(void)state;
	fake(&ds);
	for (size_t i = 0; i < ds.nruns; i++) {
		ds.runs[i].disk = xstrdup(i < RUNS ? "host" : "emmc");
		ds.runs[i].disk_scale = i < RUNS ? 1 : 4.8;
	}
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "emmc/4.8"));
	assert_null(strstr(txt.buf, "Disk:"));
	sb_free(&txt);
	for (size_t i = RUNS; i < ds.nruns; i++) {
		struct calib *c = &ds.runs[i].disk_calib;

		*c = (struct calib){ .source = CALIB_MEASURED, .median = 4.8, .min = 4.5, .max = 5.1,
				     .rounds = 5, .load = 0.2 };
		strcpy(c->date, "2026-12-04T10:11:12Z");
	}
	/* the host disk's record says where its 1 came from: no line of its own */
	ds.runs[0].disk_calib.source = CALIB_KEY;
	sb_init(&txt);
	sb_init(&md);
	report_dataset(&ds, NULL, &txt, &md);
	assert_non_null(strstr(txt.buf, "  Disk: eMMC scaled by 4.8x (median of 5 rounds, 4.5x-5.1x, "
				       "measured 2026-12-04).\n"));
	assert_non_null(strstr(md.buf, "\nDisk: eMMC scaled by 4.8x (median of 5 rounds, "
				      "4.5x-5.1x, measured 2026-12-04).\n"));
	assert_null(strstr(txt.buf, "host's disk scaled"));
	sb_free(&txt);
	sb_free(&md);
	/* an old one-shot value from the history: 1 round */
	for (size_t i = RUNS; i < ds.nruns; i++)
		calib_one(&ds.runs[i].disk_calib, 4.8, CALIB_HISTORY);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "Disk: eMMC scaled by 4.8x (1 round, from the cache's "
				       "history, date not recorded)."));
	sb_free(&txt);
	/* two divisors: both, each once */
	ds.runs[RUNS].disk_calib.source = CALIB_KEY;
	ds.runs[RUNS].disk_scale = 2.5;
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "Disk: eMMC scaled by 2.5x (disk-scale=2.5 in the scenario); "
				       "eMMC scaled by 4.8x (1 round, "));
	sb_free(&txt);
	dataset_free(&ds);
}

/* Sections of another arch name it beside their kernel; x86_64 goes unsaid. */
static void test_arch_named(void **state)
{
	struct dataset ds;
	struct strbuf md = { 0 };

	(void)state;
	fake(&ds);
	for (size_t i = 0; i < ds.nruns; i++)
		ds.runs[i].arch = xstrdup(i < RUNS ? "x86_64" : "arm64");
	sb_init(&md);
	report_dataset(&ds, NULL, NULL, &md);
	assert_non_null(strstr(md.buf, "| slow | gcma | gcma (arm64) |"));
	assert_non_null(strstr(md.buf, "| fast | cma | vanilla |"));
	assert_null(strstr(md.buf, "x86_64"));
	sb_free(&md);
	dataset_free(&ds);
}

/*
 * The marks: q from Benjamini-Hochberg over every registered test, and
 * no mark where the per-run ranges are nested, however small q.
 */
static void test_fdr_marks(void **state)
{
	struct tables ts = { 0 };
	struct report_col cols[2] = { { "a", NULL, "a" }, { "b", NULL, "b" } };
	struct table *t = tables_add(&ts, cols, 2, "t");
	struct strbuf txt;
	double v[2] = { 10, 20 };
	/* BH by hand: sorted p 0.001 0.01 0.02 0.04 0.5 (m = 5):
	 * q = min over j >= i of p_j 5 / j: 0.005 0.025 0.0333 0.05 0.5 */
	static const double p[5] = { 0.04, 0.001, 0.5, 0.02, 0.01 };
	static const double q[5] = { 0.05, 0.005, 0.5, 0.0333333, 0.025 };

	(void)state;
	for (int i = 0; i < 5; i++) {
		struct trow *r = table_values(t, i ? "row" : "first", "lower", 1, v);

		r->cells[1].test = tests_add(&ts.tests, p[i], i != 1 && i != 3);
	}
	tests_adjust(&ts.tests);
	for (int i = 0; i < 5; i++)
		assert_true(fabs(ts.tests.q[i] - q[i]) < 1e-6);
	sb_init(&txt);
	tables_render(&ts, &txt, NULL);
	/* q 0.005 and 0.033 are nested ranges: unmarked; q 0.025 is marked */
	assert_int_equal(tables_significant(&ts), 1);
	assert_int_equal(marks(txt.buf), 1);
	assert_non_null(strstr(txt.buf, "20.0 *+100.00%* (q 0.025)"));
	assert_non_null(strstr(txt.buf, "20.0 (+100.00%, q 0.005)"));
	assert_non_null(strstr(txt.buf, "20.0 (+100.00%, q 0.050)"));
	sb_free(&txt);
	tables_free(&ts);
}

/*
 * A script's allocations (alloc-TAG.csv) and its counter copies
 * (cleancache-PHASE/) join the data set and get their tables; the phases
 * come in the order their counters grew ("start" sorts after "end" by name).
 */
static void test_script_outputs(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };
	char *dir = xasprintf("%s/results/script-fixture", TEST_DATA);
	size_t tagged = 0;
	const char *start, *end;

	(void)state;
	load(&ds, dir);
	for (size_t i = 0; i < ds.nallocs; i++)
		tagged += !strcmp(ds.allocs[i].tag, "gcma") || !strcmp(ds.allocs[i].tag, "cma");
	assert_int_equal(tagged, 20);
	assert_int_equal(ds.runs[0].problems.n, 0);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "the script's allocations alloc-gcma.csv, 16384 pages"));
	assert_non_null(strstr(txt.buf, "1: 10 (6 failed)"));
	start = strstr(txt.buf, "  start ");
	end = strstr(txt.buf, "  end ");
	assert_non_null(start);
	assert_non_null(end);
	assert_true(start < end);
	assert_non_null(strstr(txt.buf, "stores 26, hits 20, cached_pages 0, pool_pages 16384"));
	sb_free(&txt);
	dataset_free(&ds);
	free(dir);
}

/*
 * A run that planned a fill and did not reach it stays out of every table
 * and is named; the occupancy of each request is read and banded, and a
 * request that began below the fill is counted and left out; the
 * events a trace buffer lost are a problem of the run, and keep it out of
 * the kernel-side cells; the fill's keeper is shown with its rate and
 * whether it ran during the requests.
 */
static void test_fill(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };
	char *dir = xasprintf("%s/results/fill-fixture", TEST_DATA);
	const char *t, *end;

	(void)state;
	load(&ds, dir);
	assert_int_equal(ds.nruns, 2);
	assert_string_equal(ds.runs[0].fill_status, "filled");
	assert_false(ds_run_not_filled(&ds.runs[0]));
	assert_true(ds_run_not_filled(&ds.runs[1]));
	assert_true(ds.runs[0].fill_reached > 92.1 && ds.runs[0].fill_reached < 92.3);
	assert_true(ds.allocs[0].occupancy > 98.8 && ds.allocs[0].occupancy < 99.0);
	assert_int_equal(ds.runs[1].trace_lost, 17);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "fill 90%: 92.2% in 2.9 s (1/2 runs)"));
	/* the keeper's load, and that it read on during the requests (no alloc-refill) */
	assert_non_null(strstr(txt.buf, "kept by reading 6000 MiB (300 MiB/s), reading 95% of the "
				"time, also during the requests"));
	assert_non_null(strstr(txt.buf, "cma-r2 (not-filled: 63.5% of 90%)"));
	/* our readers, from their records: one sample inside request 3, the
	 * keeper never stopped, reading through every request */
	assert_non_null(strstr(txt.buf, "10 of 10 requests (sampler 1, keeper 10); keeper "
				"stopped 0.0 s (0% of 20.0 s kept)"));
	/* only cma-r1's ten requests count */
	assert_non_null(strstr(txt.buf, "1: 5"));
	assert_null(strstr(txt.buf, "2: 10"));
	assert_non_null(strstr(txt.buf, "occupancy >= 90%: requests"));
	assert_non_null(strstr(txt.buf, "the trace buffer lost 17 events"));
	/* 16384 pages: four of cma-r1's five requests began at 50-59%, below
	 * the fill: counted, left out; the one at 97.8% (91.9 ms) is the table */
	t = strstr(txt.buf, "allocation latency, 16384 pages, user-side (us; every request that "
				"met the fill, failed ones too)");
	assert_non_null(t);
	end = strstr(t + 1, "\n\n");
	assert_non_null(end);
	assert_true(strstr(t, "1: 1") && strstr(t, "1: 1") < end);
	assert_true(strstr(t, "91934.61") && strstr(t, "91934.61") < end);
	t = strstr(t, "requests below the fill, left out");
	assert_true(t && t < end);
	assert_int_equal(strtol(t + strlen("requests below the fill, left out"), NULL, 10), 4);
	/* the occupancy the 16384-page requests met: 97.8, 54.8, 58.9, 50.3, 51.8 */
	assert_non_null(strstr(txt.buf, "occupancy met: p50 (min-max) %"));
	assert_non_null(strstr(txt.buf, "54.8 (50.3-97.8)"));
	/* 1024 pages: every request met it, the table says nothing of a fill */
	assert_non_null(strstr(txt.buf, "allocation latency, 1024 pages, user-side (us; every "
					"request, failed ones too)"));
	sb_free(&txt);
	dataset_free(&ds);
	free(dir);
}

/*
 * A plan beside a job: fast-r1's job ran from 0.5 s for 3 s, so its requests
 * of 4-7 s met an idle guest: counted, left out. fast-r2's job ran alone
 * (no job-start step: start_s NAN) and leaves every request in.
 */
static void test_after_job(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };
	const char *t, *end, *row = "requests after the job ended, left out";
	size_t n = 0;

	(void)state;
	fake(&ds);
	for (size_t i = 0; i < ds.nallocs; i++)
		ds.allocs[i].start_ns = ds.allocs[i].seq * 1000000000LL;
	ds.njobs = ds.cap_jobs = 2;
	ds.jobs = xcalloc(2, sizeof(*ds.jobs));
	ds.jobs[0] = (struct ds_job){ .run = 0, .name = xstrdup("build"), .elapsed_s = 3,
				      .start_s = 0.5 };
	ds.jobs[1] = (struct ds_job){ .run = 1, .name = xstrdup("build"), .elapsed_s = 3,
				      .start_s = NAN };
	for (size_t i = 0; i < ds.nallocs; i++) {
		assert_int_equal(ds_alloc_after_job(&ds, &ds.allocs[i]),
				 ds.allocs[i].run == 0 && ds.allocs[i].seq >= 4);
		n += !ds_alloc_met(&ds, &ds.allocs[i]);
	}
	assert_int_equal(n, REQS - 4);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	t = strstr(txt.buf, "allocation latency, 512 pages, user-side (us; every request made "
			    "while the job ran, failed ones too)");
	assert_non_null(t);
	end = strstr(t + 1, "\n\n");
	assert_non_null(end);
	/* fast: 5 runs, 40 - 4 requests; slow: all 40 */
	assert_true(strstr(t, "5: 36") && strstr(t, "5: 36") < end);
	assert_true(strstr(t, "5: 40") && strstr(t, "5: 40") < end);
	t = strstr(t, row);
	assert_true(t && t < end);
	assert_int_equal(strtol(t + strlen(row), NULL, 10), 4);
	assert_null(strstr(txt.buf, "requests below the fill, left out"));
	sb_free(&txt);
	dataset_free(&ds);
}

/* A kernel-side cell rests on the same requests as its user-side twin. */
static void test_kernel_subset(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };
	const char *k;

	(void)state;
	fake(&ds);
	/* one request of slow-r1 lost its trace */
	ds.allocs[RUNS * REQS].kernel_ns = DS_NONE;
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	k = strstr(txt.buf, "kernel-side");
	assert_non_null(k);
	assert_non_null(strstr(k, "runs left out: not every request traced, or events lost"));
	/* user side: 5 slow runs; kernel side: 4 */
	assert_non_null(strstr(txt.buf, "5: 40"));
	assert_non_null(strstr(k, "4: 32"));
	sb_free(&txt);
	dataset_free(&ds);
}

/*
 * Regimes: fake()'s runs differ by 10 us a run, none changes regime. Then
 * fast-r3 takes 20x as long, with 1.49 M failed migrations against 0-18,
 * and every request of slow-r1 fails: both are named, with what differs.
 */
/* vmstat pgmigrate_fail of the RUNS runs from first: delta after[k] each. */
static void fake_migrate_fails(struct dataset *ds, size_t first, const long long *after)
{
	ds->ncounters = ds->cap_counters = RUNS;
	ds->counters = xcalloc(RUNS, sizeof(*ds->counters));
	for (size_t k = 0; k < RUNS; k++) {
		ds->counters[k].run = first + k;
		ds->counters[k].source = xstrdup("vmstat");
		ds->counters[k].name = xstrdup("pgmigrate_fail");
		ds->counters[k].after = after[k];
	}
}

static void test_regimes(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };

	(void)state;
	fake(&ds);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "No run changed regime"));
	assert_non_null(strstr(txt.buf, "(10 run-size cells"));
	sb_free(&txt);
	for (size_t i = 0; i < ds.nallocs; i++) {
		struct ds_alloc *a = &ds.allocs[i];

		if (a->run == 2)
			a->user_ns *= 20;
		if (a->run == RUNS)
			a->success = 0;
	}
	fake_migrate_fails(&ds, 0, (const long long[RUNS]){ 0, 6, 1490000, 18, 24 });
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_null(strstr(txt.buf, "No run changed regime"));
	assert_non_null(strstr(txt.buf, "2 run(s) changed regime"));
	/* others' medians 1035, 1045, 1065, 1075 us: 1055; fast-r3's 20x that */
	assert_non_null(strstr(txt.buf, "- fast-r3 (fast): at 512 pages: median 21.1 ms against "
				       "1.1 ms (the median of the other 4 runs' medians, 20x)"));
	assert_non_null(strstr(txt.buf, "1.49 M page migrations failed (pgmigrate_fail; the other 4 "
				       "runs 0-24)"));
	assert_non_null(strstr(txt.buf, "- slow-r1 (slow): at 512 pages: median"));
	assert_non_null(strstr(txt.buf, "8 of 8 requests failed (100%; the other runs 0%)"));
	/* the other runs are not named */
	assert_null(strstr(txt.buf, "- fast-r1 ("));
	assert_null(strstr(txt.buf, "- slow-r2 ("));
	sb_free(&txt);
	dataset_free(&ds);
}

/*
 * A split, as failure's CMA runs: every request of slow-r1..r3 fails, with
 * 2.0-4.0 M failed migrations, none of slow-r4 and r5, with 819 k. All five
 * are named and none kept the regime: each is compared with the runs that
 * left it the other way, not with all four others (whose range would hide
 * every counter).
 */
static void test_regime_split(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };

	(void)state;
	fake(&ds);
	for (size_t i = 0; i < ds.nallocs; i++)
		ds.allocs[i].success = !(ds.allocs[i].run >= RUNS && ds.allocs[i].run < RUNS + 3);
	fake_migrate_fails(&ds, RUNS, (const long long[RUNS]){ 2000000, 3000000, 4000000,
								 819000, 819000 });
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "5 run(s) changed regime"));
	assert_non_null(strstr(txt.buf, "8 of 8 requests failed (100%; the other runs 50%); "
				       "2.00 M page migrations failed (pgmigrate_fail; the 2 runs "
				       "of the other regime 819.0 k)"));
	assert_non_null(strstr(txt.buf, "0 of 8 requests failed (0%; the other runs 75%); "
				       "819.0 k page migrations failed (pgmigrate_fail; the 3 runs "
				       "of the other regime 2.00 M-4.00 M)"));
	assert_null(strstr(txt.buf, "(pgmigrate_fail; the other"));
	sb_free(&txt);
	dataset_free(&ds);
}

/*
 * A tail regime, as paper-photo's cma-r1: fast-r2 retries twice a request
 * where the others never do, its median unchanged; slow-r4's retries are
 * unknown (its detail buffer filled): not tested, and not counted in the
 * others' median.
 */
static void test_regime_retries(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };

	(void)state;
	fake(&ds);
	for (size_t i = 0; i < ds.nallocs; i++) {
		struct ds_alloc *a = &ds.allocs[i];

		if (a->run == 1)
			a->retries = 2;
		if (a->run == RUNS + 3)
			a->retries = a->seq ? 30 : DS_NONE;
	}
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "1 run(s) changed regime"));
	assert_non_null(strstr(txt.buf, "- fast-r2 (fast): at 512 pages: median 1.0 ms against "
				       "1.1 ms (the median of the other 4 runs' medians, x0.99), "
				       "2 busy retries a request against 0 (the median of the other "
				       "runs' means); every request of 512 pages retried exactly 2 "
				       "times, the same count each time (docs/attribution.md)."));
	assert_null(strstr(txt.buf, "- slow-r4 ("));
	sb_free(&txt);
	/* one request that failed: its count is only how many starts there were */
	for (size_t i = 0; i < ds.nallocs; i++)
		ds.allocs[i].success = !(ds.allocs[i].run == 1 && ds.allocs[i].seq == 3);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "- fast-r2 (fast): at 512 pages"));
	assert_null(strstr(txt.buf, "every request of"));
	sb_free(&txt);
	/* 3 a request where the others retry 0.5: below 10x theirs */
	for (size_t i = 0; i < ds.nallocs; i++)
		if (ds.allocs[i].run < RUNS)
			ds.allocs[i].retries = ds.allocs[i].run == 1 ? 3 : (long long)(i % 2);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "No run changed regime"));
	sb_free(&txt);
	dataset_free(&ds);
}

/*
 * A split with a kept run, as rfc-v2-background's CMA runs: fast-r1 and r2
 * retry, r3 is 20x slower, r5 fails every request, r4 alone kept the
 * regime. Each is compared with the runs not slower or failing more (r4),
 * not with "the other regime", which none of them left the other way.
 */
static void test_regime_split_kept(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };

	(void)state;
	fake(&ds);
	for (size_t i = 0; i < ds.nallocs; i++) {
		struct ds_alloc *a = &ds.allocs[i];

		a->retries = a->run < 2 ? 2 : a->retries;
		a->user_ns *= a->run == 2 ? 20 : 1;
		a->success = a->run != 4;
	}
	fake_migrate_fails(&ds, 0, (const long long[RUNS]){ 50000, 50000, 10, 10, 10 });
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "4 run(s) changed regime"));
	assert_non_null(strstr(txt.buf, "(the median of the other runs' means), 0 of 8 requests "
				       "failed (0%; the other runs 25%); 50.0 k page migrations "
				       "failed (pgmigrate_fail; the 1 run not slower or failing "
				       "more 10); every request of 512 pages retried exactly 2 "
				       "times"));
	assert_null(strstr(txt.buf, "- fast-r4 ("));
	assert_null(strstr(txt.buf, "other regime"));
	sb_free(&txt);
	dataset_free(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_self),
		cmocka_unit_test(test_significant),
		cmocka_unit_test(test_kernels_side_by_side),
		cmocka_unit_test(test_primaries),
		cmocka_unit_test(test_equivalence),
		cmocka_unit_test(test_run_conditions),
		cmocka_unit_test(test_fdr_marks),
		cmocka_unit_test(test_mixed_parallelism),
		cmocka_unit_test(test_arch_named),
		cmocka_unit_test(test_disk_divisor),
		cmocka_unit_test(test_overlap_and_failed_runs),
		cmocka_unit_test(test_bursts),
		cmocka_unit_test(test_problems_listed),
		cmocka_unit_test(test_cmd_report),
		cmocka_unit_test(test_jobs),
		cmocka_unit_test(test_launches),
		cmocka_unit_test(test_script_outputs),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_after_job),
		cmocka_unit_test(test_job_start_read),
		cmocka_unit_test(test_kernel_subset),
		cmocka_unit_test(test_regimes),
		cmocka_unit_test(test_regime_split),
		cmocka_unit_test(test_regime_retries),
		cmocka_unit_test(test_regime_split_kept),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
