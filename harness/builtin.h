/* One function per subcommand, each in builtin-<name>.c; cmabench.c lists them. */
#ifndef CMB_BUILTIN_H
#define CMB_BUILTIN_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/env.h"
#include "lib/options.h"
#include "run/runner.h"
#include "scenario/plan.h"
#include "scenario/selection.h"

/* One row per command: cmabench.c's table, the help command and the tests use it. */
struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv, struct cmb_env *env);
	const char *help;
	const struct cmd_usage *usage;
};
extern const struct builtin builtins[];
extern const size_t nbuiltins;
/* One line per command. */
void builtins_list(FILE *f);

int cmd_cache(int argc, char **argv, struct cmb_env *env);
int cmd_build(int argc, char **argv, struct cmb_env *env);
int cmd_compare(int argc, char **argv, struct cmb_env *env);
int cmd_console(int argc, char **argv, struct cmb_env *env);
int cmd_image(int argc, char **argv, struct cmb_env *env);
int cmd_pack(int argc, char **argv, struct cmb_env *env);
int cmd_plan(int argc, char **argv, struct cmb_env *env);
int cmd_report(int argc, char **argv, struct cmb_env *env);
int cmd_reproduce(int argc, char **argv, struct cmb_env *env);
int cmd_run(int argc, char **argv, struct cmb_env *env);
int cmd_target(int argc, char **argv, struct cmb_env *env);
int cmd_task(int argc, char **argv, struct cmb_env *env);
int cmd_wait(int argc, char **argv, struct cmb_env *env);
int cmd_help(int argc, char **argv, struct cmb_env *env);


extern const struct cmd_usage build_usage, cache_usage, compare_usage, console_usage, help_usage, image_usage, pack_usage, plan_usage,
	report_usage, reproduce_usage, run_usage, target_usage, task_usage, wait_usage;

#endif
