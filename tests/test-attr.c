/*
 * The attribution of a request's kernel-side time (ds-attr.c,
 * docs/attribution.md): the phase and state rules on a made-up event
 * sequence, then recorded traces of tests/data/results/attr-fixture
 * (cma-regime runs on the gcma kernel, 1 vCPU, hog and pin-io): cma-r1's
 * 32700-page requests retried 69 times each and failed, cma-r2's
 * requests retried and succeeded, gcma-r1's second 16384-page request
 * was switched out for most of its time. The expected numbers were read
 * off `trace-cmd report` of the same trace.dat (docs/attribution.md's
 * hand check), not from this code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataset/dataset.h"
#include "report/report.h"

static const char fixture[] = TEST_DATA "/results/attr-fixture";

/*
 * libtraceevent 1.7 leaks a 2-byte strdup while it parses some event
 * formats of this trace.dat (sched and compaction ones; test-dataset's
 * two-buffer trace meets it too): the library's, not ours.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

/*
 * start 0; first scan took pages at 10 (isolation 0-10); switched out
 * blocked at 15, woken at 25, back on CPU at 30; a migration batch ends at
 * 40 (migration 10-40: 5 on CPU, 10 blocked, 5 runnable, 10 on CPU); the
 * isolation test passes at 45 (isolation 40-45), the range is taken by
 * the finish at 50 (taking the free range 45-50).
 */
static void test_rules(void **state)
{
	struct ds_attrs s = { 0 };
	const struct ds_attr *a;

	(void)state;
	ds_attrs_event(&s, DS_AEV_START, 7, 1000, 64, 0);
	ds_attrs_event(&s, DS_AEV_ISOLATE, 7, 1010, 64, 5);
	ds_attrs_event(&s, DS_AEV_OUT, 7, 1015, 1, 0);
	ds_attrs_event(&s, DS_AEV_WAKE, 7, 1025, 0, 0);
	ds_attrs_event(&s, DS_AEV_IN, 7, 1030, 0, 0);
	/* another task's events change nothing */
	ds_attrs_event(&s, DS_AEV_MIGRATED, 8, 1035, 99, 99);
	ds_attrs_event(&s, DS_AEV_MIGRATED, 7, 1040, 4, 1);
	ds_attrs_event(&s, DS_AEV_TEST, 7, 1045, 1, 0);
	ds_attrs_event(&s, DS_AEV_FINISH, 7, 1050, 0, 0);
	ds_attrs_end(&s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.orphans, 1);
	a = &s.a[0];
	assert_true(a->finished);
	assert_true(a->sched_traced);
	assert_false(a->failkind_traced);
	assert_int_equal(a->ns[DS_PH_ISOLATE][DS_ST_CPU], 15);
	assert_int_equal(a->ns[DS_PH_MIGRATE][DS_ST_CPU], 15);
	assert_int_equal(a->ns[DS_PH_MIGRATE][DS_ST_BLOCKED], 10);
	assert_int_equal(a->ns[DS_PH_MIGRATE][DS_ST_RUNNABLE], 5);
	assert_int_equal(a->ns[DS_PH_PREPARE][DS_ST_CPU], 5);
	assert_int_equal(ds_attr_phase(a, DS_PH_OTHER), 0);
	assert_int_equal(ds_attr_total(a), 50);
	assert_int_equal(a->isolated, 5);
	assert_int_equal(a->migrated, 4);
	assert_int_equal(a->failed, 1);
	ds_attrs_free(&s);

	/*
	 * A failed attempt: the test fails at 20, the retry at 30 (undoing the
	 * isolation: isolation); the next attempt finds no range and finishes
	 * at 35 (unattributed). Direct compaction from 5 to 8 is its own.
	 */
	ds_attrs_event(&s, DS_AEV_START, 7, 0, 64, 0);
	ds_attrs_event(&s, DS_AEV_CBEGIN, 7, 5, 0, 0);
	ds_attrs_event(&s, DS_AEV_ISOLATE, 7, 6, 10, 10);
	ds_attrs_event(&s, DS_AEV_CEND, 7, 8, 0, 0);
	ds_attrs_event(&s, DS_AEV_OUT, 7, 10, 0, 0);
	ds_attrs_event(&s, DS_AEV_IN, 7, 12, 0, 0);
	ds_attrs_event(&s, DS_AEV_MFAIL, 7, 14, DS_FK_PINNED, 1);
	ds_attrs_event(&s, DS_AEV_TEST, 7, 20, 0, 0);
	ds_attrs_event(&s, DS_AEV_RETRY, 7, 30, 0, 0);
	ds_attrs_event(&s, DS_AEV_FINISH, 7, 35, -16, 0);
	ds_attrs_end(&s);
	a = &s.a[0];
	assert_int_equal(a->errorno, -16);
	assert_int_equal(a->retries, 1);
	assert_int_equal(a->compaction_ns, 3);
	assert_int_equal(a->isolated, 0);
	assert_true(a->failkind_traced);
	assert_int_equal(a->failkind[DS_FK_PINNED], 1);
	/* 0-5 before compaction: unattributed; 5-8 compaction: unattributed */
	assert_int_equal(ds_attr_phase(a, DS_PH_OTHER), 8 + 5);
	/* 8-20 (2 of them runnable), then 20-30 */
	assert_int_equal(a->ns[DS_PH_ISOLATE][DS_ST_RUNNABLE], 2);
	assert_int_equal(ds_attr_phase(a, DS_PH_ISOLATE), 22);
	assert_int_equal(ds_attr_total(a), 35);
	ds_attrs_free(&s);

	/*
	 * GCMA: the search to 10, the take-back to 30, a busy range (the
	 * retry at 32: unattributed), the search of the next range to 40, its
	 * take-back to 50 and the preparation to 55.
	 */
	ds_attrs_event(&s, DS_AEV_START, 9, 0, 64, 0);
	ds_attrs_event(&s, DS_AEV_GSTART, 9, 10, 0, 0);
	ds_attrs_event(&s, DS_AEV_GFINISH, 9, 30, 0, 0);
	ds_attrs_event(&s, DS_AEV_RETRY, 9, 32, 0, 0);
	ds_attrs_event(&s, DS_AEV_GSTART, 9, 40, 0, 0);
	ds_attrs_event(&s, DS_AEV_GFINISH, 9, 50, 64, 0);
	ds_attrs_event(&s, DS_AEV_FINISH, 9, 55, 0, 0);
	ds_attrs_end(&s);
	a = &s.a[0];
	assert_int_equal(ds_attr_phase(a, DS_PH_SEARCH), 10 + 8);
	assert_int_equal(ds_attr_phase(a, DS_PH_TAKEBACK), 20 + 10);
	assert_int_equal(ds_attr_phase(a, DS_PH_OTHER), 2);
	assert_int_equal(ds_attr_phase(a, DS_PH_PREPARE), 5);
	assert_int_equal(a->dropped, 64);
	assert_int_equal(a->retries, 1);
	assert_int_equal(ds_attr_total(a), 55);
	ds_attrs_free(&s);
}

