/* Console lines the runner must recognise, and ones it must not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/console.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markers),
		cmocka_unit_test(test_trouble),
		cmocka_unit_test(test_innocent),
	};

	return cmocka_run_group_tests_name("console", tests, NULL, NULL);
}
