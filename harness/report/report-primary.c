/*
 * The primary comparisons a scenario declares (scenario.h, key "primary"):
 * each tested exactly on the runs' values of its row (Mann-Whitney), with
 * the Hodges-Lehmann estimate of the shift (or, for times and rates, of
 * the log-ratio) and its exact interval, the p-values adjusted over the
 * primaries only. The tables' own cell of a primary then shows the
 * primary's q; every other test is the secondary family (report-table.c).
 */
#include "report/report-internal.h"
#include "scenario/scenario.h"

/* Where the shipped scenario files are (report_set_scenario_dir); NULL: unknown. */
static char scenario_dir_buf[4096];
static const char *scenario_dir;

void report_set_scenario_dir(const char *dir)
{
	scenario_dir = NULL;
	if (dir && strlen(dir) < sizeof(scenario_dir_buf)) {
		strcpy(scenario_dir_buf, dir);
		scenario_dir = scenario_dir_buf;
	}
}

/*
 * Runs made before the key existed carry no primaries in their metadata:
 * the scenario file of the same name shipped now may declare them (the
 * report then says so: declared after the runs, not before).
 */
static char *shipped_primary(const struct dataset *ds, char **from)
{
	const char *name = ds->nruns ? ds->runs[0].scenario : NULL;
	struct scenario scn;
	struct strbuf errs = { 0 };
	struct scn_ctx ctx;
	char *path, *fio, *scripts, *p = NULL;

	if (!scenario_dir || !name || !strcmp(name, "?"))
		return NULL;
	path = xasprintf("%s/%s.scn", scenario_dir, name);
	fio = xasprintf("%s/../fio", scenario_dir);
	scripts = xasprintf("%s/../guest/scripts", scenario_dir);
	ctx = (struct scn_ctx){ fio, scripts };
	if (path_exists(path) && !scenario_load(path, &ctx, &scn, &errs) && scn.nruns &&
	    scn.runs[0].primary) {
		p = xstrdup(scn.runs[0].primary);
		*from = xasprintf("workloads/scenarios/%s.scn (after these runs were made: their metadata has no primaries)",
				  name);
	}
	if (path_exists(path))
		scenario_free(&scn);
	sb_free(&errs);
	free(path);
	free(fio);
	free(scripts);
	return p;
}

static const struct endpoint *find_ep(const struct tables *ts, const char *key, const char *col)
{
	for (size_t i = 0; i < ts->nep; i++)
		if (!strcmp(ts->ep[i].key, key) && !strcmp(ts->ep[i].col, col))
			return &ts->ep[i];
	return NULL;
}

static double median(const double *v, size_t n)
{
	struct summary s;

	stats_summary(v, n, &s);
	return s.p50;
}

static bool all_positive(const struct endpoint *e)
{
	for (size_t i = 0; i < e->n; i++)
		if (!(e->v[i] > 0))
			return false;
	return true;
}

