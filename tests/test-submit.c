/* Slurm submissions: how many runs of a submission ran beside each run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/submit.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beside),
		cmocka_unit_test(test_back_to_back),
		cmocka_unit_test(test_three_at_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
