/*
 * Comparison tables in the shape of mmtests' compare-kernels: the baseline
 * column first, every other column as "value (+x.xx%)", a difference
 * significant after false-discovery-rate control written "value *+x.xx%*",
 * and per metric whether lower or higher is better. Runs are the unit of
 * replication (report.c). Rendered as plain text and as Markdown.
 */
#ifndef CMB_REPORT_H
#define CMB_REPORT_H

#include "dataset/dataset.h"
#include "lib/util.h"
#include "report/report-table.h"
#include "report/stats.h"
#include "scenario/scenario.h"

/* Adds the comparison tables of cols (cols[0] is the baseline) to ts; the
 * caller renders them (report-table.h) once every table of its report is in. */
void report_tables(const struct report_col *cols, size_t ncols, struct tables *ts);
/* One declared primary comparison, tested (report-primary.c). */
struct primary_outcome {
	const struct primary *p;
	char *key;                  /* "kernel-mean@1024" */
	double ma, mb;              /* the medians of A's and B's runs; NAN: none */
	size_t na, nb;              /* their runs */
	bool lower_a, lower_b;      /* a median rests on censored requests: a lower bound */
	bool ratio;                 /* the estimate is B / A; else B - A */
	struct hodges_lehmann hl;
	double p_value, q;          /* exact p; q over the primaries */
	int test;                   /* -1: not tested, why says why */
	const char *why;
};

/*
 * The primaries of ds (its runs' metadata, else the shipped scenario file
 * of report_set_scenario_dir) tested on the values of ts's tables of cols,
 * and ts's tests adjusted; *from says where they were declared.
 */
struct primary_outcome *report_primaries_test(const struct dataset *ds,
					      const struct report_col *cols, size_t ncols,
					      struct tables *ts, struct primaries *ps, char **from);
void report_primaries_free(struct primary_outcome *res, struct primaries *ps);
/*
 * The comparisons of text (the key's form) tested on ds's sections as a
 * family of their own, as a report would test them were they its
 * primaries (reproduce's verdicts).
 */
struct primary_outcome *report_primaries_of(const struct dataset *ds, const char *text,
					    struct primaries *ps);
/* The same, rendered as the report's first table. */
void report_primaries(const struct dataset *ds, const struct report_col *cols, size_t ncols,
		      struct tables *ts, struct strbuf *txt, struct strbuf *md);
/*
 * B against A, section by section, on the metrics of A's primaries: the
 * Hodges-Lehmann ratio and its exact 95% interval, equivalent when inside
 * 1 +- margin with at least min_runs runs per arm (compare --equivalence).
 * Returns how many metrics were tested.
 */
size_t report_equivalence(const struct dataset *a, const struct dataset *b, double margin,
			  size_t min_runs, struct strbuf *txt, struct strbuf *md,
			  bool *all_equivalent);
/* Where the gnuplot scripts are (plots/). */
void report_set_plot_dir(const char *dir);
/* Draws dir's figures (dir/plots/) from its plot data with every script of
 * the plot directory (report-draw.c); 0, or 1 when a script failed. */
int report_draw(const char *dir, bool quiet);
/* What a finished run's results directory gets, local or through Slurm: its
 * report, then its figures (named in summary). 1 when the report failed. */
int report_finish(const char *dir, struct strbuf *summary);
/* Where the shipped scenario files are (workloads/scenarios). */
void report_set_scenario_dir(const char *dir);
/* Appends the list of failed and degraded runs of ds. */
void report_problems(const struct dataset *ds, struct strbuf *txt, struct strbuf *md);
/* A whole report of one results directory: sections side by side. Returns
 * how many of its tests found a significant difference (tables_significant). */
size_t report_dataset(const struct dataset *ds, const char *baseline, struct strbuf *txt,
		      struct strbuf *md);
/* Writes the files the gnuplot scripts in plots/ read into outdir (data/). */
int report_plot_data(const struct dataset *ds, const char *outdir);

/*
 * The data/ CSVs, plot data and report.md of one results directory (what
 * 'cmabench report DIR' does); prints the tables unless quiet; appends a
 * two-line summary to summary if not NULL. 0, or 1 on an error.
 */
int report_results(const char *dir, const char *baseline, bool quiet, struct strbuf *summary);

#endif
