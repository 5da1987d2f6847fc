/* Statistics for reports; definitions in stats.h. */
#include "report/stats.h"
#include "lib/util.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double stats_quantile_sorted(const double *sorted, size_t n, double p)
{
	if (!n)
		return NAN;
	return gsl_stats_quantile_from_sorted_data(sorted, 1, n, p);
}

void stats_summary(const double *x, size_t n, struct summary *s)
{
	double *v;

	s->n = n;
	if (!n) {
		s->min = s->p50 = s->p90 = s->p99 = s->p999 = s->max = s->mean = s->sd = NAN;
		return;
	}
	v = xmalloc(n * sizeof(*v));
	memcpy(v, x, n * sizeof(*v));
	gsl_sort(v, 1, n);
	s->min = v[0];
	s->max = v[n - 1];
	s->p50 = stats_quantile_sorted(v, n, 0.5);
	s->p90 = stats_quantile_sorted(v, n, 0.9);
	s->p99 = stats_quantile_sorted(v, n, 0.99);
	s->p999 = stats_quantile_sorted(v, n, 0.999);
	s->mean = gsl_stats_mean(v, 1, n);
	s->sd = n > 1 ? gsl_stats_sd_m(v, 1, n, s->mean) : 0;
	free(v);
}

void stats_wilson(unsigned long k, unsigned long n, double alpha, double *lo, double *hi)
{
	double z, p, d, c, h;

	if (!n) {
		*lo = 0;
		*hi = 1;
		return;
	}
	z = gsl_cdf_ugaussian_Qinv(alpha / 2);
	p = (double)k / n;
	d = 1 + z * z / n;
	c = (p + z * z / (2.0 * n)) / d;
	h = z / d * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
	*lo = c - h < 0 ? 0 : c - h;
	*hi = c + h > 1 ? 1 : c + h;
}

struct tagged {
	double v;
	int from_a;
};

static int cmp_tagged(const void *x, const void *y)
{
	const struct tagged *a = x, *b = y;

	return (a->v > b->v) - (a->v < b->v);
}

/*
 * How many ways there are to draw m of the n integer scores sc[] with each
 * sum 0..*total: one pass per score, m down to 1 so each is drawn once.
 * Doubles count exactly up to 2^53, beyond C(50, 25).
 */
static double *draw_counts(const long *sc, size_t n, size_t m, long *total)
{
	long t = 0, w;
	double *c, *out;

	for (size_t i = 0; i < n; i++)
		t += sc[i];
	w = t + 1;
	c = xcalloc((m + 1) * (size_t)w, sizeof(*c));
	c[0] = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1 < m ? i + 1 : m; k >= 1; k--)
			for (long s = t; s >= sc[i]; s--)
				c[k * w + s] += c[(k - 1) * w + s - sc[i]];
	out = xmalloc((size_t)w * sizeof(*out));
	memcpy(out, c + m * w, (size_t)w * sizeof(*out));
	free(c);
	*total = t;
	return out;
}

void stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			struct mann_whitney *r)
{
	size_t n = na + nb;
	struct tagged *t;
	long *score, ra2 = 0;
	double ra, ties = 0, mu, var, d;

	r->u = NAN;
	r->z = 0;
	r->p = 1;
	r->exact = false;
	if (!na || !nb)
		return;
	t = xmalloc(n * sizeof(*t));
	score = xmalloc(n * sizeof(*score));
	for (size_t i = 0; i < na; i++)
		t[i] = (struct tagged){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		t[na + i] = (struct tagged){ b[i], 0 };
	qsort(t, n, sizeof(*t), cmp_tagged);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double tc;

		while (j < n && t[j].v == t[i].v)
			j++;
		/* positions i..j-1 hold ranks i+1..j: twice their mean, an integer */
		for (size_t k = i; k < j; k++) {
			score[k] = (long)(i + 1 + j);
			if (t[k].from_a)
				ra2 += score[k];
		}
		tc = (double)(j - i);
		ties += tc * tc * tc - tc;
		i = j;
	}
	free(t);
	ra = ra2 / 2.0;
	r->u = ra - na * (na + 1) / 2.0;
	mu = na * (double)nb / 2.0;
	var = na * (double)nb / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (var <= 0) {
		free(score);
		return;
	}
	d = fabs(r->u - mu) - 0.5;
	if (d < 0)
		d = 0;
	r->z = (r->u - mu < 0 ? -d : d) / sqrt(var);
	if (n <= MW_EXACT_MAX) {
		long total, mean2 = (long)na * (long)(n + 1), far = labs(ra2 - mean2);
		double *cnt = draw_counts(score, n, na, &total), all = 0, tail = 0;

		/* doubled sums are integers: "as far" is an exact comparison */
		for (long s = 0; s <= total; s++) {
			all += cnt[s];
			if (labs(s - mean2) >= far)
				tail += cnt[s];
		}
		free(cnt);
		r->p = tail / all;
		r->exact = true;
	} else {
		r->p = 2 * gsl_cdf_ugaussian_Q(fabs(r->z));
	}
	free(score);
	if (r->p > 1)
		r->p = 1;
}

