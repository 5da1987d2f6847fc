/* Figure 4: the LSF/MM/BPF 2025 cleancache figures (scenario lsfmm2025). */
#include "reproduce/repro-common.h"

#include <stdio.h>

struct tv {
	double t, v;
};

/*
 * A run's cached share (cached_pages / pool_pages, %) in steady state: the
 * median of its samples from the first one at 90% of the run's highest
 * share on, each cached sample paired with the pool sample nearest in time
 * (within 1 s); *fill_s: the time that first sample came (the time to fill).
 * NAN if no pair has a pool. A time average would mix the filling in.
 */
static double run_cached_share(const struct dataset *ds, size_t run, size_t *npairs,
			       double *fill_s)
{
	struct tv *c = NULL, *p = NULL;
	size_t nc = 0, np = 0, n = 0;
	for (size_t i = 0; i < ds->nsamples; i++) {
		const struct ds_sample *s = &ds->samples[i];
		struct tv x = { s->t, s->value };

		if (s->run != run)
			continue;
		if (!strcmp(s->name, "cleancache.cached_pages")) {
			c = xrealloc(c, (nc + 1) * sizeof(*c));
			c[nc++] = x;
		} else if (!strcmp(s->name, "cleancache.pool_pages")) {
			p = xrealloc(p, (np + 1) * sizeof(*p));
			p[np++] = x;
		}
	}
	struct tv *share = xcalloc(nc + 1, sizeof(*share));
	double top = 0, *steady;
	size_t from = 0, ns = 0;
	struct summary sm;

	for (size_t i = 0; i < nc; i++) {
		size_t best = np;

		for (size_t k = 0; k < np; k++)
			if (fabs(p[k].t - c[i].t) <= 1.0 &&
			    (best == np || fabs(p[k].t - c[i].t) < fabs(p[best].t - c[i].t)))
				best = k;
		if (best == np || p[best].v <= 0)
			continue;
		share[n++] = (struct tv){ c[i].t, c[i].v / p[best].v * 100 };
		top = share[n - 1].v > top ? share[n - 1].v : top;
	}
	while (from < n && share[from].v < 0.9 * top)
		from++;
	steady = xcalloc(n + 1, sizeof(*steady));
	for (size_t i = from; i < n; i++)
		steady[ns++] = share[i].v;
	stats_summary(steady, ns, &sm);
	*fill_s = from < n ? share[from].t : NAN;
	free(steady);
	free(share);
	free(c);
	free(p);
	*npairs = n;
	return ns ? sm.p50 : NAN;
}

enum { LSF_SHARE, LSF_HIT, LSF_FILL, LSF_N };

/* Per ok run of a section: the table's value of metric m; hits and misses summed. */
static size_t lsf_values(const struct picks *ps, const char *section, int m, double *v,
			 long long *th, long long *tm)
{
	size_t k = 0;

	for (size_t i = 0; i < ps->n; i++) {
		const struct dataset *ds = &ps->v[i].set->ds;
		size_t run = ps->v[i].run, np;
		double x = NAN, fill_s, steady;
		long long h, mi;

		if (!pick_ok(&ps->v[i], section))
			continue;
		if (m != LSF_HIT) {
			steady = run_cached_share(ds, run, &np, &fill_s);
			x = m == LSF_FILL ? fill_s : steady;
		} else if (ds_counter_delta(ds, run, "cleancache", "hits", &h, NULL) &&
			   ds_counter_delta(ds, run, "cleancache", "misses", &mi, NULL) && h + mi > 0) {
			x = 100.0 * h / (h + mi);
			*th += h;
			*tm += mi;
		}
		if (!isnan(x))
			v[k++] = x;
	}
	return k;
}

/* "-10.7 points (95% interval -22.1 to -1.38, 5 against 5 runs, q 0.016)" */
static void lsf_test_text(struct strbuf *t, const char *what, const struct ours *o)
{
	if (o->why[0])
		sb_addf(t, "%s n/a (%s)", what, o->why);
	else
		sb_addf(t, "%s %+.3g points (95%% interval %+.3g to %+.3g; %zu against %zu runs, "
			"q %.3f)", what, o->est, o->lo, o->hi, o->na, o->nb, o->q);
}

/*
 * evict=none against lru on the table's own rows: the steady-state
 * cached share and the hit rate, per repetition as the table shows them,
 * one family of two. The published levels: not comparable (csv says why).
 */
static void lsfmm_verdict(struct strbuf *md, const struct published *pub,
			  const struct picks *ps, double *const v[LSF_N][2], const size_t k[LSF_N][2])
{
	struct claim c[2], own[2];
	struct strbuf t;
	size_t n = 0;

	for (int m = 0; m < 2; m++) {
		memset(&own[m], 0, sizeof(own[m]));
		ours_two(&own[m].ours, v[m][0], k[m][0], v[m][1], k[m][1], SC_LIN);
	}
	claims_adjust(own, 2);
	for (size_t i = 0; i < pub->n && n < 2; i++)
		if (!strcmp(pub->rows[i].figure, FIG_LSF) && pub->rows[i].band.kind != BAND_NONE) {
			memset(&c[n], 0, sizeof(c[n]));
			c[n].row = &pub->rows[i];
			snprintf(c[n].label, sizeof(c[n].label), "%s", pub->rows[i].metric);
			ours_range(&c[n++].ours, NAN, NAN, 0);
		}
	claims_table(md, c, n);
	claims_verdict(md, c, n, NULL);
	sb_init(&t);
	sb_add(&t, "What ours does compare, evict=none against lru on the rows of the table "
	       "above (none " DASH " lru of the per-repetition values, Hodges-Lehmann, exact 95% "
	       "interval, q over these two): ");
	lsf_test_text(&t, "steady-state cached share", &own[LSF_SHARE].ours);
	lsf_test_text(&t, "; hit rate", &own[LSF_HIT].ours);
	sb_add(&t, ".\n\n");
	sb_add(md, ps->n ? t.buf : "");
	sb_free(&t);
}

