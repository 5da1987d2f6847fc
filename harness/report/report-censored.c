/*
 * Requests aborted at their deadline (alloc.csv timed_out=1) in the
 * latency tables and plots: their latency is censored, known only to be
 * more than the deadline. A statistic that rests on one is a lower bound,
 * printed "> x"; the count row says how many timed out; and the plots get
 * a Kaplan-Meier survival curve, which ends at the share still running at
 * the deadline where a CDF would stop at the success share or pile the
 * aborted requests onto the deadline.
 */
#include "report/report-internal.h"
#include "report/survival.h"

/* One run's requests of a size and tag on a side: latencies and censoring. */
struct run_lat {
	struct dvec x;
	bool *cens;
	size_t ncens, cap;
};

static void rl_add(struct run_lat *r, double x, bool cens)
{
	if (r->x.n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->cens = xrealloc(r->cens, r->cap * sizeof(*r->cens));
	}
	r->cens[r->x.n] = cens;
	r->ncens += cens;
	dv_add(&r->x, x);
}

static void rl_free(struct run_lat *r)
{
	dv_free(&r->x);
	free(r->cens);
	memset(r, 0, sizeof(*r));
}

/* The requests of run as lat_runs (report.c) takes them: false when the run
 * is left out (a kernel side not every request of which was traced). */
static bool run_requests(const struct report_col *c, size_t run, const char *tag, long long pages,
			 enum lat_side side, struct run_lat *out)
{
	size_t untraced = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < c->ds->nallocs; i++) {
		const struct ds_alloc *a = &c->ds->allocs[i];
		double x = lat_us(a, side);

		if (a->run != run || a->pages != pages || strcmp(a->tag, tag) ||
		    !ds_alloc_met(c->ds, a))
			continue;
		if (isnan(x))
			untraced++;
		else
			rl_add(out, x, a->timed_out);
	}
	if (side == KERNEL && (untraced || c->ds->runs[run].trace_lost) && out->x.n) {
		rl_free(out);
		return false;
	}
	return out->x.n > 0;
}

static struct trow *find_row(struct table *t, const char *prefix)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strncmp(t->rows[i].label, prefix, strlen(prefix)))
			return &t->rows[i];
	return NULL;
}

/* "> x" in cell c of the row labelled prefix..., where its value is a lower bound. */
static void mark_lower(struct table *t, const char *prefix, size_t c, double v, int prec)
{
	struct trow *r = find_row(t, prefix);

	if (r && !isnan(v))
		table_set(r, c, xasprintf("> %.*f", prec, v));
}

/* The endpoint key of column col, if kept, rests on a lower bound. */
static void endpoint_lower(struct tables *ts, const char *key, const char *col)
{
	for (size_t i = 0; key && i < ts->nep; i++)
		if (!strcmp(ts->ep[i].key, key) && !strcmp(ts->ep[i].col, col))
			ts->ep[i].lower = true;
}

void censored_latency_rows(struct tables *ts, struct table *t, const struct report_col *cols,
			   size_t ncols, const char *tag, long long pages, enum lat_side side,
			   const char *k_p50, const char *k_p99, const char *k_mean)
{
	struct trow *tr = NULL;

	for (size_t c = 0; c < ncols; c++) {
		struct dvec p50 = { 0 }, p99 = { 0 }, mean = { 0 };
		bool *c50 = xcalloc(cols[c].ds->nruns + 1, sizeof(bool));
		bool *c99 = xcalloc(cols[c].ds->nruns + 1, sizeof(bool));
		size_t timed_out = 0, runs_cens = 0;
		double deadline = NAN, max = NAN, v;
		bool lower;

		for (size_t run = 0; run < cols[c].ds->nruns; run++) {
			struct run_lat rl;

			if (!col_run(&cols[c], run) ||
			    !run_requests(&cols[c], run, tag, pages, side, &rl))
				continue;
			v = surv_quantile(rl.x.v, rl.cens, rl.x.n, 0.5, &lower);
			c50[p50.n] = lower;
			dv_add(&p50, v);
			if (rl.x.n >= 100) {
				v = surv_quantile(rl.x.v, rl.cens, rl.x.n, 0.99, &lower);
				c99[p99.n] = lower;
				dv_add(&p99, v);
			}
			dv_add(&mean, dv_mean(&rl.x));
			for (size_t i = 0; i < rl.x.n; i++) {
				if (rl.cens[i] && (isnan(deadline) || rl.x.v[i] > deadline))
					deadline = rl.x.v[i];
				if (isnan(max) || rl.x.v[i] > max)
					max = rl.x.v[i];
			}
			timed_out += rl.ncens;
			runs_cens += rl.ncens > 0;
			rl_free(&rl);
		}
		if (timed_out) {
			if (!tr)
				tr = table_text(t, "timed out (latency censored at the deadline; "
						   "\"> x\": a lower bound)");
			/* user side: censored at the deadline itself; kernel side: where
			 * the kernel noticed the signal */
			table_set(tr, c, side == USER
				  ? xasprintf("%zu in %zu run%s, at %.3g s", timed_out, runs_cens,
					      runs_cens == 1 ? "" : "s", deadline / 1e6)
				  : xasprintf("%zu in %zu run%s", timed_out, runs_cens,
					      runs_cens == 1 ? "" : "s"));
			/* the median of the runs' values rests on a lower bound */
			v = surv_quantile(p50.v, c50, p50.n, 0.5, &lower);
			if (lower) {
				mark_lower(t, "p50 ", c, v, 2);
				endpoint_lower(ts, k_p50, t->cols[c].label);
			}
			v = surv_quantile(p99.v, c99, p99.n, 0.5, &lower);
			if (lower) {
				mark_lower(t, "p99 ", c, v, 2);
				endpoint_lower(ts, k_p99, t->cols[c].label);
			}
			/* a censored request pulls its run's mean down */
			mark_lower(t, "mean ", c, dv_mean(&mean), 2);
			endpoint_lower(ts, k_mean, t->cols[c].label);
			if (max <= deadline)
				mark_lower(t, "max ", c, max, 2);
		}
		dv_free(&p50);
		dv_free(&p99);
		dv_free(&mean);
		free(c50);
		free(c99);
	}
}

