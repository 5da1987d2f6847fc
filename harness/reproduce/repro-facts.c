/*
 * What the allocators had to do in a figure's runs (area_facts): the
 * area's occupancy the requests met, the pages each CMA request migrated
 * and its busy retries. Every sentence covers every ok run of its set-up,
 * or names the runs it leaves out and why; a run whose trace lost part of
 * its requests gives a bound, named, not a silent gap.
 */
#include "reproduce/repro-common.h"

#include <stdio.h>

/* The per-run values of one sentence, and the runs without one. */
struct facts {
	double *v;
	size_t n, runs;             /* values; ok runs of the section */
	struct strbuf left;         /* "`cma-r3`, `cma-r4`": runs without a value */
};

static void facts_free(struct facts *f)
{
	free(f->v);
	sb_free(&f->left);
}

/* fn's value per ok run of the section; the runs it gives NAN for are named in left. */
static void facts_of(struct facts *f, const struct picks *ps, const char *section,
		     double (*fn)(const struct pick *k, const void *arg), const void *arg)
{
	memset(f, 0, sizeof(*f));
	f->v = xcalloc(ps->n + 1, sizeof(*f->v));
	sb_init(&f->left);
	for (size_t i = 0; i < ps->n; i++) {
		double x;

		if (!pick_ok(&ps->v[i], section))
			continue;
		f->runs++;
		x = fn(&ps->v[i], arg);
		if (!isnan(x))
			f->v[f->n++] = x;
		else
			sb_addf(&f->left, "%s`%s`", f->left.len ? ", " : "", prun(&ps->v[i])->name);
	}
}

/* "; 3 of 5 runs, none in `cma-r1`, `cma-r2`" when some run has no value. */
static void facts_cover(struct strbuf *md, const struct facts *f, const char *none)
{
	if (f->n < f->runs)
		sb_addf(md, "; %zu of %zu runs, %s in %s", f->n, f->runs, none, f->left.buf);
}

/*
 * The area's occupancy the run's first (arg 0) or last (arg 1) planned
 * request met: the guest's own reading in alloc.csv, the data set's one
 * definition; NAN in results made before it was recorded.
 */
static double occupancy_met(const struct pick *k, const void *arg)
{
	const struct dataset *ds = &k->set->ds;
	double v = NAN;

	for (size_t i = 0; i < ds->nallocs; i++) {
		const struct ds_alloc *a = &ds->allocs[i];

		if (a->run != k->run || a->tag[0] || isnan(a->occupancy))
			continue;
		v = a->occupancy;
		if (!*(const int *)arg)
			break;
	}
	return v;
}

/* A vmstat counter's change over the run per planned request. */
static double per_request(const struct pick *k, const void *arg)
{
	const struct dataset *ds = &k->set->ds;
	size_t n = 0;
	long long d;

	for (size_t i = 0; i < ds->nallocs; i++)
		n += ds->allocs[i].run == k->run && !ds->allocs[i].tag[0];
	if (!n || !ds_counter_delta(ds, k->run, "vmstat", arg, &d, NULL))
		return NAN;
	return (double)d / n;
}

/*
 * A run's busy retries: their sum over its traced requests of pages pages
 * (every size when pages < 0), how many were and were not traced.
 */
static void run_retries(const struct pick *k, long long pages, double *sum, size_t *traced,
			size_t *untraced)
{
	const struct dataset *ds = &k->set->ds;

	*sum = 0;
	*traced = *untraced = 0;
	for (size_t i = 0; i < ds->nallocs; i++) {
		const struct ds_alloc *a = &ds->allocs[i];

		if (a->run != k->run || a->tag[0] || (pages >= 0 && a->pages != pages))
			continue;
		/* an untraced request's retries are unknown, not 0 */
		if (a->retries == DS_NONE) {
			(*untraced)++;
			continue;
		}
		*sum += (double)a->retries;
		(*traced)++;
	}
}

/*
 * Busy retries per request of a run traced whole, at *arg pages (every
 * size: -1); NAN when some of those requests went untraced.
 */
static double retries_whole(const struct pick *k, const void *arg)
{
	double sum;
	size_t traced, untraced;

	run_retries(k, *(const long long *)arg, &sum, &traced, &untraced);
	return traced && !untraced ? sum / traced : NAN;
}

/*
 * The runs whose trace lost some requests' retries, each with its bound:
 * the retries it did record over all its requests (the lost ones counted
 * as 0), named, since those are the runs that retried most; then the runs
 * with none traced.
 */
static void retries_partial(struct strbuf *md, const struct picks *ps, const char *section)
{
	struct strbuf none;
	size_t k = 0;

	sb_init(&none);
	for (size_t i = 0; i < ps->n; i++) {
		double sum;
		size_t traced, untraced;

		if (!pick_ok(&ps->v[i], section))
			continue;
		run_retries(&ps->v[i], -1, &sum, &traced, &untraced);
		if (!traced)
			sb_addf(&none, "%s`%s`", none.len ? ", " : "", prun(&ps->v[i])->name);
		else if (untraced)
			sb_addf(md, "%s%s per request in `%s`, whose trace lost the retries of %zu "
				"of its %zu requests (counted as 0)", k++ ? ", at least " : "; at least ",
				repro_num(sum / (traced + untraced)), prun(&ps->v[i])->name, untraced,
				traced + untraced);
	}
	if (none.len)
		sb_addf(md, "; busy retries n/a in %s (no request traced)", none.buf);
	sb_free(&none);
}

