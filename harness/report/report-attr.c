/*
 * Where the kernel-side time went (data/attribution.csv, docs/attribution.md):
 * per request size a table of the attributed requests' split of their
 * time by phase and by the task's state, with the pages they moved, and
 * the plot data of the stacked-bar figure and the scatter of latency
 * against pages moved. Requests of every run pooled: descriptive, untested.
 */
#include "report/report-internal.h"

#include <stdio.h>

static const char *const phase_label[DS_NPHASES] = {
	"search and entry", "isolation and draining", "migration", "cleancache take-back",
	"taking the free range", "unattributed",
};
/* The same, as a sentence puts them ("spent 80% of its time ...") */
const char *const report_phase_what[DS_NPHASES] = {
	"searching the area and entering the take-back", "isolating and draining the range",
	"migrating pages", "taking the range back from cleancache", "taking the free range",
	"in unattributed intervals",
};
const char *const report_state_what[DS_NSTATES] = {
	"on CPU", "switched out while runnable", "blocked",
};
static const char *const state_label[DS_NSTATES] = {
	"on CPU", "runnable, switched out", "blocked",
};
static const char *const kind_label[DS_NFAILKINDS] = {
	"anonymous", "file, dirty", "file, under writeback", "pinned", "unevictable",
	/* isolated pages are LRU or movable ones: left are clean file pages and
	 * non-LRU movable ones, whose blocker was gone when they were classified */
	"other: clean file or non-LRU, no blocker seen",
};

/* The attributed requests of pages pages in column c's runs. */
static size_t col_attrs(const struct report_col *c, long long pages,
			const struct ds_attr_row ***out)
{
	const struct dataset *ds = c->ds;
	size_t n = 0;

	*out = xcalloc(ds->nattrs + 1, sizeof(**out));
	for (size_t i = 0; i < ds->nattrs; i++) {
		const struct ds_alloc *a = &ds->allocs[ds->attrs[i].alloc];

		if (a->pages == pages && !a->tag[0] && col_run(c, a->run) &&
		    ds_alloc_met(ds, a) && ds_attr_total(&ds->attrs[i].at) > 0)
			(*out)[n++] = &ds->attrs[i];
	}
	return n;
}

double report_attr_share(const struct ds_attr *at, int phase, int state)
{
	long long total = ds_attr_total(at);
	long long part = phase < 0 ? ds_attr_state(at, state)
		       : state < 0 ? ds_attr_phase(at, phase) : at->ns[phase][state];

	return total > 0 ? 100.0 * (double)part / (double)total : NAN;
}

/* A row of values printed as they are: descriptive, no difference to the baseline. */
static void text_row(struct table *t, size_t ncols, const char *label, int prec,
		     const double *m)
{
	struct trow *r;
	bool any = false;

	for (size_t c = 0; c < ncols; c++)
		any |= !isnan(m[c]);
	if (!any)
		return;
	r = table_text(t, label);
	for (size_t c = 0; c < ncols; c++)
		if (!isnan(m[c]))
			table_set(r, c, xasprintf("%.*f", prec, m[c]));
}

static void median_row(struct table *t, size_t ncols, const char *label, int prec,
		       struct dvec *v)
{
	double *m = xcalloc(ncols, sizeof(*m));

	for (size_t c = 0; c < ncols; c++)
		m[c] = v[c].n ? dv_median(&v[c]) : NAN;
	text_row(t, ncols, label, prec, m);
	free(m);
}

/* What a row of the table shows of each request. */
enum attr_what { AW_KERNEL_MS, AW_PHASE, AW_STATE, AW_ISOLATED, AW_MIGRATED, AW_FAILED,
		 AW_RETRIES, AW_RECLAIMED, AW_DROPPED, AW_FILL };

static double attr_value(const struct ds_attr *at, const struct ds_alloc *a,
			 enum attr_what w, int arg)
{
	switch (w) {
	case AW_KERNEL_MS:
		return a->kernel_ns / 1e6;
	case AW_PHASE:
		return report_attr_share(at, arg, -1);
	case AW_STATE:
		return at->sched_traced ? report_attr_share(at, -1, arg) : NAN;
	case AW_ISOLATED:
		return (double)at->isolated;
	case AW_MIGRATED:
		return (double)at->migrated;
	case AW_FAILED:
		return (double)at->failed;
	case AW_RETRIES:
		return (double)at->retries;
	case AW_DROPPED:
		return (double)at->dropped;
	case AW_RECLAIMED:
		return (double)at->reclaimed;
	case AW_FILL:
		return 100.0 * (double)ds_attr_moved(at) / (double)a->pages;
	}
	return NAN;
}

