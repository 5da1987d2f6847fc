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
#include "scenario/disk.h"

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
	title = *tag ? xasprintf("the script's allocations alloc-%s.csv, %lld pages, user-side "
				 "(us; %s, failed ones too)", tag, pages, which)
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

void report_problems(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	size_t n = dataset_degraded(ds);

	if (txt)
		sb_addf(txt, "failed or degraded runs in %s: %zu\n", ds->run_id, n);
	if (md)
		sb_addf(md, "### Failed or degraded runs in %s: %zu\n\n", ds->run_id, n);
	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		if (ds_run_ok(r) && !r->problems.n)
			continue;
		if (txt)
			sb_addf(txt, "  %s: %s\n", r->name, r->status);
		if (md)
			sb_addf(md, "- `%s`: %s\n", r->name, r->status);
		for (size_t k = 0; k < r->problems.n; k++) {
			if (txt)
				sb_addf(txt, "    %s\n", r->problems.v[k]);
			if (md)
				sb_addf(md, "  - `%s`\n", r->problems.v[k]);
		}
	}
	if (txt)
		sb_add(txt, "\n");
	if (md)
		sb_add(md, "\n");
}

/*
 * Runs made alone and runs made beside other VMs (run --jobs) do not see
 * the same host: a report that mixes them says so, naming the latter.
 */
static void mixed_parallelism(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	struct strbuf beside;
	size_t alone = 0, shared = 0;

	sb_init(&beside);
	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		if (!ds_run_ok(r) || r->vms_beside < 0)
			continue;
		if (r->vms_beside == 0)
			alone++;
		else {
			shared++;
			sb_addf(&beside, "%s%s (%lld)", beside.len ? ", " : "", r->name, r->vms_beside);
		}
	}
	if (alone && shared) {
		if (txt)
			sb_addf(txt, "  Mixed: %zu runs alone, %zu beside other VMs: %s.\n", alone, shared,
				beside.buf);
		if (md)
			sb_addf(md, "\n**Runs made alone and runs made beside other VMs are mixed**: "
				"%zu alone, %zu beside others (VMs beside them at most): %s.\n", alone,
				shared, beside.buf);
	}
	sb_free(&beside);
}

static const struct dataset *order_ds;

static int by_start(const void *x, const void *y)
{
	const struct ds_run *a = &order_ds->runs[*(const size_t *)x];
	const struct ds_run *b = &order_ds->runs[*(const size_t *)y];

	if (a->rep != b->rep)
		return a->rep - b->rep;
	return (a->start_unix > b->start_unix) - (a->start_unix < b->start_unix);
}

/*
 * How the runs shared the host and in what order the set-ups ran: how many
 * VMs ran beside them (metadata vms_beside), and per repetition the
 * sections by start time, with the seed of a shuffled order (plan.c).
 */
static void run_conditions(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	struct strbuf s, ord;
	size_t *idx = xcalloc(ds->nruns + 1, sizeof(*idx)), n = 0, beside[3] = { 0 }, unknown = 0;
	bool same = true;
	long long seed = -1;
	char *first = NULL;

	sb_init(&s);
	sb_init(&ord);
	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		if (r->vms_beside < 0)
			unknown++;
		else
			beside[r->vms_beside > 1 ? 2 : r->vms_beside]++;
		if (r->order_seed > 0)
			seed = r->order_seed;
		if (r->start_unix > 0)
			idx[n++] = i;
	}
	sb_addf(&s, "Host sharing: %zu run%s alone, %zu beside one other VM, %zu beside two or "
		"more%s.", beside[0], beside[0] == 1 ? "" : "s", beside[1], beside[2],
		unknown ? " (the others' metadata does not say)" : "");
	order_ds = ds;
	qsort(idx, n, sizeof(*idx), by_start);
	order_ds = NULL;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		struct strbuf one;

		sb_init(&one);
		for (; j < n && ds->runs[idx[j]].rep == ds->runs[idx[i]].rep; j++)
			sb_addf(&one, "%s%s", j > i ? ", " : "", ds->runs[idx[j]].section);
		sb_addf(&ord, "%sr%d: %s", ord.len ? "; " : "", ds->runs[idx[i]].rep, one.buf);
		if (!first)
			first = xstrdup(one.buf);
		else if (strcmp(first, one.buf))
			same = false;
		sb_free(&one);
		i = j;
	}
	if (ord.len)
		sb_addf(&s, " Order of the set-ups (by start time): %s%s.", ord.buf,
			seed > 0 ? "" : same && n > ds->sections.n ? " (the same in every repetition)"
								  : "");
	if (seed > 0)
		sb_addf(&s, " Shuffled per repetition, seed %lld.", seed);
	if (md)
		sb_addf(md, "\n%s\n", s.buf);
	if (txt)
		sb_addf(txt, "  %s\n", s.buf);
	free(first);
	free(idx);
	sb_free(&s);
	sb_free(&ord);
}

