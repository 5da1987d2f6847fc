/*
 * The report's per-run metrics: timed jobs, fio jobs, counters and perf
 * events, one value per run each, tested like every other row.
 */
#include "report/report-internal.h"

/* Each timed foreground job (jobtime.csv): elapsed, user and sys seconds per run. */
void job_tables(struct tables *ts, const struct report_col *cols, size_t ncols)
{
	struct strlist names = { 0 };

	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].ds->njobs; i++)
			if (col_run(&cols[c], cols[c].ds->jobs[i].run) &&
			    !sl_has(&names, cols[c].ds->jobs[i].name))
				sl_add(&names, cols[c].ds->jobs[i].name);
	for (size_t k = 0; k < names.n; k++) {
		struct dvec *e = dvecs(ncols), *u = dvecs(ncols), *sy = dvecs(ncols);
		struct dvec *cpu = dvecs(ncols);
		char *title = xasprintf("timed job %s (s, one value per run)", names.v[k]);
		struct table *t = tables_add(ts, cols, ncols, title);
		struct trow *r = table_text(t, "runs");

		for (size_t c = 0; c < ncols; c++) {
			for (size_t i = 0; i < cols[c].ds->njobs; i++) {
				const struct ds_job *j = &cols[c].ds->jobs[i];

				if (!col_run(&cols[c], j->run) || strcmp(j->name, names.v[k]))
					continue;
				dv_add(&e[c], j->elapsed_s);
				dv_add(&u[c], j->user_s);
				dv_add(&sy[c], j->sys_s);
				/* the RFC v2's table: CPU time over elapsed (2 vCPUs: up to 200%) */
				if (j->elapsed_s > 0)
					dv_add(&cpu[c], 100.0 * (j->user_s + j->sys_s) / j->elapsed_s);
			}
			table_set(r, c, xasprintf("%zu", e[c].n));
		}
		/* one job per run (job=build): its rows are the job-* endpoints */
		tested_row(ts, t, "elapsed (median of runs)", "lower", 2, e, false,
			   names.n == 1 ? "job-elapsed" : NULL);
		spread_row(t, "elapsed of runs", e, 2);
		tested_row(ts, t, "user (mean of runs)", "lower", 2, u, true,
			   names.n == 1 ? "job-user" : NULL);
		spread_row(t, "user of runs", u, 2);
		tested_row(ts, t, "sys (mean of runs)", "lower", 2, sy, true,
			   names.n == 1 ? "job-sys" : NULL);
		spread_row(t, "sys of runs", sy, 2);
		tested_row(ts, t, "CPU % ((user + sys) / elapsed, mean of runs)", "", 1, cpu, true,
			   NULL);
		spread_row(t, "CPU % of runs", cpu, 1);
		dvecs_free(cpu, ncols);
		dvecs_free(e, ncols);
		dvecs_free(u, ncols);
		dvecs_free(sy, ncols);
		free(title);
	}
	sl_free(&names);
}

/*
 * app-switch's launches (job=apps): the user-visible time to an app being
 * ready, every launch and cold ones apart (a warm switch touches memory
 * already there), with the major faults a cold launch took: the files it
 * had to read again because neither the page cache nor cleancache kept them.
 */
