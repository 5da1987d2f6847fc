/*
 * The one estimate of a whole 'cmabench run' (lib/estimate.c): the steps
 * before the runs add up, the runs are placed as run/jobs.c starts them,
 * and what the finished steps took corrects what is left of their kind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/estimate.h"
#include "run/overall.h"

#define RUN(est) { .kind = EST_RUN, .estimate = (est) }
#define RUN_ON(est, grp, ncores) { .kind = EST_RUN, .estimate = (est), .group = (grp), \
				   .cores = (ncores) }
#define DONE(k, est, took) { .kind = (k), .state = EST_DONE, .estimate = (est), .seconds = (took) }

static void assert_near(double got, double want)
{
	if (got < want - 1e-6 || got > want + 1e-6)
		fail_msg("got %.6f, want %.6f", got, want);
}

/* Nothing has run: the estimates as given (the caller's defaults among them). */
static void test_nothing_known(void **state)
{
	struct est_step s[] = {
		{ .kind = EST_KERNEL, .estimate = 930 },
		{ .kind = EST_IMAGE, .estimate = 30 },
		RUN(50), RUN(50), RUN(50), RUN(50),
	};
	struct strbuf sb = { 0 };

	(void)state;
	for (int k = 0; k < EST_KINDS; k++)
		assert_near(est_scale(s, ARRAY_SIZE(s), (enum est_kind)k), 1);
	assert_near(est_remaining(s, ARRAY_SIZE(s), 1, 2), 930 + 30 + 4 * 50);
	est_describe(&sb, s, ARRAY_SIZE(s), 1, 2);
	assert_string_equal(sb.buf, "1 kernel to build (~15:30), the image (~0:30), "
			    "4 runs at --jobs 1 (~3:20): about 19:20 in all");
	sb_free(&sb);
	/* no step at all */
	assert_near(est_remaining(NULL, 0, 1, 2), 0);
	est_describe(&sb, NULL, 0, 1, 2);
	assert_string_equal(sb.buf, "nothing to do");
	sb_free(&sb);
}

/* Done steps scale what is left of their own kind, not of the others. */
static void test_faster_and_slower(void **state)
{
	struct est_step s[] = {
		DONE(EST_KERNEL, 600, 900),          /* the build took x1.5 */
		{ .kind = EST_KERNEL, .estimate = 600 },
		DONE(EST_RUN, 100, 50),
		DONE(EST_RUN, 100, 70),              /* runs: 120 s for 200: x0.6 */
		DONE(EST_RUN, 100, 0),               /* skipped (no kernel): not counted */
		RUN(100), RUN(100),
	};

	(void)state;
	assert_near(est_scale(s, ARRAY_SIZE(s), EST_KERNEL), 1.5);
	assert_near(est_scale(s, ARRAY_SIZE(s), EST_RUN), 0.6);
	assert_near(est_scale(s, ARRAY_SIZE(s), EST_IMAGE), 1);
	assert_near(est_remaining(s, ARRAY_SIZE(s), 1, 2), 600 * 1.5 + 2 * 100 * 0.6);
}

/* A step running now: what is left of it, never less than nothing. */
static void test_running(void **state)
{
	struct est_step s[] = {
		{ .kind = EST_KERNEL, .state = EST_RUNNING, .estimate = 600, .seconds = 200 },
		{ .kind = EST_IMAGE, .estimate = 30 },
		RUN(100),
	};

	(void)state;
	assert_near(est_remaining(s, ARRAY_SIZE(s), 1, 2), 400 + 30 + 100);
	s[0].seconds = 700;                  /* past its estimate */
	assert_near(est_remaining(s, ARRAY_SIZE(s), 1, 2), 30 + 100);
}

