/*
 * What the parts of the report share (report-internal.h): containers of
 * per-run values, the tested and spread rows, a column's runs, request
 * sizes and latencies. Every part of the report calls these; they call no
 * part back (tests/test-calls.sh).
 */
#include "report/report-internal.h"

/* ---- small containers ---------------------------------------------------- */

void dv_add(struct dvec *d, double x)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 64;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	d->v[d->n++] = x;
}

void dv_free(struct dvec *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

double dv_mean(const struct dvec *d)
{
	double s = 0;

	if (!d->n)
		return NAN;
	for (size_t i = 0; i < d->n; i++)
		s += d->v[i];
	return s / d->n;
}

double dv_median(const struct dvec *d)
{
	struct summary s;

	stats_summary(d->v, d->n, &s);
	return s.p50;
}

void dv_range(const struct dvec *d, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < d->n; i++) {
		*lo = d->v[i] < *lo ? d->v[i] : *lo;
		*hi = d->v[i] > *hi ? d->v[i] : *hi;
	}
}

/* ---- runs ---------------------------------------------------------------- */

/* A column's runs: its section's runs that ended ok, or early with the rows
 * they completed (partial: a slow allocator's worst run stays in), and
 * reached their fill. */
bool col_run(const struct report_col *c, size_t run)
{
	const struct ds_run *r = &c->ds->runs[run];

	return ds_run_counts(r) && !ds_run_not_filled(r) && !strcmp(r->section, c->section);
}

/* Keeps a keyed row's per-run values of every column for the primaries. */
static void keep_endpoint(struct tables *ts, struct table *t, const char *key,
			  const struct dvec *pr)
{
	for (size_t c = 0; c < t->ncols; c++) {
		struct endpoint *e;

		if (!pr[c].n)
			continue;
		ts->ep = xrealloc(ts->ep, (ts->nep + 1) * sizeof(*ts->ep));
		e = &ts->ep[ts->nep++];
		e->key = xstrdup(key);
		e->col = t->cols[c].label;
		e->n = pr[c].n;
		e->lower = false;
		e->v = xmalloc(e->n * sizeof(*e->v));
		memcpy(e->v, pr[c].v, e->n * sizeof(*e->v));
	}
}

/*
 * A tested row: pr[c] holds column c's per-run values; the row shows
 * their median (agg_mean: their mean), and each column is tested against
 * the baseline on them, except where both hold one and the same value.
 * key names the row as an endpoint a scenario may declare primary
 * ("kernel-mean@1024"), or is NULL.
 */
void tested_row(struct tables *ts, struct table *t, const char *label,
		       const char *better, int prec, const struct dvec *pr, bool agg_mean,
		       const char *key)
{
	double *v = xcalloc(t->ncols, sizeof(*v));
	struct trow *r;
	bool any = false;

	for (size_t c = 0; c < t->ncols; c++) {
		v[c] = agg_mean ? dv_mean(&pr[c]) : dv_median(&pr[c]);
		any |= pr[c].n > 0;
	}
	if (!any) {
		free(v);
		return;
	}
	if (key)
		keep_endpoint(ts, t, key, pr);
	r = table_values(t, label, better, prec, v);
	for (size_t c = 1; c < t->ncols; c++) {
		struct mann_whitney mw;
		double alo, ahi, blo, bhi;

		if (!pr[0].n || !pr[c].n || stats_one_value(pr[0].v, pr[0].n, pr[c].v, pr[c].n))
			continue;
		stats_mann_whitney(pr[0].v, pr[0].n, pr[c].v, pr[c].n, &mw);
		dv_range(&pr[0], &alo, &ahi);
		dv_range(&pr[c], &blo, &bhi);
		/* Ranges one inside the other overlap entirely: never a mark. */
		r->cells[c].test = tests_add(&ts->tests, mw.p,
					     !((alo <= blo && bhi <= ahi) || (blo <= alo && ahi <= bhi)));
		if (key) {
			struct cellref *ref;

			ts->refs = xrealloc(ts->refs, (ts->nrefs + 1) * sizeof(*ts->refs));
			ref = &ts->refs[ts->nrefs++];
			ref->key = xstrdup(key);
			ref->table = (size_t)(t - ts->v);
			ref->row = t->nrows - 1;
			ref->col = c;
		}
	}
	free(v);
}

/* "lo–hi" of per-run values (the spread behind a median), or "-". */
void spread_row(struct table *t, const char *label, const struct dvec *pr, int prec)
{
	struct trow *r = table_text(t, label);

	for (size_t c = 0; c < t->ncols; c++) {
		double lo, hi;

		if (!pr[c].n)
			continue;
		dv_range(&pr[c], &lo, &hi);
		table_set(r, c, xasprintf("%.*f-%.*f", prec, lo, prec, hi));
	}
}

struct dvec *dvecs(size_t n)
{
	return xcalloc(n, sizeof(struct dvec));
}

void dvecs_free(struct dvec *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dv_free(&d[i]);
	free(d);
}

/* ---- allocations ------------------------------------------------------------ */

/* A request's latency on a side in us, NAN where that side was not measured. */
double lat_us(const struct ds_alloc *a, enum lat_side side)
{
	long long v = side == USER ? a->user_ns : a->kernel_ns;

	return v == DS_NONE ? NAN : v / 1000.0;
}

/* Request sizes of allocations tagged tag ("": the plan's) in any column, ascending. */
size_t all_sizes(const struct report_col *cols, size_t ncols, const char *tag,
			long long **out)
{
	long long *v = NULL;
	size_t n = 0;

	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].ds->nallocs; i++) {
			const struct ds_alloc *a = &cols[c].ds->allocs[i];
			bool seen = false;

			if (!col_run(&cols[c], a->run) || strcmp(a->tag, tag))
				continue;
			for (size_t k = 0; k < n && !seen; k++)
				seen = v[k] == a->pages;
			if (!seen) {
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n++] = a->pages;
			}
		}
	if (n)
		qsort(v, n, sizeof(*v), cmp_ll);
	*out = v;
	return n;
}

/* Per-run statistics of one size on one side, for every ok run of a column. */

/* Every burst (dataset.h defines them) of a column's ok runs that met the
 * fill, in us; failed ones too. */
void burst_samples(const struct report_col *c, struct dvec *out, size_t *failed)
{
	for (size_t i = 0; i < c->ds->nbursts; i++) {
		const struct ds_burst *b = &c->ds->bursts[i];

		if (!col_run(c, b->run) || !ds_burst_met(c->ds, b))
			continue;
		dv_add(out, b->latency_ns / 1000.0);
		*failed += b->failed > 0;
	}
}
