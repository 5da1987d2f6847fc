/*
 * The report of one data set (see report.h): the sections' conditions, the
 * comparison tables (report-tables.c), the primaries (report-primary.c), the
 * problems. It calls those files; they do not call it.
 */
#include "report/report-internal.h"
#include "report/survival.h"
#include "scenario/disk.h"

#include <errno.h>

void report_problems(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	size_t n = dataset_degraded(ds);

	if (txt)
		sb_addf(txt, "failed or degraded runs in %s: %zu\n", ds->run_id, n);
	if (md)
		sb_addf(md, "### Failed or degraded runs in %s: %zu\n\n", ds->run_id, n);
	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		if (ds_run_ok(r) && !r->problems.n)
			continue;
		if (txt)
			sb_addf(txt, "  %s: %s\n", r->name, r->status);
		if (md)
			sb_addf(md, "- `%s`: %s\n", r->name, r->status);
		for (size_t k = 0; k < r->problems.n; k++) {
			if (txt)
				sb_addf(txt, "    %s\n", r->problems.v[k]);
			if (md)
				sb_addf(md, "  - `%s`\n", r->problems.v[k]);
		}
	}
	if (txt)
		sb_add(txt, "\n");
	if (md)
		sb_add(md, "\n");
}

/*
 * Runs made alone and runs made beside other VMs (run --jobs) do not see
 * the same host: a report that mixes them says so, naming the latter.
 */
static void mixed_parallelism(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	struct strbuf beside;
	size_t alone = 0, shared = 0;

	sb_init(&beside);
	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		if (!ds_run_ok(r) || r->vms_beside < 0)
			continue;
		if (r->vms_beside == 0)
			alone++;
		else {
			shared++;
			sb_addf(&beside, "%s%s (%lld)", beside.len ? ", " : "", r->name, r->vms_beside);
		}
	}
	if (alone && shared) {
		if (txt)
			sb_addf(txt, "  Mixed: %zu runs alone, %zu beside other VMs: %s.\n", alone, shared,
				beside.buf);
		if (md)
			sb_addf(md, "\n**Runs made alone and runs made beside other VMs are mixed**: "
				"%zu alone, %zu beside others (VMs beside them at most): %s.\n", alone,
				shared, beside.buf);
	}
	sb_free(&beside);
}

static const struct dataset *order_ds;

static int by_start(const void *x, const void *y)
{
	const struct ds_run *a = &order_ds->runs[*(const size_t *)x];
	const struct ds_run *b = &order_ds->runs[*(const size_t *)y];

	if (a->rep != b->rep)
		return a->rep - b->rep;
	return (a->start_unix > b->start_unix) - (a->start_unix < b->start_unix);
}

/*
 * How the runs shared the host and in what order the set-ups ran: how many
 * VMs ran beside them (metadata vms_beside), and per repetition the
 * sections by start time, with the seed of a shuffled order (plan.c).
 */
static void run_conditions(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	struct strbuf s, ord;
	size_t *idx = xcalloc(ds->nruns + 1, sizeof(*idx)), n = 0, beside[3] = { 0 }, unknown = 0;
	bool same = true;
	long long seed = -1;
	char *first = NULL;

	sb_init(&s);
	sb_init(&ord);
	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		if (r->vms_beside < 0)
			unknown++;
		else
			beside[r->vms_beside > 1 ? 2 : r->vms_beside]++;
		if (r->order_seed > 0)
			seed = r->order_seed;
		if (r->start_unix > 0)
			idx[n++] = i;
	}
	sb_addf(&s, "Host sharing: %zu run%s alone, %zu beside one other VM, %zu beside two or "
		"more%s.", beside[0], beside[0] == 1 ? "" : "s", beside[1], beside[2],
		unknown ? " (the others' metadata does not say)" : "");
	order_ds = ds;
	qsort(idx, n, sizeof(*idx), by_start);
	order_ds = NULL;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		struct strbuf one;

		sb_init(&one);
		for (; j < n && ds->runs[idx[j]].rep == ds->runs[idx[i]].rep; j++)
			sb_addf(&one, "%s%s", j > i ? ", " : "", ds->runs[idx[j]].section);
		sb_addf(&ord, "%sr%d: %s", ord.len ? "; " : "", ds->runs[idx[i]].rep, one.buf);
		if (!first)
			first = xstrdup(one.buf);
		else if (strcmp(first, one.buf))
			same = false;
		sb_free(&one);
		i = j;
	}
	if (ord.len)
		sb_addf(&s, " Order of the set-ups (by start time): %s%s.", ord.buf,
			seed > 0 ? "" : same && n > ds->sections.n ? " (the same in every repetition)"
								  : "");
	if (seed > 0)
		sb_addf(&s, " Shuffled per repetition, seed %lld.", seed);
	if (md)
		sb_addf(md, "\n%s\n", s.buf);
	if (txt)
		sb_addf(txt, "  %s\n", s.buf);
	free(first);
	free(idx);
	sb_free(&s);
	sb_free(&ord);
}

