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

/* Adds the comparison tables of cols (cols[0] is the baseline) to ts; the
 * caller renders them (report-table.h) once every table of its report is in. */
void report_tables(const struct report_col *cols, size_t ncols, struct tables *ts);
/* Appends the list of failed and degraded runs of ds. */
void report_problems(const struct dataset *ds, struct strbuf *txt, struct strbuf *md);
/* A whole report of one results directory: sections side by side. */
void report_dataset(const struct dataset *ds, const char *baseline, struct strbuf *txt,
		    struct strbuf *md);
/* Writes the files the gnuplot scripts in plots/ read into outdir (data/). */
int report_plot_data(const struct dataset *ds, const char *outdir);
/* Number of "*...*" marks (significant differences) in a rendered report. */
size_t report_count_significant(const char *text);

/*
 * The data/ CSVs, plot data and report.md of one results directory (what
 * 'cmabench report DIR' does); prints the tables unless quiet; appends a
 * two-line summary to summary if not NULL. 0, or 1 on an error.
 */
int report_results(const char *dir, const char *baseline, bool quiet, struct strbuf *summary);

#endif
