/* Run plans: kernel command lines and guest steps per set-up, --only, repetitions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/plan.h"

static const struct scn_ctx ctx = { .fio_dir = TEST_DATA "/fio" };

static void load(struct scenario *s)
{
	struct strbuf errs = { 0 };
	char *p = xasprintf("%s/scenarios/good.scn", TEST_DATA);

	if (scenario_load(p, &ctx, s, &errs))
		fail_msg("%s", errs.buf);
	sb_free(&errs);
	free(p);
}

static void test_expand(void **state)
{
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };

	(void)state;
	load(&s);
	/* the file's order (order-seed=0) */
	for (size_t i = 0; i < s.nruns; i++)
		s.runs[i].order_seed = 0;
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	/* plain, big x2, noarea; repetition-major: every section's r1 first */
	assert_int_equal(plan.n, 4);
	assert_string_equal(plan.runs[0].name, "plain-r1");
	assert_string_equal(plan.runs[1].name, "big-r1");
	assert_string_equal(plan.runs[2].name, "noarea-r1");
	assert_string_equal(plan.runs[3].name, "big-r2");
	assert_non_null(strstr(plan.runs[0].cmdline, " cma=32M"));
	assert_non_null(strstr(plan.runs[1].cmdline, " cma=256M"));
	assert_null(strstr(plan.runs[2].cmdline, "cma="));
	assert_non_null(strstr(plan.runs[0].steps, "area reserved\n"));
	/* the allocation plan by name: the alloc-* keys, seed and fill (durations in s) */
	assert_non_null(strstr(plan.runs[0].steps, "\nenv CMB_ALLOC_COUNT 3\n"));
	assert_non_null(strstr(plan.runs[0].steps, "\nenv CMB_ALLOC_PAGES 1,512,1024\n"));
	assert_non_null(strstr(plan.runs[0].steps, "\nenv CMB_ALLOC_BURST 1\n"));
	assert_non_null(strstr(plan.runs[0].steps, "\nenv CMB_ALLOC_HOLD 0\n"));
	assert_non_null(strstr(plan.runs[0].steps, "\nenv CMB_SEED 1\n"));
	assert_non_null(strstr(plan.runs[0].steps, "\nenv CMB_ALLOC_TIMEOUT 60\n"));
	assert_non_null(strstr(plan.runs[0].steps, "\nenv CMB_ALLOC_PASSES 1\n"));
	assert_non_null(strstr(plan.runs[0].steps, "\nalloc\n"));
	assert_non_null(strstr(plan.runs[0].steps, "fio read.fio FIO_RUNTIME=10 FIO_SIZE=64M\n"));
	/* no area: no allocation step */
	assert_null(strstr(plan.runs[2].steps, "alloc"));
	/* fio lays its own files out in the guest: nothing for the host to write */
	assert_null(plan.runs[0].layout);
	assert_int_equal(plan.runs[1].mem_mib, 1024);
	plan_free(&plan);
	scenario_free(&s);
	sb_free(&errs);
}

/*
 * Shuffled per repetition: each repetition holds every section once, the
 * orders differ between repetitions, the same seed gives the same plan,
 * and each run knows its seed and place.
 */
static void test_shuffled_order(void **state)
{
	struct scenario s;
	struct plan a = { 0 }, b = { 0 };
	struct strbuf errs = { 0 };
	size_t differ = 0, first_plain = 0;

	(void)state;
	load(&s);
	assert_int_equal(scenario_override(&s, "repeat=12", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "order-seed=7", &ctx, &errs), 0);
	assert_int_equal(plan_add(&a, &s, NULL, &errs), 0);
	assert_int_equal(plan_add(&b, &s, NULL, &errs), 0);
	assert_int_equal(a.n, 12 * s.nruns);
	for (size_t rep = 0; rep < 12; rep++) {
		const struct run *r = &a.runs[rep * s.nruns];

		for (size_t k = 0; k < s.nruns; k++) {
			/* repetition-major, a permutation of the sections, places 1..n */
			assert_int_equal(r[k].rep, (long)rep + 1);
			assert_int_equal(r[k].order_pos, (int)k + 1);
			assert_int_equal(r[k].order_seed, 7);
			for (size_t m = 0; m < k; m++)
				assert_string_not_equal(r[k].spec->section, r[m].spec->section);
			assert_string_equal(r[k].name, b.runs[rep * s.nruns + k].name);
		}
		differ += strcmp(r[0].spec->section, a.runs[0].spec->section) != 0;
		first_plain += !strcmp(r[0].spec->section, "plain");
	}
	/* not the same order every time, and no section always first */
	assert_true(differ > 0);
	assert_true(first_plain < 12);
	plan_free(&a);
	plan_free(&b);
	scenario_free(&s);
	sb_free(&errs);
}

