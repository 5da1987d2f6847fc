/*
 * run --resume (run/resume.c): the key of a scenario's plan follows what its
 * runs do, and a complete directory with that key is found, an interrupted
 * one or another scenario's is not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/resume.h"

static void put(const char *root, const char *dir, const char *json)
{
	char *d = xasprintf("%s/%s", root, dir), *m = xasprintf("%s/metadata.json", d);

	assert_int_equal(mkdir_p(d), 0);
	assert_int_equal(write_file(m, json, strlen(json)), 0);
	free(m);
	free(d);
}

static void test_find(void **state)
{
	char root[] = "/tmp/test-resume-XXXXXX", *got;

	(void)state;
	assert_non_null(mkdtemp(root));
	put(root, "smoke-20261205-120000", "{\"plan_key\":\"aaa\",\"interrupted\":true}");
	put(root, "smoke-big-20261205-120000", "{\"plan_key\":\"aaa\"}");
	put(root, ".tmp-smoke-20261205-130000-x", "{\"plan_key\":\"aaa\"}");
	put(root, "smoke-20261205-110000", "{\"plan_key\":\"bbb\"}");
	/* interrupted, another scenario, unfinished, another plan: none */
	assert_null(resume_find(root, "smoke", "aaa"));
	put(root, "smoke-20261205-140000-2", "{\"plan_key\":\"aaa\"}");
	got = resume_find(root, "smoke", "aaa");
	assert_non_null(got);
	assert_non_null(strstr(got, "/smoke-20261205-140000-2"));
	free(got);
	assert_null(resume_find(root, "smok", "aaa"));
	assert_null(resume_find("/tmp/no-such-results-root", "smoke", "aaa"));
	rm_rf(root);
}

static void test_key(void **state)
{
	struct cmb_env env;
	struct scenario a = { .name = "a" }, b = { .name = "b" };
	struct run_spec spec = { .arch = &cmb_arches[0], .kernel = "no-such-variant",
				 .disk = "host" };
	struct run runs[2] = {
		{ .scn = &a, .spec = &spec, .name = "cma-r1", .steps = "alloc 1024\n",
		  .cmdline = "console=ttyS0" },
		{ .scn = &b, .spec = &spec, .name = "cma-r1", .steps = "alloc 2048\n",
		  .cmdline = "console=ttyS0" },
	};
	struct plan plan = { runs, 2 };
	struct run_ctx ctx = { .env = &env, .accel = "tcg" };
	char ka[65], ka2[65], kb[65], kc[65], kd[65], ke[65], kf[65];

	(void)state;
	env_init(&env);
	resume_key(&ctx, &plan, &a, ka);
	resume_key(&ctx, &plan, &a, ka2);
	resume_key(&ctx, &plan, &b, kb);
	assert_string_equal(ka, ka2);
	assert_string_not_equal(ka, kb);
	/* the same runs under another accelerator are other results */
	ctx.accel = "kvm";
	resume_key(&ctx, &plan, &a, kc);
	assert_string_not_equal(ka, kc);
	/* disk-scale=cpu: the eMMC's throttle follows this host's slow-down */
	spec.disk = "emmc";
	ctx.copy_slowdown[0] = 5;
	resume_key(&ctx, &plan, &a, kd);
	assert_string_not_equal(kc, kd);
	ctx.copy_slowdown[0] = 6;
	resume_key(&ctx, &plan, &a, ke);
	assert_string_not_equal(kd, ke);
	/* a scenario's own disk-scale: the host's slow-down does not matter */
	spec.disk_scale = 4;
	resume_key(&ctx, &plan, &a, kf);
	ctx.copy_slowdown[0] = 5;
	resume_key(&ctx, &plan, &a, kd);
	assert_string_equal(kd, kf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
