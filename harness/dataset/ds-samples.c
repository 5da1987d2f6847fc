/*
 * samples.csv: the guest sampler's "uptime,source,name,value" rows, one
 * per counter per second. Time counts from the run's first sample; the
 * cleancache hit rate of each interval is derived here and nowhere else.
 */
#include "dataset/ds-internal.h"

#include <stdlib.h>
#include <string.h>

static void add_sample(struct dataset *ds, size_t ri, double t, const char *src,
		       const char *name, double v, bool derived)
{
	struct ds_sample *s = ds_grow(&ds->samples, &ds->nsamples, &ds->cap_samples, sizeof(*s));

	s->run = ri;
	s->t = t;
	s->name = xasprintf("%s.%s", src, name);
	s->value = v;
	s->derived = derived;
}

void ds_read_samples(struct dataset *ds, size_t ri)
{
	static const char *const cols[] = { "uptime", "source", "name", "value" };
	double t0 = -1, t_hits = -1, hits = 0, prev_hits = -1, prev_misses = -1;
	struct csv c;
	int col[4];
	bool missing;

	if (!ds_open_csv(&c, ds, &ds->runs[ri], "samples.csv", cols, 4, col, &missing))
		return;
	while (csv_next(&c)) {
		const char *src = csv_field(&c, col[1]), *name = csv_field(&c, col[2]);
		double t, v;

		/* The last line may be cut by the sampler's stop. */
		if (!csv_double(&c, col[0], &t) || !csv_double(&c, col[3], &v) || !src || !name)
			continue;
		if (t0 < 0)
			t0 = t;
		add_sample(ds, ri, t - t0, src, name, v, false);
		if (strcmp(src, "cleancache"))
			continue;
		if (!strcmp(name, "hits")) {
			hits = v;
			t_hits = t;
		} else if (!strcmp(name, "misses") && t_hits == t) {
			/* The hit rate of the lookups since the previous sample. */
			double dh = hits - prev_hits, dm = v - prev_misses;

			if (prev_hits >= 0 && dh >= 0 && dm >= 0 && dh + dm > 0)
				add_sample(ds, ri, t - t0, "cleancache", "hit_rate_pct",
					   100.0 * dh / (dh + dm), true);
			prev_hits = hits;
			prev_misses = v;
		}
	}
	csv_close(&c);
}
