#include "report/report-table.h"
#include "report/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct table *tables_add(struct tables *ts, const struct report_col *cols, size_t ncols,
			 const char *title)
{
	struct table *t;

	ts->v = xrealloc(ts->v, (ts->n + 1) * sizeof(*ts->v));
	t = &ts->v[ts->n++];
	memset(t, 0, sizeof(*t));
	t->title = xstrdup(title);
	t->cols = cols;
	t->ncols = ncols;
	return t;
}

void tables_drop_all_rows(struct table *t)
{
	for (size_t i = 0; i < t->nrows; i++) {
		for (size_t c = 0; c < t->ncols; c++)
			free(t->rows[i].cells[c].text);
		free(t->rows[i].cells);
		free(t->rows[i].label);
	}
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}

static void table_free(struct table *t)
{
	tables_drop_all_rows(t);
	free(t->title);
	sl_free(&t->figures);
}

void table_figure(struct table *t, const char *caption, const char *name)
{
	sl_addf(&t->figures, "%s\tplots/%s.svg", caption, name);
}

void tables_heading(struct tables *ts, const char *title)
{
	tables_add(ts, NULL, 0, title)->heading = true;
}

void tables_drop_empty(struct tables *ts)
{
	if (ts->n && !ts->v[ts->n - 1].nrows && !ts->v[ts->n - 1].heading)
		table_free(&ts->v[--ts->n]);
}

static struct trow *new_row(struct table *t, const char *label, const char *better, int prec)
{
	struct trow *r;

	t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof(*t->rows));
	r = &t->rows[t->nrows++];
	r->label = xstrdup(label);
	r->better = better;
	r->prec = prec;
	r->cells = xcalloc(t->ncols, sizeof(*r->cells));
	for (size_t c = 0; c < t->ncols; c++) {
		r->cells[c].v = NAN;
		r->cells[c].test = -1;
	}
	return r;
}

struct trow *table_values(struct table *t, const char *label, const char *better, int prec,
			  const double *v)
{
	struct trow *r = new_row(t, label, better, prec);

	for (size_t c = 0; c < t->ncols; c++)
		r->cells[c].v = v[c];
	return r;
}

struct trow *table_text(struct table *t, const char *label)
{
	struct trow *r = new_row(t, label, "", 0);

	for (size_t c = 0; c < t->ncols; c++)
		r->cells[c].text = xstrdup("-");
	return r;
}

void table_set(struct trow *r, size_t c, char *text)
{
	free(r->cells[c].text);
	r->cells[c].text = text;
}

static int add_test(struct tests *ts, double p, bool separated, bool primary)
{
	if (ts->n == ts->cap) {
		ts->cap = ts->cap ? 2 * ts->cap : 64;
		ts->p = xrealloc(ts->p, ts->cap * sizeof(*ts->p));
		ts->q = xrealloc(ts->q, ts->cap * sizeof(*ts->q));
		ts->separated = xrealloc(ts->separated, ts->cap * sizeof(*ts->separated));
		ts->primary = xrealloc(ts->primary, ts->cap * sizeof(*ts->primary));
	}
	ts->p[ts->n] = p;
	ts->q[ts->n] = NAN;
	ts->separated[ts->n] = separated;
	ts->primary[ts->n] = primary;
	return (int)ts->n++;
}

int tests_add(struct tests *ts, double p, bool separated)
{
	return add_test(ts, p, separated, false);
}

int tests_add_primary(struct tests *ts, double p, bool separated)
{
	return add_test(ts, p, separated, true);
}

/*
 * q_(i) = min over j >= i of p_(j) m / j, capped at 1 (Benjamini and
 * Hochberg, 1995), over the m tests of one family: a primary's q does not
 * depend on how many secondary rows the report has, nor the other way.
 */
void tests_adjust(struct tests *ts)
{
	double *p = xcalloc(ts->n + 1, sizeof(*p)), *q = xcalloc(ts->n + 1, sizeof(*q));

	for (int fam = 0; fam < 2; fam++) {
		/* the other family's p-values out of this one's count */
		for (size_t i = 0; i < ts->n; i++)
			p[i] = ts->primary[i] == (fam == 1) ? ts->p[i] : NAN;
		stats_bh(p, ts->n, q);
		for (size_t i = 0; i < ts->n; i++)
			if (!isnan(p[i]))
				ts->q[i] = q[i];
	}
	ts->adjusted = true;
	free(p);
	free(q);
}

/* Whether cell c of r is printed marked: a tested change against column 0
 * whose adjusted q is below alpha and whose columns' per-run ranges part. */
static bool cell_marked(const struct tables *ts, const struct trow *r, size_t c)
{
	const struct tcell *x = &r->cells[c], *base = &r->cells[0];

	return c > 0 && !x->text && !isnan(x->v) && !base->text && !isnan(base->v) &&
	       base->v != 0 && x->test >= 0 && ts->tests.adjusted && !isnan(ts->tests.q[x->test]) &&
	       ts->tests.q[x->test] < REPORT_ALPHA && ts->tests.separated[x->test];
}

size_t tables_significant(const struct tables *ts)
{
	bool *seen = xcalloc(ts->tests.n ? ts->tests.n : 1, sizeof(*seen));
	size_t n = 0;

	for (size_t t = 0; t < ts->n; t++)
		for (size_t i = 0; i < ts->v[t].nrows; i++)
			for (size_t c = 1; c < ts->v[t].ncols; c++) {
				const struct trow *r = &ts->v[t].rows[i];

				if (cell_marked(ts, r, c) && !seen[r->cells[c].test]) {
					seen[r->cells[c].test] = true;
					n++;
				}
			}
	free(seen);
	return n;
}