/*
 * --kernels vanilla,gcma: every section once per kernel, named
 * SECTION.KERNEL, the kernels interleaved in each repetition, the first
 * kernel's first section the baseline, the primaries between the kernels.
 */
static void test_kernels(void **state)
{
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };
	struct strlist k = { 0 };
	size_t mixed = 0;

	(void)state;
	load(&s);
	assert_int_equal(scenario_override(&s, "primary=user-p50@512:plain/big", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "repeat=6", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "order-seed=3", &ctx, &errs), 0);
	sl_add(&k, "vanilla");
	sl_add(&k, "gcma");
	assert_int_equal(scenario_kernels(&s, &k, NULL, &ctx, &errs), 0);
	assert_int_equal(s.nruns, 6);
	assert_string_equal(s.runs[0].section, "plain.vanilla");
	assert_string_equal(s.runs[0].kernel, "vanilla");
	assert_string_equal(s.runs[1].section, "plain.gcma");
	assert_string_equal(s.runs[1].kernel, "gcma");
	assert_string_equal(s.runs[5].section, "noarea.gcma");
	/* what each section set stays its own */
	assert_int_equal(s.runs[3].memory, 1ULL << 30);
	assert_string_equal(s.runs[4].baseline, "plain.vanilla");
	assert_string_equal(s.runs[2].primary,
			    "user-p50@512:plain.vanilla/plain.gcma, user-p50@512:big.vanilla/big.gcma");
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	assert_int_equal(plan.n, 6 * 6);
	for (size_t rep = 0; rep < 6; rep++) {
		const struct run *r = &plan.runs[rep * 6];
		size_t first_vanilla = 6, last_vanilla = 0;

		/* each repetition runs every section under both kernels */
		for (size_t i = 0; i < 6; i++) {
			for (size_t m = 0; m < i; m++)
				assert_string_not_equal(r[i].spec->section, r[m].spec->section);
			if (!strcmp(r[i].spec->kernel, "vanilla")) {
				first_vanilla = i < first_vanilla ? i : first_vanilla;
				last_vanilla = i;
			}
		}
		/* interleaved: the kernels' runs are not two blocks */
		mixed += last_vanilla - first_vanilla >= 3;
	}
	assert_true(mixed > 0);
	plan_free(&plan);
	scenario_free(&s);
	/* a kernel named twice, or one that is no variant, is refused */
	load(&s);
	sl_free(&k);
	sl_add(&k, "vanilla");
	sl_add(&k, "vanilla");
	assert_int_equal(scenario_kernels(&s, &k, NULL, &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "'vanilla' is named twice"));
	scenario_free(&s);
	load(&s);
	sl_free(&k);
	sl_add(&k, "vanilla");
	sl_add(&k, "no-such-kernel");
	assert_true(scenario_kernels(&s, &k, NULL, &ctx, &errs) > 0);
	assert_non_null(strstr(errs.buf, "no-such-kernel"));
	scenario_free(&s);
	/* --only names the scenario's own sections, before they are doubled */
	load(&s);
	sl_free(&k);
	sl_add(&k, "vanilla");
	sl_add(&k, "gcma");
	{
		struct strlist only = { 0 };

		sl_add(&only, "big");
		assert_int_equal(scenario_kernels(&s, &k, &only, &ctx, &errs), 0);
		assert_int_equal(s.nruns, 2);
		assert_string_equal(s.runs[1].section, "big.gcma");
		assert_string_equal(s.runs[1].baseline, "big.vanilla");
		sl_free(&only);
	}
	scenario_free(&s);
	sl_free(&k);
	sb_free(&errs);
}

