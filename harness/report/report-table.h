/*
 * A comparison table in the shape of mmtests' compare-kernels: the baseline
 * column first, every other as "value (+x.xx%)". Marks are decided only
 * when the whole report has been built: every tested cell registers its
 * p-value with the report's tests, the false-discovery rate is controlled
 * within each family (Benjamini-Hochberg): the scenario's declared
 * primary comparisons, and every other test (secondary). A cell is marked
 * "value *+x.xx%*" when its adjusted q < alpha and the per-run values of
 * the two columns do not overlap entirely (one range inside the other).
 */
#ifndef CMB_REPORT_TABLE_H
#define CMB_REPORT_TABLE_H

#include "dataset/dataset.h"

#include <stdbool.h>

/* One column: the runs of one section of one data set. */
struct report_col {
	const char *label;
	const struct dataset *ds;
	const char *section;
};

/* The false-discovery rate a mark allows. */
#define REPORT_ALPHA 0.05

/*
 * The tests of one report, in two families adjusted apart: the primary
 * comparisons the scenario declares, and every other (secondary) test.
 */
struct tests {
	double *p, *q;
	bool *separated;            /* the two columns' per-run ranges are not nested */
	bool *primary;              /* in the primary family */
	size_t n, cap;
	bool adjusted;
};

/* A tested row's per-run values of one column, kept under the row's key. */
struct endpoint {
	char *key;                  /* "kernel-mean@1024", "burst-p50", ... */
	const char *col;            /* the column's label */
	double *v;
	size_t n;
	/* its median rests on requests censored at their deadline: a lower bound */
	bool lower;
};

/* Where a keyed row's cell of column col (tested against column 0) is. */
struct cellref {
	char *key;
	size_t table, row, col;
};

struct tcell {
	char *text;                 /* set: printed as is */
	double v;                   /* else a value (NAN prints "-") */
	int test;                   /* index into tests, or -1 */
};

struct trow {
	char *label;
	const char *better;         /* "lower", "higher" or "" */
	int prec;
	struct tcell *cells;
};

struct table {
	char *title;
	size_t ncols;
	const struct report_col *cols;
	struct trow *rows;
	size_t nrows;
	bool heading;               /* no rows: a heading between tables */
	struct strlist figures;     /* "caption\tplots/NAME.svg": shown below it in report.md */
};

/* A list of tables, rendered once the report's tests are adjusted. */
struct tables {
	struct table *v;
	size_t n;
	struct tests tests;
	struct endpoint *ep;        /* every keyed row's values, for the primaries */
	size_t nep;
	struct cellref *refs;
	size_t nrefs;
	/* compare: the figures are each results directory's own (its plots/),
	 * none beside a comparison, so no link to them */
	bool no_figures;
};

struct table *tables_add(struct tables *ts, const struct report_col *cols, size_t ncols,
			 const char *title);
/* A heading between tables (compare's sections). */
void tables_heading(struct tables *ts, const char *title);
/* A figure `make plots` (and run) draw from the same data, linked below
 * t in report.md: plots/NAME.svg relative to the results directory. */
void table_figure(struct table *t, const char *caption, const char *name);
/* Removes every row of t. */
void tables_drop_all_rows(struct table *t);
/* Drops the last table if it has no row. */
void tables_drop_empty(struct tables *ts);
/* Adjusts the tests and renders every table; frees them. */
void tables_render(struct tables *ts, struct strbuf *txt, struct strbuf *md);
void tables_free(struct tables *ts);

/* A row of values (v[c] per column; NAN: "-"), untested. */
struct trow *table_values(struct table *t, const char *label, const char *better, int prec,
			  const double *v);
/* A row of free text, "-" in every cell until set. */
struct trow *table_text(struct table *t, const char *label);
void table_set(struct trow *r, size_t c, char *text);

/*
 * Registers a two-sided test of column c against the baseline: p, and
 * whether the per-run values' ranges are not nested. Returns its index.
 */
int tests_add(struct tests *ts, double p, bool separated);
/* The same, in the primary family. */
int tests_add_primary(struct tests *ts, double p, bool separated);
/* Benjamini-Hochberg q-values of every registered test, each family apart. */
void tests_adjust(struct tests *ts);
/* The tests some table cell prints marked (significant, ranges apart),
 * each counted once: the report's count of significant differences. */
size_t tables_significant(const struct tables *ts);

#endif