/* The table: every metric of both sections; their per-run values kept in v. */
static void lsfmm_table(struct strbuf *md, const struct published *pub, const struct picks *ps,
			const char *const *sections, double *v[LSF_N][2], size_t k[LSF_N][2])
{
	static const char *const claim[LSF_N] = {
		"reserved memory holding cached data, steady state (%)", "cleancache hit rate (%)",
		"time to fill (s)" };
	const struct pub_row *pr[LSF_N] = {
		published_find(pub, FIG_LSF, "cached-share", NULL, NULL),
		published_find(pub, FIG_LSF, "hit-rate", NULL, NULL), NULL };
	bool any_hits = false;

	for (int m = 0; m < LSF_N; m++)
		for (size_t s = 0; s < 2; s++) {
			long long th = 0, tm = 0;
			struct over o;

			v[m][s] = xcalloc(ps->n + 1, sizeof(double));
			k[m][s] = lsf_values(ps, sections[s], m, v[m][s], &th, &tm);
			o = over_reps(v[m][s], k[m][s]);
			sb_addf(md, "| %s | gcma, evict=%s | %s | %s | %s | %s | %s |\n", claim[m],
				sections[s], pr[m] ? pr[m]->value : "-",
				k[m][s] ? repro_num(o.med) : "no results", repro_range(o),
				k[m][s] ? repro_zu(k[m][s]) : "-",
				k[m][s] && pr[m] ? repro_num(repro_ratio(o.med, pr[m]->v)) : "-");
			if (m == LSF_HIT && k[m][s]) {
				sb_addf(md, "| (hits, misses summed over the repetitions) | gcma, "
					"evict=%s | - | %lld, %lld | - | %zu | - |\n", sections[s], th, tm,
					k[m][s]);
				any_hits = true;
			}
		}
	sb_add(md, "\n");
	if (any_hits)
		sb_add(md, "Our `misses` counts every lookup of a page-in (each readahead folio of "
		       "every ext4 file, see kernel-patches/README), not only lookups of pages that "
		       "were once stored, so it understates the rate one would compute over "
		       "stored pages only.\n\n");
}

static void figure_lsfmm(struct strbuf *md, struct repro_ctx *ctx)
{
	const struct published *pub = ctx->pub;
	static const char *const sections[] = { "lru", "none", NULL };
	double *v[LSF_N][2];
	size_t k[LSF_N][2];
	struct picks ps;

	picks_select(&ps, ctx->sets, ctx->nsets, "lsfmm2025", sections);
	sb_add(md, "## 4. LSF/MM/BPF 2025: cleancache occupancy and hit rate\n\n");
	if (!ps.n)
		no_results(md, "lsfmm2025", sections);
	sb_add(md, "GCMA with `cleancache.evict=lru` (section `lru`) and `=none` (section `none`). "
	       "Cached share: per repetition its steady state, the median of its 1 s samples of "
	       "cached_pages / pool_pages from the first one at 90% of the run's highest share "
	       "on; time to fill: when that sample came (time from the run's first sample); hit "
	       "rate: per repetition hits / (hits + misses) of the counters' change over the "
	       "run. Ours is the median over repetitions.\n\n"
	       "| claim | set-up | published | ours | ours spread | n | ours / published |\n"
	       "|---|---|---:|---:|---:|---:|---:|\n");
	lsfmm_table(md, pub, &ps, sections, v, k);
	lsfmm_verdict(md, pub, &ps, (double *const (*)[2])v, (const size_t (*)[2])k);
	if (ps.n) {
		sb_addf(md, "Why they differ: the published figures are from %s (Android face "
			"unlock on phones, no method given); ours from a page-cache-heavy scenario on ",
			pub_source(pub, FIG_LSF));
		describe_env(md, &ps);
		sb_add(md, ", whose working set and area size decide both numbers.\n\n");
		sources(md, &ps, "runs/<run>/samples.csv (`cleancache` `cached_pages` and "
			"`pool_pages`) and runs/<run>/snapshots/{before,after}/cleancache/{hits,misses}, "
			"as in the data/samples.csv and data/counters.csv that `cmabench report` writes",
			NULL);
	}
	for (int m = 0; m < LSF_N; m++)
		for (int s = 0; s < 2; s++)
			free(v[m][s]);
	free(ps.v);
}


const struct repro_figure repro_fig_lsfmm = { "LSF/MM/BPF 2025: cleancache occupancy and hits",
					       "lsfmm2025", figure_lsfmm };
