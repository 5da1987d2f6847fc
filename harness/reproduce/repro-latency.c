/* Figure 1: the GCMA RFC v2 allocation latency table (scenario rfc-v2). */
#include "reproduce/repro-shape.h"

#include <stdio.h>

enum side { SIDE_NONE, SIDE_KERNEL, SIDE_USER };

static const char *const side_name[] = { "-", "kernel", "user" };

struct lat_cell {
	enum side side;
	size_t reps, reqs, fails;
	size_t below;               /* requests that began below their run's fill, left out */
	struct over st[3];          /* per-repetition min, max, avg (us) */
	double *avg;                /* each repetition's avg (reps of them): the verdict's values */
};

static void lat_cell_free(struct lat_cell *c)
{
	free(c->avg);
	c->avg = NULL;
}

/*
 * The cell (section, pages): per ok run the min, max and mean of its
 * successful requests of that size that met the run's fill, kernel-side if every one of them has
 * a kernel latency (unless force is SIDE_USER), else user-side.
 */
static void lat_cell(const struct picks *ps, const char *section, long long pages,
		     enum side force, struct lat_cell *c)
{
	double *v[3];
	bool kernel = force != SIDE_USER;
	size_t any = 0;

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < ps->n; i++) {
		const struct dataset *ds = &ps->v[i].set->ds;

		if (!pick_ok(&ps->v[i], section))
			continue;
		for (size_t a = 0; a < ds->nallocs; a++) {
			const struct ds_alloc *x = &ds->allocs[a];

			if (x->run != ps->v[i].run || x->pages != pages)
				continue;
			if (!ds_alloc_met(ds, x)) {
				c->below++;
				continue;
			}
			if (!x->success) {
				c->fails++;
				continue;
			}
			any++;
			if (x->kernel_ns == DS_NONE)
				kernel = false;
		}
	}
	if (!any)
		return;
	c->side = kernel ? SIDE_KERNEL : SIDE_USER;
	for (int k = 0; k < 3; k++)
		v[k] = xcalloc(ps->n, sizeof(double));
	for (size_t i = 0; i < ps->n; i++) {
		const struct dataset *ds = &ps->v[i].set->ds;
		double mn = INFINITY, mx = -INFINITY, sum = 0;
		size_t n = 0;

		if (!pick_ok(&ps->v[i], section))
			continue;
		for (size_t a = 0; a < ds->nallocs; a++) {
			const struct ds_alloc *x = &ds->allocs[a];
			double us;

			if (x->run != ps->v[i].run || x->pages != pages || !x->success ||
			    !ds_alloc_met(ds, x))
				continue;
			us = (kernel ? x->kernel_ns : x->user_ns) / 1000.0;
			mn = us < mn ? us : mn;
			mx = us > mx ? us : mx;
			sum += us;
			n++;
		}
		if (!n)
			continue;
		v[0][c->reps] = mn;
		v[1][c->reps] = mx;
		v[2][c->reps] = sum / n;
		c->reps++;
		c->reqs += n;
	}
	for (int k = 0; k < 3; k++)
		c->st[k] = over_reps(v[k], c->reps);
	free(v[0]);
	free(v[1]);
	c->avg = v[2];
}

/* cma and gcma of one size on the same side (user-side if either lacks the kernel's). */
static void lat_pair(const struct picks *ps, long long pages, struct lat_cell *cma,
		     struct lat_cell *gcma)
{
	lat_cell(ps, "cma", pages, SIDE_NONE, cma);
	lat_cell(ps, "gcma", pages, SIDE_NONE, gcma);
	if (cma->side != SIDE_NONE && gcma->side != SIDE_NONE && cma->side != gcma->side) {
		lat_cell_free(cma);
		lat_cell_free(gcma);
		lat_cell(ps, "cma", pages, SIDE_USER, cma);
		lat_cell(ps, "gcma", pages, SIDE_USER, gcma);
	}
}

