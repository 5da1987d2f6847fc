/*
 * Comparison tables (see report.h). Only runs whose status is "ok" give
 * samples; latencies are those of successful allocations; a run's
 * problems are listed, never averaged in.
 */
#include "report.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- small containers ---------------------------------------------------- */

struct dvec {
	double *v;
	size_t n, cap;
};

static void dv_add(struct dvec *d, double x)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 64;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	d->v[d->n++] = x;
}

static void dv_free(struct dvec *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

static double dv_mean(const struct dvec *d)
{
	double s = 0;

	if (!d->n)
		return NAN;
	for (size_t i = 0; i < d->n; i++)
		s += d->v[i];
	return s / d->n;
}

/* ---- a table ------------------------------------------------------------- */

struct trow {
	char *label;
	const char *better;         /* "lower", "higher" or "" */
	char **cells;
};

struct table {
	char *title;
	size_t ncols;
	const struct report_col *cols;
	struct trow *rows;
	size_t nrows;
};

static void table_init(struct table *t, const struct report_col *cols, size_t ncols,
		       const char *title)
{
	memset(t, 0, sizeof(*t));
	t->title = xstrdup(title);
	t->cols = cols;
	t->ncols = ncols;
}

static struct trow *table_row(struct table *t, const char *label, const char *better)
{
	struct trow *r;

	t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof(*t->rows));
	r = &t->rows[t->nrows++];
	r->label = xstrdup(label);
	r->better = better;
	r->cells = xcalloc(t->ncols, sizeof(*r->cells));
	return r;
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows; i++) {
		for (size_t c = 0; c < t->ncols; c++)
			free(t->rows[i].cells[c]);
		free(t->rows[i].cells);
		free(t->rows[i].label);
	}
	free(t->rows);
	free(t->title);
}

/*
 * A metric row: baseline "value", others "value (+x.xx%)" or, when sig[c],
 * "value *+x.xx%*". NAN prints "-".
 */
static void metric_row(struct table *t, const char *label, const char *better, int prec,
		       const double *v, const bool *sig)
{
	struct trow *r = table_row(t, label, better);

	for (size_t c = 0; c < t->ncols; c++) {
		char num[64];

		if (isnan(v[c])) {
			r->cells[c] = xstrdup("-");
			continue;
		}
		snprintf(num, sizeof(num), "%.*f", prec, v[c]);
		if (c == 0 || isnan(v[0]))
			r->cells[c] = xstrdup(num);
		else if (v[0] == 0)
			r->cells[c] = xasprintf("%s (%s)", num, v[c] == 0 ? "+0.00%" : "n/a");
		else if (sig && sig[c])
			r->cells[c] = xasprintf("%s *%+.2f%%*", num, (v[c] - v[0]) / fabs(v[0]) * 100);
		else
			r->cells[c] = xasprintf("%s (%+.2f%%)", num, (v[c] - v[0]) / fabs(v[0]) * 100);
	}
}

/* A row of free text, one cell per column. */
static struct trow *text_row(struct table *t, const char *label)
{
	struct trow *r = table_row(t, label, "");

	for (size_t c = 0; c < t->ncols; c++)
		r->cells[c] = xstrdup("-");
	return r;
}

static void set_cell(struct trow *r, size_t c, char *s)
{
	free(r->cells[c]);
	r->cells[c] = s;
}

static size_t width(const char *s)
{
	return strlen(s);
}

static void render_text(const struct table *t, struct strbuf *sb)
{
	size_t lw = strlen("metric"), bw = strlen("better"), *cw;

	if (!t->nrows)
		return;
	cw = xcalloc(t->ncols, sizeof(*cw));
	for (size_t c = 0; c < t->ncols; c++)
		cw[c] = width(t->cols[c].label);
	for (size_t i = 0; i < t->nrows; i++) {
		if (width(t->rows[i].label) > lw)
			lw = width(t->rows[i].label);
		for (size_t c = 0; c < t->ncols; c++)
			if (width(t->rows[i].cells[c]) > cw[c])
				cw[c] = width(t->rows[i].cells[c]);
	}
	sb_addf(sb, "%s\n", t->title);
	sb_addf(sb, "  %-*s  %-*s", (int)lw, "", (int)bw, "better");
	for (size_t c = 0; c < t->ncols; c++)
		sb_addf(sb, "  %*s", (int)cw[c], t->cols[c].label);
	sb_add(sb, "\n");
	for (size_t i = 0; i < t->nrows; i++) {
		sb_addf(sb, "  %-*s  %-*s", (int)lw, t->rows[i].label, (int)bw, t->rows[i].better);
		for (size_t c = 0; c < t->ncols; c++)
			sb_addf(sb, "  %*s", (int)cw[c], t->rows[i].cells[c]);
		/* no trailing blanks */
		while (sb->len && sb->buf[sb->len - 1] == ' ')
			sb->buf[--sb->len] = '\0';
		sb_add(sb, "\n");
	}
	sb_add(sb, "\n");
	free(cw);
}

