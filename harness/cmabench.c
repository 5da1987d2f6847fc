/*
 * cmabench: measures GCMA against CMA in QEMU guests. The commands are one
 * table (builtins.c); each lives in builtin-<name>.c.
 */
#include "config.h"
#include "builtin.h"
#include "dataset/dataset.h"
#include "lib/signals.h"
#include "report/report.h"
#include "scenario/variants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: cmabench [--cache-dir DIR] [--linux-source PATH] COMMAND [ARGS]\n\n");
	builtins_list(f);
	fprintf(f, "\n'cmabench help COMMAND' for a command's options.\n");
}

int main(int argc, char **argv)
{
	struct cmb_env env;
	int i = 1;

	env_init(&env);
	{
		/* reports of runs older than the key "primary" read it from here */
		char *scn = env_src(&env, "workloads/scenarios");

		report_set_scenario_dir(scn);
		free(scn);
		scn = env_src(&env, "plots");
		report_set_plot_dir(scn);
		free(scn);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--cache-dir") && i + 1 < argc)
			env.cache_dir = argv[++i];
		else if (!strcmp(argv[i], "--linux-source") && i + 1 < argc)
			env.linux_source = argv[++i];
		else if (!strcmp(argv[i], "--version")) {
			printf("cmabench %s\n", PACKAGE_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "cmabench: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	{
		/* a set whose runs are packed is read from here (dataset/ds-packed.c) */
		char *sets = env_cache(&env, "sets");

		dataset_set_unpack_dir(sets);
		free(sets);
	}
	{
		/* a bad variant file stops every command, before it starts anything */
		struct strbuf errs = { 0 };

		if (kvariants_load(env.srcdir, &errs)) {
			fprintf(stderr, "cmabench: kernel variants:\n%s", errs.buf);
			sb_free(&errs);
			return 2;
		}
		sb_free(&errs);
	}
	signals_install();
	for (size_t c = 0; c < nbuiltins; c++)
		if (!strcmp(argv[i], builtins[c].name))
			return builtins[c].fn(argc - i, argv + i, &env);
	fprintf(stderr, "cmabench: unknown command '%s'\n", argv[i]);
	usage(stderr);
	return 2;
}
