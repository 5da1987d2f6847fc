/*
 * cmabench console FILE...: judges guest consoles as the VM tests do, with
 * the runner's own list of what the kernel prints when it is in trouble
 * (run/console.c). Prints "S line" for each line that counts and "A line"
 * for each excused atomic allocation failure; exit 1 if any line counts.
 */
#include "builtin.h"
#include "run/console.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct opt console_opts_table[] = {
	OPT_END(),
};

const struct cmd_usage console_usage = {
	"cmabench console FILE...",
	"Judges guest consoles: prints 'S line' for each warning, oops, panic,\n"
	"stall or stack dump, 'A line' for each excused atomic allocation failure;\n"
	"exits 1 if any line counts, 2 if a file cannot be read.",
	console_opts_table,
};

int cmd_console(int argc, char **argv, struct cmb_env *env)
{
	int first = options_parse(&console_usage, NULL, argc, argv), rc = 0;

	(void)env;
	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first >= argc) {
		options_usage(stderr, &console_usage);
		return 2;
	}
	for (int i = first; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		struct console_verdict v;

		if (!f || console_judge(f, stdout, &v)) {
			err_msg("console: %s: %s", argv[i], strerror(f ? EIO : errno));
			if (f)
				fclose(f);
			return 2;
		}
		fclose(f);
		if (v.counted)
			rc = 1;
	}
	return rc;
}
