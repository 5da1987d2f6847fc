/*
 * Data set of tests/data/results/smoke-fixture: vanilla-r1 is a real run
 * (10 x 1024-page allocations, trace.dat from trace-cmd, fio randread);
 * vanilla-r2 is the same with trace.dat truncated to 100000 bytes and
 * snapshots/after/sys-cma/reserved/alloc_pages_fail removed; broken-r1
 * ended "timeout" with no data. Also the start/finish pairing on its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/dataset.h"

#include <stdio.h>
#include <sys/stat.h>

static const char fixture[] = TEST_DATA "/results/smoke-fixture";

/*
 * libtraceevent 1.7 leaks a 2-byte strdup while it parses some event
 * formats (two-buffers.dat's gcma and sched ones; test-attr meets it too):
 * the library's, not ours.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

static bool has_problem(const struct ds_run *r, const char *needle)
{
	for (size_t i = 0; i < r->problems.n; i++)
		if (strstr(r->problems.v[i], needle))
			return true;
	return false;
}

static const struct ds_counter *counter(const struct dataset *ds, size_t run, const char *source,
					const char *name)
{
	for (size_t i = 0; i < ds->ncounters; i++)
		if (ds->counters[i].run == run && !strcmp(ds->counters[i].source, source) &&
		    !strcmp(ds->counters[i].name, name))
			return &ds->counters[i];
	return NULL;
}

static void test_runs(void **state)
{
	struct dataset ds;
	struct strbuf errs = { 0 };

	(void)state;
	assert_int_equal(dataset_load(&ds, fixture, &errs), 0);
	assert_string_equal(ds.run_id, "smoke-fixture");
	assert_int_equal(ds.nruns, 3);
	/* sections in metadata order, repetitions ascending */
	assert_int_equal(ds.sections.n, 2);
	assert_string_equal(ds.sections.v[0], "vanilla");
	assert_string_equal(ds.sections.v[1], "broken");
	assert_string_equal(ds.runs[0].name, "vanilla-r1");
	assert_string_equal(ds.runs[1].name, "vanilla-r2");
	assert_int_equal(ds.runs[1].rep, 2);
	assert_string_equal(ds.runs[2].name, "broken-r1");
	assert_string_equal(ds.runs[0].setup, "cma");
	assert_string_equal(ds.runs[0].kernel, "vanilla");
	assert_true(ds_run_ok(&ds.runs[0]));
	assert_false(ds_run_ok(&ds.runs[2]));
	/* the good run has no problem; the others name their files */
	assert_int_equal(ds.runs[0].problems.n, 0);
	/* run's export found trace.dat unreadable and said so in metadata.json */
	assert_true(has_problem(&ds.runs[1], "runs/vanilla-r2/trace.dat: cannot be read"));
	assert_true(has_problem(&ds.runs[1],
				"runs/vanilla-r2/snapshots/after/sys-cma/reserved/alloc_pages_fail: missing"));
	assert_true(has_problem(&ds.runs[2], "runs/broken-r1/status: run ended 'timeout'"));
	assert_int_equal(dataset_degraded(&ds), 2);
	sb_free(&errs);
	dataset_free(&ds);
}

static void test_allocs(void **state)
{
	struct dataset ds;
	struct strbuf errs = { 0 };
	long long sum_k = 0;

	(void)state;
	assert_int_equal(dataset_load(&ds, fixture, &errs), 0);
	assert_int_equal(ds.nallocs, 20);
	for (size_t i = 0; i < 10; i++) {
		const struct ds_alloc *a = &ds.allocs[i];

		assert_int_equal(a->run, 0);
		assert_int_equal(a->seq, (long long)i);
		assert_int_equal(a->pages, 1024);
		assert_true(a->success);
		assert_string_equal(a->flags, "");
		assert_int_equal(a->retries, 0);
		assert_int_equal(a->kerrno, 0);
		/* the kernel side is inside the user side */
		assert_true(a->kernel_ns > 0 && a->kernel_ns < a->user_ns);
		sum_k += a->kernel_ns;
	}
	/* first allocation: 18.729092 -> 18.747201 in trace-cmd report; in ns exactly: */
	assert_int_equal(ds.allocs[0].kernel_ns, 18108733);
	assert_int_equal(ds.allocs[0].user_ns, 19304904);
	assert_int_equal(ds.allocs[0].free_ns, 839836);
	assert_true(sum_k > 18108733);
	for (size_t i = 10; i < 20; i++) {
		const struct ds_alloc *a = &ds.allocs[i];

		assert_int_equal(a->run, 1);
		assert_string_equal(a->flags, "no-trace");
		assert_int_equal(a->kernel_ns, DS_NONE);
		assert_int_equal(a->retries, DS_NONE);
		assert_true(a->user_ns > 0);
	}
	sb_free(&errs);
	dataset_free(&ds);
}