/* Request sizes: the published ones and ours, ascending. */
static size_t lat_sizes(const struct published *pub, const struct picks *ps, long long **out)
{
	long long *v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < pub->n; i++) {
		char *end;
		long long x;

		if (strcmp(pub->rows[i].figure, FIG_LAT))
			continue;
		x = strtoll(pub->rows[i].size, &end, 10);
		if (end == pub->rows[i].size || *end)
			continue;   /* a range such as "1024-16384" */
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = x;
	}
	for (size_t i = 0; i < ps->n; i++) {
		const struct dataset *ds = &ps->v[i].set->ds;

		for (size_t a = 0; a < ds->nallocs; a++)
			if (ds->allocs[a].run == ps->v[i].run) {
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n++] = ds->allocs[a].pages;
			}
	}
	*out = v;
	return sort_unique_ll(v, n);
}

/* Set-ups: our sections, then the published ones we do not run. */
static size_t lat_setups(const struct published *pub, const char *const *ours,
			 struct strlist *out)
{
	for (size_t i = 0; ours[i]; i++)
		sl_add(out, ours[i]);
	for (size_t i = 0; i < pub->n; i++)
		if (!strcmp(pub->rows[i].figure, FIG_LAT) && strchr(pub->rows[i].setup, '/') == NULL &&
		    !sl_has(out, pub->rows[i].setup))
			sl_add(out, pub->rows[i].setup);
	return out->n;
}

/* A claim on CMA / GCMA of the average latency at one size, from each repetition's avg. */
static void latency_claim(struct claim *c, const struct pub_row *r, const struct picks *ps,
			  long long pages)
{
	struct lat_cell cma, gcma;

	memset(c, 0, sizeof(*c));
	c->row = r;
	snprintf(c->label, sizeof(c->label), "CMA / GCMA average, %lld page%s%s", pages,
		 pages == 1 ? "" : "s", r->band.direction ? ", direction" : "");
	lat_pair(ps, pages, &cma, &gcma);
	ours_two(&c->ours, gcma.avg, gcma.reps, cma.avg, cma.reps, r->band.sc);
	lat_cell_free(&cma);
	lat_cell_free(&gcma);
}

/*
 * The figure's claims (published.csv rows with a band): the published
 * direction of CMA / GCMA at each size, and "about 20x" at each of our
 * sizes in its range; each tested on the per-repetition averages the
 * ratio table shows, as one family.
 */
static void latency_verdict(struct strbuf *md, const struct published *pub,
			    const struct picks *ps, const long long *sizes, size_t nsizes)
{
	struct claim *c = xcalloc(pub->n * (nsizes + 1) + 1, sizeof(*c));
	const char *accel = ps->n ? prun(&ps->v[0])->accel : NULL;
	size_t n = 0;

	for (size_t i = 0; i < pub->n; i++) {
		const struct pub_row *r = &pub->rows[i];
		long long lo, hi;
		char *end;

		if (strcmp(r->figure, FIG_LAT) || r->band.kind == BAND_NONE)
			continue;
		lo = hi = strtoll(r->size, &end, 10);
		if ((end == r->size || *end) && !parse_band(r->size, &lo, &hi))
			continue;
		for (size_t z = 0; z < nsizes; z++)
			if (sizes[z] >= lo && sizes[z] <= hi)
				latency_claim(&c[n++], r, ps, sizes[z]);
	}
	sb_add(md, "What the verdict tests: each claim's band B comes from the tolerance column "
	       "of `docs/published.csv`; ours is the Hodges-Lehmann CMA / GCMA of the "
	       "per-repetition averages the ratio table shows, with its exact 95% interval "
	       "(q over this table): the median of every CMA-against-GCMA run pair, beside the "
	       "table's ratio of medians.\n\n");
	claims_adjust(c, n);
	claims_table(md, c, n);
	if (!ps->n)
		verdict_line(md, V_NOT_COMPARABLE, "no results of this scenario.");
	else
		claims_verdict(md, c, n, NULL);
	if (accel && !strcmp(accel, "tcg"))
		sb_add(md, "The absolute times are not comparable (TCG: an emulated CPU); the verdict "
		       "rests on CMA / GCMA at each size.\n\n");
	free(c);
}

/*
 * One row of the latency table, (set-up, size): the published min / max /
 * avg beside ours; no row when neither has anything. Requests below their
 * run's fill are counted in left. Returns whether ours is kernel-side.
 */
