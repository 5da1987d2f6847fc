/*
 * Reads a results directory (docs/scenarios.md, "What a run produces")
 * into struct dataset and writes it as CSV. trace.dat goes through
 * libtracecmd/libtraceevent, fio's output through json-c; alloc.csv and
 * the snapshot files are our own simple formats.
 */
#include "dataset.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <trace-cmd.h>

static void problem(struct ds_run *r, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void problem(struct ds_run *r, const char *file, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	sl_addf(&r->problems, "runs/%s/%s: %s", r->name, file, msg);
	free(msg);
}

static void add_flag(char *flags, size_t size, const char *flag)
{
	size_t n = strlen(flags);

	if (strstr(flags, flag))
		return;
	snprintf(flags + n, size - n, "%s%s", n ? ";" : "", flag);
}
#define ADD_FLAG(row, f) add_flag((row)->flags, sizeof((row)->flags), (f))

bool ds_run_ok(const struct ds_run *r)
{
	return r->status && !strcmp(r->status, "ok");
}

size_t dataset_degraded(const struct dataset *ds)
{
	size_t n = 0;

	for (size_t i = 0; i < ds->nruns; i++)
		n += !ds_run_ok(&ds->runs[i]) || ds->runs[i].problems.n;
	return n;
}

/* ---- runs ---------------------------------------------------------------- */

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static struct ds_run *find_run(struct dataset *ds, const char *name)
{
	for (size_t i = 0; i < ds->nruns; i++)
		if (!strcmp(ds->runs[i].name, name))
			return &ds->runs[i];
	return NULL;
}

static struct ds_run *add_run(struct dataset *ds, const char *name)
{
	struct ds_run *r;

	ds->runs = xrealloc(ds->runs, (ds->nruns + 1) * sizeof(*ds->runs));
	r = &ds->runs[ds->nruns++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	return r;
}

static void set_str(char **dst, const char *v)
{
	if (v && !*dst)
		*dst = xstrdup(v);
}

/* Fills what a run's metadata says (fields already set win). */
static void run_from_json(struct ds_run *r, json_object *m)
{
	json_object *v;

	set_str(&r->section, jstr(m, "section"));
	set_str(&r->setup, jstr(m, "setup"));
	set_str(&r->kernel, jstr(m, "kernel_variant"));
	set_str(&r->status, jstr(m, "status"));
	if (!r->rep && json_object_object_get_ex(m, "repetition", &v))
		r->rep = json_object_get_int(v);
}

/* "<section>-r<N>" */
static void split_run_name(const char *name, char **section, int *rep)
{
	const char *p = strrchr(name, '-');
	char *end;
	long n;

	if (p && p[1] == 'r') {
		n = strtol(p + 2, &end, 10);
		if (end != p + 2 && !*end && n > 0) {
			*section = xasprintf("%.*s", (int)(p - name), name);
			*rep = (int)n;
			return;
		}
	}
	*section = xstrdup(name);
	*rep = 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_dir(const char *path, struct strlist *out)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			sl_add(out, de->d_name);
	closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
}

static char *run_path(const struct dataset *ds, const struct ds_run *r, const char *rel)
{
	return xasprintf("%s/runs/%s/%s", ds->dir, r->name, rel);
}

static size_t section_index(const struct dataset *ds, const char *s)
{
	for (size_t i = 0; i < ds->sections.n; i++)
		if (!strcmp(ds->sections.v[i], s))
			return i;
	return ds->sections.n;
}

static const struct dataset *sort_ds;

static int cmp_run(const void *a, const void *b)
{
	const struct ds_run *x = a, *y = b;
	size_t sx = section_index(sort_ds, x->section), sy = section_index(sort_ds, y->section);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void load_runs(struct dataset *ds)
{
	char *path = path_join(ds->dir, "metadata.json");
	json_object *top = json_object_from_file(path), *runs;
	struct strlist dirs = { 0 };
	char *runs_dir;

	free(path);
	set_str(&ds->run_id, jstr(top, "run_id"));
	if (top && json_object_object_get_ex(top, "runs", &runs) &&
	    json_object_is_type(runs, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(runs); i++) {
			json_object *m = json_object_array_get_idx(runs, i);
			const char *name = jstr(m, "run");
			char *gen = NULL;
			struct ds_run *r;

			if (!name) {
				json_object *v;
				int rep = 1;

				if (!jstr(m, "section"))
					continue;
				if (json_object_object_get_ex(m, "repetition", &v))
					rep = json_object_get_int(v);
				name = gen = xasprintf("%s-r%d", jstr(m, "section"), rep);
			}
			r = find_run(ds, name) ? find_run(ds, name) : add_run(ds, name);
			r->in_metadata = true;
			run_from_json(r, m);
			free(gen);
		}
	}
	json_object_put(top);

	runs_dir = path_join(ds->dir, "runs");
	list_dir(runs_dir, &dirs);
	for (size_t i = 0; i < dirs.n; i++) {
		char *p = path_join(runs_dir, dirs.v[i]);

		if (is_dir(p) && !find_run(ds, dirs.v[i]))
			add_run(ds, dirs.v[i]);
		free(p);
	}
	sl_free(&dirs);
	free(runs_dir);

	for (size_t i = 0; i < ds->nruns; i++) {
		struct ds_run *r = &ds->runs[i];
		char *p = run_path(ds, r, "metadata.json");
		json_object *m = json_object_from_file(p);
		char *st, *sec;
		int rep;

		free(p);
		if (m)
			run_from_json(r, m);
		json_object_put(m);
		p = run_path(ds, r, "status");
		st = read_file(p, NULL);
		free(p);
		if (st) {
			rtrim(st);
			if (!r->status && st[0])
				r->status = xstrdup(st);
			free(st);
		}
		split_run_name(r->name, &sec, &rep);
		if (!r->section)
			r->section = sec;
		else
			free(sec);
		if (!r->rep)
			r->rep = rep;
		set_str(&r->setup, "?");
		set_str(&r->kernel, "?");
		if (!r->status) {
			r->status = xstrdup("unknown");
			problem(r, "status", "no status (neither metadata.json nor status file)");
		}
		p = path_join(ds->dir, "runs");
		{
			char *rp = path_join(p, r->name);

			if (!is_dir(rp))
				problem(r, "", "run directory missing");
			free(rp);
		}
		free(p);
		if (!sl_has(&ds->sections, r->section))
			sl_add(&ds->sections, r->section);
	}
	sort_ds = ds;
	if (ds->nruns)
		qsort(ds->runs, ds->nruns, sizeof(*ds->runs), cmp_run);
	sort_ds = NULL;
}

/* ---- trace.dat ----------------------------------------------------------- */

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
};

static const char *const kev_names[] = { "start", "retry", "finish" };

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

static long long field_num(struct tep_event *ev, struct tep_record *rec, const char *name)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v;

	if (!f || tep_read_number_field(f, rec->data, &v))
		return DS_NONE;
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		if (f->size == 4)
			return (int)v;
		if (f->size == 2)
			return (short)v;
	}
	return (long long)v;
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

static int trace_event(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *arg)
{
	struct trace_ctx *c = arg;
	struct tep_event *ev = tep_find_event_by_record(c->tep, rec);
	char name[64];

	(void)h;
	(void)cpu;
	if (!ev || (ev != c->start && ev != c->finish && ev != c->retry))
		return 0;
	field_str(ev, rec, "name", name, sizeof(name));
	if (ev == c->start)
		trace_sink(c, DS_KEV_START, tep_data_pid(c->tep, rec), name, rec->ts,
			   field_num(ev, rec, "count"));
	else if (ev == c->retry)
		trace_sink(c, DS_KEV_RETRY, tep_data_pid(c->tep, rec), name, rec->ts, 1);
	else
		trace_sink(c, DS_KEV_FINISH, tep_data_pid(c->tep, rec), name, rec->ts,
			   field_num(ev, rec, "errorno"));
	return 0;
}

/*
 * Reads the cma_alloc_* events of trace.dat. Returns -1 (and a problem)
 * when the file cannot be read at all.
 */
/* The cma_alloc_* events of a trace.dat into c; NULL, or what is wrong. */
static const char *iterate_trace(const char *path, struct trace_ctx *c)
{
	struct tracecmd_input *h;
	const char *err = NULL;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h)
		return "cannot be read (truncated or not a trace-cmd file)";
	c->tep = tracecmd_get_tep(h);
	c->start = tep_find_event_by_name(c->tep, "cma", "cma_alloc_start");
	c->finish = tep_find_event_by_name(c->tep, "cma", "cma_alloc_finish");
	c->retry = tep_find_event_by_name(c->tep, "cma", "cma_alloc_busy_retry");
	if (!c->start || !c->finish)
		err = "has no cma:cma_alloc_start/cma_alloc_finish events";
	else if (tracecmd_iterate_events(h, NULL, 0, trace_event, c) < 0)
		err = "error while reading events (truncated?)";
	c->tep = NULL;
	tracecmd_close(h);
	return err;
}

