/*
 * Comparison tables (see report.h). The run (one VM) is the unit of
 * replication: every tested statistic is computed per run first (a run's
 * median, p99, mean, success rate, throughput, counter delta) and the
 * columns are compared on those per-run values (Mann-Whitney U), each
 * statistic with its own test; the false-discovery rate over all tests of
 * a report is controlled with Benjamini-Hochberg (report-table.c). Failed
 * allocations stay in: latency statistics are over every request, with
 * the success rate beside them. Only runs that ended "ok" count; the
 * others are named, never averaged in.
 */
#include "report/report-internal.h"
#include "report/survival.h"

#include <errno.h>

struct lat_runs {
	struct dvec p50, p99, mean, ok, retries;
	size_t requests, failed;
	size_t partial;             /* kernel side: runs left out, not every request traced */
	size_t below;               /* requests that met less than their run's fill, left out */
	size_t after;               /* requests that began after the job they were to overlap */
	double max;
};

/* A run's p99 needs this many requests to be more than its maximum. */
#define P99_MIN_REQUESTS 100

static void lat_runs(const struct report_col *c, const char *tag, long long pages,
		     enum lat_side side, struct lat_runs *o)
{
	memset(o, 0, sizeof(*o));
	o->max = NAN;
	for (size_t run = 0; run < c->ds->nruns; run++) {
		struct dvec v = { 0 }, rt = { 0 };
		size_t ok = 0, untraced = 0, rt_unknown = 0;
		struct summary s;

		if (!col_run(c, run))
			continue;
		for (size_t i = 0; i < c->ds->nallocs; i++) {
			const struct ds_alloc *a = &c->ds->allocs[i];
			double x = lat_us(a, side);

			if (a->run != run || a->pages != pages || strcmp(a->tag, tag))
				continue;
			if (!ds_alloc_met(c->ds, a)) {
				if (ds_alloc_after_job(c->ds, a))
					o->after++;
				else
					o->below++;
				continue;
			}
			if (isnan(x)) {
				untraced++;
				continue;
			}
			dv_add(&v, x);
			ok += a->success;
			if (a->retries != DS_NONE)
				dv_add(&rt, (double)a->retries);
			else
				rt_unknown++;
		}
		/* A kernel-side cell rests on the same requests as its user-side twin,
		 * or the run stays out of it. */
		if (side == KERNEL && (untraced || c->ds->runs[run].trace_lost) && v.n) {
			o->partial++;
			v.n = 0;
		}
		if (v.n) {
			stats_summary(v.v, v.n, &s);
			dv_add(&o->p50, s.p50);
			dv_add(&o->mean, s.mean);
			if (v.n >= P99_MIN_REQUESTS)
				dv_add(&o->p99, s.p99);
			dv_add(&o->ok, 100.0 * ok / v.n);
			o->requests += v.n;
			o->failed += v.n - ok;
			o->max = isnan(o->max) || s.max > o->max ? s.max : o->max;
		}
		/* a mean of the requests whose retries are known would leave out
		 * the ones that filled the detail buffer: all, or the run stays out */
		if (rt.n && !rt_unknown)
			dv_add(&o->retries, dv_mean(&rt));
		dv_free(&v);
		dv_free(&rt);
	}
}

/* "5 runs, 200 requests (3 failed)" per column. */
static void count_row(struct table *t, const char *what, const size_t *runs, const size_t *items,
		      const size_t *failed)
{
	struct trow *r = table_text(t, "runs: requests");

	free(r->label);
	r->label = xasprintf("runs: %s", what);
	for (size_t c = 0; c < t->ncols; c++)
		if (runs[c])
			table_set(r, c, failed[c] ? xasprintf("%zu: %zu (%zu failed)", runs[c], items[c],
							      failed[c])
						  : xasprintf("%zu: %zu", runs[c], items[c]));
}

/* How many of each column's requests (or bursts) missed their run's
 * condition, for one reason (why: "below the fill", "after the job ended"):
 * named, and left out of every row above (ds_alloc_met). */
static void missed_row(struct table *t, const char *what, const char *why, const size_t *below,
		       size_t ncols)
{
	char *label = xasprintf("%s %s, left out", what, why);
	struct trow *r = table_text(t, label);

	free(label);
	for (size_t c = 0; c < ncols; c++)
		table_set(r, c, xasprintf("%zu", below[c]));
}

