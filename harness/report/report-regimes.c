/*
 * Runs that changed regime, named (docs/reports.md, "Regimes"): a run whose
 * median at a size is at least 10x the median of its set-up's other runs'
 * medians, whose busy retries per request are at least 10x the median of
 * theirs and one or more (CMA's slow regime can stay in the tail: a few
 * requests retrying for 0.5 s leave the median alone), or whose failure
 * rate differs from the mean of theirs by 50 points or more. Each is named
 * with what differs from the runs that kept the set-up's regime (in a
 * split, where fewer than two kept it, from the runs that did not leave it
 * the same way): the counters outside their range, the anonymous memory it
 * held, where its attributed requests' time went, and a busy-retry count
 * its requests all shared. Such runs stay in every test: a regime is part
 * of the answer, not an outlier to drop.
 */
#include "report/report-internal.h"

#include <stdio.h>

#define REGIME_FACTOR 10.0
#define REGIME_POINTS 50.0

/* A run's requests of one size: median user-side latency (us), failures,
 * busy retries (the mean NAN when some request's are unknown; the lowest
 * and highest of those known). */
struct run_size {
	size_t run;
	double median, fail_pct, retries;
	size_t n, failed, timed_out;
	long long rt_min, rt_max;
	size_t rt_known, rt_unknown;
};

static bool run_size_of(const struct report_col *c, size_t run, long long pages,
			struct run_size *out)
{
	struct dvec v = { 0 };
	double retries = 0;

	memset(out, 0, sizeof(*out));
	out->run = run;
	for (size_t i = 0; i < c->ds->nallocs; i++) {
		const struct ds_alloc *a = &c->ds->allocs[i];

		if (a->run != run || a->pages != pages || a->tag[0] || !ds_alloc_met(c->ds, a))
			continue;
		dv_add(&v, a->user_ns / 1000.0);
		if (a->retries == DS_NONE) {
			out->rt_unknown++;
		} else {
			retries += (double)a->retries;
			out->rt_min = !out->rt_known || a->retries < out->rt_min ? a->retries
										  : out->rt_min;
			out->rt_max = !out->rt_known || a->retries > out->rt_max ? a->retries
										  : out->rt_max;
			out->rt_known++;
		}
		out->failed += !a->success;
		out->timed_out += a->timed_out;
	}
	out->n = v.n;
	out->median = dv_median(&v);
	out->fail_pct = v.n ? 100.0 * out->failed / v.n : NAN;
	out->retries = v.n && !out->rt_unknown ? retries / v.n : NAN;
	dv_free(&v);
	return out->n > 0;
}

/* "1.49 M", "31.2 k", "18" */
static char *count_text(double x)
{
	if (fabs(x) >= 1e6)
		return xasprintf("%.2f M", x / 1e6);
	if (fabs(x) >= 1e4)
		return xasprintf("%.1f k", x / 1e3);
	return xasprintf("%.0f", x);
}

/* "16.4 k", "3029", "54.6", "0.0375" */
static char *retries_text(double x)
{
	return x >= 100 ? count_text(x) : xasprintf("%.3g", x);
}

/* "850 us", "12.3 ms", "85.2 s" */
static char *time_text(double us)
{
	if (us >= 1e6)
		return xasprintf("%.1f s", us / 1e6);
	if (us >= 1e3)
		return xasprintf("%.1f ms", us / 1e3);
	return xasprintf("%.0f us", us);
}

static const struct {
	const char *source, *name, *what;
} regime_counters[] = {
	{ "vmstat", "pgmigrate_fail", "page migrations failed" },
	{ "vmstat", "pgmigrate_success", "pages migrated" },
	{ "vmstat", "compact_stall", "direct compaction stalls" },
	{ "vmstat", "pgscan_direct", "pages scanned by direct reclaim" },
	{ "vmstat", "cma_alloc_fail", "failed CMA allocations" },
};

