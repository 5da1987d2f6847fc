/* jobtime.csv: the guest's timing of each foreground job (name,elapsed_s,user_s,sys_s). */
#include "dataset/ds-internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* When job name started beside a plan (steps.csv's job-start-NAME); NAN: it ran alone. */
static double job_start(const struct dataset *ds, struct ds_run *r, const char *name)
{
	static const char *const cols[] = { "step", "begin_uptime" };
	char *want = xasprintf("job-start-%s", name);
	double t = NAN;
	struct csv c;
	int col[2];
	bool missing;

	if (ds_open_csv(&c, ds, r, "steps.csv", cols, 2, col, &missing)) {
		while (csv_next(&c))
			if (csv_field(&c, col[0]) && !strcmp(csv_field(&c, col[0]), want) &&
			    !csv_double(&c, col[1], &t))
				t = NAN;
		csv_close(&c);
	}
	free(want);
	return t;
}

void ds_read_jobtime(struct dataset *ds, size_t ri)
{
	static const char *const cols[] = { "name", "elapsed_s", "user_s", "sys_s" };
	struct ds_run *r = &ds->runs[ri];
	struct csv c;
	int col[4];
	bool missing;

	if (!ds_open_csv(&c, ds, r, "jobtime.csv", cols, 4, col, &missing))
		return;
	while (csv_next(&c)) {
		double v[3];
		bool ok = csv_field(&c, col[0]) != NULL;
		struct ds_job *j;

		for (int k = 0; k < 3; k++)
			ok &= csv_double(&c, col[k + 1], &v[k]);
		if (!ok) {
			ds_problem(r, "jobtime.csv", "line %zu: a row of %s is not numbers", c.lineno,
				   csv_field(&c, col[0]) ? csv_field(&c, col[0]) : "?");
			continue;
		}
		j = ds_grow(&ds->jobs, &ds->njobs, &ds->cap_jobs, sizeof(*j));
		j->run = ri;
		j->name = xstrdup(csv_field(&c, col[0]));
		j->elapsed_s = v[0];
		j->user_s = v[1];
		j->sys_s = v[2];
	}
	csv_close(&c);
	for (size_t i = 0; i < ds->njobs; i++)
		if (ds->jobs[i].run == ri)
			ds->jobs[i].start_s = job_start(ds, r, ds->jobs[i].name);
}