static void test_fio_counters(void **state)
{
	struct dataset ds;
	struct strbuf errs = { 0 };
	const struct ds_counter *c;

	(void)state;
	assert_int_equal(dataset_load(&ds, fixture, &errs), 0);
	assert_int_equal(ds.nfios, 2);
	assert_string_equal(ds.fios[0].job, "randread");
	assert_string_equal(ds.fios[0].file, "fio-randread-smoke.json");
	assert_true(ds.fios[0].read_iops > 2212.6 && ds.fios[0].read_iops < 2212.7);
	assert_int_equal((long long)ds.fios[0].read_bw, 9062870);
	assert_int_equal(ds.fios[0].read_p50, 252928);
	assert_int_equal(ds.fios[0].read_p99, 5210112);
	assert_int_equal(ds.fios[0].write_p50, DS_NONE);
	assert_int_equal(ds.fios[0].runtime_ms, 10004);

	c = counter(&ds, 0, "sys-cma/reserved", "alloc_pages_success");
	assert_non_null(c);
	assert_int_equal(c->after - c->before, 10240);
	c = counter(&ds, 0, "vmstat", "cma_alloc_success");
	assert_non_null(c);
	assert_int_equal(c->after - c->before, 10);
	assert_non_null(counter(&ds, 0, "meminfo", "MemTotal"));
	assert_non_null(counter(&ds, 0, "debug-cma/reserved", "count"));
	/* the missing file: a row marked, no value, no delta */
	c = counter(&ds, 1, "sys-cma/reserved", "alloc_pages_fail");
	assert_non_null(c);
	assert_string_equal(c->flags, "missing-after");
	assert_int_equal(c->after, DS_NONE);
	assert_false(ds_counter_delta(&ds, 1, "sys-cma/reserved", "alloc_pages_fail", NULL, NULL));
	assert_true(ds_counter_delta(&ds, 0, "sys-cma/reserved", "alloc_pages_fail", NULL, NULL));
	/* nothing from the failed run */
	for (size_t i = 0; i < ds.ncounters; i++)
		assert_int_not_equal(ds.counters[i].run, 2);
	sb_free(&errs);
	dataset_free(&ds);
}