/* Whom a named run is compared with. */
enum others_kind {
	OTHERS_KEPT,     /* the runs that kept the regime, or every other run */
	OTHERS_OPPOSITE, /* a split: the runs that left it the other way */
	OTHERS_NOT_MORE, /* a split: the runs not slower or failing more (kept or opposite) */
	OTHERS_NOT_LESS, /* a split: the runs not failing less */
};

/* "the other 4 runs", in a split "the 2 runs of the other regime", "the 2
 * runs not slower or failing more" */
static void others_text(struct strbuf *sb, size_t n, enum others_kind kind)
{
	const char *s = n == 1 ? "" : "s";

	switch (kind) {
	case OTHERS_KEPT:
		sb_addf(sb, "the other %zu run%s", n, s);
		break;
	case OTHERS_OPPOSITE:
		sb_addf(sb, "the %zu run%s of the other regime", n, s);
		break;
	case OTHERS_NOT_MORE:
		sb_addf(sb, "the %zu run%s not slower or failing more", n, s);
		break;
	case OTHERS_NOT_LESS:
		sb_addf(sb, "the %zu run%s not failing less", n, s);
		break;
	}
}

/*
 * A counter differs when the run's delta lies outside the other runs'
 * range and at least 2x beyond its nearer end.
 */
static void counter_sentences(const struct dataset *ds, size_t run, const size_t *others,
			      size_t nothers, enum others_kind kind, struct strbuf *sb)
{
	for (size_t k = 0; k < ARRAY_SIZE(regime_counters); k++) {
		long long d, after;
		double lo = INFINITY, hi = -INFINITY;
		size_t seen = 0;
		char *a, *l, *h;

		if (!ds_counter_delta(ds, run, regime_counters[k].source, regime_counters[k].name,
				      &d, &after))
			continue;
		for (size_t o = 0; o < nothers; o++) {
			long long od;

			if (!ds_counter_delta(ds, others[o], regime_counters[k].source,
					      regime_counters[k].name, &od, &after))
				continue;
			lo = (double)od < lo ? (double)od : lo;
			hi = (double)od > hi ? (double)od : hi;
			seen++;
		}
		if (!seen || !((double)d > 2 * hi || (double)d * 2 < lo))
			continue;
		a = count_text((double)d);
		l = count_text(lo);
		h = count_text(hi);
		sb_addf(sb, "; %s %s (%s; ", a, regime_counters[k].what, regime_counters[k].name);
		others_text(sb, seen, kind);
		/* "819.3 k", not "819.3 k-819.3 k" */
		sb_addf(sb, " %s%s%s)", l, strcmp(l, h) ? "-" : "", strcmp(l, h) ? h : "");
		free(a);
		free(l);
		free(h);
	}
}

/* The run's mean of a 1 s sample, NAN without samples. */
static double sample_mean(const struct dataset *ds, size_t run, const char *name)
{
	double s = 0;
	size_t n = 0;

	for (size_t i = 0; i < ds->nsamples; i++)
		if (ds->samples[i].run == run && !strcmp(ds->samples[i].name, name)) {
			s += ds->samples[i].value;
			n++;
		}
	return n ? s / n : NAN;
}

