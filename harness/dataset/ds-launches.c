/* launches.csv: app-switch's launches (seq,app,kind,launch_ns,majflt,alive). */
#include "dataset/ds-internal.h"

#include <stdlib.h>
#include <string.h>

void ds_read_launches(struct dataset *ds, size_t ri)
{
	static const char *const cols[] = { "seq", "app", "kind", "launch_ns", "majflt" };
	static const int num[] = { 0, 1, 3, 4 };    /* the numeric columns */
	struct ds_run *r = &ds->runs[ri];
	struct csv c;
	int col[5];
	bool missing;

	if (!ds_open_csv(&c, ds, r, "launches.csv", cols, 5, col, &missing))
		return;
	while (csv_next(&c)) {
		const char *kind = csv_field(&c, col[2]);
		long long v[4];
		bool ok = kind && (!strcmp(kind, "cold") || !strcmp(kind, "warm"));
		struct ds_launch *l;

		for (int k = 0; k < 4; k++)
			ok &= csv_ll(&c, col[num[k]], &v[k]);
		if (!ok) {
			ds_problem(r, "launches.csv", "line %zu: not seq,app,cold|warm,launch_ns,majflt",
				   c.lineno);
			continue;
		}
		l = ds_grow(&ds->launches, &ds->nlaunches, &ds->cap_launches, sizeof(*l));
		l->run = ri;
		l->seq = v[0];
		l->app = v[1];
		l->cold = !strcmp(kind, "cold");
		l->launch_ns = v[2];
		l->majflt = v[3];
	}
	csv_close(&c);
}
