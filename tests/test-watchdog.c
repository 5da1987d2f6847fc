/* The progress watchdog's judgement of a guest's console and share (watchdog.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "run/watchdog.h"

#define S 1000000000ull

/* A watchdog of 60 s past our init's start at t = 1 s. */
static void started(struct watchdog *w)
{
	wd_init(w, 60, 0);
	assert_true(wd_line(w, "cmabench-init: start uptime=2.1", 1 * S));
}

static void boot_lines_count_until_init(void **state)
{
	struct watchdog w;

	(void)state;
	wd_init(&w, 60, 0);
	assert_true(wd_line(&w, "[    0.000000] Linux version 6.12.48", 1 * S));
	/* not armed before init: a quiet boot is the VM timeout's */
	assert_false(wd_silent(&w, 500 * S));
	assert_true(wd_line(&w, "cmabench-init: start uptime=2.1", 501 * S));
	assert_false(wd_line(&w, "[  120.1] INFO: task stale-read:81 blocked for more than 120 seconds.",
			     502 * S));
	assert_false(wd_silent(&w, 560 * S));
	assert_true(wd_silent(&w, 562 * S));
	wd_free(&w);
}

static void beats_count_only_when_their_numbers_move(void **state)
{
	struct watchdog w;

	(void)state;
	started(&w);
	assert_true(wd_line(&w, "cmabench-step: begin script-stale-read", 2 * S));
	assert_true(wd_line(&w, "cmabench-heartbeat: script-stale-read cpu=100 io=7", 22 * S));
	/* the heartbeat's own cost is not progress */
	assert_false(wd_line(&w, "cmabench-heartbeat: script-stale-read cpu=100 io=7 (self 912 us)",
			     42 * S));
	assert_false(wd_line(&w, "cmabench-heartbeat: script-stale-read cpu=100 io=7", 62 * S));
	assert_false(wd_silent(&w, 81 * S));
	assert_true(wd_silent(&w, 83 * S));
	assert_non_null(strstr(w.last_what, "cpu=100 io=7"));
	/* a beat with new numbers, or of another step, is progress */
	assert_true(wd_line(&w, "cmabench-heartbeat: script-stale-read cpu=100 io=8", 84 * S));
	assert_true(wd_line(&w, "cmabench-heartbeat: alloc cpu=100 io=8", 85 * S));
	assert_false(wd_silent(&w, 140 * S));
	wd_free(&w);
}

static void share_rows_are_progress(void **state)
{
	struct watchdog w;

	(void)state;
	started(&w);
	assert_false(wd_files(&w, 100, 2 * S));  /* the first look sets the base */
	assert_false(wd_files(&w, 100, 50 * S));
	assert_true(wd_files(&w, 180, 55 * S));
	assert_false(wd_silent(&w, 110 * S));
	assert_true(wd_silent(&w, 116 * S));
	wd_free(&w);
}

static void no_bound_no_watchdog(void **state)
{
	struct watchdog w;

	(void)state;
	wd_init(&w, 0, 0);
	wd_line(&w, "cmabench-init: start uptime=2.1", 1 * S);
	assert_false(wd_silent(&w, 100000 * S));
	wd_free(&w);
}

/* Without QEMU the probe still runs its course and says what it could not do. */
static void probe_without_qemu_ends_and_says_why(void **state)
{
	struct watchdog w;
	struct wd_guest g = { .serial_in = -1, .serial_id = "serial0" };
	char sum[256];

	(void)state;
	started(&w);
	assert_true(wd_silent(&w, 70 * S));
	assert_true(wd_probe(&w, &g, 70 * S, 69 * S));
	assert_int_equal(w.phase, WD_DONE);
	assert_int_equal(w.njiffies, 3);
	assert_non_null(strstr(w.log.buf, "sysrq t at +0.0 s: not sent"));
	assert_non_null(strstr(w.log.buf, "jiffies at +0.0 s: not read"));
	wd_summary(&w, sum, sizeof(sum));
	assert_non_null(strstr(sum, "no progress for 60 s (last: cmabench-init: start"));
	assert_non_null(strstr(sum, "jiffies not read"));
	wd_free(&w);
}

struct keys {
	char sent[16];
	size_t n;
};

static bool record_key(void *arg, char key)
{
	struct keys *k = arg;

	if (k->n + 1 < sizeof(k->sent))
		k->sent[k->n++] = key;
	return true;
}

/*
 * Each key is sent again until the guest prints its header ("sysrq: "),
 * at most 3 times; an answered dump ends when the console is quiet for
 * 3 s, or at its cap.
 */