/* Anonymous memory held on average, when outside the others' range by 10%. */
static void anon_sentence(const struct dataset *ds, size_t run, const size_t *others,
			  size_t nothers, enum others_kind kind, struct strbuf *sb)
{
	double m = sample_mean(ds, run, "meminfo.AnonPages"), lo = INFINITY, hi = -INFINITY;

	if (isnan(m))
		return;
	for (size_t o = 0; o < nothers; o++) {
		double x = sample_mean(ds, others[o], "meminfo.AnonPages");

		if (isnan(x))
			continue;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	if (isinf(lo) || !(m > 1.1 * hi || m < 0.9 * lo))
		return;
	sb_addf(sb, "; it held %.0f MB of anonymous memory on average (AnonPages; ", m / 1024);
	others_text(sb, nothers, kind);
	sb_addf(sb, " %.0f-%.0f MB)", lo / 1024, hi / 1024);
}

/* Sums of the run's attributed requests of any size; false without any. */
static bool attr_sums(const struct dataset *ds, size_t run, long long *ns,
		      long long *failed, long long *kinds, bool *kinds_traced, size_t *n)
{
	memset(ns, 0, sizeof(*ns) * DS_NPHASES * DS_NSTATES);
	memset(kinds, 0, sizeof(*kinds) * DS_NFAILKINDS);
	*failed = 0;
	*n = 0;
	*kinds_traced = false;
	for (size_t i = 0; i < ds->nattrs; i++) {
		const struct ds_attr *at = &ds->attrs[i].at;

		if (ds->allocs[ds->attrs[i].alloc].run != run)
			continue;
		for (int p = 0; p < DS_NPHASES; p++)
			for (int s = 0; s < DS_NSTATES; s++)
				ns[p * DS_NSTATES + s] += at->ns[p][s];
		*failed += at->failed;
		for (int k = 0; k < DS_NFAILKINDS; k++)
			kinds[k] += at->failkind[k];
		*kinds_traced |= at->failkind_traced;
		(*n)++;
	}
	return *n > 0;
}

/*
 * Where the run's attributed time went: the phase and the state with the
 * largest share of it (requests' time summed), against the same shares
 * in the other runs' attributed requests; the kinds of pages that would
 * not migrate.
 */
static void attr_sentence(const struct dataset *ds, size_t run, const size_t *others,
			  size_t nothers, enum others_kind kind, struct strbuf *sb)
{
	long long ns[DS_NPHASES * DS_NSTATES], ons[DS_NPHASES * DS_NSTATES] = { 0 };
	long long failed, kinds[DS_NFAILKINDS], ofailed;
	long long ph[DS_NPHASES] = { 0 }, st[DS_NSTATES] = { 0 }, total = 0;
	long long oph[DS_NPHASES] = { 0 }, ost[DS_NSTATES] = { 0 }, ototal = 0;
	bool traced, otraced;
	size_t n, on, bp = 0, bs = 0;

	if (!attr_sums(ds, run, ns, &failed, kinds, &traced, &n))
		return;
	for (size_t o = 0; o < nothers; o++) {
		long long x[DS_NPHASES * DS_NSTATES], kk[DS_NFAILKINDS];

		if (!attr_sums(ds, others[o], x, &ofailed, kk, &otraced, &on))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(x); i++)
			ons[i] += x[i];
	}
	for (int p = 0; p < DS_NPHASES; p++)
		for (int s = 0; s < DS_NSTATES; s++) {
			ph[p] += ns[p * DS_NSTATES + s];
			st[s] += ns[p * DS_NSTATES + s];
			total += ns[p * DS_NSTATES + s];
			oph[p] += ons[p * DS_NSTATES + s];
			ost[s] += ons[p * DS_NSTATES + s];
			ototal += ons[p * DS_NSTATES + s];
		}
	if (!total)
		return;
	for (int p = 1; p < DS_NPHASES; p++)
		bp = ph[p] > ph[bp] ? (size_t)p : bp;
	for (int s = 1; s < DS_NSTATES; s++)
		bs = st[s] > st[bs] ? (size_t)s : bs;
	sb_addf(sb, "; its %zu attributed requests spent %.0f%% of their kernel-side time %s "
		"and %.0f%% %s", n, 100.0 * ph[bp] / total, report_phase_what[bp],
		100.0 * st[bs] / total, report_state_what[bs]);
	if (ototal)
		sb_addf(sb, " (%s runs' attributed requests: %.0f%% and %.0f%%)",
			kind == OTHERS_KEPT ? "the other" :
			kind == OTHERS_OPPOSITE ? "the other regime's" : "those",
			100.0 * oph[bp] / ototal, 100.0 * ost[bs] / ototal);
	if (traced && failed) {
		char *f = count_text((double)failed);
		static const char *const kind_what[DS_NFAILKINDS] = {
			"anonymous pages", "dirty file pages", "file pages under writeback",
			"pinned pages", "unevictable pages",
			"clean file or non-LRU pages with no blocker seen when classified",
		};

		sb_addf(sb, "; of its %s failed page migrations: ", f);
		report_kinds_text(sb, kinds, kind_what);
		free(f);
	}
}

