/*
 * The command table (as perf.c's): one row per builtin-<name>.c, and the
 * help command, which prints the table, a command's options, or the
 * scenario keys.
 */
#include "builtin.h"
#include "scenario/scenario.h"

#include <stddef.h>
#include <string.h>

const struct builtin builtins[] = {
	{ "build", cmd_build, "build (or reuse) the kernel variants", &build_usage },
	{ "cache", cmd_cache, "prune the kernel, image and scratch caches to their bounds",
	  &cache_usage },
	{ "console", cmd_console, "judge guest consoles as the VM tests do", &console_usage },
	{ "compare", cmd_compare, "compare the sections of two results directories", &compare_usage },
	{ "help", cmd_help, "this list, a command's options, or the scenario keys", &help_usage },
	{ "image", cmd_image, "build (or reuse) the guest root image", &image_usage },
	{ "pack", cmd_pack, "pack a results directory's runs/ into runs.tar.xz", &pack_usage },
	{ "plan", cmd_plan, "check scenarios and print the runs they expand to", &plan_usage },
	{ "report", cmd_report, "statistics, report.md and plot data of results directories",
	  &report_usage },
	{ "reproduce", cmd_reproduce, "docs/reproducing.md: published figures next to ours",
	  &reproduce_usage },
	{ "run", cmd_run, "run scenarios in VMs and write results/<run-id>/", &run_usage },
	{ "target", cmd_target, "what a board reached over ssh lacks for runs on it",
	  &target_usage },
	{ "task", cmd_task, "one Slurm array task: one run of a submission (run --slurm)",
	  &task_usage },
	{ "wait", cmd_wait, "wait for a Slurm submission and complete its results", &wait_usage },
};
const size_t nbuiltins = sizeof(builtins) / sizeof(builtins[0]);

struct help_opts {
	bool markdown;
};

static const struct opt help_opts_table[] = {
	OPT_FLAG(0, "markdown", offsetof(struct help_opts, markdown),
		 "with 'scenario': the key table of docs/scenarios.md"),
	OPT_END(),
};

const struct cmd_usage help_usage = {
	"cmabench help [COMMAND | scenario]",
	"Lists the commands; with a command, its options; with 'scenario', every\n"
	"scenario key and background workload.",
	help_opts_table,
};

void builtins_list(FILE *f)
{
	for (size_t i = 0; i < nbuiltins; i++)
		fprintf(f, "  %-10s %s\n", builtins[i].name, builtins[i].help);
}

int cmd_help(int argc, char **argv, struct cmb_env *env)
{
	struct help_opts o = { 0 };
	int first = options_parse(&help_usage, &o, argc, argv);

	(void)env;
	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first >= argc) {
		printf("usage: cmabench [--cache-dir DIR] [--linux-source PATH] COMMAND [ARGS]\n\n");
		builtins_list(stdout);
		printf("\n'cmabench help COMMAND' for a command's options, 'cmabench help scenario' "
		       "for the scenario keys.\n");
		return 0;
	}
	if (!strcmp(argv[first], "scenario") && o.markdown) {
		scenario_print_keys_md(stdout);
		return 0;
	}
	if (!strcmp(argv[first], "scenario")) {
		printf("scenario keys (a [global] section and one section per run; "
		       "docs/scenarios.md):\n");
		scenario_print_keys(stdout);
		return 0;
	}
	for (size_t i = 0; i < nbuiltins; i++)
		if (!strcmp(argv[first], builtins[i].name)) {
			options_usage(stdout, builtins[i].usage);
			return 0;
		}
	err_msg("help: no command '%s'", argv[first]);
	return 2;
}
