/*
 * Verdicts: a published claim (a row of docs/published.csv with its
 * tolerance band B) against ours (an estimate and its 95% interval from
 * per-run values), decided by one function for every figure:
 *   agrees          our interval lies inside B and on the published side;
 *   differs         our interval does not meet B (by how much, which way);
 *   inconclusive    it meets B's edge: the runs a decision would need;
 *   not comparable  no band, no results or too few runs, with why.
 */
#ifndef CMB_REPRO_VERDICT_H
#define CMB_REPRO_VERDICT_H

#include "lib/util.h"
#include "reproduce/reproduce.h"

enum verdict { V_AGREES, V_DIFFERS, V_INCONCLUSIVE, V_NOT_COMPARABLE };

/* Ours for one claim, in the claim row's unit. */
struct ours {
	double est, lo, hi;         /* estimate and 95% interval; NAN: none */
	double p, q;                /* exact two-sided p (Mann-Whitney), q over the figure; NAN */
	double sd;                  /* pooled per-run sd on the band's scale; NAN: unknown */
	size_t na, nb;              /* runs of A and of B; nb 0: a range of point values */
	char why[200];              /* not comparable: why; "" otherwise */
};

/*
 * B against A from per-run values: the Hodges-Lehmann B / A (logs; sc
 * SC_LOG), its overhead in % (SC_OVERHEAD) or the shift B - A (SC_LIN),
 * with Moses' exact 95% interval and the Mann-Whitney p. Too few runs for
 * the interval to reach 95% (p can never fall below 0.05) fill why.
 */
void ours_two(struct ours *o, const double *a, size_t na, const double *b, size_t nb,
	      enum band_scale sc);
/* Ours as the range lo-hi of n point values (no test: nothing is needed or said of runs). */
void ours_range(struct ours *o, double lo, double hi, size_t n);

struct claim {
	const struct pub_row *row;
	char label[160];            /* what is compared, as the page names it */
	struct ours ours;
	/* claim_decide fills: */
	enum verdict v;
	int dir;                    /* our interval's side of no effect: -1, 0 (both), +1 */
	size_t need;                /* inconclusive: runs per set-up a decision would need; 0 unknown */
};

/* The decision, for every figure the same; also fills dir and need. */
enum verdict claim_decide(struct claim *c);
/* Benjamini-Hochberg q over the tested claims of one figure. */
void claims_adjust(struct claim *c, size_t n);
/* The claims' table: published, B, ours, direction and magnitude on their own columns. */
void claims_table(struct strbuf *md, struct claim *c, size_t n);
/* The figure's verdict from its claims (any differs, else any inconclusive, else agrees);
 * title, if not NULL, names it ("photo-shot latency"). */
enum verdict claims_verdict(struct strbuf *md, struct claim *c, size_t n, const char *title);
/* "**Verdict: differs.** why" as its own paragraph. */
void verdict_line(struct strbuf *md, enum verdict v, const char *why);

#endif
