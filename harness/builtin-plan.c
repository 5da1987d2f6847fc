/* cmabench plan: check scenarios and print the runs they expand to; no VM. */
#include "builtin.h"

#include <stdlib.h>

struct plan_opts {
	struct selection sel;
	bool steps;
};

static const struct opt plan_opts_table[] = {
	OPT_FLAG(0, "steps", offsetof(struct plan_opts, steps), "print each run's guest steps too"),
	SELECTION_OPTS(struct plan_opts, sel),
	OPT_END(),
};

const struct cmd_usage plan_usage = {
	"cmabench plan [options] SCENARIO...",
	"Checks the scenarios (file:line: key errors) and prints the runs they expand to.",
	plan_opts_table,
};

int cmd_plan(int argc, char **argv, struct cmb_env *env)
{
	struct plan_opts o = { 0 };
	int first = options_parse(&plan_usage, &o, argc, argv), rc;

	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first >= argc) {
		options_usage(stderr, &plan_usage);
		return 2;
	}
	rc = selection_load(env, &o.sel, argc - first, argv + first) ? 2 : 0;
	if (!rc) {
		plan_print(stdout, &o.sel.plan);
		for (size_t i = 0; o.steps && i < o.sel.plan.n; i++)
			printf("\n%s", o.sel.plan.runs[i].steps);
	}
	selection_free(&o.sel);
	return rc;
}