/* One row of per-request values, each column the median of its requests'. */
static void attr_row(struct table *t, const struct report_col *cols, size_t ncols,
		     long long pages, struct dvec *v, const char *label, int prec,
		     enum attr_what w, int arg)
{
	for (size_t c = 0; c < ncols; c++) {
		const struct ds_attr_row **rows;
		size_t n = col_attrs(&cols[c], pages, &rows);

		for (size_t i = 0; i < n; i++) {
			double x = attr_value(&rows[i]->at, &cols[c].ds->allocs[rows[i]->alloc],
					      w, arg);

			if (!isnan(x))
				dv_add(&v[c], x);
		}
		free(rows);
	}
	median_row(t, ncols, label, prec, v);
	for (size_t c = 0; c < ncols; c++)
		dv_free(&v[c]);
}

static void median_rows(struct table *t, const struct report_col *cols, size_t ncols,
			long long pages, struct dvec *v)
{
	attr_row(t, cols, ncols, pages, v, "kernel-side latency (ms)", 3, AW_KERNEL_MS, 0);
	for (int p = 0; p < DS_NPHASES; p++) {
		char *label = xasprintf("%s (%% of the time)", phase_label[p]);

		attr_row(t, cols, ncols, pages, v, label, 1, AW_PHASE, p);
		free(label);
	}
	for (int s = 0; s < DS_NSTATES; s++) {
		char *label = xasprintf("%s (%% of the time)", state_label[s]);

		attr_row(t, cols, ncols, pages, v, label, 1, AW_STATE, s);
		free(label);
	}
	attr_row(t, cols, ncols, pages, v, "pages isolated for migration", 0, AW_ISOLATED, 0);
	attr_row(t, cols, ncols, pages, v, "pages migrated", 0, AW_MIGRATED, 0);
	attr_row(t, cols, ncols, pages, v, "page migrations failed", 0, AW_FAILED, 0);
	attr_row(t, cols, ncols, pages, v, "busy retries (-EBUSY)", 0, AW_RETRIES, 0);
	attr_row(t, cols, ncols, pages, v, "clean pages reclaimed in place", 0, AW_RECLAIMED, 0);
	attr_row(t, cols, ncols, pages, v, "pages dropped from cleancache", 0, AW_DROPPED, 0);
	attr_row(t, cols, ncols, pages, v, "fill: pages migrated, reclaimed or dropped / requested (%)", 1,
		 AW_FILL, 0);
}

static void attr_table(struct tables *ts, const struct report_col *cols, size_t ncols,
		       long long pages)
{
	char *title = xasprintf("%lld pages: where the kernel-side time went (attributed requests "
				"of every run pooled; medians over requests; not tested)", pages);
	struct table *t = tables_add(ts, cols, ncols, title);
	const struct ds_attr_row **rows;
	struct trow *rn;
	struct dvec *v = dvecs(ncols);
	bool any = false, kinds = false;

	free(title);
	rn = table_text(t, "attributed requests (runs)");
	for (size_t c = 0; c < ncols; c++) {
		size_t n = col_attrs(&cols[c], pages, &rows);
		struct strlist runs = { 0 };

		for (size_t i = 0; i < n; i++) {
			const struct ds_alloc *a = &cols[c].ds->allocs[rows[i]->alloc];

			if (!sl_has(&runs, cols[c].ds->runs[a->run].name))
				sl_add(&runs, cols[c].ds->runs[a->run].name);
			kinds |= rows[i]->at.failkind_traced;
		}
		if (n) {
			table_set(rn, c, xasprintf("%zu (%zu)", n, runs.n));
			any = true;
		}
		sl_free(&runs);
		free(rows);
	}
	if (!any) {
		tables_drop_all_rows(t);
		tables_drop_empty(ts);
		dvecs_free(v, ncols);
		return;
	}
	median_rows(t, cols, ncols, pages, v);
	{
		/* the worst request: the acceptance bound of docs/attribution.md */
		double *m = xcalloc(ncols, sizeof(*m));

		for (size_t c = 0; c < ncols; c++) {
			size_t n = col_attrs(&cols[c], pages, &rows);

			m[c] = NAN;
			for (size_t i = 0; i < n; i++) {
				double x = report_attr_share(&rows[i]->at, DS_PH_OTHER, -1);

				m[c] = isnan(m[c]) || x > m[c] ? x : m[c];
			}
			free(rows);
		}
		text_row(t, ncols, "unattributed, largest share of a request (%)", 1, m);
		free(m);
	}
	if (kinds) {
		/* pooled: of every page migration that failed in requests that
		 * retried or failed, the kinds the kernel named */
		for (int k = 0; k < DS_NFAILKINDS; k++) {
			double *m = xcalloc(ncols, sizeof(*m));
			char *label = xasprintf("would not migrate: %s (%% of failed pages, "
						"requests that retried or failed)", kind_label[k]);

			for (size_t c = 0; c < ncols; c++) {
				size_t n = col_attrs(&cols[c], pages, &rows);
				long long part = 0, all = 0;

				for (size_t i = 0; i < n; i++) {
					const struct ds_attr *at = &rows[i]->at;
					const struct ds_alloc *a = &cols[c].ds->allocs[rows[i]->alloc];

					if (!at->failkind_traced || (!at->retries && a->success))
						continue;
					part += at->failkind[k];
					for (int j = 0; j < DS_NFAILKINDS; j++)
						all += at->failkind[j];
				}
				m[c] = all ? 100.0 * (double)part / (double)all : NAN;
				free(rows);
			}
			text_row(t, ncols, label, 1, m);
			free(label);
			free(m);
		}
	}
	dvecs_free(v, ncols);
}