/* The one busy-retry count every known request of a size made, all of them
 * successful: -1 when they differ, one failed or none is known, 0 for none.
 * *known and *unknown count the requests whose retries are known and those
 * the trace lost. A failed request's count is only how many starts there
 * were. */
static long long size_retries(const struct report_col *c, size_t run, long long pages,
			      size_t *known, size_t *unknown)
{
	struct run_size rs;

	if (!run_size_of(c, run, pages, &rs)) {
		*known = *unknown = 0;
		return -1;
	}
	*known = rs.rt_known;
	*unknown = rs.rt_unknown;
	return !rs.failed && rs.rt_known && rs.rt_min == rs.rt_max ? rs.rt_min : -1;
}

/*
 * Stretches of sizes at which every request (two at least) succeeded after
 * the same number of busy retries: "every request of 4096-16384 pages
 * retried exactly 2690 times, of 32000 pages 19577 times". A count that does
 * not grow with the size is how one page that would not migrate shows
 * (docs/attribution.md).
 */
static void constant_retries_sentence(const struct report_col *c, size_t run,
				      const long long *sizes, size_t nsizes, struct strbuf *sb)
{
	size_t stretches = 0, lost = 0;
	bool across = false;

	for (size_t z = 0; z < nsizes;) {
		size_t known, unknown, k2, u2, end = z + 1;
		long long v = size_retries(c, run, sizes[z], &known, &unknown);

		while (v > 0 && end < nsizes && size_retries(c, run, sizes[end], &k2, &u2) == v) {
			known += k2;
			unknown += u2;
			end++;
		}
		if (v <= 0 || known < 2) {
			z++;
			continue;
		}
		sb_addf(sb, "%s%lld", stretches ? ", of " : "; every request of ", sizes[z]);
		if (end - z > 1)
			sb_addf(sb, "-%lld", sizes[end - 1]);
		sb_addf(sb, " pages %s%lld times", stretches ? "" : "retried exactly ", v);
		across |= end - z > 1;
		lost += unknown;
		stretches++;
		z = end;
	}
	if (!stretches)
		return;
	if (lost)
		sb_addf(sb, " (of those the trace kept: it lost %zu request%s' retries)", lost,
			lost == 1 ? "'s" : "s");
	sb_addf(sb, ", %s (docs/attribution.md)",
		across ? "one count whatever the size" : "the same count each time");
}

/* What one run's finding at one size says. */
static void size_sentence(long long pages, const struct run_size *r, double omed,
			  double ofail, double oretries, bool retrying, size_t nothers,
			  struct strbuf *sb)
{
	char *m = time_text(r->median), *o = time_text(omed);

	double x = omed > 0 ? r->median / omed : INFINITY;

	/* x0.42 for a run faster than the others, 123x for a slower one */
	sb_addf(sb, "%s%lld pages: median %s%s against %s (the median of the other %zu runs' "
		"medians, ", sb->len ? "; at " : "at ", pages, r->timed_out ? "> " : "", m, o,
		nothers);
	if (x < 1)
		sb_addf(sb, "x%.2g)", x);
	else
		sb_addf(sb, "%.0fx)", x);
	if (retrying) {
		char *rt = retries_text(r->retries), *ort = retries_text(oretries);

		sb_addf(sb, ", %s busy retries a request against %s (the median of the other "
			"runs' means)", rt, ort);
		free(rt);
		free(ort);
	}
	if (r->failed || ofail > 0)
		sb_addf(sb, ", %zu of %zu requests failed (%.0f%%; the other runs %.0f%%)",
			r->failed, r->n, r->fail_pct, ofail);
	if (r->timed_out)
		sb_addf(sb, ", %zu aborted at the deadline", r->timed_out);
	free(m);
	free(o);
}