static void render_md(const struct table *t, struct strbuf *sb)
{
	if (!t->nrows)
		return;
	sb_addf(sb, "### %s\n\n| metric | better |", t->title);
	for (size_t c = 0; c < t->ncols; c++)
		sb_addf(sb, " %s |", t->cols[c].label);
	sb_add(sb, "\n|---|---|");
	for (size_t c = 0; c < t->ncols; c++)
		sb_add(sb, "---:|");
	sb_add(sb, "\n");
	for (size_t i = 0; i < t->nrows; i++) {
		sb_addf(sb, "| %s | %s |", t->rows[i].label, t->rows[i].better);
		for (size_t c = 0; c < t->ncols; c++)
			sb_addf(sb, " %s |", t->rows[i].cells[c]);
		sb_add(sb, "\n");
	}
	sb_add(sb, "\n");
}

static void emit(struct table *t, struct strbuf *txt, struct strbuf *md)
{
	if (txt)
		render_text(t, txt);
	if (md)
		render_md(t, md);
	table_free(t);
}

/* ---- samples ------------------------------------------------------------- */

static bool col_run(const struct report_col *c, size_t run)
{
	const struct ds_run *r = &c->ds->runs[run];

	return ds_run_ok(r) && !strcmp(r->section, c->section);
}

enum lat_side { USER, KERNEL };

static void alloc_samples(const struct report_col *c, long long pages, enum lat_side side,
			  struct dvec *out)
{
	for (size_t i = 0; i < c->ds->nallocs; i++) {
		const struct ds_alloc *a = &c->ds->allocs[i];
		long long v = side == USER ? a->user_ns : a->kernel_ns;

		if (a->pages == pages && a->success && v != DS_NONE && col_run(c, a->run))
			dv_add(out, v / 1000.0);
	}
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Request sizes in any column, ascending. */
static size_t all_sizes(const struct report_col *cols, size_t ncols, long long **out)
{
	long long *v = NULL;
	size_t n = 0;

	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].ds->nallocs; i++) {
			const struct ds_alloc *a = &cols[c].ds->allocs[i];
			bool seen = false;

			if (!col_run(&cols[c], a->run))
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

/* Mann-Whitney of every column against the baseline: sig[c] when p < alpha. */
static void compare_samples(const struct dvec *s, size_t ncols, bool *sig, double *p)
{
	for (size_t c = 0; c < ncols; c++) {
		struct mann_whitney mw;

		sig[c] = false;
		p[c] = NAN;
		if (!c)
			continue;
		stats_mann_whitney(s[0].v, s[0].n, s[c].v, s[c].n, &mw);
		if (s[0].n && s[c].n) {
			p[c] = mw.p;
			sig[c] = mw.p < REPORT_ALPHA;
		}
	}
}

/* The rows of one sample set per column: summary, test, bootstrap. */
static void summary_rows(struct table *t, struct dvec *s, const char *better, bool extended)
{
	size_t n = t->ncols;
	struct summary *sm = xcalloc(n, sizeof(*sm));
	double *v = xcalloc(n, sizeof(*v)), *p = xcalloc(n, sizeof(*p));
	bool *sig = xcalloc(n, sizeof(*sig));
	struct trow *r;

	for (size_t c = 0; c < n; c++)
		stats_summary(s[c].v, s[c].n, &sm[c]);
	compare_samples(s, n, sig, p);
#define ROW(label, field, marked) do { \
		for (size_t c = 0; c < n; c++) \
			v[c] = sm[c].field; \
		metric_row(t, label, better, 2, v, (marked) ? sig : NULL); \
	} while (0)
	r = text_row(t, "n");
	for (size_t c = 0; c < n; c++)
		set_cell(r, c, xasprintf("%zu", s[c].n));
	ROW("min", min, false);
	ROW("p50", p50, true);
	if (extended)
		ROW("p90", p90, false);
	ROW("p99", p99, false);
	if (extended)
		ROW("p99.9", p999, false);
	ROW("max", max, false);
	ROW("mean", mean, true);
	if (extended)
		ROW("stddev", sd, false);
#undef ROW
	if (n > 1) {
		r = text_row(t, "Mann-Whitney p");
		for (size_t c = 1; c < n; c++)
			if (!isnan(p[c]))
				set_cell(r, c, xasprintf("%.4f", p[c]));
		r = text_row(t, "p50 ratio [95% CI]");
		for (size_t c = 1; c < n; c++) {
			double ratio, lo, hi;

			if (!stats_bootstrap_median_ratio(s[0].v, s[0].n, s[c].v, s[c].n,
							  REPORT_BOOT_ITERS, REPORT_BOOT_SEED,
							  REPORT_ALPHA, &ratio, &lo, &hi))
				set_cell(r, c, xasprintf("%.3f [%.3f, %.3f]", ratio, lo, hi));
		}
	}
	free(sm);
	free(v);
	free(p);
	free(sig);
}

