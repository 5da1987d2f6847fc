/*
 * cmabench wait: waits for a Slurm submission (run --slurm --no-wait, or a
 * submitter that was stopped) and completes its results directories.
 */
#include "builtin.h"
#include "run/submit.h"

static const struct opt wait_opts_table[] = {
	OPT_END(),
};

const struct cmd_usage wait_usage = {
	"cmabench wait STAGE",
	"Waits for the Slurm array job of a submission (STAGE: the\n"
	"RESULTS/.slurm-<date>-XXXXXX directory 'run --slurm' named), then\n"
	"completes and reports each scenario's results directory.",
	wait_opts_table,
};

int cmd_wait(int argc, char **argv, struct cmb_env *env)
{
	int first = options_parse(&wait_usage, NULL, argc, argv);

	if (first < 0)
		return first == -1 ? 0 : 2;
	if (argc - first != 1) {
		options_usage(stderr, &wait_usage);
		return 2;
	}
	return submit_wait(env, argv[first]);
}