/*
 * Each scaled disk model's divisor and where it came from, once per distinct
 * one: "Disk: eMMC scaled by 4.8x (median of 5 rounds, 4.5x-5.1x, measured
 * 2026-12-04)." Results from before the divisor was recorded say no more
 * than the table's emmc/4.8.
 */
static void disk_divisors(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	struct strlist seen = { 0 };
	struct strbuf s;

	sb_init(&s);
	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];
		const struct disk_profile *d = r->disk ? disk_find(r->disk) : NULL;
		char *how, *one;

		if (r->disk_calib.source == CALIB_NONE || r->disk_scale <= 1.005)
			continue;
		how = calib_describe(&r->disk_calib, r->disk_scale);
		one = xasprintf("%s scaled by %.1fx (%s)", d ? d->label : r->disk ? r->disk : "?",
				r->disk_scale, how);
		if (!sl_has(&seen, one)) {
			sb_addf(&s, "%s%s", seen.n ? "; " : "Disk: ", one);
			sl_add(&seen, one);
		}
		free(how);
		free(one);
	}
	if (s.len && md)
		sb_addf(md, "\n%s.\n", s.buf);
	if (s.len && txt)
		sb_addf(txt, "  %s.\n", s.buf);
	sb_free(&s);
	sl_free(&seen);
}

/* alloc-refill stopped the run's keeper during its bursts: its requests
 * carry the wait (refill_wait_ns). */
static bool keeper_paused(const struct dataset *ds, size_t run)
{
	for (size_t i = 0; i < ds->nallocs; i++)
		if (ds->allocs[i].run == run && ds->allocs[i].refill_wait_ns != DS_NONE)
			return true;
	return false;
}

/*
 * What a section's area held when its allocations began: "idle" without a
 * fill; else the target, the occupancy reached (median of the runs that
 * reached it) and the time it took, and how many runs reached it.
 */
static char *fill_summary(const struct dataset *ds, const char *section)
{
	struct dvec reached = { 0 }, secs = { 0 }, anon = { 0 }, kread = { 0 }, kbusy = { 0 };
	struct dvec krate = { 0 };
	size_t filled = 0, planned = 0, loads = 0, paused = 0;
	double target = NAN;
	char *s;

	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		if (strcmp(r->section, section) || !ds_run_counts(r) || !r->fill_status)
			continue;
		planned++;
		target = r->fill_target;
		if (ds_run_not_filled(r))
			continue;
		filled++;
		loads += !strcmp(r->fill_status, "load");
		dv_add(&reached, r->fill_reached);
		dv_add(&secs, r->fill_seconds);
		if (!isnan(r->fill_anon_mb))
			dv_add(&anon, r->fill_anon_mb);
		if (!isnan(r->keep_read_mb) && r->keep_seconds > 0) {
			dv_add(&kread, r->keep_read_mb);
			dv_add(&krate, r->keep_read_mb / r->keep_seconds);
			dv_add(&kbusy, ds_keeper_reading_pct(r));
			paused += keeper_paused(ds, i);
		}
	}
	if (!planned)
		s = xstrdup("idle (no fill)");
	else if (!filled)
		s = xasprintf("fill %.0f%%: no run reached it", target);
	else if (loads == filled)
		s = xasprintf("no area; the fill's readers beside it (memory read through in %.1f s, "
			      "%zu/%zu runs)", dv_median(&secs), filled, planned);
	else
		s = xasprintf("fill %.0f%%: %.1f%% in %.1f s (%zu/%zu runs)", target,
			      dv_median(&reached), dv_median(&secs), filled, planned);
	/* The load's anonymous part, which differs between set-ups: shown. */
	if (anon.n) {
		char *t = xasprintf("%s, anon %.0f MiB held", s, dv_median(&anon));

		free(s);
		s = t;
	}
	/* The keeper's load beside the measured work, and whether it ran inside
	 * the requests' timed window (without alloc-refill it does). */
	if (kread.n) {
		char *where = paused == kread.n ? xstrdup("stopped during each burst")
			      : !paused ? xstrdup("also during the requests")
			      : xasprintf("stopped during the bursts of %zu of %zu runs", paused,
					  kread.n);
		char *t = xasprintf("%s; kept by reading %.0f MiB (%.0f MiB/s), reading %.0f%% of "
				    "the time, %s", s, dv_median(&kread), dv_median(&krate),
				    dv_median(&kbusy), where);

		free(where);
		free(s);
		s = t;
	}
	dv_free(&reached);
	dv_free(&secs);
	dv_free(&anon);
	dv_free(&kread);
	dv_free(&krate);
	dv_free(&kbusy);
	return s;
}