/* trace-cma.csv rows (see dataset_export_trace) into c; false if unreadable. */
static bool read_trace_csv(struct ds_run *r, const char *path, struct trace_ctx *c)
{
	char *text = read_file(path, NULL), *save = NULL;
	size_t lineno = 1;

	if (!text)
		return false;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save), lineno++) {
		unsigned long long ts;
		int pid, used = 0;
		char kind[16], name[64];
		long long value;
		size_t t;

		if (lineno == 1)
			continue;
		if (sscanf(l, "%llu,%d,%15[^,],%63[^,],%lld%n", &ts, &pid, kind, name, &value,
			   &used) != 5 || l[used]) {
			problem(r, "trace-cma.csv", "line %zu: not ts_ns,pid,event,name,value", lineno);
			continue;
		}
		for (t = 0; t < ARRAY_SIZE(kev_names) && strcmp(kind, kev_names[t]); t++)
			;
		if (t == ARRAY_SIZE(kev_names))
			problem(r, "trace-cma.csv", "line %zu: unknown event '%s'", lineno, kind);
		else
			trace_sink(c, (enum ds_kev)t, pid, name, ts, value);
	}
	free(text);
	return true;
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
	if (!path_exists(dat))
		ret = 0;
	else if ((err = iterate_trace(dat, &c))) {
		sb_addf(errs, "%s: %s\n", dat, err);
		ret = -1;
	} else {
		flush_retries(&c);
		if (write_file(csv, rows.buf, rows.len)) {
			sb_addf(errs, "%s: %s\n", csv, strerror(errno));
			ret = -1;
		}
	}
	sb_free(&rows);
	free(dat);
	free(csv);
	return ret;
}

