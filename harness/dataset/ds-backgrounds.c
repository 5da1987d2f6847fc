/* backgrounds.csv: each background workload's end (name,pid,state,rc). */
#include "dataset/ds-internal.h"

#include <stdio.h>
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

/*
 * bg-pin-io.log: the pages pin-io held in the area, from its closing
 * statistics ("pin-io: ... pages_in_area=N ..."). Without them (a pin-io
 * killed before it printed) the count its search printed ("N pages are in
 * area" or, before the search waited for the hog, "N of M pages are in").
 */
void ds_read_pin_io(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	char *path = ds_run_path(ds, r, "bg-pin-io.log"), *text = read_file(path, NULL);
	const char *p;
	long long n;

	r->pinned_pages = -1;
	if (text && (p = strstr(text, "pages_in_area=")) && sscanf(p, "pages_in_area=%lld", &n) == 1)
		r->pinned_pages = n;
	else
		for (p = text; p && (p = strstr(p, "pin-io: ")); p++)
			if (sscanf(p, "pin-io: %lld", &n) == 1)
				r->pinned_pages = n;
	if (text && r->pinned_pages < 0)
		ds_problem(r, "bg-pin-io.log", "no count of the pages pin-io held");
	free(text);
	free(path);
}
