/*
 * A scenario's sections checked once their keys are set: each value against
 * the others (the set-up and its area, the fill, the timeouts, the kernel
 * variant), the baseline and the primaries against the sections, each error
 * at the line that set the key.
 */
#include "scenario/scenario-internal.h"
#include "scenario/disk.h"
#include "scenario/variants.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Errors point at the line that set the key, or at the section if defaulted. */
static void verr(struct strbuf *errs, const char *path, const struct run_spec *r,
		 enum scn_key key, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void verr(struct strbuf *errs, const char *path, const struct run_spec *r,
		 enum scn_key key, const char *fmt, ...)
{
	va_list ap;
	char msg[512];
	int line = r->line[key] ? r->line[key] : r->section_line;
	const char *name = key_name_of(key);

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		sb_addf(errs, "%s:%d: %s: %s (in [%s])\n", path, line, name, msg, r->section);
	else
		sb_addf(errs, "%s: %s: %s (in [%s])\n", path, name, msg, r->section);
}

/* alloc-path and alloc-align (alloc-path.h in the guest): what each path can do. */
static void check_alloc_path(const struct run_spec *r, const char *path,
			     const struct kvariant *kv, struct strbuf *errs)
{
	bool debugfs = !strcmp(r->alloc_path, "debugfs");
	const char *a = r->alloc_align;
	char *end;
	long order = strtol(a, &end, 10);

	if (strcmp(a, "dma") && (*end || end == a || order < 0 || order > 30))
		verr(errs, path, r, K_ALLOC_ALIGN, "'%s' is not an order (0-30) or dma", a);
	else if (!debugfs && r->line[K_ALLOC_ALIGN])
		verr(errs, path, r, K_ALLOC_ALIGN, "only with alloc-path=debugfs: the %s path "
		     "aligns as the DMA API does", r->alloc_path);
	else if (debugfs && strcmp(a, "0") && kv && !kv->series && kv->source != KV_SOURCE_TREE)
		verr(errs, path, r, K_ALLOC_ALIGN, "kernel %s has no debugfs alloc_align (no "
		     "patches): kernel=vanilla-traced is 6.12 with it", r->kernel);
	if (!strcmp(r->alloc_path, "dma") && setup_area_name(r->setup) && r->alloc_count > 0)
		for (size_t i = 0; i < r->nalloc_pages; i++)
			if (r->alloc_pages[i] == 1)
				verr(errs, path, r, K_ALLOC_PAGES, "alloc-path=dma: one-page requests "
				     "never reach CMA (dma_alloc_contiguous() leaves them to the buddy "
				     "allocator)");
}

int validate(const char *path, struct run_spec *r, const struct scn_ctx *ctx,
		    struct strbuf *errs)
{
	size_t before = errs->len;
	const struct kvariant *kv = kvariant_find(r->kernel);
	uint64_t area_pages = r->area / 4096;

	if (r->memory < (128ull << 20))
		verr(errs, path, r, K_MEMORY, "%llu MiB is too small (at least 128M)",
		     (unsigned long long)(r->memory >> 20));
	if (r->setup != SETUP_NONE && r->area == 0)
		verr(errs, path, r, K_AREA, "must be above zero for set-up %s", setup_name(r->setup));
	if (r->setup != SETUP_NONE && r->area + (96ull << 20) > r->memory)
		verr(errs, path, r, K_AREA,
		     "%llu MiB leaves less than 96 MiB of the guest's %llu MiB",
		     (unsigned long long)(r->area >> 20), (unsigned long long)(r->memory >> 20));
	if (kv && r->arch && !kvariant_suits(kv, r->arch->name))
		verr(errs, path, r, K_KERNEL, "%s is for %s only (arch %s)", r->kernel, kv->arches,
		     r->arch->name);
	if (r->setup == SETUP_GCMA && kv && !kv->has_gcma)
		verr(errs, path, r, K_SETUP, "gcma needs a kernel that offers gcma, e.g. kernel=gcma "
		     "(kernel %s has no gcma=)", r->kernel);
	if (setup_area_name(r->setup) && r->alloc_count > 0) {
		for (size_t i = 0; i < r->nalloc_pages; i++)
			if ((uint64_t)r->alloc_pages[i] > area_pages)
				verr(errs, path, r, K_ALLOC_PAGES,
				     "%ld pages exceed the area (%llu pages)",
				     r->alloc_pages[i], (unsigned long long)area_pages);
	}
	if (r->fio) {
		char *job = path_join(ctx->fio_dir, r->fio);

		if (strchr(r->fio, '/'))
			verr(errs, path, r, K_FIO, "'%s' must be a file name in %s", r->fio, ctx->fio_dir);
		else if (!path_exists(job))
			verr(errs, path, r, K_FIO, "no job file %s", job);
		free(job);
	}
	if ((r->fio || bg_list_find(&r->bg, "fio")) &&
	    r->fio_size + (64ull << 20) > r->scratch)
		verr(errs, path, r, K_FIO_SIZE, "does not fit the scratch disk (%llu MiB)",
		     (unsigned long long)(r->scratch >> 20));
	if (r->alloc_jitter > r->alloc_interval)
		verr(errs, path, r, K_ALLOC_JITTER, "exceeds alloc-interval (%gs)", r->alloc_interval);
	if (r->swap && !strcmp(r->swap_device, "disk") &&
	    r->swap + (r->fio || bg_list_find(&r->bg, "fio") ? r->fio_size : 0) +
	    (64ull << 20) > r->scratch)
		verr(errs, path, r, K_SWAP, "a swap file of %llu MiB does not fit the scratch disk "
		     "(%llu MiB) beside the files it holds", (unsigned long long)(r->swap >> 20),
		     (unsigned long long)(r->scratch >> 20));
	if (r->swap && !strcmp(r->swap_device, "zram") && r->swap >= r->memory)
		verr(errs, path, r, K_SWAP, "zram of %llu MiB (uncompressed) must be less than the "
		     "guest's memory (%llu MiB)", (unsigned long long)(r->swap >> 20),
		     (unsigned long long)(r->memory >> 20));
	check_alloc_path(r, path, kv, errs);
	if (r->alloc_refill > 0 && r->fill <= 0)
		verr(errs, path, r, K_ALLOC_REFILL, "waits for the area to be back at its fill: "
		     "needs fill (e.g. fill=90)");
	if (setup_area_name(r->setup) && r->alloc_count > 0) {
		for (size_t i = 0; i < r->nalloc_pages; i++)
			if ((uint64_t)r->alloc_pages[i] * r->alloc_burst > area_pages && r->alloc_burst > 1)
				verr(errs, path, r, K_ALLOC_BURST,
				     "%ld bursts of %ld pages exceed the area (%llu pages)",
				     r->alloc_burst, r->alloc_pages[i], (unsigned long long)area_pages);
	}
	for (size_t i = 0; i < r->bg.n; i++) {
		const struct bg_item *b = &r->bg.v[i];

		if (b->w->file_dir) {
			char *file = path_join(ctx->fio_dir, b->arg);

			if (!path_exists(file))
				verr(errs, path, r, K_BACKGROUND, "no job file %s", file);
			free(file);
		}
		if (b->w->needs_area && !setup_area_name(r->setup))
			verr(errs, path, r, K_BACKGROUND, "%s needs an area (setup cma or gcma)",
			     b->w->name);
		if (b->w->needs_job && !r->job)
			verr(errs, path, r, K_BACKGROUND,
			     "%s in the background needs a foreground job to run beside", b->w->name);
	}
	if (r->script) {
		char *p = ctx->script_dir ? path_join(ctx->script_dir, r->script) : NULL;

		if (strchr(r->script, '/'))
			verr(errs, path, r, K_SCRIPT, "'%s' must be a file name in workloads/guest/scripts",
			     r->script);
		else if (!p || !path_exists(p))
			verr(errs, path, r, K_SCRIPT, "no guest script %s", p ? p : r->script);
		free(p);
	}
	if (r->fill > 0 && (setup_area_name(r->setup) || r->area > 0)) {
		/* the fill (its load, without an area) streams a file of 1.5 x
		 * memory beside the fio files */
		uint64_t need = (r->memory >> 20) * 3 / 2 + 64 +
				(r->fio || bg_list_find(&r->bg, "fio") ? r->fio_size >> 20 : 0);

		if (need > (r->scratch >> 20))
			verr(errs, path, r, K_FILL, "needs a scratch disk of %llu MiB (a fill file of "
			     "1.5 x memory, the fio files, 64 MiB spare), not %llu MiB",
			     (unsigned long long)need, (unsigned long long)(r->scratch >> 20));
	}
	if (r->hang_silence > 0 && r->hang_silence < 30)
		verr(errs, path, r, K_HANG_SILENCE, "below 30s: a step beats only every 20 s");
	else if (r->hang_silence > 0) {
		/* a planned idle stretch (a guest asleep on purpose) must fit in the bound */
		double idle = r->warmup, gap = r->alloc_interval + r->alloc_jitter + r->alloc_hold;

		idle = gap > idle ? gap : idle;
		idle = r->alloc_start > idle ? r->alloc_start : idle;
		if (r->hang_silence < idle + 20)
			verr(errs, path, r, K_HANG_SILENCE, "%.0fs is within 20 s of the plan's "
			     "longest planned pause (%.0fs: warmup, alloc-interval + jitter + hold, "
			     "alloc-start); raise it or set 0", r->hang_silence, idle);
	}
	if (r->timeout_key > 0 && r->timeout_key < 10)
		verr(errs, path, r, K_TIMEOUT, "below 10s cannot even boot a guest");
	r->timeout = r->timeout_key > 0 ? r->timeout_key : scenario_derived_timeout(r);
	return errs->len != before;
}

double scenario_derived_timeout(const struct run_spec *r)
{
	double t = 60, deadline = r->alloc_timeout > 0 ? r->alloc_timeout : 60;
	bool area = setup_area_name(r->setup) != NULL;

	if (r->fill > 0 && (area || r->area > 0))
		t += r->fill_timeout;
	if (r->bg.n)
		t += r->warmup;
	if (r->fio)
		t += r->fio_size / (10.0 * (1 << 20)) + r->fio_runtime;
	if (bg_list_find(&r->bg, "fio"))
		t += r->fio_size / (10.0 * (1 << 20));
	if (area && r->alloc_count > 0)
		t += r->alloc_start + (double)r->alloc_passes * r->alloc_count * r->nalloc_pages *
		     (r->alloc_burst * deadline + r->alloc_hold + r->alloc_interval + r->alloc_jitter +
		      r->alloc_refill);
	if (r->job)
		t += 600;
	if (r->script)
		t += 600;
	return t * 1.25 + 60;
}

/* A baseline names a section of the scenario. */
int check_baseline(const char *path, const struct scenario *scn, struct strbuf *errs)
{
	int nerr = 0;

	for (size_t i = 0; i < scn->nruns; i++) {
		const struct run_spec *r = &scn->runs[i];
		bool found = !r->baseline;

		for (size_t k = 0; k < scn->nruns && !found; k++)
			found = !strcmp(scn->runs[k].section, r->baseline);
		if (!found) {
			verr(errs, path, r, K_BASELINE, "'%s' is not a section of this scenario",
			     r->baseline);
			nerr++;
		}
	}
	return nerr;
}

/*
 * The primaries parse, name sections of the scenario, and are one list:
 * the same value in every section.
 */
int check_primary(const char *path, const struct scenario *scn, struct strbuf *errs)
{
	int nerr = 0;

	for (size_t i = 0; i < scn->nruns && !nerr; i++) {
		const struct run_spec *r = &scn->runs[i];
		const char *why = NULL, *p0 = scn->runs[0].primary;
		struct primaries ps;

		if (r->order_seed != scn->runs[0].order_seed) {
			verr(errs, path, r, K_ORDER_SEED, "differs from [%s]'s: set it in [global]",
			     scn->runs[0].section);
			nerr++;
			break;
		}
		if (strcmp(r->primary ? r->primary : "", p0 ? p0 : "")) {
			verr(errs, path, r, K_PRIMARY, "differs from [%s]'s: set it in [global]",
			     scn->runs[0].section);
			nerr++;
			break;
		}
		if (primaries_parse(r->primary, r->alloc_pages, r->nalloc_pages, &ps, &why)) {
			verr(errs, path, r, K_PRIMARY, "'%s' %s", r->primary, why);
			nerr++;
			break;
		}
		for (size_t k = 0; k < ps.n && !nerr; k++) {
			const char *sec[2] = { ps.v[k].a, ps.v[k].b };

			for (int j = 0; j < 2 && !nerr; j++) {
				bool found = false;

				for (size_t x = 0; x < scn->nruns && !found; x++)
					found = !strcmp(scn->runs[x].section, sec[j]);
				if (!found) {
					verr(errs, path, r, K_PRIMARY, "'%s' is not a section of this "
					     "scenario", sec[j]);
					nerr++;
				}
			}
		}
		primaries_free(&ps);
	}
	return nerr;
}