static void test_primary(struct tables *ts, const struct primary *p, struct primary_outcome *r)
{
	const struct endpoint *a, *b;
	struct mann_whitney mw;
	double alo = INFINITY, ahi = -INFINITY, blo = INFINITY, bhi = -INFINITY;

	memset(r, 0, sizeof(*r));
	r->p = p;
	r->key = primary_key(p);
	r->ma = r->mb = r->p_value = NAN;
	r->hl.est = r->hl.lo = r->hl.hi = NAN;
	r->test = -1;
	a = find_ep(ts, r->key, p->a);
	b = find_ep(ts, r->key, p->b);
	if (a) {
		r->ma = median(a->v, a->n);
		r->na = a->n;
		r->lower_a = a->lower;
	}
	if (b) {
		r->mb = median(b->v, b->n);
		r->nb = b->n;
		r->lower_b = b->lower;
	}
	if (!a || !b) {
		r->why = !a && !b ? "neither section has the value"
				  : !a ? "the first section has no value" : "the second has no value";
		return;
	}
	if (stats_one_value(a->v, a->n, b->v, b->n)) {
		r->why = "every run of both has the same value: nothing to test";
		return;
	}
	r->ratio = p->ratio && all_positive(a) && all_positive(b);
	if (r->ratio) {
		double *la = xmalloc(a->n * sizeof(*la)), *lb = xmalloc(b->n * sizeof(*lb));

		for (size_t i = 0; i < a->n; i++)
			la[i] = log(a->v[i]);
		for (size_t i = 0; i < b->n; i++)
			lb[i] = log(b->v[i]);
		stats_hodges_lehmann(la, a->n, lb, b->n, REPORT_ALPHA, &r->hl);
		r->hl.est = exp(r->hl.est);
		r->hl.lo = exp(r->hl.lo);
		r->hl.hi = exp(r->hl.hi);
		free(la);
		free(lb);
	} else {
		stats_hodges_lehmann(a->v, a->n, b->v, b->n, REPORT_ALPHA, &r->hl);
	}
	stats_mann_whitney(a->v, a->n, b->v, b->n, &mw);
	r->p_value = mw.p;
	for (size_t i = 0; i < a->n; i++) {
		alo = fmin(alo, a->v[i]);
		ahi = fmax(ahi, a->v[i]);
	}
	for (size_t i = 0; i < b->n; i++) {
		blo = fmin(blo, b->v[i]);
		bhi = fmax(bhi, b->v[i]);
	}
	r->test = tests_add_primary(&ts->tests, mw.p,
				    !((alo <= blo && bhi <= ahi) || (blo <= alo && ahi <= bhi)));
	/* the tables' cell of this comparison carries the primary's test */
	for (size_t i = 0; i < ts->nrefs; i++) {
		const struct cellref *c = &ts->refs[i];
		struct table *t = &ts->v[c->table];
		struct tcell *cell = &t->rows[c->row].cells[c->col];
		const char *base = t->cols[0].label, *col = t->cols[c->col].label;

		if (strcmp(c->key, r->key) || cell->test < 0 ||
		    !((!strcmp(base, p->a) && !strcmp(col, p->b)) ||
		      (!strcmp(base, p->b) && !strcmp(col, p->a))))
			continue;
		ts->tests.p[cell->test] = NAN; /* out of the secondary family */
		cell->test = r->test;
	}
}

static char *num(double v)
{
	if (isnan(v))
		return xstrdup("n/a");
	return fabs(v) >= 1e4 ? xasprintf("%.0f", v) : xasprintf("%.4g", v);
}

/* One row's cells: comparison, A, B, estimate, interval, p, q, verdict. */
static void prim_cells(const struct tables *ts, const struct primary_outcome *r, char *cell[8])
{
	double q = r->test >= 0 ? ts->tests.q[r->test] : NAN;

	cell[0] = r->p->pages ? xasprintf("%s, %ld pages: %s / %s", r->p->metric, r->p->pages,
					  r->p->b, r->p->a)
			      : xasprintf("%s: %s / %s", r->p->metric, r->p->b, r->p->a);
	{
		char *x = num(r->ma), *y = num(r->mb);

		cell[1] = r->na ? xasprintf("%s%s (%zu)", r->lower_a ? "> " : "", x, r->na)
				: xstrdup("n/a");
		cell[2] = r->nb ? xasprintf("%s%s (%zu)", r->lower_b ? "> " : "", y, r->nb)
				: xstrdup("n/a");
		free(x);
		free(y);
	}
	if (r->test < 0) {
		for (int i = 3; i < 7; i++)
			cell[i] = xstrdup("n/a");
		cell[7] = xasprintf("not tested: %s", r->why);
		return;
	}
	/*
	 * Censored values are lower bounds: with A's censored, B / A and B - A
	 * can only be smaller than computed; with B's, larger; with both, no
	 * direction is known.
	 */
	const char *bound = r->lower_a && r->lower_b ? "? " : r->lower_a ? "< " : r->lower_b ? "> " : "";

	if (r->ratio) {
		cell[3] = xasprintf("%sx%.4g", bound, r->hl.est);
		cell[4] = xasprintf("x%.4g to x%.4g (%.1f%%)", r->hl.lo, r->hl.hi, 100 * r->hl.conf);
	} else {
		cell[3] = xasprintf("%s%+.4g", bound, r->hl.est);
		cell[4] = xasprintf("%+.4g to %+.4g (%.1f%%)", r->hl.lo, r->hl.hi, 100 * r->hl.conf);
	}
	cell[5] = xasprintf("%.4f", r->p_value);
	cell[6] = xasprintf("%.4f", q);
	/* too few runs: say so rather than "not significant" */
	if (stats_mw_smallest_p(r->na, r->nb) >= REPORT_ALPHA) {
		cell[7] = xasprintf("too few runs: %zu against %zu can give no p below %.3f",
				    r->na, r->nb, stats_mw_smallest_p(r->na, r->nb));
		return;
	}
	cell[7] = xasprintf("%s%s", q < REPORT_ALPHA ? (r->ratio ? (r->hl.est < 1 ? "significant: B lower"
								       : "significant: B higher")
						       : (r->hl.est < 0 ? "significant: B lower"
									: "significant: B higher"))
					   : "not significant",
			    r->lower_a || r->lower_b ? "; requests timed out: a \"> x\" median is a lower bound, "
			    "the estimate a bound (< or >)" : "");
}