/* --jobs 2 on 2 cores: the runs placed as jobs.c starts them. */
static void test_jobs_two(void **state)
{
	/* 1-vCPU runs: two at once */
	struct est_step one[] = { RUN_ON(100, 0, 1), RUN_ON(100, 0, 1), RUN_ON(100, 0, 1),
				  RUN_ON(100, 0, 1) };
	/* 2-vCPU runs hold both cores: one at a time, whatever --jobs says */
	struct est_step two[] = { RUN_ON(100, 0, 2), RUN_ON(100, 0, 2) };
	/* a scenario that runs alone (cores 0) */
	struct est_step alone[] = { RUN_ON(100, 0, 0), RUN_ON(100, 0, 0) };
	/* in plan order: the long one beside three short ones in turn */
	struct est_step uneven[] = { RUN_ON(100, 0, 1), RUN_ON(10, 0, 1), RUN_ON(10, 0, 1),
				     RUN_ON(10, 0, 1) };
	/* a scenario's runs end before the next scenario's start */
	struct est_step groups[] = { RUN_ON(100, 0, 1), RUN_ON(100, 0, 1), RUN_ON(50, 1, 1) };
	/* one running for 30 s: it ends at 70, the next starts then */
	struct est_step busy[] = {
		{ .kind = EST_RUN, .state = EST_RUNNING, .estimate = 100, .seconds = 30, .cores = 1 },
		RUN_ON(100, 0, 1), RUN_ON(100, 0, 1), RUN_ON(100, 0, 1),
	};
	struct strbuf sb = { 0 };

	(void)state;
	assert_near(est_remaining(one, ARRAY_SIZE(one), 2, 2), 200);
	assert_near(est_remaining(one, ARRAY_SIZE(one), 1, 2), 400);
	assert_near(est_remaining(two, ARRAY_SIZE(two), 2, 2), 200);
	assert_near(est_remaining(alone, ARRAY_SIZE(alone), 2, 2), 200);
	assert_near(est_remaining(uneven, ARRAY_SIZE(uneven), 2, 2), 100);
	assert_near(est_remaining(groups, ARRAY_SIZE(groups), 2, 2), 150);
	/* A 0-100 (started at -30), B 0-100, C 70-170, D 100-200 */
	assert_near(est_remaining(busy, ARRAY_SIZE(busy), 2, 2), 200);
	est_describe(&sb, one, ARRAY_SIZE(one), 2, 2);
	assert_string_equal(sb.buf, "4 runs at --jobs 2 (~3:20): about 3:20 in all");
	sb_free(&sb);
}

/* The line at a step's end. */
static void test_status_line(void **state)
{
	struct est_step s[] = {
		DONE(EST_KERNEL, 900, 1200),
		DONE(EST_IMAGE, 30, 30),
		DONE(EST_RUN, 100, 110),
		RUN(100), RUN(100),
	};
	struct strbuf sb = { 0 };

	(void)state;
	est_status(&sb, s, ARRAY_SIZE(s), 1, 2, 1345);
	assert_string_equal(sb.buf, "22:25 elapsed; done: kernel 1/1, image 1/1, runs 1/3; "
			    "~3:40 left (runs x1.10 their estimates)");
	sb_free(&sb);
	s[3] = (struct est_step)DONE(EST_RUN, 100, 95);
	s[4] = (struct est_step)DONE(EST_RUN, 100, 95);
	est_status(&sb, s, ARRAY_SIZE(s), 1, 2, 1545);
	assert_string_equal(sb.buf, "25:45 elapsed; done: kernel 1/1, image 1/1, runs 3/3; "
			    "nothing left");
	sb_free(&sb);
}

/* overall_end's lines (stdout), for a hand-made plan: no cache, no history. */
static char *lines_of(struct overall *o, void (*drive)(struct overall *))
{
	char path[] = "/tmp/test-estimate-XXXXXX";
	int fd = mkstemp(path), saved = dup(STDOUT_FILENO);
	char *out;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	drive(o);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(fd);
	out = read_file(path, NULL);
	unlink(path);
	assert_non_null(out);
	return out;
}

/* A hand-made overall: no kernel, image or calibration step until set. */
static void no_kernel_steps(struct overall *o)
{
	for (size_t k = 0; k < RUNNER_MAX_KERNELS; k++)
		o->kernel[k] = SIZE_MAX;
	for (size_t a = 0; a < RUNNER_MAX_ARCHES; a++)
		o->image[a] = o->calibrate[a] = SIZE_MAX;
}