/*
 * Reads the cma_alloc_* events of trace.dat, or of trace-cma.csv, its text
 * copy, where results were kept without the binary trace. Returns -1 (and
 * a problem) when neither can be read.
 */
static int read_trace(struct ds_run *r, const char *path, struct trace_ctx *c)
{
	const char *err;
	struct stat st;

	memset(c, 0, sizeof(*c));
	if (stat(path, &st)) {
		char *csv = xasprintf("%.*s/trace-cma.csv", (int)(strrchr(path, '/') - path), path);
		bool ok = read_trace_csv(r, csv, c);

		free(csv);
		if (!ok) {
			problem(r, "trace.dat", "missing");
			return -1;
		}
	} else if ((err = iterate_trace(path, c))) {
		problem(r, "trace.dat", "%s, %lld bytes", err, (long long)st.st_size);
		if (!c->pairs.nk)
			return -1;
	}
	ds_kpairs_end(&c->pairs);
	if (c->pairs.orphan_finish)
		problem(r, "trace.dat", "%zu cma_alloc_finish without a cma_alloc_start",
			c->pairs.orphan_finish);
	if (c->pairs.orphan_retry)
		problem(r, "trace.dat", "%zu cma_alloc_busy_retry outside an allocation",
			c->pairs.orphan_retry);
	if (c->pairs.unpaired)
		problem(r, "trace.dat", "%zu cma_alloc_start without a cma_alloc_finish",
			c->pairs.unpaired);
	return 0;
}

/* ---- alloc.csv ----------------------------------------------------------- */

static struct ds_alloc *new_alloc(struct dataset *ds)
{
	if (ds->nallocs == ds->cap_allocs) {
		ds->cap_allocs = ds->cap_allocs ? 2 * ds->cap_allocs : 256;
		ds->allocs = xrealloc(ds->allocs, ds->cap_allocs * sizeof(*ds->allocs));
	}
	return &ds->allocs[ds->nallocs++];
}

enum { A_SEQ, A_BURST, A_START, A_PAGES, A_LAT, A_SUCCESS, A_ERRNO, A_FREE, A_NCOL };
static const char *const alloc_cols[A_NCOL] = {
	"seq", "burst", "start_ns", "pages", "latency_ns", "success", "errno", "free_latency_ns",
};

/* The area the guest allocated from: plan/steps has "area NAME". */
/*
 * Whether the run's plan allocates in the foreground (an "alloc" step,
 * traced) or, with background too, at all ("bg alloc", untraced). A run
 * without plan/steps is assumed to do both.
 */
static bool run_allocates(const struct dataset *ds, const struct ds_run *r, bool background)
{
	char *p = run_path(ds, r, "plan/steps");
	char *text = read_file(p, NULL);
	bool yes = !text || !strncmp(text, "alloc ", 6) || strstr(text, "\nalloc ") ||
		   (background && strstr(text, "\nbg alloc "));

	free(p);
	free(text);
	return yes;
}

static char *run_area(const struct dataset *ds, const struct ds_run *r)
{
	char *p = run_path(ds, r, "plan/steps");
	char *text = read_file(p, NULL), *area = NULL, *save = NULL;

	free(p);
	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		if (!strncmp(l, "area ", 5)) {
			area = xstrdup(rtrim(l + 5));
			break;
		}
	free(text);
	return area;
}

