/*
 * Option tables: every option a builtin accepts is listed by its --help
 * (both come from one table), each is accepted with a value, and a wrong
 * option or value is refused with its name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

static char *usage_text(const struct cmd_usage *u)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	options_usage(f, u);
	fclose(f);
	return buf;
}

/* A value each kind of option accepts. */
static const char *value_for(const struct opt *o)
{
	if (!strcmp(o->name, "accel"))
		return "tcg";
	if (!strcmp(o->name, "kernels"))
		return "vanilla,gcma";
	return o->kind == OPTK_STRING || o->kind == OPTK_LIST ? "x" : "2";
}

static void test_every_option_listed_and_accepted(void **state)
{
	size_t checked = 0;

	(void)state;
	for (size_t b = 0; b < nbuiltins; b++) {
		const struct cmd_usage *u = builtins[b].usage;
		char *text = usage_text(u);

		assert_non_null(strstr(text, "-h, --help"));
		for (const struct opt *o = u->opts; o->kind != OPTK_END; o++) {
			_Alignas(max_align_t) char base[4096] = { 0 };
			char name[64];
			char *argv[4] = { (char *)builtins[b].name, name, NULL, NULL };
			int argc = 2;

			if (o->kind == OPTK_GROUP)
				continue;
			snprintf(name, sizeof(name), "--%s", o->name);
			if (!strstr(text, name))
				fail_msg("cmabench %s accepts %s but its --help does not list it",
					 builtins[b].name, name);
			if (o->kind != OPTK_FLAG)
				argv[argc++] = (char *)value_for(o);
			assert_in_range(o->off, 0, sizeof(base) - 64);
			if (options_parse(u, base, argc, argv) != argc)
				fail_msg("cmabench %s %s %s: refused", builtins[b].name, name,
					 argc > 2 ? argv[2] : "");
			if (o->kind == OPTK_LIST || o->call == selection_add_only ||
			    o->call == selection_add_kernels)
				sl_free((struct strlist *)(base + o->off));
			checked++;
		}
		free(text);
	}
	/* run, plan, report, reproduce and compare have options */
	assert_true(checked >= 12);
}

static void test_refusals(void **state)
{
	_Alignas(max_align_t) char base[4096] = { 0 };
	char *bad[] = { "run", "--bogus", "smoke", NULL };
	char *jobs[] = { "run", "--jobs", "0", "smoke", NULL };
	char *missing[] = { "report", "--baseline", NULL };
	char *help[] = { "plan", "--help", NULL };
	char *ops[] = { "plan", "--steps", "smoke", "x", NULL };

	(void)state;
	assert_int_equal(options_parse(&run_usage, base, 3, bad), -2);
	assert_int_equal(options_parse(&run_usage, base, 4, jobs), -2);
	assert_int_equal(options_parse(&report_usage, base, 2, missing), -2);
	assert_int_equal(options_parse(&plan_usage, base, 2, help), -1);
	/* operands start after the options */
	memset(base, 0, sizeof(base));
	assert_int_equal(options_parse(&plan_usage, base, 4, ops), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_option_listed_and_accepted),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