static const char prim_legend[] =
	"Each primary compares the runs' values of its row (the row the tables below show for "
	"the metric) of set-up B against set-up A: the medians of the runs (n), the "
	"Hodges-Lehmann estimate of B / A (the median of the pairwise ratios; B - A for "
	"percentages) with its exact confidence interval from the order statistics of the "
	"pairwise differences (Moses; the level it reaches, 95% or just above), the exact "
	"Mann-Whitney p (two-sided), and q, adjusted over the primaries only "
	"(Benjamini-Hochberg).";

/*
 * Registers the primaries' tests with ts (its tables built, not yet
 * adjusted) and adjusts them; the outcomes, one per primary.
 */
struct primary_outcome *report_primaries_test(const struct dataset *ds,
					      const struct report_col *cols, size_t ncols,
					      struct tables *ts, struct primaries *ps, char **from)
{
	struct primary_outcome *res;
	long long *sizes;
	long *lsizes;
	size_t nsizes = all_sizes(cols, ncols, "", &sizes);
	const char *why = NULL;
	char *text;

	*from = NULL;
	text = ds->primary ? xstrdup(ds->primary) : shipped_primary(ds, from);
	if (ds->primary)
		*from = xstrdup(ds->primary_from ? ds->primary_from : "metadata.json");
	memset(ps, 0, sizeof(*ps));
	lsizes = xcalloc(nsizes + 1, sizeof(*lsizes));
	for (size_t i = 0; i < nsizes; i++)
		lsizes[i] = (long)sizes[i];
	free(sizes);
	if (text && primaries_parse(text, lsizes, nsizes, ps, &why)) {
		err_msg("%s: primary '%s' %s", ds->run_id, text, why);
		memset(ps, 0, sizeof(*ps));
	}
	free(text);
	free(lsizes);
	res = xcalloc(ps->n + 1, sizeof(*res));
	for (size_t i = 0; i < ps->n; i++)
		test_primary(ts, &ps->v[i], &res[i]);
	tests_adjust(&ts->tests);
	for (size_t i = 0; i < ps->n; i++)
		res[i].q = res[i].test >= 0 ? ts->tests.q[res[i].test] : NAN;
	return res;
}

void report_primaries_free(struct primary_outcome *res, struct primaries *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(res[i].key);
	free(res);
	primaries_free(ps);
}

static void primaries_render(const struct tables *ts, const struct primaries *ps,
			     struct primary_outcome *res, const char *from, struct strbuf *txt,
			     struct strbuf *md)
{
	static const char *const head[8] = { "comparison (B / A)", "A: median (runs)",
					     "B: median (runs)", "B vs A (Hodges-Lehmann)",
					     "95% interval (exact, level reached)", "p (exact)",
					     "q (primaries)", "verdict" };

	if (md) {
		sb_add(md, "## Primary comparisons\n\n");
		if (!ps->n)
			sb_add(md, "The scenario declares none (key `primary`): every test below is "
			       "secondary.\n\n");
		else {
			sb_addf(md, "Declared in %s. %s Every table after this one is the secondary "
				"family: its tests are adjusted together, apart from these; a primary's "
				"own cell there carries this q and says `primary`.\n\n", from,
				prim_legend);
			sb_add(md, "|");
			for (int i = 0; i < 8; i++)
				sb_addf(md, " %s |", head[i]);
			sb_add(md, "\n|---|---:|---:|---:|---:|---:|---:|---|\n");
		}
	}
	if (txt) {
		sb_add(txt, "primary comparisons");
		if (!ps->n)
			sb_add(txt, ": none declared (every test is secondary)\n\n");
		else
			sb_addf(txt, " (declared in %s; q over the primaries only)\n", from);
	}
	for (size_t i = 0; i < ps->n; i++) {
		char *cell[8];

		prim_cells(ts, &res[i], cell);
		if (md) {
			sb_add(md, "|");
			for (int k = 0; k < 8; k++)
				sb_addf(md, " %s |", cell[k]);
			sb_add(md, "\n");
		}
		if (txt)
			sb_addf(txt, "  %s: A %s, B %s, %s [%s], p %s, q %s, %s\n", cell[0], cell[1],
				cell[2], cell[3], cell[4], cell[5], cell[6], cell[7]);
		for (int k = 0; k < 8; k++)
			free(cell[k]);
	}
	if (md && ps->n)
		sb_add(md, "\n");
	if (txt && ps->n)
		sb_add(txt, "\n");
}