static void load_allocs(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	char *path = run_path(ds, r, "alloc.csv");
	char *text = read_file(path, NULL), *save = NULL, *line;
	int col[A_NCOL];
	size_t first = ds->nallocs, rows = 0, next = 0, skipped = 0, unmatched = 0;
	struct trace_ctx tc;
	struct ds_kpairs *kp = &tc.pairs;
	bool have_trace;
	char *area;

	free(path);
	if (!text) {
		if (ds_run_ok(r) && run_allocates(ds, r, true))
			problem(r, "alloc.csv", "missing");
		return;
	}
	line = strtok_r(text, "\n", &save);
	for (int i = 0; i < A_NCOL; i++)
		col[i] = -1;
	if (line) {
		char *hs = NULL;
		int n = 0;

		rtrim(line);
		for (char *t = strtok_r(line, ",", &hs); t; t = strtok_r(NULL, ",", &hs), n++)
			for (int i = 0; i < A_NCOL; i++)
				if (!strcmp(t, alloc_cols[i]))
					col[i] = n;
	}
	if (col[A_PAGES] < 0 || col[A_LAT] < 0 || col[A_SUCCESS] < 0) {
		problem(r, "alloc.csv", "no header with pages, latency_ns and success");
		free(text);
		return;
	}
	for (size_t lineno = 2; (line = strtok_r(NULL, "\n", &save)); lineno++) {
		long long v[16];
		int n = 0;
		char *p = line, *end;
		struct ds_alloc *a;

		rtrim(line);
		if (!*line)
			continue;
		for (;;) {
			long long x = strtoll(p, &end, 10);

			if (end == p || n == 16)
				break;
			v[n++] = x;
			if (*end != ',')
				break;
			p = end + 1;
		}
		if (*end || n <= col[A_PAGES] || n <= col[A_LAT] || n <= col[A_SUCCESS]) {
			problem(r, "alloc.csv", "line %zu: not a row of numbers", lineno);
			continue;
		}
		a = new_alloc(ds);
		memset(a, 0, sizeof(*a));
		a->run = ri;
		a->seq = col[A_SEQ] >= 0 && col[A_SEQ] < n ? v[col[A_SEQ]] : (long long)rows;
		a->burst = col[A_BURST] >= 0 && col[A_BURST] < n ? v[col[A_BURST]] : DS_NONE;
		a->start_ns = col[A_START] >= 0 && col[A_START] < n ? v[col[A_START]] : DS_NONE;
		a->pages = v[col[A_PAGES]];
		a->user_ns = v[col[A_LAT]];
		a->success = v[col[A_SUCCESS]] != 0;
		a->err = col[A_ERRNO] >= 0 && col[A_ERRNO] < n ? (int)v[col[A_ERRNO]] : 0;
		a->free_ns = col[A_FREE] >= 0 && col[A_FREE] < n ? v[col[A_FREE]] : DS_NONE;
		a->kernel_ns = a->retries = a->kerrno = DS_NONE;
		rows++;
	}
	free(text);
	if (!rows) {
		problem(r, "alloc.csv", "no allocations");
		return;
	}

	/* Kernel side: the i-th user request is the next traced allocation of its size. */
	/* Allocations beside a foreground job ("bg alloc") are not traced. */
	path = run_path(ds, r, "trace.dat");
	if (run_allocates(ds, r, false) || path_exists(path))
		have_trace = read_trace(r, path, &tc) == 0;
	else {
		memset(&tc, 0, sizeof(tc));
		have_trace = false;
	}
	free(path);
	r->has_trace = have_trace;
	area = run_area(ds, r);
	for (size_t i = first; i < ds->nallocs; i++) {
		struct ds_alloc *a = &ds->allocs[i];
		size_t k;

		if (!have_trace) {
			ADD_FLAG(a, "no-trace");
			continue;
		}
		for (k = next; k < kp->nk; k++)
			if (kp->k[k].count == a->pages && (!area || !strcmp(kp->k[k].name, area)))
				break;
		if (k == kp->nk) {
			ADD_FLAG(a, "unmatched");
			unmatched++;
			continue;
		}
		skipped += k - next;
		next = k + 1;
		a->retries = kp->k[k].retries;
		if (kp->k[k].unpaired || !kp->k[k].finished) {
			ADD_FLAG(a, "unpaired");
			continue;
		}
		a->kernel_ns = (long long)(kp->k[k].ts_end - kp->k[k].ts_start);
		a->kerrno = kp->k[k].errorno;
	}
	skipped += kp->nk > next ? kp->nk - next : 0;
	if (unmatched)
		problem(r, "trace.dat", "%zu of %zu allocations in alloc.csv have no cma_alloc_start "
			"(truncated trace?)", unmatched, rows);
	if (have_trace && skipped)
		problem(r, "trace.dat", "%zu traced allocations not in alloc.csv", skipped);
	free(area);
	ds_kpairs_free(kp);
}

/* ---- fio JSON ------------------------------------------------------------ */

static json_object *jget(json_object *o, const char *a, const char *b)
{
	json_object *x = NULL, *y = NULL;

	if (!o || !json_object_object_get_ex(o, a, &x))
		return NULL;
	if (!b)
		return x;
	return json_object_object_get_ex(x, b, &y) ? y : NULL;
}

static long long clat_pct(json_object *dir, const char *pct)
{
	json_object *p = jget(jget(dir, "clat_ns", "percentile"), pct, NULL);

	return p ? json_object_get_int64(p) : DS_NONE;
}

