/* Scenario files: good files parse with inheritance; each bad one is refused with file:line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>

#include "scenario/disk.h"
#include "scenario/scenario.h"
#include "run/vm.h"

static const struct scn_ctx ctx = { .fio_dir = TEST_DATA "/fio" };

static char *data(const char *name)
{
	return xasprintf("%s/scenarios/%s", TEST_DATA, name);
}

static void test_good(void **state)
{
	struct scenario s;
	struct strbuf errs = { 0 };
	char *p = data("good.scn");

	(void)state;
	assert_int_equal(scenario_load(p, &ctx, &s, &errs), 0);
	assert_string_equal(s.name, "good");
	assert_int_equal(s.nruns, 3);
	/* [plain] inherits [global] */
	assert_string_equal(s.runs[0].section, "plain");
	assert_int_equal(s.runs[0].area, 32ull << 20);
	assert_int_equal(s.runs[0].memory, 256ull << 20);
	assert_int_equal(s.runs[0].setup, SETUP_CMA);
	assert_int_equal(s.runs[0].nalloc_pages, 3);
	assert_int_equal(s.runs[0].alloc_pages[1], 512);
	assert_string_equal(s.runs[0].kernel, "vanilla");
	assert_string_equal(s.runs[0].fio, "read.fio");
	/* [big] overrides */
	assert_int_equal(s.runs[1].memory, 1ull << 30);
	assert_int_equal(s.runs[1].repeat, 2);
	assert_int_equal(s.runs[1].cpus, 2);
	assert_true(s.runs[1].timeout == 90.0);
	/* without an area, a sweep larger than any area is not an error */
	assert_int_equal(s.runs[2].setup, SETUP_NONE);
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

/* Each bad file: exactly the expected "file:line: key:" prefix appears. */
static void expect_error(const char *file, const char *where, const char *words)
{
	struct scenario s;
	struct strbuf errs = { 0 };
	char *p = data(file);
	char *prefix = xasprintf("%s:%s", p, where);

	assert_true(scenario_load(p, &ctx, &s, &errs) > 0);
	if (!strstr(errs.buf, prefix) || !strstr(errs.buf, words))
		fail_msg("%s: expected '%s' ... '%s', got: %s", file, prefix, words, errs.buf);
	scenario_free(&s);
	sb_free(&errs);
	free(prefix);
	free(p);
}

/* The primary comparisons: parsed, @all expanded, sections checked. */
static void test_primary(void **state)
{
	struct scenario s;
	struct strbuf errs = { 0 };
	struct primaries ps;
	const char *why = NULL;
	char *p = data("good.scn");
	static const char *const bad[][2] = {
		{ "user-p50:a/b", "needs @PAGES" },
		{ "burst-p50@5:a/b", "gives a size" },
		{ "speed:a/b", "unknown metric" },
		{ "user-p50@all:a/a", "two different sections" },
		{ "user-p50@x:a/b", "not a number of pages" },
		{ "user-p50@1", "not METRIC[@PAGES]:A/B" },
	};

	(void)state;
	assert_int_equal(scenario_load(p, &ctx, &s, &errs), 0);
	assert_int_equal(scenario_override(&s, "primary=user-p50@all:plain/big, burst-p50:plain/noarea",
					   &ctx, &errs), 0);
	assert_int_equal(primaries_parse(s.runs[0].primary, s.runs[0].alloc_pages,
					 s.runs[0].nalloc_pages, &ps, &why), 0);
	assert_int_equal(ps.n, s.runs[0].nalloc_pages + 1);
	assert_string_equal(ps.v[0].metric, "user-p50");
	assert_int_equal(ps.v[0].pages, s.runs[0].alloc_pages[0]);
	assert_true(ps.v[0].ratio);
	assert_string_equal(ps.v[0].a, "plain");
	assert_string_equal(ps.v[0].b, "big");
	assert_string_equal(ps.v[ps.n - 1].metric, "burst-p50");
	assert_int_equal(ps.v[ps.n - 1].pages, 0);
	primaries_free(&ps);
	/* a section the scenario does not have */
	assert_int_not_equal(scenario_override(&s, "primary=user-p50@1:plain/nosuch", &ctx, &errs), 0);
	assert_non_null(strstr(errs.buf, "primary: 'nosuch' is not a section of this scenario"));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		assert_int_equal(primaries_parse(bad[i][0], NULL, 0, &ps, &why), -1);
		if (!why || !strstr(why, bad[i][1]))
			fail_msg("%s: '%s', expected '%s'", bad[i][0], why ? why : "", bad[i][1]);
	}
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