static const struct ds_attr_row *find(const struct dataset *ds, const char *run, long long seq)
{
	for (size_t i = 0; i < ds->nattrs; i++) {
		const struct ds_alloc *a = &ds->allocs[ds->attrs[i].alloc];

		if (a->seq == seq && !strcmp(ds->runs[a->run].name, run))
			return &ds->attrs[i];
	}
	return NULL;
}

static void load(struct dataset *ds, const char *dir)
{
	struct strbuf errs = { 0 };

	if (dataset_load(ds, dir, &errs))
		fail_msg("%s", errs.buf);
	sb_free(&errs);
}

/* Every attributed request's intervals cover its kernel-side time exactly. */
static void test_cover(void **state)
{
	struct dataset ds;

	(void)state;
	load(&ds, fixture);
	assert_true(ds.nattrs >= 12);
	for (size_t i = 0; i < ds.nattrs; i++)
		assert_int_equal(ds_attr_total(&ds.attrs[i].at),
				 ds.allocs[ds.attrs[i].alloc].kernel_ns);
	dataset_free(&ds);
}

static long long state_ns(const struct ds_attr *a, enum ds_tstate t)
{
	return ds_attr_state(a, t);
}

/* cma-r1 seq 3: 32700 pages, 69 retries, failed (-EBUSY) */
static void test_retried_failed(void **state)
{
	struct dataset ds;
	const struct ds_attr_row *r;

	(void)state;
	load(&ds, fixture);
	assert_non_null(r = find(&ds, "cma-r1", 3));
	assert_int_equal(ds.allocs[r->alloc].success, 0);
	assert_int_equal(r->at.errorno, -16);
	assert_int_equal(ds.allocs[r->alloc].kernel_ns, 679194680);
	assert_int_equal(r->at.retries, 69);
	assert_int_equal(r->at.isolated, 17088);
	assert_int_equal(r->at.migrated, 4258);
	assert_int_equal(r->at.failed, 835);
	assert_int_equal(state_ns(&r->at, DS_ST_RUNNABLE), 535122385);
	assert_int_equal(state_ns(&r->at, DS_ST_BLOCKED), 7272693);
	/* no range took the pages: no take-back, no free range taken */
	assert_int_equal(ds_attr_phase(&r->at, DS_PH_TAKEBACK), 0);
	assert_int_equal(ds_attr_phase(&r->at, DS_PH_PREPARE), 0);
	assert_true(ds_attr_phase(&r->at, DS_PH_ISOLATE) > 0);
	assert_true(ds_attr_phase(&r->at, DS_PH_MIGRATE) > 0);
	/* the 1024-page requests before it never retried */
	assert_non_null(r = find(&ds, "cma-r1", 0));
	assert_int_equal(r->at.retries, 0);
	assert_int_equal(r->at.errorno, 0);
	dataset_free(&ds);
}