static void test_csv(void **state)
{
	struct dataset ds;
	struct strbuf errs = { 0 };
	char *a, *f, *c, *a2;

	(void)state;
	assert_int_equal(dataset_load(&ds, fixture, &errs), 0);
	a = dataset_alloc_csv(&ds);
	f = dataset_fio_csv(&ds);
	c = dataset_counters_csv(&ds);
	assert_non_null(strstr(a, "run,section,rep,setup,kernel,status,seq,burst,start_ns,pages,"
			       "latency_ns,kernel_latency_ns,busy_retries,errorno,success,errno,"
			       "free_latency_ns,flags,tag,area_occupancy_pct,timed_out,refill_wait_ns,"
			       "path,align,kernel_align,from_area,zeroed\n"));
	/* This fixture's driver wrote no burst column: empty, start_ns kept;
	 * nor timed_out: 0, nor a refill wait: empty, nor a path: debugfs at
	 * alignment 0, the alignment its trace's cma_alloc_start says too. */
	assert_non_null(strstr(a, "\nvanilla-r1,vanilla,1,cma,vanilla,ok,0,,18574676093,1024,"
			       "19304904,18108733,0,0,1,0,839836,,,,0,,debugfs,0,0,,\n"));
	assert_non_null(strstr(a, "\nvanilla-r2,vanilla,2,cma,vanilla,ok,0,,18574676093,1024,"
			       "19306904,,,,1,0,"
			       "839836,no-trace,,,0,,debugfs,0,,,\n"));
	assert_null(strstr(a, "broken-r1"));
	assert_non_null(strstr(f, "\nvanilla-r1,vanilla,1,cma,vanilla,ok,fio-randread-smoke.json,"
			       "randread,2212.615,9062870,252928,5210112,0.000,0,,,10004,\n"));
	assert_non_null(strstr(c, "\nvanilla-r2,vanilla,2,cma,vanilla,ok,sys-cma/reserved,"
			       "alloc_pages_fail,0,,,missing-after\n"));
	/* the same input gives the same bytes */
	dataset_free(&ds);
	assert_int_equal(dataset_load(&ds, fixture, &errs), 0);
	a2 = dataset_alloc_csv(&ds);
	assert_string_equal(a, a2);
	free(a);
	free(a2);
	free(f);
	free(c);
	sb_free(&errs);
	dataset_free(&ds);
}

/* refill_wait_ns: read where the driver waited, DS_NONE in files without it. */
static void test_refill_wait(void **state)
{
	struct dataset ds;
	struct strbuf errs = { 0 };
	size_t waited = 0, none = 0;

	(void)state;
	assert_int_equal(dataset_load(&ds, TEST_DATA "/results/deadline-fixture", &errs), 0);
	for (size_t i = 0; i < ds.nallocs; i++) {
		const struct ds_alloc *a = &ds.allocs[i];

		if (strcmp(ds.runs[a->run].name, "cma-r2")) {
			none += a->refill_wait_ns == DS_NONE;
			continue;
		}
		assert_int_equal(a->refill_wait_ns, a->seq ? 1250000000LL : 0);
		waited++;
	}
	assert_int_equal(waited, 2);
	assert_true(none > 0);
	sb_free(&errs);
	dataset_free(&ds);
}

/*
 * The allocation path: read where the driver wrote it, debugfs at
 * alignment 0 in files from before the columns (the only path then); a dma
 * buffer from the buddy allocator stays a failure.
 */
static void test_paths(void **state)
{
	struct dataset ds;
	struct strbuf errs = { 0 };
	size_t dma = 0, old = 0;
	char *csv;

	(void)state;
	assert_int_equal(dataset_load(&ds, TEST_DATA "/results/paths-fixture", &errs), 0);
	for (size_t i = 0; i < ds.nallocs; i++) {
		const struct ds_alloc *a = &ds.allocs[i];

		if (strcmp(ds.runs[a->run].name, "cma-r1")) {
			assert_string_equal(a->path, "debugfs");
			assert_int_equal(a->align, 0);
			assert_int_equal(a->from_area, -1);
			assert_int_equal(a->zeroed, -1);
			old++;
			continue;
		}
		assert_string_equal(a->path, "dma");
		assert_int_equal(a->align, 8);
		assert_int_equal(a->from_area, a->seq == 0 ? 0 : a->timed_out ? -1 : 1);
		assert_int_equal(a->zeroed, a->seq == 0 ? 1 : -1);
		if (a->seq == 0)
			assert_int_equal(a->success, 0);
		dma++;
	}
	assert_int_equal(dma, 6);
	assert_true(old > 0);
	csv = dataset_alloc_csv(&ds);
	assert_non_null(strstr(csv, ",refill_wait_ns,path,align,kernel_align,from_area,zeroed\n"));
	assert_non_null(strstr(csv, ",dma,8,,0,1\n"));
	assert_non_null(strstr(csv, ",debugfs,0,,,\n"));
	free(csv);
	/* how the runs asked, summed: every path met, named once */
	{
		struct ds_path p;
		char *t;

		ds_path_init(&p);
		for (size_t r = 0; r < ds.nruns; r++)
			ds_path_add_run(&p, &ds, r);
		t = ds_path_text(&p);
		assert_string_equal(t, "dma and debugfs, align 0-8, 1 from the buddy allocator");
		free(t);
		ds_path_init(&p);
		t = ds_path_text(&p);
		assert_string_equal(t, "-");
		free(t);
		/* asked at 0, the kernel aligned at 8 (a patch of one's own): both said */
		{
			struct ds_alloc a = { .align = 0, .kalign = 8, .from_area = -1 };

			strcpy(a.path, "debugfs");
			ds_path_add(&p, &a);
			t = ds_path_text(&p);
			assert_string_equal(t, "debugfs, align 8 (asked 0)");
			free(t);
		}
	}
	sb_free(&errs);
	dataset_free(&ds);
}