static void drive(struct overall *o)
{
	overall_print_plan(o, "cmabench run");
	overall_start(o, EST_KERNEL, 0);
	overall_end(o, EST_KERNEL, 0, true);
	/* the image was guessed to be built, and was not: done when the runs start */
	overall_start(o, EST_RUN, 0);
	overall_end(o, EST_RUN, 0, false);      /* skipped: its time says nothing */
	overall_start(o, EST_RUN, 1);
	overall_end(o, EST_RUN, 1, false);
	/* not one of its steps (cached), or no overall: nothing */
	overall_end(o, EST_KERNEL, 1, true);
	overall_end(NULL, EST_RUN, 0, true);
}

static void test_overall_lines(void **state)
{
	struct est_step steps[] = {
		{ .kind = EST_KERNEL, .estimate = 600 },
		{ .kind = EST_IMAGE, .estimate = 30 },
		RUN(100), RUN(100),
	};
	uint64_t started[ARRAY_SIZE(steps)] = { 0 };
	struct overall o = { .steps = steps, .n = ARRAY_SIZE(steps), .started_ns = started,
			     .start_ns = now_ns(), .total = 830, .jobs = 1, .host_cores = 2,
			     .kernels_cached = 1, .first_run = 2 };
	char *out;

	(void)state;
	no_kernel_steps(&o);
	o.kernel[0] = 0;
	o.image[0] = 1;
	out = lines_of(&o, drive);
	assert_string_equal(out,
		"[cmabench run] 1 kernel to build (~10:00), the image (~0:30), "
		"2 runs at --jobs 1 (~3:20): about 13:50 in all; 1 kernel cached\n"
		"[cmabench run] 0:00 elapsed; done: kernel 1/1, image 0/1, runs 0/2; ~3:50 left\n"
		"[cmabench run] 0:00 elapsed; done: kernel 1/1, image 1/1, runs 1/2; ~1:40 left\n"
		"[cmabench run] 0:00 elapsed; done: kernel 1/1, image 1/1, runs 2/2; nothing left "
		"(estimated 13:50 at the start)\n");
	free(out);
}

/* --resume kept the first run's scenario: one line before the runs says what
 * is left without it, and the kept run's estimate does not scale the rest. */
static void drive_keep(struct overall *o)
{
	overall_print_plan(o, "cmabench run");
	overall_keep(o, 0);
	overall_keep(o, 7);                      /* not a run of the plan: nothing */
	overall_keep(NULL, 0);
	overall_print_status(o);
	overall_start(o, EST_RUN, 1);
	overall_end(o, EST_RUN, 1, false);
}

static void test_overall_keep(void **state)
{
	struct est_step steps[] = { RUN(100), RUN(100) };
	uint64_t started[ARRAY_SIZE(steps)] = { 0 };
	struct overall o = { .steps = steps, .n = ARRAY_SIZE(steps), .started_ns = started,
			     .start_ns = now_ns(), .total = 200, .jobs = 1, .host_cores = 2,
			     .first_run = 0 };
	char *out;

	(void)state;
	no_kernel_steps(&o);
	out = lines_of(&o, drive_keep);
	assert_string_equal(out,
		"[cmabench run] 2 runs at --jobs 1 (~3:20): about 3:20 in all\n"
		"[cmabench run] 0:00 elapsed; done: runs 1/2; ~1:40 left\n"
		"[cmabench run] 0:00 elapsed; done: runs 2/2; nothing left "
		"(estimated 3:20 at the start)\n");
	assert_int_equal(steps[0].seconds, 0);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_known),
		cmocka_unit_test(test_faster_and_slower),
		cmocka_unit_test(test_running),
		cmocka_unit_test(test_jobs_two),
		cmocka_unit_test(test_status_line),
		cmocka_unit_test(test_overall_lines),
		cmocka_unit_test(test_overall_keep),
	};

	return cmocka_run_group_tests_name("estimate", tests, NULL, NULL);
}
