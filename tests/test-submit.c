/* Slurm submissions: how many runs of a submission ran beside each run; and
 * what a command's runs came to (runner_tally), which sets its exit status. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/runner.h"
#include "run/submit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_object *run(const char *host, long start, long end)
{
	json_object *m = json_object_new_object(), *h = json_object_new_object();

	json_object_object_add(h, "name", json_object_new_string(host));
	json_object_object_add(m, "host", h);
	if (start >= 0) {
		json_object_object_add(m, "start_unix", json_object_new_int64(start));
		json_object_object_add(m, "end_unix", json_object_new_int64(end));
	}
	return m;
}

static long beside(json_object *m)
{
	json_object *v;

	return json_object_object_get_ex(m, "vms_beside", &v) ? json_object_get_int64(v) : -1;
}

static void test_beside(void **state)
{
	/* a: 0-100 on n1; b: 10-20 and c: 30-40 on n1 (never at once with each
	 * other); d: 0-100 on n2; e: 50-60 on n1 (with a only); f: no times;
	 * g: 100-110 on n1 (starts as a ends: not beside it) */
	json_object *m[] = {
		run("n1", 0, 100), run("n1", 10, 20), run("n1", 30, 40), run("n2", 0, 100),
		run("n1", 50, 60), run("n1", -1, -1), run("n1", 100, 110),
	};
	size_t n = sizeof(m) / sizeof(m[0]);

	(void)state;
	submit_set_beside(m, n);
	assert_int_equal(beside(m[0]), 1);  /* one of b, c, e at a time */
	assert_int_equal(beside(m[1]), 1);  /* a */
	assert_int_equal(beside(m[2]), 1);
	assert_int_equal(beside(m[3]), 0);  /* alone on n2 */
	assert_int_equal(beside(m[4]), 1);
	assert_int_equal(beside(m[5]), -1); /* unknown: left unset */
	assert_int_equal(beside(m[6]), 0);
	for (size_t i = 0; i < n; i++)
		json_object_put(m[i]);
}

/* One run ending as the next starts: they never ran at once. */
static void test_back_to_back(void **state)
{
	json_object *m[] = { run("n3", 0, 100), run("n3", 100, 110) };

	(void)state;
	submit_set_beside(m, 2);
	assert_int_equal(beside(m[0]), 0);
	assert_int_equal(beside(m[1]), 0);
	json_object_put(m[0]);
	json_object_put(m[1]);
}

static void test_three_at_once(void **state)
{
	json_object *m[] = { run("n1", 0, 50), run("n1", 10, 60), run("n1", 20, 30) };

	(void)state;
	submit_set_beside(m, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(beside(m[i]), 2);
		json_object_put(m[i]);
	}
}

static json_object *ended(const char *status, bool partial, long rows, long failed, long late)
{
	json_object *m = json_object_new_object();

	json_object_object_add(m, "status", json_object_new_string(status));
	if (partial)
		json_object_object_add(m, "partial", json_object_new_boolean(1));
	if (rows >= 0) {
		json_object_object_add(m, "requests", json_object_new_int64(rows));
		json_object_object_add(m, "requests_failed", json_object_new_int64(failed));
		json_object_object_add(m, "requests_timed_out", json_object_new_int64(late));
	}
	return m;
}

/*
 * Runs whose allocations failed or timed out are complete (ok); a degraded
 * run is complete too; a timeout or a panic is a failed run, partial with
 * its rows counted. Only failed runs would make 'cmabench run' exit non-zero.
 */
static void test_tally(void **state)
{
	json_object *m[] = {
		ended("ok", false, 30, 12, 5), ended("ok", false, 30, 0, 0),
		ended("degraded", false, 30, 1, 0), ended("timeout", true, 7, 2, 1),
		ended("panic", true, -1, 0, 0), ended("kernel-build-failed", false, -1, 0, 0),
	};
	struct run_tally t = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		runner_tally(&t, m[i]);
	assert_int_equal(t.runs, 6);
	assert_int_equal(t.ok, 2);
	assert_int_equal(t.degraded, 1);
	assert_int_equal(t.failed, 3);
	assert_int_equal(t.partial, 2);
	assert_int_equal(t.requests, 97);
	assert_int_equal(t.requests_failed, 15);
	assert_int_equal(t.requests_timed_out, 6);
	assert_true(runner_status_complete("ok"));
	assert_true(runner_status_complete("degraded"));
	assert_false(runner_status_complete("timeout"));
	assert_false(runner_status_complete("step-failed"));
	assert_false(runner_status_complete(NULL));
	f = open_memstream(&out, &len);
	runner_print_tally(f, &t, NULL);
	fclose(f);
	assert_string_equal(out, "6 run(s): 3 complete (2 ok, 1 degraded), 3 runs failed (2 partial, "
			    "rows kept)\nallocations: 97 requests, 15 failed or timed out (6 timed "
			    "out): results, not faults\n");
	free(out);
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		json_object_put(m[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beside),
		cmocka_unit_test(test_back_to_back),
		cmocka_unit_test(test_three_at_once),
		cmocka_unit_test(test_tally),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