/*
 * Each scaled disk model's divisor and where it came from, once per distinct
 * one: "Disk: eMMC scaled by 4.8x (median of 5 rounds, 4.5x-5.1x, measured
 * 2026-12-04)." Results from before the divisor was recorded say no more
 * than the table's emmc/4.8.
 */
static void disk_divisors(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	struct strlist seen = { 0 };
	struct strbuf s;

	sb_init(&s);
	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];
		const struct disk_profile *d = r->disk ? disk_find(r->disk) : NULL;
		char *how, *one;

		if (r->disk_calib.source == CALIB_NONE || r->disk_scale <= 1.005)
			continue;
		how = calib_describe(&r->disk_calib, r->disk_scale);
		one = xasprintf("%s scaled by %.1fx (%s)", d ? d->label : r->disk ? r->disk : "?",
				r->disk_scale, how);
		if (!sl_has(&seen, one)) {
			sb_addf(&s, "%s%s", seen.n ? "; " : "Disk: ", one);
			sl_add(&seen, one);
		}
		free(how);
		free(one);
	}
	if (s.len && md)
		sb_addf(md, "\n%s.\n", s.buf);
	if (s.len && txt)
		sb_addf(txt, "  %s.\n", s.buf);
	sb_free(&s);
	sl_free(&seen);
}

/* alloc-refill stopped the run's keeper during its bursts: its requests
 * carry the wait (refill_wait_ns). */
static bool keeper_paused(const struct dataset *ds, size_t run)
{
	for (size_t i = 0; i < ds->nallocs; i++)
		if (ds->allocs[i].run == run && ds->allocs[i].refill_wait_ns != DS_NONE)
			return true;
	return false;
}

/*
 * What a section's area held when its allocations began: "idle" without a
 * fill; else the target, the occupancy reached (median of the runs that
 * reached it) and the time it took, and how many runs reached it.
 */
static char *fill_summary(const struct dataset *ds, const char *section)
{
	struct dvec reached = { 0 }, secs = { 0 }, anon = { 0 }, kread = { 0 }, kbusy = { 0 };
	struct dvec krate = { 0 };
	size_t filled = 0, planned = 0, loads = 0, paused = 0;
	double target = NAN;
	char *s;

	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		if (strcmp(r->section, section) || !ds_run_counts(r) || !r->fill_status)
			continue;
		planned++;
		target = r->fill_target;
		if (ds_run_not_filled(r))
			continue;
		filled++;
		loads += !strcmp(r->fill_status, "load");
		dv_add(&reached, r->fill_reached);
		dv_add(&secs, r->fill_seconds);
		if (!isnan(r->fill_anon_mb))
			dv_add(&anon, r->fill_anon_mb);
		if (!isnan(r->keep_read_mb) && r->keep_seconds > 0) {
			dv_add(&kread, r->keep_read_mb);
			dv_add(&krate, r->keep_read_mb / r->keep_seconds);
			dv_add(&kbusy, 100 * r->keep_reading_seconds / r->keep_seconds);
			paused += keeper_paused(ds, i);
		}
	}
	if (!planned)
		s = xstrdup("idle (no fill)");
	else if (!filled)
		s = xasprintf("fill %.0f%%: no run reached it", target);
	else if (loads == filled)
		s = xasprintf("no area; the fill's readers beside it (memory read through in %.1f s, "
			      "%zu/%zu runs)", dv_median(&secs), filled, planned);
	else
		s = xasprintf("fill %.0f%%: %.1f%% in %.1f s (%zu/%zu runs)", target,
			      dv_median(&reached), dv_median(&secs), filled, planned);
	/* The load's anonymous part, which differs between set-ups: shown. */
	if (anon.n) {
		char *t = xasprintf("%s, anon %.0f MiB held", s, dv_median(&anon));

		free(s);
		s = t;
	}
	/* The keeper's load beside the measured work, and whether it ran inside
	 * the requests' timed window (without alloc-refill it does). */
	if (kread.n) {
		char *where = paused == kread.n ? xstrdup("stopped during each burst")
			      : !paused ? xstrdup("also during the requests")
			      : xasprintf("stopped during the bursts of %zu of %zu runs", paused,
					  kread.n);
		char *t = xasprintf("%s; kept by reading %.0f MiB (%.0f MiB/s), reading %.0f%% of "
				    "the time, %s", s, dv_median(&kread), dv_median(&krate),
				    dv_median(&kbusy), where);

		free(where);
		free(s);
		s = t;
	}
	dv_free(&reached);
	dv_free(&secs);
	dv_free(&anon);
	dv_free(&kread);
	dv_free(&krate);
	dv_free(&kbusy);
	return s;
}

