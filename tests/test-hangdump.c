/* A hung guest's vCPU registers (QEMU's "info registers -a") named from a System.map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "run/hangdump.h"

static char *fixture(const char *name)
{
	char *path = xasprintf("%s/hangdump/%s", TEST_DATA, name);
	char *text = read_file(path, NULL);

	assert_non_null(text);
	free(path);
	return text;
}

/* The vCPUs of fixture @name, at most @max of them */
static size_t parse_fixture(const char *name, struct vcpu_regs *v, size_t max)
{
	char *text = fixture(name);
	size_t n = hangdump_parse_regs(text, v, max);

	free(text);
	return n;
}

static void x86_64_registers(void **state)
{
	struct vcpu_regs v[4];

	(void)state;
	assert_int_equal(parse_fixture("regs-x86_64.txt", v, 4), 2);
	assert_true(v[0].pc == 0xffffffff81470833ull && v[0].sp == 0xffffffff81a03eb0ull);
	assert_true(v[0].halted);
	assert_true(v[1].pc == 0xffffffff81471a39ull && v[1].sp == 0xffffc90000443d10ull);
	assert_false(v[1].halted);
	/* no more vCPUs than the caller has room for */
	assert_int_equal(parse_fixture("regs-x86_64.txt", v, 1), 1);
}

static void arm64_registers(void **state)
{
	struct vcpu_regs v[4];

	(void)state;
	assert_int_equal(parse_fixture("regs-arm64.txt", v, 4), 1);
	assert_true(v[0].pc == 0xffff800080d4a1b4ull && v[0].sp == 0xffff800082343d70ull);
	assert_false(v[0].halted);
}

static void no_registers(void **state)
{
	struct vcpu_regs v[1];

	(void)state;
	assert_int_equal(hangdump_parse_regs("unknown command\n", v, 1), 0);
	assert_int_equal(hangdump_parse_regs("CPU#0\nnothing here\n", v, 1), 0);
}

static void names(void **state)
{
	char *path = xasprintf("%s/hangdump/System.map", TEST_DATA);
	struct ksyms k;
	char buf[128];

	(void)state;
	assert_int_equal(ksyms_load(&k, path), 0);
	/* text symbols only: the 'd' and 'D' lines are left out */
	assert_int_equal(k.n, 7);
	assert_true(ksyms_name(&k, 0xffffffff81470833ull, buf, sizeof(buf)));
	assert_string_equal(buf, "pv_native_safe_halt+0x13");
	assert_true(ksyms_name(&k, 0xffffffff814718c0ull, buf, sizeof(buf)));
	assert_string_equal(buf, "default_idle+0x0");
	/* below the text, past _etext (data), and a stack address */
	assert_false(ksyms_name(&k, 0xffffffff80000000ull, buf, sizeof(buf)));
	assert_string_equal(buf, "");
	assert_false(ksyms_name(&k, 0xffffffff81a00010ull, buf, sizeof(buf)));
	assert_false(ksyms_name(&k, 0xffffc90000443d10ull, buf, sizeof(buf)));
	/* init text past the data is named; 64 KiB past its last symbol is not */
	assert_true(ksyms_name(&k, 0xffffffff81d6d917ull, buf, sizeof(buf)));
	assert_string_equal(buf, "x86_64_start_kernel+0xa7");
	assert_false(ksyms_name(&k, 0xffffffff81d7d870ull, buf, sizeof(buf)));
	ksyms_free(&k);
	assert_int_equal(ksyms_load(&k, "/nonexistent/System.map"), -1);
	free(path);
}

/* sample i of vCPU 0 at pc */
static void at(struct hang_samples *s, size_t i, uint64_t pc, bool halted)
{
	s->regs[i][0] = (struct vcpu_regs){ .pc = pc, .sp = 0xffffc90000443d10ull, .halted = halted };
	s->ncpu[i] = 1;
	s->n = i + 1 > s->n ? i + 1 : s->n;
}

static void summary(void **state)
{
	char *path = xasprintf("%s/hangdump/System.map", TEST_DATA);
	struct hang_samples *s = xcalloc(1, sizeof(*s));
	struct ksyms k;
	char buf[256];

	(void)state;
	assert_int_equal(ksyms_load(&k, path), 0);
	/* a slow guest caught in user space at the last sample: named by the other four */
	for (size_t i = 0; i < 4; i++)
		at(s, i, 0xffffffff81470833ull - i, true);
	at(s, 4, 0x00007f1234567890ull, false);
	hangdump_summary(&k, s, buf, sizeof(buf));
	assert_string_equal(buf, "cpu0 pv_native_safe_halt (halted) in 4/5 samples");
	/* a tie goes to the later function */
	at(s, 0, 0xffffffff81471a10ull, false);
	at(s, 1, 0xffffffff8108e490ull, false);
	at(s, 2, 0xffffffff81471a20ull, false);
	at(s, 3, 0xffffffff8108e484ull, false);
	hangdump_summary(&k, s, buf, sizeof(buf));
	assert_string_equal(buf, "cpu0 do_idle in 2/5 samples");
	/* in user space at every sample: said so */
	for (size_t i = 0; i < 5; i++)
		at(s, i, 0x400000ull + i, false);
	hangdump_summary(&k, s, buf, sizeof(buf));
	assert_string_equal(buf, "cpu0 (not kernel text) in 5/5 samples");
	/* two vCPUs, fewer samples */
	memset(s, 0, sizeof(*s));
	at(s, 0, 0xffffffff814718c4ull, false);
	s->regs[0][1] = (struct vcpu_regs){ .pc = 0xffffffff81470833ull, .halted = true };
	s->ncpu[0] = 2;
	hangdump_summary(&k, s, buf, sizeof(buf));
	assert_string_equal(buf, "cpu0 default_idle in 1/1 samples, "
				 "cpu1 pv_native_safe_halt (halted) in 1/1 samples");
	ksyms_free(&k);
	free(s);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(x86_64_registers),
		cmocka_unit_test(arm64_registers),
		cmocka_unit_test(no_registers),
		cmocka_unit_test(names),
		cmocka_unit_test(summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