static void latency_tables(const struct report_col *cols, size_t ncols, long long pages,
			   enum lat_side side, struct strbuf *txt, struct strbuf *md)
{
	struct dvec *s = xcalloc(ncols, sizeof(*s));
	struct table t;
	char *title;
	size_t any = 0;

	for (size_t c = 0; c < ncols; c++) {
		alloc_samples(&cols[c], pages, side, &s[c]);
		any += s[c].n;
	}
	title = xasprintf("allocation latency, %lld pages, %s (us)", pages,
			  side == USER ? "user-side" : "kernel-side (cma_alloc_start..finish)");
	table_init(&t, cols, ncols, title);
	free(title);
	if (any)
		summary_rows(&t, s, "lower", false);
	emit(&t, txt, md);
	for (size_t c = 0; c < ncols; c++)
		dv_free(&s[c]);
	free(s);
}

/*
 * The data set's bursts (dataset.h defines them) of a column in us; bursts
 * with a failed request are counted apart.
 */
static void burst_samples(const struct report_col *c, struct dvec *out, size_t *failed)
{
	for (size_t i = 0; i < c->ds->nbursts; i++) {
		const struct ds_burst *b = &c->ds->bursts[i];

		if (!col_run(c, b->run))
			continue;
		if (b->failed)
			(*failed)++;
		else
			dv_add(out, b->latency_ns / 1000.0);
	}
}

static void burst_table(const struct report_col *cols, size_t ncols, struct strbuf *txt,
			struct strbuf *md)
{
	struct dvec *s = xcalloc(ncols, sizeof(*s));
	size_t *failed = xcalloc(ncols, sizeof(*failed)), any = 0;
	struct table t;

	for (size_t c = 0; c < ncols; c++) {
		burst_samples(&cols[c], &s[c], &failed[c]);
		any += s[c].n + failed[c];
	}
	if (any) {
		struct trow *r;

		table_init(&t, cols, ncols,
			   "burst latency, first request's start to last request's end (us)");
		summary_rows(&t, s, "lower", true);
		r = text_row(&t, "bursts with a failed request");
		for (size_t c = 0; c < ncols; c++)
			set_cell(r, c, xasprintf("%zu", failed[c]));
		emit(&t, txt, md);
	}
	for (size_t c = 0; c < ncols; c++)
		dv_free(&s[c]);
	free(s);
	free(failed);
}

/* Each timed foreground job (jobtime.csv): its elapsed time per run, and CPU time. */
static void job_tables(const struct report_col *cols, size_t ncols, struct strbuf *txt,
		       struct strbuf *md)
{
	struct strlist names = { 0 };

	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].ds->njobs; i++)
			if (col_run(&cols[c], cols[c].ds->jobs[i].run) &&
			    !sl_has(&names, cols[c].ds->jobs[i].name))
				sl_add(&names, cols[c].ds->jobs[i].name);
	for (size_t k = 0; k < names.n; k++) {
		struct dvec *s = xcalloc(ncols, sizeof(*s)), *u = xcalloc(ncols, sizeof(*u));
		struct dvec *sy = xcalloc(ncols, sizeof(*sy));
		double *v = xcalloc(ncols, sizeof(*v));
		struct table t;
		char *title = xasprintf("timed job %s: elapsed (s), one value per run", names.v[k]);

		for (size_t c = 0; c < ncols; c++)
			for (size_t i = 0; i < cols[c].ds->njobs; i++) {
				const struct ds_job *j = &cols[c].ds->jobs[i];

				if (!col_run(&cols[c], j->run) || strcmp(j->name, names.v[k]))
					continue;
				dv_add(&s[c], j->elapsed_s);
				dv_add(&u[c], j->user_s);
				dv_add(&sy[c], j->sys_s);
			}
		table_init(&t, cols, ncols, title);
		summary_rows(&t, s, "lower", false);
		for (size_t c = 0; c < ncols; c++)
			v[c] = dv_mean(&u[c]);
		metric_row(&t, "user (s, mean)", "lower", 2, v, NULL);
		for (size_t c = 0; c < ncols; c++)
			v[c] = dv_mean(&sy[c]);
		metric_row(&t, "sys (s, mean)", "lower", 2, v, NULL);
		emit(&t, txt, md);
		for (size_t c = 0; c < ncols; c++) {
			dv_free(&s[c]);
			dv_free(&u[c]);
			dv_free(&sy[c]);
		}
		free(s);
		free(u);
		free(sy);
		free(v);
		free(title);
	}
	sl_free(&names);
}