static void test_setups(void **state)
{
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };

	(void)state;
	load(&s);
	assert_int_equal(scenario_override(&s, "kernel=gcma", &ctx, &errs), 0);
	/* [noarea]'s sweep is larger than any area: refused once it gets one */
	assert_int_equal(scenario_override(&s, "setup=gcma", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "999999 pages exceed the area (8192 pages) (in [noarea])"));
	assert_int_equal(scenario_override(&s, "alloc-pages=16", &ctx, &errs), 0);
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	/* the default area, as cma= makes its own (alloc-path's heap and dma) */
	assert_non_null(strstr(plan.runs[0].cmdline, " gcma=32M,default"));
	assert_non_null(strstr(plan.runs[0].steps, "area gcma\n"));
	plan_free(&plan);
	assert_int_equal(scenario_override(&s, "setup=carveout", &ctx, &errs), 0);
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	assert_null(strstr(plan.runs[0].cmdline, "cma="));
	assert_int_equal(plan.runs[0].mem_mib, 256 - 32);
	plan_free(&plan);
	scenario_free(&s);
	sb_free(&errs);
}

static void test_only(void **state)
{
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };
	struct strlist only = { 0 };

	(void)state;
	load(&s);
	sl_add(&only, "big");
	assert_int_equal(plan_add(&plan, &s, &only, &errs), 0);
	assert_int_equal(plan.n, 2);
	plan_free(&plan);
	sl_free(&only);
	sl_add(&only, "nosuch");
	assert_int_equal(plan_add(&plan, &s, &only, &errs), 1);
	assert_non_null(strstr(errs.buf, "no section matches --only"));
	plan_free(&plan);
	sl_free(&only);
	scenario_free(&s);
	sb_free(&errs);
}

/* Backgrounds, a timed job and an allocation loop become the guest's steps, in order. */
static void test_workload_steps(void **state)
{
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };
	char *p = xasprintf("%s/scenarios/workloads.scn", TEST_DATA);
	const char *want[] = {
		"run prepare-pin-io dd if=/dev/zero of=/mnt/scratch/pin-io.dat bs=1M count=16\n",
		"bg fio-read $(perf_prefix bg-fio-read) env FIO_RUNTIME=300 FIO_SIZE=64M fio "
		"--eta=never --output-format=json --output=$R/bg-fio-read.json $P/read.fio "
		"> $R/bg-fio-read.log 2>&1\n",
		"bg hog anon-hog --percent 50 > $R/bg-hog.log 2>&1\n",
		"bg pin-io pin-io --area reserved --mb 64 --mode vmsplice --file "
		"/mnt/scratch/pin-io.dat > $R/bg-pin-io.log 2>&1\n",
		"bg build $(perf_prefix bg-build) build-sim run --dir /mnt/scratch/build --files 10 "
		"--jobs 2 --work 32 --loop > $R/bg-build.log 2>&1\n",
		"bg alloc cma-alloc --area reserved --count 10 --pages 16,32 --burst 4 --hold-ms 0 "
		"--interval-ms 20 --jitter-ms 5 --seed 1 --timeout-ms 60000 --path debugfs --loop "
		"--out $R/alloc.csv "
		"> $R/bg-alloc.log 2>&1\n",
		"bg sampler sampler --area \"$AREA\" --lock /tmp/readers.lock "
		"--windows $R/sampler-windows.csv > $R/samples.csv 2>/dev/null\n",
		"snapshot before\n",
		"job build build-sim run --dir /mnt/scratch/build --files 10 --jobs 2 --work 32 "
			"--headers-mb 0 --includes 8 --times $R/jobtime.csv --name build\n",
		"snapshot after\n",
		"bg-stop\n",
	};
	const char *at;

	(void)state;
	if (scenario_load(p, &ctx, &s, &errs))
		fail_msg("%s", errs.buf);
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	at = plan.runs[0].steps;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *hit = strstr(at, want[i]);

		if (!hit)
			fail_msg("step '%s' missing or out of order in:\n%s", want[i], plan.runs[0].steps);
		at = hit + strlen(want[i]);
	}
	/* the build's tree is written on the host (the layout), not by the guest */
	assert_string_equal(plan.runs[0].layout,
			    "build-sim prepare --dir build --files 10 --headers-mb 0\n");
	assert_null(strstr(plan.runs[0].steps, "prepare-build"));
	/* the plan runs in the background: no foreground allocation, no warmup step */
	assert_null(strstr(plan.runs[0].steps, "\nalloc "));
	assert_null(strstr(plan.runs[0].steps, "warmup"));
	plan_free(&plan);
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