void attr_tables(struct tables *ts, const struct report_col *cols, size_t ncols)
{
	long long *sizes;
	size_t nsizes = all_sizes(cols, ncols, "", &sizes);
	bool any = false;

	for (size_t c = 0; c < ncols; c++)
		any |= cols[c].ds->nattrs > 0;
	for (size_t z = 0; any && z < nsizes; z++)
		attr_table(ts, cols, ncols, sizes[z]);
	free(sizes);
}

/*
 * plot-attr-split.dat: "pages section" then the mean share (%) of each
 * phase and of each state over the attributed requests (each sums to 100;
 * the table's medians need not), and n; plot-attr-scatter.dat: one block
 * per section, "pages_moved kernel_ms pages" per request (moved: migrated
 * or dropped from cleancache). Adds have_attr and attr_sections to vars.
 */
int attr_plot_data(const struct report_col *cols, size_t ncols, const long long *sizes,
		   size_t nsizes, const char *outdir, struct strbuf *vars)
{
	struct strbuf split, scatter;
	size_t blocks = 0, bars = 0;
	int ret = 0;

	sb_init(&split);
	sb_init(&scatter);
	sb_add(&split, "# pages section");
	for (int p = 0; p < DS_NPHASES; p++)
		sb_addf(&split, " %s_pct", ds_phase_names[p]);
	for (int s = 0; s < DS_NSTATES; s++)
		sb_addf(&split, " %s_pct", ds_tstate_names[s]);
	sb_add(&split, " n\n");
	sb_add(&scatter, "# pages_moved (migrated, reclaimed or dropped) kernel_ms pages: one block per "
	       "section (attr_sections in plot-vars.gp)\n");
	sb_add(vars, "attr_sections = \"");
	for (size_t c = 0; c < ncols; c++) {
		size_t pts = 0;

		for (size_t z = 0; z < nsizes; z++) {
			const struct ds_attr_row **rows;
			size_t n = col_attrs(&cols[c], sizes[z], &rows);
			double mean[DS_NPHASES + DS_NSTATES] = { 0 };

			for (size_t i = 0; i < n; i++) {
				const struct ds_attr *at = &rows[i]->at;
				const struct ds_alloc *a = &cols[c].ds->allocs[rows[i]->alloc];

				for (int p = 0; p < DS_NPHASES; p++)
					mean[p] += report_attr_share(at, p, -1) / n;
				for (int s = 0; s < DS_NSTATES; s++)
					mean[DS_NPHASES + s] += report_attr_share(at, -1, s) / n;
				if (!pts++)
					sb_addf(&scatter, "%s# section %s\n", blocks ? "\n\n" : "",
						cols[c].section);
				sb_addf(&scatter, "%lld %.6f %lld\n", ds_attr_moved(at),
					a->kernel_ns / 1e6, a->pages);
			}
			if (n) {
				sb_addf(&split, "%lld %s", sizes[z], cols[c].section);
				for (size_t k = 0; k < ARRAY_SIZE(mean); k++)
					sb_addf(&split, " %.3f", mean[k]);
				sb_addf(&split, " %zu\n", n);
				bars++;
			}
			free(rows);
		}
		if (pts)
			sb_addf(vars, "%s%s", blocks++ ? " " : "", cols[c].section);
	}
	sb_addf(vars, "\"\nhave_attr = %d\n", bars > 0);
	ret |= write_text(outdir, "plot-attr-split.dat", sb_detach(&split));
	ret |= write_text(outdir, "plot-attr-scatter.dat", sb_detach(&scatter));
	return ret;
}

/*
 * "55% what[5], 45% what[1]": the kinds of pages that would not migrate, by
 * share, largest first, those of at least 1%; nothing when none counted.
 */