void launch_tables(struct tables *ts, const struct report_col *cols, size_t ncols)
{
	struct dvec *all = dvecs(ncols), *cold = dvecs(ncols), *warm = dvecs(ncols);
	struct dvec *share = dvecs(ncols), *faults = dvecs(ncols);
	size_t *runs = xcalloc(ncols, sizeof(size_t)), *n = xcalloc(ncols, sizeof(size_t)), any = 0;
	struct table *t = tables_add(ts, cols, ncols, "app launches (ms to ready; one value per run)");
	struct trow *r = table_text(t, "runs: launches");

	for (size_t c = 0; c < ncols; c++) {
		const struct dataset *ds = cols[c].ds;

		for (size_t run = 0; run < ds->nruns; run++) {
			struct dvec a = { 0 }, k = { 0 }, w = { 0 }, f = { 0 };

			if (!col_run(&cols[c], run))
				continue;
			for (size_t i = 0; i < ds->nlaunches; i++) {
				const struct ds_launch *l = &ds->launches[i];

				if (l->run != run)
					continue;
				dv_add(&a, l->launch_ns / 1e6);
				dv_add(l->cold ? &k : &w, l->launch_ns / 1e6);
				if (l->cold && l->majflt >= 0)
					dv_add(&f, (double)l->majflt);
			}
			if (a.n) {
				runs[c]++;
				n[c] += a.n;
				any += a.n;
				dv_add(&all[c], dv_median(&a));
				dv_add(&share[c], 100.0 * k.n / a.n);
			}
			if (k.n)
				dv_add(&cold[c], dv_median(&k));
			if (w.n)
				dv_add(&warm[c], dv_median(&w));
			if (f.n)
				dv_add(&faults[c], dv_mean(&f));
			dv_free(&a);
			dv_free(&k);
			dv_free(&w);
			dv_free(&f);
		}
		if (runs[c])
			table_set(r, c, xasprintf("%zu: %zu", runs[c], n[c]));
	}
	if (any) {
		tested_row(ts, t, "p50, every launch (median of run p50s)", "lower", 2, all, false,
			   "launch-p50");
		spread_row(t, "run p50s", all, 1);
		tested_row(ts, t, "cold launches % (mean of runs)", "lower", 1, share, true, NULL);
		tested_row(ts, t, "cold p50 (median of run p50s)", "lower", 2, cold, false,
			   "launch-cold-p50");
		spread_row(t, "cold run p50s", cold, 1);
		tested_row(ts, t, "warm p50 (median of run p50s)", "lower", 2, warm, false, NULL);
		tested_row(ts, t, "major faults per cold launch (mean of runs)", "lower", 0, faults,
			   true, NULL);
	} else {
		tables_drop_all_rows(t);
	}
	tables_drop_empty(ts);
	dvecs_free(all, ncols);
	dvecs_free(cold, ncols);
	dvecs_free(warm, ncols);
	dvecs_free(share, ncols);
	dvecs_free(faults, ncols);
	free(runs);
	free(n);
}

/* ---- per-run metrics: fio, counters, perf ---------------------------------- */

static double fio_value(const struct ds_fio *f, int which)
{
	long long v;

	switch (which) {
	case 0: return f->read_iops;
	case 1: return f->read_bw;
	case 2: v = f->read_p50; break;
	case 3: v = f->read_p99; break;
	case 4: return f->write_iops;
	case 5: return f->write_bw;
	case 6: v = f->write_p50; break;
	default: v = f->write_p99; break;
	}
	return v == DS_NONE ? NAN : (double)v;
}

struct fio_metric {
	const char *label, *better;
	int prec;
	double scale;
	int which;
	bool sum;                   /* rates of one job's rows in a run add up */
	const char *key;            /* the endpoint of the foreground job's row, or NULL */
};

/* One value per run of a fio output file and job: rows summed or averaged. */
static void fio_runs(const struct report_col *c, const char *file, const char *job,
		     const struct fio_metric *m, struct dvec *out)
{
	for (size_t run = 0; run < c->ds->nruns; run++) {
		double s = 0;
		size_t n = 0;

		if (!col_run(c, run))
			continue;
		for (size_t i = 0; i < c->ds->nfios; i++) {
			const struct ds_fio *f = &c->ds->fios[i];
			double x = fio_value(f, m->which);

			if (f->run != run || strcmp(f->file, file) || strcmp(f->job, job) ||
			    f->flags[0] || isnan(x))
				continue;
			s += x * m->scale;
			n++;
		}
		if (n)
			dv_add(out, m->sum ? s : s / n);
	}
}

