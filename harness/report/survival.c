/* Censored quantiles and Kaplan-Meier; definitions in survival.h. */
#include "report/survival.h"
#include "lib/util.h"

#include <math.h>
#include <stdlib.h>

struct obs {
	double x;
	bool cens;
};

/* By value; at equal values an event first: it ended there, the censored
 * one only is known to last that long. */
static int cmp_obs(const void *a, const void *b)
{
	const struct obs *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return (int)p->cens - (int)q->cens;
}

static struct obs *sorted_obs(const double *x, const bool *cens, size_t n)
{
	struct obs *o = xmalloc((n ? n : 1) * sizeof(*o));

	for (size_t i = 0; i < n; i++)
		o[i] = (struct obs){ x[i], cens && cens[i] };
	qsort(o, n, sizeof(*o), cmp_obs);
	return o;
}

double surv_quantile(const double *x, const bool *cens, size_t n, double p, bool *lower)
{
	struct obs *o;
	double h, frac, v;
	size_t i, first = n, last;

	*lower = false;
	if (!n)
		return NAN;
	o = sorted_obs(x, cens, n);
	h = (n - 1) * p;
	i = (size_t)floor(h);
	frac = h - i;
	if (i >= n - 1) {
		i = n - 1;
		frac = 0;
	}
	v = frac > 0 ? o[i].x + frac * (o[i + 1].x - o[i].x) : o[i].x;
	last = frac > 0 ? i + 1 : i;
	for (size_t k = 0; k < n && first == n; k++)
		if (o[k].cens)
			first = k;
	*lower = first <= last;
	free(o);
	return v;
}

size_t surv_kaplan_meier(const double *x, const bool *cens, size_t n, struct km_step **out)
{
	struct obs *o = sorted_obs(x, cens, n);
	struct km_step *st = xcalloc(n ? n : 1, sizeof(*st));
	double s = 1, green = 0;
	size_t ns = 0;

	for (size_t i = 0; i < n;) {
		size_t at_risk = n - i, d = 0, c = 0, j = i;

		while (j < n && o[j].x == o[i].x) {
			if (o[j].cens)
				c++;
			else
				d++;
			j++;
		}
		if (d) {
			s *= 1 - (double)d / at_risk;
			if (at_risk > d)
				green += d / ((double)at_risk * (at_risk - d));
		}
		st[ns++] = (struct km_step){ .t = o[i].x, .s = s, .se = s > 0 ? s * sqrt(green) : 0,
					     .at_risk = at_risk, .events = d, .censored = c };
		i = j;
	}
	free(o);
	*out = st;
	return ns;
}
