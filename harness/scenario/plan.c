#include "scenario/plan.h"
#include "scenario/job.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Boots our root image and init; panic=-1 turns a panic into a QEMU exit. */
#define BASE_CMDLINE "root=/dev/vda rw rootfstype=ext4 init=/sbin/init panic=-1 printk.time=1"

static char *fmt_size(uint64_t bytes)
{
	if (bytes % (1ull << 30) == 0)
		return xasprintf("%lluG", (unsigned long long)(bytes >> 30));
	if (bytes % (1ull << 20) == 0)
		return xasprintf("%lluM", (unsigned long long)(bytes >> 20));
	return xasprintf("%lluK", (unsigned long long)(bytes >> 10));
}

static char *make_cmdline(const struct run_spec *s)
{
	struct strbuf sb = { 0 };
	char *area = fmt_size(s->area);

	sb_addf(&sb, "console=%s " BASE_CMDLINE, s->arch->console);
	/* Where the device tree declares the area (dtb.c), the command line does not. */
	if (s->arch->device_tree)
		;
	else if (s->setup == SETUP_CMA)
		sb_addf(&sb, " cma=%s", area);
	else if (s->setup == SETUP_GCMA)
		/* the default area, as cma= makes its own: the one the DMA API's
		 * devices and the CMA heap use (alloc-path) */
		sb_addf(&sb, " gcma=%s,default", area);
	if (s->append)
		sb_addf(&sb, " %s", s->append);
	free(area);
	return sb_detach(&sb);
}

static char *make_steps(const struct scenario *scn, const struct run_spec *s, const char *name)
{
	struct strbuf sb = { 0 };
	const char *area = setup_area_name(s->setup);
	char *size = fmt_size(s->fio_size);
	char *fio_env = xasprintf("FIO_SIZE=%s", size);
	struct strbuf ao = { 0 };
	const struct job *jd = job_find(s->job);
	char *job = jd ? job_command(jd, s) : NULL;
	bool alloc_bg = false;
	struct wl_args wa;

	for (size_t i = 0; i < s->bg.n; i++)
		alloc_bg |= s->bg.v[i].w->replaces_alloc;
	sb_addf(&ao, "--area %s --count %ld --pages ", area ? area : "none", s->alloc_count);
	for (size_t i = 0; i < s->nalloc_pages; i++)
		sb_addf(&ao, "%s%ld", i ? "," : "", s->alloc_pages[i]);
	sb_addf(&ao, " --burst %ld --hold-ms %.0f --interval-ms %.0f --jitter-ms %.0f --seed %ld "
		"--timeout-ms %.0f", s->alloc_burst, s->alloc_hold * 1000, s->alloc_interval * 1000,
		s->alloc_jitter * 1000, s->seed, s->alloc_timeout * 1000);
	if (s->alloc_refill > 0)
		sb_addf(&ao, " --wait-target %ld --wait-max-ms %.0f --pause-pidfile /tmp/fill.pid",
			s->fill, s->alloc_refill * 1000);
	sb_addf(&ao, " --path %s", s->alloc_path);
	if (!strcmp(s->alloc_path, "debugfs") && strcmp(s->alloc_align, "0"))
		sb_addf(&ao, " --align %s", s->alloc_align);
	wa = (struct wl_args){ .area = area, .fio_env = fio_env, .alloc_opts = ao.buf };

	sb_addf(&sb, "# cmabench guest plan: %s/%s\n", scn->name, name);
	/* keys the guest reads itself (a row's .guest), as CMB_<KEY> */
	scenario_guest_env(s, &sb);
	if (area)
		sb_addf(&sb, "area %s\n", area);
	if (s->trace)
		sb_addf(&sb, "trace %s\n", s->trace);
	sb_add(&sb, "scratch /dev/vdb\n");
	if (s->swap)
		sb_addf(&sb, "swap %llu %s\n", (unsigned long long)(s->swap >> 20), s->swap_device);
	/* Files are laid out before anything is measured (build-sim's and
	 * app-switch's trees on the host: make_layout). */
	if (s->fio)
		sb_addf(&sb, "prepare %s %s\n", s->fio, fio_env);
	for (size_t i = 0; i < s->bg.n; i++)
		if (s->bg.v[i].w->prepare)
			s->bg.v[i].w->prepare(&sb, s, s->bg.v[i].arg, &wa);
	/* A background that allocates is measured: with a fill it starts once
	 * the area is full, not before. */
	/* A set-up without an area runs the fill's load (its readers) beside
	 * its job too, so that every set-up of the scenario runs beside it. */
	bool fill = s->fill > 0 && (area || s->area > 0);

	for (size_t i = 0; i < s->bg.n; i++)
		if (!fill || !s->bg.v[i].w->replaces_alloc)
			workload_start(&sb, &s->bg.v[i], s, &wa);
	if (s->bg.n && s->warmup > 0)
		sb_addf(&sb, "warmup %.0f\n", s->warmup < 1 ? 1 : s->warmup);
	/* The area filled with its tenants before anything is measured. */
	if (fill)
		sb_addf(&sb, "fill %ld %.0f %llu %s\n", s->fill, s->fill_timeout,
			(unsigned long long)(s->memory >> 20) * 3 / 2,
			s->fill_keep == FILL_PACED ? "paced" : "stream");
	for (size_t i = 0; fill && i < s->bg.n; i++)
		if (s->bg.v[i].w->replaces_alloc)
			workload_start(&sb, &s->bg.v[i], s, &wa);
	sb_add(&sb, "snapshot before\n");
	if (s->fio)
		sb_addf(&sb, "fio %s FIO_RUNTIME=%.0f %s\n", s->fio,
			s->fio_runtime < 1 ? 1 : s->fio_runtime, fio_env);
	/* A job and a foreground plan: the plan runs beside the job, traced, and
	 * the run waits for the job after it; a set-up without an area runs the
	 * job alone, timed the same way (build-sim times itself). */
	if (job && area && s->alloc_count > 0 && !alloc_bg) {
		sb_addf(&sb, "job-start %s %s\n", s->job, job);
		/* the allocation plan: the alloc-* keys as CMB_* (scenario_guest_env) */
		sb_add(&sb, "alloc\n");
		sb_addf(&sb, "job-wait %s\n", s->job);
	} else {
		if (job)
			sb_addf(&sb, "job %s %s\n", s->job, job);
		if (area && s->alloc_count > 0 && !alloc_bg)
			sb_add(&sb, "alloc\n");
	}
	/* A script is a foreground too: the snapshots bracket it. */
	if (s->script)
		sb_addf(&sb, "script %s\n", s->script);
	sb_add(&sb, "snapshot after\n");
	if (s->bg.n)
		sb_add(&sb, "bg-stop\n");
	free(size);
	free(fio_env);
	sb_free(&ao);
	free(job);
	return sb_detach(&sb);
}

