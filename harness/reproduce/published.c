/*
 * docs/published.csv: the published figures, one value a row (figure,
 * metric, set-up, size, value, unit, source, tolerance), read once and
 * looked up by the figure files (repro-*.c).
 *
 * tolerance is the band B a claim of ours must lie in to agree (repro-
 * verdict.c decides); empty: a transcribed value the tables show, judged
 * by no claim of its own. F and D are numbers:
 *   xF          a magnitude: B = [value / F, value * F]
 *   <=xF        "up to": from no effect (1 for a ratio, 0 else) to value * F
 *   >=xF        "at least": value / F and above
 *   +-D         B = [value - D, value + D]
 *   direction   the side of no effect the value is on, nothing more
 *   not comparable: WHY   no claim of ours can be judged against it
 */
#include "lib/csv.h"
#include "reproduce/repro-common.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pub_cols[] = { "figure", "metric", "setup", "size", "value", "unit",
					"source", "tolerance" };
#define NPUB ARRAY_SIZE(pub_cols)

/* "x2" -> 2 after the prefix; false unless a positive number ends the string */
static bool band_factor(const char *s, const char *prefix, double *f)
{
	size_t n = strlen(prefix);
	char *end;

	if (strncmp(s, prefix, n))
		return false;
	errno = 0;
	*f = strtod(s + n, &end);
	return end != s + n && !*end && !errno && *f > 0;
}

int band_parse(const char *tol, double v, const char *unit, const char *metric, struct band *b)
{
	size_t ml = strlen(metric);
	double f;

	memset(b, 0, sizeof(*b));
	b->sc = !strcmp(unit, "x") ? SC_LOG
		: ml > 9 && !strcmp(metric + ml - 9, "-overhead") ? SC_OVERHEAD : SC_LIN;
	b->null = b->sc == SC_LOG ? 1 : 0;
	b->side = v > b->null ? 1 : v < b->null ? -1 : 0;
	b->lo = -INFINITY;
	b->hi = INFINITY;
	if (!*tol)
		return 0;
	if (!strncmp(tol, "not comparable: ", 16) && tol[16]) {
		b->kind = BAND_NC;
		b->why = tol + 16;
		return 0;
	}
	b->kind = BAND_RANGE;
	if (!strcmp(tol, "direction")) {
		b->direction = true;
		if (b->side > 0)
			b->lo = b->null;
		else if (b->side < 0)
			b->hi = b->null;
		return b->side ? 0 : -1;
	}
	if (band_factor(tol, "x", &f) && f >= 1) {
		b->lo = fmin(v / f, v * f);
		b->hi = fmax(v / f, v * f);
	} else if (band_factor(tol, "<=x", &f) && b->side > 0) {
		b->lo = b->null;
		b->hi = v * f;
	} else if (band_factor(tol, ">=x", &f) && b->side > 0) {
		b->lo = v / f;
	} else if (band_factor(tol, "+-", &f)) {
		b->lo = v - f;
		b->hi = v + f;
	} else {
		return -1;
	}
	return 0;
}

int published_load(struct published *p, const char *path, const char *label,
		   struct strbuf *errs)
{
	struct csv c;
	int idx[NPUB];
	int ret = 0;

	memset(p, 0, sizeof(*p));
	p->label = xstrdup(label);
	if (csv_open(&c, path)) {
		sb_addf(errs, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!c.head.n) {
		sb_addf(errs, "%s: empty\n", path);
		csv_close(&c);
		return -1;
	}
	if (!csv_cols(&c, pub_cols, NPUB, idx))
		for (size_t i = 0; i < NPUB; i++)
			if (idx[i] < 0) {
				sb_addf(errs, "%s:%zu: no column '%s' in the header\n", path, c.lineno,
					pub_cols[i]);
				ret = -1;
			}
	while (!ret && csv_next(&c)) {
		struct pub_row *r;
		char *end;

		for (size_t i = 0; i < NPUB && !ret; i++)
			if (!csv_field(&c, idx[i])) {
				sb_addf(errs, "%s:%zu: %zu fields, expected %zu\n", path, c.lineno,
					c.f.n, NPUB);
				ret = -1;
			}
		if (ret)
			break;
		p->rows = xrealloc(p->rows, (p->n + 1) * sizeof(*p->rows));
		r = &p->rows[p->n++];
		r->figure = xstrdup(csv_field(&c, idx[0]));
		r->metric = xstrdup(csv_field(&c, idx[1]));
		r->setup = xstrdup(csv_field(&c, idx[2]));
		r->size = xstrdup(csv_field(&c, idx[3]));
		r->value = xstrdup(csv_field(&c, idx[4]));
		r->unit = xstrdup(csv_field(&c, idx[5]));
		r->source = xstrdup(csv_field(&c, idx[6]));
		r->tolerance = xstrdup(csv_field(&c, idx[7]));
		errno = 0;
		r->v = strtod(r->value, &end);
		if (end == r->value || *end || errno) {
			sb_addf(errs, "%s:%zu: value '%s' is not a number\n", path, c.lineno, r->value);
			ret = -1;
		} else if (band_parse(r->tolerance, r->v, r->unit, r->metric, &r->band)) {
			sb_addf(errs, "%s:%zu: tolerance '%s' is not a band (xF, <=xF, >=xF, +-D, "
				"direction, not comparable: why)\n", path, c.lineno, r->tolerance);
			ret = -1;
		}
	}
	csv_close(&c);
	return ret;
}

void published_free(struct published *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct pub_row *r = &p->rows[i];

		free(r->figure);
		free(r->metric);
		free(r->setup);
		free(r->size);
		free(r->value);
		free(r->unit);
		free(r->source);
		free(r->tolerance);
	}
	free(p->rows);
	free(p->label);
	memset(p, 0, sizeof(*p));
}

const struct pub_row *published_find(const struct published *p, const char *figure,
				     const char *metric, const char *setup, const char *size)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct pub_row *r = &p->rows[i];

		if (!strcmp(r->figure, figure) && !strcmp(r->metric, metric) &&
		    (!setup || !strcmp(r->setup, setup)) && (!size || !strcmp(r->size, size)))
			return r;
	}
	return NULL;
}

/* ---- results directories -------------------------------------------------- */