/*
 * Whether run rs[i] left its set-up's regime at a size, against the other
 * runs with requests of that size: if so its direction goes into dir and
 * its sentence into found (both indexed by run).
 */
static void run_regime(const struct run_size *rs, size_t have, size_t i, long long pages,
		       struct strbuf *found, int *dir)
{
	struct dvec med = { 0 }, ret = { 0 };
	double fail = 0, omed, oret;
	bool retrying;
	int d;

	for (size_t j = 0; j < have; j++)
		if (j != i) {
			dv_add(&med, rs[j].median);
			fail += rs[j].fail_pct / (have - 1);
			if (!isnan(rs[j].retries))
				dv_add(&ret, rs[j].retries);
		}
	omed = dv_median(&med);
	oret = ret.n ? dv_median(&ret) : NAN;
	dv_free(&med);
	dv_free(&ret);
	retrying = !isnan(rs[i].retries) && !isnan(oret) && rs[i].retries >= 1 &&
		   rs[i].retries >= REGIME_FACTOR * oret;
	if (rs[i].median >= REGIME_FACTOR * omed || retrying ||
	    rs[i].fail_pct - fail >= REGIME_POINTS)
		d = 1;
	else if (fail - rs[i].fail_pct >= REGIME_POINTS)
		d = -1;
	else
		return;
	dir[rs[i].run] = !dir[rs[i].run] || dir[rs[i].run] == d ? d : 2;
	size_sentence(pages, &rs[i], omed, fail, oret, retrying, have - 1, &found[rs[i].run]);
}

/*
 * Each of a set-up's runs at one size against the others (three runs at
 * least with requests of it); returns how many run-size cells it tested.
 */
static size_t size_regimes(const struct report_col *c, const size_t *runs, size_t nr,
			   long long pages, struct strbuf *found, int *dir)
{
	struct run_size *rs = xcalloc(nr + 1, sizeof(*rs));
	size_t have = 0, tested = 0;

	for (size_t i = 0; i < nr; i++)
		if (run_size_of(c, runs[i], pages, &rs[have]))
			have++;
	for (size_t i = 0; have >= 3 && i < have; i++) {
		tested++;
		run_regime(rs, have, i, pages, found, dir);
	}
	free(rs);
	return tested;
}

/*
 * Whom runs[i] is compared with, into others; returns how many. Against
 * the runs that kept the set-up's regime; when fewer than two did (a
 * split: 3 runs fail where 2 do not, or 3 retry where 1 fails less and 1
 * kept it), against those that did not leave it the same way; else every
 * other run.
 */
static size_t regime_others(const size_t *runs, size_t nr, size_t i,
			    const struct strbuf *found, const int *dir, size_t *others,
			    enum others_kind *kind)
{
	size_t r = runs[i], no = 0;

	*kind = OTHERS_KEPT;
	for (size_t j = 0; j < nr; j++)
		if (j != i && !found[runs[j]].len)
			others[no++] = runs[j];
	if (no < 2 && (dir[r] == 1 || dir[r] == -1)) {
		bool kept = false;

		for (size_t j = no = 0; j < nr; j++)
			if (j != i && dir[runs[j]] != dir[r] && dir[runs[j]] != 2) {
				others[no++] = runs[j];
				kept |= !dir[runs[j]];
			}
		if (no)
			*kind = !kept ? OTHERS_OPPOSITE :
				dir[r] == 1 ? OTHERS_NOT_MORE : OTHERS_NOT_LESS;
	}
	if (no < 2 && *kind == OTHERS_KEPT)
		for (size_t j = no = 0; j < nr; j++)
			if (j != i)
				others[no++] = runs[j];
	return no;
}

