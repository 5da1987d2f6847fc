/*
 * Verdicts (repro-verdict.h): ours from per-run values, and the one
 * decision every figure's claims go through against a row's band (parsed
 * by published.c as the csv is read). Distances are taken on the band's
 * scale (logs for ratios and overheads), so "x2 above" means the same at
 * 10x as at 100x.
 */
#include "reproduce/repro-common.h"

#include <stdio.h>

/* 95% two-sided and 80% power: the normal quantiles of the sample size */
#define Z_975 1.959964
#define Z_80 0.841621
/* beyond this, "over": the number says only that no feasible run count decides */
#define NEED_MAX 1000

static double scale_t(enum band_scale sc, double v)
{
	if (sc == SC_LIN || isinf(v))
		return v;
	if (sc == SC_LOG)
		return v > 0 ? log(v) : -INFINITY;
	return v > -100 ? log1p(v / 100) : -INFINITY;
}

static double scale_inv(enum band_scale sc, double t)
{
	return sc == SC_LIN ? t : sc == SC_LOG ? exp(t) : expm1(t) * 100;
}

void ours_range(struct ours *o, double lo, double hi, size_t n)
{
	memset(o, 0, sizeof(*o));
	o->est = o->p = o->q = o->sd = NAN;
	o->lo = lo;
	o->hi = hi;
	o->na = n;
	if (!n || isnan(lo) || isnan(hi))
		snprintf(o->why, sizeof(o->why), "no results");
}

/* The pooled sample sd of two samples (NAN with fewer than 3 values in all). */
static double pooled_sd(const double *a, size_t na, const double *b, size_t nb)
{
	struct summary sa, sb;

	if (na + nb < 3)
		return NAN;
	stats_summary(a, na, &sa);
	stats_summary(b, nb, &sb);
	return sqrt(((na - 1) * sa.sd * sa.sd + (nb - 1) * sb.sd * sb.sd) / (double)(na + nb - 2));
}

void ours_two(struct ours *o, const double *a, size_t na, const double *b, size_t nb,
	      enum band_scale sc)
{
	double *ta = xcalloc(na + 1, sizeof(*ta)), *tb = xcalloc(nb + 1, sizeof(*tb));
	struct hodges_lehmann hl;
	struct mann_whitney mw;
	bool positive = true;

	memset(o, 0, sizeof(*o));
	o->est = o->lo = o->hi = o->p = o->q = o->sd = NAN;
	o->na = na;
	o->nb = nb;
	for (size_t i = 0; i < na; i++) {
		positive &= a[i] > 0;
		ta[i] = sc == SC_LIN ? a[i] : log(a[i]);
	}
	for (size_t i = 0; i < nb; i++) {
		positive &= b[i] > 0;
		tb[i] = sc == SC_LIN ? b[i] : log(b[i]);
	}
	if (!na || !nb)
		snprintf(o->why, sizeof(o->why), "no results of %s", !na && !nb ? "either set-up"
			 : !na ? "the first set-up" : "the second set-up");
	else if (stats_mw_smallest_p(na, nb) >= REPORT_ALPHA)
		snprintf(o->why, sizeof(o->why), "too few runs: %zu against %zu (the smallest p "
			 "they can give is %.3f)", na, nb, stats_mw_smallest_p(na, nb));
	else if (sc != SC_LIN && !positive)
		snprintf(o->why, sizeof(o->why), "a run's value is not above 0: no ratio");
	if (!o->why[0]) {
		stats_hodges_lehmann(ta, na, tb, nb, REPORT_ALPHA, &hl);
		stats_mann_whitney(ta, na, tb, nb, &mw);
		o->est = scale_inv(sc, hl.est);
		o->lo = scale_inv(sc, hl.lo);
		o->hi = scale_inv(sc, hl.hi);
		o->p = o->q = mw.p;
		o->sd = pooled_sd(ta, na, tb, nb);
	}
	free(ta);
	free(tb);
}

/* How far (on the scale) t is from the nearest finite edge of [bl, bh]. */
static double edge_distance(double t, double bl, double bh)
{
	double d = INFINITY;

	if (t < bl)
		return bl - t;
	if (t > bh)
		return t - bh;
	if (isfinite(bl))
		d = fmin(d, t - bl);
	if (isfinite(bh))
		d = fmin(d, bh - t);
	return d;
}