/* The figures of a size and side (plots/latency-cdf.gp, latency-hist.gp). */
static void latency_figures(struct table *t, const char *side, long long pages)
{
	char *cap = xasprintf("%s-side latency CDF, %lld pages", side, pages);
	char *name = xasprintf("latency-cdf-%s-%lld", side, pages);

	table_figure(t, cap, name);
	free(cap);
	free(name);
	cap = xasprintf("%s-side latency histogram, %lld pages", side, pages);
	name = xasprintf("latency-hist-%s-%lld", side, pages);
	table_figure(t, cap, name);
	free(cap);
	free(name);
}

/*
 * A script's table names its file and how its requests asked (alloc-path,
 * the alignment cma_alloc() saw): a script may try every path in one run.
 */
static char *script_title(const struct report_col *cols, size_t ncols, const char *tag,
			  long long pages, const char *which)
{
	struct ds_path p;
	char *how, *title;

	ds_path_init(&p);
	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].ds->nallocs; i++) {
			const struct ds_alloc *a = &cols[c].ds->allocs[i];

			if (col_run(&cols[c], a->run) && a->pages == pages && !strcmp(a->tag, tag))
				ds_path_add(&p, a);
		}
	how = ds_path_text(&p);
	title = xasprintf("the script's allocations alloc-%s.csv, %lld pages (%s), user-side "
			  "(us; %s, failed ones too)", tag, pages, how, which);
	free(how);
	return title;
}

static void latency_table(struct tables *ts, const struct report_col *cols, size_t ncols,
			  const char *tag, long long pages, enum lat_side side)
{
	struct lat_runs *lr = xcalloc(ncols, sizeof(*lr));
	struct dvec *p50 = dvecs(ncols), *p99 = dvecs(ncols), *mean = dvecs(ncols);
	struct dvec *ok = dvecs(ncols), *rt = dvecs(ncols);
	size_t *runs = xcalloc(ncols, sizeof(size_t)), *reqs = xcalloc(ncols, sizeof(size_t));
	size_t *failed = xcalloc(ncols, sizeof(size_t)), any = 0, partial = 0, below = 0, after = 0;
	double *max = xcalloc(ncols, sizeof(double));
	const char *which;
	char *title;
	struct table *t;

	for (size_t c = 0; c < ncols; c++) {
		lat_runs(&cols[c], tag, pages, side, &lr[c]);
		below += lr[c].below;
		after += lr[c].after;
	}
	which = below && after ? "every request that met the fill while the job ran"
		: below	       ? "every request that met the fill"
		: after	       ? "every request made while the job ran"
			       : "every request";
	title = *tag ? script_title(cols, ncols, tag, pages, which)
		     : xasprintf("allocation latency, %lld pages, %s (us; %s, failed ones too)",
				 pages, side == USER ? "user-side"
						     : "kernel-side (cma_alloc_start..finish)", which);
	t = tables_add(ts, cols, ncols, title);
	free(title);
	for (size_t c = 0; c < ncols; c++) {
		/* the vectors move into the row helpers' shape */
		p50[c] = lr[c].p50;
		p99[c] = lr[c].p99;
		mean[c] = lr[c].mean;
		ok[c] = lr[c].ok;
		rt[c] = lr[c].retries;
		runs[c] = lr[c].p50.n;
		reqs[c] = lr[c].requests;
		failed[c] = lr[c].failed;
		max[c] = lr[c].max;
		any += reqs[c];
		partial += lr[c].partial;
	}
	if (any) {
		/* the plan's allocations are endpoints ("kernel-p50@1024"), a script's not */
		const char *sd = side == USER ? "user" : "kernel";
		char *k_ok = *tag ? NULL : xasprintf("%s-success@%lld", sd, pages);
		char *k_p50 = *tag ? NULL : xasprintf("%s-p50@%lld", sd, pages);
		char *k_p99 = *tag ? NULL : xasprintf("%s-p99@%lld", sd, pages);
		char *k_mean = *tag ? NULL : xasprintf("%s-mean@%lld", sd, pages);
		char *k_rt = *tag ? NULL : xasprintf("%s-retries@%lld", sd, pages);

		count_row(t, "requests", runs, reqs, failed);
		tested_row(ts, t, "success % (mean of runs)", "higher", 1, ok, true, k_ok);
		spread_row(t, "run success %", ok, 0);
		tested_row(ts, t, "p50 (median of run p50s)", "lower", 2, p50, false, k_p50);
		spread_row(t, "run p50s", p50, 0);
		tested_row(ts, t, "p99 (median of run p99s, runs of >= 100)", "lower", 2, p99, false,
			   k_p99);
		tested_row(ts, t, "mean (mean of run means)", "lower", 2, mean, true, k_mean);
		table_values(t, "max (any request)", "lower", 2, max);
		if (side == KERNEL)
			tested_row(ts, t, "busy retries/request (mean of runs)", "lower", 2, rt, true,
				   k_rt);
		censored_latency_rows(ts, t, cols, ncols, tag, pages, side, k_p50, k_p99, k_mean);
		free(k_ok);
		free(k_p50);
		free(k_p99);
		free(k_mean);
		free(k_rt);
		if (!*tag)
			latency_figures(t, sd, pages);
		if (partial) {
			struct trow *r = table_text(t, "runs left out: not every request traced, or events lost");

			for (size_t c = 0; c < ncols; c++)
				table_set(r, c, xasprintf("%zu", lr[c].partial));
		}
	}
	if (below || after) {
		size_t *nb = xcalloc(ncols, sizeof(*nb)), *na = xcalloc(ncols, sizeof(*na));

		for (size_t c = 0; c < ncols; c++) {
			nb[c] = lr[c].below;
			na[c] = lr[c].after;
		}
		if (below)
			missed_row(t, "requests", "below the fill", nb, ncols);
		if (after)
			missed_row(t, "requests", "after the job ended", na, ncols);
		free(nb);
		free(na);
	}
	tables_drop_empty(ts);
	dvecs_free(p50, ncols);
	dvecs_free(p99, ncols);
	dvecs_free(mean, ncols);
	dvecs_free(ok, ncols);
	dvecs_free(rt, ncols);
	free(lr);
	free(runs);
	free(reqs);
	free(failed);
	free(max);
}

