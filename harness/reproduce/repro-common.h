/*
 * What the published figures of docs/reproducing.md share: choosing the
 * runs of a scenario, naming where a table's numbers came from, and
 * formatting them. Each figure is one repro-<figure>.c behind struct
 * repro_figure (reproduce.c lists them).
 */
#ifndef CMB_REPRO_COMMON_H
#define CMB_REPRO_COMMON_H

#include "report/report.h"
#include "report/stats.h"
#include "reproduce/reproduce.h"
#include "reproduce/repro-verdict.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DASH "\xe2\x80\x93"     /* en dash, for ranges */

/* The published figures, as named in the figure column of published.csv. */
#define FIG_LAT "rfc-v2-latency"
#define FIG_BG "rfc-v2-background"
#define FIG_PAPER "gcma-paper"
#define FIG_LSF "lsfmm2025"

/* What figure 3 takes from figure 1: cma/gcma of the per-size averages. */
struct lat_ratios {
	size_t n;
	long long *pages;
	double *ours;
};

/* Everything a figure reads; no figure writes it. */
struct repro_ctx {
	const struct published *pub;
	const struct repro_set *sets;
	size_t nsets;
};

/* Our CMA / GCMA ratio of average latencies per size of rfc-v2's runs, as
 * figure 1's table shows it (repro-latency.c; figure 3 quotes it). */
void repro_latency_ratios(const struct repro_ctx *ctx, struct lat_ratios *lr);
void lat_ratios_free(struct lat_ratios *lr);

struct repro_figure {
	const char *name;
	const char *scenario;       /* the scenario whose runs it reads */
	void (*render)(struct strbuf *md, struct repro_ctx *ctx);
};

extern const struct repro_figure repro_fig_latency, repro_fig_background, repro_fig_paper,
	repro_fig_lsfmm;

/* ---- the runs of one scenario ---- */
struct pick {
	const struct repro_set *set;
	size_t run;
};

struct picks {
	struct pick *v;
	size_t n;
	const char *scenario;
	const char *const *sections;    /* NULL-terminated */
};

bool in_list(const char *const *l, const char *s);
const struct ds_run *prun(const struct pick *k);
void picks_select(struct picks *ps, const struct repro_set *sets, size_t nsets,
		  const char *scenario, const char *const *sections);
/* Does any run (ok or not) of the section exist? */
bool picks_has_section(const struct picks *ps, const char *section);
bool pick_ok(const struct pick *k, const char *section);
/* Under a table: which directories, runs and files its rows came from. */
void sources(struct strbuf *md, const struct picks *ps, const char *files,
	     const struct strlist *notes);
void no_results(struct strbuf *md, const char *scenario, const char *const *sections);
/* "an x86-64 guest under QEMU tcg (TCG: an emulated CPU), Linux 6.12.118, 1 vCPU, ..." */
void describe_env(struct strbuf *md, const struct picks *ps);

/*
 * What the allocators had to do in our runs (repro-facts.c): the area's
 * occupancy the first (and, for GCMA, the last) request met, as alloc.csv
 * records it, and, per CMA request, the pages migrated and busy retries,
 * over every ok run: the runs without a value are named, a partly traced
 * run gives a bound. Appends one or two sentences; nothing if no run has them.
 */
void area_facts(struct strbuf *md, const struct picks *ps, const char *cma, const char *gcma);

/* Ends a paragraph: trailing blanks dropped, a blank line. */
void end_paragraph(struct strbuf *md);

/* ---- numbers (rotating buffers: a row can hold several) ---- */
const char *repro_num(double v);
const char *repro_pct(double v);
const char *repro_zu(size_t n);
/* "3 (96)", "3 (96; 2 failed)", "0 (4 failed)" */
const char *ncol(size_t reps, size_t items, size_t fails);
double repro_ratio(double a, double b);

/* A per-repetition statistic over the repetitions. */
struct over {
	size_t n;
	double med, lo, hi;
};
struct over over_reps(const double *v, size_t n);
const char *repro_range(struct over o);

/* Published values: the source of a figure's first row, one value (NAN if none). */
const char *pub_source(const struct published *pub, const char *figure);
double pub_value(const struct published *p, const char *figure, const char *metric,
		 const char *setup, const char *size);

#endif