/* Success rate with its Wilson interval, and busy retries. */
static void success_table(const struct report_col *cols, size_t ncols, const long long *sizes,
			  size_t nsizes, struct strbuf *txt, struct strbuf *md)
{
	struct table t;
	double *v = xcalloc(ncols, sizeof(*v)), *lo = xcalloc(ncols, sizeof(*lo));
	double *hi = xcalloc(ncols, sizeof(*hi)), *p = xcalloc(ncols, sizeof(*p));
	bool *sig = xcalloc(ncols, sizeof(*sig));
	struct dvec *rs = xcalloc(ncols, sizeof(*rs));

	table_init(&t, cols, ncols, "allocation success and busy retries");
	for (size_t z = 0; z < nsizes; z++) {
		char *label;
		struct trow *r;

		for (size_t c = 0; c < ncols; c++) {
			unsigned long k = 0, n = 0;

			for (size_t i = 0; i < cols[c].ds->nallocs; i++) {
				const struct ds_alloc *a = &cols[c].ds->allocs[i];

				if (a->pages != sizes[z] || !col_run(&cols[c], a->run))
					continue;
				n++;
				k += a->success;
				if (a->retries != DS_NONE)
					dv_add(&rs[c], (double)a->retries);
			}
			v[c] = n ? 100.0 * k / n : NAN;
			stats_wilson(k, n, REPORT_ALPHA, &lo[c], &hi[c]);
			/* significant: the 95% Wilson intervals do not overlap */
			sig[c] = c && n && !isnan(v[0]) && (lo[c] > hi[0] || hi[c] < lo[0]);
		}
		label = xasprintf("%lld pages: success %%", sizes[z]);
		metric_row(&t, label, "higher", 2, v, sig);
		free(label);
		label = xasprintf("%lld pages: success 95%% CI", sizes[z]);
		r = text_row(&t, label);
		free(label);
		for (size_t c = 0; c < ncols; c++)
			if (!isnan(v[c]))
				set_cell(r, c, xasprintf("[%.2f, %.2f]", 100 * lo[c], 100 * hi[c]));
		for (size_t c = 0; c < ncols; c++)
			v[c] = dv_mean(&rs[c]);
		compare_samples(rs, ncols, sig, p);
		label = xasprintf("%lld pages: busy retries/alloc", sizes[z]);
		metric_row(&t, label, "lower", 3, v, sig);
		free(label);
		for (size_t c = 0; c < ncols; c++) {
			double mx = NAN;

			for (size_t i = 0; i < rs[c].n; i++)
				if (isnan(mx) || rs[c].v[i] > mx)
					mx = rs[c].v[i];
			v[c] = mx;
			dv_free(&rs[c]);
		}
		label = xasprintf("%lld pages: busy retries max", sizes[z]);
		metric_row(&t, label, "lower", 0, v, NULL);
		free(label);
	}
	emit(&t, txt, md);
	free(v);
	free(lo);
	free(hi);
	free(p);
	free(sig);
	free(rs);
}

/* fio: one value per repetition; the mean is shown, the test runs over repetitions. */
struct fio_metric {
	const char *label, *better;
	int prec;
	double scale;
	int which;
};

static double fio_value(const struct ds_fio *f, int which)
{
	long long v;

	switch (which) {
	case 0: return f->read_iops;
	case 1: return f->read_bw;
	case 2: v = f->read_p50; break;
	case 3: v = f->read_p99; break;
	case 4: return f->write_iops;
	case 5: return f->write_bw;
	case 6: v = f->write_p50; break;
	default: v = f->write_p99; break;
	}
	return v == DS_NONE ? NAN : (double)v;
}

