/*
 * The harness's one CSV module: every CSV it reads (alloc.csv, trace-cma.csv,
 * samples.csv, jobtime.csv, backgrounds.csv, docs/published.csv) goes
 * through csv_open/csv_next, every CSV it writes through csv_put_*.
 * Fields may be "quoted" ("" inside quotes is a quote); the first line is
 * the header; empty lines and lines starting with '#' are skipped.
 */
#ifndef CMB_CSV_H
#define CMB_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

struct csv {
	char *text, *pos;
	size_t lineno;              /* of the current row, 1-based */
	struct strlist head;        /* header fields */
	struct strlist f;           /* fields of the current row */
};

/* Reads path and its header: 0, or -1 with errno when it cannot be read. */
int csv_open(struct csv *c, const char *path);
/* The same over a copy of text. */
void csv_open_text(struct csv *c, const char *text);
/* The next non-empty row into c->f; false at the end. */
bool csv_next(struct csv *c);
void csv_close(struct csv *c);

/* Index of a header column, or -1. */
int csv_col(const struct csv *c, const char *name);
/* Indices of names into idx; false if any is missing. */
bool csv_cols(const struct csv *c, const char *const *names, size_t n, int *idx);
/* Field col of the current row, NULL if the row is shorter (or col < 0). */
const char *csv_field(const struct csv *c, int col);
/* Whole-field numbers: false if absent, empty or not entirely a number. */
bool csv_ll(const struct csv *c, int col, long long *v);
bool csv_double(const struct csv *c, int col, double *v);

/* Splits one line into out (appended). */
size_t csv_split(const char *line, struct strlist *out);

/* Writing: a field (quoted only when it must be), and ",value" cells. */
void csv_put_str(struct strbuf *sb, const char *s);
/* ",v", or "," alone when v == none. */
void csv_put_ll(struct strbuf *sb, long long v, long long none);

#endif