void censored_burst_rows(struct table *t, const struct report_col *cols, size_t ncols)
{
	struct trow *tr = NULL;

	for (size_t c = 0; c < ncols; c++) {
		const struct dataset *ds = cols[c].ds;
		struct dvec p50 = { 0 };
		bool *c50 = xcalloc(ds->nruns + 1, sizeof(bool));
		size_t late = 0, bursts = 0;
		double v;
		bool lower;

		for (size_t run = 0; run < ds->nruns; run++) {
			struct run_lat rl = { 0 };

			if (!col_run(&cols[c], run))
				continue;
			for (size_t i = 0; i < ds->nbursts; i++)
				if (ds->bursts[i].run == run && ds_burst_met(ds, &ds->bursts[i]))
					rl_add(&rl, ds->bursts[i].latency_ns / 1000.0,
					       ds->bursts[i].timed_out > 0);
			if (rl.x.n) {
				v = surv_quantile(rl.x.v, rl.cens, rl.x.n, 0.5, &lower);
				c50[p50.n] = lower;
				dv_add(&p50, v);
			}
			late += rl.ncens;
			bursts += rl.x.n;
			rl_free(&rl);
		}
		if (late) {
			if (!tr)
				tr = table_text(t, "bursts with a request aborted at its deadline "
						   "(\"> x\": a lower bound)");
			table_set(tr, c, xasprintf("%zu of %zu", late, bursts));
			v = surv_quantile(p50.v, c50, p50.n, 0.5, &lower);
			if (lower)
				mark_lower(t, "p50 ", c, v, 2);
		}
		dv_free(&p50);
		free(c50);
	}
}

/*
 * plot-survival-<pages>.dat: one block per section (survsecs_<pages> in
 * plot-vars.gp), "latency_us survival lo hi" (95% pointwise, Greenwood,
 * clamped to [0, 1]), every request of the column's runs pooled; the
 * curve starts at (smallest latency, 1). survival_sets: the sizes with a
 * request that timed out, where the figure is drawn.
 */
int censored_plot_data(const struct report_col *cols, size_t ncols, const long long *sizes,
		       size_t nsizes, const char *outdir, struct strbuf *vars)
{
	struct strbuf sets;
	int ret = 0;

	sb_init(&sets);
	for (size_t z = 0; z < nsizes; z++) {
		struct strbuf d;
		size_t blocks = 0, any_cens = 0;
		char *name;

		sb_init(&d);
		sb_addf(&d, "# Kaplan-Meier survival of %lld-page requests (user side): latency_us "
			"S(t) = P(still running after t), lo, hi (95%%, Greenwood)\n"
			"# one block per section (survsecs_%lld in plot-vars.gp)\n", sizes[z],
			sizes[z]);
		sb_addf(vars, "survsecs_%lld = \"", sizes[z]);
		for (size_t c = 0; c < ncols; c++) {
			struct run_lat all = { 0 };
			struct km_step *k;
			size_t n;

			for (size_t run = 0; run < cols[c].ds->nruns; run++) {
				struct run_lat rl;

				if (!col_run(&cols[c], run) ||
				    !run_requests(&cols[c], run, "", sizes[z], USER, &rl))
					continue;
				for (size_t i = 0; i < rl.x.n; i++)
					rl_add(&all, rl.x.v[i], rl.cens[i]);
				rl_free(&rl);
			}
			if (!all.x.n)
				continue;
			any_cens += all.ncens;
			n = surv_kaplan_meier(all.x.v, all.cens, all.x.n, &k);
			sb_addf(&d, "%s# section %s\n", blocks ? "\n\n" : "", cols[c].section);
			sb_addf(vars, "%s%s", blocks++ ? " " : "", cols[c].section);
			sb_addf(&d, "%.3f 1 1 1\n", k[0].t);
			for (size_t i = 0; i < n; i++) {
				double lo = k[i].s - 1.96 * k[i].se, hi = k[i].s + 1.96 * k[i].se;

				sb_addf(&d, "%.3f %.6f %.6f %.6f\n", k[i].t, k[i].s, lo < 0 ? 0 : lo,
					hi > 1 ? 1 : hi);
			}
			free(k);
			rl_free(&all);
		}
		sb_add(vars, "\"\n");
		if (any_cens)
			sb_addf(&sets, "%s%lld", sets.len ? " " : "", sizes[z]);
		name = xasprintf("plot-survival-%lld.dat", sizes[z]);
		ret |= write_text(outdir, name, sb_detach(&d));
		free(name);
	}
	sb_addf(vars, "# sizes with a request aborted at its deadline (latency-survival.gp)\n"
		"survival_sets = \"%s\"\n", sets.buf ? sets.buf : "");
	sb_free(&sets);
	return ret;
}
