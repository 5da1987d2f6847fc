/*
 * docs/reproducing.md: the published figures (docs/published.csv) side by
 * side with ours, computed from results directories of the scenarios
 * rfc-v2, rfc-v2-background, paper-photo and lsfmm2025. Everything of
 * ours comes from the data set (dataset.h): allocations, bursts, timed jobs,
 * counters, samples and run metadata. Same input, same bytes. One file per
 * figure (repro-*.c).
 */
#ifndef CMB_REPRODUCE_H
#define CMB_REPRODUCE_H

#include "dataset/dataset.h"
#include "lib/util.h"

/*
 * A published row's tolerance band B (its tolerance column; the grammar is
 * in published.c and docs/reports.md), in the row's unit. A claim is judged
 * on a scale where distances mean the same everywhere: the logarithm of a
 * ratio (unit x), of 1 + an overhead / 100 (a metric ending in -overhead),
 * else the value itself.
 */
enum band_kind { BAND_NONE, BAND_RANGE, BAND_NC };
enum band_scale { SC_LIN, SC_LOG, SC_OVERHEAD };

struct band {
	enum band_kind kind;        /* NONE: a transcribed value, no claim of its own */
	const char *why;            /* BAND_NC: why not comparable (points into the row) */
	double lo, hi;              /* B; -INFINITY / INFINITY where open */
	double null;                /* no effect: 1 for a ratio, 0 else */
	int side;                   /* the published value's side of null: -1, 0, +1 */
	bool direction;             /* B is the published direction only */
	enum band_scale sc;
};

/* One line of docs/published.csv: figure,metric,setup,size,value,unit,source,tolerance */
struct pub_row {
	char *figure, *metric, *setup, *size, *value, *unit, *source, *tolerance;
	double v;                   /* value as a number */
	struct band band;           /* tolerance parsed */
};

/* The band of tol around v; -1 if tol does not parse. */
int band_parse(const char *tol, double v, const char *unit, const char *metric,
	       struct band *b);

struct published {
	struct pub_row *rows;
	size_t n;
	char *label;                /* how the document names the file */
};

/* Reads path; label names it in the document. -1 and a message in errs on error. */
int published_load(struct published *p, const char *path, const char *label,
		   struct strbuf *errs);
void published_free(struct published *p);
/* The row with these keys (size NULL: any size), or NULL. */
const struct pub_row *published_find(const struct published *p, const char *figure,
				     const char *metric, const char *setup, const char *size);

/* One results directory. */
struct repro_set {
	char *label;                /* the directory as given, without trailing '/' */
	struct dataset ds;
};

/* Loads dir (dataset_load); -1 and errs if it holds no run. */
int repro_set_load(struct repro_set *s, const char *dir, struct strbuf *errs);
void repro_set_free(struct repro_set *s);

/* The whole document. */
void reproduce_doc(const struct published *pub, const struct repro_set *sets, size_t nsets,
		   struct strbuf *md);

#endif
