/*
 * disk-scale=cpu's divisor (lib/calib): the median and spread of rounds,
 * odd and even; its record in JSON and in the cache's history, where a
 * bare number from before rounds is one round; the words the run's
 * warnings and the report use.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/calib.h"
#include "lib/history.h"
#include "lib/util.h"
#include "run/calibrate.h"
#include "scenario/plan.h"

#define near(a, b) assert_true((a) > (b) - 1e-9 && (a) < (b) + 1e-9)

static void test_odd_rounds(void **state)
{
	const double r[5] = { 5.1, 4.5, 4.8, 4.9, 4.6 };
	struct calib c = { 0 };

	(void)state;
	assert_int_equal(calib_from_ratios(&c, r, 5), 0);
	near(c.median, 4.8);
	near(c.min, 4.5);
	near(c.max, 5.1);
	assert_int_equal(c.rounds, 5);
	/* the input keeps its order */
	near(r[0], 5.1);
	assert_false(calib_wide(&c));
}

static void test_even_rounds(void **state)
{
	const double r[4] = { 3.0, 4.0, 2.0, 6.0 };
	struct calib c = { 0 };

	(void)state;
	assert_int_equal(calib_from_ratios(&c, r, 4), 0);
	/* the mean of the middle two */
	near(c.median, 3.5);
	near(c.min, 2.0);
	near(c.max, 6.0);
	assert_int_equal(c.rounds, 4);
	assert_true(calib_wide(&c));
	/* one round: its own median, never wide */
	assert_int_equal(calib_from_ratios(&c, r + 1, 1), 0);
	near(c.median, 4.0);
	assert_int_equal(c.rounds, 1);
	assert_false(calib_wide(&c));
}

static void test_bad_rounds(void **state)
{
	const double r[3] = { 4.0, -1, 5.0 };
	struct calib c = { .median = 7 };

	(void)state;
	assert_int_equal(calib_from_ratios(&c, r, 0), -1);
	assert_int_equal(calib_from_ratios(&c, r, 3), -1);
	near(c.median, 7);
}

static struct calib measured(void)
{
	const double r[5] = { 5.1, 4.5, 4.8, 4.9, 4.6 };
	struct calib c = { .source = CALIB_MEASURED, .load = 0.5 };

	calib_from_ratios(&c, r, 5);
	strcpy(c.date, "2026-12-04T10:11:12Z");
	return c;
}

static void test_json(void **state)
{
	/* binary fractions: printed as written */
	const double r[3] = { 4.75, 4.5, 5.25 };
	struct calib c = measured(), back = { 0 }, key = { .source = CALIB_KEY };
	json_object *o;

	(void)state;
	calib_from_ratios(&c, r, 3);
	o = calib_to_json(&c);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"source\":\"measured\",\"rounds\":3,\"median\":4.75,\"min\":4.5,"
			    "\"max\":5.25,\"date\":\"2026-12-04T10:11:12Z\",\"host_load\":0.5}");
	assert_int_equal(calib_from_json(&back, o), 0);
	assert_int_equal(back.source, CALIB_MEASURED);
	assert_int_equal(back.rounds, 3);
	near(back.median, 4.75);
	near(back.min, 4.5);
	near(back.max, 5.25);
	near(back.load, 0.5);
	assert_string_equal(back.date, "2026-12-04T10:11:12Z");
	json_object_put(o);
	/* the scenario's number: only where it came from */
	o = calib_to_json(&key);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"source\":\"key\"}");
	assert_int_equal(calib_from_json(&back, o), 0);
	assert_int_equal(back.source, CALIB_KEY);
	assert_int_equal(back.rounds, 0);
	near(back.load, -1);
	json_object_put(o);
	/* not a record: untouched */
	o = json_object_new_double(4.4);
	assert_int_equal(calib_from_json(&back, o), -1);
	assert_int_equal(calib_from_json(&back, NULL), -1);
	assert_int_equal(back.source, CALIB_KEY);
	json_object_put(o);
}

static void test_describe(void **state)
{
	struct calib c = measured(), old;
	char *s;

	(void)state;
	s = calib_describe(&c, 0);
	assert_string_equal(s, "median of 5 rounds, 4.5x-5.1x, measured 2026-12-04");
	free(s);
	c.source = CALIB_HISTORY;
	s = calib_describe(&c, 0);
	assert_string_equal(s, "median of 5 rounds, 4.5x-5.1x, measured 2026-12-04, "
			       "from the cache's history");
	free(s);
	calib_one(&old, 4.79, CALIB_HISTORY);
	s = calib_describe(&old, 0);
	assert_string_equal(s, "1 round, from the cache's history, date not recorded");
	free(s);
	old.source = CALIB_KEY;
	s = calib_describe(&old, 2.5);
	assert_string_equal(s, "disk-scale=2.5 in the scenario");
	free(s);
	c.max = 6.0;
	s = calib_describe(&c, 0);
	assert_non_null(strstr(s, "4.5x-6.0x, measured 2026-12-04, from the cache's history; "
				  "the rounds disagree (max/min 1.33)"));
	free(s);
}

