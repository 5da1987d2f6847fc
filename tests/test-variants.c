/* Kernel variant files: the shipped three, a good one, and file:line errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/variants.h"

static char *srcdir;

static char *data(const char *rel)
{
	return xasprintf("%s/variants/%s", TEST_DATA, rel);
}

static void assert_configs(const struct kvariant *v, const char *arch, const char *want)
{
	const char *const *c = kvariant_configs(v, arch);
	struct strbuf sb = { 0 };

	sb_init(&sb);
	for (int i = 0; c && c[i]; i++)
		sb_addf(&sb, "%s%s", i ? " " : "", c[i]);
	assert_string_equal(sb.buf, want);
	sb_free(&sb);
}

/*
 * The three files of the C table they replaced hold what it held; then
 * gcma-lockstat (lock statistics for contention measurements) and
 * vanilla-traced (vanilla with the head of the series, series-traced),
 * and gcma-perpage (v3's series before 0038, v3/series-perpage).
 */
static void test_shipped(void **state)
{
	struct strbuf errs = { 0 };
	const struct kvariant *v;

	(void)state;
	if (kvariants_load(srcdir, &errs))
		fail_msg("%s", errs.buf);
	assert_int_equal(kvariants_count(), 6);
	/* sorted by name */
	assert_string_equal(kvariant_at(0)->name, "gcma");
	assert_string_equal(kvariant_at(1)->name, "gcma-debug");
	assert_string_equal(kvariant_at(2)->name, "gcma-lockstat");
	assert_string_equal(kvariant_at(3)->name, "gcma-perpage");
	assert_string_equal(kvariant_at(4)->name, "vanilla");
	assert_string_equal(kvariant_at(5)->name, "vanilla-traced");

	v = kvariant_find("vanilla-traced");
	assert_non_null(v);
	assert_string_equal(v->series, "series-traced");
	assert_false(v->has_gcma);
	assert_configs(v, "x86_64", "base.config");
	assert_configs(v, "arm64", "arm64.config");

	v = kvariant_find("vanilla");
	assert_non_null(v);
	assert_int_equal(v->source, KV_SOURCE_DEBIAN);
	assert_null(v->series);
	assert_false(v->has_gcma);
	assert_configs(v, "x86_64", "base.config");
	assert_configs(v, "arm64", "arm64.config");

	v = kvariant_find("gcma");
	assert_string_equal(v->series, "series");
	assert_true(v->has_gcma);
	assert_configs(v, "x86_64", "base.config gcma.config");
	assert_configs(v, "arm64", "arm64.config gcma.config");

	v = kvariant_find("gcma-debug");
	assert_string_equal(v->series, "series");
	assert_true(v->has_gcma);
	assert_configs(v, "x86_64", "base.config gcma.config debug.config");
	assert_false(kvariant_suits(v, "arm64"));
	assert_string_equal(v->arches, "x86_64");

	v = kvariant_find("gcma-lockstat");
	assert_string_equal(v->series, "series");
	assert_true(v->has_gcma);
	assert_configs(v, "x86_64", "base.config gcma.config lockstat.config");
	assert_null(kvariant_find("nosuch"));
	sb_free(&errs);
}

static void test_good(void **state)
{
	struct strbuf errs = { 0 };
	struct kvariant v;
	char *p = data("good/mine");

	(void)state;
	if (kvariant_parse(p, srcdir, &v, &errs))
		fail_msg("%s", errs.buf);
	assert_string_equal(v.name, "mine");
	assert_string_equal(v.help, "a variant of one's own");
	assert_int_equal(v.source, KV_SOURCE_DEBIAN);
	assert_string_equal(v.series, "series");
	assert_true(v.has_gcma);
	assert_true(kvariant_suits(&v, "x86_64"));
	assert_false(kvariant_suits(&v, "arm64"));
	assert_configs(&v, "x86_64", "base.config gcma.config debug.config");
	kvariant_free(&v);
	sb_free(&errs);
	free(p);
}

/* Several series files, one of them beside the variant file (./), in order;
 * and a config fragment beside it. */
static void test_series_files(void **state)
{
	struct strbuf errs = { 0 };
	struct kvariant v;
	char *p = data("good/mine-plus");
	char *first = xasprintf("%s/kernel-patches/series", srcdir);

	(void)state;
	if (kvariant_parse(p, srcdir, &v, &errs))
		fail_msg("%s", errs.buf);
	assert_string_equal(v.series, "series ./mine-patches/series");
	assert_int_equal(v.series_files.n, 2);
	assert_string_equal(v.series_files.v[0], "series");
	assert_true(path_exists(first));
	assert_non_null(strstr(v.series_files.v[1], "good/"));
	assert_non_null(strstr(v.series_files.v[1], "mine-patches/series"));
	/* a fragment of one's own beside it: by its absolute path */
	{
		const char *const *c = kvariant_configs(&v, "x86_64");
		char *own = xasprintf("%s/variants/good/mine-patches/extra.config", TEST_DATA);
		char *abs = abs_path(own);

		assert_non_null(c);
		assert_string_equal(c[0], "base.config");
		assert_string_equal(c[1], "gcma.config");
		assert_string_equal(c[2], abs);
		assert_null(c[3]);
		free(abs);
		free(own);
	}
	kvariant_free(&v);
	sb_free(&errs);
	free(first);
	free(p);
}

