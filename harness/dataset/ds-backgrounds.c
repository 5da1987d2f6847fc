/* backgrounds.csv: each background workload's end (name,pid,state,rc). */
#include "dataset/ds-internal.h"

#include <stdlib.h>
#include <string.h>

/* Names of the workloads that died, one per line in out; false if unreadable. */
static bool died(const char *path, struct strlist *out)
{
	static const char *const cols[] = { "name", "state" };
	struct csv c;
	int col[2];

	if (csv_open(&c, path))
		return false;
	if (csv_cols(&c, cols, 2, col))
		while (csv_next(&c))
			if (csv_field(&c, col[1]) && !strcmp(csv_field(&c, col[1]), "died"))
				sl_add(out, csv_field(&c, col[0]) ? csv_field(&c, col[0]) : "?");
	csv_close(&c);
	return true;
}

bool dataset_background_died(const char *run_dir)
{
	char *path = path_join(run_dir, "backgrounds.csv");
	struct strlist names = { 0 };
	bool any = died(path, &names) && names.n;

	sl_free(&names);
	free(path);
	return any;
}

void ds_read_backgrounds(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	char *path = ds_run_path(ds, r, "backgrounds.csv");
	struct strlist names = { 0 };

	if (died(path, &names))
		for (size_t i = 0; i < names.n; i++)
			ds_problem(r, "backgrounds.csv", "background %s died before the run ended",
				   names.v[i]);
	sl_free(&names);
	free(path);
}