enum verdict claim_decide(struct claim *c)
{
	const struct band *b = &c->row->band;
	const struct ours *o = &c->ours;
	double tl, th, bl, bh, t0, d;

	c->dir = 0;
	c->need = 0;
	if (b->kind != BAND_RANGE || o->why[0] || isnan(o->lo) || isnan(o->hi))
		return c->v = V_NOT_COMPARABLE;
	tl = scale_t(b->sc, o->lo);
	th = scale_t(b->sc, o->hi);
	bl = scale_t(b->sc, b->lo);
	bh = scale_t(b->sc, b->hi);
	t0 = scale_t(b->sc, b->null);
	c->dir = tl > t0 ? 1 : th < t0 ? -1 : 0;
	if (th < bl || tl > bh)
		return c->v = V_DIFFERS;
	if (tl >= bl && th <= bh && (!b->side || c->dir == b->side))
		return c->v = V_AGREES;
	/*
	 * Inconclusive: the interval must shrink off the edge nearest the
	 * estimate; a normal approximation of its half-width, z sd sqrt(2 / n),
	 * with 80% power, gives n = 2 ((z_0.975 + z_0.8) sd / d)^2 per set-up.
	 */
	d = isnan(o->est) ? NAN : edge_distance(scale_t(b->sc, o->est), bl, bh);
	if (o->nb && o->sd > 0 && d > 0 && isfinite(d))
		c->need = (size_t)ceil(2 * pow((Z_975 + Z_80) * o->sd / d, 2));
	return c->v = V_INCONCLUSIVE;
}

void claims_adjust(struct claim *c, size_t n)
{
	double *p = xcalloc(n + 1, sizeof(*p)), *q = xcalloc(n + 1, sizeof(*q));

	for (size_t i = 0; i < n; i++)
		p[i] = c[i].ours.p;
	stats_bh(p, n, q);
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			c[i].ours.q = q[i];
	free(p);
	free(q);
}

/* A value in the row's unit: "20.0x", "+3.15%", "88.5%". */
static const char *fmt_val(const struct pub_row *r, double v)
{
	static char buf[16][48];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];

	if (isnan(v))
		snprintf(b, sizeof(buf[0]), "-");
	else if (isinf(v))
		snprintf(b, sizeof(buf[0]), "%s", v > 0 ? "inf" : "-inf");
	else if (r->band.sc == SC_OVERHEAD)
		snprintf(b, sizeof(buf[0]), "%+.2f%%", v);
	else
		snprintf(b, sizeof(buf[0]), "%s%s", repro_num(v), r->unit);
	return b;
}

/* B in words: "10.0x" DASH "40.0x", "at most 20.0x (above 1x)", "below 1x". */
static const char *band_text(const struct pub_row *r)
{
	static char buf[4][128];
	static unsigned k;
	const struct band *b = &r->band;
	char *t = buf[k++ % ARRAY_SIZE(buf)];

	if (b->direction)
		snprintf(t, sizeof(buf[0]), "%s %s", b->side > 0 ? "above" : "below",
			 fmt_val(r, b->null));
	else if (isfinite(b->lo) && isfinite(b->hi) && b->lo == b->null)
		snprintf(t, sizeof(buf[0]), "above %s, at most %s", fmt_val(r, b->null),
			 fmt_val(r, b->hi));
	else if (isfinite(b->lo) && isfinite(b->hi))
		snprintf(t, sizeof(buf[0]), "%s" DASH "%s", fmt_val(r, b->lo), fmt_val(r, b->hi));
	else if (isfinite(b->lo))
		snprintf(t, sizeof(buf[0]), "at least %s", fmt_val(r, b->lo));
	else
		snprintf(t, sizeof(buf[0]), "at most %s", fmt_val(r, b->hi));
	return t;
}

