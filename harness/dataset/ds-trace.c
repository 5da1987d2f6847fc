/*
 * The kernel side of allocations: trace.dat's cma_alloc_start, _busy_retry
 * and _finish events. run turns trace.dat (libtracecmd/libtraceevent) into
 * its text copy trace-cma.csv once (with a cpuend row per buffer and CPU:
 * its last event); the data set reads only that copy and pairs each traced
 * allocation with its alloc.csv row.
 */
#include "dataset/ds-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <trace-cmd.h>

struct trace_ctx {
	struct tep_handle *tep;
	struct tep_event *start, *finish, *retry;
	struct ds_kpairs pairs;
	struct strbuf *csv;         /* exporting: rows of trace-cma.csv, no pairing */
	/* exporting: a run of retries of one (pid, name), written as one row */
	unsigned long long retry_ts;
	long long retry_n;
	int retry_pid;
	char retry_name[64];
	/* reading: each buffer's and CPU's last event (cpuend rows) */
	unsigned long long last[DS_NBUFS][DS_TRACE_CPUS];
};

static const char *const kev_names[] = { "start", "retry", "finish", "align" };

static void flush_retries(struct trace_ctx *c)
{
	if (c->retry_n)
		sb_addf(c->csv, "%llu,%d,retry,%s,%lld\n", c->retry_ts, c->retry_pid,
			c->retry_name, c->retry_n);
	c->retry_n = 0;
}

/*
 * One event, paired at once or exported as a row; consecutive retries of
 * one allocation (thousands while CMA waits on a busy page) become one row
 * whose value counts them.
 */
static void trace_sink(struct trace_ctx *c, enum ds_kev type, int pid, const char *name,
		       unsigned long long ts, long long value)
{
	if (!c->csv) {
		ds_kpairs_event(&c->pairs, type, pid, name, ts, value);
		return;
	}
	if (type == DS_KEV_RETRY && c->retry_n && c->retry_pid == pid &&
	    !strcmp(c->retry_name, name)) {
		c->retry_n += value;
		return;
	}
	flush_retries(c);
	if (type == DS_KEV_RETRY) {
		c->retry_ts = ts;
		c->retry_pid = pid;
		snprintf(c->retry_name, sizeof(c->retry_name), "%s", name);
		c->retry_n = value;
		return;
	}
	sb_addf(c->csv, "%llu,%d,%s,%s,%lld\n", ts, pid, kev_names[type], name, value);
}

static void field_str(struct tep_event *ev, struct tep_record *rec, const char *name,
		      char *buf, size_t size)
{
	int len = 0;
	const char *p = tep_get_field_raw(NULL, ev, name, rec, &len, 0);

	buf[0] = '\0';
	if (p && len > 0)
		snprintf(buf, size, "%.*s", (int)strnlen(p, len), p);
}

static ssize_t find_open(struct ds_kpairs *c, int pid, const char *name)
{
	for (size_t i = c->nopen; i-- > 0;) {
		struct ds_kalloc *k = &c->k[c->open[i]];

		if (k->pid == pid && !strcmp(k->name, name))
			return (ssize_t)i;
	}
	return -1;
}

static void close_open(struct ds_kpairs *c, size_t i)
{
	memmove(&c->open[i], &c->open[i + 1], (c->nopen - i - 1) * sizeof(*c->open));
	c->nopen--;
}