/* Sections, their runs, and which runs the tables leave out and why. */
static void sections_summary(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	if (md)
		sb_add(md, "| section | set-up | kernel | disk | area before the allocations | "
		       "runs ok / all | left out |\n|---|---|---|---|---|---:|---|\n");
	if (txt)
		sb_addf(txt, "  %-20s %-10s %-10s %-6s %-40s %-11s %s\n", "section", "set-up", "kernel",
			"disk", "area before the allocations", "runs ok/all", "left out");
	for (size_t s = 0; s < ds->sections.n; s++) {
		const char *setup = "?", *kernel = "?", *arch = "x86_64";
		char *disk = NULL, *kcell;
		size_t ok = 0, all = 0;
		struct strbuf out;
		char *fill = fill_summary(ds, ds->sections.v[s]);

		sb_init(&out);
		for (size_t i = 0; i < ds->nruns; i++) {
			const struct ds_run *r = &ds->runs[i];

			if (strcmp(r->section, ds->sections.v[s]))
				continue;
			setup = r->setup;
			kernel = r->kernel;
			arch = r->arch ? r->arch : "?";
			free(disk);
			/* a scaled model shows its divisor: emmc/14.2 */
			disk = r->disk_scale > 1.005
				       ? xasprintf("%s/%.1f", r->disk ? r->disk : "?", r->disk_scale)
				       : xstrdup(r->disk ? r->disk : "?");
			all++;
			ok += ds_run_ok(r);
			if (r->partial)
				sb_addf(&out, "%s%s (%s: partial, its rows kept)", out.len ? ", " : "",
					r->name, r->status);
			else if (!ds_run_ok(r))
				sb_addf(&out, "%s%s (%s)", out.len ? ", " : "", r->name, r->status);
			else if (ds_run_not_filled(r))
				sb_addf(&out, "%s%s (not-filled: %.1f%% of %.0f%%)", out.len ? ", " : "",
					r->name, r->fill_reached, r->fill_target);
		}
		/* x86_64 goes unsaid; another arch is named beside its kernel */
		kcell = strcmp(arch, "x86_64") ? xasprintf("%s (%s)", kernel, arch) : xstrdup(kernel);
		if (txt) {
			char n[32];

			snprintf(n, sizeof(n), "%zu/%zu", ok, all);
			sb_addf(txt, "  %-20s %-10s %-10s %-6s %-40s %-11s %s\n", ds->sections.v[s], setup,
				kcell, disk ? disk : "?", fill, n, out.len ? out.buf : "-");
		}
		if (md)
			sb_addf(md, "| %s | %s | %s | %s | %s | %zu / %zu | %s |\n", ds->sections.v[s],
				setup, kcell, disk ? disk : "?", fill, ok, all, out.len ? out.buf : "-");
		free(kcell);
		sb_free(&out);
		free(fill);
		free(disk);
	}
	for (size_t s = 0; s < ds->sections.n; s++) {
		size_t ok = 0, all = 0, partial = 0;

		for (size_t i = 0; i < ds->nruns; i++)
			if (!strcmp(ds->runs[i].section, ds->sections.v[s])) {
				all++;
				ok += ds_run_ok(&ds->runs[i]);
				partial += ds->runs[i].partial;
			}
		if (partial) {
			if (txt)
				sb_addf(txt, "  %s: %zu of %zu runs partial (ended early); the rows they "
					"completed count.\n", ds->sections.v[s], partial, all);
			if (md)
				sb_addf(md, "\n**%s: %zu of %zu runs partial** (ended early); the rows they "
					"completed count.\n", ds->sections.v[s], partial, all);
			ok += partial;
		}
		if (ok < all) {
			if (txt)
				sb_addf(txt, "  %s: %zu of %zu runs failed; its numbers rest on %zu run%s.\n",
					ds->sections.v[s], all - ok, all, ok, ok == 1 ? "" : "s");
			if (md)
				sb_addf(md, "\n**%s: %zu of %zu runs failed**; its numbers rest on %zu run%s.\n",
					ds->sections.v[s], all - ok, all, ok, ok == 1 ? "" : "s");
		}
	}
	disk_divisors(ds, txt, md);
	mixed_parallelism(ds, txt, md);
	run_conditions(ds, txt, md);
	if (txt)
		sb_add(txt, "\n");
	if (md)
		sb_add(md, "\n");
}

