/*
 * What the parts of the report share, defined in report-common.c (report.c:
 * allocations and the whole report; report-runs.c: per-run metrics;
 * report-plots.c: plot data).
 */
#ifndef CMB_REPORT_INTERNAL_H
#define CMB_REPORT_INTERNAL_H

#include "report/report.h"
#include "report/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct dvec {
	double *v;
	size_t n, cap;
};

void dv_add(struct dvec *d, double x);
void dv_free(struct dvec *d);
double dv_mean(const struct dvec *d);
double dv_median(const struct dvec *d);
void dv_range(const struct dvec *d, double *lo, double *hi);
struct dvec *dvecs(size_t n);
void dvecs_free(struct dvec *d, size_t n);

/* A column's runs: its section's runs that ended ok or partial and reached their fill. */
bool col_run(const struct report_col *c, size_t run);
/* A tested row of per-run values (pr[c]: column c's); key: its endpoint name or NULL. */
void tested_row(struct tables *ts, struct table *t, const char *label, const char *better,
		int prec, const struct dvec *pr, bool agg_mean, const char *key);
/* "lo-hi" of per-run values. */
void spread_row(struct table *t, const char *label, const struct dvec *pr, int prec);

enum lat_side { USER, KERNEL };
/* A request's latency on a side in us, NAN where that side was not measured. */
double lat_us(const struct ds_alloc *a, enum lat_side side);
/* Request sizes of allocations tagged tag ("": the plan's) in any column, ascending. */
size_t all_sizes(const struct report_col *cols, size_t ncols, const char *tag, long long **out);
/* Every burst of a column's runs, in us; failed ones too (counted in *failed). */
void burst_samples(const struct report_col *c, struct dvec *out, size_t *failed);

/* report-censored.c: requests aborted at their deadline. Marks the rows of a
 * latency table that rest on one ("> x") and adds a row counting them. */
void censored_latency_rows(struct tables *ts, struct table *t, const struct report_col *cols,
			   size_t ncols, const char *tag, long long pages, enum lat_side side,
			   const char *k_p50, const char *k_p99, const char *k_mean);
/* The same for the burst table: a burst with an aborted request lasted at least as long. */
void censored_burst_rows(struct table *t, const struct report_col *cols, size_t ncols);
/* plot-survival-<pages>.dat (Kaplan-Meier) and its plot-vars.gp lines. */
int censored_plot_data(const struct report_col *cols, size_t ncols, const long long *sizes,
		       size_t nsizes, const char *outdir, struct strbuf *vars);

/* report-attr.c: where the kernel-side time went (docs/attribution.md) */
void attr_tables(struct tables *ts, const struct report_col *cols, size_t ncols);
int attr_plot_data(const struct report_col *cols, size_t ncols, const long long *sizes,
		   size_t nsizes, const char *outdir, struct strbuf *vars);
/* A request's share (%) of phase (state < 0), of state (phase < 0), or of both. */
double report_attr_share(const struct ds_attr *at, int phase, int state);
/* "55% what[5], 45% what[1]": kinds of pages that would not migrate, by share. */
void report_kinds_text(struct strbuf *sb, const long long *kinds, const char *const *what);
/* Phases and states of the attribution as a sentence names them (report-attr.c) */
extern const char *const report_phase_what[DS_NPHASES];
extern const char *const report_state_what[DS_NSTATES];
/* One sentence per set-up and size on the slowest attributed request. */
void report_slowest(const struct dataset *ds, struct strbuf *txt, struct strbuf *md);
/* report-regimes.c: the runs that changed regime, named with what differs */
void report_regimes(const struct dataset *ds, struct strbuf *txt, struct strbuf *md);

/* report-runs.c */
void job_tables(struct tables *ts, const struct report_col *cols, size_t ncols);
void launch_tables(struct tables *ts, const struct report_col *cols, size_t ncols);
void fio_tables(struct tables *ts, const struct report_col *cols, size_t ncols);
void counter_table(struct tables *ts, const struct report_col *cols, size_t ncols);
void perf_table(struct tables *ts, const struct report_col *cols, size_t ncols);

#endif