/*
 * The background list is parsed once: "hog, fio:read.fio" ships read.fio;
 * job files named alloc-heavy.fio or build.fio are fio jobs, not the alloc
 * or build workloads (the foreground still allocates, no build is laid out).
 */
static void test_background_names(void **state)
{
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };
	struct strlist files = { 0 };
	char *p = xasprintf("%s/scenarios/bg-names.scn", TEST_DATA);

	(void)state;
	if (scenario_load(p, &ctx, &s, &errs))
		fail_msg("%s", errs.buf);
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	assert_int_equal(plan.n, 2);
	plan_files(&plan.runs[0], &files);
	assert_int_equal(files.n, 1);
	assert_string_equal(files.v[0], "workloads/fio/read.fio");
	assert_non_null(strstr(plan.runs[0].steps, "bg fio-read "));
	assert_non_null(strstr(plan.runs[0].steps, "bg hog "));
	sl_free(&files);
	plan_files(&plan.runs[1], &files);
	assert_int_equal(files.n, 2);
	assert_string_equal(files.v[0], "workloads/fio/alloc-heavy.fio");
	assert_string_equal(files.v[1], "workloads/fio/build.fio");
	assert_non_null(strstr(plan.runs[1].steps, "\nenv CMB_ALLOC_COUNT 2\n"));
	assert_non_null(strstr(plan.runs[1].steps, "\nenv CMB_ALLOC_PAGES 16\n"));
	assert_non_null(strstr(plan.runs[1].steps, "\nalloc\n"));
	assert_null(strstr(plan.runs[1].steps, "bg alloc"));
	assert_null(strstr(plan.runs[1].steps, "prepare-build"));
	assert_string_equal(plan.runs[1].allocations, "traced");
	sl_free(&files);
	plan_free(&plan);
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

/* With a fill, the allocation loop of a background starts once the area is full. */
static void test_fill_before_alloc_loop(void **state)
{
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };
	char *p = xasprintf("%s/scenarios/workloads.scn", TEST_DATA);
	const char *fill, *loop;

	(void)state;
	if (scenario_load(p, &ctx, &s, &errs))
		fail_msg("%s", errs.buf);
	assert_int_equal(scenario_override(&s, "scratch=2G", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "fill=90", &ctx, &errs), 0);
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	fill = strstr(plan.runs[0].steps, "\nfill 90 ");
	loop = strstr(plan.runs[0].steps, "\nbg alloc ");
	assert_non_null(fill);
	assert_non_null(loop);
	assert_true(fill < loop);
	assert_true(strstr(plan.runs[0].steps, "\nbg hog ") < fill);
	plan_free(&plan);
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

/*
 * alloc-refill: the foreground driver's plan carries the wait and its target
 * (the fill), a background driver its options; without a fill the key is an
 * error that names it.
 */