void fio_tables(struct tables *ts, const struct report_col *cols, size_t ncols)
{
	static const struct fio_metric m[] = {
		{ "read iops", "higher", 1, 1, 0, true, NULL },
		{ "read bandwidth (MiB/s)", "higher", 2, 1.0 / 1048576, 1, true, "read-bw" },
		{ "read clat p50 (us)", "lower", 2, 1e-3, 2, false, NULL },
		{ "read clat p99 (us)", "lower", 2, 1e-3, 3, false, NULL },
		{ "write iops", "higher", 1, 1, 4, true, NULL },
		{ "write bandwidth (MiB/s)", "higher", 2, 1.0 / 1048576, 5, true, "write-bw" },
		{ "write clat p50 (us)", "lower", 2, 1e-3, 6, false, NULL },
		{ "write clat p99 (us)", "lower", 2, 1e-3, 7, false, NULL },
	};
	struct strlist keys = { 0 };
	size_t fg = 0, bg = 0;

	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].ds->nfios; i++) {
			const struct ds_fio *f = &cols[c].ds->fios[i];
			char *key = xasprintf("%s\t%s", f->file, f->job);

			if (col_run(&cols[c], f->run) && !sl_has(&keys, key))
				sl_add(&keys, key);
			free(key);
		}
	/*
	 * The foreground's jobs (not bg-*): one of them makes read-bw an
	 * endpoint; one background job makes bg-read-bw one.
	 */
	for (size_t j = 0; j < keys.n; j++) {
		fg += strncmp(keys.v[j], "bg-", 3) != 0;
		bg += strncmp(keys.v[j], "bg-", 3) == 0;
	}
	for (size_t j = 0; j < keys.n; j++) {
		char *file = xstrdup(keys.v[j]), *job = strchr(file, '\t') + 1, *title;
		struct table *t;
		struct trow *r;

		job[-1] = '\0';
		title = xasprintf("fio job %s of %s (one value per run)", job, file);
		t = tables_add(ts, cols, ncols, title);
		free(title);
		r = table_text(t, "runs");
		bool is_bg = !strncmp(file, "bg-", 3);

		for (size_t k = 0; k < ARRAY_SIZE(m); k++) {
			struct dvec *pr = dvecs(ncols);
			bool any = false;
			char *key = !m[k].key ? NULL
				  : !is_bg && fg == 1 ? xstrdup(m[k].key)
				  : is_bg && bg == 1 ? xasprintf("bg-%s", m[k].key) : NULL;

			for (size_t c = 0; c < ncols; c++) {
				fio_runs(&cols[c], file, job, &m[k], &pr[c]);
				if (!k)
					table_set(r, c, xasprintf("%zu", pr[c].n));
				any |= pr[c].n && dv_mean(&pr[c]) != 0;
			}
			if (any)
				tested_row(ts, t, m[k].label, m[k].better, m[k].prec, pr, true, key);
			free(key);
			if (any && k == 1)
				spread_row(t, "read bandwidth of runs", pr, 1);
			dvecs_free(pr, ncols);
		}
		free(file);
	}
	sl_free(&keys);
}

/* The first of names that source has in run; its delta (and after value). */
static bool counter_any(const struct dataset *ds, size_t run, const char *source,
			const char *const *names, long long *delta, long long *after)
{
	for (size_t i = 0; names[i]; i++)
		if (ds_counter_delta(ds, run, source, names[i], delta, after))
			return true;
	return false;
}

/* A per-run value: NAN when the run does not have it. */
typedef double (*run_value_fn)(const struct dataset *ds, size_t run, const void *arg);

struct counter_ref {
	const char *source, *name;
};

static double counter_delta_value(const struct dataset *ds, size_t run, const void *arg)
{
	const struct counter_ref *c = arg;
	long long d;

	return ds_counter_delta(ds, run, c->source, c->name, &d, NULL) ? (double)d : NAN;
}

/* The names kernel-patches/ gives the files in /sys/kernel/debug/cleancache/. */
static const char *const cc_hits[] = { "hits", NULL };
static const char *const cc_misses[] = { "misses", NULL };
static const char *const cc_stored[] = { "cached_pages", NULL };
static const char *const cc_pool[] = { "pool_pages", NULL };

/*
 * A CMA counter of a run with an area; NAN without one: that none or a
 * carveout allocates nothing from CMA is the design, not a finding, so
 * those columns show "-" and are not tested.
 */
static double area_counter_value(const struct dataset *ds, size_t run, const void *arg)
{
	return ds->runs[run].area ? counter_delta_value(ds, run, arg) : NAN;
}

/* Only a gcma set-up has a cache: elsewhere its counters are "-". */
static bool has_cache(const struct dataset *ds, size_t run)
{
	return !strcmp(ds->runs[run].setup, "gcma");
}

static double cleancache_hit_rate(const struct dataset *ds, size_t run, const void *arg)
{
	long long h, m;

	(void)arg;
	if (!has_cache(ds, run) || !counter_any(ds, run, "cleancache", cc_hits, &h, NULL) ||
	    !counter_any(ds, run, "cleancache", cc_misses, &m, NULL) || h + m <= 0)
		return NAN;
	return 100.0 * h / (h + m);
}

static double cleancache_occupancy(const struct dataset *ds, size_t run, const void *arg)
{
	long long a;

	(void)arg;
	return has_cache(ds, run) && counter_any(ds, run, "cleancache", cc_stored, NULL, &a) ?
	       (double)a : NAN;
}

/* Share of the donated pool holding cached data at the end. */
static double cleancache_occupancy_pct(const struct dataset *ds, size_t run, const void *arg)
{
	long long a, pool;

	(void)arg;
	if (!has_cache(ds, run) || !counter_any(ds, run, "cleancache", cc_stored, NULL, &a) ||
	    !counter_any(ds, run, "cleancache", cc_pool, NULL, &pool) || pool <= 0)
		return NAN;
	return 100.0 * a / pool;
}