static void load_fio(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	char *dir = xasprintf("%s/runs/%s", ds->dir, r->name);
	struct strlist files = { 0 };
	size_t found = 0;

	list_dir(dir, &files);
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
		found++;
		path = path_join(dir, fn);
		text = read_file(path, &jlen);
		free(path);
		if (!text) {
			problem(r, fn, "cannot read: %s", strerror(errno));
			continue;
		}
		/* fio may print warnings before its JSON: start at the first '{' */
		start = strchr(text, '{');
		tok = json_tokener_new();
		root = start ? json_tokener_parse_ex(tok, start, (int)(jlen - (start - text))) : NULL;
		json_tokener_free(tok);
		free(text);
		jobs = jget(root, "jobs", NULL);
		if (!jobs || !json_object_is_type(jobs, json_type_array) ||
		    !json_object_array_length(jobs)) {
			problem(r, fn, root ? "no jobs" : "not fio JSON (empty or truncated)");
			json_object_put(root);
			continue;
		}
		for (size_t j = 0; j < json_object_array_length(jobs); j++) {
			json_object *job = json_object_array_get_idx(jobs, j);
			json_object *rd = jget(job, "read", NULL), *wr = jget(job, "write", NULL), *v;
			struct ds_fio *x;
			const char *name = jstr(job, "jobname");

			if (ds->nfios == ds->cap_fios) {
				ds->cap_fios = ds->cap_fios ? 2 * ds->cap_fios : 16;
				ds->fios = xrealloc(ds->fios, ds->cap_fios * sizeof(*ds->fios));
			}
			x = &ds->fios[ds->nfios++];
			memset(x, 0, sizeof(*x));
			x->run = ri;
			x->file = xstrdup(fn);
			x->job = xasprintf("%s", name ? name : "?");
			x->read_iops = (v = jget(rd, "iops", NULL)) ? json_object_get_double(v) : 0;
			x->read_bw = (v = jget(rd, "bw_bytes", NULL)) ? json_object_get_double(v) : 0;
			x->write_iops = (v = jget(wr, "iops", NULL)) ? json_object_get_double(v) : 0;
			x->write_bw = (v = jget(wr, "bw_bytes", NULL)) ? json_object_get_double(v) : 0;
			x->read_p50 = clat_pct(rd, "50.000000");
			x->read_p99 = clat_pct(rd, "99.000000");
			x->write_p50 = clat_pct(wr, "50.000000");
			x->write_p99 = clat_pct(wr, "99.000000");
			if ((v = jget(job, "job_runtime", NULL)))
				x->runtime_ms = json_object_get_int64(v);
			else {
				long long a = (v = jget(rd, "runtime", NULL)) ? json_object_get_int64(v) : 0;
				long long b = (v = jget(wr, "runtime", NULL)) ? json_object_get_int64(v) : 0;

				x->runtime_ms = a > b ? a : b;
			}
			if ((v = jget(job, "error", NULL)) && json_object_get_int(v)) {
				ADD_FLAG(x, "fio-error");
				problem(r, fn, "job %s: error %d", x->job, json_object_get_int(v));
			}
			if (!rd && !wr)
				ADD_FLAG(x, "no-io");
		}
		json_object_put(root);
	}
	(void)found;
	sl_free(&files);
	free(dir);
}

/* ---- counters ------------------------------------------------------------ */

struct kv {
	char *name;
	long long v;
};

struct kvlist {
	struct kv *v;
	size_t n, cap;
};

static void kv_add(struct kvlist *l, const char *name, long long v)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n].name = xstrdup(name);
	l->v[l->n++].v = v;
}

