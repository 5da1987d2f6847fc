/* SHA-256 and kernel cache keys: same inputs, same key; any input changed, another key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "kbuild/kbuild.h"
#include "kbuild/kmake.h"
#include "scenario/arch.h"

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

	/* and our module, built with every kernel */
	key_of("vanilla", v1);
	key_of("gcma", g1);
	put("workloads/kmod/cmabench_dma.c", "int y;\n");
	key_of("vanilla", v2);
	key_of("gcma", g2);
	assert_string_not_equal(v1, v2);
	assert_string_not_equal(g1, g2);
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

/*
 * The key of the C table that the variant files replaced, frozen here: the
 * shipped files must give the kernels already cached the same keys
 * (vanilla 12aef34e..., gcma 031c5092..., gcma-debug ad1296cd... on the
 * machine they were built on), plus the module's sources, which every key
 * covers since the module is built with each kernel (issue 44: every key
 * changed once).
 */
struct old_variant {
	const char *name;
	bool patched;
	const char *fragments[4];
	const char *only_arch;
};

static const struct old_variant old_table[] = {
	{ "vanilla", false, { "base.config" }, NULL },
	{ "gcma", true, { "base.config", "gcma.config" }, NULL },
	{ "gcma-debug", true, { "base.config", "gcma.config", "debug.config" }, "x86_64" },
};

static void old_key(const struct cmb_env *e, const struct cmb_arch *a,
		    const struct old_variant *v, char key[65])
{
	struct hash *h = hash_new();
	char *cc = arch_cc(a);
	char *argv[] = { cc, "--version", NULL };
	char *gcc = cmd_first_line(argv);

	hash_str(h, "cmabench-kbuild-1");
	if (a != arch_default()) {
		hash_str(h, "arch");
		hash_str(h, a->name);
		hash_str(h, a->image_target);
	}
	hash_str(h, gcc ? gcc : "no-gcc");
	assert_int_equal(hash_file(h, e->linux_source), 0);
	for (int i = 0; v->fragments[i]; i++) {
		const char *name = !strcmp(v->fragments[i], "base.config") ? a->base_fragment
									   : v->fragments[i];
		char *p = xasprintf("%s/kernel-patches/configs/%s", e->srcdir, name);

		hash_str(h, name);
		assert_int_equal(hash_file(h, p), 0);
		free(p);
	}
	if (v->patched) {
		char *series = xasprintf("%s/kernel-patches/series", e->srcdir);
		char *text = read_file(series, NULL), *save = NULL;

		assert_non_null(text);
		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *p;

			l = trim(l);
			if (!*l || *l == '#')
				continue;
			p = xasprintf("%s/kernel-patches/%s", e->srcdir, l);
			hash_str(h, strrchr(p, '/') + 1);
			assert_int_equal(hash_file(h, p), 0);
			free(p);
		}
		free(text);
		free(series);
	}
	hash_str(h, "kmod");
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "cmabench_dma.c" : "Kbuild";
		char *p = xasprintf("%s/workloads/kmod/%s", e->srcdir, name);

		hash_str(h, name);
		assert_int_equal(hash_file(h, p), 0);
		free(p);
	}
	free(gcc);
	free(cc);
	hash_final(h, key);
}

/* The shipped variant files, the project's own patches and fragments: old keys. */
static void test_shipped_keys_unchanged(void **state)
{
	struct cmb_env real = env;
	unsigned int compared = 0;

	(void)state;
	real.srcdir = xasprintf("%s/../..", TEST_DATA);
	for (size_t i = 0; i < ARRAY_SIZE(old_table); i++) {
		const struct kvariant *v = kvariant_find(old_table[i].name);

		assert_non_null(v);
		for (unsigned int a = 0; a < cmb_arches_count; a++) {
			const struct cmb_arch *arch = &cmb_arches[a];
			struct strbuf errs = { 0 };
			char want[65], got[65];
			bool suits = !old_table[i].only_arch ||
				     !strcmp(old_table[i].only_arch, arch->name);

			assert_int_equal(kvariant_suits(v, arch->name), suits);
			if (!suits)
				continue;
			old_key(&real, arch, &old_table[i], want);
			if (kbuild_key_arch(&real, arch, v, got, &errs))
				fail_msg("%s", errs.buf);
			if (strcmp(want, got))
				fail_msg("%s on %s: key %s, was %s", v->name, arch->name, got, want);
			sb_free(&errs);
			compared++;
		}
	}
	assert_int_equal(compared, 5);
	free((char *)real.srcdir);
}

static void git(const char *repo, const char *a1, const char *a2, const char *a3)
{
	char *argv[] = { "git", "-C", (char *)repo, "-c", "user.name=t", "-c", "user.email=t@t",
			 (char *)a1, (char *)a2, (char *)a3, NULL };

	assert_int_equal(run_cmd(argv, NULL, "/dev/null", NULL, NULL), 0);
}

