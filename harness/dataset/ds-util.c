/*
 * What the readers share (ds-internal.h): problems and flags of a run,
 * paths and CSV files of a run, growing arrays, and whether
 * a run counts. The driver (dataset.c) and every reader call these; none of
 * them calls back into the driver.
 */
#include "dataset/ds-internal.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void ds_problem(struct ds_run *r, const char *file, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	sl_addf(&r->problems, "runs/%s/%s: %s", r->name, file, msg);
	free(msg);
}

void ds_flag(char *flags, size_t size, const char *flag)
{
	size_t n = strlen(flags);

	if (strstr(flags, flag))
		return;
	snprintf(flags + n, size - n, "%s%s", n ? ";" : "", flag);
}

void *ds_grow(void *vp, size_t *n, size_t *cap, size_t size)
{
	void **v = vp;
	char *at;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*v = xrealloc(*v, *cap * size);
	}
	at = (char *)*v + (*n)++ * size;
	memset(at, 0, size);
	return at;
}

bool ds_run_ok(const struct ds_run *r)
{
	return r->status && !strcmp(r->status, "ok");
}

bool ds_run_counts(const struct ds_run *r)
{
	return ds_run_ok(r) || r->partial;
}

bool ds_status_partial(const char *status)
{
	static const char *const early[] = { "timeout", "hang", "panic", "crashed", "interrupted" };

	for (size_t i = 0; status && i < ARRAY_SIZE(early); i++)
		if (!strcmp(status, early[i]))
			return true;
	return false;
}

bool ds_run_not_filled(const struct ds_run *r)
{
	/* "load": a set-up without an area ran the fill's load; nothing to miss. */
	return r->fill_status && strcmp(r->fill_status, "filled") && strcmp(r->fill_status, "load");
}

/*
 * The condition a filled run is about is an area at its fill when each
 * request began; a request that met less measured something else. Runs
 * without a fill, set-ups without an area and requests whose occupancy
 * was not read (older files) cannot tell, and count.
 */
static bool met_fill(const struct ds_run *r, double occupancy)
{
	return isnan(r->fill_target) || isnan(occupancy) || !r->area ||
	       occupancy >= r->fill_target;
}

/*
 * A plan beside a job (rfc-v2-background's build) is about requests the job
 * overlaps: one that began after the job ended met an idle guest. Both
 * clocks are the guest's uptime.
 */
static bool after_job(const struct dataset *ds, size_t run, long long start_ns)
{
	if (start_ns == DS_NONE)
		return false;
	for (size_t i = 0; i < ds->njobs; i++) {
		const struct ds_job *j = &ds->jobs[i];

		if (j->run == run && !isnan(j->start_s) &&
		    start_ns / 1e9 > j->start_s + j->elapsed_s)
			return true;
	}
	return false;
}

bool ds_alloc_after_job(const struct dataset *ds, const struct ds_alloc *a)
{
	return after_job(ds, a->run, a->start_ns);
}

/*
 * How long the job a run's plan ran beside went on after the plan's last
 * request ended (s; negative: the plan outlasted the job), NAN for a run
 * without a timed job or without a dated request. A request's end is its
 * start plus its user-side latency, censored at its deadline as recorded.
 */
double ds_plan_margin_s(const struct dataset *ds, size_t run)
{
	double job_end = NAN, plan_end = NAN;

	for (size_t i = 0; i < ds->njobs; i++) {
		const struct ds_job *j = &ds->jobs[i];

		if (j->run == run && !isnan(j->start_s))
			job_end = j->start_s + j->elapsed_s;
	}
	for (size_t i = 0; i < ds->nallocs; i++) {
		const struct ds_alloc *a = &ds->allocs[i];
		double end;

		if (a->run != run || a->tag[0] || a->start_ns == DS_NONE || a->user_ns == DS_NONE)
			continue;
		end = (double)(a->start_ns + a->user_ns) / 1e9;
		if (isnan(plan_end) || end > plan_end)
			plan_end = end;
	}
	return job_end - plan_end;
}

bool ds_burst_after_job(const struct dataset *ds, const struct ds_burst *b)
{
	return after_job(ds, b->run, b->start_ns);
}

bool ds_alloc_met(const struct dataset *ds, const struct ds_alloc *a)
{
	return met_fill(&ds->runs[a->run], a->occupancy) && !ds_alloc_after_job(ds, a);
}

bool ds_burst_met(const struct dataset *ds, const struct ds_burst *b)
{
	return met_fill(&ds->runs[b->run], b->occupancy) && !ds_burst_after_job(ds, b);
}

size_t dataset_degraded(const struct dataset *ds)
{
	size_t n = 0;

	for (size_t i = 0; i < ds->nruns; i++)
		n += !ds_run_ok(&ds->runs[i]) || ds->runs[i].problems.n;
	return n;
}

char *ds_run_path(const struct dataset *ds, const struct ds_run *r, const char *rel)
{
	return xasprintf("%s/%s/%s", ds->runs_dir, r->name, rel);
}

bool ds_open_csv(struct csv *c, const struct dataset *ds, struct ds_run *r, const char *rel,
		 const char *const *cols, size_t n, int *idx, bool *missing)
{
	char *path = ds_run_path(ds, r, rel);
	int rc = csv_open(c, path);

	free(path);
	*missing = rc != 0;
	if (rc)
		return false;
	if (!csv_cols(c, cols, n, idx)) {
		struct strbuf want;

		sb_init(&want);
		for (size_t i = 0; i < n; i++)
			sb_addf(&want, "%s%s", i ? "," : "", cols[i]);
		ds_problem(r, rel, "no header with %s", want.buf);
		sb_free(&want);
		csv_close(c);
		return false;
	}
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ds_list_dir(const char *path, struct strlist *out)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			sl_add(out, de->d_name);
	closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
}