/* How far outside B the interval lies: "x1.32 above B", "2.10 points below B". */
static const char *outside_text(const struct claim *c)
{
	static char buf[4][96];
	static unsigned k;
	const struct band *b = &c->row->band;
	char *t = buf[k++ % ARRAY_SIZE(buf)];
	bool above = c->ours.lo > b->hi;
	double edge = above ? b->hi : b->lo, ours = above ? c->ours.lo : c->ours.hi;

	if (b->sc == SC_LOG)
		snprintf(t, sizeof(buf[0]), "x%s %s B", repro_num(above ? ours / edge : edge / ours),
			 above ? "above" : "below");
	else
		snprintf(t, sizeof(buf[0]), "%s points %s B", repro_num(fabs(ours - edge)),
			 above ? "above" : "below");
	return t;
}

static const char *direction_text(const struct claim *c)
{
	int side = c->row->band.side;

	if (!side || c->v == V_NOT_COMPARABLE)
		return "-";
	return c->dir == side ? "same" : c->dir == -side ? "opposite" : "unresolved";
}

static const char *magnitude_text(const struct claim *c)
{
	const struct band *b = &c->row->band;

	if (c->v == V_NOT_COMPARABLE || b->direction)
		return "-";
	if (c->v == V_DIFFERS)
		return outside_text(c);
	if (c->v == V_AGREES)
		return "inside B";
	return "meets B's edge";
}

/* The decision in words: "differs in magnitude", "inconclusive (about 392 runs each)". */
static const char *decision_text(const struct claim *c)
{
	static char buf[4][256];
	static unsigned k;
	char *t = buf[k++ % ARRAY_SIZE(buf)];

	if (c->v == V_AGREES)
		snprintf(t, sizeof(buf[0]), "agrees");
	else if (c->v == V_DIFFERS)
		snprintf(t, sizeof(buf[0]), "differs in %s",
			 c->row->band.direction || c->dir == -c->row->band.side ? "direction"
										 : "magnitude");
	else if (c->v == V_INCONCLUSIVE && c->need > NEED_MAX)
		snprintf(t, sizeof(buf[0]), "inconclusive (over %d runs per set-up)", NEED_MAX);
	else if (c->v == V_INCONCLUSIVE && c->need)
		snprintf(t, sizeof(buf[0]), "inconclusive (about %zu runs per set-up)", c->need);
	else if (c->v == V_INCONCLUSIVE)
		snprintf(t, sizeof(buf[0]), "inconclusive");
	else
		snprintf(t, sizeof(buf[0]), "not comparable: %s",
			 c->row->band.kind == BAND_NC ? c->row->band.why
			 : c->row->band.kind == BAND_NONE ? "no band in published.csv"
			 : c->ours.why[0] ? c->ours.why : "no results");
	return t;
}

/* "101x (95% interval 26.3x–364x; 5 against 5 runs, q 0.008)" */
static const char *ours_text(const struct claim *c)
{
	static char buf[4][200];
	static unsigned k;
	const struct ours *o = &c->ours;
	char *t = buf[k++ % ARRAY_SIZE(buf)];

	if (o->why[0] || isnan(o->lo))
		snprintf(t, sizeof(buf[0]), "n/a");
	else if (!o->nb && o->lo == o->hi)
		snprintf(t, sizeof(buf[0]), "%s (one of %zu values, no interval)",
			 fmt_val(c->row, o->lo), o->na);
	else if (!o->nb)
		snprintf(t, sizeof(buf[0]), "%s" DASH "%s (the range of %zu values)",
			 fmt_val(c->row, o->lo), fmt_val(c->row, o->hi), o->na);
	else
		snprintf(t, sizeof(buf[0]), "%s (95%% interval %s" DASH "%s; %zu against %zu "
			 "runs, q %.3f)", fmt_val(c->row, o->est), fmt_val(c->row, o->lo),
			 fmt_val(c->row, o->hi), o->na, o->nb, o->q);
	return t;
}

void claims_table(struct strbuf *md, struct claim *c, size_t n)
{
	sb_add(md, "| claim | published | band B (tolerance) | ours | direction | magnitude | "
	       "decision |\n|---|---:|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		claim_decide(&c[i]);
		sb_addf(md, "| %s | %s | %s | %s | %s | %s | %s |\n", c[i].label,
			fmt_val(c[i].row, c[i].row->v),
			c[i].row->band.kind == BAND_RANGE ? band_text(c[i].row) : "-",
			ours_text(&c[i]), direction_text(&c[i]), magnitude_text(&c[i]),
			decision_text(&c[i]));
	}
	sb_add(md, "\n");
}

