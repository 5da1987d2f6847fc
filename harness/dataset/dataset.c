/*
 * The data-set driver: the runs of a results directory (from metadata.json
 * and runs/), then each run through the table of readers, one per raw
 * file (docs/scenarios.md, "What a run produces").
 */
#include "dataset/ds-internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct ds_reader {
	const char *file;           /* what it reads */
	void (*read)(struct dataset *ds, size_t run);
};

/* Order matters: trace pairs with the allocations, bursts derive from them. */
static const struct ds_reader readers[] = {
	{ "alloc.csv", ds_read_alloc },
	{ "trace-cma.csv", ds_read_trace },
	{ "trace-attr.csv", ds_read_attr },
	{ "alloc.csv (bursts)", ds_derive_bursts },
	{ "fio-*.json, bg-fio-*.json", ds_read_fio },
	{ "snapshots/", ds_read_snapshots },
	{ "cleancache-*/ (a script's phases)", ds_read_phases },
	{ "*.perf", ds_read_perf },
	{ "samples.csv", ds_read_samples },
	{ "jobtime.csv", ds_read_jobtime },
	{ "launches.csv", ds_read_launches },
	{ "backgrounds.csv", ds_read_backgrounds },
	{ "bg-pin-io.log", ds_read_pin_io },
	{ "fill.csv", ds_read_fill },
	{ "quiet.csv, sampler-windows.csv, keeper-windows.csv", ds_read_readers },
};

/* ---- runs and their metadata ----------------------------------------------- */

static struct ds_run *find_run(struct dataset *ds, const char *name)
{
	for (size_t i = 0; i < ds->nruns; i++)
		if (!strcmp(ds->runs[i].name, name))
			return &ds->runs[i];
	return NULL;
}

static struct ds_run *add_run(struct dataset *ds, const char *name)
{
	struct ds_run *r;