/* The trees the run's programs read, written on the host into its scratch
 * image: a foreground or background build's sources and headers, the apps'
 * files. The programs are the guest's own, so that the files are the same
 * whoever writes them. */
static char *make_layout(const struct run_spec *s)
{
	struct strbuf sb = { 0 };
	const struct job *jd = job_find(s->job);
	bool build = false;

	for (size_t i = 0; i < s->bg.n; i++)
		build |= !strcmp(s->bg.v[i].w->name, "build");
	if (jd && jd->layout)
		jd->layout(&sb, s);
	/* the background build reads the foreground build's tree */
	if (build && !(jd && !strcmp(jd->name, "build")))
		job_find("build")->layout(&sb, s);
	return sb.buf ? sb_detach(&sb) : NULL;
}

static const char *allocations(const struct run_spec *s)
{
	if (!setup_area_name(s->setup) || s->alloc_count <= 0)
		return "none";
	for (size_t i = 0; i < s->bg.n; i++)
		if (s->bg.v[i].w->replaces_alloc)
			return "untraced";
	return s->trace ? "traced" : "untraced";
}

/* splitmix64 (Steele et al. 2014): a fixed, portable sequence per seed. */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Fisher-Yates over idx[0..n-1] from (seed, rep); seed 0 leaves it as it is. */
static void shuffle(size_t *idx, size_t n, long seed, long rep)
{
	uint64_t x = (uint64_t)seed * 1000003u + (uint64_t)rep;

	if (!seed)
		return;
	for (size_t i = n; i > 1; i--) {
		size_t k = (size_t)(splitmix(&x) % i), t = idx[i - 1];

		idx[i - 1] = idx[k];
		idx[k] = t;
	}
}

