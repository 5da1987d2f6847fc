/*
 * One's kernels side by side (run --kernels A,B): every section of a
 * scenario once per kernel, named SECTION.KERNEL, so that a repetition
 * shuffles them together (plan.c) and the report compares them as
 * mmtests' compare-kernels does. The first kernel is the baseline; the
 * scenario's primaries become the same metrics between the kernels, per
 * set-up the primary names.
 */
#include "scenario/scenario-internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* "SECTION.KERNEL" */
static char *kname(const char *section, const char *kernel)
{
	return xasprintf("%s.%s", section, kernel);
}

/*
 * The primaries between kernels: each METRIC[@PAGES]:A/B becomes
 * METRIC[@PAGES]:X.k0/X.kj for X in A, B and each kernel kj after the
 * first (X kept by --only). NULL when none is left.
 */
static char *kernel_primaries(const struct run_spec *r, const struct strlist *kernels,
			      const struct strlist *only)
{
	struct primaries ps;
	struct strbuf sb = { 0 };
	struct strlist done = { 0 };
	const char *why = NULL;

	if (!r->primary || !r->primary[0] ||
	    primaries_parse(r->primary, r->alloc_pages, r->nalloc_pages, &ps, &why))
		return NULL;
	for (size_t i = 0; i < ps.n; i++) {
		const char *sec[2] = { ps.v[i].a, ps.v[i].b };
		char *size = ps.v[i].pages ? xasprintf("@%ld", ps.v[i].pages) : xstrdup("");

		for (int s = 0; s < 2; s++)
			for (size_t k = 1; k < kernels->n && (!only || !only->n ||
							      sl_has(only, sec[s])); k++) {
				char *a = kname(sec[s], kernels->v[0]), *b = kname(sec[s], kernels->v[k]);
				char *e = xasprintf("%s%s:%s/%s", ps.v[i].metric, size, a, b);

				if (!sl_has(&done, e)) {
					sb_addf(&sb, "%s%s", done.n ? ", " : "", e);
					sl_add(&done, e);
				}
				free(e);
				free(a);
				free(b);
			}
		free(size);
	}
	primaries_free(&ps);
	sl_free(&done);
	return sb.buf ? sb_detach(&sb) : NULL;
}

int scenario_kernels(struct scenario *scn, const struct strlist *kernels,
		     const struct strlist *only, const struct scn_ctx *ctx, struct strbuf *errs)
{
	const struct key_def *kd = key_find("kernel");
	size_t n = 0, j = 0, first = SIZE_MAX;
	struct run_spec *runs;
	int nerr = 0;

	/* --only names the scenario's own sections */
	for (size_t i = 0; i < scn->nruns; i++)
		if (!only || !only->n || sl_has(only, scn->runs[i].section)) {
			n += kernels->n;
			first = first == SIZE_MAX ? i : first;
		}
	if (!errs->buf)
		sb_init(errs);
	if (!n) {
		sb_addf(errs, "%s: no section matches --only\n", scn->path);
		return 1;
	}
	runs = xcalloc(n, sizeof(*runs));

	for (size_t k = 0; k < kernels->n; k++)
		for (size_t i = 0; i < k; i++)
			if (!strcmp(kernels->v[i], kernels->v[k])) {
				sb_addf(errs, "--kernels: '%s' is named twice\n", kernels->v[k]);
				free(runs);
				return 1;
			}
	for (size_t i = 0; i < scn->nruns; i++)
		for (size_t k = 0; k < kernels->n && (!only || !only->n ||
						      sl_has(only, scn->runs[i].section)); k++, j++) {
			struct run_spec *r = &runs[j];
			const char *why = NULL;
			char *primary = kernel_primaries(&scn->runs[i], kernels, only);

			spec_copy(r, &scn->runs[i]);
			free(r->section);
			r->section = kname(scn->runs[i].section, kernels->v[k]);
			if (set_value(r, kd, kernels->v[k], &why)) {
				sb_addf(errs, "--kernels %s: %s\n", kernels->v[k], why);
				nerr++;
			}
			r->line[K_KERNEL] = -1;
			free(r->baseline);
			r->baseline = kname(scn->runs[first].section, kernels->v[0]);
			r->line[K_BASELINE] = -1;
			free(r->primary);
			r->primary = primary;
			r->line[K_PRIMARY] = -1;
		}
	for (size_t i = 0; i < scn->nruns; i++)
		spec_free(&scn->runs[i]);
	free(scn->runs);
	scn->runs = runs;
	scn->nruns = n;
	for (size_t i = 0; !nerr && i < scn->nruns; i++)
		nerr += validate(scn->path, &scn->runs[i], ctx, errs);
	if (!nerr)
		nerr += check_baseline(scn->path, scn, errs);
	return nerr + (nerr ? 0 : check_primary(scn->path, scn, errs));
}
