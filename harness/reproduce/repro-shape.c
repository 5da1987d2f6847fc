#include "reproduce/repro-shape.h"

#include <stdio.h>

void shape_add(struct shape *s, long long pages, double ca, double ga, double cm, double gm)
{
	if (isnan(ca) || isnan(ga) || isnan(cm) || isnan(gm))
		return;
	s->pages = xrealloc(s->pages, (s->n + 1) * sizeof(*s->pages));
	s->cma_avg = xrealloc(s->cma_avg, (s->n + 1) * sizeof(double));
	s->gcma_avg = xrealloc(s->gcma_avg, (s->n + 1) * sizeof(double));
	s->cma_max = xrealloc(s->cma_max, (s->n + 1) * sizeof(double));
	s->gcma_max = xrealloc(s->gcma_max, (s->n + 1) * sizeof(double));
	s->pages[s->n] = pages;
	s->cma_avg[s->n] = ca;
	s->gcma_avg[s->n] = ga;
	s->cma_max[s->n] = cm;
	s->gcma_max[s->n] = gm;
	s->n++;
}

void shape_free(struct shape *s)
{
	free(s->pages);
	free(s->cma_avg);
	free(s->gcma_avg);
	free(s->cma_max);
	free(s->gcma_max);
	memset(s, 0, sizeof(*s));
}

static size_t shape_gcma_faster(const struct shape *s)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++)
		k += s->gcma_avg[i] < s->cma_avg[i];
	return k;
}

static size_t shape_largest_cma_max(const struct shape *s)
{
	size_t m = 0;

	for (size_t i = 1; i < s->n; i++)
		if (s->cma_max[i] > s->cma_max[m])
			m = i;
	return m;
}

/* "GCMA's average is lower than CMA's at 7 of 8 sizes; CMA's max grows ..." */
void shape_describe(struct strbuf *md, const char *who, const struct shape *s)
{
	size_t m = shape_largest_cma_max(s), last = s->n - 1;

	sb_addf(md, "%s: GCMA's average is lower than CMA's at %zu of %zu sizes; from %lld to %lld "
		"pages CMA's max grows %sx (%s to %s us) and GCMA's %sx (%s to %s us); the "
		"longest CMA request took %s us (%lld pages).", who, shape_gcma_faster(s), s->n,
		s->pages[0], s->pages[last], repro_num(repro_ratio(s->cma_max[last], s->cma_max[0])),
		repro_num(s->cma_max[0]), repro_num(s->cma_max[last]),
		repro_num(repro_ratio(s->gcma_max[last], s->gcma_max[0])), repro_num(s->gcma_max[0]),
		repro_num(s->gcma_max[last]), repro_num(s->cma_max[m]), s->pages[m]);
}

/*
 * The points where ours departs from the published shape, in words; true
 * if none. departs (if not NULL) gets the same words.
 */
bool shape_verdict(struct strbuf *md, const struct shape *pub, const struct shape *ours,
		   struct strbuf *departs)
{
	struct strbuf why;
	size_t nwhy = 0, last = ours->n - 1, plast = pub->n - 1;
	double cg = repro_ratio(ours->cma_max[last], ours->cma_max[0]);
	double gg = repro_ratio(ours->gcma_max[last], ours->gcma_max[0]);
	double pcg = repro_ratio(pub->cma_max[plast], pub->cma_max[0]);
	double pgg = repro_ratio(pub->gcma_max[plast], pub->gcma_max[0]);
	bool first = true, agrees;

	sb_init(&why);
	for (size_t i = 0; i < ours->n; i++) {
		bool pub_faster = false, pub_has = false;

		for (size_t k = 0; k < pub->n; k++)
			if (pub->pages[k] == ours->pages[i]) {
				pub_has = true;
				pub_faster = pub->gcma_avg[k] < pub->cma_avg[k];
			}
		if (ours->gcma_avg[i] < ours->cma_avg[i] || (pub_has && !pub_faster))
			continue;
		sb_addf(&why, "%s%lld", first ? "GCMA is not faster than CMA on average at " : ", ",
			ours->pages[i]);
		first = false;
	}
	if (!first) {
		sb_add(&why, " pages (published: GCMA faster there, or size not published)");
		nwhy++;
	}
	if (!(cg > 1)) {
		sb_addf(&why, "%sCMA's tail does not grow with size (max %s us at %lld pages, %s us at "
			"%lld)", nwhy++ ? "; " : "", repro_num(ours->cma_max[0]), ours->pages[0],
			repro_num(ours->cma_max[last]), ours->pages[last]);
	} else if (pcg > pgg && !(cg > gg)) {
		sb_addf(&why, "%sCMA's tail grows no faster with size than GCMA's (%sx against %sx; "
			"published %sx against %sx)", nwhy++ ? "; " : "", repro_num(cg), repro_num(gg), repro_num(pcg),
			repro_num(pgg));
	}
	/* a second or more, size by size: one long request elsewhere does not count */
	first = true;
	for (size_t i = 0; i < ours->n; i++)
		for (size_t k = 0; k < pub->n; k++) {
			if (pub->pages[k] != ours->pages[i] || !(pub->cma_max[k] >= 1e6) ||
			    ours->cma_max[i] >= 1e6)
				continue;
			sb_addf(&why, "%s%lld pages (%s us; published %s us)",
				first ? (nwhy++ ? "; CMA's longest request stays below a second at "
						: "CMA's longest request stays below a second at ")
				      : ", ", ours->pages[i], repro_num(ours->cma_max[i]), repro_num(pub->cma_max[k]));
			first = false;
		}
	agrees = !nwhy;
	if (nwhy && departs)
		sb_add(departs, why.buf);
	if (nwhy)
		sb_addf(md, "**Ours disagrees with the published shape**: %s.\n\n", why.buf);
	else
		sb_add(md, "Ours agrees with the published shape on these points: GCMA faster where "
		       "the published GCMA was, CMA's tail growing with size faster than GCMA's, "
		       "and to a second or more at each size where the published one did.\n\n");
	sb_free(&why);
	return agrees;
}

/* "1024-16384" */
bool parse_band(const char *s, long long *lo, long long *hi)
{
	char *end;

	*lo = strtoll(s, &end, 10);
	if (end == s || *end != '-')
		return false;
	s = end + 1;
	*hi = strtoll(s, &end, 10);
	return end != s && !*end;
}

void band_range(const struct shape *s, long long lo, long long hi, double *min, double *max,
		       size_t *n)
{
	*min = INFINITY;
	*max = -INFINITY;
	*n = 0;
	for (size_t i = 0; i < s->n; i++) {
		double r = repro_ratio(s->cma_avg[i], s->gcma_avg[i]);

		if (s->pages[i] < lo || s->pages[i] > hi || isnan(r))
			continue;
		*min = r < *min ? r : *min;
		*max = r > *max ? r : *max;
		(*n)++;
	}
}