void report_primaries(const struct dataset *ds, const struct report_col *cols, size_t ncols,
		      struct tables *ts, struct strbuf *txt, struct strbuf *md)
{
	struct primaries ps;
	char *from;
	struct primary_outcome *res = report_primaries_test(ds, cols, ncols, ts, &ps, &from);

	primaries_render(ts, &ps, res, from, txt, md);
	report_primaries_free(res, &ps);
	free(from);
}

struct primary_outcome *report_primaries_of(const struct dataset *ds, const char *text,
					    struct primaries *ps)
{
	size_t n = ds->sections.n;
	struct report_col *cols = xcalloc(n ? n : 1, sizeof(*cols));
	struct tables ts = { 0 };
	struct primary_outcome *res;
	long long *sizes;
	long *lsizes;
	size_t nsizes;
	const char *why = NULL;

	for (size_t s = 0; s < n; s++)
		cols[s] = (struct report_col){ ds->sections.v[s], ds, ds->sections.v[s] };
	report_tables(cols, n, &ts);
	nsizes = all_sizes(cols, n, "", &sizes);
	lsizes = xcalloc(nsizes + 1, sizeof(*lsizes));
	for (size_t i = 0; i < nsizes; i++)
		lsizes[i] = (long)sizes[i];
	free(sizes);
	if (primaries_parse(text, lsizes, nsizes, ps, &why))
		memset(ps, 0, sizeof(*ps));
	free(lsizes);
	res = xcalloc(ps->n + 1, sizeof(*res));
	for (size_t i = 0; i < ps->n; i++)
		test_primary(&ts, &ps->v[i], &res[i]);
	tests_adjust(&ts.tests);
	for (size_t i = 0; i < ps->n; i++)
		res[i].q = res[i].test >= 0 ? ts.tests.q[res[i].test] : NAN;
	tables_free(&ts);
	free(cols);
	return res;
}

/*
 * compare --equivalence: for each section both data sets have and each
 * metric of the primaries that section takes part in, B's runs against
 * A's: the Hodges-Lehmann ratio B / A (the shift over A's median for
 * percentages) with its exact 95% interval; equivalent when the whole
 * interval lies within 1 +- margin (two one-sided tests at 2.5% each, the
 * interval's form). Returns how many were tested; *all_equivalent whether
 * every one was, with at least min_runs runs per arm.
 */