/* The cell as printed: its text, or its value with the change and mark. */
static char *cell_text(const struct tables *ts, const struct trow *r, size_t c)
{
	const struct tcell *x = &r->cells[c], *base = &r->cells[0];
	char num[64];
	double change, q;
	bool mark;

	if (x->text)
		return xstrdup(x->text);
	if (isnan(x->v))
		return xstrdup("-");
	snprintf(num, sizeof(num), "%.*f", r->prec, x->v);
	if (c == 0 || base->text || isnan(base->v))
		return xstrdup(num);
	if (base->v == 0)
		return xasprintf("%s (%s)", num, x->v == 0 ? "+0.00%" : "n/a");
	change = (x->v - base->v) / fabs(base->v) * 100;
	if (x->test < 0 || !ts->tests.adjusted || isnan(ts->tests.q[x->test]))
		return xasprintf("%s (%+.2f%%)", num, change);
	q = ts->tests.q[x->test];
	mark = cell_marked(ts, r, c);
	/* a primary's cell carries the primaries' q, and says so */
	if (ts->tests.primary[x->test])
		return mark ? xasprintf("%s *%+.2f%%* (q %.3f, primary)", num, change, q)
			    : xasprintf("%s (%+.2f%%, q %.3f, primary)", num, change, q);
	if (mark)
		return xasprintf("%s *%+.2f%%* (q %.3f)", num, change, q);
	return xasprintf("%s (%+.2f%%, q %.3f)", num, change, q);
}

static void render(const struct tables *ts, const struct table *t, struct strbuf *txt,
		   struct strbuf *md)
{
	if (t->heading) {
		if (txt)
			sb_addf(txt, "== %s\n\n", t->title);
		if (md)
			sb_addf(md, "## %s\n\n", t->title);
		return;
	}
	size_t lw = strlen("metric"), bw = strlen("better"), *cw = xcalloc(t->ncols, sizeof(*cw));
	char ***cells = xcalloc(t->nrows, sizeof(*cells));

	for (size_t c = 0; c < t->ncols; c++)
		cw[c] = strlen(t->cols[c].label);
	for (size_t i = 0; i < t->nrows; i++) {
		cells[i] = xcalloc(t->ncols, sizeof(**cells));
		if (strlen(t->rows[i].label) > lw)
			lw = strlen(t->rows[i].label);
		for (size_t c = 0; c < t->ncols; c++) {
			cells[i][c] = cell_text(ts, &t->rows[i], c);
			if (strlen(cells[i][c]) > cw[c])
				cw[c] = strlen(cells[i][c]);
		}
	}
	if (txt) {
		sb_addf(txt, "%s\n  %-*s  %-*s", t->title, (int)lw, "", (int)bw, "better");
		for (size_t c = 0; c < t->ncols; c++)
			sb_addf(txt, "  %*s", (int)cw[c], t->cols[c].label);
		sb_add(txt, "\n");
		for (size_t i = 0; i < t->nrows; i++) {
			sb_addf(txt, "  %-*s  %-*s", (int)lw, t->rows[i].label, (int)bw,
				t->rows[i].better);
			for (size_t c = 0; c < t->ncols; c++)
				sb_addf(txt, "  %*s", (int)cw[c], cells[i][c]);
			/* no trailing blanks */
			while (txt->len && txt->buf[txt->len - 1] == ' ')
				txt->buf[--txt->len] = '\0';
			sb_add(txt, "\n");
		}
		sb_add(txt, "\n");
	}
	if (md) {
		sb_addf(md, "### %s\n\n| metric | better |", t->title);
		for (size_t c = 0; c < t->ncols; c++)
			sb_addf(md, " %s |", t->cols[c].label);
		sb_add(md, "\n|---|---|");
		for (size_t c = 0; c < t->ncols; c++)
			sb_add(md, "---:|");
		sb_add(md, "\n");
		for (size_t i = 0; i < t->nrows; i++) {
			sb_addf(md, "| %s | %s |", t->rows[i].label, t->rows[i].better);
			for (size_t c = 0; c < t->ncols; c++)
				sb_addf(md, " %s |", cells[i][c]);
			sb_add(md, "\n");
		}
		sb_add(md, "\n");
		for (size_t i = 0; !ts->no_figures && i < t->figures.n; i++) {
			const char *tab = strchr(t->figures.v[i], '\t');

			sb_addf(md, "![%.*s](%s)\n", (int)(tab - t->figures.v[i]), t->figures.v[i],
				tab + 1);
		}
		if (t->figures.n && !ts->no_figures)
			sb_add(md, "\n");
	}
	for (size_t i = 0; i < t->nrows; i++) {
		for (size_t c = 0; c < t->ncols; c++)
			free(cells[i][c]);
		free(cells[i]);
	}
	free(cells);
	free(cw);
}

void tables_render(struct tables *ts, struct strbuf *txt, struct strbuf *md)
{
	tests_adjust(&ts->tests);
	for (size_t i = 0; i < ts->n; i++)
		if (ts->v[i].nrows || ts->v[i].heading)
			render(ts, &ts->v[i], txt, md);
}

void tables_free(struct tables *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		table_free(&ts->v[i]);
	free(ts->v);
	free(ts->tests.p);
	free(ts->tests.q);
	free(ts->tests.separated);
	free(ts->tests.primary);
	for (size_t i = 0; i < ts->nep; i++) {
		free(ts->ep[i].key);
		free(ts->ep[i].v);
	}
	free(ts->ep);
	for (size_t i = 0; i < ts->nrefs; i++)
		free(ts->refs[i].key);
	free(ts->refs);
	memset(ts, 0, sizeof(*ts));
}
