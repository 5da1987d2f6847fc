/*
 * The attribution's events: run turns trace.dat (libtracecmd,
 * libtraceevent) into their text copy trace-attr.csv once, keeping only
 * the events of a task between its cma_alloc_start and cma_alloc_finish;
 * the data set reads that copy, attributes every request (ds-attr.c) and
 * joins it to its alloc.csv row through the kernel-side pair
 * (ds-trace.c).
 */
#include "dataset/ds-attr.h"
#include "dataset/ds-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

struct export_ctx {
	struct tep_handle *tep;
	struct tep_event *ev[DS_NAEV];
	struct tep_event *sched_switch;     /* gives DS_AEV_OUT and DS_AEV_IN */
	int *open;                          /* pids inside a request */
	size_t nopen, capopen;
	struct strbuf *csv;
	size_t rows;
	size_t phase_rows;                  /* of events that bound a phase */
};

static const struct {
	enum ds_aev ev;
	const char *sys, *name;
} kevents[] = {
	{ DS_AEV_START, "cma", "cma_alloc_start" },
	{ DS_AEV_FINISH, "cma", "cma_alloc_finish" },
	{ DS_AEV_RETRY, "cma", "cma_alloc_busy_retry" },
	{ DS_AEV_ISOLATE, "compaction", "mm_compaction_isolate_migratepages" },
	{ DS_AEV_CBEGIN, "compaction", "mm_compaction_begin" },
	{ DS_AEV_CEND, "compaction", "mm_compaction_end" },
	{ DS_AEV_MSTART, "migrate", "mm_migrate_pages_start" },
	{ DS_AEV_MIGRATED, "migrate", "mm_migrate_pages" },
	{ DS_AEV_TEST, "page_isolation", "test_pages_isolated" },
	{ DS_AEV_GSTART, "gcma", "gcma_alloc_start" },
	{ DS_AEV_GFINISH, "gcma", "gcma_alloc_finish" },
	{ DS_AEV_WAKE, "sched", "sched_wakeup" },
	{ DS_AEV_MFAIL, "migrate", "mm_migrate_pages_fail" },
};

static long long num(struct tep_event *ev, struct tep_record *rec, const char *name)
{
	return ds_trace_num(ev, rec, name, 0);
}

static ssize_t open_at(const struct export_ctx *c, int pid)
{
	for (size_t i = 0; i < c->nopen; i++)
		if (c->open[i] == pid)
			return (ssize_t)i;
	return -1;
}

static void row(struct export_ctx *c, unsigned long long ts, int pid, enum ds_aev ev,
		long long a, long long b)
{
	if (open_at(c, pid) < 0)
		return;
	sb_addf(c->csv, "%llu,%d,%s,%lld,%lld\n", ts, pid, ds_aev_names[ev], a, b);
	c->rows++;
	c->phase_rows += ev == DS_AEV_ISOLATE || ev == DS_AEV_MIGRATED || ev == DS_AEV_TEST ||
			 ev == DS_AEV_GSTART || ev == DS_AEV_GFINISH;
}

/*
 * sched_switch's prev_state: 0 runnable (preempted or yielding; 6.12 marks
 * a preemption with TASK_REPORT_MAX, 0x100), any of the low bits a sleep.
 */
static int blocked(long long prev_state)
{
	return (prev_state & 0xff) != 0;
}

