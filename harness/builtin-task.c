/*
 * cmabench task: what one Slurm array task runs (the job script that
 * 'run --slurm' writes calls it): run INDEX of the submission in STAGE.
 */
#include "builtin.h"
#include "run/submit.h"
#include "scenario/scenario.h"

static const struct opt task_opts_table[] = {
	OPT_END(),
};

const struct cmd_usage task_usage = {
	"cmabench task STAGE INDEX",
	"Runs run INDEX of the Slurm submission in STAGE into its scenario's\n"
	"directory (the array job's script calls this; 'cmabench run --slurm').",
	task_opts_table,
};

int cmd_task(int argc, char **argv, struct cmb_env *env)
{
	int first = options_parse(&task_usage, NULL, argc, argv);
	long index;
	const char *why = NULL;

	if (first < 0)
		return first == -1 ? 0 : 2;
	if (argc - first != 2) {
		options_usage(stderr, &task_usage);
		return 2;
	}
	if (parse_long(argv[first + 1], &index, &why) || index < 0) {
		err_msg("task: INDEX '%s' is not a run number (0 or more)", argv[first + 1]);
		return 2;
	}
	return submit_task(env, argv[first], index);
}