double stats_mw_smallest_p(size_t n, size_t m)
{
	double c = 1;

	if (!n || !m)
		return 1;
	/* C(n + m, n) as a product of ratios */
	for (size_t i = 1; i <= n; i++)
		c = c * (double)(m + i) / (double)i;
	return 2 / c > 1 ? 1 : 2 / c;
}

int stats_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb, double alpha,
			 struct hodges_lehmann *r)
{
	size_t m = na * nb, n = na + nb, k;
	double *d;

	r->est = r->lo = r->hi = r->conf = NAN;
	r->exact = false;
	if (!na || !nb)
		return -1;
	d = xmalloc(m * sizeof(*d));
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];
	gsl_sort(d, 1, m);
	r->est = stats_quantile_sorted(d, m, 0.5);
	if (n <= MW_EXACT_MAX) {
		long *rank = xmalloc(n * sizeof(*rank)), total, off = (long)(na * (na + 1) / 2);
		double *cnt, all = 0, below = 0;

		/* the null distribution of U without ties: sums of na of the ranks 1..n */
		for (size_t i = 0; i < n; i++)
			rank[i] = (long)i + 1;
		cnt = draw_counts(rank, n, na, &total);
		for (long s = 0; s <= total; s++)
			all += cnt[s];
		/* k: the smallest u with P(U <= u) >= alpha / 2 */
		for (k = 0; (long)k + off <= total; k++) {
			if ((below + cnt[k + off]) / all >= alpha / 2)
				break;
			below += cnt[k + off];
		}
		/* k = 0 cannot be: the whole range, which misses with P(U = 0) twice */
		if (!k) {
			k = 1;
			below = cnt[off];
		}
		free(cnt);
		free(rank);
		/* below is now P(U <= k - 1) */
		r->conf = 1 - 2 * below / all;
		r->exact = true;
	} else {
		double sd = sqrt(m * (n + 1) / 12.0), kk;

		kk = floor(m / 2.0 - gsl_cdf_ugaussian_Qinv(alpha / 2) * sd);
		k = kk < 1 ? 1 : (size_t)kk;
		r->conf = 1 - 2 * gsl_cdf_ugaussian_P((k - 0.5 - m / 2.0) / sd);
	}
	if (k > (m + 1) / 2)
		k = (m + 1) / 2;
	r->lo = d[k - 1];
	r->hi = d[m - k];
	free(d);
	return 0;
}

static double median_of(double *v, size_t n)
{
	gsl_sort(v, 1, n);
	return stats_quantile_sorted(v, n, 0.5);
}

int stats_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb,
				 unsigned iters, unsigned long seed, double alpha,
				 double *ratio, double *lo, double *hi)
{
	double *ra, *rb, *ratios, ma, mb;
	gsl_rng *rng;
	size_t m = 0;

	if (!na || !nb || !iters)
		return -1;
	ra = xmalloc(na * sizeof(*ra));
	rb = xmalloc(nb * sizeof(*rb));
	memcpy(ra, a, na * sizeof(*ra));
	memcpy(rb, b, nb * sizeof(*rb));
	ma = median_of(ra, na);
	mb = median_of(rb, nb);
	if (ma == 0) {
		free(ra);
		free(rb);
		return -1;
	}
	*ratio = mb / ma;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	ratios = xmalloc(iters * sizeof(*ratios));
	for (unsigned it = 0; it < iters; it++) {
		for (size_t i = 0; i < na; i++)
			ra[i] = a[gsl_rng_uniform_int(rng, na)];
		for (size_t i = 0; i < nb; i++)
			rb[i] = b[gsl_rng_uniform_int(rng, nb)];
		ma = median_of(ra, na);
		mb = median_of(rb, nb);
		if (ma != 0)
			ratios[m++] = mb / ma;
	}
	gsl_rng_free(rng);
	gsl_sort(ratios, 1, m);
	*lo = stats_quantile_sorted(ratios, m, alpha / 2);
	*hi = stats_quantile_sorted(ratios, m, 1 - alpha / 2);
	free(ratios);
	free(ra);
	free(rb);
	return 0;
}

bool stats_one_value(const double *a, size_t na, const double *b, size_t nb)
{
	double first = na ? a[0] : nb ? b[0] : 0;

	for (size_t i = 0; i < na; i++)
		if (a[i] != first)
			return false;
	for (size_t i = 0; i < nb; i++)
		if (b[i] != first)
			return false;
	return true;
}

struct bh_item {
	double p;
	size_t i;
};

static int bh_by_p(const void *a, const void *b)
{
	double x = ((const struct bh_item *)a)->p, y = ((const struct bh_item *)b)->p;

	return (x > y) - (x < y);
}

void stats_bh(const double *p, size_t n, double *q)
{
	struct bh_item *v = xcalloc(n + 1, sizeof(*v));
	size_t m = 0;
	double run = 1;

	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			v[m++] = (struct bh_item){ p[i], i };
	qsort(v, m, sizeof(*v), bh_by_p);
	for (size_t k = m; k-- > 0;) {
		double x = v[k].p * m / (k + 1);

		run = x < run ? x : run;
		q[v[k].i] = run;
	}
	free(v);
}