static void kv_free(struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static bool parse_ll(const char *s, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	return end != s && !errno && (!*end || *end == ' ' || *end == '\t');
}

/*
 * A counter file is either one number (named after the file) or lines of
 * "key value" / "key: value [kB]" (vmstat, meminfo). Lines that are not
 * numbers are ignored. prefix names keys of a multi-line file in a
 * directory source: "file.key".
 */
static int read_counters(const char *path, const char *fname, const char *prefix, struct kvlist *out)
{
	char *text = read_file(path, NULL), *save = NULL;
	long long v;

	if (!text)
		return -1;
	rtrim(text);
	if (parse_ll(text, &v) && !strchr(text, '\n')) {
		kv_add(out, fname, v);
		free(text);
		return 0;
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *key = l, *val = l + strcspn(l, " \t");
		char *name;

		if (!*val)
			continue;
		*val++ = '\0';
		val += strspn(val, " \t");
		if (key[0] && key[strlen(key) - 1] == ':')
			key[strlen(key) - 1] = '\0';
		if (!key[0] || !parse_ll(val, &v))
			continue;
		name = prefix ? xasprintf("%s.%s", prefix, key) : xstrdup(key);
		kv_add(out, name, v);
		free(name);
	}
	free(text);
	return 0;
}

static void add_counter(struct dataset *ds, size_t ri, const char *source, const char *name,
			long long before, long long after, const char *flag)
{
	struct ds_counter *c;

	if (ds->ncounters == ds->cap_counters) {
		ds->cap_counters = ds->cap_counters ? 2 * ds->cap_counters : 512;
		ds->counters = xrealloc(ds->counters, ds->cap_counters * sizeof(*ds->counters));
	}
	c = &ds->counters[ds->ncounters++];
	memset(c, 0, sizeof(*c));
	c->run = ri;
	c->source = xstrdup(source);
	c->name = xstrdup(name);
	c->before = before;
	c->after = after;
	if (flag)
		ADD_FLAG(c, flag);
}

/* One file of one source, read from both snapshots. */
static void load_counter_file(struct dataset *ds, size_t ri, const char *source,
			      const char *rel, const char *fname, bool multi)
{
	struct ds_run *r = &ds->runs[ri];
	struct kvlist kv[2] = { { 0 }, { 0 } };
	static const char *const tag[2] = { "before", "after" };
	bool ok[2];

	for (int s = 0; s < 2; s++) {
		char *p = xasprintf("%s/runs/%s/snapshots/%s/%s", ds->dir, r->name, tag[s], rel);

		ok[s] = read_counters(p, fname, multi ? fname : NULL, &kv[s]) == 0;
		free(p);
		if (!ok[s]) {
			char *f = xasprintf("snapshots/%s/%s", tag[s], rel);

			problem(r, f, "missing");
			free(f);
		}
	}
	for (size_t i = 0; i < kv[0].n; i++) {
		long long after = DS_NONE;
		bool found = false;

		for (size_t j = 0; j < kv[1].n; j++)
			if (!strcmp(kv[1].v[j].name, kv[0].v[i].name)) {
				after = kv[1].v[j].v;
				found = true;
				break;
			}
		add_counter(ds, ri, source, kv[0].v[i].name, kv[0].v[i].v, after,
			    found ? NULL : "missing-after");
	}
	for (size_t j = 0; j < kv[1].n; j++) {
		bool found = false;

		for (size_t i = 0; i < kv[0].n && !found; i++)
			found = !strcmp(kv[1].v[j].name, kv[0].v[i].name);
		if (!found)
			add_counter(ds, ri, source, kv[1].v[j].name, DS_NONE, kv[1].v[j].v,
				    "missing-before");
	}
	kv_free(&kv[0]);
	kv_free(&kv[1]);
}

/* The union of the file names under snapshots/{before,after}/rel. */
static void list_both(const struct dataset *ds, const struct ds_run *r, const char *rel,
		      struct strlist *out)
{
	struct strlist a = { 0 }, b = { 0 };

	for (int s = 0; s < 2; s++) {
		char *p = xasprintf("%s/runs/%s/snapshots/%s/%s", ds->dir, r->name,
				    s ? "after" : "before", rel);

		list_dir(p, s ? &b : &a);
		free(p);
	}
	for (size_t i = 0; i < a.n; i++)
		sl_add(out, a.v[i]);
	for (size_t i = 0; i < b.n; i++)
		if (!sl_has(out, b.v[i]))
			sl_add(out, b.v[i]);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
	sl_free(&a);
	sl_free(&b);
}

static void load_counters(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	char *snap = run_path(ds, r, "snapshots");
	struct strlist areas = { 0 };

	if (!is_dir(snap)) {
		if (ds_run_ok(r))
			problem(r, "snapshots", "missing");
		free(snap);
		return;
	}
	free(snap);
	load_counter_file(ds, ri, "vmstat", "vmstat", "vmstat", false);
	load_counter_file(ds, ri, "meminfo", "meminfo", "meminfo", false);
	/* per-area directories, and cleancache/ */
	static const char *const dirs[] = { "sys-cma", "debug-cma" };
	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
		list_both(ds, r, dirs[d], &areas);
		for (size_t a = 0; a < areas.n; a++) {
			struct strlist files = { 0 };
			char *rel = xasprintf("%s/%s", dirs[d], areas.v[a]);

			list_both(ds, r, rel, &files);
			for (size_t f = 0; f < files.n; f++) {
				char *frel = xasprintf("%s/%s", rel, files.v[f]);

				load_counter_file(ds, ri, rel, frel, files.v[f], true);
				free(frel);
			}
			sl_free(&files);
			free(rel);
		}
		sl_free(&areas);
	}
	{
		struct strlist files = { 0 };

		list_both(ds, r, "cleancache", &files);
		for (size_t f = 0; f < files.n; f++) {
			char *frel = xasprintf("cleancache/%s", files.v[f]);

			load_counter_file(ds, ri, "cleancache", frel, files.v[f], true);
			free(frel);
		}
		sl_free(&files);
	}
}

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
	char *path = run_path(ds, r, fname), *text = read_file(path, NULL), *save = NULL;
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
			add_counter(ds, ri, source, name, 0, DS_NONE, "not-counted");
		else
			add_counter(ds, ri, source, name, 0,
				    (long long)(!strcmp(f[1], "msec") ? v * 1000.0 + 0.5 : v + 0.5),
				    NULL);
		rows++;
		free(name);
	}
	if (!rows)
		problem(r, fname, text ? "no counts" : "unreadable");
	free(text);
	free(source);
}

static void load_perf(struct dataset *ds, size_t ri)
{
	char *dir = run_path(ds, &ds->runs[ri], "");
	struct strlist files = { 0 };

	list_dir(dir, &files);
	for (size_t i = 0; i < files.n; i++) {
		size_t n = strlen(files.v[i]);

		if (n > 5 && !strcmp(files.v[i] + n - 5, ".perf"))
			load_perf_file(ds, ri, files.v[i]);
	}
	sl_free(&files);
	free(dir);
}