static void fio_tables(const struct report_col *cols, size_t ncols, struct strbuf *txt,
		       struct strbuf *md)
{
	static const struct fio_metric m[] = {
		{ "read iops", "higher", 1, 1, 0 },
		{ "read bandwidth (MiB/s)", "higher", 2, 1.0 / 1048576, 1 },
		{ "read clat p50 (us)", "lower", 2, 1e-3, 2 },
		{ "read clat p99 (us)", "lower", 2, 1e-3, 3 },
		{ "write iops", "higher", 1, 1, 4 },
		{ "write bandwidth (MiB/s)", "higher", 2, 1.0 / 1048576, 5 },
		{ "write clat p50 (us)", "lower", 2, 1e-3, 6 },
		{ "write clat p99 (us)", "lower", 2, 1e-3, 7 },
	};
	struct strlist jobs = { 0 };
	double *v = xcalloc(ncols, sizeof(*v)), *p = xcalloc(ncols, sizeof(*p));
	bool *sig = xcalloc(ncols, sizeof(*sig));
	struct dvec *s = xcalloc(ncols, sizeof(*s));

	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].ds->nfios; i++) {
			const struct ds_fio *f = &cols[c].ds->fios[i];
			char *key = xasprintf("%s", f->job);

			if (col_run(&cols[c], f->run) && !sl_has(&jobs, key))
				sl_add(&jobs, key);
			free(key);
		}
	for (size_t j = 0; j < jobs.n; j++) {
		struct table t;
		char *title = xasprintf("fio job %s (mean of repetitions)", jobs.v[j]);
		struct trow *r;

		table_init(&t, cols, ncols, title);
		free(title);
		r = text_row(&t, "n");
		for (size_t c = 0; c < ncols; c++) {
			size_t n = 0;

			for (size_t i = 0; i < cols[c].ds->nfios; i++)
				n += col_run(&cols[c], cols[c].ds->fios[i].run) &&
				     !strcmp(cols[c].ds->fios[i].job, jobs.v[j]) &&
				     !cols[c].ds->fios[i].flags[0];
			set_cell(r, c, xasprintf("%zu", n));
		}
		for (size_t k = 0; k < ARRAY_SIZE(m); k++) {
			bool any = false;

			for (size_t c = 0; c < ncols; c++) {
				for (size_t i = 0; i < cols[c].ds->nfios; i++) {
					const struct ds_fio *f = &cols[c].ds->fios[i];
					double x = fio_value(f, m[k].which);

					if (col_run(&cols[c], f->run) && !strcmp(f->job, jobs.v[j]) &&
					    !f->flags[0] && !isnan(x))
						dv_add(&s[c], x * m[k].scale);
				}
				v[c] = dv_mean(&s[c]);
				any |= !isnan(v[c]) && v[c] != 0;
			}
			compare_samples(s, ncols, sig, p);
			if (any)
				metric_row(&t, m[k].label, m[k].better, m[k].prec, v, sig);
			for (size_t c = 0; c < ncols; c++)
				dv_free(&s[c]);
		}
		emit(&t, txt, md);
	}
	sl_free(&jobs);
	free(v);
	free(p);
	free(sig);
	free(s);
}

/* The first of names that source has in run; its delta (and after value). */
static bool counter_any(const struct dataset *ds, size_t run, const char *source,
			const char *const *names, long long *delta, long long *after)
{
	for (size_t i = 0; names[i]; i++)
		if (ds_counter_delta(ds, run, source, names[i], delta, after))
			return true;
	return false;
}

/* A per-run value: NAN when the run does not have it. */
typedef double (*run_value_fn)(const struct dataset *ds, size_t run, const void *arg);

struct counter_ref {
	const char *source, *name;
};

static double counter_delta_value(const struct dataset *ds, size_t run, const void *arg)
{
	const struct counter_ref *c = arg;
	long long d;

	return ds_counter_delta(ds, run, c->source, c->name, &d, NULL) ? (double)d : NAN;
}

/* The names kernel-patches/ gives the files in /sys/kernel/debug/cleancache/. */
static const char *const cc_hits[] = { "hits", NULL };
static const char *const cc_misses[] = { "misses", NULL };
static const char *const cc_stored[] = { "cached_pages", NULL };
static const char *const cc_pool[] = { "pool_pages", NULL };

static double cleancache_hit_rate(const struct dataset *ds, size_t run, const void *arg)
{
	long long h, m;

	(void)arg;
	if (!counter_any(ds, run, "cleancache", cc_hits, &h, NULL) ||
	    !counter_any(ds, run, "cleancache", cc_misses, &m, NULL) || h + m <= 0)
		return NAN;
	return 100.0 * h / (h + m);
}

static double cleancache_occupancy(const struct dataset *ds, size_t run, const void *arg)
{
	long long a;

	(void)arg;
	return counter_any(ds, run, "cleancache", cc_stored, NULL, &a) ? (double)a : NAN;
}

/* Share of the donated pool holding cached data at the end (LSF/MM 2025 quoted ~40%). */
static double cleancache_occupancy_pct(const struct dataset *ds, size_t run, const void *arg)
{
	long long a, pool;

	(void)arg;
	if (!counter_any(ds, run, "cleancache", cc_stored, NULL, &a) ||
	    !counter_any(ds, run, "cleancache", cc_pool, NULL, &pool) || pool <= 0)
		return NAN;
	return 100.0 * a / pool;
}

/* One row of per-run values, mean over the column's ok runs; false if no column has any. */
static bool run_metric_row(struct table *t, const char *label, const char *better,
			   int prec, run_value_fn fn, const void *arg)
{
	size_t ncols = t->ncols;
	double *v = xcalloc(ncols, sizeof(*v)), *p = xcalloc(ncols, sizeof(*p));
	bool *sig = xcalloc(ncols, sizeof(*sig)), any = false;
	struct dvec *s = xcalloc(ncols, sizeof(*s));

	for (size_t c = 0; c < ncols; c++) {
		const struct dataset *ds = t->cols[c].ds;

		for (size_t run = 0; run < ds->nruns; run++) {
			double x;

			if (!col_run(&t->cols[c], run))
				continue;
			x = fn(ds, run, arg);
			if (!isnan(x))
				dv_add(&s[c], x);
		}
		v[c] = dv_mean(&s[c]);
		any |= s[c].n > 0;
	}
	compare_samples(s, ncols, sig, p);
	if (any)
		metric_row(t, label, better, prec, v, sig);
	for (size_t c = 0; c < ncols; c++)
		dv_free(&s[c]);
	free(s);
	free(v);
	free(p);
	free(sig);
	return any;
}

