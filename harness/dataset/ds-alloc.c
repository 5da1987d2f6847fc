/*
 * alloc.csv: one row per allocation request as the guest's cma-alloc
 * timed it (docs/scenarios.md), and the bursts derived from it.
 */
#include "dataset/ds-internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { A_SEQ, A_BURST, A_START, A_PAGES, A_LAT, A_SUCCESS, A_ERRNO, A_FREE, A_OCC, A_TOUT,
       A_WAIT, A_PATH, A_ALIGN, A_FROM_AREA, A_ZEROED, A_NCOL };
static const char *const alloc_cols[A_NCOL] = {
	"seq", "burst", "start_ns", "pages", "latency_ns", "success", "errno", "free_latency_ns",
	"area_occupancy_pct", "timed_out", "refill_wait_ns", "path", "align", "from_area", "zeroed",
};

/* An optional column: its value, or DS_NONE when the file has no such column. */
static long long opt(const struct csv *c, const int *col, int which)
{
	long long v;

	return col[which] >= 0 && csv_ll(c, col[which], &v) ? v : DS_NONE;
}

/*
 * The request's path (alloc-path): files from before the key have no
 * column, and then debugfs at alignment 0 was the only path there was.
 */
static void read_path(const struct csv *c, const int *col, struct ds_alloc *a)
{
	const char *p = col[A_PATH] >= 0 ? csv_field(c, col[A_PATH]) : NULL;
	long long v;

	snprintf(a->path, sizeof(a->path), "%s", p && *p ? p : "debugfs");
	v = opt(c, col, A_ALIGN);
	a->align = col[A_PATH] < 0 ? 0 : v == DS_NONE ? -1 : (int)v;
	v = opt(c, col, A_FROM_AREA);
	a->from_area = v == DS_NONE ? -1 : (int)v;
	v = opt(c, col, A_ZEROED);
	a->zeroed = v == DS_NONE ? -1 : (int)v;
}

/* One file of allocations; false if it cannot be read. */
static bool read_file_allocs(struct dataset *ds, size_t ri, const char *file, const char *tag)
{
	struct ds_run *r = &ds->runs[ri];
	char *path = ds_run_path(ds, r, file);
	struct csv c;
	int col[A_NCOL];
	size_t rows = 0;

	if (csv_open(&c, path)) {
		free(path);
		return false;
	}
	free(path);
	csv_cols(&c, alloc_cols, A_NCOL, col);
	if (col[A_PAGES] < 0 || col[A_LAT] < 0 || col[A_SUCCESS] < 0) {
		ds_problem(r, file, "no header with pages, latency_ns and success");
		csv_close(&c);
		return true;
	}
	while (csv_next(&c)) {
		long long pages, lat, ok;
		struct ds_alloc *a;

		if (!csv_ll(&c, col[A_PAGES], &pages) || !csv_ll(&c, col[A_LAT], &lat) ||
		    !csv_ll(&c, col[A_SUCCESS], &ok)) {
			ds_problem(r, file, "line %zu: not a row of numbers", c.lineno);
			continue;
		}
		a = ds_grow(&ds->allocs, &ds->nallocs, &ds->cap_allocs, sizeof(*a));
		a->run = ri;
		a->seq = col[A_SEQ] >= 0 ? opt(&c, col, A_SEQ) : (long long)rows;
		a->burst = opt(&c, col, A_BURST);
		a->start_ns = opt(&c, col, A_START);
		a->pages = pages;
		a->user_ns = lat;
		a->success = ok != 0;
		a->err = col[A_ERRNO] >= 0 && opt(&c, col, A_ERRNO) != DS_NONE ?
			 (int)opt(&c, col, A_ERRNO) : 0;
		a->free_ns = opt(&c, col, A_FREE);
		/* empty, or no column: the driver did not wait for a refill */
		a->refill_wait_ns = opt(&c, col, A_WAIT);
		/* files from before deadlines have no column: nothing timed out */
		a->timed_out = opt(&c, col, A_TOUT) > 0;
		/* a request killed at its deadline did not succeed, whatever a row says */
		if (a->timed_out)
			a->success = 0;
		if (!csv_double(&c, col[A_OCC], &a->occupancy))
			a->occupancy = NAN;
		read_path(&c, col, a);
		a->kernel_ns = a->retries = a->kerrno = a->kalign = DS_NONE;
		snprintf(a->tag, sizeof(a->tag), "%s", tag);
		rows++;
	}
	csv_close(&c);
	if (!rows && !*tag)
		ds_problem(r, file, "no allocations");
	return true;
}