int plan_add(struct plan *plan, const struct scenario *scn, const struct strlist *only,
	     struct strbuf *errs)
{
	size_t matched = 0, *idx = xcalloc(scn->nruns + 1, sizeof(*idx));
	long reps = 0, seed = scn->nruns ? scn->runs[0].order_seed : 0;

	if (!errs->buf)
		sb_init(errs);
	for (size_t i = 0; i < scn->nruns; i++) {
		if (scn->runs[i].repeat > reps)
			reps = scn->runs[i].repeat;
		if (!only || !only->n || sl_has(only, scn->runs[i].section))
			matched++;
	}
	/*
	 * Repetition-major (every set-up's r1, then every r2, ...): a drift of
	 * the host over the session spreads over every set-up; shuffled within
	 * each repetition, so that no set-up always runs first or beside the
	 * same neighbour (run --jobs).
	 */
	for (long rep = 1; rep <= reps; rep++) {
		size_t n = 0;

		for (size_t i = 0; i < scn->nruns; i++)
			if ((!only || !only->n || sl_has(only, scn->runs[i].section)) &&
			    rep <= scn->runs[i].repeat)
				idx[n++] = i;
		shuffle(idx, n, seed, rep);
		for (size_t k = 0; k < n; k++) {
			const struct run_spec *s = &scn->runs[idx[k]];
			struct run *r;

			plan->runs = xrealloc(plan->runs, (plan->n + 1) * sizeof(*plan->runs));
			r = &plan->runs[plan->n++];
			memset(r, 0, sizeof(*r));
			r->scn = scn;
			r->spec = s;
			r->rep = rep;
			r->name = xasprintf("%s-r%ld", s->section, rep);
			r->cmdline = make_cmdline(s);
			r->steps = make_steps(scn, s, r->name);
			r->layout = make_layout(s);
			r->area = setup_area_name(s->setup);
			r->allocations = allocations(s);
			r->mem_mib = s->memory >> 20;
			if (s->setup == SETUP_CARVEOUT)
				r->mem_mib -= s->area >> 20;
			r->order_seed = seed;
			r->order_pos = (int)k + 1;
		}
	}
	free(idx);
	if (only && only->n && !matched) {
		sb_addf(errs, "%s: no section matches --only\n", scn->path);
		return 1;
	}
	return 0;
}

void plan_files(const struct run *r, struct strlist *out)
{
	const struct run_spec *s = r->spec;

	if (s->fio)
		sl_addf(out, "workloads/fio/%s", s->fio);
	if (s->script) {
		sl_addf(out, "workloads/guest/scripts/%s", s->script);
		/* what the scripts share (counters) */
		sl_add(out, "workloads/guest/scripts/lib.sh");
	}
	for (size_t i = 0; i < s->bg.n; i++)
		if (s->bg.v[i].w->file_dir) {
			char *f = xasprintf("%s/%s", s->bg.v[i].w->file_dir, s->bg.v[i].arg);

			if (!sl_has(out, f))
				sl_add(out, f);
			free(f);
		}
}

void plan_print(FILE *f, const struct plan *plan)
{
	fprintf(f, "%-28s %-8s %-9s %7s %4s %8s  %s\n", "run", "kernel", "setup", "memory", "cpus",
		"timeout", "command line");
	for (size_t i = 0; i < plan->n; i++) {
		const struct run *r = &plan->runs[i];
		char *name = xasprintf("%s/%s", r->scn->name, r->name);
		/* a derived timeout (timeout=0) is marked '*' */
		char *tmo = xasprintf("%.0fm%s", r->spec->timeout / 60,
				      r->spec->timeout_key > 0 ? "" : "*");

		fprintf(f, "%-28s %-8s %-9s %6luM %4ld %8s  %s\n", name, r->spec->kernel,
			setup_name(r->spec->setup), r->mem_mib, r->spec->cpus, tmo, r->cmdline);
		free(tmo);
		free(name);
	}
}

void plan_free(struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		free(plan->runs[i].name);
		free(plan->runs[i].cmdline);
		free(plan->runs[i].steps);
		free(plan->runs[i].layout);
	}
	free(plan->runs);
	memset(plan, 0, sizeof(*plan));
}
