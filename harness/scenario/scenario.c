/*
 * A scenario file read into sections (scenario.h): its lines parsed, each
 * section's keys set over the defaults and [global], checked
 * (scenario-check.c), and overridden from the command line (--set).
 */
#include "scenario/scenario-internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool scenario_parallel(const struct scenario *scn)
{
	for (size_t i = 0; i < scn->nruns; i++)
		if (!scn->runs[i].parallel)
			return false;
	return true;
}

void scenario_free(struct scenario *scn)
{
	for (size_t i = 0; i < scn->nruns; i++)
		spec_free(&scn->runs[i]);
	free(scn->runs);
	free(scn->path);
	free(scn->name);
	memset(scn, 0, sizeof(*scn));
}

int scenario_load(const char *path, const struct scn_ctx *ctx,
		  struct scenario *scn, struct strbuf *errs)
{
	FILE *f = fopen(path, "r");
	struct run_spec global, *cur = NULL;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, nerr = 0;
	const char *base;

	memset(scn, 0, sizeof(*scn));
	if (!errs->buf)
		sb_init(errs);
	if (!f) {
		sb_addf(errs, "%s: cannot open: %s\n", path, strerror(errno));
		return 1;
	}
	scn->path = xstrdup(path);
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	scn->name = xstrdup(base);
	if (strlen(scn->name) > 4 && !strcmp(scn->name + strlen(scn->name) - 4, ".scn"))
		scn->name[strlen(scn->name) - 4] = '\0';
	spec_defaults(&global);
	global.section = xstrdup("global");

	while (getline(&line, &cap, f) >= 0) {
		char *s = trim(line), *eq, *k, *v;
		const struct key_def *kd;
		const char *why = NULL;

		lineno++;
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (!end || end[1]) {
				sb_addf(errs, "%s:%d: section header must be [name]\n", path, lineno);
				nerr++;
				continue;
			}
			*end = '\0';
			s = trim(s + 1);
			if (!*s || strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != strlen(s)) {
				sb_addf(errs, "%s:%d: section name '%s' must use a-z, 0-9, '-', '_', '.'\n",
					path, lineno, s);
				nerr++;
				continue;
			}
			if (!strcmp(s, "global")) {
				cur = &global;
				continue;
			}
			for (size_t i = 0; i < scn->nruns; i++) {
				if (!strcmp(scn->runs[i].section, s)) {
					sb_addf(errs, "%s:%d: section [%s] appears twice (first at line %d)\n",
						path, lineno, s, scn->runs[i].section_line);
					nerr++;
				}
			}
			scn->runs = xrealloc(scn->runs, (scn->nruns + 1) * sizeof(*scn->runs));
			cur = &scn->runs[scn->nruns++];
			spec_copy(cur, &global);
			free(cur->section);
			cur->section = xstrdup(s);
			cur->section_line = lineno;
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			sb_addf(errs, "%s:%d: expected key=value, got '%s'\n", path, lineno, s);
			nerr++;
			continue;
		}
		*eq = '\0';
		k = trim(s);
		v = trim(eq + 1);
		if (!cur) {
			sb_addf(errs, "%s:%d: %s: key outside any section (start with [global])\n",
				path, lineno, k);
			nerr++;
			continue;
		}
		kd = key_find(k);
		if (!kd) {
			sb_addf(errs, "%s:%d: %s: unknown key (see 'cmabench help scenario')\n",
				path, lineno, k);
			nerr++;
			continue;
		}
		if (set_value(cur, kd, v, &why)) {
			sb_addf(errs, "%s:%d: %s: '%s' %s\n", path, lineno, k, v, why);
			nerr++;
			continue;
		}
		cur->line[kd->id] = lineno;
	}
	free(line);
	fclose(f);
	spec_free(&global);

	if (!nerr && scn->nruns == 0) {
		sb_addf(errs, "%s: no runs: add a [section] after [global]\n", path);
		nerr++;
	}
	if (!nerr)
		for (size_t i = 0; i < scn->nruns; i++)
			nerr += validate(path, &scn->runs[i], ctx, errs);
	if (!nerr)
		nerr += check_baseline(path, scn, errs);
	if (!nerr)
		nerr += check_primary(path, scn, errs);
	return nerr;
}

int scenario_override(struct scenario *scn, const char *assignment,
		      const struct scn_ctx *ctx, struct strbuf *errs)
{
	char *copy = xstrdup(assignment), *eq = strchr(copy, '=');
	const struct key_def *kd;
	int nerr = 0;

	if (!errs->buf)
		sb_init(errs);
	if (!eq) {
		sb_addf(errs, "--set %s: expected key=value\n", assignment);
		free(copy);
		return 1;
	}
	*eq = '\0';
	kd = key_find(trim(copy));
	if (!kd) {
		sb_addf(errs, "--set %s: unknown key '%s'\n", assignment, trim(copy));
		free(copy);
		return 1;
	}
	for (size_t i = 0; i < scn->nruns; i++) {
		const char *why = NULL;

		if (set_value(&scn->runs[i], kd, trim(eq + 1), &why)) {
			sb_addf(errs, "--set %s: '%s' %s\n", kd->name, trim(eq + 1), why);
			free(copy);
			return 1;
		}
		scn->runs[i].line[kd->id] = -1;
	}
	free(copy);
	for (size_t i = 0; i < scn->nruns; i++)
		nerr += validate(scn->path, &scn->runs[i], ctx, errs);
	if (!nerr)
		nerr += check_baseline(scn->path, scn, errs);
	return nerr + (nerr ? 0 : check_primary(scn->path, scn, errs));
}
