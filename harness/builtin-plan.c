/*
 * cmabench plan: check scenarios and print the runs they expand to, and how
 * long 'cmabench run' would take them; no VM.
 */
#include "builtin.h"
#include "run/overall.h"

#include <stdlib.h>
#include <unistd.h>

struct plan_opts {
	struct selection sel;
	bool steps;
	long jobs;
};

static const struct opt plan_opts_table[] = {
	OPT_FLAG(0, "steps", offsetof(struct plan_opts, steps), "print each run's guest steps too"),
	OPT_LONG('j', "jobs", offsetof(struct plan_opts, jobs), "N",
		 "estimate the time as 'run --jobs N' would take (default 1)"),
	SELECTION_OPTS(struct plan_opts, sel),
	OPT_END(),
};

const struct cmd_usage plan_usage = {
	"cmabench plan [options] SCENARIO...",
	"Checks the scenarios (file:line: key errors), prints the runs they expand to\n"
	"and how long 'cmabench run' would take: kernels to build, image, runs.",
	plan_opts_table,
};

/* What 'cmabench run' would print before its first step, built from what is cached. */
static void print_estimate(struct cmb_env *env, const struct plan *plan, long jobs)
{
	struct run_ctx ctx = { .env = env, .jobs = jobs };
	struct overall ov;

	ctx.host_cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	runner_find_kernels(&ctx, plan);
	overall_init(&ov, &ctx, plan, false);
	overall_print_plan(&ov, "estimate");
	overall_free(&ov);
	runner_free(&ctx);
}

int cmd_plan(int argc, char **argv, struct cmb_env *env)
{
	struct plan_opts o = { .jobs = 1 };
	int first = options_parse(&plan_usage, &o, argc, argv), rc;

	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first >= argc || o.jobs < 1) {
		options_usage(stderr, &plan_usage);
		return 2;
	}
	rc = selection_load(env, &o.sel, argc - first, argv + first) ? 2 : 0;
	if (!rc) {
		plan_print(stdout, &o.sel.plan);
		for (size_t i = 0; o.steps && i < o.sel.plan.n; i++)
			printf("\n%s", o.sel.plan.runs[i].steps);
		print_estimate(env, &o.sel.plan, o.jobs);
	}
	selection_free(&o.sel);
	return rc;
}
