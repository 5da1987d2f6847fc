/* cmabench plan: check scenarios and print the runs they expand to; no VM. */
#include "builtin.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

char *scenario_path(const struct cmb_env *env, const char *arg)
{
	char *rel, *p;

	if (strchr(arg, '/') || path_exists(arg))
		return xstrdup(arg);
	rel = xasprintf("workloads/scenarios/%s.scn", arg);
	p = env_src(env, rel);
	free(rel);
	return p;
}

int selection_load(const struct cmb_env *env, struct selection *sel, int argc, char **argv)
{
	char *fio_dir = env_src(env, "workloads/fio");
	char *script_dir = env_src(env, "workloads/guest/scripts");
	struct scn_ctx ctx = { .fio_dir = fio_dir, .script_dir = script_dir };
	struct strbuf errs = { 0 };
	int nerr = 0;

	sb_init(&errs);
	sel->scns = xcalloc(argc, sizeof(*sel->scns));
	for (int i = 0; i < argc; i++) {
		char *path = scenario_path(env, argv[i]);
		struct scenario *s = &sel->scns[sel->nscns++];
		int n = scenario_load(path, &ctx, s, &errs);

		for (size_t k = 0; !n && k < sel->sets.n; k++)
			n += scenario_override(s, sel->sets.v[k], &ctx, &errs);
		if (!n)
			n += plan_add(&sel->plan, s, &sel->only, &errs);
		nerr += n;
		free(path);
	}
	if (nerr)
		fputs(errs.buf, stderr);
	sb_free(&errs);
	free(fio_dir);
	free(script_dir);
	return nerr;
}

void selection_add_only(struct selection *sel, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		sl_add(&sel->only, t);
	free(copy);
}

void selection_free(struct selection *sel)
{
	plan_free(&sel->plan);
	for (size_t i = 0; i < sel->nscns; i++)
		scenario_free(&sel->scns[i]);
	free(sel->scns);
	sl_free(&sel->only);
	sl_free(&sel->sets);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: cmabench plan [--only SECTION[,SECTION]] [--set KEY=VALUE]... SCENARIO...\n"
		"Checks the scenarios and prints the runs they expand to.\n"
		"Scenario keys:\n");
	scenario_print_keys(stderr);
}

int cmd_plan(int argc, char **argv, struct cmb_env *env)
{
	static const struct option opts[] = {
		{ "only", required_argument, NULL, 'o' },
		{ "set", required_argument, NULL, 's' },
		{ "steps", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct selection sel = { 0 };
	bool steps = false;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			selection_add_only(&sel, optarg);
			break;
		case 's':
			sl_add(&sel.sets, optarg);
			break;
		case 'S':
			steps = true;
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return 2;
		}
	}
	if (optind >= argc) {
		usage();
		return 2;
	}
	rc = selection_load(env, &sel, argc - optind, argv + optind) ? 2 : 0;
	if (!rc) {
		plan_print(stdout, &sel.plan);
		for (size_t i = 0; steps && i < sel.plan.n; i++)
			printf("\n%s", sel.plan.runs[i].steps);
	}
	selection_free(&sel);
	return rc;
}