/* A user's directory (CMABENCH_VARIANTS) adds variants beside the shipped ones. */
static void test_extra_dir(void **state)
{
	struct strbuf errs = { 0 };
	char *good = data("good");

	(void)state;
	setenv("CMABENCH_VARIANTS", good, 1);
	if (kvariants_load(srcdir, &errs))
		fail_msg("%s", errs.buf);
	unsetenv("CMABENCH_VARIANTS");
	assert_int_equal(kvariants_count(), 8);
	assert_non_null(kvariant_find("mine"));
	assert_non_null(kvariant_find("mine-plus"));
	assert_non_null(kvariant_find("gcma"));
	sb_free(&errs);
	free(good);
}

/* file:line: key: what, for each of words. */
static void expect_errors(const char *file, const char *const want[][2])
{
	struct strbuf errs = { 0 };
	struct kvariant v;
	char *p = data(file);

	assert_int_equal(kvariant_parse(p, srcdir, &v, &errs), -1);
	for (int i = 0; want[i][0]; i++) {
		char *prefix = xasprintf("%s:%s", p, want[i][0]);

		if (!strstr(errs.buf, prefix) || !strstr(errs.buf, want[i][1]))
			fail_msg("%s: expected '%s' ... '%s', got: %s", file, prefix, want[i][1],
				 errs.buf);
		free(prefix);
	}
	kvariant_free(&v);
	sb_free(&errs);
	free(p);
}

static void test_unknown_key(void **state)
{
	(void)state;
	expect_errors("bad/unknown-key", (const char *const[][2]){
		{ "3: patches:", "unknown key" }, { NULL, NULL } });
}

static void test_missing_series(void **state)
{
	(void)state;
	expect_errors("bad/missing-series", (const char *const[][2]){
		{ "2: series:", "no such series file: kernel-patches/no-such-series" },
		{ NULL, NULL } });
}

static void test_series_and_none(void **state)
{
	(void)state;
	expect_errors("bad/series-and-none", (const char *const[][2]){
		{ "2: series:", "expected series files, or none" }, { NULL, NULL } });
}

static void test_unknown_arch(void **state)
{
	(void)state;
	expect_errors("bad/unknown-arch", (const char *const[][2]){
		{ "3: arches:", "unknown architecture 'riscv64'" },
		{ "5: config.riscv64:", "unknown architecture 'riscv64'" }, { NULL, NULL } });
}

static void test_duplicate_key(void **state)
{
	(void)state;
	expect_errors("bad/dup-key", (const char *const[][2]){
		{ "4: source:", "given twice (first on line 1)" }, { NULL, NULL } });
}

static void test_bad_values(void **state)
{
	(void)state;
	expect_errors("bad/no-config", (const char *const[][2]){
		{ "2: arches:", "arm64 has no config.arm64 line" },
		{ "3: config.x86_64:", "no such config fragment: kernel-patches/configs/nosuch.config" },
		{ "4: offers:", "unknown offer 'zswap'" }, { NULL, NULL } });
	expect_errors("bad/own-config", (const char *const[][2]){
		{ "4: config.x86_64:", "no such config fragment: " },
		{ "4: config.x86_64:", "bad/./nosuch.config" }, { NULL, NULL } });
}

/* Two files of one name in two directories: an error naming both. */
static void test_duplicate_name(void **state)
{
	struct strbuf errs = { 0 };
	char *shipped = xasprintf("%s/kernel-patches/variants", srcdir);
	char *dup = data("dup");
	const char *const dirs[] = { shipped, dup, NULL };
	char *want = xasprintf("%s/gcma: name: variant 'gcma' is already defined by %s/gcma",
			       dup, shipped);

	(void)state;
	assert_int_equal(kvariants_load_dirs(dirs, srcdir, &errs), -1);
	if (!strstr(errs.buf, want))
		fail_msg("expected '%s', got: %s", want, errs.buf);
	sb_free(&errs);
	free(want);
	free(dup);
	free(shipped);
	/* every bad file of a directory is reported, none is loaded */
	{
		char *bad = data("bad");
		const char *const bad_dirs[] = { bad, NULL };

		assert_int_equal(kvariants_load_dirs(bad_dirs, srcdir, &errs), -1);
		assert_non_null(strstr(errs.buf, "unknown-key:3: patches:"));
		assert_non_null(strstr(errs.buf, "missing-series:2: series:"));
		free(bad);
		sb_free(&errs);
	}
}

static int setup(void **state)
{
	(void)state;
	srcdir = xasprintf("%s/../..", TEST_DATA);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	kvariants_unload();
	free(srcdir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_extra_dir),
		cmocka_unit_test(test_series_files),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_missing_series),
		cmocka_unit_test(test_unknown_arch),
		cmocka_unit_test(test_duplicate_key),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_series_and_none),
		cmocka_unit_test(test_duplicate_name),
	};

	return cmocka_run_group_tests_name("kernel-variants", tests, setup, teardown);
}