static bool latency_row(struct strbuf *md, struct strbuf *left, const struct published *pub,
			const struct picks *ps, const char *const *sections, const char *setup,
			long long pages)
{
	static const char *const stat_names[] = { "min", "max", "avg" };
	const struct pub_row *pr[3];
	struct lat_cell c;
	bool any_pub = false;
	char size[32];

	snprintf(size, sizeof(size), "%lld", pages);
	for (int k = 0; k < 3; k++) {
		pr[k] = published_find(pub, FIG_LAT, stat_names[k], setup, size);
		any_pub |= pr[k] != NULL;
	}
	lat_cell(ps, setup, pages, SIDE_NONE, &c);
	if (c.below)
		sb_addf(left, "%s%s %lld pages: %zu", left->len ? "; " : "", setup, pages, c.below);
	if (!any_pub && !c.reps && !c.fails)
		return false;
	sb_addf(md, "| %lld | %s | ", pages, setup);
	if (any_pub)
		sb_addf(md, "%s / %s / %s", pr[0] ? pr[0]->value : "-", pr[1] ? pr[1]->value : "-",
			pr[2] ? pr[2]->value : "-");
	else
		sb_add(md, "-");
	if (!c.reps) {
		const char *why = !ps->n ? "no results"
				  : !in_list(sections, setup) ? "not run"
				  : !picks_has_section(ps, setup) ? "no results"
				  : c.fails ? "every request failed"
				  : "no request of this size";

		sb_addf(md, " | %s | - | %s | - | - |\n", why, ncol(0, 0, c.fails));
		lat_cell_free(&c);
		return false;
	}
	sb_addf(md, " | %s / %s / %s | %s / %s / %s | %s | ", repro_num(c.st[0].med),
		repro_num(c.st[1].med), repro_num(c.st[2].med), repro_range(c.st[0]),
		repro_range(c.st[1]), repro_range(c.st[2]), ncol(c.reps, c.reqs, c.fails));
	if (any_pub)
		sb_addf(md, "%s / %s / %s",
			repro_num(repro_ratio(c.st[0].med, pr[0] ? pr[0]->v : NAN)),
			repro_num(repro_ratio(c.st[1].med, pr[1] ? pr[1]->v : NAN)),
			repro_num(repro_ratio(c.st[2].med, pr[2] ? pr[2]->v : NAN)));
	else
		sb_add(md, "-");
	sb_addf(md, " | %s |\n", side_name[c.side]);
	lat_cell_free(&c);
	return c.side == SIDE_KERNEL;
}

/*
 * The latency table, every set-up at every size, and what it leaves out;
 * returns how many of our cells are kernel-side.
 */
static size_t latency_table(struct strbuf *md, const struct published *pub,
			    const struct picks *ps, const char *const *sections,
			    const struct strlist *setups, const long long *sizes, size_t nsizes)
{
	struct strbuf left;
	size_t kernel_cells = 0;

	sb_init(&left);
	sb_add(md, "Per set-up and request size: min / max / avg latency in microseconds. Ours is "
	       "the median over repetitions of each repetition's min, max and average; the "
	       "spread is the lowest" DASH "highest of those per-repetition values; n counts "
	       "repetitions (requests). Latency is kernel-side (`cma_alloc_start` to "
	       "`cma_alloc_finish` in trace.dat) where every request of the cell has it, else "
	       "user-side (the driver's `latency_ns`); the last column says which.\n\n");
	sb_add(md, "| pages | set-up | published min / max / avg | ours min / max / avg | ours "
	       "spread over repetitions | n | ours / published | latency |\n");
	sb_add(md, "|---:|---|---:|---:|---:|---:|---:|---|\n");
	for (size_t z = 0; z < nsizes; z++)
		for (size_t s = 0; s < setups->n; s++)
			kernel_cells += latency_row(md, &left, pub, ps, sections, setups->v[s],
						    sizes[z]);
	sb_add(md, "\n");
	if (left.len)
		sb_addf(md, "Requests that began with the area below their run's fill, left out of "
			"the cells above (set-up, size: requests): %s.\n\n", left.buf);
	sb_free(&left);
	if (sl_has(setups, "gcma.zram") && !in_list(sections, "gcma.zram"))
		sb_add(md, "gcma.zram (GCMA with a zram backend) has no counterpart here: the ported "
		       "series has no zram backend, so those rows stay published-only.\n\n");
	return kernel_cells;
}

/*
 * One row of the CMA / GCMA table: the published ratio of averages beside
 * ours. Each size goes into the published shape sp, and when ours has
 * both set-ups into our shape so and into lr.
 */
