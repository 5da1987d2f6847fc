/*
 * run --jobs: a VM starts only while the running VMs' vCPUs fit the
 * host's cores (each pinned to cores of its own), and each finished job
 * says how many ran beside it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "run/jobs.h"
#include "lib/util.h"

/*
 * A "VM" that returns its cores. The pool's bookkeeping changes only when
 * a job is waited for, so a job that has ended still holds its cores.
 */
static char *vm(void *arg, const char *cores)
{
	(void)arg;
	return xstrdup(cores);
}

static void test_vcpus_fit_cores(void **state)
{
	struct jobs j;
	struct job_done d;
	bool seen[2] = { false, false };

	(void)state;
	/* a 4-core host, up to 3 VMs at once */
	jobs_init(&j, 3, 4);
	assert_true(jobs_can_start(&j, 2));
	assert_int_equal(jobs_start(&j, 0, 2, vm, NULL), 0);
	/* 2 of 4 cores in use: a 2-vCPU VM fits, a 3-vCPU one does not */
	assert_true(jobs_can_start(&j, 2));
	assert_false(jobs_can_start(&j, 3));
	assert_int_equal(jobs_start(&j, 1, 2, vm, NULL), 0);
	/* every core taken: not even a 1-vCPU VM starts, though --jobs allows 3 */
	assert_false(jobs_can_start(&j, 1));
	assert_int_equal(jobs_start(&j, 2, 1, vm, NULL), -1);
	assert_int_equal(jobs_running(&j), 2);
	for (int k = 0; k < 2; k++) {
		assert_true(jobs_wait(&j, &d));
		assert_int_equal(d.status, 0);
		assert_true(d.id < 2);
		/* pinned to cores of their own: 0-1 and 2-3 */
		assert_string_equal(d.out, d.id == 0 ? "0-1" : "2-3");
		/* each ran beside the other */
		assert_int_equal(d.beside, 1);
		seen[d.id] = true;
		free(d.out);
	}
	assert_true(seen[0] && seen[1]);
	assert_false(jobs_wait(&j, &d));
	/* all cores free again */
	assert_true(jobs_can_start(&j, 4));
	jobs_free(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vcpus_fit_cores),
	};

	return cmocka_run_group_tests_name("jobs", tests, NULL, NULL);
}