void ds_kpairs_event(struct ds_kpairs *c, enum ds_kev type, int pid, const char *name,
		     unsigned long long ts, long long value)
{
	ssize_t o = find_open(c, pid, name);
	struct ds_kalloc *k;

	switch (type) {
	case DS_KEV_START:
		if (o >= 0) {
			/* a second start before the first one finished */
			c->k[c->open[o]].unpaired = true;
			close_open(c, o);
		}
		if (c->nk == c->capk) {
			c->capk = c->capk ? 2 * c->capk : 64;
			c->k = xrealloc(c->k, c->capk * sizeof(*c->k));
			c->open = xrealloc(c->open, c->capk * sizeof(*c->open));
		}
		k = &c->k[c->nk];
		memset(k, 0, sizeof(*k));
		k->pid = pid;
		snprintf(k->name, sizeof(k->name), "%s", name);
		k->ts_start = ts;
		k->count = value;
		k->align = DS_NONE;
		c->open[c->nopen++] = c->nk++;
		break;
	case DS_KEV_RETRY:
		/* value: how many retry events this one stands for */
		if (o >= 0)
			c->k[c->open[o]].retries += value;
		else
			c->orphan_retry += (size_t)value;
		break;
	case DS_KEV_FINISH:
		if (o < 0) {
			c->orphan_finish++;
			break;
		}
		k = &c->k[c->open[o]];
		k->ts_end = ts;
		k->errorno = value;
		k->finished = true;
		close_open(c, o);
		break;
	case DS_KEV_ALIGN:
		if (o >= 0)
			c->k[c->open[o]].align = value;
		break;
	}
}

void ds_kpairs_end(struct ds_kpairs *c)
{
	for (size_t i = 0; i < c->nopen; i++)
		c->k[c->open[i]].unpaired = true;
	c->nopen = 0;
	c->unpaired = 0;
	for (size_t i = 0; i < c->nk; i++)
		c->unpaired += c->k[i].unpaired;
}

void ds_kpairs_free(struct ds_kpairs *c)
{
	free(c->k);
	free(c->open);
	memset(c, 0, sizeof(*c));
}

static int trace_event(struct tep_record *rec, int buffer, int cpu, void *arg)
{
	struct trace_ctx *c = arg;
	struct tep_event *ev = tep_find_event_by_record(c->tep, rec);
	char name[64];

	(void)buffer;
	(void)cpu;
	if (!ev || (ev != c->start && ev != c->finish && ev != c->retry))
		return 0;
	field_str(ev, rec, "name", name, sizeof(name));
	if (ev == c->start) {
		long long align = ds_trace_num(ev, rec, "align", DS_NONE);

		trace_sink(c, DS_KEV_START, tep_data_pid(c->tep, rec), name, rec->ts,
			   ds_trace_num(ev, rec, "count", DS_NONE));
		if (align != DS_NONE)
			trace_sink(c, DS_KEV_ALIGN, tep_data_pid(c->tep, rec), name, rec->ts, align);
	}
	else if (ev == c->retry)
		trace_sink(c, DS_KEV_RETRY, tep_data_pid(c->tep, rec), name, rec->ts, 1);
	else
		trace_sink(c, DS_KEV_FINISH, tep_data_pid(c->tep, rec), name, rec->ts,
			   ds_trace_num(ev, rec, "errorno", DS_NONE));
	return 0;
}

/*
 * The cma_alloc_* events of a trace.dat into c, then a cpuend row per
 * buffer and CPU (its last event: where a buffer that filled stopped);
 * NULL, or what is wrong.
 */
static const char *iterate_trace(const char *path, struct trace_ctx *c)
{
	struct ds_tracefile t;
	const char *err = NULL;

	if (ds_tracefile_open(&t, path))
		return "cannot be read (truncated or not a trace-cmd file)";
	c->tep = t.tep;
	c->start = tep_find_event_by_name(c->tep, "cma", "cma_alloc_start");
	c->finish = tep_find_event_by_name(c->tep, "cma", "cma_alloc_finish");
	c->retry = tep_find_event_by_name(c->tep, "cma", "cma_alloc_busy_retry");
	if (!c->start || !c->finish)
		err = "has no cma:cma_alloc_start/cma_alloc_finish events";
	else if (ds_tracefile_iterate(&t, trace_event, c) < 0)
		err = "error while reading events (truncated?)";
	flush_retries(c);
	for (int b = 0; b < DS_NBUFS; b++)
		for (int cpu = 0; cpu < DS_TRACE_CPUS; cpu++)
			if (t.last[b][cpu])
				sb_addf(c->csv, "%llu,-1,cpuend,%s,%d\n", t.last[b][cpu],
					b ? DS_TRACE_DETAIL : DS_TRACE_MAIN, cpu);
	c->tep = NULL;
	ds_tracefile_close(&t);
	return err;
}