/*
 * pin-io's pages in the area: its closing statistics; without them (killed
 * before it printed, as an old log) the count its search printed; no log,
 * no pin-io (-1).
 */
static void test_pin_io(void **state)
{
	struct dataset ds;
	struct strbuf errs = { 0 };

	(void)state;
	assert_int_equal(dataset_load(&ds, TEST_DATA "/results/paths-fixture", &errs), 0);
	for (size_t r = 0; r < ds.nruns; r++) {
		const struct ds_run *run = &ds.runs[r];

		if (!strcmp(run->name, "cma-r1"))
			assert_int_equal(run->pinned_pages, 13298);
		else if (!strcmp(run->name, "cma-r2"))
			assert_int_equal(run->pinned_pages, 0);
		else
			assert_int_equal(run->pinned_pages, -1);
		for (size_t k = 0; k < run->problems.n; k++)
			assert_null(strstr(run->problems.v[k], "bg-pin-io.log"));
	}
	sb_free(&errs);
	dataset_free(&ds);
}

/*
 * Our readers against the requests, from their records: fill-fixture's
 * cma-r1 has one sample inside request 3 and a keeper that never stopped,
 * reading 19 s of its 20 s kept through every request (its 4 s of reading
 * during the fill, before the keeping, not counted; two windows that
 * overlap by 1 s counted once); paths-fixture's cma-r1 a keeper
 * reading across its stops, which cover every request (none overlapped);
 * runs without records say -1.
 */
static void test_readers(void **state)
{
	struct dataset ds;
	struct strbuf errs = { 0 };
	const struct ds_run *r;

	(void)state;
	assert_int_equal(dataset_load(&ds, TEST_DATA "/results/fill-fixture", &errs), 0);
	r = &ds.runs[0];
	assert_string_equal(r->name, "cma-r1");
	assert_int_equal(r->requests_timed, 10);
	assert_int_equal(r->sampler_overlaps, 1);
	assert_int_equal(r->keeper_overlaps, 10);
	assert_int_equal(r->reader_overlaps, 10);
	assert_int_equal(r->keeper_stopped_ns, 0);
	assert_int_equal(r->keeper_read_ns, 19000000000LL);
	assert_int_equal(r->quiet_windows, 10);
	assert_int_equal(ds.runs[1].requests_timed, -1);
	assert_int_equal(ds.runs[1].keeper_read_ns, -1);
	dataset_free(&ds);
	assert_int_equal(dataset_load(&ds, TEST_DATA "/results/paths-fixture", &errs), 0);
	for (size_t i = 0; i < ds.nruns; i++) {
		r = &ds.runs[i];
		if (strcmp(r->name, "cma-r1")) {
			assert_int_equal(r->keeper_overlaps, -1);
			continue;
		}
		assert_int_equal(r->sampler_overlaps, -1);
		assert_int_equal(r->keeper_overlaps, 0);
		assert_int_equal(r->reader_overlaps, 0);
		assert_int_equal(r->keeper_stopped_ns, 8500000LL + 60012100000LL + 120004100000LL);
		/* 0.5-70 s read, less its stops up to 70 s */
		assert_int_equal(r->keeper_read_ns,
				 69500000000LL - 8500000LL - 60012100000LL - 8984100000LL);
	}
	sb_free(&errs);
	dataset_free(&ds);
}