bool ds_counter_delta(const struct dataset *ds, size_t run, const char *source,
		      const char *name, long long *delta, long long *after)
{
	for (size_t i = 0; i < ds->ncounters; i++) {
		const struct ds_counter *c = &ds->counters[i];

		if (c->run != run || strcmp(c->source, source) || strcmp(c->name, name))
			continue;
		if (c->before == DS_NONE || c->after == DS_NONE)
			return false;
		if (delta)
			*delta = c->after - c->before;
		if (after)
			*after = c->after;
		return true;
	}
	return false;
}

/* ---- load / free --------------------------------------------------------- */

int dataset_load(struct dataset *ds, const char *dir, struct strbuf *errs)
{
	memset(ds, 0, sizeof(*ds));
	ds->dir = xstrdup(dir);
	load_runs(ds);
	if (!ds->nruns) {
		sb_addf(errs, "%s: no runs (neither metadata.json nor runs/)\n", dir);
		return -1;
	}
	if (!ds->run_id) {
		const char *slash;
		char *d = xstrdup(dir);

		rtrim(d);
		while (strlen(d) > 1 && d[strlen(d) - 1] == '/')
			d[strlen(d) - 1] = '\0';
		slash = strrchr(d, '/');
		ds->run_id = xstrdup(slash ? slash + 1 : d);
		free(d);
	}
	for (size_t i = 0; i < ds->nruns; i++) {
		struct ds_run *r = &ds->runs[i];

		if (!r->in_metadata)
			problem(r, "", "not listed in metadata.json");
		if (!ds_run_ok(r))
			problem(r, "status", "run ended '%s'", r->status);
		load_allocs(ds, i);
		load_fio(ds, i);
		load_counters(ds, i);
		load_perf(ds, i);
	}
	return 0;
}

void dataset_free(struct dataset *ds)
{
	for (size_t i = 0; i < ds->nruns; i++) {
		struct ds_run *r = &ds->runs[i];

		free(r->name);
		free(r->section);
		free(r->setup);
		free(r->kernel);
		free(r->status);
		sl_free(&r->problems);
	}
	for (size_t i = 0; i < ds->nfios; i++) {
		free(ds->fios[i].file);
		free(ds->fios[i].job);
	}
	for (size_t i = 0; i < ds->ncounters; i++) {
		free(ds->counters[i].source);
		free(ds->counters[i].name);
	}
	free(ds->runs);
	free(ds->allocs);
	free(ds->fios);
	free(ds->counters);
	free(ds->dir);
	free(ds->run_id);
	sl_free(&ds->sections);
	memset(ds, 0, sizeof(*ds));
}

/* ---- CSV ----------------------------------------------------------------- */

/* Our names never need quoting, but fio job names might. */
static void csv_str(struct strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		sb_add(sb, s);
		return;
	}
	sb_add(sb, "\"");
	for (; *s; s++)
		sb_addf(sb, "%s%c", *s == '"' ? "\"" : "", *s);
	sb_add(sb, "\"");
}

static void csv_ll(struct strbuf *sb, long long v)
{
	if (v == DS_NONE)
		sb_add(sb, ",");
	else
		sb_addf(sb, ",%lld", v);
}

static void csv_run(struct strbuf *sb, const struct ds_run *r)
{
	csv_str(sb, r->name);
	sb_add(sb, ",");
	csv_str(sb, r->section);
	sb_addf(sb, ",%d,", r->rep);
	csv_str(sb, r->setup);
	sb_add(sb, ",");
	csv_str(sb, r->kernel);
	sb_add(sb, ",");
	csv_str(sb, r->status);
}

char *dataset_alloc_csv(const struct dataset *ds)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,seq,burst,start_ns,pages,latency_ns,"
	       "kernel_latency_ns,busy_retries,errorno,success,errno,free_latency_ns,flags\n");
	for (size_t i = 0; i < ds->nallocs; i++) {
		const struct ds_alloc *a = &ds->allocs[i];

		csv_run(&sb, &ds->runs[a->run]);
		csv_ll(&sb, a->seq);
		csv_ll(&sb, a->burst);
		csv_ll(&sb, a->start_ns);
		csv_ll(&sb, a->pages);
		csv_ll(&sb, a->user_ns);
		csv_ll(&sb, a->kernel_ns);
		csv_ll(&sb, a->retries);
		csv_ll(&sb, a->kerrno);
		sb_addf(&sb, ",%d,%d", a->success, a->err);
		csv_ll(&sb, a->free_ns);
		sb_addf(&sb, ",%s\n", a->flags);
	}
	return sb_detach(&sb);
}