/* gcma-r1 seq 9: 16384 pages, switched out (runnable) for 78% of its time */
static void test_gcma_switched_out(void **state)
{
	struct dataset ds;
	const struct ds_attr_row *r;

	(void)state;
	load(&ds, fixture);
	assert_non_null(r = find(&ds, "gcma-r1", 9));
	assert_int_equal(ds.allocs[r->alloc].kernel_ns, 11051392);
	assert_int_equal(r->at.ns[DS_PH_TAKEBACK][DS_ST_CPU], 1053602);
	assert_int_equal(r->at.ns[DS_PH_PREPARE][DS_ST_CPU], 1321863);
	assert_int_equal(r->at.ns[DS_PH_PREPARE][DS_ST_RUNNABLE], 8655138);
	/* cma_alloc_start to gcma_alloc_start: the search, nothing unattributed */
	assert_int_equal(ds_attr_phase(&r->at, DS_PH_SEARCH), 20789);
	assert_int_equal(ds_attr_phase(&r->at, DS_PH_OTHER), 0);
	assert_int_equal(r->at.dropped, 16384);
	assert_int_equal(ds_attr_moved(&r->at), 16384);
	assert_int_equal(r->at.isolated + r->at.migrated + r->at.retries, 0);
	dataset_free(&ds);
}