/*
 * pin-io's pages in the area, the condition a pinned-page experiment is
 * about: NULL without pin-io; else the median and range over the section's
 * runs, and how many held none (pin-io idle: the condition not met).
 */
static char *pinned_summary(const struct dataset *ds, const char *section)
{
	struct dvec n = { 0 };
	const char *setup = "";
	size_t none = 0;
	double lo, hi;
	char *s;

	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		if (strcmp(r->section, section) || !ds_run_counts(r) || r->pinned_pages < 0)
			continue;
		setup = r->setup;
		dv_add(&n, (double)r->pinned_pages);
		none += r->pinned_pages == 0;
	}
	if (!n.n)
		return NULL;
	dv_range(&n, &lo, &hi);
	if (none == n.n)
		/* GCMA's area never holds a movable page: nothing to pin, by design */
		s = xstrdup(!strcmp(setup, "gcma") ? "pin-io held no page in the area (GCMA's holds "
			    "no movable page)" : "pin-io held no page in the area in any run: the "
			    "pinned pages this set-up is about were absent");
	else if (none)
		s = xasprintf("pin-io held %.0f pages in the area (%.0f-%.0f), none in %zu of %zu "
			      "runs", dv_median(&n), lo, hi, none, n.n);
	else
		s = xasprintf("pin-io held %.0f pages in the area (%.0f-%.0f)", dv_median(&n), lo,
			      hi);
	dv_free(&n);
	return s;
}

/*
 * Our readers in the section's timed requests, from their own records
 * (ds-readers.c): requests overlapped by a sample or by the fill's keeper
 * reading, of the requests recorded; the time the keeper was kept stopped.
 * "not recorded" for runs from before the records.
 */
static char *readers_summary(const struct dataset *ds, const char *section)
{
	long long n = 0, any = 0, bys = 0, byk = 0, stopped = 0;
	double kept = 0;
	bool samples = false, keeper = false;
	size_t runs = 0;

	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		if (strcmp(r->section, section) || !ds_run_counts(r) || r->requests_timed < 0)
			continue;
		runs++;
		n += r->requests_timed;
		any += r->reader_overlaps;
		if (r->sampler_overlaps >= 0) {
			samples = true;
			bys += r->sampler_overlaps;
		}
		if (r->keeper_overlaps >= 0) {
			keeper = true;
			byk += r->keeper_overlaps;
			stopped += r->keeper_stopped_ns;
			kept += isnan(r->keep_seconds) ? 0 : r->keep_seconds;
		}
	}
	if (!runs)
		return xstrdup("not recorded");
	if (samples && keeper && kept > 0)
		return xasprintf("%lld of %lld requests (sampler %lld, keeper %lld); keeper stopped "
				 "%.1f s (%.0f%% of %.1f s kept)", any, n, bys, byk, stopped / 1e9,
				 100 * stopped / 1e9 / kept, kept);
	if (samples && keeper)
		return xasprintf("%lld of %lld requests (sampler %lld, keeper %lld); keeper stopped "
				 "%.1f s", any, n, bys, byk, stopped / 1e9);
	return xasprintf("%lld of %lld requests (%s)", any, n, samples ? "sampler" : "keeper");
}

/* How a section's requests asked for their buffers (alloc-path). */
static char *path_summary(const struct dataset *ds, const char *section)
{
	struct ds_path p;

	char *t, *s;

	ds_path_init(&p);
	for (size_t r = 0; r < ds->nruns; r++)
		if (!strcmp(ds->runs[r].section, section))
			ds_path_add_run(&p, ds, r);
	if (p.n)
		return ds_path_text(&p);
	/* no plan requests: a script's, named as such (its tables name each file's) */
	for (size_t i = 0; i < ds->nallocs; i++)
		if (ds->allocs[i].tag[0] && !strcmp(ds->runs[ds->allocs[i].run].section, section))
			ds_path_add(&p, &ds->allocs[i]);
	if (!p.n)
		return ds_path_text(&p);
	t = ds_path_text(&p);
	s = xasprintf("the script's: %s", t);
	free(t);
	return s;
}

