/*
 * The scenarios a command names, loaded and expanded into one run plan:
 * what plan and run share, with their common options.
 */
#ifndef CMB_SELECTION_H
#define CMB_SELECTION_H

#include "lib/env.h"
#include "lib/options.h"
#include "scenario/plan.h"

struct selection {
	struct scenario *scns;
	size_t nscns;
	struct plan plan;
	struct strlist only, sets, kernels;
};

/* The selection options of a builtin whose options struct has a struct
 * selection member m: one group, declared once. */
#define SELECTION_OPTS(type, m) \
	OPT_GROUP("selection"), \
	OPT_CALL(0, "only", offsetof(type, m.only), "SECTION[,SECTION]", \
		 "only these sections of the scenarios", selection_add_only), \
	OPT_LIST(0, "set", offsetof(type, m.sets), "KEY=VALUE", \
		 "override a scenario key in every run (repeatable; 'cmabench help scenario')"), \
	OPT_CALL(0, "kernels", offsetof(type, m.kernels), "KERNEL,KERNEL[,...]", \
		 "every section once per kernel variant (SECTION.KERNEL), the first the baseline", \
		 selection_add_kernels)

/* Resolves a scenario argument: a path, or a name in workloads/scenarios/. */
char *scenario_path(const struct cmb_env *env, const char *arg);
/* Loads, overrides and expands; prints every error and returns non-zero on any. */
int selection_load(const struct cmb_env *env, struct selection *sel, int argc, char **argv);
/* --only A,B into a strlist (an OPT_CALL). */
int selection_add_only(void *only, const char *list, const char **why);
/* --kernels A,B into a strlist: at least two (an OPT_CALL). */
int selection_add_kernels(void *kernels, const char *list, const char **why);
void selection_free(struct selection *sel);

#endif