/*
 * Busy retries depend on the size (a page that will not migrate costs one
 * retry per start position whose range covers it): per size, the median
 * over the runs traced whole at that size and their range, and the runs
 * left out at that size (their trace lost some of its requests).
 */
static void retries_by_size(struct strbuf *md, const struct picks *ps, const char *section)
{
	long long *sizes = NULL;
	struct strbuf by;
	bool any = false;
	size_t n = 0, ns = 0;

	for (size_t i = 0; i < ps->n; i++) {
		const struct dataset *ds = &ps->v[i].set->ds;

		if (!pick_ok(&ps->v[i], section))
			continue;
		for (size_t a = 0; a < ds->nallocs; a++)
			if (ds->allocs[a].run == ps->v[i].run && !ds->allocs[a].tag[0]) {
				sizes = xrealloc(sizes, (n + 1) * sizeof(*sizes));
				sizes[n++] = ds->allocs[a].pages;
			}
	}
	/* distinct, ascending, as the tables */
	ns = sort_unique_ll(sizes, n);
	if (ns < 2) {
		free(sizes);
		return;
	}
	sb_init(&by);
	for (size_t j = 0; j < ns; j++) {
		struct facts f;

		facts_of(&f, ps, section, retries_whole, &sizes[j]);
		sb_addf(&by, "%s %lld page%s ", j ? "," : "", sizes[j], sizes[j] == 1 ? "" : "s");
		if (f.n) {
			sb_addf(&by, "%s (%s)", repro_num(over_reps(f.v, f.n).med),
				repro_range(over_reps(f.v, f.n)));
			any = true;
		} else {
			sb_add(&by, "n/a");
		}
		if (f.n && f.n < f.runs)
			sb_addf(&by, " without %s", f.left.buf);
		facts_free(&f);
	}
	/* nothing traced at any size: retries_partial already said n/a */
	if (any)
		sb_addf(md, "; by size, busy retries per request (median over the runs traced whole "
			"at that size, their range):%s", by.buf);
	sb_free(&by);
	free(sizes);
}

/* "each CMA request migrated ... after ... busy retries": every run of the section. */
static void cma_work(struct strbuf *md, const struct picks *ps, const char *cma)
{
	static const long long every = -1;
	struct facts mig, rt;

	facts_of(&mig, ps, cma, per_request, "pgmigrate_success");
	facts_of(&rt, ps, cma, retries_whole, &every);
	if (mig.n) {
		sb_addf(md, "; each CMA request migrated a median of %s pages (runs %s; vmstat "
			"`pgmigrate_success` over the run / requests",
			repro_num(over_reps(mig.v, mig.n).med), repro_range(over_reps(mig.v, mig.n)));
		facts_cover(md, &mig, "no vmstat snapshot");
		sb_add(md, ")");
	} else if (mig.runs) {
		sb_addf(md, "; pages migrated n/a in %s (no request, or no vmstat snapshot)",
			mig.left.buf);
	}
	if (rt.n) {
		struct over o = over_reps(rt.v, rt.n);

		sb_addf(md, "%s after a median of %s busy retries per request (runs %s; %zu of %zu "
			"runs traced whole)", mig.n ? "," : "; each CMA request came", repro_num(o.med),
			repro_range(o), rt.n, rt.runs);
	}
	if (rt.n < rt.runs)
		retries_partial(md, ps, cma);
	if (rt.runs)
		retries_by_size(md, ps, cma);
	/* retries_partial names every run that is not traced whole */
	facts_free(&mig);
	facts_free(&rt);
}

void area_facts(struct strbuf *md, const struct picks *ps, const char *cma, const char *gcma)
{
	int first = 0, last = 1;
	struct facts c0, g0, g1;

	facts_of(&c0, ps, cma, occupancy_met, &first);
	facts_of(&g0, ps, gcma, occupancy_met, &first);
	facts_of(&g1, ps, gcma, occupancy_met, &last);
	if (c0.n) {
		sb_addf(md, "In our runs, CMA's first request met its area %s%% full of movable "
			"pages (median of %zu runs, `area_occupancy_pct` of alloc.csv", repro_num(
			over_reps(c0.v, c0.n).med), c0.n);
		facts_cover(md, &c0, "no reading");
		sb_add(md, ")");
		/* the runs' range beside the median: a few runs in the slow regime
		 * (thousands of failed migrations) hide behind a median of runs */
		cma_work(md, ps, cma);
		sb_add(md, ". ");
	} else if (c0.runs) {
		/* no occupancy recorded: the migrations and retries still said */
		sb_add(md, "In our runs, CMA's area occupancy was not recorded (no "
		       "`area_occupancy_pct` in alloc.csv)");
		cma_work(md, ps, cma);
		sb_add(md, ". ");
	}
	if (g0.n) {
		sb_addf(md, "GCMA's first request met its area %s%% full of cached pages and its last "
			"%s%% (median of %zu runs", repro_num(over_reps(g0.v, g0.n).med),
			g1.n ? repro_num(over_reps(g1.v, g1.n).med) : "n/a", g0.n);
		facts_cover(md, &g0, "no reading");
		if (g1.n && g1.n < g1.runs)
			facts_cover(md, &g1, "no last reading");
		sb_add(md, "). ");
	}
	if ((c0.n && over_reps(c0.v, c0.n).med < 50) || (g0.n && over_reps(g0.v, g0.n).med < 50))
		sb_add(md, "An area less than half full is an idle one: such runs measure the set-up, "
		       "not what the allocators pay when they must take their areas back. ");
	facts_free(&c0);
	facts_free(&g0);
	facts_free(&g1);
}
