/*
 * Our readers against the timed windows, from their own records:
 * sampler-windows.csv (each sample's start and end), keeper-windows.csv
 * (when the fill's keeper read) and quiet.csv (cma-alloc's windows from
 * the state read before a burst to its free, and whether it kept the
 * keeper stopped then). A request is overlapped by a reader when one of
 * that reader's windows meets [start_ns, start_ns + latency_ns]; the
 * keeper's windows count without the time it was stopped. All on the
 * guest's CLOCK_MONOTONIC, alloc.csv's clock.
 */
#include "dataset/ds-internal.h"

#include <math.h>
#include <stdlib.h>

struct spans {
	long long (*v)[2];
	size_t n, cap;
};

/* The rows of a start,end CSV (cols: its two column names); false when absent. */
static bool read_spans(struct dataset *ds, struct ds_run *r, const char *rel,
		       const char *const *cols, struct spans *s, struct spans *stopped)
{
	struct csv c;
	bool missing;
	int col[3];
	size_t ncols = stopped ? 3 : 2;

	if (!ds_open_csv(&c, ds, r, rel, cols, ncols, col, &missing))
		return false;
	while (csv_next(&c)) {
		long long a, b, k = 0;
		long long *row;

		if (!csv_ll(&c, col[0], &a) || !csv_ll(&c, col[1], &b) || b < a ||
		    (stopped && !csv_ll(&c, col[2], &k))) {
			ds_problem(r, rel, "line %zu: not %s", c.lineno,
				   stopped ? "begin_ns,end_ns,keeper_stopped" : "start_ns,end_ns");
			continue;
		}
		row = ds_grow(&s->v, &s->n, &s->cap, sizeof(*s->v));
		row[0] = a;
		row[1] = b;
		if (stopped && k) {
			row = ds_grow(&stopped->v, &stopped->n, &stopped->cap, sizeof(*stopped->v));
			row[0] = a;
			row[1] = b;
		}
	}
	csv_close(&c);
	return true;
}

static int span_cmp(const void *a, const void *b)
{
	const long long *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Sorts the spans and joins those that overlap: their union, each moment once. */
static void spans_union(struct spans *s)
{
	size_t k = 0;

	if (!s->n)
		return;
	qsort(s->v, s->n, sizeof(*s->v), span_cmp);
	for (size_t i = 1; i < s->n; i++) {
		if (s->v[i][0] <= s->v[k][1]) {
			if (s->v[i][1] > s->v[k][1])
				s->v[k][1] = s->v[i][1];
		} else {
			k++;
			s->v[k][0] = s->v[i][0];
			s->v[k][1] = s->v[i][1];
		}
	}
	s->n = k + 1;
}

static long long overlap(long long a0, long long a1, long long b0, long long b1)
{
	long long lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/* Time of [a0, a1] outside every stopped span (the spans do not overlap). */
static long long unstopped(long long a0, long long a1, const struct spans *stopped)
{
	long long t = a1 - a0;

	for (size_t i = 0; i < stopped->n; i++)
		t -= overlap(a0, a1, stopped->v[i][0], stopped->v[i][1]);
	return t > 0 ? t : 0;
}

/* Whether [a0, a1] meets a span for more than its stopped part (no stopped: any). */
static bool meets(long long a0, long long a1, const struct spans *s, const struct spans *stopped)
{
	for (size_t i = 0; i < s->n; i++) {
		long long lo = a0 > s->v[i][0] ? a0 : s->v[i][0];
		long long hi = a1 < s->v[i][1] ? a1 : s->v[i][1];

		if (hi < lo)
			continue;
		if (!stopped || hi == lo || unstopped(lo, hi, stopped) > 0)
			return true;
	}
	return false;
}

void ds_read_readers(struct dataset *ds, size_t ri)
{
	static const char *const qcols[] = { "begin_ns", "end_ns", "keeper_stopped" };
	static const char *const wcols[] = { "start_ns", "end_ns" };
	struct ds_run *r = &ds->runs[ri];
	struct spans quiet = { 0 }, stopped = { 0 }, samples = { 0 }, keeper = { 0 };
	bool has_q = read_spans(ds, r, "quiet.csv", qcols, &quiet, &stopped);
	bool has_s = read_spans(ds, r, "sampler-windows.csv", wcols, &samples, NULL);
	bool has_k = read_spans(ds, r, "keeper-windows.csv", wcols, &keeper, NULL);

	r->sampler_overlaps = r->keeper_overlaps = r->reader_overlaps = r->requests_timed = -1;
	r->keeper_stopped_ns = r->keeper_read_ns = -1;
	r->quiet_windows = has_q ? (long long)quiet.n : -1;
	if (has_s || has_k) {
		r->sampler_overlaps = has_s ? 0 : -1;
		r->keeper_overlaps = has_k ? 0 : -1;
		r->reader_overlaps = r->requests_timed = 0;
		for (size_t i = 0; i < ds->nallocs; i++) {
			const struct ds_alloc *a = &ds->allocs[i];
			long long a1;
			bool bys, byk;

			if (a->run != ri || a->tag[0] || a->start_ns == DS_NONE || a->user_ns < 0)
				continue;
			a1 = a->start_ns + a->user_ns;
			bys = has_s && meets(a->start_ns, a1, &samples, NULL);
			byk = has_k && meets(a->start_ns, a1, &keeper, &stopped);
			r->sampler_overlaps += bys;
			r->keeper_overlaps += byk;
			r->reader_overlaps += bys || byk;
			r->requests_timed++;
		}
	}
	if (has_k) {
		/*
		 * The windows begin with the fill's own reading; the keeping
		 * (keep_seconds, fill-keeper.csv) is the last keep_seconds of
		 * them, up to the keeper's last read: its share is of that.
		 */
		long long end = 0, from;

		/* the keeper's windows may overlap (its readers record apart) */
		spans_union(&keeper);
		for (size_t i = 0; i < keeper.n; i++)
			if (keeper.v[i][1] > end)
				end = keeper.v[i][1];
		from = r->keep_seconds > 0 ? end - (long long)(r->keep_seconds * 1e9) : 0;
		r->keeper_stopped_ns = r->keeper_read_ns = 0;
		for (size_t i = 0; i < stopped.n; i++)
			r->keeper_stopped_ns += stopped.v[i][1] - stopped.v[i][0];
		for (size_t i = 0; i < keeper.n; i++) {
			long long a = keeper.v[i][0] > from ? keeper.v[i][0] : from;

			if (keeper.v[i][1] > a)
				r->keeper_read_ns += unstopped(a, keeper.v[i][1], &stopped);
		}
	}
	free(quiet.v);
	free(stopped.v);
	free(samples.v);
	free(keeper.v);
}

double ds_keeper_reading_pct(const struct ds_run *r)
{
	if (!(r->keep_seconds > 0))
		return NAN;
	if (r->keeper_read_ns >= 0 && r->keep_seconds * 1e9 > r->keeper_stopped_ns)
		return 100 * r->keeper_read_ns / (r->keep_seconds * 1e9 - r->keeper_stopped_ns);
	return 100 * r->keep_reading_seconds / r->keep_seconds;
}