static void burst_table(struct tables *ts, const struct report_col *cols, size_t ncols)
{
	struct dvec *p50 = dvecs(ncols), *ok = dvecs(ncols);
	size_t *runs = xcalloc(ncols, sizeof(size_t)), *n = xcalloc(ncols, sizeof(size_t));
	size_t *failed = xcalloc(ncols, sizeof(size_t)), any = 0;
	size_t *below = xcalloc(ncols, sizeof(size_t)), nbelow = 0;
	size_t *after = xcalloc(ncols, sizeof(size_t)), nafter = 0;
	struct table *t;

	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].ds->nbursts; i++) {
			const struct ds_burst *b = &cols[c].ds->bursts[i];

			if (!col_run(&cols[c], b->run) || ds_burst_met(cols[c].ds, b))
				continue;
			if (ds_burst_after_job(cols[c].ds, b)) {
				after[c]++;
				nafter++;
			} else {
				below[c]++;
				nbelow++;
			}
		}
	t = tables_add(ts, cols, ncols,
		       nafter ? "burst latency, first request's start to last request's end (us; "
				"bursts that met their condition, failed ones too)"
		       : nbelow ? "burst latency, first request's start to last request's end (us; "
				  "bursts that met the fill, failed ones too)"
				: "burst latency, first request's start to last request's end (us; "
				  "failed bursts too)");

	for (size_t c = 0; c < ncols; c++)
		for (size_t run = 0; run < cols[c].ds->nruns; run++) {
			struct dvec d = { 0 };
			size_t f = 0;

			if (!col_run(&cols[c], run))
				continue;
			for (size_t i = 0; i < cols[c].ds->nbursts; i++) {
				const struct ds_burst *b = &cols[c].ds->bursts[i];

				if (b->run == run && ds_burst_met(cols[c].ds, b)) {
					dv_add(&d, b->latency_ns / 1000.0);
					f += b->failed > 0;
				}
			}
			if (d.n) {
				dv_add(&p50[c], dv_median(&d));
				dv_add(&ok[c], 100.0 * (d.n - f) / d.n);
				runs[c]++;
				n[c] += d.n;
				failed[c] += f;
				any += d.n;
			}
			dv_free(&d);
		}
	if (any) {
		table_figure(t, "burst latency CDF", "burst-cdf");
		count_row(t, "bursts", runs, n, failed);
		tested_row(ts, t, "bursts without a failure % (mean of runs)", "higher", 1, ok, true,
			   "burst-ok");
		tested_row(ts, t, "p50 (median of run p50s)", "lower", 2, p50, false, "burst-p50");
		spread_row(t, "run p50s", p50, 0);
		censored_burst_rows(t, cols, ncols);
	}
	if (nbelow)
		missed_row(t, "bursts", "below the fill", below, ncols);
	if (nafter)
		missed_row(t, "bursts", "after the job ended", after, ncols);
	tables_drop_empty(ts);
	dvecs_free(p50, ncols);
	dvecs_free(ok, ncols);
	free(below);
	free(after);
	free(runs);
	free(n);
	free(failed);
}