void report_kinds_text(struct strbuf *sb, const long long *kinds, const char *const *what)
{
	long long all = 0;
	bool done[DS_NFAILKINDS] = { false };

	for (int k = 0; k < DS_NFAILKINDS; k++)
		all += kinds[k];
	for (int n = 0; all && n < DS_NFAILKINDS; n++) {
		int b = -1;

		for (int k = 0; k < DS_NFAILKINDS; k++)
			if (!done[k] && (b < 0 || kinds[k] > kinds[b]))
				b = k;
		done[b] = true;
		if (100.0 * kinds[b] / all < 1)
			break;
		sb_addf(sb, "%s%.0f%% %s", n ? ", " : "", 100.0 * kinds[b] / all, what[b]);
	}
}

/* The largest of n values: its index. */
static int largest(const long long *v, int n)
{
	int b = 0;

	for (int i = 1; i < n; i++)
		b = v[i] > v[b] ? i : b;
	return b;
}

/*
 * One sentence per set-up and size: where the slowest attributed request's
 * kernel-side time went, the phase and the state with the largest share,
 * what it moved, retried and failed to move.
 */
void report_slowest(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	static const char *const kind_what[DS_NFAILKINDS] = {
		"anonymous", "dirty file", "under writeback", "pinned", "unevictable",
		"clean file or non-LRU pages with no blocker seen when classified",
	};
	struct strbuf out;

	if (!ds->nattrs)
		return;
	sb_init(&out);
	for (size_t s = 0; s < ds->sections.n; s++) {
		struct report_col c = { ds->sections.v[s], ds, ds->sections.v[s] };
		long long *sizes;
		size_t nsizes = all_sizes(&c, 1, "", &sizes);

		for (size_t z = 0; z < nsizes; z++) {
			const struct ds_attr_row **rows, *w = NULL;
			size_t n = col_attrs(&c, sizes[z], &rows), all = 0, below = 0, after = 0;
			long long ph[DS_NPHASES], st[DS_NSTATES], total;
			const struct ds_alloc *a;
			const struct ds_attr *at;
			int bp, bs;

			for (size_t i = 0; i < n; i++)
				if (!w || ds->allocs[rows[i]->alloc].kernel_ns >
					  ds->allocs[w->alloc].kernel_ns)
					w = rows[i];
			free(rows);
			if (!w)
				continue;
			/* the requests of that size: those not attributed may be slower */
			for (size_t i = 0; i < ds->nallocs; i++) {
				const struct ds_alloc *r = &ds->allocs[i];

				if (r->pages != sizes[z] || r->tag[0] || !col_run(&c, r->run))
					continue;
				if (ds_alloc_met(ds, r))
					all++;
				else if (ds_alloc_after_job(ds, r))
					after++;
				else
					below++;
			}
			a = &ds->allocs[w->alloc];
			at = &w->at;
			total = ds_attr_total(at);
			for (int p = 0; p < DS_NPHASES; p++)
				ph[p] = ds_attr_phase(at, p);
			for (int t = 0; t < DS_NSTATES; t++)
				st[t] = ds_attr_state(at, t);
			bp = largest(ph, DS_NPHASES);
			bs = largest(st, DS_NSTATES);
			sb_addf(&out, "- %s, %lld pages (%zu of %zu requests attributed", c.section,
				sizes[z], n, all);
			if (below)
				sb_addf(&out, "; %zu below the fill left out", below);
			if (after)
				sb_addf(&out, "; %zu after the job ended left out", after);
			sb_addf(&out, "): the slowest attributed, %s seq %lld, %.1f ms%s, spent %.0f%% "
				"of it %s",
				ds->runs[a->run].name, a->seq, a->kernel_ns / 1e6,
				a->success ? "" : " (failed)", 100.0 * ph[bp] / total, report_phase_what[bp]);
			if (at->sched_traced)
				sb_addf(&out, " and %.0f%% %s", 100.0 * st[bs] / total, report_state_what[bs]);
			sb_addf(&out, "; %lld busy retries, %lld pages migrated, %lld reclaimed, %lld "
				"dropped from cleancache, %lld page migrations failed", at->retries,
				at->migrated, at->reclaimed, at->dropped, at->failed);
			if (at->failkind_traced && at->failed) {
				sb_add(&out, " (of the pages that would not move: ");
				report_kinds_text(&out, at->failkind, kind_what);
				sb_add(&out, ")");
			}
			sb_add(&out, ".\n");
		}
		free(sizes);
	}
	if (out.len) {
		if (md)
			sb_addf(md, "## Where the slowest requests' time went\n\n%s\n", out.buf);
		if (txt)
			sb_addf(txt, "Where the slowest requests' time went\n\n%s\n", out.buf);
	}
	sb_free(&out);
}