char *dataset_fio_csv(const struct dataset *ds)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,file,job,read_iops,read_bw_bytes,"
	       "read_clat_p50_ns,read_clat_p99_ns,write_iops,write_bw_bytes,write_clat_p50_ns,"
	       "write_clat_p99_ns,runtime_ms,flags\n");
	for (size_t i = 0; i < ds->nfios; i++) {
		const struct ds_fio *f = &ds->fios[i];

		csv_run(&sb, &ds->runs[f->run]);
		sb_add(&sb, ",");
		csv_str(&sb, f->file);
		sb_add(&sb, ",");
		csv_str(&sb, f->job);
		sb_addf(&sb, ",%.3f,%.0f", f->read_iops, f->read_bw);
		csv_ll(&sb, f->read_p50);
		csv_ll(&sb, f->read_p99);
		sb_addf(&sb, ",%.3f,%.0f", f->write_iops, f->write_bw);
		csv_ll(&sb, f->write_p50);
		csv_ll(&sb, f->write_p99);
		csv_ll(&sb, f->runtime_ms);
		sb_addf(&sb, ",%s\n", f->flags);
	}
	return sb_detach(&sb);
}

char *dataset_counters_csv(const struct dataset *ds)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,source,name,before,after,delta,flags\n");
	for (size_t i = 0; i < ds->ncounters; i++) {
		const struct ds_counter *c = &ds->counters[i];

		csv_run(&sb, &ds->runs[c->run]);
		sb_add(&sb, ",");
		csv_str(&sb, c->source);
		sb_add(&sb, ",");
		csv_str(&sb, c->name);
		csv_ll(&sb, c->before);
		csv_ll(&sb, c->after);
		csv_ll(&sb, c->before == DS_NONE || c->after == DS_NONE ? DS_NONE : c->after - c->before);
		sb_addf(&sb, ",%s\n", c->flags);
	}
	return sb_detach(&sb);
}

/*
 * The guest sampler's runs/<run>/samples.csv ("uptime,source,name,value",
 * one row per counter per second) gathered into one table with time from
 * the run's first sample; NULL if no run has samples.
 */
/* run,section,rep,time_s, of a samples.csv row */
static void sample_key(struct strbuf *sb, const struct ds_run *r, double t)
{
	csv_str(sb, r->name);
	sb_add(sb, ",");
	csv_str(sb, r->section);
	sb_addf(sb, ",%d,%.2f,", r->rep, t);
}

char *dataset_samples_csv(const struct dataset *ds)
{
	struct strbuf sb;
	bool any = false;

	sb_init(&sb);
	sb_add(&sb, "run,section,rep,time_s,name,value\n");
	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];
		char *p = run_path(ds, r, "samples.csv");
		char *text = read_file(p, NULL), *save = NULL;
		double t0 = -1, t_hits = -1;
		long long hits = 0, prev_hits = -1, prev_misses = -1;

		free(p);
		if (!text)
			continue;
		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char src[64], name[64];
			double t;
			long long v;

			if (sscanf(l, "%lf,%63[^,],%63[^,],%lld", &t, src, name, &v) != 4)
				continue; /* the header, or a line cut by the sampler's stop */
			if (t0 < 0)
				t0 = t;
			sample_key(&sb, r, t - t0);
			sb_addf(&sb, "%s.%s,%lld\n", src, name, v);
			any = true;
			if (strcmp(src, "cleancache"))
				continue;
			if (!strcmp(name, "hits")) {
				hits = v;
				t_hits = t;
			} else if (!strcmp(name, "misses") && t_hits == t) {
				/* Derived: the hit rate of the lookups since the previous sample. */
				long long dh = hits - prev_hits, dm = v - prev_misses;

				if (prev_hits >= 0 && dh >= 0 && dm >= 0 && dh + dm > 0) {
					sample_key(&sb, r, t - t0);
					sb_addf(&sb, "cleancache.hit_rate_pct,%.2f\n",
						100.0 * dh / (dh + dm));
				}
				prev_hits = hits;
				prev_misses = v;
			}
		}
		free(text);
	}
	if (!any) {
		sb_free(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

static int put(const char *dir, const char *name, char *text)
{
	char *p = path_join(dir, name);
	int ret = write_file(p, text, strlen(text));

	if (ret)
		err_msg("%s: %s", p, strerror(errno));
	free(p);
	free(text);
	return ret;
}

int dataset_write_csv(const struct dataset *ds, const char *outdir)
{
	struct strbuf probs;
	int ret = 0;

	if (mkdir_p(outdir)) {
		err_msg("%s: %s", outdir, strerror(errno));
		return -1;
	}
	sb_init(&probs);
	for (size_t i = 0; i < ds->nruns; i++)
		for (size_t k = 0; k < ds->runs[i].problems.n; k++)
			sb_addf(&probs, "%s\n", ds->runs[i].problems.v[k]);
	ret |= put(outdir, "alloc.csv", dataset_alloc_csv(ds));
	ret |= put(outdir, "fio.csv", dataset_fio_csv(ds));
	ret |= put(outdir, "counters.csv", dataset_counters_csv(ds));
	ret |= put(outdir, "problems.txt", sb_detach(&probs));
	{
		char *samples = dataset_samples_csv(ds);

		if (samples)
			ret |= put(outdir, "samples.csv", samples);
	}
	return ret;
}