/*
 * One row per (source, name) under a source prefix that any column has
 * (every CMA area's counters, every background's perf events), labelled
 * "<label><source without prefix> <name>"; false if none had a value.
 */
static bool source_rows(struct table *t, const char *prefix, const char *label, int prec)
{
	struct strlist rows = { 0 };
	size_t plen = strlen(prefix);
	bool any = false;

	for (size_t c = 0; c < t->ncols; c++)
		for (size_t i = 0; i < t->cols[c].ds->ncounters; i++) {
			const struct ds_counter *k = &t->cols[c].ds->counters[i];
			char *key;

			/* sys-cma/<area>/gcma is a flag, not a counter: no delta */
			if (strncmp(k->source, prefix, plen) || !col_run(&t->cols[c], k->run) ||
			    !strcmp(k->name, "gcma"))
				continue;
			key = xasprintf("%s\t%s", k->source, k->name);
			if (!sl_has(&rows, key))
				sl_add(&rows, key);
			free(key);
		}
	for (size_t i = 0; i < rows.n; i++) {
		char *src = xstrdup(rows.v[i]), *name = strchr(src, '\t'), *lab;
		struct counter_ref ref;

		*name++ = '\0';
		ref = (struct counter_ref){ src, name };
		lab = xasprintf("%s%s %s", label, src + plen, name);
		any |= run_metric_row(t, lab, strstr(name, "fail") ? "lower" : "", prec,
				      counter_delta_value, &ref);
		free(lab);
		free(src);
	}
	sl_free(&rows);
	return any;
}

/* Counters: CMA sysfs, vmstat, and cleancache hit rate and occupancy. */
static void counter_table(const struct report_col *cols, size_t ncols, struct strbuf *txt,
			  struct strbuf *md)
{
	static const struct { struct counter_ref ref; const char *better; } plain[] = {
		{ { "vmstat", "cma_alloc_success" }, "" },
		{ { "vmstat", "cma_alloc_fail" }, "lower" },
		{ { "vmstat", "pgmigrate_success" }, "" },
		{ { "vmstat", "pgmigrate_fail" }, "lower" },
		{ { "vmstat", "compact_stall" }, "lower" },
		{ { "vmstat", "workingset_refault_file" }, "lower" },
	};
	struct table t;

	table_init(&t, cols, ncols, "counters (delta over the run, mean of repetitions)");
	source_rows(&t, "sys-cma/", "cma ", 1);
	for (size_t i = 0; i < ARRAY_SIZE(plain); i++) {
		char *label = xasprintf("%s %s", plain[i].ref.source, plain[i].ref.name);

		run_metric_row(&t, label, plain[i].better, 1, counter_delta_value, &plain[i].ref);
		free(label);
	}
	run_metric_row(&t, "cleancache hit rate %", "higher", 2, cleancache_hit_rate, NULL);
	run_metric_row(&t, "cleancache occupancy (pages, at end)", "", 1,
		       cleancache_occupancy, NULL);
	run_metric_row(&t, "cleancache occupancy (% of pool, at end)", "", 1,
		       cleancache_occupancy_pct, NULL);
	emit(&t, txt, md);
}

/* perf stat around each background and fio job: every (workload, event) a column has. */
static void perf_table(const struct report_col *cols, size_t ncols, struct strbuf *txt,
		       struct strbuf *md)
{
	struct table t;

	table_init(&t, cols, ncols, "perf stat of the workloads (mean of repetitions)");
	if (source_rows(&t, "perf/", "", 0))
		emit(&t, txt, md);
	else
		table_free(&t);
}

void report_tables(const struct report_col *cols, size_t ncols, struct strbuf *txt,
		   struct strbuf *md)
{
	long long *sizes;
	size_t nsizes = all_sizes(cols, ncols, &sizes);