int dataset_export_trace(const char *run_dir, struct strbuf *errs)
{
	char *dat = path_join(run_dir, "trace.dat"), *csv = path_join(run_dir, "trace-cma.csv");
	struct strbuf rows;
	struct trace_ctx c;
	const char *err;
	int ret = 0;

	memset(&c, 0, sizeof(c));
	sb_init(&rows);
	sb_add(&rows, "ts_ns,pid,event,name,value\n");
	c.csv = &rows;
	if (path_exists(dat)) {
		/* A truncated trace still gives the events before the cut. */
		if ((err = iterate_trace(dat, &c))) {
			sb_addf(errs, "%s", err);
			ret = -1;
		}
		if (write_file(csv, rows.buf, rows.len)) {
			sb_addf(errs, "%s%s: %s", ret ? "; " : "", csv, strerror(errno));
			ret = -1;
		}
		if (!ret && dataset_export_attr(run_dir, errs))
			ret = -1;
	}
	sb_free(&rows);
	free(dat);
	free(csv);
	return ret;
}

/* trace-cma.csv rows into c's pairs; false if the file cannot be read. */
static bool read_trace_csv(struct ds_run *r, const char *path, struct trace_ctx *c)
{
	static const char *const cols[] = { "ts_ns", "pid", "event", "name", "value" };
	struct csv f;
	int col[5];

	if (csv_open(&f, path))
		return false;
	if (!csv_cols(&f, cols, 5, col)) {
		ds_problem(r, "trace-cma.csv", "no header ts_ns,pid,event,name,value");
		csv_close(&f);
		return true;
	}
	while (csv_next(&f)) {
		long long ts, pid, value;
		const char *kind = csv_field(&f, col[2]), *name = csv_field(&f, col[3]);
		size_t t;

		if (!csv_ll(&f, col[0], &ts) || !csv_ll(&f, col[1], &pid) ||
		    !csv_ll(&f, col[4], &value) || !kind || !name) {
			ds_problem(r, "trace-cma.csv", "line %zu: not ts_ns,pid,event,name,value",
				   f.lineno);
			continue;
		}
		if (!strcmp(kind, "cpuend")) {
			int b = ds_trace_buffer(name);

			if (b >= 0 && value >= 0 && value < DS_TRACE_CPUS)
				c->last[b][value] = (unsigned long long)ts;
			continue;
		}
		for (t = 0; t < ARRAY_SIZE(kev_names) && strcmp(kind, kev_names[t]); t++)
			;
		if (t == ARRAY_SIZE(kev_names))
			ds_problem(r, "trace-cma.csv", "line %zu: unknown event '%s'", f.lineno, kind);
		else
			trace_sink(c, (enum ds_kev)t, (int)pid, name, (unsigned long long)ts, value);
	}
	csv_close(&f);
	return true;
}

/* The run's kernel-side allocations, paired; false (and a problem) if none can be read. */
static bool read_pairs(struct ds_run *r, const char *path, struct trace_ctx *c)
{
	memset(c, 0, sizeof(*c));
	if (!read_trace_csv(r, path, c)) {
		ds_problem(r, "trace-cma.csv", "missing");
		return false;
	}
	ds_kpairs_end(&c->pairs);
	if (c->pairs.orphan_finish)
		ds_problem(r, "trace-cma.csv", "%zu cma_alloc_finish without a cma_alloc_start",
			   c->pairs.orphan_finish);
	if (c->pairs.orphan_retry)
		ds_problem(r, "trace-cma.csv", "%zu cma_alloc_busy_retry outside an allocation",
			   c->pairs.orphan_retry);
	if (c->pairs.unpaired)
		ds_problem(r, "trace-cma.csv", "%zu cma_alloc_start without a cma_alloc_finish",
			   c->pairs.unpaired);
	return true;
}