/* alloc-path and alloc-align: what each path can do, named at its line. */
static void test_alloc_path_errors(void **state)
{
	(void)state;
	expect_error("align-not-debugfs.scn", "4: alloc-align:", "only with alloc-path=debugfs");
	expect_error("align-on-vanilla.scn", "4: alloc-align:", "has no debugfs alloc_align");
	expect_error("dma-one-page.scn", "5: alloc-pages:", "one-page requests never reach CMA");
	expect_error("bad-path.scn", "4: alloc-path:", "heap");
	expect_error("bad-align.scn", "4: alloc-align:", "is not an order (0-30) or dma");
}

static void test_typo_key(void **state)
{
	(void)state;
	expect_error("typo-key.scn", "3: memroy:", "unknown key");
}

static void test_bad_unit(void **state)
{
	(void)state;
	expect_error("bad-unit.scn", "2: area:", "needs a unit");
}

static void test_bad_duration(void **state)
{
	(void)state;
	expect_error("bad-duration.scn", "2: timeout:", "unknown unit");
}

static void test_area_too_big(void **state)
{
	(void)state;
	expect_error("area-too-big.scn", "5: area:", "leaves less than 96 MiB");
}

static void test_sweep_too_big(void **state)
{
	(void)state;
	expect_error("sweep-too-big.scn", "5: alloc-pages:", "8192 pages exceed the area (4096 pages)");
}

static void test_gcma_on_vanilla(void **state)
{
	(void)state;
	expect_error("gcma-on-vanilla.scn", "5: setup:", "needs a kernel that offers gcma");
}

static void test_debug_on_arm64(void **state)
{
	(void)state;
	expect_error("debug-on-arm64.scn", "4: kernel:", "gcma-debug is for x86_64 only (arch arm64)");
}

static void test_missing_fio_job(void **state)
{
	(void)state;
	expect_error("no-fio-job.scn", "2: fio:", "no job file");
}

static void test_duplicate_section(void **state)
{
	(void)state;
	expect_error("dup-section.scn", "3:", "appears twice (first at line 1)");
}

static void test_no_equals(void **state)
{
	(void)state;
	expect_error("no-equals.scn", "2:", "expected key=value");
}

static void test_bad_kernel(void **state)
{
	(void)state;
	expect_error("bad-kernel.scn", "2: kernel:", "not a kernel variant");
}

static void test_bad_background(void **state)
{
	(void)state;
	expect_error("bad-background.scn", "2: background:", "unknown workload");
}

static void test_pin_without_area(void **state)
{
	(void)state;
	expect_error("pin-no-area.scn", "3: background:", "pin-io needs an area");
}

static void test_alloc_background_without_job(void **state)
{
	(void)state;
	expect_error("alloc-bg-no-job.scn", "2: background:", "needs a foreground job");
}

static void test_jitter_above_interval(void **state)
{
	(void)state;
	expect_error("jitter.scn", "3: alloc-jitter:", "exceeds alloc-interval");
}

static void test_burst_too_big(void **state)
{
	(void)state;
	expect_error("burst-too-big.scn", "6: alloc-burst:", "8 bursts of 1024 pages exceed the area");
}

