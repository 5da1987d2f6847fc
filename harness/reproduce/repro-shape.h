/*
 * The shape of a cma/gcma latency table (figure 1), computed the same way
 * for the published table and ours, and the sentences that compare them.
 */
#ifndef CMB_REPRO_SHAPE_H
#define CMB_REPRO_SHAPE_H

#include "reproduce/repro-common.h"

struct shape {
	size_t n;                   /* sizes with cma and gcma */
	long long *pages;
	double *cma_avg, *gcma_avg, *cma_max, *gcma_max;
};

void shape_add(struct shape *s, long long pages, double ca, double ga, double cm, double gm);
void shape_free(struct shape *s);
/* "GCMA's average is lower than CMA's at 7 of 8 sizes; CMA's max grows ..." */
void shape_describe(struct strbuf *md, const char *who, const struct shape *s);
/* The points where ours departs from the published shape, in words (also into
 * departs, if not NULL); true if none. */
bool shape_verdict(struct strbuf *md, const struct shape *pub, const struct shape *ours,
		   struct strbuf *departs);
/* "1024-16384" */
bool parse_band(const char *s, long long *lo, long long *hi);
/* The lowest and highest cma/gcma average ratio of the sizes in [lo, hi]. */
void band_range(const struct shape *s, long long lo, long long hi, double *min, double *max,
		size_t *n);

#endif