bool dataset_alloc_counts(const char *run_dir, long long *rows, long long *failed,
			  long long *timed_out)
{
	char *path = path_join(run_dir, "alloc.csv");
	struct csv c;
	int col[A_NCOL];

	*rows = *failed = *timed_out = 0;
	if (csv_open(&c, path)) {
		free(path);
		return false;
	}
	free(path);
	csv_cols(&c, alloc_cols, A_NCOL, col);
	while (col[A_SUCCESS] >= 0 && csv_next(&c)) {
		long long ok = 0, late = 0;

		if (!csv_ll(&c, col[A_SUCCESS], &ok))
			continue;
		if (col[A_TOUT] >= 0)
			csv_ll(&c, col[A_TOUT], &late);
		(*rows)++;
		*failed += !ok || late;
		*timed_out += late > 0;
	}
	csv_close(&c);
	return true;
}

/*
 * alloc.csv (the plan's allocations), then a script's alloc-TAG.csv files
 * (gcma-functional's whole-area allocations), tagged.
 */
void ds_read_alloc(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	char *dir = ds_run_path(ds, r, "");
	struct strlist files = { 0 };

	if (!read_file_allocs(ds, ri, "alloc.csv", "") && ds_run_ok(r) &&
	    strcmp(r->allocations, "none"))
		ds_problem(r, "alloc.csv", "missing");
	ds_list_dir(dir, &files);
	for (size_t i = 0; i < files.n; i++) {
		const char *f = files.v[i];
		size_t n = strlen(f);

		if (!strncmp(f, "alloc-", 6) && n > 10 && !strcmp(f + n - 4, ".csv")) {
			char *tag = xasprintf("%.*s", (int)(n - 10), f + 6);

			read_file_allocs(ds, ri, f, tag);
			free(tag);
		}
	}
	sl_free(&files);
	free(dir);
}

/*
 * The one definition of a burst: the requests of a run sharing a burst
 * number, from the first request's start to the last request's end.
 * A single request is not a burst; rows without burst or start_ns (older
 * files) make none.
 */
void ds_derive_bursts(struct dataset *ds, size_t ri)
{
	const struct ds_alloc *a = ds->allocs;

	for (size_t i = 0, j; i < ds->nallocs; i = j) {
		long long first = a[i].start_ns, last = a[i].start_ns + a[i].user_ns;
		size_t failed = !a[i].success, late = a[i].timed_out;
		struct ds_burst *b;

		for (j = i + 1; j < ds->nallocs && a[j].run == a[i].run && a[j].burst == a[i].burst &&
				!strcmp(a[j].tag, a[i].tag);
		     j++) {
			if (a[j].start_ns < first)
				first = a[j].start_ns;
			if (a[j].start_ns + a[j].user_ns > last)
				last = a[j].start_ns + a[j].user_ns;
			failed += !a[j].success;
			late += a[j].timed_out;
		}
		if (a[i].run != ri || a[i].tag[0] || a[i].burst == DS_NONE || a[i].start_ns == DS_NONE ||
		    j - i < 2)
			continue;
		b = ds_grow(&ds->bursts, &ds->nbursts, &ds->cap_bursts, sizeof(*b));
		b->run = ri;
		b->burst = a[i].burst;
		b->pages = a[i].pages;
		b->n = j - i;
		b->failed = failed;
		b->timed_out = late;
		b->start_ns = first;
		b->latency_ns = last - first;
		b->occupancy = a[i].occupancy;
	}
}

void dataset_derive_bursts(struct dataset *ds)
{
	ds->nbursts = 0;
	for (size_t i = 0; i < ds->nruns; i++)
		ds_derive_bursts(ds, i);
}

/* fill-keeper.csv (newer runs): what keeping the area full cost after the fill. */
static void read_keeper(struct dataset *ds, struct ds_run *r)
{
	static const char *const cols[] = { "keep_seconds", "read_mb", "reading_seconds" };
	struct csv c;
	int col[3];
	bool missing;

	r->keep_seconds = r->keep_read_mb = r->keep_reading_seconds = NAN;
	if (!ds_open_csv(&c, ds, r, "fill-keeper.csv", cols, 3, col, &missing))
		return;
	if (!csv_next(&c) || !csv_double(&c, col[0], &r->keep_seconds) ||
	    !csv_double(&c, col[1], &r->keep_read_mb) ||
	    !csv_double(&c, col[2], &r->keep_reading_seconds))
		ds_problem(r, "fill-keeper.csv", "line %zu: not keep_seconds,read_mb,reading_seconds",
			   c.lineno);
	csv_close(&c);
}