/* Sections, their runs, and which runs the tables leave out and why. */
static void sections_summary(const struct dataset *ds, struct strbuf *txt, struct strbuf *md)
{
	if (md)
		sb_add(md, "| section | set-up | kernel | disk | allocation path | area before the "
		       "allocations | readers of ours in the requests | runs ok / all | left out |\n"
		       "|---|---|---|---|---|---|---|---:|---|\n");
	if (txt)
		sb_addf(txt, "  %-20s %-10s %-10s %-6s %-18s %-40s %-30s %-11s %s\n", "section",
			"set-up", "kernel", "disk", "allocation path", "area before the allocations",
			"readers of ours in requests", "runs ok/all", "left out");
	for (size_t s = 0; s < ds->sections.n; s++) {
		const char *setup = "?", *kernel = "?", *arch = "x86_64";
		char *disk = NULL, *kcell;
		size_t ok = 0, all = 0;
		struct strbuf out;
		char *fill = fill_summary(ds, ds->sections.v[s]);
		char *apath = path_summary(ds, ds->sections.v[s]);
		char *pinned = pinned_summary(ds, ds->sections.v[s]);
		char *readers = readers_summary(ds, ds->sections.v[s]);

		if (pinned) {
			char *t = xasprintf("%s; %s", fill, pinned);

			free(fill);
			free(pinned);
			fill = t;
		}
		sb_init(&out);
		for (size_t i = 0; i < ds->nruns; i++) {
			const struct ds_run *r = &ds->runs[i];

			if (strcmp(r->section, ds->sections.v[s]))
				continue;
			setup = r->setup;
			kernel = r->kernel;
			arch = r->arch ? r->arch : "?";
			free(disk);
			/* a scaled model shows its divisor: emmc/14.2 */
			disk = r->disk_scale > 1.005
				       ? xasprintf("%s/%.1f", r->disk ? r->disk : "?", r->disk_scale)
				       : xstrdup(r->disk ? r->disk : "?");
			all++;
			ok += ds_run_ok(r);
			if (r->partial)
				sb_addf(&out, "%s%s (%s: partial, its rows kept)", out.len ? ", " : "",
					r->name, r->status);
			else if (!ds_run_ok(r))
				sb_addf(&out, "%s%s (%s)", out.len ? ", " : "", r->name, r->status);
			else if (ds_run_not_filled(r))
				sb_addf(&out, "%s%s (not-filled: %.1f%% of %.0f%%)", out.len ? ", " : "",
					r->name, r->fill_reached, r->fill_target);
		}
		/* x86_64 goes unsaid; another arch is named beside its kernel */
		kcell = strcmp(arch, "x86_64") ? xasprintf("%s (%s)", kernel, arch) : xstrdup(kernel);
		if (txt) {
			char n[32];

			snprintf(n, sizeof(n), "%zu/%zu", ok, all);
			sb_addf(txt, "  %-20s %-10s %-10s %-6s %-18s %-40s %-30s %-11s %s\n",
				ds->sections.v[s], setup, kcell, disk ? disk : "?", apath, fill, readers,
				n, out.len ? out.buf : "-");
		}
		if (md)
			sb_addf(md, "| %s | %s | %s | %s | %s | %s | %s | %zu / %zu | %s |\n",
				ds->sections.v[s], setup, kcell, disk ? disk : "?", apath, fill, readers,
				ok, all, out.len ? out.buf : "-");
		free(readers);
		free(apath);
		free(kcell);
		sb_free(&out);
		free(fill);
		free(disk);
	}
	for (size_t s = 0; s < ds->sections.n; s++) {
		size_t ok = 0, all = 0, partial = 0;

		for (size_t i = 0; i < ds->nruns; i++)
			if (!strcmp(ds->runs[i].section, ds->sections.v[s])) {
				all++;
				ok += ds_run_ok(&ds->runs[i]);
				partial += ds->runs[i].partial;
			}
		if (partial) {
			if (txt)
				sb_addf(txt, "  %s: %zu of %zu runs partial (ended early); the rows they "
					"completed count.\n", ds->sections.v[s], partial, all);
			if (md)
				sb_addf(md, "\n**%s: %zu of %zu runs partial** (ended early); the rows they "
					"completed count.\n", ds->sections.v[s], partial, all);
			ok += partial;
		}
		if (ok < all) {
			if (txt)
				sb_addf(txt, "  %s: %zu of %zu runs failed; its numbers rest on %zu run%s.\n",
					ds->sections.v[s], all - ok, all, ok, ok == 1 ? "" : "s");
			if (md)
				sb_addf(md, "\n**%s: %zu of %zu runs failed**; its numbers rest on %zu run%s.\n",
					ds->sections.v[s], all - ok, all, ok, ok == 1 ? "" : "s");
		}
	}
	disk_divisors(ds, txt, md);
	mixed_parallelism(ds, txt, md);
	run_conditions(ds, txt, md);
	if (txt)
		sb_add(txt, "\n");
	if (md)
		sb_add(md, "\n");
}