static void tree_key(const struct kvariant *v, char key[65])
{
	struct strbuf errs = { 0 };

	if (kbuild_key(&env, v, key, &errs))
		fail_msg("kbuild_key: %s", errs.buf);
	sb_free(&errs);
}

/* source = tree PATH: HEAD, the uncommitted diff and untracked files, not ignored ones. */
static void test_tree_keys(void **state)
{
	struct strbuf errs = { 0 };
	struct kvariant v;
	char k1[65], k2[65], k3[65];
	char *repo = path_join(dir, "tree");
	char *file = path_join(dir, "variants/mytree");
	char *text = xasprintf("source = tree %s\nseries = none\narches = x86_64\n"
			       "config.x86_64 = base.config\n", repo);

	(void)state;
	if (!have_program("git"))
		skip();
	put("tree/Makefile", "VERSION = 6\n");
	put("tree/mm/cma.c", "int x;\n");
	put("tree/.gitignore", "*.o\n");
	put("variants/mytree", text);
	git(repo, "init", "-q", NULL);
	git(repo, "add", ".", NULL);
	git(repo, "commit", "-qm", "one");
	if (kvariant_parse(file, dir, &v, &errs))
		fail_msg("%s", errs.buf);
	assert_int_equal(v.source, KV_SOURCE_TREE);
	assert_string_equal(v.tree, repo);
	tree_key(&v, k1);
	tree_key(&v, k2);
	assert_string_equal(k1, k2);

	/* an uncommitted edit changes it; undone, the key is back */
	put("tree/mm/cma.c", "int y;\n");
	tree_key(&v, k2);
	assert_string_not_equal(k1, k2);
	put("tree/mm/cma.c", "int x;\n");
	tree_key(&v, k2);
	assert_string_equal(k1, k2);

	/* an untracked file, and its content; an ignored one does not count */
	put("tree/mm/new.c", "int z;\n");
	tree_key(&v, k2);
	assert_string_not_equal(k1, k2);
	put("tree/mm/new.c", "int w;\n");
	tree_key(&v, k3);
	assert_string_not_equal(k2, k3);
	put("tree/mm/cma.o", "object");
	tree_key(&v, k2);
	assert_string_equal(k2, k3);

	/* committed: the same tree at another HEAD */
	git(repo, "add", ".", NULL);
	git(repo, "commit", "-qm", "two");
	tree_key(&v, k2);
	assert_string_not_equal(k2, k3);
	assert_string_not_equal(k2, k1);

	/* a directory inside the tree is not keyed by the tree's repository */
	{
		struct kvariant sub = v;

		sub.tree = path_join(repo, "mm");
		put("tree/mm/Makefile", "obj-y += cma.o\n");
		assert_int_equal(kbuild_key(&env, &sub, k2, &errs), -1);
		assert_non_null(strstr(errs.buf, "not the top of a git tree"));
		free(sub.tree);
		sb_free(&errs);
	}

	/* a tree that is no git tree: an error, not a key */
	{
		char *gitdir = path_join(repo, ".git");

		assert_int_equal(rm_rf(gitdir), 0);
		free(gitdir);
		setenv("GIT_CEILING_DIRECTORIES", dir, 1);
		assert_int_equal(kbuild_key(&env, &v, k2, &errs), -1);
		unsetenv("GIT_CEILING_DIRECTORIES");
		assert_non_null(strstr(errs.buf, "not a git tree"));
	}
	kvariant_free(&v);
	sb_free(&errs);
	free(text);
	free(file);
	free(repo);
}

/* A whole make of a target: the env and make, then -j, O= and the target. */
static void test_kmake_target(void **state)
{
	struct kmake m = { .arch = arch_default(), .variant = "v", .key = "0123456789abcdef0" };
	struct strlist a = { 0 };
	size_t mk = 0, j = 0, o = 0, t = 0;

	(void)state;
	kmake_target(&m, 3, "/out", "modules", &a);
	for (size_t i = 0; i < a.n; i++) {
		mk = !strcmp(a.v[i], "make") ? i + 1 : mk;
		j = !strcmp(a.v[i], "-j3") ? i + 1 : j;
		o = !strcmp(a.v[i], "O=/out") ? i + 1 : o;
		t = !strcmp(a.v[i], "modules") ? i + 1 : t;
	}
	assert_true(mk && j > mk && o > j && t == a.n);
	sl_free(&a);
	kmake_target(&m, 1, NULL, "bzImage", &a);
	for (size_t i = 0; i < a.n; i++)
		assert_null(strstr(a.v[i], "O="));
	assert_string_equal(a.v[a.n - 1], "bzImage");
	sl_free(&a);
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
	put("workloads/kmod/Kbuild", "obj-m := cmabench_dma.o\n");
	put("workloads/kmod/cmabench_dma.c", "int x;\n");
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
		cmocka_unit_test(test_kmake_target),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_missing_patch),
		cmocka_unit_test(test_shipped_keys_unchanged),
		cmocka_unit_test(test_tree_keys),
	};

	return cmocka_run_group_tests_name("cache-keys", tests, setup, teardown);
}
