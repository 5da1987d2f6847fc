/* A fragment checked against a merged .config: lost values are named with fragment:line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild/kconfig.h"

static char dir[] = "/tmp/cmb-kconfig-XXXXXX";

static char *put(const char *name, const char *text)
{
	char *p = path_join(dir, name);

	assert_int_equal(write_file(p, text, strlen(text)), 0);
	return p;
}

static void test_all_kept(void **state)
{
	struct strbuf errs = { 0 };
	char *frag = put("a.config", "# comment\nCONFIG_CMA=y\nCONFIG_CMA_AREAS=8\n# CONFIG_SWAP is not set\n# CONFIG_USB is not set\n");
	char *conf = put("a.dotconfig", "#\n# head\n#\nCONFIG_CMA=y\n\nCONFIG_CMA_AREAS=8\n# CONFIG_SWAP is not set\n");

	(void)state;
	assert_int_equal(kconfig_check(frag, NULL, conf, &errs), 0);
	sb_free(&errs);
	free(frag);
	free(conf);
}

static void test_lost_values(void **state)
{
	struct strbuf errs = { 0 };
	char *frag = put("b.config", "CONFIG_CMA=y\nCONFIG_CMA_DEBUGFS=y\nCONFIG_CMA_AREAS=20\n# CONFIG_SWAP is not set\n");
	char *conf = put("b.dotconfig", "CONFIG_CMA=y\n# CONFIG_CMA_DEBUGFS is not set\nCONFIG_CMA_AREAS=8\nCONFIG_SWAP=y\n");
	char *want1 = xasprintf("%s:2: CONFIG_CMA_DEBUGFS: wanted y, got not set", frag);
	char *want2 = xasprintf("%s:3: CONFIG_CMA_AREAS: wanted 20, got 8", frag);
	char *want3 = xasprintf("%s:4: CONFIG_SWAP: wanted not set, got y", frag);

	(void)state;
	assert_int_equal(kconfig_check(frag, NULL, conf, &errs), 3);
	assert_non_null(strstr(errs.buf, want1));
	assert_non_null(strstr(errs.buf, want2));
	assert_non_null(strstr(errs.buf, want3));
	sb_free(&errs);
	free(frag);
	free(conf);
	free(want1);
	free(want2);
	free(want3);
}

/* A value a later fragment overrides is that fragment's to check. */
static void test_later_fragment_wins(void **state)
{
	struct strbuf errs = { 0 };
	char *frag = put("d.config", "# CONFIG_DEBUG_KERNEL is not set\nCONFIG_CMA=y\n");
	char *dbg = put("d-debug.config", "CONFIG_DEBUG_KERNEL=y\n");
	char *conf = put("d.dotconfig", "CONFIG_DEBUG_KERNEL=y\n");
	const char *later[] = { dbg, NULL };

	(void)state;
	assert_int_equal(kconfig_check(frag, later, conf, &errs), 1);
	assert_null(strstr(errs.buf, "DEBUG_KERNEL"));
	assert_non_null(strstr(errs.buf, "CONFIG_CMA"));
	assert_int_equal(kconfig_check(dbg, NULL, conf, &errs), 0);
	assert_int_equal(kconfig_check(frag, NULL, conf, &errs), 2);
	sb_free(&errs);
	free(frag);
	free(dbg);
	free(conf);
}

static void test_prefix_is_not_a_match(void **state)
{
	struct strbuf errs = { 0 };
	char *frag = put("c.config", "CONFIG_CMA=y\n");
	char *conf = put("c.dotconfig", "CONFIG_CMA_AREAS=8\n");

	(void)state;
	assert_int_equal(kconfig_check(frag, NULL, conf, &errs), 1);
	sb_free(&errs);
	free(frag);
	free(conf);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_kept),
		cmocka_unit_test(test_lost_values),
		cmocka_unit_test(test_later_fragment_wins),
		cmocka_unit_test(test_prefix_is_not_a_match),
	};

	return cmocka_run_group_tests_name("kconfig", tests, setup, teardown);
}