static const char legend[] =
	"Columns: the baseline first (--baseline, else the first section that made\n"
	"allocations, else the first section); others as value (+x.xx%), the change against\n"
	"the baseline. The run (one VM) is the unit of replication: each statistic is\n"
	"computed per run, the row shows the median (or mean) of the runs' values, and\n"
	"each tested row compares the runs' values of a column with the baseline's\n"
	"(Mann-Whitney U, two-sided: exact up to 50 runs, ties kept; 5 against 5\n"
	"completely separated gives p = 0.0079). These tables are the secondary family:\n"
	"their p-values are adjusted together (Benjamini-Hochberg false-discovery rate),\n"
	"apart from the primary comparisons above; a primary's own cell shows its q from\n"
	"those and says \"primary\". *+x.xx%* marks q < 0.05 where the two columns'\n"
	"per-run values do not overlap entirely (neither range lies inside the other);\n"
	"(q 0.xx) follows every tested cell. Not tested: a column whose runs all share one\n"
	"value with the baseline's (0 against 0), and CMA counters of a set-up without an\n"
	"area. Latencies are over every request, failed ones too, with the success rate\n"
	"beside them; in runs with a fill, over the requests that began with the area at\n"
	"the fill (the others are counted in a row of their own: \"below the fill, left\n"
	"out\"); with a plan beside a job, over the requests that began while the job\n"
	"ran (\"after the job ended, left out\"). Percentiles: linear interpolation\n"
	"(type 7).\n\n";

void report_dataset(const struct dataset *ds, const char *baseline, struct strbuf *txt,
		    struct strbuf *md)
{
	size_t n = ds->sections.n, b = 0;
	struct report_col *cols = xcalloc(n ? n : 1, sizeof(*cols));
	struct tables ts = { 0 };

	if (!baseline)
		baseline = ds->baseline;
	for (size_t s = 0; baseline && s < n; s++)
		if (!strcmp(ds->sections.v[s], baseline))
			b = s;
	/* By default the first section that allocated: a "none" set-up listed
	 * first (no area) would leave every latency table without a baseline. */
	if (!baseline) {
		size_t first = n;

		for (size_t i = 0; i < ds->nallocs; i++) {
			size_t s = 0;

			while (s < n && strcmp(ds->sections.v[s], ds->runs[ds->allocs[i].run].section))
				s++;
			if (s < first)
				first = s;
		}
		if (first < n)
			b = first;
	}
	cols[0] = (struct report_col){ ds->sections.v[b], ds, ds->sections.v[b] };
	for (size_t s = 0, c = 1; s < n; s++)
		if (s != b)
			cols[c++] = (struct report_col){ ds->sections.v[s], ds, ds->sections.v[s] };
	if (txt)
		sb_addf(txt, "cmabench report: %s\n\n", ds->run_id);
	if (md)
		sb_addf(md, "# cmabench report: %s\n\n", ds->run_id);
	sections_summary(ds, txt, md);
	report_regimes(ds, txt, md);
	report_slowest(ds, txt, md);
	/* the tables first: the primaries are tested on their rows' values */
	report_tables(cols, n, &ts);
	report_primaries(ds, cols, n, &ts, txt, md);
	if (md)
		sb_add(md, "## Secondary comparisons\n\n");
	if (txt)
		sb_add(txt, legend);
	if (md) {
		sb_add(md, "```\n");
		sb_add(md, legend);
		md->len--;
		md->buf[md->len - 1] = '\n';
		md->buf[md->len] = '\0';
		sb_add(md, "```\n\n");
	}
	tables_render(&ts, txt, md);
	tables_free(&ts);
	report_problems(ds, txt, md);
	free(cols);
}

size_t report_count_significant(const char *text)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, " *")); p += 2)
		if ((p[2] == '+' || p[2] == '-') && p[3] >= '0' && p[3] <= '9' && strchr(p + 2, '*') &&
		    strcspn(p + 2, "*") < strcspn(p + 2, "\n"))
			n++;
	return n;
}

