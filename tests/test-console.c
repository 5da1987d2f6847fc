/* Console lines the runner must recognise, and ones it must not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/console.h"

/* A kernel that made no area for the set-up says so on the console: that line. */
static void test_no_area(void **state)
{
	char *l;

	(void)state;
	l = console_no_area("[    0.000000] Linux version 6.12.118\r\n[    0.006875] cma: gcma: 256 MiB "
			    "requested, more than half of the 511 MiB of memory; no GCMA area\r\n"
			    "[    0.1] next\r\n");
	assert_string_equal(l, "[    0.006875] cma: gcma: 256 MiB requested, more than half of "
			    "the 511 MiB of memory; no GCMA area");
	free(l);
	l = console_no_area("[    0.0] cma: Failed to reserve 512 MiB on node 0");
	assert_string_equal(l, "[    0.0] cma: Failed to reserve 512 MiB on node 0");
	free(l);
	assert_null(console_no_area("[    0.0] cma: Reserved 256 MiB at 0x0000000010000000 on node -1\n"));
}

static void test_markers(void **state)
{
	(void)state;
	assert_int_equal(console_classify("cmabench-init: start uptime=2.81"), CON_INIT_START);
	assert_int_equal(console_classify("cmabench-init: done status=ok"), CON_DONE_OK);
	assert_int_equal(console_classify("cmabench-init: done status=failed"), CON_DONE_FAILED);
	assert_int_equal(console_classify("cmabench-step: begin fio-randread"), CON_STEP);
	assert_int_equal(console_classify("[    0.000000] Linux version 6.12.48 (root@x) (gcc 12.2.0)"),
			 CON_KERNEL_START);
}

static void test_trouble(void **state)
{
	(void)state;
	assert_int_equal(console_classify("[   12.345678] Kernel panic - not syncing: Fatal exception"),
			 CON_PANIC);
	assert_int_equal(console_classify("[    3.1] ---[ end Kernel panic - not syncing: VFS: Unable to mount root fs ]---"),
			 CON_PANIC);
	assert_int_equal(console_classify("[    5.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008"),
			 CON_OOPS);
	assert_int_equal(console_classify("[    5.000001] Oops: 0002 [#1] PREEMPT SMP NOPTI"), CON_OOPS);
	assert_int_equal(console_classify("[    5.1] kernel BUG at mm/cma.c:123!"), CON_OOPS);
	assert_int_equal(console_classify("[    5.2] general protection fault, probably for non-canonical address"),
			 CON_OOPS);
	assert_int_equal(console_classify("[    6.0] WARNING: CPU: 0 PID: 1 at mm/page_alloc.c:4400 foo+0x1/0x2"),
			 CON_WARNING);
	assert_int_equal(console_classify("[    1.0] Kernel panic - not syncing: Requested init /sbin/init failed (error -2)."),
			 CON_PANIC);
	assert_int_equal(console_classify("[    1.0] Requested init /sbin/init failed (error -2)."), CON_NO_INIT);
}

/* The judge's patterns the runner counts too: stalls and list corruption are warnings. */
static void test_stalls_and_lists(void **state)
{
	(void)state;
	assert_int_equal(console_classify("[   60.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"),
			 CON_WARNING);
	assert_int_equal(console_classify("[  120.0] INFO: task kworker/0:1:12 blocked for more than 120 seconds."),
			 CON_WARNING);
	assert_int_equal(console_classify("[    9.0] list_add corruption. prev->next should be next (ffff)"),
			 CON_WARNING);
	assert_int_equal(console_classify("[    9.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s!"),
			 CON_OOPS);
	assert_int_equal(console_classify("[    9.1] Call Trace:"), CON_STACK);
	assert_int_equal(console_classify("[    9.1] Call trace:"), CON_STACK);
}

/* A whole console: counted lines, and an excused atomic failure's own stack. */
static void test_judge(void **state)
{
	char *out = NULL;
	size_t len = 0;
	const char text[] =
		"[ 1.0] kworker/u4:0: page allocation failure: order:0, mode:0x40830(GFP_ATOMIC|__GFP_COMP)\n"
		"[ 1.1] Call Trace:\n"
		"[ 1.2]  <TASK>\n"
		"[ 1.3]  warn_alloc+0x1/0x2\n"
		"[ 1.4]  </TASK>\n"
		"[ 2.0] WARNING: CPU: 0 PID: 1 at mm/cma.c:1 cma_alloc+0x1/0x2\n"
		"[ 2.1] Call Trace:\n";
	FILE *in = fmemopen((void *)text, sizeof(text) - 1, "r");
	FILE *o = open_memstream(&out, &len);
	struct console_verdict v;

	(void)state;
	assert_int_equal(console_judge(in, o, &v), 0);
	fclose(in);
	fclose(o);
	assert_int_equal(v.counted, 2);
	assert_int_equal(v.excused, 1);
	assert_non_null(strstr(out, "A [ 1.0] kworker/u4:0: page allocation failure"));
	assert_non_null(strstr(out, "S [ 2.0] WARNING:"));
	assert_null(strstr(out, "S [ 1.1]"));
	free(out);
}

static void test_innocent(void **state)
{
	(void)state;
	/* Mentions are not events: only a message that starts with BUG: is one. */
	assert_int_equal(console_classify("[    0.1] DEBUG: BUG: this is a log of a test"), CON_NONE);
	assert_int_equal(console_classify("fio: BUG: in the job name"), CON_NONE);
	assert_int_equal(console_classify("[    0.2] cma: Reserved 64 MiB at 0x000000001c000000"), CON_NONE);
	assert_int_equal(console_classify("echo cmabench-init: done status=ok"), CON_NONE);
	assert_int_equal(console_classify(""), CON_NONE);
	assert_string_equal(console_event_name(CON_PANIC), "panic");
}

/* The runner's view of an announced report: accepted once, by its function only. */
static void test_expected(void **state)
{
	struct console_expected x = { 0 };
	const char *warn = "[    1.7] WARNING: CPU: 0 PID: 88 at mm/cma.c:732 gcma_release_skipped+0x51/0x60";
	const char *kasan = "[   24.8] BUG: KASAN: use-after-free in gcma_test_uaf_fn+0x15c/0x1b0";

	(void)state;
	assert_null(console_expect_take(&x, warn));
	assert_false(console_expect_add(&x, "[    1.6] cma: Reserved 64 MiB"));
	assert_true(console_expect_add(&x, "[    1.6]     # gcma_test_release_twice: "
					   "expect-splat: WARNING at gcma_release_skipped"));
	assert_null(console_expect_take(&x, "[    1.7] WARNING: CPU: 0 PID: 88 at mm/cma.c:9 cma_release+0x5/0x60"));
	assert_string_equal(console_expect_take(&x, warn), "---[ end trace");
	assert_null(console_expect_take(&x, warn));
	assert_true(console_expect_add(&x, "[   24.7] expect-splat: BUG: KASAN: use-after-free in gcma_test_uaf_fn"));
	assert_null(console_expect_take(&x, "[   24.8] BUG: KASAN: slab-out-of-bounds in gcma_test_uaf_fn+0x1/0x2"));
	assert_string_equal(console_expect_take(&x, kasan), "=========");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markers),
		cmocka_unit_test(test_no_area),
		cmocka_unit_test(test_trouble),
		cmocka_unit_test(test_stalls_and_lists),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_innocent),
		cmocka_unit_test(test_expected),
	};

	return cmocka_run_group_tests_name("console", tests, NULL, NULL);
}