size_t report_equivalence(const struct dataset *a, const struct dataset *b, double margin,
			  size_t min_runs, struct strbuf *txt, struct strbuf *md, bool *all_equivalent)
{
	struct primaries ps = { 0 };
	char *from = NULL, *text;
	const char *why = NULL;
	size_t tested = 0;

	*all_equivalent = true;
	text = a->primary ? xstrdup(a->primary) : shipped_primary(a, &from);
	if (!text || primaries_parse(text, NULL, 0, &ps, &why)) {
		/* @all needs the sizes: parse again with them below */
		memset(&ps, 0, sizeof(ps));
	}
	if (md)
		sb_addf(md, "## Equivalence, B against A (margin +-%.0f%%)\n\n"
			"| section | metric | A: median (runs) | B: median (runs) | B vs A "
			"(Hodges-Lehmann) | 95%% interval | equivalent |\n"
			"|---|---|---:|---:|---:|---:|---|\n", margin * 100);
	if (txt)
		sb_addf(txt, "equivalence, B against A (margin +-%.0f%%)\n", margin * 100);
	for (size_t s = 0; text && s < a->sections.n; s++) {
		const char *sec = a->sections.v[s];
		struct report_col cols[2] = { { "A", a, sec }, { "B", b, sec } };
		struct tables ts = { 0 };
		long long *sizes;
		long *lsizes;
		size_t nsizes;

		if (!sl_has(&b->sections, sec))
			continue;
		report_tables(cols, 2, &ts);
		nsizes = all_sizes(cols, 2, "", &sizes);
		lsizes = xcalloc(nsizes + 1, sizeof(*lsizes));
		for (size_t i = 0; i < nsizes; i++)
			lsizes[i] = (long)sizes[i];
		free(sizes);
		primaries_free(&ps);
		if (primaries_parse(text, lsizes, nsizes, &ps, &why))
			memset(&ps, 0, sizeof(ps));
		free(lsizes);
		for (size_t i = 0; i < ps.n; i++) {
			char *key = primary_key(&ps.v[i]);
			const struct endpoint *ea = find_ep(&ts, key, "A"), *eb = find_ep(&ts, key, "B");
			struct hodges_lehmann hl;
			bool dup = false, ok, ratio;
			double ma, lo, hi, est;

			/* each metric of a section once, whichever primaries name it */
			for (size_t k = 0; k < i; k++) {
				char *other = primary_key(&ps.v[k]);

				dup |= !strcmp(other, key) && (!strcmp(ps.v[k].a, sec) ||
							       !strcmp(ps.v[k].b, sec));
				free(other);
			}
			if (dup || (strcmp(ps.v[i].a, sec) && strcmp(ps.v[i].b, sec)) || !ea || !eb) {
				free(key);
				continue;
			}
			ma = median(ea->v, ea->n);
			ratio = ps.v[i].ratio && all_positive(ea) && all_positive(eb);
			if (ratio) {
				double *la = xmalloc(ea->n * sizeof(*la)), *lb = xmalloc(eb->n * sizeof(*lb));

				for (size_t k = 0; k < ea->n; k++)
					la[k] = log(ea->v[k]);
				for (size_t k = 0; k < eb->n; k++)
					lb[k] = log(eb->v[k]);
				stats_hodges_lehmann(la, ea->n, lb, eb->n, REPORT_ALPHA, &hl);
				est = exp(hl.est);
				lo = exp(hl.lo);
				hi = exp(hl.hi);
				free(la);
				free(lb);
			} else {
				/* a shift, as a share of A's median */
				stats_hodges_lehmann(ea->v, ea->n, eb->v, eb->n, REPORT_ALPHA, &hl);
				est = ma ? 1 + hl.est / fabs(ma) : NAN;
				lo = ma ? 1 + hl.lo / fabs(ma) : NAN;
				hi = ma ? 1 + hl.hi / fabs(ma) : NAN;
			}
			ok = lo >= 1 - margin && hi <= 1 + margin && ea->n >= min_runs &&
			     eb->n >= min_runs;
			*all_equivalent &= ok;
			tested++;
			if (md)
				sb_addf(md, "| %s | %s | %.4g (%zu) | %.4g (%zu) | x%.4g | x%.4g to x%.4g "
					"(%.1f%%) | %s |\n", sec, key, ma, ea->n, median(eb->v, eb->n),
					eb->n, est, lo, hi, 100 * hl.conf,
					ok ? "yes" : ea->n < min_runs || eb->n < min_runs
						     ? "no: too few runs"
						     : "no: the interval leaves the margin");
			if (txt)
				sb_addf(txt, "  %s %s: x%.4g [x%.4g, x%.4g] (%zu, %zu runs): %s\n", sec, key,
					est, lo, hi, ea->n, eb->n, ok ? "equivalent" : "not shown equivalent");
			free(key);
		}
		tables_free(&ts);
	}
	if (!tested)
		*all_equivalent = false;
	if (md)
		sb_addf(md, "\n%s: %s (every interval inside 1 +- %.2f, at least %zu runs per "
			"arm; primaries declared in %s).\n\n", tested ? "Decision" : "Nothing tested",
			*all_equivalent ? "equivalent" : "not shown equivalent", margin, min_runs,
			from ? from : a->primary ? "metadata.json" : "nowhere");
	if (txt)
		sb_addf(txt, "  decision: %s\n\n", *all_equivalent ? "equivalent"
							    : "not shown equivalent");
	primaries_free(&ps);
	free(text);
	free(from);
	return tested;
}