static void ratio_row(struct strbuf *md, const struct published *pub, const struct picks *ps,
		      long long pages, struct lat_ratios *lr, struct shape *sp, struct shape *so)
{
	char size[32];
	struct lat_cell c, g;
	double pa, oa;

	snprintf(size, sizeof(size), "%lld", pages);
	pa = repro_ratio(pub_value(pub, FIG_LAT, "avg", "cma", size),
			 pub_value(pub, FIG_LAT, "avg", "gcma", size));
	lat_pair(ps, pages, &c, &g);
	oa = c.reps && g.reps ? repro_ratio(c.st[2].med, g.st[2].med) : NAN;
	lat_cell_free(&c);
	lat_cell_free(&g);
	if (isnan(pa) && isnan(oa))
		return;
	shape_add(sp, pages, pub_value(pub, FIG_LAT, "avg", "cma", size),
		  pub_value(pub, FIG_LAT, "avg", "gcma", size),
		  pub_value(pub, FIG_LAT, "max", "cma", size),
		  pub_value(pub, FIG_LAT, "max", "gcma", size));
	if (isnan(oa)) {
		sb_addf(md, "| %lld | %s | %s | - | - | - |\n", pages, repro_num(pa),
			ps->n ? "no results for both set-ups" : "no results");
		return;
	}
	/* the max of every run: the longest request is the maximum */
	shape_add(so, pages, c.st[2].med, g.st[2].med, c.st[1].hi, g.st[1].hi);
	lr->pages = xrealloc(lr->pages, (lr->n + 1) * sizeof(*lr->pages));
	lr->ours = xrealloc(lr->ours, (lr->n + 1) * sizeof(*lr->ours));
	lr->pages[lr->n] = pages;
	lr->ours[lr->n++] = oa;
	sb_addf(md, "| %lld | %s | %s | %s" DASH "%s | %s | %s |\n", pages, repro_num(pa),
		repro_num(oa), repro_num(repro_ratio(c.st[2].lo, g.st[2].hi)),
		repro_num(repro_ratio(c.st[2].hi, g.st[2].lo)), repro_num(repro_ratio(oa, pa)),
		side_name[c.side]);
}

/* The CMA / GCMA table of average latencies, filling both shapes and lr. */
static void ratio_table(struct strbuf *md, const struct published *pub, const struct picks *ps,
			const long long *sizes, size_t nsizes, struct lat_ratios *lr,
			struct shape *sp, struct shape *so)
{
	sb_add(md, "### Average latency, CMA / GCMA\n\n"
	       "Published: the ratio of the published averages. Ours: the ratio of the medians "
	       "of the per-repetition averages; its range runs from the lowest CMA repetition "
	       "over the highest GCMA one to the highest over the lowest. Both set-ups on the "
	       "same side (user-side when either lacks kernel-side latencies).\n\n"
	       "| pages | published | ours | ours range | ours / published | latency |\n"
	       "|---:|---:|---:|---:|---:|---|\n");
	for (size_t z = 0; z < nsizes; z++)
		ratio_row(md, pub, ps, sizes[z], lr, sp, so);
	sb_add(md, "\n");
}

/* The published text's ratio over a band of sizes, against both shapes' ratios there. */
static void band_sentence(struct strbuf *md, const struct published *pub, const struct shape *sp,
			  const struct shape *so)
{
	const struct pub_row *band = published_find(pub, FIG_LAT, "avg-ratio-cma-gcma", NULL, NULL);
	double pmin, pmax, omin, omax;
	long long blo, bhi;
	size_t pn, on;

	if (!band || !parse_band(band->size, &blo, &bhi))
		return;
	band_range(sp, blo, bhi, &pmin, &pmax, &pn);
	band_range(so, blo, bhi, &omin, &omax, &on);
	sb_addf(md, "At %lld" DASH "%lld pages the published text says about %s%s; the "
		"published averages give ", blo, bhi, band->value, band->unit);
	if (pn)
		sb_addf(md, "%s" DASH "%sx", repro_num(pmin), repro_num(pmax));
	else
		sb_add(md, "nothing (no published size there)");
	sb_add(md, "; ours ");
	if (on)
		sb_addf(md, "%s" DASH "%sx over %zu size%s.\n\n", repro_num(omin), repro_num(omax),
			on, on == 1 ? "" : "s");
	else
		sb_add(md, "has no size there with both set-ups.\n\n");
}