	ds->runs = xrealloc(ds->runs, (ds->nruns + 1) * sizeof(*ds->runs));
	r = &ds->runs[ds->nruns++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->area_bytes = r->memory_mib = r->cpus = r->vms_beside = r->swap_mib = -1;
	r->start_unix = r->order_seed = -1;
	r->results_schema = 1;
	r->disk_scale = 1;
	return r;
}

static void set_str(char **dst, const char *v)
{
	if (v && !*dst)
		*dst = xstrdup(v);
}

static void set_int(long long *dst, long long v)
{
	if (*dst < 0 && v >= 0)
		*dst = v;
}

/* Fills what one metadata object says (fields already set win). */
static void run_from_json(struct ds_run *r, json_object *m)
{
	set_str(&r->section, js_str(m, "section"));
	set_str(&r->setup, js_str(m, "setup"));
	set_str(&r->kernel, js_str(m, "kernel_variant"));
	set_str(&r->status, js_str(m, "status"));
	set_str(&r->scenario, js_str(m, "scenario"));
	set_str(&r->kernel_version, js_str(m, "kernel_version"));
	set_str(&r->accel, js_str(m, "accelerator"));
	if (js_str(m, "clock"))
		set_str(&r->clock, js_str(m, "clock"));
	set_str(&r->area, js_str(m, "area"));
	set_str(&r->allocations, js_str(m, "allocations"));
	set_str(&r->trace_problem, js_str(m, "trace_problem"));
	set_int(&r->area_bytes, js_int(m, "area_bytes"));
	set_int(&r->memory_mib, js_int(m, "guest_memory_mib"));
	set_int(&r->cpus, js_int(m, "guest_cpus"));
	set_int(&r->swap_mib, js_int(m, "swap_mib"));
	set_str(&r->swap_device, js_str(m, "swap_device"));
	set_int(&r->vms_beside, js_int(m, "vms_beside"));
	set_str(&r->baseline, js_str(m, "baseline"));
	set_str(&r->primary, js_str(m, "primary"));
	set_int(&r->start_unix, js_int(m, "start_unix"));
	set_int(&r->order_seed, js_int(m, "order_seed"));
	if (js_int(m, "results_schema") > 0)
		r->results_schema = js_int(m, "results_schema");
	set_str(&r->disk, js_str(m, "disk"));
	set_str(&r->arch, js_str(m, "arch"));
	r->disk_scale = js_num(m, "disk_scale", r->disk_scale);
	/* results from before it was recorded keep CALIB_NONE */
	if (r->disk_calib.source == CALIB_NONE) {
		json_object *cal;

		if (json_object_object_get_ex(m, "disk_calibration", &cal))
			calib_from_json(&r->disk_calib, cal);
	}
	if (js_int(m, "fill_target_pct") > 0)
		r->fill_planned = true;
	if (js_bool(m, "partial"))
		r->partial = true;
	if (!r->rep && js_int(m, "repetition") >= 0)
		r->rep = (int)js_int(m, "repetition");
}

/*
 * Results made before run recorded "area" and "allocations" in metadata.json:
 * the same facts from the guest plan's step lines ("area NAME", "alloc ...",
 * "bg alloc ...").
 */
static void facts_from_plan(const struct dataset *ds, struct ds_run *r)
{
	char *p = ds_run_path(ds, r, "plan/steps"), *text = read_file(p, NULL), *save = NULL;
	bool fg = false, bg = false;

	free(p);
	if (!text) {
		/* No plan either: assume the run allocated, traced. */
		set_str(&r->allocations, "traced");
		return;
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char w0[32] = "", w1[64] = "";

		sscanf(l, "%31s %63s", w0, w1);
		if (!strcmp(w0, "area"))
			set_str(&r->area, w1);
		fg |= !strcmp(w0, "alloc");
		bg |= !strcmp(w0, "bg") && !strcmp(w1, "alloc");
	}
	free(text);
	set_str(&r->allocations, fg ? "traced" : bg ? "untraced" : "none");
}

/* "<section>-r<N>" */
static void split_run_name(const char *name, char **section, int *rep)
{
	const char *p = strrchr(name, '-');
	char *end;
	long n;

	if (p && p[1] == 'r') {
		n = strtol(p + 2, &end, 10);
		if (end != p + 2 && !*end && n > 0) {
			*section = xasprintf("%.*s", (int)(p - name), name);
			*rep = (int)n;
			return;
		}
	}
	*section = xstrdup(name);
	*rep = 1;
}

/* The scenario file a results directory keeps ("smoke.scn"), if exactly one. */
static char *scn_name(const char *dir)
{
	struct strlist files = { 0 };
	char *name = NULL;
	int n = 0;

	ds_list_dir(dir, &files);
	for (size_t i = 0; i < files.n; i++) {
		size_t len = strlen(files.v[i]);

		if (len > 4 && !strcmp(files.v[i] + len - 4, ".scn")) {
			free(name);
			name = xasprintf("%.*s", (int)(len - 4), files.v[i]);
			n++;
		}
	}
	sl_free(&files);
	if (n != 1) {
		free(name);
		return NULL;
	}
	return name;
}

static size_t section_index(const struct dataset *ds, const char *s)
{
	for (size_t i = 0; i < ds->sections.n; i++)
		if (!strcmp(ds->sections.v[i], s))
			return i;
	return ds->sections.n;
}

static const struct dataset *sort_ds;

static int cmp_run(const void *a, const void *b)
{
	const struct ds_run *x = a, *y = b;
	size_t sx = section_index(sort_ds, x->section), sy = section_index(sort_ds, y->section);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The runs the top-level metadata.json lists, with what it says of each. */
static void runs_from_top(struct dataset *ds, json_object *top)
{
	json_object *runs = js_arr(top, "runs");

	if (!runs)
		return;
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		json_object *m = json_object_array_get_idx(runs, i);
		const char *name = js_str(m, "run");
		char *gen = NULL;
		struct ds_run *r;

		if (!name) {
			if (!js_str(m, "section"))
				continue;
			name = gen = xasprintf("%s-r%lld", js_str(m, "section"),
					       js_int(m, "repetition") > 0 ? js_int(m, "repetition") : 1);
		}
		r = find_run(ds, name) ? find_run(ds, name) : add_run(ds, name);
		r->in_metadata = true;
		/* The run's own metadata.json wins: read it first. */
		{
			char *p = ds_run_path(ds, r, "metadata.json");
			json_object *rm = json_object_from_file(p);

			free(p);
			run_from_json(r, rm);
			json_object_put(rm);
		}
		run_from_json(r, m);
		free(gen);
	}
}

static void finish_run(struct dataset *ds, struct ds_run *r, json_object *top, const char *scn)
{
	char *p = ds_run_path(ds, r, "metadata.json"), *st, *sec;
	json_object *m = json_object_from_file(p);
	int rep;

	free(p);
	run_from_json(r, m);
	json_object_put(m);
	p = ds_run_path(ds, r, "status");
	st = read_file(p, NULL);
	free(p);
	if (st) {
		rtrim(st);
		if (!r->status && st[0])
			r->status = xstrdup(st);
		free(st);
	}
	split_run_name(r->name, &sec, &rep);
	if (!r->section)
		r->section = sec;
	else
		free(sec);
	if (!r->rep)
		r->rep = rep;
	set_str(&r->scenario, js_str(top, "scenario"));
	set_str(&r->scenario, scn);
	set_str(&r->accel, js_str(top, "accelerator"));
	if (!r->allocations)
		facts_from_plan(ds, r);
	set_str(&r->setup, "?");
	set_str(&r->kernel, "?");
	set_str(&r->scenario, "?");
	set_str(&r->kernel_version, "?");
	set_str(&r->accel, "?");
	set_str(&r->disk, "host");
	set_str(&r->arch, "x86_64");
	if (!r->status) {
		r->status = xstrdup("unknown");
		ds_problem(r, "status", "no status (neither metadata.json nor status file)");
	}
	/* older results: the status says it ended early */
	r->partial |= ds_status_partial(r->status);
	p = ds_run_path(ds, r, "");
	if (!is_dir(p))
		ds_problem(r, "", "run directory missing");
	free(p);
	if (!sl_has(&ds->sections, r->section))
		sl_add(&ds->sections, r->section);
}

static void load_runs(struct dataset *ds)
{
	char *path = path_join(ds->dir, "metadata.json"), *scn;
	json_object *top = json_object_from_file(path);
	struct strlist dirs = { 0 };

	free(path);
	set_str(&ds->run_id, js_str(top, "run_id"));
	runs_from_top(ds, top);
	ds_list_dir(ds->runs_dir, &dirs);
	for (size_t i = 0; i < dirs.n; i++) {
		char *p = path_join(ds->runs_dir, dirs.v[i]);

		if (is_dir(p) && !find_run(ds, dirs.v[i]))
			add_run(ds, dirs.v[i]);
		free(p);
	}
	sl_free(&dirs);
	scn = scn_name(ds->dir);
	for (size_t i = 0; i < ds->nruns; i++)
		finish_run(ds, &ds->runs[i], top, scn);
	free(scn);
	json_object_put(top);
	sort_ds = ds;
	if (ds->nruns)
		qsort(ds->runs, ds->nruns, sizeof(*ds->runs), cmp_run);
	sort_ds = NULL;
}

/* ---- load / free --------------------------------------------------------- */

int dataset_load(struct dataset *ds, const char *dir, struct strbuf *errs)
{
	memset(ds, 0, sizeof(*ds));
	ds->dir = xstrdup(dir);
	while (strlen(ds->dir) > 1 && ds->dir[strlen(ds->dir) - 1] == '/')
		ds->dir[strlen(ds->dir) - 1] = '\0';
	ds->runs_dir = ds_runs_dir(ds->dir, errs);
	load_runs(ds);
	if (!ds->nruns) {
		sb_addf(errs, "%s: no runs (neither metadata.json nor runs/)\n", dir);
		return -1;
	}
	if (!ds->run_id) {
		const char *slash = strrchr(ds->dir, '/');

		ds->run_id = xstrdup(slash ? slash + 1 : ds->dir);
	}
	for (size_t i = 0; i < ds->nruns; i++) {
		struct ds_run *r = &ds->runs[i];

		if (r->baseline && !ds->baseline && sl_has(&ds->sections, r->baseline))
			ds->baseline = xstrdup(r->baseline);
		if (r->primary && !ds->primary) {
			ds->primary = xstrdup(r->primary);
			ds->primary_from = xstrdup("metadata.json");
		}
		if (!r->in_metadata)
			ds_problem(r, "", "not listed in metadata.json");
		if (!ds_run_ok(r))
			ds_problem(r, "status", "run ended '%s'%s", r->status,
				   r->partial ? ": partial, the rows it completed are kept" : "");
		for (size_t k = 0; k < ARRAY_SIZE(readers); k++)
			readers[k].read(ds, i);
	}
	return 0;
}

void dataset_free(struct dataset *ds)
{
	for (size_t i = 0; i < ds->nruns; i++) {
		struct ds_run *r = &ds->runs[i];

		free(r->name);
		free(r->section);
		free(r->setup);
		free(r->kernel);
		free(r->status);
		free(r->scenario);
		free(r->kernel_version);
		free(r->accel);
		free(r->clock);
		free(r->area);
		free(r->allocations);
		free(r->trace_problem);
		free(r->fill_status);
		free(r->baseline);
		free(r->primary);
		free(r->disk);
		free(r->swap_device);
		free(r->arch);
		sl_free(&r->problems);
	}
	free(ds->attrs);
	for (size_t i = 0; i < ds->nfios; i++) {
		free(ds->fios[i].file);
		free(ds->fios[i].job);
	}
	for (size_t i = 0; i < ds->ncounters; i++) {
		free(ds->counters[i].source);
		free(ds->counters[i].name);
	}
	for (size_t i = 0; i < ds->nsamples; i++)
		free(ds->samples[i].name);
	for (size_t i = 0; i < ds->njobs; i++)
		free(ds->jobs[i].name);
	free(ds->runs);
	free(ds->allocs);
	free(ds->bursts);
	free(ds->fios);
	free(ds->counters);
	free(ds->samples);
	free(ds->jobs);
	free(ds->launches);
	free(ds->dir);
	free(ds->runs_dir);
	free(ds->run_id);
	free(ds->baseline);
	free(ds->primary);
	free(ds->primary_from);
	sl_free(&ds->sections);
	memset(ds, 0, sizeof(*ds));
}

bool ds_counter_delta(const struct dataset *ds, size_t run, const char *source,
		      const char *name, long long *delta, long long *after)
{
	for (size_t i = 0; i < ds->ncounters; i++) {
		const struct ds_counter *c = &ds->counters[i];

		if (c->run != run || strcmp(c->source, source) || strcmp(c->name, name))
			continue;
		if (c->before == DS_NONE || c->after == DS_NONE)
			return false;
		if (delta)
			*delta = c->after - c->before;
		if (after)
			*after = c->after;
		return true;
	}
	return false;
}
