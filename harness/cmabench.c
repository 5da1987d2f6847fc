/*
 * cmabench: measures GCMA against CMA in QEMU guests. One table of
 * subcommands; each lives in builtin-<name>.c.
 */
#include "config.h"
#include "builtin.h"
#include "signals.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct cmb_env *env);
	const char *help;
};

static const struct cmd commands[] = {
	{ "build", cmd_build, "build (or reuse) the kernel variants" },
	{ "compare", cmd_compare, "compare the sections of two results directories" },
	{ "image", cmd_image, "build (or reuse) the guest root image" },
	{ "plan", cmd_plan, "check scenarios and print the runs they expand to" },
	{ "report", cmd_report, "statistics, report.md and plot data of results directories" },
	{ "reproduce", cmd_reproduce, "docs/reproducing.md: published figures next to ours" },
	{ "run", cmd_run, "run scenarios in VMs and write results/<run-id>/" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: cmabench [--cache-dir DIR] [--linux-source PATH] COMMAND [ARGS]\n\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'cmabench COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
	struct cmb_env env;
	int i = 1;

	env_init(&env);
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
	signals_install();
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (!strcmp(argv[i], commands[c].name))
			return commands[c].fn(argc - i, argv + i, &env);
	fprintf(stderr, "cmabench: unknown command '%s'\n", argv[i]);
	usage(stderr);
	return 2;
}
