/*
 * What plan and run share: the scenarios named on the command line, loaded,
 * overridden (--set), set side by side per kernel (--kernels), checked and
 * expanded into one plan (--only).
 */
#include "scenario/selection.h"

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

		for (size_t k = 0; !n && k < sel->sets.n; k++) {
			if (sel->kernels.n && !strncmp(sel->sets.v[k], "kernel=", 7)) {
				sb_addf(&errs, "--set %s: --kernels names the kernels\n", sel->sets.v[k]);
				n++;
			} else
				n += scenario_override(s, sel->sets.v[k], &ctx, &errs);
		}
		if (!n && sel->kernels.n)
			n += scenario_kernels(s, &sel->kernels, &sel->only, &ctx, &errs);
		if (!n)
			n += plan_add(&sel->plan, s, sel->kernels.n ? NULL : &sel->only, &errs);
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

int selection_add_only(void *only, const char *list, const char **why)
{
	char *copy = xstrdup(list), *save = NULL;

	(void)why;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		sl_add(only, t);
	free(copy);
	return 0;
}

int selection_add_kernels(void *kernels, const char *list, const char **why)
{
	struct strlist *k = kernels;

	selection_add_only(kernels, list, why);
	if (k->n < 2) {
		*why = "names fewer than two kernel variants";
		return -1;
	}
	return 0;
}

void selection_free(struct selection *sel)
{
	plan_free(&sel->plan);
	for (size_t i = 0; i < sel->nscns; i++)
		scenario_free(&sel->scns[i]);
	free(sel->scns);
	sl_free(&sel->only);
	sl_free(&sel->sets);
	sl_free(&sel->kernels);
}