static void test_missing_dir(void **state)
{
	struct dataset ds;
	struct strbuf errs = { 0 };

	(void)state;
	assert_int_equal(dataset_load(&ds, TEST_DATA "/no-such-results", &errs), -1);
	assert_non_null(strstr(errs.buf, "no runs"));
	sb_free(&errs);
	dataset_free(&ds);
}

/* Pairing by (pid, name), in order; retries counted; faults kept. */
static void test_pairing(void **state)
{
	struct ds_kpairs p = { 0 };

	(void)state;
	/* pid 1: a normal allocation with 1 + 4 busy retries (a trace-cma.csv
	 * row stands for a run of retries) */
	ds_kpairs_event(&p, DS_KEV_START, 1, "reserved", 100, 1024);
	ds_kpairs_event(&p, DS_KEV_RETRY, 1, "reserved", 120, 1);
	ds_kpairs_event(&p, DS_KEV_RETRY, 1, "reserved", 130, 4);
	ds_kpairs_event(&p, DS_KEV_FINISH, 1, "reserved", 200, 0);
	/* pids 1 and 2 interleaved, one failing with -EBUSY */
	ds_kpairs_event(&p, DS_KEV_START, 1, "reserved", 300, 8);
	ds_kpairs_event(&p, DS_KEV_START, 2, "reserved", 310, 16);
	ds_kpairs_event(&p, DS_KEV_RETRY, 2, "reserved", 320, 1);
	ds_kpairs_event(&p, DS_KEV_FINISH, 1, "reserved", 350, 0);
	ds_kpairs_event(&p, DS_KEV_FINISH, 2, "reserved", 390, -16);
	/* a start whose finish is lost, followed by another start */
	ds_kpairs_event(&p, DS_KEV_START, 1, "reserved", 400, 4);
	ds_kpairs_event(&p, DS_KEV_START, 1, "reserved", 500, 4);
	ds_kpairs_event(&p, DS_KEV_FINISH, 1, "reserved", 550, 0);
	/* same pid, other area: its own pair */
	ds_kpairs_event(&p, DS_KEV_START, 1, "gcma", 600, 2);
	/* a finish and a retry with no start */
	ds_kpairs_event(&p, DS_KEV_FINISH, 3, "reserved", 700, 0);
	ds_kpairs_event(&p, DS_KEV_RETRY, 3, "reserved", 710, 1);
	ds_kpairs_end(&p);

	assert_int_equal(p.nk, 6);
	assert_true(p.k[0].finished && !p.k[0].unpaired);
	assert_int_equal(p.k[0].ts_end - p.k[0].ts_start, 100);
	assert_int_equal(p.k[0].retries, 5);
	assert_int_equal(p.k[0].count, 1024);
	assert_int_equal(p.k[1].ts_end - p.k[1].ts_start, 50);
	assert_int_equal(p.k[1].retries, 0);
	assert_int_equal(p.k[2].pid, 2);
	assert_int_equal(p.k[2].ts_end - p.k[2].ts_start, 80);
	assert_int_equal(p.k[2].retries, 1);
	assert_int_equal(p.k[2].errorno, -16);
	assert_true(p.k[3].unpaired && !p.k[3].finished);
	assert_true(p.k[4].finished && !p.k[4].unpaired);
	assert_int_equal(p.k[4].ts_end - p.k[4].ts_start, 50);
	assert_string_equal(p.k[5].name, "gcma");
	assert_true(p.k[5].unpaired);
	assert_int_equal(p.unpaired, 2);
	assert_int_equal(p.orphan_finish, 1);
	assert_int_equal(p.orphan_retry, 1);
	ds_kpairs_free(&p);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * perf stat -x, output (as perf 6.1 writes it) becomes perf/<background>
 * counters; the sampler's hits and misses give a hit rate per interval;
 * a background's fio JSON is read though fio wrote a line before it.
 */
static void test_perf(void **state)
{
	char dir[] = "/tmp/test-dataset-XXXXXX", path[256];
	struct dataset ds;
	struct strbuf errs = { 0 };
	const struct ds_counter *c;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/runs", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/runs/gcma-r1", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/runs/gcma-r1/status", dir);
	put_file(path, "ok\n");
	snprintf(path, sizeof(path), "%s/runs/gcma-r1/bg-fio-randread.perf", dir);
	put_file(path, "# started on Thu Dec  3 15:33:15 2026\n\n"
		 "1.62,msec,task-clock,1623672,100.00,0.007,CPUs utilized\n"
		 "5,,context-switches,1623672,100.00,3.079,K/sec\n"
		 "<not supported>,,cycles,0,100.00,,\n");
	snprintf(path, sizeof(path), "%s/runs/gcma-r1/bg-build.perf", dir);
	put_file(path, "# started on Thu Dec  3 15:33:15 2026\n\n");
	/* a background's fio JSON, with the line fio prints when stopped */
	snprintf(path, sizeof(path), "%s/runs/gcma-r1/bg-fio-randread.json", dir);
	put_file(path, "fio: terminating on signal 15\n{\"jobs\": [{\"jobname\": \"randread\", "
		 "\"read\": {\"iops\": 676.5, \"bw_bytes\": 2770944}}]}\n");
	/* 1 s samples: 30 hits and 10 misses in the second interval -> 75% */
	snprintf(path, sizeof(path), "%s/runs/gcma-r1/samples.csv", dir);
	put_file(path, "uptime,source,name,value\n"
		 "10.00,cleancache,hits,100\n10.00,cleancache,misses,50\n"
		 "11.00,cleancache,hits,100\n11.00,cleancache,misses,50\n"
		 "12.00,cleancache,hits,130\n12.00,cleancache,misses,60\n");

	assert_int_equal(dataset_load(&ds, dir, &errs), 0);
	c = counter(&ds, 0, "perf/fio-randread", "task-clock-us");
	assert_non_null(c);
	assert_int_equal(c->after, 1620);
	assert_string_equal(c->flags, "");
	c = counter(&ds, 0, "perf/fio-randread", "context-switches");
	assert_non_null(c);
	assert_int_equal(c->after, 5);
	c = counter(&ds, 0, "perf/fio-randread", "cycles");
	assert_non_null(c);
	assert_int_equal(c->after, DS_NONE);
	assert_string_equal(c->flags, "not-counted");
	{
		char *samples = dataset_samples_csv(&ds);

		assert_non_null(samples);
		assert_non_null(strstr(samples, "gcma-r1,gcma,1,2.00,cleancache.hits,130\n"
					"gcma-r1,gcma,1,2.00,cleancache.misses,60\n"
					"gcma-r1,gcma,1,2.00,cleancache.hit_rate_pct,75.00\n"));
		/* no lookups in the first interval: no rate; none before a previous sample */
		assert_null(strstr(samples, "1.00,cleancache.hit_rate_pct"));
		assert_null(strstr(samples, "0.00,cleancache.hit_rate_pct"));
		free(samples);
	}
	assert_int_equal(ds.nfios, 1);
	assert_string_equal(ds.fios[0].file, "bg-fio-randread.json");
	assert_string_equal(ds.fios[0].job, "randread");
	assert_true(ds.fios[0].read_iops > 676.4 && ds.fios[0].read_iops < 676.6);
	/* An empty file (perf killed before it printed) is a problem, named. */
	{
		bool named = false;

		for (size_t i = 0; i < ds.runs[0].problems.n; i++)
			named |= strstr(ds.runs[0].problems.v[i], "bg-build.perf: no counts") != NULL;
		assert_true(named);
	}
	dataset_free(&ds);
	sb_free(&errs);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

/* One run directory of a data set: its status and metadata.json. */
static void put_run(const char *dir, const char *name, const char *meta)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/runs/%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/runs/%s/status", dir, name);
	put_file(path, "ok\n");
	snprintf(path, sizeof(path), "%s/runs/%s/metadata.json", dir, name);
	put_file(path, meta);
}

static const struct ds_run *run_named(const struct dataset *ds, const char *name)
{
	for (size_t i = 0; i < ds->nruns; i++)
		if (!strcmp(ds->runs[i].name, name))
			return &ds->runs[i];
	fail_msg("no run %s", name);
	return NULL;
}

/*
 * disk_scale's divisor: metadata from before "disk_calibration" keeps its
 * number and no source; a measured one, one from history (a bare number
 * then: 1 round) and the scenario's key each say so.
 */
static void test_disk_calibration(void **state)
{
	char dir[] = "/tmp/test-dataset-XXXXXX", path[256];
	struct dataset ds;
	struct strbuf errs = { 0 };
	const struct ds_run *r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/runs", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	put_run(dir, "old-r1", "{\"section\": \"old\", \"disk\": \"emmc\", "
		"\"disk_scale\": 4.4}");
	put_run(dir, "cpu-r1", "{\"section\": \"cpu\", \"results_schema\": 2, "
		"\"disk\": \"emmc\", \"disk_scale\": 4.8, "
		"\"disk_calibration\": {\"source\": \"measured\", \"rounds\": 5, \"median\": 4.8, "
		"\"min\": 4.5, \"max\": 5.1, \"date\": \"2026-12-04T10:11:12Z\", \"host_load\": 0.25}}");
	put_run(dir, "hist-r1", "{\"section\": \"hist\", \"disk\": \"emmc\", \"disk_scale\": 4.79, "
		"\"disk_calibration\": {\"source\": \"history\", \"rounds\": 1, \"median\": 4.79, "
		"\"min\": 4.79, \"max\": 4.79}}");
	put_run(dir, "key-r1", "{\"section\": \"key\", \"disk\": \"ufs\", \"disk_scale\": 2.5, "
		"\"disk_calibration\": {\"source\": \"key\"}}");
	assert_int_equal(dataset_load(&ds, dir, &errs), 0);
	r = run_named(&ds, "old-r1");
	/* no results_schema: the first one */
	assert_int_equal(r->results_schema, 1);
	assert_int_equal(run_named(&ds, "cpu-r1")->results_schema, 2);
	assert_int_equal(r->disk_calib.source, CALIB_NONE);
	assert_true(r->disk_scale == 4.4);
	r = run_named(&ds, "cpu-r1");
	assert_int_equal(r->disk_calib.source, CALIB_MEASURED);
	assert_int_equal(r->disk_calib.rounds, 5);
	assert_true(r->disk_calib.min == 4.5 && r->disk_calib.max == 5.1);
	assert_true(r->disk_calib.load == 0.25);
	assert_string_equal(r->disk_calib.date, "2026-12-04T10:11:12Z");
	r = run_named(&ds, "hist-r1");
	assert_int_equal(r->disk_calib.source, CALIB_HISTORY);
	assert_int_equal(r->disk_calib.rounds, 1);
	assert_string_equal(r->disk_calib.date, "");
	r = run_named(&ds, "key-r1");
	assert_int_equal(r->disk_calib.source, CALIB_KEY);
	assert_true(r->disk_scale == 2.5);
	dataset_free(&ds);
	sb_free(&errs);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

static size_t count(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/*
 * tests/data/trace/two-buffers.dat: a cma-regime run (1 vCPU, 12 requests
 * of 1024-16384 pages) traced as the guest does now, each request's start
 * and finish in the top buffer, busy retries in the "detail" instance.
 * `trace-cmd report` of it lists 34,300 busy retries, all in detail, 8,575
 * in each 16384-page request: the export reads both buffers in time order.
 */
static void test_two_buffers(void **state)
{
	char tmp[] = "/tmp/test-dataset-XXXXXX", *cmd, *csv, *text;
	struct strbuf errs = { 0 };
	size_t starts, finishes, retries;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	cmd = xasprintf("cp %s/trace/two-buffers.dat %s/trace.dat", TEST_DATA, tmp);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(dataset_export_trace(tmp, &errs), 0);
	csv = xasprintf("%s/trace-cma.csv", tmp);
	text = read_file(csv, NULL);
	assert_non_null(text);
	starts = count(text, ",start,reserved,");
	finishes = count(text, ",finish,reserved,");
	retries = count(text, ",retry,reserved,8575\n");
	assert_int_equal(starts, 12);
	assert_int_equal(finishes, 12);
	assert_int_equal(retries, 4);
	assert_non_null(strstr(text, ",-1,cpuend,main,0\n"));
	assert_non_null(strstr(text, ",-1,cpuend,detail,0\n"));
	free(text);
	free(csv);
	sb_free(&errs);
	cmd = xasprintf("rm -rf %s", tmp);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/*
 * The text copy of a trace gives the same data set as trace.dat itself:
 * the fixture with trace.dat, and a copy with trace-cma.csv only.
 */
static void test_trace_export(void **state)
{
	char tmp[] = "/tmp/test-dataset-XXXXXX", cmd[512];
	struct dataset a, b;
	struct strbuf errs = { 0 };
	char *run, *csv_a, *csv_b, *text;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	snprintf(cmd, sizeof(cmd), "cp -r %s %s/", fixture, tmp);
	assert_int_equal(system(cmd), 0);
	/* The export from trace.dat gives back the committed text copy. */
	snprintf(cmd, sizeof(cmd), "rm %s/smoke-fixture/runs/vanilla-r1/trace-cma.csv", tmp);
	assert_int_equal(system(cmd), 0);
	run = xasprintf("%s/smoke-fixture/runs/vanilla-r1", tmp);
	assert_int_equal(dataset_export_trace(run, &errs), 0);
	text = xasprintf("%s/trace-cma.csv", run);
	free(run);
	run = read_file(text, NULL);
	assert_non_null(run);
	assert_non_null(strstr(run, "ts_ns,pid,event,name,value\n"));
	assert_non_null(strstr(run, ",start,reserved,1024\n"));
	assert_non_null(strstr(run, ",finish,reserved,0\n"));
	free(run);
	free(text);
	snprintf(cmd, sizeof(cmd), "rm %s/smoke-fixture/runs/vanilla-r1/trace.dat", tmp);
	assert_int_equal(system(cmd), 0);

	assert_int_equal(dataset_load(&a, fixture, &errs), 0);
	text = xasprintf("%s/smoke-fixture", tmp);
	assert_int_equal(dataset_load(&b, text, &errs), 0);
	free(text);
	csv_a = dataset_alloc_csv(&a);
	csv_b = dataset_alloc_csv(&b);
	assert_string_equal(csv_a, csv_b);
	assert_true(b.runs[0].has_trace || b.runs[1].has_trace);
	/* A corrupt trace.dat cannot be exported: an error, and a CSV of no event. */
	snprintf(cmd, sizeof(cmd), "echo junk > %s/smoke-fixture/runs/vanilla-r1/trace.dat", tmp);
	assert_int_equal(system(cmd), 0);
	run = xasprintf("%s/smoke-fixture/runs/vanilla-r1", tmp);
	assert_int_equal(dataset_export_trace(run, &errs), -1);
	assert_non_null(strstr(errs.buf, "cannot be read"));
	free(run);
	text = xasprintf("%s/smoke-fixture/runs/vanilla-r1/trace-cma.csv", tmp);
	run = read_file(text, NULL);
	assert_string_equal(run, "ts_ns,pid,event,name,value\n");
	free(run);
	free(text);
	free(csv_a);
	free(csv_b);
	dataset_free(&a);
	dataset_free(&b);
	sb_free(&errs);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_allocs),
		cmocka_unit_test(test_fio_counters),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_missing_dir),
		cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_two_buffers),
		cmocka_unit_test(test_perf),
		cmocka_unit_test(test_disk_calibration),
		cmocka_unit_test(test_trace_export),
		cmocka_unit_test(test_refill_wait),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_pin_io),
		cmocka_unit_test(test_readers),
	};

	return cmocka_run_group_tests_name("dataset", tests, NULL, NULL);
}
