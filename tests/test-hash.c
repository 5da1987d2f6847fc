/* SHA-256 and kernel cache keys: same inputs, same key; any input changed, another key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "kbuild/kbuild.h"

static char dir[] = "/tmp/cmb-key-XXXXXX";
static struct cmb_env env;

static void put(const char *rel, const char *text)
{
	char *p = path_join(dir, rel);
	char *slash = strrchr(p, '/');

	*slash = '\0';
	mkdir_p(p);
	*slash = '/';
	assert_int_equal(write_file(p, text, strlen(text)), 0);
	free(p);
}

static void key_of(const char *variant, char key[65])
{
	struct strbuf errs = { 0 };

	if (kbuild_key(&env, kvariant_find(variant), key, &errs))
		fail_msg("kbuild_key: %s", errs.buf);
	sb_free(&errs);
}

static void test_sha256(void **state)
{
	struct hash *h = hash_new();
	char out[65];

	(void)state;
	hash_bytes(h, "abc", 3);
	hash_final(h, out);
	assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_keys(void **state)
{
	char v1[65], v2[65], g1[65], g2[65];

	(void)state;
	key_of("vanilla", v1);
	key_of("vanilla", v2);
	assert_string_equal(v1, v2);
	key_of("gcma", g1);
	assert_string_not_equal(v1, g1);

	/* a patch changes the gcma key, not the vanilla one */
	put("kernel-patches/0001-x.patch", "--- a/x\n+++ b/x\n@@ changed @@\n");
	key_of("gcma", g2);
	assert_string_not_equal(g1, g2);
	key_of("vanilla", v2);
	assert_string_equal(v1, v2);

	/* the base fragment changes both */
	put("kernel-patches/configs/base.config", "CONFIG_CMA=y\nCONFIG_SWAP=n\n");
	key_of("vanilla", v2);
	assert_string_not_equal(v1, v2);
	key_of("gcma", g1);
	assert_string_not_equal(g1, g2);

	/* so does the source */
	key_of("vanilla", v1);
	put("linux.tar.xz", "another source");
	key_of("vanilla", v2);
	assert_string_not_equal(v1, v2);
}

static void test_missing_patch(void **state)
{
	struct strbuf errs = { 0 };
	char key[65];

	(void)state;
	put("kernel-patches/series", "0001-x.patch\n# comment\n0002-gone.patch\n");
	assert_int_equal(kbuild_key(&env, kvariant_find("gcma"), key, &errs), -1);
	assert_non_null(strstr(errs.buf, "kernel-patches/series:3: no such patch"));
	sb_free(&errs);
	put("kernel-patches/series", "0001-x.patch\n");
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	env_init(&env);
	env.srcdir = dir;
	env.linux_source = path_join(dir, "linux.tar.xz");
	put("linux.tar.xz", "pretend source");
	put("kernel-patches/series", "0001-x.patch\n");
	put("kernel-patches/0001-x.patch", "--- a/x\n+++ b/x\n");
	put("kernel-patches/configs/base.config", "CONFIG_CMA=y\n");
	put("kernel-patches/configs/gcma.config", "CONFIG_GCMA=y\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free((char *)env.linux_source);
	return rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_missing_patch),
	};

	return cmocka_run_group_tests_name("cache-keys", tests, setup, teardown);
}