static void test_alloc_refill(void **state)
{
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };
	char *p = xasprintf("%s/scenarios/workloads.scn", TEST_DATA);

	(void)state;
	load(&s);
	assert_int_equal(scenario_override(&s, "scratch=2G", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "fill=90", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "alloc-refill=5s", &ctx, &errs), 0);
	/* the file's order (order-seed=0) */
	for (size_t i = 0; i < s.nruns; i++)
		s.runs[i].order_seed = 0;
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	assert_non_null(strstr(plan.runs[0].steps, "\nenv CMB_ALLOC_REFILL 5\n"));
	assert_non_null(strstr(plan.runs[0].steps, "\nenv CMB_FILL 90\n"));
	assert_non_null(strstr(plan.runs[0].steps, "\nalloc\n"));
	plan_free(&plan);
	scenario_free(&s);

	if (scenario_load(p, &ctx, &s, &errs))
		fail_msg("%s", errs.buf);
	assert_int_equal(scenario_override(&s, "scratch=2G", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "fill=80", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "alloc-refill=2s", &ctx, &errs), 0);
	plan = (struct plan){ 0 };
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	assert_non_null(strstr(plan.runs[0].steps, "--timeout-ms 60000 --wait-target 80 "
			       "--wait-max-ms 2000 --pause-pidfile /tmp/fill.pid --path debugfs --loop "));
	plan_free(&plan);
	/* the path and its alignment: the background driver's options, and
	 * the foreground's env lines */
	assert_int_equal(scenario_override(&s, "kernel=gcma", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "alloc-align=1", &ctx, &errs), 0);
	plan = (struct plan){ 0 };
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	assert_non_null(strstr(plan.runs[0].steps, "--path debugfs --align 1 --loop "));
	assert_non_null(strstr(plan.runs[0].steps, "env CMB_ALLOC_PATH debugfs\n"));
	assert_non_null(strstr(plan.runs[0].steps, "env CMB_ALLOC_ALIGN 1\n"));
	plan_free(&plan);
	scenario_free(&s);

	load(&s);
	assert_int_not_equal(scenario_override(&s, "alloc-refill=5s", &ctx, &errs), 0);
	assert_non_null(strstr(errs.buf, "alloc-refill"));
	assert_non_null(strstr(errs.buf, "needs fill"));
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

/*
 * swap: a step right after the scratch disk is mounted (a swap file lives
 * there), none without the key; a swap file that does not fit the scratch
 * disk and a zram as large as memory are errors naming the key.
 */
static void test_swap(void **state)
{
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };

	(void)state;
	load(&s);
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	assert_null(strstr(plan.runs[0].steps, "\nswap "));
	plan_free(&plan);
	assert_int_equal(scenario_override(&s, "swap=128M", &ctx, &errs), 0);
	plan = (struct plan){ 0 };
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	assert_non_null(strstr(plan.runs[0].steps, "scratch /dev/vdb\nswap 128 disk\n"));
	plan_free(&plan);
	assert_int_equal(scenario_override(&s, "swap-device=zram", &ctx, &errs), 0);
	plan = (struct plan){ 0 };
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	assert_non_null(strstr(plan.runs[0].steps, "scratch /dev/vdb\nswap 128 zram\n"));
	plan_free(&plan);
	assert_int_not_equal(scenario_override(&s, "swap=4G", &ctx, &errs), 0);
	assert_non_null(strstr(errs.buf, "swap: zram of 4096 MiB (uncompressed) must be less than "
			       "the guest's memory"));
	scenario_free(&s);
	sb_free(&errs);
	sb_init(&errs);
	load(&s);
	assert_int_not_equal(scenario_override(&s, "swap=4G", &ctx, &errs), 0);
	assert_non_null(strstr(errs.buf, "swap: a swap file of 4096 MiB does not fit the scratch "
			       "disk"));
	assert_int_not_equal(scenario_override(&s, "swap-device=floppy", &ctx, &errs), 0);
	assert_non_null(strstr(errs.buf, "swap-device"));
	scenario_free(&s);
	sb_free(&errs);
}