/*
 * The i-th user request is the next traced allocation of its size on the
 * run's area. Allocations beside a foreground job are untraced.
 */
void ds_read_trace(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	char *path = ds_run_path(ds, r, "trace-cma.csv");
	size_t first = ds->nallocs, rows = 0, next = 0, skipped = 0, unmatched = 0, late = 0;
	unsigned long long retry_cut;
	struct ds_trace_loss loss;
	struct trace_ctx tc;
	struct ds_kpairs *kp = &tc.pairs;
	bool have;

	/* the plan's allocations; a script's (tagged) ones are not traced */
	for (size_t i = 0; i < ds->nallocs; i++)
		if (ds->allocs[i].run == ri && !ds->allocs[i].tag[0]) {
			first = first < i ? first : i;
			rows++;
		}
	for (size_t i = 0; i < ds->nallocs; i++)
		if (ds->allocs[i].run == ri && ds->allocs[i].tag[0])
			DS_FLAG(&ds->allocs[i], "no-trace");
	if (!rows || (strcmp(r->allocations, "traced") && !path_exists(path))) {
		free(path);
		for (size_t i = first; i < first + rows; i++)
			DS_FLAG(&ds->allocs[i], "no-trace");
		return;
	}
	if (r->trace_problem)
		ds_problem(r, "trace.dat", "%s", r->trace_problem);
	ds_trace_loss(ds, r, &loss);
	r->trace_lost = loss.lost[DS_BUF_MAIN];
	r->detail_lost = loss.lost[DS_BUF_DETAIL];
	if (r->trace_lost)
		ds_problem(r, "trace-loss.csv", "the trace buffer lost %lld events: the run's "
			   "kernel-side cells leave it out", r->trace_lost);
	have = read_pairs(r, path, &tc);
	/* busy retries after the detail buffer filled are unknown, not fewer */
	retry_cut = ds_trace_cut(&loss, tc.last, 1u << DS_BUF_DETAIL);
	free(path);
	/* run could not read trace.dat at all: no kernel side, not a mismatch */
	if (r->trace_problem && !kp->nk)
		have = false;
	r->has_trace = have;
	for (size_t i = first; i < first + rows; i++) {
		struct ds_alloc *a = &ds->allocs[i];
		size_t k;

		if (!have) {
			DS_FLAG(a, "no-trace");
			continue;
		}
		for (k = next; k < kp->nk; k++)
			if (kp->k[k].count == a->pages && (!r->area || !strcmp(kp->k[k].name, r->area)))
				break;
		if (k == kp->nk) {
			DS_FLAG(a, "unmatched");
			unmatched++;
			continue;
		}
		skipped += k - next;
		next = k + 1;
		a->retries = kp->k[k].retries;
		if (kp->k[k].unpaired || !kp->k[k].finished) {
			DS_FLAG(a, "unpaired");
			continue;
		}
		if (retry_cut && kp->k[k].ts_end > retry_cut) {
			a->retries = DS_NONE;
			late++;
		}
		a->kernel_ns = (long long)(kp->k[k].ts_end - kp->k[k].ts_start);
		a->kts = kp->k[k].ts_start;
		a->kpid = kp->k[k].pid;
		a->kerrno = kp->k[k].errorno;
		a->kalign = kp->k[k].align;
	}
	skipped += kp->nk > next ? kp->nk - next : 0;
	if (unmatched)
		ds_problem(r, "trace-cma.csv", "%zu of %zu allocations in alloc.csv have no "
			   "cma_alloc_start (truncated trace?)", unmatched, rows);
	if (late)
		ds_problem(r, "trace-loss.csv", "the detail buffer lost %lld events: the busy "
			   "retries of the %zu requests that ended after %.3f s are unknown",
			   r->detail_lost, late, retry_cut / 1e9);
	if (have && skipped)
		ds_problem(r, "trace-cma.csv", "%zu traced allocations not in alloc.csv", skipped);
	ds_kpairs_free(kp);
}
