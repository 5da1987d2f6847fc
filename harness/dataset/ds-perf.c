#include "dataset/ds-internal.h"

#include <stdlib.h>
#include <string.h>

/*
 * [bg-]NAME.perf: perf stat -x, output around a background or the foreground
 * fio job, one "value,unit,event,..." line per event. Each event becomes a
 * counter of source "perf/NAME" counted from 0;
 * task-clock (msec) is kept in microseconds as "task-clock-us". An event
 * the guest could not count ("<not supported>", no PMU under TCG) has no
 * value and no row in the report.
 */
static void load_perf_file(struct dataset *ds, size_t ri, const char *fname)
{
	struct ds_run *r = &ds->runs[ri];
	char *path = ds_run_path(ds, r, fname), *text = read_file(path, NULL), *save = NULL;
	size_t skip = strncmp(fname, "bg-", 3) ? 0 : 3;
	char *source = xasprintf("perf/%.*s", (int)(strlen(fname) - 5 - skip), fname + skip);
	size_t rows = 0;

	free(path);
	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char *f[3] = { l, NULL, NULL }, *name, *end;
		double v;

		if (l[0] == '#')
			continue;
		for (int i = 1; i < 3 && f[i - 1]; i++) {
			f[i] = strchr(f[i - 1], ',');
			if (f[i])
				*f[i]++ = '\0';
		}
		if (!f[2] || !f[2][0])
			continue;
		*strchrnul(f[2], ',') = '\0';
		v = strtod(f[0], &end);
		name = !strcmp(f[1], "msec") ? xasprintf("%s-us", f[2]) : xstrdup(f[2]);
		if (end == f[0] || *end)
			ds_add_counter(ds, ri, source, name, 0, DS_NONE, "not-counted");
		else
			ds_add_counter(ds, ri, source, name, 0,
				    (long long)(!strcmp(f[1], "msec") ? v * 1000.0 + 0.5 : v + 0.5),
				    NULL);
		rows++;
		free(name);
	}
	if (!rows)
		ds_problem(r, fname, text ? "no counts" : "unreadable");
	free(text);
	free(source);
}

void ds_read_perf(struct dataset *ds, size_t ri)
{
	char *dir = ds_run_path(ds, &ds->runs[ri], "");
	struct strlist files = { 0 };

	ds_list_dir(dir, &files);
	for (size_t i = 0; i < files.n; i++) {
		size_t n = strlen(files.v[i]);

		if (n > 5 && !strcmp(files.v[i] + n - 5, ".perf"))
			load_perf_file(ds, ri, files.v[i]);
	}
	sl_free(&files);
	free(dir);
}