/* The jobs' command lines as their rows write them (scenario/job.c). */
#define BUILD_1000 "build-sim run --dir /mnt/scratch/build --files 1000 --jobs 2 --work 32 " \
	"--headers-mb 32 --includes 12 --times $R/jobtime.csv --name build"
#define APPS_12 "app-switch run --dir /mnt/scratch/apps --apps 12 --launches 100 --keep 4 " \
	"--heap-mb 32 --dwell-ms 500 --seed 1 --out $R/launches.csv --times $R/jobtime.csv " \
	"--name apps"

/*
 * A job and a foreground plan: in a set-up with an area the plan runs
 * beside the job (started, the traced allocations, waited for), made
 * alloc-passes times after alloc-start; without an area the job runs
 * alone; the headers reach the host's layout and the job's line.
 */
static void test_job_beside_plan(void **state)
{
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };
	const char *cma = NULL, *none = NULL;

	(void)state;
	load(&s);
	for (size_t i = 0; i < s.nruns; i++)
		s.runs[i].order_seed = 0;
	assert_int_equal(scenario_override(&s, "job=build", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "build-headers=32M", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "build-includes=12", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "alloc-passes=4", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "alloc-start=3s", &ctx, &errs), 0);
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	for (size_t i = 0; i < plan.n; i++) {
		if (strstr(plan.runs[i].steps, "area reserved") && !cma)
			cma = plan.runs[i].steps;
		if (!strstr(plan.runs[i].steps, "\narea ") && !none)
			none = plan.runs[i].steps;
	}
	assert_non_null(cma);
	assert_non_null(none);
	for (size_t i = 0; i < plan.n; i++)
		assert_string_equal(plan.runs[i].layout,
				    "build-sim prepare --dir build --files 1000 --headers-mb 32\n");
	assert_null(strstr(cma, "prepare-build"));
	assert_non_null(strstr(cma, "\njob-start build " BUILD_1000 "\nalloc\n"
				    "job-wait build\nsnapshot after\n"));
	assert_non_null(strstr(cma, "\nenv CMB_ALLOC_PASSES 4\n"));
	assert_non_null(strstr(cma, "\nenv CMB_ALLOC_START 3\n"));
	assert_null(strstr(cma, "\njob build"));
	assert_non_null(strstr(none, "\njob build " BUILD_1000 "\nsnapshot after\n"));
	assert_null(strstr(none, "job-start"));
	plan_free(&plan);

	/* job=apps: app-switch's files laid out, its run as the job */
	assert_int_equal(scenario_override(&s, "job=apps", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "app-count=12", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "app-dwell=500ms", &ctx, &errs), 0);
	plan = (struct plan){ 0 };
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	cma = none = NULL;
	for (size_t i = 0; i < plan.n; i++) {
		if (strstr(plan.runs[i].steps, "area reserved") && !cma)
			cma = plan.runs[i].steps;
		if (!strstr(plan.runs[i].steps, "\narea ") && !none)
			none = plan.runs[i].steps;
	}
	for (size_t i = 0; i < plan.n; i++)
		assert_string_equal(plan.runs[i].layout, "app-switch prepare --dir apps --apps 12 "
				    "--code-kb 16384 --assets-kb 8192\n");
	assert_null(strstr(cma, "prepare-apps"));
	assert_non_null(strstr(cma, "\njob-start apps " APPS_12 "\nalloc\n"));
	assert_non_null(strstr(cma, "\njob-wait apps\n"));
	assert_non_null(strstr(none, "\njob apps " APPS_12 "\nsnapshot after\n"));
	plan_free(&plan);
	scenario_free(&s);
	sb_free(&errs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_shuffled_order),
		cmocka_unit_test(test_setups),
		cmocka_unit_test(test_only),
		cmocka_unit_test(test_workload_steps),
		cmocka_unit_test(test_background_names),
		cmocka_unit_test(test_fill_before_alloc_loop),
		cmocka_unit_test(test_alloc_refill),
		cmocka_unit_test(test_swap),
		cmocka_unit_test(test_job_beside_plan),
		cmocka_unit_test(test_kernels),
	};

	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