static const char legend[] =
	"Columns: the baseline first (--baseline, else the first section that made\n"
	"allocations, else the first section); others as value (+x.xx%), the change against\n"
	"the baseline. The run (one VM) is the unit of replication: each statistic is\n"
	"computed per run, the row shows the median (or mean) of the runs' values, and\n"
	"each tested row compares the runs' values of a column with the baseline's\n"
	"(Mann-Whitney U, two-sided: exact up to 50 runs, ties kept; 5 against 5\n"
	"completely separated gives p = 0.0079). These tables are the secondary family:\n"
	"their p-values are adjusted together (Benjamini-Hochberg false-discovery rate),\n"
	"apart from the primary comparisons above; a primary's own cell shows its q from\n"
	"those and says \"primary\". *+x.xx%* marks q < 0.05 where the two columns'\n"
	"per-run values do not overlap entirely (neither range lies inside the other);\n"
	"(q 0.xx) follows every tested cell. Not tested: a column whose runs all share one\n"
	"value with the baseline's (0 against 0), and CMA counters of a set-up without an\n"
	"area. Latencies are over every request, failed ones too, with the success rate\n"
	"beside them; in runs with a fill, over the requests that began with the area at\n"
	"the fill (the others are counted in a row of their own: \"below the fill, left\n"
	"out\"); with a plan beside a job, over the requests that began while the job\n"
	"ran (\"after the job ended, left out\"). Percentiles: linear interpolation\n"
	"(type 7).\n\n";

size_t report_dataset(const struct dataset *ds, const char *baseline, struct strbuf *txt,
		      struct strbuf *md)
{
	size_t n = ds->sections.n, b = 0, significant;
	struct report_col *cols = xcalloc(n ? n : 1, sizeof(*cols));
	struct tables ts = { 0 };

	if (!baseline)
		baseline = ds->baseline;
	for (size_t s = 0; baseline && s < n; s++)
		if (!strcmp(ds->sections.v[s], baseline))
			b = s;
	/* By default the first section that allocated: a "none" set-up listed
	 * first (no area) would leave every latency table without a baseline. */
	if (!baseline) {
		size_t first = n;

		for (size_t i = 0; i < ds->nallocs; i++) {
			size_t s = 0;

			while (s < n && strcmp(ds->sections.v[s], ds->runs[ds->allocs[i].run].section))
				s++;
			if (s < first)
				first = s;
		}
		if (first < n)
			b = first;
	}
	cols[0] = (struct report_col){ ds->sections.v[b], ds, ds->sections.v[b] };
	for (size_t s = 0, c = 1; s < n; s++)
		if (s != b)
			cols[c++] = (struct report_col){ ds->sections.v[s], ds, ds->sections.v[s] };
	if (txt)
		sb_addf(txt, "cmabench report: %s\n\n", ds->run_id);
	if (md)
		sb_addf(md, "# cmabench report: %s\n\n", ds->run_id);
	sections_summary(ds, txt, md);
	report_regimes(ds, txt, md);
	report_slowest(ds, txt, md);
	/* the tables first: the primaries are tested on their rows' values */
	report_tables(cols, n, &ts);
	report_primaries(ds, cols, n, &ts, txt, md);
	if (md)
		sb_add(md, "## Secondary comparisons\n\n");
	if (txt)
		sb_add(txt, legend);
	if (md) {
		sb_add(md, "```\n");
		sb_add(md, legend);
		md->len--;
		md->buf[md->len - 1] = '\n';
		md->buf[md->len] = '\0';
		sb_add(md, "```\n\n");
	}
	tables_render(&ts, txt, md);
	significant = tables_significant(&ts);
	tables_free(&ts);
	report_problems(ds, txt, md);
	free(cols);
	return significant;
}
