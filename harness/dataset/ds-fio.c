/*
 * fio-JOB.json (the foreground job) and bg-fio-JOB.json (background jobs):
 * fio's JSON output through json-c, one row per job.
 */
#include "dataset/ds-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static long long clat_pct(json_object *dir, const char *pct)
{
	char *ptr = xasprintf("/clat_ns/percentile/%s", pct);
	json_object *p = js_at(dir, ptr);

	free(ptr);
	return p ? json_object_get_int64(p) : DS_NONE;
}

void ds_read_fio(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	char *dir = xasprintf("%s/%s", ds->runs_dir, r->name);
	struct strlist files = { 0 };

	ds_list_dir(dir, &files);
	for (size_t f = 0; f < files.n; f++) {
		const char *fn = files.v[f];
		size_t len = strlen(fn), jlen;
		char *path, *text, *start;
		json_object *root, *jobs;
		struct json_tokener *tok;

		/* fio-JOB.json (foreground), bg-fio-JOB.json (background) */
		if ((strncmp(fn, "fio-", 4) && strncmp(fn, "bg-fio-", 7)) || len < 9 ||
		    strcmp(fn + len - 5, ".json"))
			continue;
		path = path_join(dir, fn);
		text = read_file(path, &jlen);
		free(path);
		if (!text) {
			ds_problem(r, fn, "cannot read: %s", strerror(errno));
			continue;
		}
		/* fio may print warnings before its JSON: start at the first '{' */
		start = strchr(text, '{');
		tok = json_tokener_new();
		root = start ? json_tokener_parse_ex(tok, start, (int)(jlen - (start - text))) : NULL;
		json_tokener_free(tok);
		free(text);
		jobs = js_arr(root, "jobs");
		if (!jobs || !json_object_array_length(jobs)) {
			ds_problem(r, fn, root ? "no jobs" : "not fio JSON (empty or truncated)");
			json_object_put(root);
			continue;
		}
		for (size_t j = 0; j < json_object_array_length(jobs); j++) {
			json_object *job = json_object_array_get_idx(jobs, j);
			json_object *rd = js_at(job, "/read"), *wr = js_at(job, "/write");
			long long runtime = js_int(job, "job_runtime"), error = js_int(job, "error");
			struct ds_fio *x;
			const char *name = js_str(job, "jobname");

			x = ds_grow(&ds->fios, &ds->nfios, &ds->cap_fios, sizeof(*x));
			x->run = ri;
			x->file = xstrdup(fn);
			x->job = xasprintf("%s", name ? name : "?");
			x->read_iops = js_num(rd, "iops", 0);
			x->read_bw = js_num(rd, "bw_bytes", 0);
			x->write_iops = js_num(wr, "iops", 0);
			x->write_bw = js_num(wr, "bw_bytes", 0);
			x->read_p50 = clat_pct(rd, "50.000000");
			x->read_p99 = clat_pct(rd, "99.000000");
			x->write_p50 = clat_pct(wr, "50.000000");
			x->write_p99 = clat_pct(wr, "99.000000");
			if (runtime >= 0)
				x->runtime_ms = runtime;
			else {
				long long a = js_int(rd, "runtime"), b = js_int(wr, "runtime");

				x->runtime_ms = a > b ? a : b;
				if (x->runtime_ms < 0)
					x->runtime_ms = 0;
			}
			if (error > 0) {
				DS_FLAG(x, "fio-error");
				ds_problem(r, fn, "job %s: error %lld", x->job, error);
			}
			if (!rd && !wr)
				DS_FLAG(x, "no-io");
		}
		json_object_put(root);
	}
	sl_free(&files);
	free(dir);
}