/* The tags of a script's alloc-TAG.csv files in any column. */
static void all_tags(const struct report_col *cols, size_t ncols, struct strlist *out)
{
	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].ds->nallocs; i++) {
			const struct ds_alloc *a = &cols[c].ds->allocs[i];

			if (a->tag[0] && col_run(&cols[c], a->run) && !sl_has(out, a->tag))
				sl_add(out, a->tag);
		}
}

/*
 * A script's cleancache counters at its phases (cleancache-PHASE/), for the
 * first ok run of each column. The phases are put in the order of their
 * stores, then hits: both only grow, so that is the order they were taken.
 */
static void phase_table(struct tables *ts, const struct report_col *cols, size_t ncols)
{
	static const char *const names[] = { "stores", "hits", "cached_pages", "pool_pages" };
	struct strlist phases = { 0 };
	struct table *t = tables_add(ts, cols, ncols,
				     "the script's cleancache counters at its phases (first run)");

	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].ds->ncounters; i++) {
			const struct ds_counter *k = &cols[c].ds->counters[i];

			if (!strncmp(k->source, "cleancache@", 11) && col_run(&cols[c], k->run) &&
			    !sl_has(&phases, k->source + 11))
				sl_add(&phases, k->source + 11);
		}
	for (size_t c = 0; c < ncols && phases.n; c++) {
		const struct dataset *ds = cols[c].ds;
		long long *key = xcalloc(phases.n * 2, sizeof(*key));
		size_t run = ds->nruns, *order = xcalloc(phases.n, sizeof(*order));

		for (size_t r = 0; r < ds->nruns && run == ds->nruns; r++)
			if (col_run(&cols[c], r))
				run = r;
		if (run == ds->nruns) {
			free(key);
			free(order);
			continue;
		}
		for (size_t p = 0; p < phases.n; p++) {
			char *src = xasprintf("cleancache@%s", phases.v[p]);

			for (int k = 0; k < 2; k++)
				if (!ds_counter_delta(ds, run, src, names[k], NULL, &key[2 * p + k]))
					key[2 * p + k] = -1;
			free(src);
			order[p] = p;
		}
		for (size_t i = 1; i < phases.n; i++)
			for (size_t j = i; j > 0 && (key[2 * order[j - 1]] > key[2 * order[j]] ||
						     (key[2 * order[j - 1]] == key[2 * order[j]] &&
						      key[2 * order[j - 1] + 1] > key[2 * order[j] + 1]));
			     j--) {
				size_t x = order[j];

				order[j] = order[j - 1];
				order[j - 1] = x;
			}
		for (size_t i = 0; i < phases.n; i++) {
			char *src = xasprintf("cleancache@%s", phases.v[order[i]]);
			struct strbuf cell;
			struct trow *row = NULL;

			for (size_t k = 0; k < t->nrows && !row; k++)
				if (!strcmp(t->rows[k].label, phases.v[order[i]]))
					row = &t->rows[k];
			if (!row) {
				char *label = xasprintf("%s", phases.v[order[i]]);

				row = table_text(t, label);
				free(label);
			}
			sb_init(&cell);
			for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
				long long v;

				if (ds_counter_delta(ds, run, src, names[k], NULL, &v))
					sb_addf(&cell, "%s%s %lld", cell.len ? ", " : "", names[k], v);
			}
			table_set(row, c, sb_detach(&cell));
			free(src);
		}
		free(key);
		free(order);
	}
	sl_free(&phases);
	tables_drop_empty(ts);
}

/* alloc-refill: how long a request's burst waited for the area to be back
 * at its fill (ms), NAN without alloc-refill. */
static double refill_ms(const struct ds_alloc *a)
{
	return a->refill_wait_ns == DS_NONE ? NAN : a->refill_wait_ns / 1e6;
}

/* The occupancy a request met (NAN: unknown). */
static double occupancy_met(const struct ds_alloc *a)
{
	return a->occupancy;
}

/*
 * A row of value over each column's requests of a size, pooled over its
 * runs: "p50 / max" (as integers) or, with_min, "p50 (min-max)" (one
 * decimal); no row where no request has a value.
 */
static void pooled_row(struct table *t, const struct report_col *cols, size_t ncols,
		       long long pages, const char *label, double (*value)(const struct ds_alloc *),
		       bool with_min)
{
	struct trow *row = NULL;

	for (size_t c = 0; c < ncols; c++) {
		struct dvec v = { 0 };

		for (size_t i = 0; i < cols[c].ds->nallocs; i++) {
			const struct ds_alloc *a = &cols[c].ds->allocs[i];

			if (a->pages == pages && !a->tag[0] && !isnan(value(a)) &&
			    col_run(&cols[c], a->run))
				dv_add(&v, value(a));
		}
		if (v.n) {
			double lo, hi;

			if (!row) {
				table_text(t, label);
				row = &t->rows[t->nrows - 1];
			}
			dv_range(&v, &lo, &hi);
			table_set(row, c, with_min ? xasprintf("%.1f (%.1f-%.1f)", dv_median(&v), lo, hi)
						   : xasprintf("%.0f / %.0f", dv_median(&v), hi));
		}
		dv_free(&v);
	}
}