static void probe_resends_until_answered(void **state)
{
	struct watchdog w;
	struct keys k = { 0 };
	struct wd_guest g = { .serial_in = -1, .send_sysrq = record_key, .send_arg = &k };

	(void)state;
	started(&w);
	assert_false(wd_probe(&w, &g, 70 * S, 69 * S));
	assert_string_equal(k.sent, "9");
	/* no header within 2 s (the break taken for a NUL): again */
	assert_false(wd_probe(&w, &g, 71 * S, 69 * S));
	assert_string_equal(k.sent, "9");
	assert_false(wd_probe(&w, &g, 73 * S, 69 * S));
	assert_string_equal(k.sent, "99");
	wd_line(&w, "[   84.4] sysrq: Changing Loglevel", 73 * S);
	assert_false(wd_probe(&w, &g, 73 * S, 73 * S));   /* answered */
	assert_false(wd_probe(&w, &g, 73 * S, 73 * S));   /* 9 needs no quiet: t */
	assert_string_equal(k.sent, "99t");
	wd_line(&w, "[   84.5] sysrq: Show State", 74 * S);
	assert_false(wd_probe(&w, &g, 74 * S, 74 * S));
	/* the dump prints on: wait */
	assert_false(wd_probe(&w, &g, 76 * S, 76 * S));
	assert_string_equal(k.sent, "99t");
	/* quiet for 3 s: w, after a jiffies sample */
	assert_false(wd_probe(&w, &g, 80 * S, 76 * S));
	assert_string_equal(k.sent, "99tw");
	assert_int_equal(w.njiffies, 2);
	/* w never answered: three tries, then done */
	assert_false(wd_probe(&w, &g, 83 * S, 80 * S));
	assert_false(wd_probe(&w, &g, 86 * S, 80 * S));
	assert_string_equal(k.sent, "99twww");
	assert_true(wd_probe(&w, &g, 89 * S, 80 * S));
	assert_int_equal(w.njiffies, 3);
	assert_non_null(strstr(w.log.buf, "sysrq w: no answer after 3 tries"));
	assert_non_null(strstr(w.log.buf, "sysrq t: answered at +4.0 s"));
	wd_free(&w);
}

static void timers_stopped_or_running(void **state)
{
	struct watchdog w;
	char sum[256];

	(void)state;
	started(&w);
	w.njiffies = 3;
	w.jiffies[0] = (struct wd_jiffies){ 0.0, 4295000000ull, true };
	w.jiffies[2] = (struct wd_jiffies){ 20.0, 4295000000ull, true };
	wd_summary(&w, sum, sizeof(sum));
	assert_non_null(strstr(sum, "jiffies +0 in 20.0 s (timers stopped)"));
	w.jiffies[2].jiffies += 5000;
	wd_summary(&w, sum, sizeof(sum));
	assert_non_null(strstr(sum, "jiffies +5000 in 20.0 s (timers running)"));
	/* a board's word on its clock (/proc/uptime over ssh) is said instead */
	w.njiffies = 0;
	snprintf(w.clock, sizeof(w.clock), "uptime +4.1 s in 4.3 s (timers running)");
	wd_summary(&w, sum, sizeof(sum));
	assert_non_null(strstr(sum, "; uptime +4.1 s in 4.3 s (timers running)"));
	assert_null(strstr(sum, "jiffies"));
	wd_free(&w);
}

/*
 * The ring of issue 42's hang (results/bench/hang-20261207-180708): QEMU
 * done with every request, the guest's used_event a ring behind; an idle
 * healthy queue, one with a request still in QEMU, one the guest has not
 * consumed yet with its event ahead, and the 16-bit wrap.
 */
static void lost_interrupt_from_the_ring(void **state)
{
	struct watchdog w;
	char sum[320];

	(void)state;
	assert_true(virtq_lost_irq(32508, 32508, 32252, 0));
	assert_false(virtq_lost_irq(226, 226, 226, 0));
	assert_false(virtq_lost_irq(32508, 32500, 32252, 8));
	assert_false(virtq_lost_irq(32510, 32508, 32508, 2));
	assert_true(virtq_lost_irq(3, 3, 65535, 0));
	assert_false(virtq_lost_irq(0, 0, 0, 0));
	started(&w);
	lost_irq_note(w.lost_irq, sizeof(w.lost_irq),
		      "/machine/peripheral-anon/device[2]/virtio-backend", 32508, 32252);
	assert_string_equal(w.lost_irq, "lost virtio interrupt on device[2]: every request done "
			    "(used.idx 32508), the guest's used_event 32252 already passed");
	w.njiffies = 2;
	w.jiffies[0] = (struct wd_jiffies){ 0.0, 4294917782ull, true };
	w.jiffies[1] = (struct wd_jiffies){ 6.7, 4294919432ull, true };
	wd_summary(&w, sum, sizeof(sum));
	assert_non_null(strstr(sum, "(timers running); lost virtio interrupt on device[2]: "));
	assert_non_null(strstr(sum, "used_event 32252 already passed"));
	wd_free(&w);
}

static void jiffies_address_from_system_map(void **state)
{
	char *map = xasprintf("%s/hangdump/System.map", TEST_DATA);

	(void)state;
	assert_true(sysmap_symbol(map, "jiffies_64") == 0xffffffff82605000ull);
	assert_true(sysmap_symbol(map, "no_such_symbol") == 0);
	assert_true(sysmap_symbol("/nonexistent/System.map", "jiffies_64") == 0);
	free(map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(boot_lines_count_until_init),
		cmocka_unit_test(beats_count_only_when_their_numbers_move),
		cmocka_unit_test(share_rows_are_progress),
		cmocka_unit_test(no_bound_no_watchdog),
		cmocka_unit_test(probe_without_qemu_ends_and_says_why),
		cmocka_unit_test(probe_resends_until_answered),
		cmocka_unit_test(timers_stopped_or_running),
		cmocka_unit_test(lost_interrupt_from_the_ring),
		cmocka_unit_test(jiffies_address_from_system_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