	for (size_t z = 0; z < nsizes; z++) {
		latency_tables(cols, ncols, sizes[z], USER, txt, md);
		latency_tables(cols, ncols, sizes[z], KERNEL, txt, md);
	}
	burst_table(cols, ncols, txt, md);
	job_tables(cols, ncols, txt, md);
	if (nsizes)
		success_table(cols, ncols, sizes, nsizes, txt, md);
	fio_tables(cols, ncols, txt, md);
	counter_table(cols, ncols, txt, md);
	perf_table(cols, ncols, txt, md);
	free(sizes);
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

static void sections_summary(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	if (md)
		sb_add(md, "| section | set-up | kernel | runs ok / all |\n|---|---|---|---:|\n");
	if (txt)
		sb_addf(txt, "  %-20s %-10s %-10s %s\n", "section", "set-up", "kernel", "runs ok/all");
	for (size_t s = 0; s < ds->sections.n; s++) {
		const char *setup = "?", *kernel = "?";
		size_t ok = 0, all = 0;

		for (size_t i = 0; i < ds->nruns; i++) {
			const struct ds_run *r = &ds->runs[i];

			if (strcmp(r->section, ds->sections.v[s]))
				continue;
			setup = r->setup;
			kernel = r->kernel;
			all++;
			ok += ds_run_ok(r);
		}
		if (txt)
			sb_addf(txt, "  %-20s %-10s %-10s %zu/%zu\n", ds->sections.v[s], setup, kernel,
				ok, all);
		if (md)
			sb_addf(md, "| %s | %s | %s | %zu / %zu |\n", ds->sections.v[s], setup, kernel,
				ok, all);
	}
	if (txt)
		sb_add(txt, "\n");
	if (md)
		sb_add(md, "\n");
}

static const char legend[] =
	"Columns: the baseline first (--baseline, else the first section that made\n"
	"allocations, else the first section); others as value (+x.xx%), the change against the\n"
	"baseline; *+x.xx%* marks a difference significant at p < 0.05 (Mann-Whitney U,\n"
	"normal approximation with tie correction, for p50/mean and per-repetition\n"
	"metrics; non-overlapping Wilson 95% intervals for success rates). 'better'\n"
	"says which direction is an improvement. Percentiles: linear interpolation\n"
	"(type 7). Latencies: successful allocations of runs whose status is ok.\n"
	"p50 ratio: median / baseline median, bootstrap 95% CI (2000 resamples, fixed seed).\n\n";

void report_dataset(const struct dataset *ds, const char *baseline, struct strbuf *txt,
		    struct strbuf *md)
{
	size_t n = ds->sections.n, b = 0;
	struct report_col *cols = xcalloc(n ? n : 1, sizeof(*cols));

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
	report_tables(cols, n, txt, md);
	report_problems(ds, txt, md);
	free(cols);
}

size_t report_count_significant(const char *text)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, " *")); p += 2)
		if ((p[2] == '+' || p[2] == '-') && strchr(p + 2, '*') &&
		    strcspn(p + 2, "*") < strcspn(p + 2, "\n"))
			n++;
	return n;
}

/* ---- data for the plots/ scripts -------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * plot-vars.gp: sections, sizes, latency_sets, have_fio as gnuplot variables;
 * plot-latency-<side>-<pages>.dat: one block per section (separated by two
 *   blank lines, for "index"): latency_us cumulative_fraction;
 * plot-bars-<side>.dat: size section min p50 max mean n;
 * plot-fio.dat: section job read_iops_mean min max read_MiBs write_iops;
 * plot-bursts.dat: one block per section with bursts: latency_ms fraction.
 */