/*
 * Success and latency by the area's occupancy when each request's burst
 * began: below 50%, 50-90%, 90% and more. Requests of every run pooled:
 * descriptive, untested (the runs' own tables carry the tests).
 */
static void occupancy_table(struct tables *ts, const struct report_col *cols, size_t ncols,
			    long long pages)
{
	static const struct { const char *label; double lo, hi; } band[] = {
		{ "< 50%", -1, 50 }, { "50-90%", 50, 90 }, { ">= 90%", 90, 1000 },
	};
	char *title = xasprintf("%lld pages by area occupancy at the request (user-side us; every "
				"run's requests pooled, not tested)", pages);
	struct table *t = tables_add(ts, cols, ncols, title);
	bool any = false;

	free(title);
	for (size_t b = 0; b < ARRAY_SIZE(band); b++) {
		struct trow *rn, *rs, *rp;
		char *label;

		label = xasprintf("occupancy %s: requests", band[b].label);
		table_text(t, label);
		free(label);
		label = xasprintf("occupancy %s: success %%", band[b].label);
		table_text(t, label);
		free(label);
		label = xasprintf("occupancy %s: p50", band[b].label);
		table_text(t, label);
		free(label);
		/* the rows array may have moved while growing */
		rn = &t->rows[t->nrows - 3];
		rs = &t->rows[t->nrows - 2];
		rp = &t->rows[t->nrows - 1];
		for (size_t c = 0; c < ncols; c++) {
			struct dvec v = { 0 };
			bool *cens = xcalloc(cols[c].ds->nallocs + 1, sizeof(*cens));
			size_t ok = 0;

			for (size_t i = 0; i < cols[c].ds->nallocs; i++) {
				const struct ds_alloc *a = &cols[c].ds->allocs[i];

				if (a->pages != pages || a->tag[0] || isnan(a->occupancy) ||
				    a->occupancy < band[b].lo || a->occupancy >= band[b].hi ||
				    !col_run(&cols[c], a->run))
					continue;
				cens[v.n] = a->timed_out;
				dv_add(&v, a->user_ns / 1000.0);
				ok += a->success;
			}
			if (v.n) {
				bool lower;
				/* requests aborted at their deadline: a median among them is a bound */
				double med = surv_quantile(v.v, cens, v.n, 0.5, &lower);

				table_set(rn, c, xasprintf("%zu", v.n));
				table_set(rs, c, xasprintf("%.1f", 100.0 * ok / v.n));
				table_set(rp, c, xasprintf("%s%.2f", lower ? "> " : "", med));
				any = true;
			}
			free(cens);
			dv_free(&v);
		}
	}
	pooled_row(t, cols, ncols, pages, "occupancy met: p50 (min-max) %", occupancy_met, true);
	pooled_row(t, cols, ncols, pages, "refill wait before the request: p50 / max (ms)",
		   refill_ms, false);
	if (!any)
		tables_drop_all_rows(t);
	tables_drop_empty(ts);
}

void report_tables(const struct report_col *cols, size_t ncols, struct tables *ts)
{
	long long *sizes;
	size_t nsizes = all_sizes(cols, ncols, "", &sizes);
	struct strlist tags = { 0 };

	for (size_t z = 0; z < nsizes; z++) {
		latency_table(ts, cols, ncols, "", sizes[z], USER);
		latency_table(ts, cols, ncols, "", sizes[z], KERNEL);
		occupancy_table(ts, cols, ncols, sizes[z]);
	}
	free(sizes);
	all_tags(cols, ncols, &tags);
	for (size_t i = 0; i < tags.n; i++) {
		nsizes = all_sizes(cols, ncols, tags.v[i], &sizes);
		for (size_t z = 0; z < nsizes; z++)
			latency_table(ts, cols, ncols, tags.v[i], sizes[z], USER);
		free(sizes);
	}
	sl_free(&tags);
	phase_table(ts, cols, ncols);
	attr_tables(ts, cols, ncols);
	burst_table(ts, cols, ncols);
	job_tables(ts, cols, ncols);
	launch_tables(ts, cols, ncols);
	fio_tables(ts, cols, ncols);
	counter_table(ts, cols, ncols);
	perf_table(ts, cols, ncols);
}