/* A copy of the fixture under a fresh directory of /tmp: "<tmp>/attr-fixture". */
static char *tmp_copy(void)
{
	char tmpl[] = "/tmp/cmb-attr-XXXXXX", *cmd;
	char *dir = mkdtemp(tmpl);

	assert_non_null(dir);
	cmd = xasprintf("cp -r %s %s/", fixture, dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	return xasprintf("%s/attr-fixture", dir);
}

static void rm_copy(char *dir)
{
	char *cmd;

	*strrchr(dir, '/') = '\0';
	cmd = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(dir);
}

/* trace.dat gives the very trace-attr.csv the fixture keeps */
static void test_export(void **state)
{
	char *dir = tmp_copy(), *run, *kept, *made, *path;
	struct strbuf errs = { 0 };

	(void)state;
	run = xasprintf("%s/runs/cma-r1", dir);
	path = xasprintf("%s/trace-attr.csv", run);
	kept = read_file(path, NULL);
	assert_non_null(kept);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(dataset_export_trace(run, &errs), 0);
	made = read_file(path, NULL);
	assert_non_null(made);
	assert_string_equal(made, kept);
	assert_non_null(strstr(made, ",retry,0,0\n"));
	free(made);
	free(kept);
	free(path);
	free(run);
	sb_free(&errs);
	rm_copy(dir);
}

/*
 * The fixture copied into *dir, edited by the shell command edit (run in
 * the copy's cma-r1) and loaded into ds; returns cma-r1's attributed
 * requests.
 */
static size_t load_edited(const char *edit, char **dir, struct dataset *ds)
{
	char *cmd;
	size_t n = 0;

	*dir = tmp_copy();
	cmd = xasprintf("cd %s/runs/cma-r1 && %s", *dir, edit);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	load(ds, *dir);
	for (size_t i = 0; i < ds->nattrs; i++)
		n += !strcmp(ds->runs[ds->allocs[ds->attrs[i].alloc].run].name, "cma-r1");
	return n;
}

/*
 * A buffer that filled at 23.5 s (the CPU's last event moved there): the
 * four requests that ended before (the first 32700-page one at 23.378 s)
 * are attributed, the two after are not.
 */
static void test_loss_cut(void **state)
{
	struct dataset ds;
	char *dir;

	(void)state;
	assert_int_equal(load_edited("printf 'cpu,overrun,dropped\\n0,0,5\\n' > "
				     "trace-loss.csv && sed -i 's/^[0-9]*,-1,cpuend,0,0$/"
				     "23500000000,-1,cpuend,0,0/' trace-attr.csv && "
				     "grep -q '^23500000000,-1,cpuend' trace-attr.csv", &dir, &ds), 4);
	assert_non_null(find(&ds, "cma-r1", 3));
	assert_null(find(&ds, "cma-r1", 4));
	dataset_free(&ds);
	rm_copy(dir);
}

static const struct ds_alloc *find_alloc(const struct dataset *ds, const char *run,
					 long long seq)
{
	for (size_t i = 0; i < ds->nallocs; i++)
		if (ds->allocs[i].seq == seq && !strcmp(ds->runs[ds->allocs[i].run].name, run))
			return &ds->allocs[i];
	return NULL;
}

/*
 * The detail buffer (busy retries, the attribution's events) filled at
 * 23.5 s, the main one (requests' start and finish) did not: every
 * request keeps its kernel-side time and the run its kernel-side cells;
 * the first 32700-page request (ended 23.378 s) keeps its 69 retries, the
 * two after have unknown ones, and only the four requests that ended
 * before are attributed.
 */
static void test_detail_loss(void **state)
{
	struct dataset ds;
	char *dir;

	(void)state;
	assert_int_equal(load_edited("printf 'buffer,cpu,overrun,dropped\\nmain,0,0,0"
				     "\\ndetail,0,0,5\\n' > trace-loss.csv && "
				     "echo 23500000000,-1,cpuend,detail,0 >> trace-cma.csv && "
				     "sed -i 's/^[0-9]*,-1,cpuend,0,0$/23500000000,-1,cpuend,0,1/' "
				     "trace-attr.csv && grep -q '^23500000000,-1,cpuend,0,1' "
				     "trace-attr.csv", &dir, &ds), 4);
	assert_int_equal(ds.runs[0].trace_lost, 0);
	assert_int_equal(ds.runs[0].detail_lost, 5);
	for (long long seq = 0; seq < 6; seq++)
		assert_true(find_alloc(&ds, "cma-r1", seq)->kernel_ns > 0);
	assert_int_equal(find_alloc(&ds, "cma-r1", 3)->retries, 69);
	assert_int_equal(find_alloc(&ds, "cma-r1", 4)->retries, DS_NONE);
	assert_int_equal(find_alloc(&ds, "cma-r1", 5)->retries, DS_NONE);
	dataset_free(&ds);
	rm_copy(dir);
}

/* The report says where the slowest request of each set-up and size went */
static void test_report(void **state)
{
	struct dataset ds;
	struct strbuf txt = { 0 };

	(void)state;
	load(&ds, fixture);
	sb_init(&txt);
	report_dataset(&ds, NULL, &txt, NULL);
	assert_non_null(strstr(txt.buf, "16384 pages: where the kernel-side time went"));
	/* seq 11 began at 77.2% of a 90% fill: left out, and said so */
	assert_non_null(strstr(txt.buf, "- gcma, 16384 pages (3 of 3 requests attributed; 1 below "
				       "the fill left out): the "
				       "slowest attributed, gcma-r1 seq 9, 11.1 ms, spent 90% of it "
				       "taking the free range and 78% switched out while runnable; 0 "
				       "busy retries"));
	assert_non_null(strstr(txt.buf, "- cma, 32700 pages (2 of 2 requests attributed; 1 below "
				       "the fill left out): the "
				       "slowest attributed, cma-r1 seq 4, 743.4 ms (failed), spent 63% "
				       "of it isolating and draining the range and 79% switched out "
				       "while runnable; 69 busy retries"));
	sb_free(&txt);
	dataset_free(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_retried_failed),
		cmocka_unit_test(test_gcma_switched_out),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_loss_cut),
		cmocka_unit_test(test_detail_loss),
		cmocka_unit_test(test_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