static void test_workloads(void **state)
{
	struct scenario s;
	struct strbuf errs = { 0 };
	char *p = data("workloads.scn");

	(void)state;
	if (scenario_load(p, &ctx, &s, &errs))
		fail_msg("%s", errs.buf);
	assert_true(s.runs[0].warmup == 0);
	assert_true(s.runs[0].alloc_hold == 0);
	assert_true(s.runs[0].alloc_jitter == 0.005);
	assert_int_equal(s.runs[0].alloc_burst, 4);
	assert_string_equal(s.runs[0].job, "build");
	assert_int_equal(s.runs[0].build_files, 10);
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

/*
 * timeout=0 (the default): derived from the plan. good.scn's [plain]: 60 s,
 * fio's 64 MiB laid out at 10 MiB/s (6.4 s) and its 10 s, 3 sizes x 3
 * requests at the 60 s deadline (540 s): 616.4 x 1.25 + 60 = 830.5 s.
 * [big] sets 90s and keeps it; [noarea] allocates nothing: 76.4 x 1.25 + 60.
 * A shorter deadline shortens it: alloc-timeout=10s gives 166.4 x 1.25 + 60.
 */
static void test_derived_timeout(void **state)
{
	struct scenario s;
	struct strbuf errs = { 0 };
	char *p = data("good.scn");

	(void)state;
	assert_int_equal(scenario_load(p, &ctx, &s, &errs), 0);
	assert_true(fabs(s.runs[0].timeout - 830.5) < 1e-9);
	assert_true(s.runs[0].timeout_key == 0);
	assert_true(s.runs[1].timeout == 90);
	assert_true(fabs(s.runs[2].timeout - 155.5) < 1e-9);
	assert_int_equal(scenario_override(&s, "alloc-timeout=10s", &ctx, &errs), 0);
	assert_true(fabs(s.runs[0].timeout - 268) < 1e-9);
	assert_true(s.runs[1].timeout == 90);
	/* set on the command line, it wins; 0 derives it again */
	assert_int_equal(scenario_override(&s, "timeout=20m", &ctx, &errs), 0);
	assert_true(s.runs[0].timeout == 1200);
	assert_int_equal(scenario_override(&s, "timeout=0", &ctx, &errs), 0);
	assert_true(fabs(s.runs[0].timeout - 268) < 1e-9);
	assert_int_equal(scenario_override(&s, "timeout=5s", &ctx, &errs), (int)s.nruns);
	assert_non_null(strstr(errs.buf, "below 10s"));
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

static void test_no_runs(void **state)
{
	struct scenario s;
	struct strbuf errs = { 0 };
	char *p = data("empty.scn");

	(void)state;
	assert_int_equal(scenario_load(p, &ctx, &s, &errs), 1);
	assert_non_null(strstr(errs.buf, "no runs"));
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

static void test_missing_file(void **state)
{
	struct scenario s;
	struct strbuf errs = { 0 };

	(void)state;
	assert_int_equal(scenario_load("/nonexistent/x.scn", &ctx, &s, &errs), 1);
	assert_non_null(strstr(errs.buf, "/nonexistent/x.scn: cannot open"));
	scenario_free(&s);
	sb_free(&errs);
}

static void test_override(void **state)
{
	struct scenario s;
	struct strbuf errs = { 0 };
	char *p = data("good.scn");

	(void)state;
	assert_int_equal(scenario_load(p, &ctx, &s, &errs), 0);
	assert_int_equal(scenario_override(&s, "cpus=4", &ctx, &errs), 0);
	for (size_t i = 0; i < s.nruns; i++)
		assert_int_equal(s.runs[i].cpus, 4);
	assert_int_equal(scenario_override(&s, "cpu=4", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "unknown key 'cpu'"));
	assert_int_equal(scenario_override(&s, "memory=lots", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "'lots' is not a size"));
	/* parallel: yes by default, no forbids sharing the host */
	assert_true(s.runs[0].parallel);
	assert_int_equal(scenario_override(&s, "parallel=no", &ctx, &errs), 0);
	assert_false(s.runs[0].parallel);
	assert_int_equal(scenario_override(&s, "parallel=maybe", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "'maybe' is not yes or no"));
	/* a baseline names a section of the scenario */
	assert_int_equal(scenario_override(&s, "baseline=nope", &ctx, &errs), (int)s.nruns);
	assert_non_null(strstr(errs.buf, "baseline: 'nope' is not a section of this scenario"));
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

/* Values from a row's list: the error lists them, an empty value only where the row allows. */
static void test_value_lists(void **state)
{
	struct scenario s;
	struct strbuf errs = { 0 };
	char *p = data("good.scn");

	(void)state;
	assert_int_equal(scenario_load(p, &ctx, &s, &errs), 0);
	assert_int_equal(s.runs[0].fill_keep, FILL_STREAM);
	assert_int_equal(scenario_override(&s, "fill-keep=paced", &ctx, &errs), 0);
	assert_int_equal(s.runs[0].fill_keep, FILL_PACED);
	assert_int_equal(scenario_override(&s, "pin-mode=glue", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "'glue' is not a pin mode (vmsplice, dio)"));
	/* a list known at run time: every kernel variant */
	assert_int_equal(scenario_override(&s, "kernel=mine", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "'mine' is not a kernel variant (gcma, gcma-debug, "
				       "gcma-lockstat, gcma-perpage, vanilla, vanilla-traced)"));
	assert_int_equal(scenario_override(&s, "kernel=", &ctx, &errs), 1);
	assert_int_equal(scenario_override(&s, "job=", &ctx, &errs), 0);
	assert_null(s.runs[0].job);
	assert_int_equal(scenario_override(&s, "setup=gcmaa", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "is not a set-up (none, carveout, cma, gcma)"));
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

/*
 * clock: host by default, instructions on request; only the latter puts
 * -icount on QEMU's command line.
 */
static void test_clock(void **state)
{
	struct scenario s;
	struct strbuf errs = { 0 };
	char *p = data("good.scn");
	struct vm_config vc = { .qemu = "qemu", .accel = "tcg", .mem_mib = 256, .cpus = 2,
				.kernel = "bzImage", .cmdline = "console=ttyS0" };
	struct strlist argv = { 0 };

	(void)state;
	assert_int_equal(scenario_load(p, &ctx, &s, &errs), 0);
	assert_int_equal(s.runs[0].clock, CLOCK_HOST);
	vm_argv(&vc, &argv);
	for (size_t i = 0; i < argv.n; i++)
		assert_string_not_equal(argv.v[i], "-icount");
	sl_free(&argv);
	assert_int_equal(scenario_override(&s, "clock=instructions", &ctx, &errs), 0);
	assert_int_equal(s.runs[0].clock, CLOCK_INSTRUCTIONS);
	vc.icount = true;
	vm_argv(&vc, &argv);
	assert_true(sl_has(&argv, "-icount"));
	assert_true(sl_has(&argv, "shift=0,sleep=on"));
	sl_free(&argv);
	assert_int_equal(scenario_override(&s, "clock=wall", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "'wall' is not a guest clock (host, instructions)"));
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

static const char *smp_arg(const struct vm_config *vc, struct strlist *argv)
{
	vm_argv(vc, argv);
	for (size_t i = 0; i + 1 < argv->n; i++)
		if (!strcmp(argv->v[i], "-smp"))
			return argv->v[i + 1];
	fail_msg("no -smp on QEMU's command line");
	return NULL;
}

/*
 * A 1-vCPU TCG guest gets a second possible vCPU so that QEMU 7.2 keeps its
 * memory barriers (vm.c: issue 42's lost virtio interrupt); nothing else
 * changes: more vCPUs, KVM and -icount (one thread whatever the count).
 */
static void test_smp_keeps_barriers(void **state)
{
	struct vm_config vc = { .qemu = "qemu", .accel = "tcg", .mem_mib = 256, .cpus = 1,
				.kernel = "bzImage", .cmdline = "console=ttyS0" };
	struct strlist argv = { 0 };

	(void)state;
	assert_string_equal(smp_arg(&vc, &argv), "1,maxcpus=2");
	sl_free(&argv);
	vc.cpus = 2;
	assert_string_equal(smp_arg(&vc, &argv), "2");
	sl_free(&argv);
	vc.cpus = 1;
	vc.accel = "kvm";
	assert_string_equal(smp_arg(&vc, &argv), "1");
	sl_free(&argv);
	vc.accel = "tcg";
	vc.icount = true;
	assert_string_equal(smp_arg(&vc, &argv), "1");
	sl_free(&argv);
}

/* Every row's help line says its type and default; rows without a default say none. */
static void test_key_help(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	scenario_print_keys_md(f);
	fclose(f);
	assert_non_null(strstr(buf, "| `cpus` | 1–16 | `1` | guest vCPUs; "));
	assert_non_null(strstr(buf, "| `timeout` | duration or `0` | `0` |"));
	assert_non_null(strstr(buf, "| `alloc-timeout` | duration or `0` | `60s` |"));
	assert_non_null(strstr(buf, "| `description` | text | — |"));
	assert_non_null(strstr(buf, "| `arch` | `x86_64` \\| `arm64` | `x86_64` |"));
	free(buf);
}

/* disk, fill and fill-timeout: accepted values set the run, bad ones name the key. */
static void test_fill_and_disk(void **state)
{
	struct scenario s;
	struct strbuf errs = { 0 };
	char *p = data("good.scn");

	(void)state;
	assert_int_equal(scenario_load(p, &ctx, &s, &errs), 0);
	assert_string_equal(s.runs[0].disk, "host");
	assert_int_equal(scenario_override(&s, "disk=emmc", &ctx, &errs), 0);
	assert_string_equal(s.runs[1].disk, "emmc");
	assert_int_equal(scenario_override(&s, "disk=floppy", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "disk: 'floppy' is not a storage model"));
	assert_int_equal(scenario_override(&s, "fill=101", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "fill: "));
	assert_int_equal(scenario_override(&s, "fill-timeout=30", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "fill-timeout: "));
	assert_int_equal(scenario_override(&s, "fill-timeout=30s", &ctx, &errs), 0);
	assert_true(s.runs[0].disk_scale == 1);
	assert_int_equal(scenario_override(&s, "disk-scale=cpu", &ctx, &errs), 0);
	assert_true(s.runs[2].disk_scale == 0);
	assert_int_equal(scenario_override(&s, "disk-scale=2.5", &ctx, &errs), 0);
	assert_true(s.runs[1].disk_scale == 2.5);
	assert_int_equal(scenario_override(&s, "disk-scale=0.5", &ctx, &errs), 1);
	assert_non_null(strstr(errs.buf, "disk-scale: '0.5' is not 'cpu' or a number"));
	{
		char *o = disk_qemu_opts(disk_find("emmc"), 2);

		assert_non_null(strstr(o, "throttling.bps-read=125000000,"));
		assert_non_null(strstr(o, "throttling.iops-read=5500,"));
		free(o);
		o = disk_qemu_opts(disk_find("host"), 2);
		assert_string_equal(o, "");
		free(o);
	}
	assert_true(s.runs[0].fill_timeout == 30);
	/* a fill streams a file of 1.5 x memory: the scratch disk must hold it,
	 * in every run that has an area or stands beside one (none, [plain]...) */
	sb_free(&errs);
	assert_int_equal(scenario_override(&s, "scratch=256M", &ctx, &errs), 0);
	assert_int_equal(scenario_override(&s, "fill=90", &ctx, &errs), (int)s.nruns);
	assert_non_null(strstr(errs.buf, "fill: needs a scratch disk of"));
	scenario_free(&s);
	sb_free(&errs);
	free(p);
}

static void test_units(void **state)
{
	uint64_t sz;
	double d;
	long l;
	const char *why;

	(void)state;
	assert_int_equal(parse_size("64M", &sz, &why), 0);
	assert_int_equal(sz, 64ull << 20);
	assert_int_equal(parse_size("1GiB", &sz, &why), 0);
	assert_int_equal(sz, 1ull << 30);
	assert_int_equal(parse_size("512k", &sz, &why), 0);
	assert_int_equal(sz, 512ull << 10);
	assert_int_equal(parse_size("64", &sz, &why), -1);
	assert_int_equal(parse_size("64X", &sz, &why), -1);
	assert_int_equal(parse_size("64Mb!", &sz, &why), -1);
	assert_int_equal(parse_size("-1M", &sz, &why), -1);
	assert_int_equal(parse_size("99999999999999999999M", &sz, &why), -1);
	assert_int_equal(parse_duration("500ms", &d, &why), 0);
	assert_true(d == 0.5);
	assert_int_equal(parse_duration("5m", &d, &why), 0);
	assert_true(d == 300);
	assert_int_equal(parse_duration("10", &d, &why), -1);
	assert_int_equal(parse_duration("0s", &d, &why), -1);
	assert_int_equal(parse_long("12", &l, &why), 0);
	assert_int_equal(l, 12);
	assert_int_equal(parse_long("12a", &l, &why), -1);
	assert_int_equal(parse_long("", &l, &why), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_primary),
		cmocka_unit_test(test_typo_key),
		cmocka_unit_test(test_alloc_path_errors),
		cmocka_unit_test(test_bad_unit),
		cmocka_unit_test(test_bad_duration),
		cmocka_unit_test(test_area_too_big),
		cmocka_unit_test(test_sweep_too_big),
		cmocka_unit_test(test_gcma_on_vanilla),
		cmocka_unit_test(test_debug_on_arm64),
		cmocka_unit_test(test_missing_fio_job),
		cmocka_unit_test(test_duplicate_section),
		cmocka_unit_test(test_no_equals),
		cmocka_unit_test(test_bad_kernel),
		cmocka_unit_test(test_bad_background),
		cmocka_unit_test(test_pin_without_area),
		cmocka_unit_test(test_alloc_background_without_job),
		cmocka_unit_test(test_jitter_above_interval),
		cmocka_unit_test(test_burst_too_big),
		cmocka_unit_test(test_workloads),
		cmocka_unit_test(test_derived_timeout),
		cmocka_unit_test(test_no_runs),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_override),
		cmocka_unit_test(test_value_lists),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_smp_keeps_barriers),
		cmocka_unit_test(test_key_help),
		cmocka_unit_test(test_fill_and_disk),
		cmocka_unit_test(test_units),
	};

	return cmocka_run_group_tests_name("scenario", tests, NULL, NULL);
}