/* fill.csv: area,target_pct,reached_pct,seconds,status[,anon_mb] (area-fill in the guest). */
void ds_read_fill(struct dataset *ds, size_t ri)
{
	static const char *const cols[] = { "target_pct", "reached_pct", "seconds", "status" };
	struct ds_run *r = &ds->runs[ri];
	struct csv c;
	int col[4];
	bool missing;

	r->fill_target = r->fill_reached = r->fill_seconds = r->fill_anon_mb = NAN;
	if (!ds_open_csv(&c, ds, r, "fill.csv", cols, 4, col, &missing)) {
		if (missing && r->fill_planned && ds_run_ok(r))
			ds_problem(r, "fill.csv", "missing: the run planned a fill");
		return;
	}
	if (!csv_next(&c) || !csv_double(&c, col[0], &r->fill_target) ||
	    !csv_double(&c, col[1], &r->fill_reached) || !csv_double(&c, col[2], &r->fill_seconds) ||
	    !csv_field(&c, col[3]))
		ds_problem(r, "fill.csv", "line %zu: not target_pct,reached_pct,seconds,status",
			   c.lineno);
	else {
		/* anon_mb: newer runs only */
		int a = csv_col(&c, "anon_mb");

		r->fill_status = xstrdup(csv_field(&c, col[3]));
		if (a < 0 || !csv_double(&c, a, &r->fill_anon_mb))
			r->fill_anon_mb = NAN;
	}
	csv_close(&c);
	read_keeper(ds, r);
}

void ds_path_init(struct ds_path *p)
{
	*p = (struct ds_path){ .lo = 99, .hi = -1, .klo = 99, .khi = -1 };
}

void ds_path_add(struct ds_path *p, const struct ds_alloc *a)
{
	size_t k = 0;

	p->n++;
	while (k < p->npaths && strcmp(p->paths[k], a->path))
		k++;
	if (k == p->npaths && k < ARRAY_SIZE(p->paths))
		p->paths[p->npaths++] = a->path;
	if (a->align >= 0) {
		p->lo = a->align < p->lo ? a->align : p->lo;
		p->hi = a->align > p->hi ? a->align : p->hi;
	}
	if (a->kalign != DS_NONE) {
		p->klo = a->kalign < p->klo ? (int)a->kalign : p->klo;
		p->khi = a->kalign > p->khi ? (int)a->kalign : p->khi;
	}
	p->fallbacks += a->from_area == 0;
}

void ds_path_add_run(struct ds_path *p, const struct dataset *ds, size_t run)
{
	for (size_t i = 0; i < ds->nallocs; i++)
		if (ds->allocs[i].run == run && !ds->allocs[i].tag[0])
			ds_path_add(p, &ds->allocs[i]);
}

char *ds_path_text(const struct ds_path *p)
{
	/* what cma_alloc() saw, where the trace says it */
	int lo = p->khi >= 0 ? p->klo : p->lo, hi = p->khi >= 0 ? p->khi : p->hi;
	struct strbuf sb;

	if (!p->n)
		return xstrdup("-");
	sb_init(&sb);
	for (size_t k = 0; k < p->npaths; k++)
		sb_addf(&sb, "%s%s", k ? k + 1 == p->npaths ? " and " : ", " : "", p->paths[k]);
	if (hi >= 0 && lo == hi)
		sb_addf(&sb, ", align %d", lo);
	else if (hi >= 0)
		sb_addf(&sb, ", align %d-%d", lo, hi);
	/* a kernel that aligns otherwise than asked (a patch of one's own) says so */
	if (p->khi >= 0 && p->hi >= 0 && (p->klo != p->lo || p->khi != p->hi)) {
		if (p->lo == p->hi)
			sb_addf(&sb, " (asked %d)", p->lo);
		else
			sb_addf(&sb, " (asked %d-%d)", p->lo, p->hi);
	}
	if (p->fallbacks)
		sb_addf(&sb, ", %zu from the buddy allocator", p->fallbacks);
	return sb_detach(&sb);
}