/* Both shapes described and compared (each needs two sizes): a description, not the verdict. */
static void shape_compare(struct strbuf *md, const struct shape *sp, const struct shape *so)
{
	if (sp->n >= 2) {
		shape_describe(md, "Published", sp);
		sb_add(md, "\n");
	}
	if (so->n >= 2) {
		shape_describe(md, "Ours", so);
		sb_add(md, "\n\n");
		if (sp->n >= 2)
			shape_verdict(md, sp, so, NULL);
	} else {
		sb_add(md, "\nOurs has too few sizes with both cma and gcma results to compare the "
		       "shape.\n\n");
	}
}

/* Why ours differs from the published numbers, and where ours comes from. */
static void latency_why(struct strbuf *md, const struct published *pub, const struct picks *ps,
			size_t kernel_cells)
{
	sb_add(md, "Why they differ: the published numbers come from ");
	sb_addf(md, "%s; ours from ", pub_source(pub, FIG_LAT));
	describe_env(md, ps);
	sb_add(md, ". ");
	area_facts(md, ps, "cma", "gcma");
	end_paragraph(md);
	sources(md, ps, kernel_cells ? "runs/<run>/alloc.csv (`pages`, `latency_ns`, "
		"`success`) and runs/<run>/trace.dat (`cma_alloc_start`, `cma_alloc_finish`), "
		"as in the data/alloc.csv that `cmabench report` writes"
		: "runs/<run>/alloc.csv (`pages`, `latency_ns`, `success`; no cell had "
		"kernel-side latency for every request), as in the data/alloc.csv that "
		"`cmabench report` writes", NULL);
}

static void figure_latency(struct strbuf *md, struct repro_ctx *ctx)
{
	static const char *const sections[] = { "none", "cma", "gcma", NULL };
	const struct published *pub = ctx->pub;
	struct lat_ratios lr = { 0 };
	struct picks ps;
	struct strlist setups = { 0 };
	long long *sizes;
	size_t nsizes, kernel_cells;
	struct shape sp = { 0 }, so = { 0 };

	picks_select(&ps, ctx->sets, ctx->nsets, "rfc-v2", sections);
	nsizes = lat_sizes(pub, &ps, &sizes);
	lat_setups(pub, sections, &setups);
	sb_add(md, "## 1. GCMA RFC v2: allocation latency\n\n");
	if (!ps.n)
		no_results(md, "rfc-v2", sections);
	kernel_cells = latency_table(md, pub, &ps, sections, &setups, sizes, nsizes);
	ratio_table(md, pub, &ps, sizes, nsizes, &lr, &sp, &so);
	band_sentence(md, pub, &sp, &so);
	shape_compare(md, &sp, &so);
	latency_verdict(md, pub, &ps, sizes, nsizes);
	if (ps.n)
		latency_why(md, pub, &ps, kernel_cells);
	shape_free(&sp);
	shape_free(&so);
	lat_ratios_free(&lr);
	free(sizes);
	sl_free(&setups);
	free(ps.v);
}

void repro_latency_ratios(const struct repro_ctx *ctx, struct lat_ratios *lr)
{
	static const char *const sections[] = { "none", "cma", "gcma", NULL };
	struct strbuf scratch = { 0 };
	struct shape sp = { 0 }, so = { 0 };
	struct picks ps;
	long long *sizes;
	size_t nsizes;

	/* the ratio table's rows, computed as figure 1 computes them, its text dropped */
	memset(lr, 0, sizeof(*lr));
	picks_select(&ps, ctx->sets, ctx->nsets, "rfc-v2", sections);
	nsizes = lat_sizes(ctx->pub, &ps, &sizes);
	sb_init(&scratch);
	ratio_table(&scratch, ctx->pub, &ps, sizes, nsizes, lr, &sp, &so);
	sb_free(&scratch);
	shape_free(&sp);
	shape_free(&so);
	free(sizes);
	free(ps.v);
}

void lat_ratios_free(struct lat_ratios *lr)
{
	free(lr->pages);
	free(lr->ours);
	memset(lr, 0, sizeof(*lr));
}


const struct repro_figure repro_fig_latency = { "GCMA RFC v2: allocation latency", "rfc-v2",
						 figure_latency };