/* One tested row of per-run values (mean of runs); false if no column has any. */
static bool run_metric_row(struct tables *ts, struct table *t, const char *label,
			   const char *better, int prec, run_value_fn fn, const void *arg,
			   const char *key)
{
	struct dvec *pr = dvecs(t->ncols);
	bool any = false;

	for (size_t c = 0; c < t->ncols; c++) {
		const struct dataset *ds = t->cols[c].ds;

		for (size_t run = 0; run < ds->nruns; run++) {
			double x;

			if (!col_run(&t->cols[c], run))
				continue;
			x = fn(ds, run, arg);
			if (!isnan(x))
				dv_add(&pr[c], x);
		}
		any |= pr[c].n > 0;
	}
	if (any)
		tested_row(ts, t, label, better, prec, pr, true, key);
	dvecs_free(pr, t->ncols);
	return any;
}

/*
 * One row per (source, name) under a source prefix that any column has
 * (every CMA area's counters, every background's perf events), labelled
 * "<label><source without prefix> <name>"; false if none had a value.
 */
static bool source_rows(struct tables *ts, struct table *t, const char *prefix, const char *label,
			int prec)
{
	struct strlist rows = { 0 };
	size_t plen = strlen(prefix);
	bool any = false;

	for (size_t c = 0; c < t->ncols; c++)
		for (size_t i = 0; i < t->cols[c].ds->ncounters; i++) {
			const struct ds_counter *k = &t->cols[c].ds->counters[i];
			char *key;

			/* sys-cma/<area>/gcma is a flag, not a counter: no delta */
			if (strncmp(k->source, prefix, plen) || !col_run(&t->cols[c], k->run) ||
			    !strcmp(k->name, "gcma"))
				continue;
			key = xasprintf("%s\t%s", k->source, k->name);
			if (!sl_has(&rows, key))
				sl_add(&rows, key);
			free(key);
		}
	for (size_t i = 0; i < rows.n; i++) {
		char *src = xstrdup(rows.v[i]), *name = strchr(src, '\t'), *lab;
		struct counter_ref ref;

		*name++ = '\0';
		ref = (struct counter_ref){ src, name };
		lab = xasprintf("%s%s %s", label, src + plen, name);
		any |= run_metric_row(ts, t, lab, strstr(name, "fail") ? "lower" : "", prec,
				      counter_delta_value, &ref, NULL);
		free(lab);
		free(src);
	}
	sl_free(&rows);
	return any;
}

/* Counters: CMA sysfs, vmstat, and cleancache hit rate and occupancy. */
void counter_table(struct tables *ts, const struct report_col *cols, size_t ncols)
{
	static const struct { struct counter_ref ref; const char *better; bool area; } plain[] = {
		{ { "vmstat", "cma_alloc_success" }, "", true },
		{ { "vmstat", "cma_alloc_fail" }, "lower", true },
		{ { "vmstat", "pgmigrate_success" }, "", false },
		{ { "vmstat", "pgmigrate_fail" }, "lower", false },
		{ { "vmstat", "compact_stall" }, "lower", false },
		{ { "vmstat", "workingset_refault_file" }, "lower", false },
	};
	struct table *t = tables_add(ts, cols, ncols,
				     "counters (delta over the run, mean of runs)");

	source_rows(ts, t, "sys-cma/", "cma ", 1);
	for (size_t i = 0; i < ARRAY_SIZE(plain); i++) {
		char *label = xasprintf("%s %s", plain[i].ref.source, plain[i].ref.name);

		run_metric_row(ts, t, label, plain[i].better, 1,
			       plain[i].area ? area_counter_value : counter_delta_value, &plain[i].ref,
			       NULL);
		free(label);
	}
	run_metric_row(ts, t, "cleancache hit rate %", "higher", 2, cleancache_hit_rate, NULL,
		       "hit-rate");
	run_metric_row(ts, t, "cleancache occupancy (pages, at end)", "", 1,
		       cleancache_occupancy, NULL, NULL);
	run_metric_row(ts, t, "cleancache occupancy (% of pool, at end)", "", 1,
		       cleancache_occupancy_pct, NULL, "occupancy");
	tables_drop_empty(ts);
}

/* perf stat around each background and fio job: every (workload, event) a column has. */
void perf_table(struct tables *ts, const struct report_col *cols, size_t ncols)
{
	struct table *t = tables_add(ts, cols, ncols, "perf stat of the workloads (mean of runs)");

	source_rows(ts, t, "perf/", "", 0);
	tables_drop_empty(ts);
}