static void test_doubts(void **state)
{
	struct calib c = measured();
	char *s;

	(void)state;
	s = calib_doubts(&c, 2);
	assert_string_equal(s, "");
	free(s);
	/* 1.5 on 2 cores: more than the one our guest leaves to the rest */
	c.load = 1.5;
	s = calib_doubts(&c, 2);
	assert_string_equal(s, "the host's other work kept 1.5 of its 2 cores busy when it was measured");
	free(s);
	s = calib_doubts(&c, 4);
	assert_string_equal(s, "");
	free(s);
	c.max = 6.0;
	s = calib_doubts(&c, 2);
	assert_string_equal(s, "its 5 rounds disagree: 4.5x to 6.0x (max/min 1.33 > 1.25); "
			       "the host's other work kept 1.5 of its 2 cores busy when it was measured");
	free(s);
	/* unknown load: no doubt from it */
	c.max = 5.1;
	c.load = -1;
	s = calib_doubts(&c, 1);
	assert_string_equal(s, "");
	free(s);
}

static void test_history(void **state)
{
	char dir[] = "/tmp/test-calib-XXXXXX", *cmd;
	struct cmb_env env = { 0 };
	struct calib c = measured(), got;
	const char *key = "copy-slowdown.tcg.QEMU_7.2";

	(void)state;
	assert_non_null(mkdtemp(dir));
	env.cache_dir = dir;
	assert_int_equal(calib_recall(&env, key, &got), -1);
	/* a bare number, as cmabench kept it before rounds: one round */
	history_set(&env, key, 4.79);
	assert_int_equal(calib_recall(&env, key, &got), 0);
	assert_int_equal(got.source, CALIB_HISTORY);
	assert_int_equal(got.rounds, 1);
	near(got.median, 4.79);
	near(got.min, 4.79);
	near(got.max, 4.79);
	assert_string_equal(got.date, "");
	/* rounds beside the number, which stays what older versions read */
	calib_keep(&env, key, &c);
	near(history_get(&env, key), 4.8);
	assert_int_equal(calib_recall(&env, key, &got), 0);
	assert_int_equal(got.source, CALIB_HISTORY);
	assert_int_equal(got.rounds, 5);
	near(got.min, 4.5);
	assert_string_equal(got.date, "2026-12-04T10:11:12Z");
	/* an older version measured since: its number, one round */
	history_set(&env, key, 2.7);
	assert_int_equal(calib_recall(&env, key, &got), 0);
	assert_int_equal(got.rounds, 1);
	near(got.median, 2.7);
	cmd = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/*
 * disk-scale=cpu is measured under one clock per arch: a plan whose
 * scaled runs mix clock=host and clock=instructions is refused before any
 * guest boots (the run context is empty: a measurement would fail).
 */
static void test_mixed_clocks(void **state)
{
	static const char scn_text[] = "[global]\nsetup=cma\narea=32M\ndisk=emmc\n"
				       "disk-scale=cpu\nalloc-count=0\n[a]\n[b]\n"
				       "clock=instructions\n";
	const struct scn_ctx sctx = { .fio_dir = "/nonexistent" };
	char dir[] = "/tmp/cmb-calib-XXXXXX";
	struct scenario s;
	struct plan plan = { 0 };
	struct strbuf errs = { 0 };
	struct run_ctx ctx = { 0 };
	char *path;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = path_join(dir, "mixed.scn");
	assert_int_equal(write_file(path, scn_text, strlen(scn_text)), 0);
	assert_int_equal(scenario_load(path, &sctx, &s, &errs), 0);
	assert_int_equal(plan_add(&plan, &s, NULL, &errs), 0);
	assert_int_equal(calibrate_for_plan(&ctx, &plan), -1);
	plan_free(&plan);
	scenario_free(&s);
	sb_free(&errs);
	unlink(path);
	free(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_rounds),
		cmocka_unit_test(test_even_rounds),
		cmocka_unit_test(test_bad_rounds),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_doubts),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_mixed_clocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
