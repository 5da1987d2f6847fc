/* One function per subcommand, each in builtin-<name>.c; cmabench.c lists them. */
#ifndef CMB_BUILTIN_H
#define CMB_BUILTIN_H

#include <stdbool.h>

#include "env.h"
#include "plan.h"

int cmd_build(int argc, char **argv, struct cmb_env *env);
int cmd_compare(int argc, char **argv, struct cmb_env *env);
int cmd_image(int argc, char **argv, struct cmb_env *env);
int cmd_plan(int argc, char **argv, struct cmb_env *env);
int cmd_report(int argc, char **argv, struct cmb_env *env);
int cmd_reproduce(int argc, char **argv, struct cmb_env *env);
int cmd_run(int argc, char **argv, struct cmb_env *env);

/* Options shared by plan and run: scenarios, --only, --set. */
struct selection {
	struct scenario *scns;
	size_t nscns;
	struct plan plan;
	struct strlist only, sets;
};

/*
 * The data/ CSVs, plot data and report.md of one results directory (what
 * 'cmabench report DIR' does); prints the tables unless quiet; appends a
 * two-line summary to summary if not NULL. 0, or 1 on an error.
 */
int report_results(const char *dir, const char *baseline, bool quiet, struct strbuf *summary);

/* Resolves a scenario argument: a path, or a name in workloads/scenarios/. */
char *scenario_path(const struct cmb_env *env, const char *arg);
/* Loads, overrides and expands; prints every error and returns non-zero on any. */
int selection_load(const struct cmb_env *env, struct selection *sel, int argc, char **argv);
/* --only A,B */
void selection_add_only(struct selection *sel, const char *list);
void selection_free(struct selection *sel);

#endif