/* The runs of one set-up that changed regime, each named in out; returns how many. */
static size_t section_regimes(const struct dataset *ds, const char *section, struct strbuf *out,
			      size_t *tested)
{
	struct report_col c = { section, ds, section };
	size_t *runs = xcalloc(ds->nruns + 1, sizeof(*runs)), nr = 0, named = 0;
	long long *sizes;
	size_t nsizes = all_sizes(&c, 1, "", &sizes);
	struct strbuf *found = xcalloc(ds->nruns + 1, sizeof(*found));
	/* per run: +1 slower or failing more, -1 failing less, 2 both at two sizes */
	int *dir = xcalloc(ds->nruns + 1, sizeof(*dir));

	for (size_t r = 0; r < ds->nruns; r++)
		if (col_run(&c, r))
			runs[nr++] = r;
	for (size_t z = 0; z < nsizes; z++)
		*tested += size_regimes(&c, runs, nr, sizes[z], found, dir);
	for (size_t i = 0; i < nr; i++) {
		size_t r = runs[i], *others, no;
		struct strbuf *f = &found[r];
		enum others_kind kind;

		if (!f->len)
			continue;
		others = xcalloc(nr, sizeof(*others));
		no = regime_others(runs, nr, i, found, dir, others, &kind);
		counter_sentences(ds, r, others, no, kind, f);
		anon_sentence(ds, r, others, no, kind, f);
		attr_sentence(ds, r, others, no, kind, f);
		constant_retries_sentence(&c, r, sizes, nsizes, f);
		sb_addf(out, "- %s (%s): %s.\n", ds->runs[r].name, ds->runs[r].section, f->buf);
		named++;
		free(others);
	}
	for (size_t r = 0; r < ds->nruns; r++)
		sb_free(&found[r]);
	free(found);
	free(dir);
	free(sizes);
	free(runs);
	return named;
}

/* The section: what counts as a change of regime, then the named runs of out (or none). */
static void regimes_text(struct strbuf *txt, struct strbuf *md, struct strbuf *out,
			 size_t named, size_t tested)
{
	if (md)
		sb_add(md, "## Regimes\n\n");
	if (txt)
		sb_add(txt, "Regimes\n\n");
	if (!named) {
		sb_addf(out, "No run changed regime: at every size, each run's median was below "
			"%.0fx the median of its set-up's other runs' medians, its busy retries "
			"per request below one or below %.0fx theirs, and its failure rate within "
			"%.0f points of theirs (%zu run-size cells with at least two other "
			"runs).\n", REGIME_FACTOR, REGIME_FACTOR, REGIME_POINTS, tested);
	} else {
		char *head = xasprintf("%zu run(s) changed regime: a median at least %.0fx the median "
				       "of the set-up's other runs' medians, busy retries per "
				       "request one or more and at least %.0fx the median of theirs, "
				       "or a failure rate %.0f points or more from theirs. They stay "
				       "in every test above and below.\n\n", named, REGIME_FACTOR,
				       REGIME_FACTOR, REGIME_POINTS);

		if (md)
			sb_add(md, head);
		if (txt)
			sb_add(txt, head);
		free(head);
	}
	if (md)
		sb_addf(md, "%s\n", out->buf);
	if (txt)
		sb_addf(txt, "%s\n", out->buf);
}

void report_regimes(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	struct strbuf out;
	size_t named = 0, tested = 0;

	sb_init(&out);
	for (size_t s = 0; s < ds->sections.n; s++)
		named += section_regimes(ds, ds->sections.v[s], &out, &tested);
	if (tested)
		regimes_text(txt, md, &out, named, tested);
	sb_free(&out);
}