/* The claims of verdict v, in words, into why. */
static void claims_why(struct strbuf *why, const struct claim *c, size_t n, enum verdict v)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (c[i].v != v)
			continue;
		sb_addf(why, "%s%s: ", k++ ? "; " : "", c[i].label);
		if (v == V_NOT_COMPARABLE)
			sb_add(why, decision_text(&c[i]) + strlen("not comparable: "));
		else if (v == V_DIFFERS && c[i].row->band.side)
			sb_addf(why, "%s direction; %s against the published %s (B %s): %s, %s",
				direction_text(&c[i]), ours_text(&c[i]), fmt_val(c[i].row, c[i].row->v),
				band_text(c[i].row), outside_text(&c[i]), decision_text(&c[i]));
		else if (v == V_DIFFERS)
			sb_addf(why, "%s against the published %s (B %s): %s, %s", ours_text(&c[i]),
				fmt_val(c[i].row, c[i].row->v), band_text(c[i].row),
				outside_text(&c[i]), decision_text(&c[i]));
		else
			sb_addf(why, "%s against B %s", ours_text(&c[i]), band_text(c[i].row));
	}
}

enum verdict claims_verdict(struct strbuf *md, struct claim *c, size_t n, const char *title)
{
	static const char *const word[] = { "agrees", "differs", "inconclusive", "not comparable" };
	size_t count[4] = { 0 }, need = 0, fewest = SIZE_MAX;
	enum verdict v;
	struct strbuf why;

	for (size_t i = 0; i < n; i++) {
		claim_decide(&c[i]);
		count[c[i].v]++;
		if (c[i].v == V_INCONCLUSIVE && c[i].need > need)
			need = c[i].need;
		if (c[i].v == V_INCONCLUSIVE && c[i].need && c[i].need < fewest)
			fewest = c[i].need;
	}
	v = count[V_DIFFERS] ? V_DIFFERS : count[V_INCONCLUSIVE] ? V_INCONCLUSIVE
	    : count[V_AGREES] ? V_AGREES : V_NOT_COMPARABLE;
	sb_init(&why);
	claims_why(&why, c, n, v);
	if (v == V_INCONCLUSIVE && need) {
		sb_add(&why, ". A decision would need about ");
		if (fewest < need)
			sb_addf(&why, "%zu (the claim nearest a decision) to ", fewest);
		if (need > NEED_MAX)
			sb_addf(&why, "over %d", NEED_MAX);
		else
			sb_addf(&why, "%zu", need);
		sb_add(&why, " runs per set-up at the observed spread (normal approximation, 80% "
		       "power: n = 2 ((1.96 + 0.84) sd / d)^2, sd the pooled per-run sd on B's scale, "
		       "d the estimate's distance to B's nearest edge)");
	}
	else if (v == V_INCONCLUSIVE)
		sb_add(&why, ". No number of runs can be given (no per-run spread, or the estimate "
		       "on B's edge)");
	if (v != V_NOT_COMPARABLE && n > count[v])
		sb_addf(&why, " (of %zu claims: %zu agree, %zu differ, %zu inconclusive, %zu not "
			"comparable)", n, count[V_AGREES], count[V_DIFFERS], count[V_INCONCLUSIVE],
			count[V_NOT_COMPARABLE]);
	if (!n)
		sb_add(&why, "no claim of this figure has a row in published.csv");
	sb_addf(md, "**Verdict%s%s%s: %s.** %s.\n\n", title ? " (" : "", title ? title : "",
		title ? ")" : "", word[v], why.buf);
	sb_free(&why);
	return v;
}

void verdict_line(struct strbuf *md, enum verdict v, const char *why)
{
	static const char *const word[] = { "agrees", "differs", "inconclusive", "not comparable" };

	sb_addf(md, "**Verdict: %s.** %s\n\n", word[v], why);
}