int report_plot_data(const struct dataset *ds, const char *outdir)
{
	size_t n = ds->sections.n;
	struct report_col *cols = xcalloc(n ? n : 1, sizeof(*cols));
	struct strbuf vars, bars[2], fio, cdfs;
	long long *sizes;
	size_t nsizes;
	int ret = 0;
	static const char *const side_name[2] = { "user", "kernel" };

	for (size_t s = 0; s < n; s++)
		cols[s] = (struct report_col){ ds->sections.v[s], ds, ds->sections.v[s] };
	nsizes = all_sizes(cols, n, &sizes);
	sb_init(&vars);
	sb_add(&vars, "# generated by cmabench report\nsections = \"");
	for (size_t s = 0; s < n; s++)
		sb_addf(&vars, "%s%s", s ? " " : "", ds->sections.v[s]);
	sb_addf(&vars, "\"\nnsections = %zu\nsizes = \"", n);
	for (size_t z = 0; z < nsizes; z++)
		sb_addf(&vars, "%s%lld", z ? " " : "", sizes[z]);
	sb_addf(&vars, "\"\nrun_id = \"%s\"\n", ds->run_id);
	sb_init(&cdfs);
	for (int side = 0; side < 2; side++) {
		sb_init(&bars[side]);
		sb_add(&bars[side], "# pages section min_us p50_us max_us mean_us n\n");
	}
	for (size_t z = 0; z < nsizes; z++)
		for (int side = 0; side < 2; side++) {
			struct strbuf cdf;
			char *name;
			size_t total = 0;

			sb_init(&cdf);
			sb_addf(&cdf, "# %s-side latency of %lld-page allocations: latency_us fraction\n"
				"# one block per section that has samples (secs_%s_%lld in plot-vars.gp)\n",
				side_name[side], sizes[z], side_name[side], sizes[z]);
			sb_addf(&vars, "secs_%s_%lld = \"", side_name[side], sizes[z]);
			for (size_t s = 0; s < n; s++) {
				struct dvec d = { 0 };
				struct summary sm;

				alloc_samples(&cols[s], sizes[z], side ? KERNEL : USER, &d);
				if (!d.n)
					continue;
				qsort(d.v, d.n, sizeof(*d.v), cmp_double);
				sb_addf(&cdf, "%s# section %s\n", total ? "\n\n" : "", cols[s].section);
				sb_addf(&vars, "%s%s", total ? " " : "", cols[s].section);
				total += d.n;
				for (size_t i = 0; i < d.n; i++)
					sb_addf(&cdf, "%.3f %.6f\n", d.v[i], (i + 1.0) / d.n);
				stats_summary(d.v, d.n, &sm);
				sb_addf(&bars[side], "%lld %s %.3f %.3f %.3f %.3f %zu\n", sizes[z],
					cols[s].section, sm.min, sm.p50, sm.max, sm.mean, sm.n);
				dv_free(&d);
			}
			sb_add(&vars, "\"\n");
			if (total)
				sb_addf(&cdfs, "%s%s-%lld", cdfs.len ? " " : "", side_name[side], sizes[z]);
			name = xasprintf("plot-latency-%s-%lld.dat", side_name[side], sizes[z]);
			ret |= write_text(outdir, name, sb_detach(&cdf));
			free(name);
		}
	ret |= write_text(outdir, "plot-bars-user.dat", sb_detach(&bars[0]));
	ret |= write_text(outdir, "plot-bars-kernel.dat", sb_detach(&bars[1]));

	sb_init(&fio);
	sb_add(&fio, "# section job read_iops_mean read_iops_min read_iops_max read_MiBs_mean "
	       "write_iops_mean write_MiBs_mean n\n");
	for (size_t s = 0; s < n; s++) {
		struct strlist jobs = { 0 };

		for (size_t i = 0; i < ds->nfios; i++)
			if (col_run(&cols[s], ds->fios[i].run) && !sl_has(&jobs, ds->fios[i].job))
				sl_add(&jobs, ds->fios[i].job);
		for (size_t j = 0; j < jobs.n; j++) {
			struct dvec ri = { 0 }, rb = { 0 }, wi = { 0 }, wb = { 0 };
			struct summary sm;

			for (size_t i = 0; i < ds->nfios; i++) {
				const struct ds_fio *f = &ds->fios[i];

				if (!col_run(&cols[s], f->run) || strcmp(f->job, jobs.v[j]) || f->flags[0])
					continue;
				dv_add(&ri, f->read_iops);
				dv_add(&rb, f->read_bw / 1048576);
				dv_add(&wi, f->write_iops);
				dv_add(&wb, f->write_bw / 1048576);
			}
			stats_summary(ri.v, ri.n, &sm);
			if (ri.n)
				sb_addf(&fio, "%s %s %.3f %.3f %.3f %.3f %.3f %.3f %zu\n", cols[s].section,
					jobs.v[j], sm.mean, sm.min, sm.max, dv_mean(&rb), dv_mean(&wi),
					dv_mean(&wb), ri.n);
			dv_free(&ri);
			dv_free(&rb);
			dv_free(&wi);
			dv_free(&wb);
		}
		sl_free(&jobs);
	}
	{
		/* plot-bursts.dat: one block per section with bursts, like the CDFs above */
		struct strbuf b;
		size_t blocks = 0;

		sb_init(&b);
		sb_add(&b, "# burst latency (first start to last end): latency_ms fraction\n"
		       "# one block per section with bursts (burst_sections in plot-vars.gp)\n");
		sb_add(&vars, "burst_sections = \"");
		for (size_t s = 0; s < n; s++) {
			struct dvec d = { 0 };
			size_t failed = 0;

			burst_samples(&cols[s], &d, &failed);
			if (d.n) {
				qsort(d.v, d.n, sizeof(*d.v), cmp_double);
				sb_addf(&b, "%s# section %s\n", blocks ? "\n\n" : "", cols[s].section);
				sb_addf(&vars, "%s%s", blocks++ ? " " : "", cols[s].section);
				for (size_t i = 0; i < d.n; i++)
					sb_addf(&b, "%.3f %.6f\n", d.v[i] / 1000.0, (i + 1.0) / d.n);
			}
			dv_free(&d);
		}
		sb_add(&vars, "\"\n");
		ret |= write_text(outdir, "plot-bursts.dat", sb_detach(&b));
	}
	sb_addf(&vars, "# <side>-<pages> of the plot-latency-*.dat files that have samples\n"
		"latency_sets = \"%s\"\nhave_fio = %d\n", cdfs.buf, strchr(fio.buf, '\n')[1] != '\0');
	sb_free(&cdfs);
	ret |= write_text(outdir, "plot-fio.dat", sb_detach(&fio));
	ret |= write_text(outdir, "plot-vars.gp", sb_detach(&vars));
	free(sizes);
	free(cols);
	return ret;
}