static int export_event(struct tep_record *rec, int buffer, int cpu, void *arg)
{
	struct export_ctx *c = arg;
	struct tep_event *ev = tep_find_event_by_record(c->tep, rec);
	int pid = tep_data_pid(c->tep, rec);
	ssize_t at;
	int k;

	(void)buffer;
	(void)cpu;
	if (!ev)
		return 0;
	if (ev == c->sched_switch) {
		row(c, rec->ts, (int)num(ev, rec, "prev_pid"), DS_AEV_OUT,
		    blocked(num(ev, rec, "prev_state")), 0);
		row(c, rec->ts, (int)num(ev, rec, "next_pid"), DS_AEV_IN, 0, 0);
		return 0;
	}
	for (k = 0; k < DS_NAEV && c->ev[k] != ev; k++)
		;
	switch (k) {
	case DS_NAEV:
		return 0;
	case DS_AEV_START:
		if (open_at(c, pid) < 0) {
			if (c->nopen == c->capopen) {
				c->capopen = c->capopen ? 2 * c->capopen : 8;
				c->open = xrealloc(c->open, c->capopen * sizeof(*c->open));
			}
			c->open[c->nopen++] = pid;
		}
		row(c, rec->ts, pid, k, num(ev, rec, "count"), 0);
		return 0;
	case DS_AEV_FINISH:
		row(c, rec->ts, pid, k, num(ev, rec, "errorno"), 0);
		if ((at = open_at(c, pid)) >= 0)
			c->open[at] = c->open[--c->nopen];
		return 0;
	case DS_AEV_ISOLATE:
		row(c, rec->ts, pid, k, num(ev, rec, "nr_scanned"), num(ev, rec, "nr_taken"));
		return 0;
	case DS_AEV_MIGRATED:
		row(c, rec->ts, pid, k, num(ev, rec, "succeeded"), num(ev, rec, "failed"));
		return 0;
	case DS_AEV_TEST:
		row(c, rec->ts, pid, k, num(ev, rec, "fin_pfn") == num(ev, rec, "end_pfn"), 0);
		return 0;
	case DS_AEV_GFINISH:
		row(c, rec->ts, pid, k, num(ev, rec, "dropped"), 0);
		return 0;
	case DS_AEV_WAKE:
		row(c, rec->ts, (int)num(ev, rec, "pid"), k, 0, 0);
		return 0;
	case DS_AEV_MFAIL:
		/* one event per migrate_pages() call, a field per kind (named
		 * as ds_failkind_names): a row per kind it counts */
		for (int f = 0; f < DS_NFAILKINDS; f++) {
			long long n = num(ev, rec, ds_failkind_names[f]);

			if (n > 0)
				row(c, rec->ts, pid, k, f, n);
		}
		return 0;
	default:
		row(c, rec->ts, pid, k, 0, 0);
		return 0;
	}
}

/*
 * Writes run_dir/trace-attr.csv from trace.dat when events that bound a
 * phase occurred inside the requests (a trace=attribution run: every CMA
 * attempt ends in test_pages_isolated, every GCMA request takes its range
 * back between gcma events). A trace of the cma events, or of cma and
 * sched_switch, gets none (trace.dat holds the formats of events that
 * were not enabled: their presence says nothing); 0 when nothing was
 * written.
 */
int dataset_export_attr(const char *run_dir, struct strbuf *errs)
{
	char *dat = path_join(run_dir, "trace.dat"), *out = path_join(run_dir, "trace-attr.csv");
	struct ds_tracefile t = { 0 };
	struct export_ctx c;
	struct strbuf rows;
	bool beyond = false;
	int ret = 0;

	memset(&c, 0, sizeof(c));
	sb_init(&rows);
	c.csv = &rows;
	if (!path_exists(dat) || ds_tracefile_open(&t, dat))
		goto out;   /* dataset_export_trace says so */
	c.tep = t.tep;
	for (size_t i = 0; i < ARRAY_SIZE(kevents); i++) {
		c.ev[kevents[i].ev] = tep_find_event_by_name(c.tep, kevents[i].sys,
							     kevents[i].name);
		beyond |= c.ev[kevents[i].ev] && strcmp(kevents[i].sys, "cma");
	}
	c.sched_switch = tep_find_event_by_name(c.tep, "sched", "sched_switch");
	beyond |= c.sched_switch != NULL;
	if (!beyond || !c.ev[DS_AEV_START] || !c.ev[DS_AEV_FINISH])
		goto out;
	sb_add(&rows, "ts_ns,pid,event,a,b\n");
	if (ds_tracefile_iterate(&t, export_event, &c) < 0) {
		sb_addf(errs, "%strace-attr.csv: error while reading events", errs->len ? "; " : "");
		ret = -1;
	}
	/* each buffer's and CPU's last event: where a buffer that filled stopped */
	for (int b = 0; b < DS_NBUFS; b++)
		for (int cpu = 0; cpu < DS_TRACE_CPUS; cpu++)
			if (t.last[b][cpu])
				sb_addf(&rows, "%llu,-1,cpuend,%d,%d\n", t.last[b][cpu], cpu, b);
	if (!c.phase_rows)
		goto out;
	if (write_file(out, rows.buf, rows.len)) {
		sb_addf(errs, "%s%s: %s", errs->len ? "; " : "", out, strerror(errno));
		ret = -1;
	}
out:
	if (t.n)
		ds_tracefile_close(&t);
	free(c.open);
	sb_free(&rows);
	free(dat);
	free(out);
	return ret;
}

/* trace-attr.csv into s; false if the file is missing. */
static bool read_attr_csv(struct dataset *ds, struct ds_run *r, struct ds_attrs *s,
			  unsigned long long last[DS_NBUFS][DS_TRACE_CPUS])
{
	static const char *const cols[] = { "ts_ns", "pid", "event", "a", "b" };
	struct csv f;
	int col[5];
	bool missing;

	if (!ds_open_csv(&f, ds, r, "trace-attr.csv", cols, 5, col, &missing))
		return false;
	while (csv_next(&f)) {
		long long ts, pid, a, b;
		const char *kind = csv_field(&f, col[2]);
		int k;

		if (!csv_ll(&f, col[0], &ts) || !csv_ll(&f, col[1], &pid) || !kind ||
		    !csv_ll(&f, col[3], &a) || !csv_ll(&f, col[4], &b)) {
			ds_problem(r, "trace-attr.csv", "line %zu: not ts_ns,pid,event,a,b", f.lineno);
			continue;
		}
		if (!strcmp(kind, "cpuend")) {
			/* a = the CPU, b = its buffer (DS_BUF_*) */
			if (a >= 0 && a < DS_TRACE_CPUS && b >= 0 && b < DS_NBUFS)
				last[b][a] = (unsigned long long)ts;
			continue;
		}
		for (k = 0; k < DS_NAEV && strcmp(kind, ds_aev_names[k]); k++)
			;
		if (k == DS_NAEV)
			ds_problem(r, "trace-attr.csv", "line %zu: unknown event '%s'", f.lineno, kind);
		else
			ds_attrs_event(s, k, (int)pid, (unsigned long long)ts, a, b);
	}
	csv_close(&f);
	ds_attrs_end(s);
	return true;
}

/*
 * Each traced, paired request of the run gets the attribution that began
 * at its cma_alloc_start (same task, same time). Where the trace buffer
 * filled and dropped events, only the requests that ended before the
 * first CPU's buffer stopped are attributed: an interval of a later one
 * could span the gap.
 */
void ds_read_attr(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	unsigned long long last[DS_NBUFS][DS_TRACE_CPUS] = { { 0 } }, cut;
	struct ds_trace_loss loss;
	struct ds_attrs s;
	size_t joined = 0, next = 0, late = 0, finished = 0;

	memset(&s, 0, sizeof(s));
	if (!r->has_trace || !read_attr_csv(ds, r, &s, last))
		return;
	r->has_attr = true;
	ds_trace_loss(ds, r, &loss);
	cut = ds_trace_cut(&loss, last, (1u << DS_BUF_MAIN) | (1u << DS_BUF_DETAIL));
	for (size_t i = 0; i < ds->nallocs; i++) {
		struct ds_alloc *a = &ds->allocs[i];
		struct ds_attr_row *at;
		size_t k;

		if (a->run != ri || !a->kts || a->kernel_ns == DS_NONE)
			continue;
		for (k = next; k < s.n && (s.a[k].ts_start != a->kts || s.a[k].pid != a->kpid); k++)
			;
		if (k == s.n || !s.a[k].finished)
			continue;
		next = k + 1;
		if (cut && s.a[k].ts_end > cut) {
			late++;
			continue;
		}
		at = ds_grow(&ds->attrs, &ds->nattrs, &ds->cap_attrs, sizeof(*at));
		at->alloc = i;
		at->at = s.a[k];
		joined++;
	}
	if (late)
		ds_problem(r, "trace-attr.csv", "%zu requests not attributed: they ended after the "
			   "trace buffer filled (%.3f s) and dropped events", late, cut / 1e9);
	for (size_t k = 0; k < s.n; k++)
		finished += s.a[k].finished;
	if (joined + late < finished)
		ds_problem(r, "trace-attr.csv", "%zu of %zu finished requests in the attribution "
			   "events not joined to an alloc.csv row", finished - joined - late, finished);
	ds_attrs_free(&s);
}
