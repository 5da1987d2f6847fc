/*
 * docs/reproducing.md (see reproduce.h). Every number of ours is a
 * statistic per repetition (one run, one fresh VM) summarised over the
 * repetitions: the median, the min-max spread and n. Only runs whose
 * status is "ok" and only successful allocations count, as in report.c.
 * The published numbers come from docs/published.csv; none is written here.
 */
#include "reproduce.h"
#include "stats.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DASH "\xe2\x80\x93"     /* en dash, for ranges */

/* idx[c]: the field of a CSV header named cols[c], or -1; true if all are there. */
static bool header_cols(const struct strlist *f, const char *const *cols, size_t n, int *idx)
{
	bool all = true;

	for (size_t c = 0; c < n; c++) {
		idx[c] = -1;
		for (size_t k = 0; k < f->n; k++)
			if (!strcmp(f->v[k], cols[c]))
				idx[c] = (int)k;
		all &= idx[c] >= 0;
	}
	return all;
}

/* The published figures, as named in the figure column of published.csv. */
#define FIG_LAT "rfc-v2-latency"
#define FIG_BG "rfc-v2-background"
#define FIG_PAPER "gcma-paper"
#define FIG_LSF "lsfmm2025"

/* ---- published.csv ------------------------------------------------------- */

size_t repro_csv_split(const char *line, struct strlist *out)
{
	const char *p = line;
	size_t n = 0;

	for (;;) {
		struct strbuf f;

		sb_init(&f);
		if (*p == '"') {
			for (p++; *p; p++) {
				if (*p == '"') {
					if (p[1] == '"') {
						sb_add(&f, "\"");
						p++;
						continue;
					}
					p++;
					break;
				}
				sb_addf(&f, "%c", *p);
			}
			p += strcspn(p, ",");
		} else {
			size_t len = strcspn(p, ",");

			sb_addf(&f, "%.*s", (int)len, p);
			p += len;
		}
		sl_add(out, f.buf);
		sb_free(&f);
		n++;
		if (*p != ',')
			break;
		p++;
	}
	return n;
}

static const char *const pub_cols[] = { "figure", "metric", "setup", "size", "value", "unit",
					"source" };

int published_load(struct published *p, const char *path, const char *label,
		   struct strbuf *errs)
{
	char *text = read_file(path, NULL), *line, *next;
	int idx[ARRAY_SIZE(pub_cols)];
	size_t lineno = 0;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	p->label = xstrdup(label);
	if (!text) {
		sb_addf(errs, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(pub_cols); i++)
		idx[i] = -1;
	for (line = text; line && !ret; line = next) {
		struct strlist f = { 0 };
		struct pub_row *r;
		char *end;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		rtrim(line);
		if (!*line || *line == '#')
			continue;
		repro_csv_split(line, &f);
		if (idx[0] < 0) {
			for (size_t i = 0; i < ARRAY_SIZE(pub_cols); i++)
				for (size_t k = 0; k < f.n; k++)
					if (!strcmp(f.v[k], pub_cols[i]))
						idx[i] = (int)k;
			for (size_t i = 0; i < ARRAY_SIZE(pub_cols); i++)
				if (idx[i] < 0) {
					sb_addf(errs, "%s:%zu: no column '%s' in the header\n", path,
						lineno, pub_cols[i]);
					ret = -1;
				}
			sl_free(&f);
			continue;
		}
		for (size_t i = 0; i < ARRAY_SIZE(pub_cols); i++)
			if ((size_t)idx[i] >= f.n) {
				sb_addf(errs, "%s:%zu: %zu fields, expected %zu\n", path, lineno, f.n,
					ARRAY_SIZE(pub_cols));
				ret = -1;
				break;
			}
		if (ret) {
			sl_free(&f);
			break;
		}
		p->rows = xrealloc(p->rows, (p->n + 1) * sizeof(*p->rows));
		r = &p->rows[p->n++];
		r->figure = xstrdup(f.v[idx[0]]);
		r->metric = xstrdup(f.v[idx[1]]);
		r->setup = xstrdup(f.v[idx[2]]);
		r->size = xstrdup(f.v[idx[3]]);
		r->value = xstrdup(f.v[idx[4]]);
		r->unit = xstrdup(f.v[idx[5]]);
		r->source = xstrdup(f.v[idx[6]]);
		errno = 0;
		r->v = strtod(r->value, &end);
		if (end == r->value || *end || errno) {
			sb_addf(errs, "%s:%zu: value '%s' is not a number\n", path, lineno, r->value);
			ret = -1;
		}
		sl_free(&f);
	}
	if (!ret && idx[0] < 0) {
		sb_addf(errs, "%s: empty\n", path);
		ret = -1;
	}
	free(text);
	return ret;
}

void published_free(struct published *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct pub_row *r = &p->rows[i];

		free(r->figure);
		free(r->metric);
		free(r->setup);
		free(r->size);
		free(r->value);
		free(r->unit);
		free(r->source);
	}
	free(p->rows);
	free(p->label);
	memset(p, 0, sizeof(*p));
}

const struct pub_row *published_find(const struct published *p, const char *figure,
				     const char *metric, const char *setup, const char *size)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct pub_row *r = &p->rows[i];

		if (!strcmp(r->figure, figure) && !strcmp(r->metric, metric) &&
		    (!setup || !strcmp(r->setup, setup)) && (!size || !strcmp(r->size, size)))
			return r;
	}
	return NULL;
}

static double pub_value(const struct published *p, const char *figure, const char *metric,
			const char *setup, const char *size)
{
	const struct pub_row *r = published_find(p, figure, metric, setup, size);

	return r ? r->v : NAN;
}

/* ---- results directories -------------------------------------------------- */

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static long long jint(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return -1;
	return json_object_get_int64(v);
}

static const char *first_str(const char *a, const char *b, const char *c)
{
	return a ? a : b ? b : c;
}

static long long first_int(long long a, long long b)
{
	return a >= 0 ? a : b;
}

/* The scenario file a results directory keeps ("smoke.scn"), if it holds exactly one. */
static char *scn_name(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *name = NULL;
	int n = 0;

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] != '.' && len > 4 && !strcmp(de->d_name + len - 4, ".scn")) {
			free(name);
			name = xasprintf("%.*s", (int)(len - 4), de->d_name);
			n++;
		}
	}
	closedir(d);
	if (n != 1) {
		free(name);
		return NULL;
	}
	return name;
}

/* The entry of the top-level metadata's runs[] for a run. */
static json_object *top_entry(json_object *top, const struct ds_run *r)
{
	json_object *runs;

	if (!top || !json_object_object_get_ex(top, "runs", &runs) ||
	    !json_object_is_type(runs, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		json_object *m = json_object_array_get_idx(runs, i);
		const char *name = jstr(m, "run"), *sec = jstr(m, "section");

		if (name ? !strcmp(name, r->name)
			 : sec && !strcmp(sec, r->section) &&
				   first_int(jint(m, "repetition"), 1) == r->rep)
			return m;
	}
	return NULL;
}

int repro_set_load(struct repro_set *s, const char *dir, struct strbuf *errs)
{
	json_object *top;
	char *p, *scn;

	memset(s, 0, sizeof(*s));
	s->label = xstrdup(dir);
	while (strlen(s->label) > 1 && s->label[strlen(s->label) - 1] == '/')
		s->label[strlen(s->label) - 1] = '\0';
	if (dataset_load(&s->ds, dir, errs)) {
		dataset_free(&s->ds);
		return -1;
	}
	s->meta = xcalloc(s->ds.nruns, sizeof(*s->meta));
	p = path_join(dir, "metadata.json");
	top = json_object_from_file(p);
	free(p);
	scn = scn_name(dir);
	for (size_t i = 0; i < s->ds.nruns; i++) {
		const struct ds_run *r = &s->ds.runs[i];
		struct repro_meta *m = &s->meta[i];
		json_object *t = top_entry(top, r), *rm;

		p = xasprintf("%s/runs/%s/metadata.json", dir, r->name);
		rm = json_object_from_file(p);
		free(p);
		m->scenario = xstrdup(first_str(jstr(rm, "scenario"), jstr(t, "scenario"),
						first_str(jstr(top, "scenario"), scn, "?")));
		m->kernel_version = xstrdup(first_str(jstr(rm, "kernel_version"),
						      jstr(t, "kernel_version"), "?"));
		m->accel = xstrdup(first_str(jstr(rm, "accelerator"), jstr(t, "accelerator"),
					     first_str(jstr(top, "accelerator"), "?", NULL)));
		m->area_bytes = first_int(jint(rm, "area_bytes"), jint(t, "area_bytes"));
		m->memory_mib = first_int(jint(rm, "guest_memory_mib"), jint(t, "guest_memory_mib"));
		m->cpus = first_int(jint(rm, "guest_cpus"), jint(t, "guest_cpus"));
		json_object_put(rm);
	}
	free(scn);
	json_object_put(top);
	return 0;
}

void repro_set_free(struct repro_set *s)
{
	if (s->meta)
		for (size_t i = 0; i < s->ds.nruns; i++) {
			free(s->meta[i].scenario);
			free(s->meta[i].kernel_version);
			free(s->meta[i].accel);
		}
	free(s->meta);
	if (s->ds.dir)
		dataset_free(&s->ds);
	free(s->label);
	memset(s, 0, sizeof(*s));
}

/* ---- the runs of one scenario ---------------------------------------------- */

struct pick {
	const struct repro_set *set;
	size_t run;
};

struct picks {
	struct pick *v;
	size_t n;
	const char *scenario;
	const char *const *sections;    /* NULL-terminated */
};

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

static const struct ds_run *prun(const struct pick *k)
{
	return &k->set->ds.runs[k->run];
}

static void picks_select(struct picks *ps, const struct repro_set *sets, size_t nsets,
			 const char *scenario, const char *const *sections)
{
	memset(ps, 0, sizeof(*ps));
	ps->scenario = scenario;
	ps->sections = sections;
	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < sets[s].ds.nruns; i++) {
			if (strcmp(sets[s].meta[i].scenario, scenario) ||
			    !in_list(sections, sets[s].ds.runs[i].section))
				continue;
			ps->v = xrealloc(ps->v, (ps->n + 1) * sizeof(*ps->v));
			ps->v[ps->n++] = (struct pick){ &sets[s], i };
		}
}

/* Does any run (ok or not) of the section exist? */
static bool picks_has_section(const struct picks *ps, const char *section)
{
	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(prun(&ps->v[i])->section, section))
			return true;
	return false;
}

static bool pick_ok(const struct pick *k, const char *section)
{
	const struct ds_run *r = prun(k);

	return ds_run_ok(r) && (!section || !strcmp(r->section, section));
}

/*
 * Under a table: which directories, runs and files its rows came from.
 * files says which files of each run and which columns.
 */
static void sources(struct strbuf *md, const struct picks *ps, const char *files,
		    const struct strlist *notes)
{
	sb_addf(md, "Sources (scenario `%s`): %s, of these runs:\n\n", ps->scenario, files);
	for (size_t i = 0; i < ps->n; i++) {
		const struct repro_set *set = ps->v[i].set;
		size_t nprob = 0, nok = 0, nbad = 0;

		if (i && ps->v[i - 1].set == set)
			continue;
		sb_addf(md, "- `%s/`:", set->label);
		for (size_t k = i; k < ps->n && ps->v[k].set == set; k++) {
			const struct ds_run *r = prun(&ps->v[k]);

			nprob += r->problems.n;
			if (ds_run_ok(r))
				sb_addf(md, "%s `%s`", nok++ ? "," : "", r->name);
		}
		if (!nok)
			sb_add(md, " no run ended ok");
		for (size_t k = i; k < ps->n && ps->v[k].set == set; k++) {
			const struct ds_run *r = prun(&ps->v[k]);

			if (!ds_run_ok(r))
				sb_addf(md, "%s `%s` (%s)", nbad++ ? "," : "; not counted:", r->name,
					r->status);
		}
		if (nprob)
			sb_addf(md, "; %zu problem%s noted (`cmabench report` lists them in data/problems.txt)",
				nprob, nprob == 1 ? "" : "s");
		sb_add(md, "\n");
	}
	for (size_t i = 0; notes && i < notes->n; i++)
		sb_addf(md, "- %s\n", notes->v[i]);
	sb_add(md, "\n");
}

static void no_results(struct strbuf *md, const char *scenario, const char *const *sections)
{
	sb_addf(md, "**No results**: the results given hold no run of scenario `%s` (sections", scenario);
	for (size_t i = 0; sections[i]; i++)
		sb_addf(md, "%s `%s`", i ? "," : "", sections[i]);
	sb_add(md, "); ours is empty below.\n\n");
}

/* "x86-64 guest under QEMU TCG (emulated CPU), Linux 6.12.118, 1 vCPU, ..." */
static void describe_env(struct strbuf *md, const struct picks *ps)
{
	struct strlist acc = { 0 }, ver = { 0 }, cpus = { 0 }, mem = { 0 }, area = { 0 };
	const struct strlist *all[] = { &acc, &ver, &cpus, &mem, &area };

	for (size_t i = 0; i < ps->n; i++) {
		const struct repro_meta *m = &ps->v[i].set->meta[ps->v[i].run];
		char *s;

		if (!pick_ok(&ps->v[i], NULL))
			continue;
		if (!sl_has(&acc, m->accel))
			sl_add(&acc, m->accel);
		if (!sl_has(&ver, m->kernel_version))
			sl_add(&ver, m->kernel_version);
#define ADD_UNIQ(list, cond, ...)                        \
		if (cond) {                              \
			s = xasprintf(__VA_ARGS__);      \
			if (!sl_has(&list, s))           \
				sl_add(&list, s);        \
			free(s);                         \
		}
		ADD_UNIQ(cpus, m->cpus > 0, "%lld", m->cpus);
		ADD_UNIQ(mem, m->memory_mib > 0, "%lld", m->memory_mib);
		ADD_UNIQ(area, m->area_bytes > 0, "%lld", m->area_bytes >> 20);
#undef ADD_UNIQ
	}
	sb_add(md, "an x86-64 guest under QEMU");
	for (size_t i = 0; i < acc.n; i++)
		sb_addf(md, "%s%s", i ? "/" : " ", acc.v[i]);
	if (acc.n == 1 && !strcmp(acc.v[0], "tcg"))
		sb_add(md, " (TCG: an emulated CPU)");
	else if (acc.n == 1 && !strcmp(acc.v[0], "kvm"))
		sb_add(md, " (KVM: a virtualised host CPU)");
	sb_add(md, ", Linux");
	for (size_t i = 0; i < ver.n; i++)
		sb_addf(md, "%s%s", i ? "/" : " ", ver.v[i]);
	if (cpus.n) {
		sb_add(md, ",");
		for (size_t i = 0; i < cpus.n; i++)
			sb_addf(md, "%s%s", i ? "/" : " ", cpus.v[i]);
		sb_add(md, " vCPU");
	}
	if (mem.n) {
		sb_add(md, ",");
		for (size_t i = 0; i < mem.n; i++)
			sb_addf(md, "%s%s", i ? "/" : " ", mem.v[i]);
		sb_add(md, " MiB of RAM");
	}
	if (area.n) {
		sb_add(md, ", an area of");
		for (size_t i = 0; i < area.n; i++)
			sb_addf(md, "%s%s", i ? "/" : " ", area.v[i]);
		sb_add(md, " MiB");
	}
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		sl_free((struct strlist *)all[i]);
}

/* ---- numbers ------------------------------------------------------------- */

/* Rotating buffers: a row can hold several numbers. */
static const char *num(double v)
{
	static char buf[16][48];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];
	double a = fabs(v);

	if (isnan(v))
		snprintf(b, sizeof(buf[0]), "-");
	else if (a >= 100)
		snprintf(b, sizeof(buf[0]), "%.0f", v);
	else if (a >= 10)
		snprintf(b, sizeof(buf[0]), "%.1f", v);
	else
		snprintf(b, sizeof(buf[0]), "%.2f", v);
	return b;
}

static const char *pct(double v)
{
	static char buf[8][32];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];

	if (isnan(v))
		snprintf(b, sizeof(buf[0]), "-");
	else
		snprintf(b, sizeof(buf[0]), "%+.2f%%", v);
	return b;
}

static double ratio(double a, double b)
{
	return isnan(a) || isnan(b) || b == 0 ? NAN : a / b;
}

/* A per-repetition statistic over the repetitions. */
struct over {
	size_t n;
	double med, lo, hi;
};

static struct over over_reps(const double *v, size_t n)
{
	struct summary s;

	stats_summary(v, n, &s);
	return (struct over){ n, s.p50, s.min, s.max };
}

static const char *range(struct over o)
{
	static char buf[8][64];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];

	if (!o.n)
		snprintf(b, sizeof(buf[0]), "-");
	else
		snprintf(b, sizeof(buf[0]), "%s" DASH "%s", num(o.lo), num(o.hi));
	return b;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* ---- figure 1: RFC v2 latency -------------------------------------------- */

enum side { SIDE_NONE, SIDE_KERNEL, SIDE_USER };

static const char *const side_name[] = { "-", "kernel", "user" };

struct lat_cell {
	enum side side;
	size_t reps, reqs, fails;
	struct over st[3];          /* per-repetition min, max, avg (us) */
};

/*
 * The cell (section, pages): per ok run the min, max and mean of its
 * successful requests of that size, kernel-side if every one of them has
 * a kernel latency (unless force is SIDE_USER), else user-side.
 */
static void lat_cell(const struct picks *ps, const char *section, long long pages,
		     enum side force, struct lat_cell *c)
{
	double *v[3];
	bool kernel = force != SIDE_USER;
	size_t any = 0;

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < ps->n; i++) {
		const struct dataset *ds = &ps->v[i].set->ds;

		if (!pick_ok(&ps->v[i], section))
			continue;
		for (size_t a = 0; a < ds->nallocs; a++) {
			const struct ds_alloc *x = &ds->allocs[a];

			if (x->run != ps->v[i].run || x->pages != pages)
				continue;
			if (!x->success) {
				c->fails++;
				continue;
			}
			any++;
			if (x->kernel_ns == DS_NONE)
				kernel = false;
		}
	}
	if (!any)
		return;
	c->side = kernel ? SIDE_KERNEL : SIDE_USER;
	for (int k = 0; k < 3; k++)
		v[k] = xcalloc(ps->n, sizeof(double));
	for (size_t i = 0; i < ps->n; i++) {
		const struct dataset *ds = &ps->v[i].set->ds;
		double mn = INFINITY, mx = -INFINITY, sum = 0;
		size_t n = 0;

		if (!pick_ok(&ps->v[i], section))
			continue;
		for (size_t a = 0; a < ds->nallocs; a++) {
			const struct ds_alloc *x = &ds->allocs[a];
			double us;

			if (x->run != ps->v[i].run || x->pages != pages || !x->success)
				continue;
			us = (kernel ? x->kernel_ns : x->user_ns) / 1000.0;
			mn = us < mn ? us : mn;
			mx = us > mx ? us : mx;
			sum += us;
			n++;
		}
		if (!n)
			continue;
		v[0][c->reps] = mn;
		v[1][c->reps] = mx;
		v[2][c->reps] = sum / n;
		c->reps++;
		c->reqs += n;
	}
	for (int k = 0; k < 3; k++) {
		c->st[k] = over_reps(v[k], c->reps);
		free(v[k]);
	}
}

/* cma and gcma of one size on the same side (user-side if either lacks the kernel's). */
static void lat_pair(const struct picks *ps, long long pages, struct lat_cell *cma,
		     struct lat_cell *gcma)
{
	lat_cell(ps, "cma", pages, SIDE_NONE, cma);
	lat_cell(ps, "gcma", pages, SIDE_NONE, gcma);
	if (cma->side != SIDE_NONE && gcma->side != SIDE_NONE && cma->side != gcma->side) {
		lat_cell(ps, "cma", pages, SIDE_USER, cma);
		lat_cell(ps, "gcma", pages, SIDE_USER, gcma);
	}
}

/* Request sizes: the published ones and ours, ascending. */
static size_t lat_sizes(const struct published *pub, const struct picks *ps, long long **out)
{
	long long *v = NULL;
	size_t n = 0, u = 0;

	for (size_t i = 0; i < pub->n; i++) {
		char *end;
		long long x;

		if (strcmp(pub->rows[i].figure, FIG_LAT))
			continue;
		x = strtoll(pub->rows[i].size, &end, 10);
		if (end == pub->rows[i].size || *end)
			continue;   /* a range such as "1024-16384" */
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = x;
	}
	for (size_t i = 0; i < ps->n; i++) {
		const struct dataset *ds = &ps->v[i].set->ds;

		for (size_t a = 0; a < ds->nallocs; a++)
			if (ds->allocs[a].run == ps->v[i].run) {
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n++] = ds->allocs[a].pages;
			}
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_ll);
	for (size_t i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*out = v;
	return u;
}

/* Set-ups: our sections, then the published ones we do not run. */
static size_t lat_setups(const struct published *pub, const char *const *ours,
			 struct strlist *out)
{
	for (size_t i = 0; ours[i]; i++)
		sl_add(out, ours[i]);
	for (size_t i = 0; i < pub->n; i++)
		if (!strcmp(pub->rows[i].figure, FIG_LAT) && strchr(pub->rows[i].setup, '/') == NULL &&
		    !sl_has(out, pub->rows[i].setup))
			sl_add(out, pub->rows[i].setup);
	return out->n;
}

/* What figure 3 takes from figure 1: cma/gcma of the per-size averages. */
struct lat_ratios {
	size_t n;
	long long *pages;
	double *ours;
};

/* The shape of a cma/gcma latency table, computed the same way for both sides. */
struct shape {
	size_t n;                   /* sizes with cma and gcma */
	long long *pages;
	double *cma_avg, *gcma_avg, *cma_max, *gcma_max;
};

static void shape_add(struct shape *s, long long pages, double ca, double ga, double cm, double gm)
{
	if (isnan(ca) || isnan(ga) || isnan(cm) || isnan(gm))
		return;
	s->pages = xrealloc(s->pages, (s->n + 1) * sizeof(*s->pages));
	s->cma_avg = xrealloc(s->cma_avg, (s->n + 1) * sizeof(double));
	s->gcma_avg = xrealloc(s->gcma_avg, (s->n + 1) * sizeof(double));
	s->cma_max = xrealloc(s->cma_max, (s->n + 1) * sizeof(double));
	s->gcma_max = xrealloc(s->gcma_max, (s->n + 1) * sizeof(double));
	s->pages[s->n] = pages;
	s->cma_avg[s->n] = ca;
	s->gcma_avg[s->n] = ga;
	s->cma_max[s->n] = cm;
	s->gcma_max[s->n] = gm;
	s->n++;
}

static void shape_free(struct shape *s)
{
	free(s->pages);
	free(s->cma_avg);
	free(s->gcma_avg);
	free(s->cma_max);
	free(s->gcma_max);
	memset(s, 0, sizeof(*s));
}

static size_t shape_gcma_faster(const struct shape *s)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++)
		k += s->gcma_avg[i] < s->cma_avg[i];
	return k;
}

static size_t shape_largest_cma_max(const struct shape *s)
{
	size_t m = 0;

	for (size_t i = 1; i < s->n; i++)
		if (s->cma_max[i] > s->cma_max[m])
			m = i;
	return m;
}

/* "GCMA's average is lower than CMA's at 7 of 8 sizes; CMA's max grows ..." */
static void shape_describe(struct strbuf *md, const char *who, const struct shape *s)
{
	size_t m = shape_largest_cma_max(s), last = s->n - 1;

	sb_addf(md, "%s: GCMA's average is lower than CMA's at %zu of %zu sizes; from %lld to %lld "
		"pages CMA's max grows %sx (%s to %s us) and GCMA's %sx (%s to %s us); the "
		"longest CMA request took %s us (%lld pages).", who, shape_gcma_faster(s), s->n,
		s->pages[0], s->pages[last], num(ratio(s->cma_max[last], s->cma_max[0])),
		num(s->cma_max[0]), num(s->cma_max[last]),
		num(ratio(s->gcma_max[last], s->gcma_max[0])), num(s->gcma_max[0]),
		num(s->gcma_max[last]), num(s->cma_max[m]), s->pages[m]);
}

/* The points where ours departs from the published shape, in words. */
static void shape_verdict(struct strbuf *md, const struct shape *pub, const struct shape *ours)
{
	struct strbuf why;
	size_t nwhy = 0, last = ours->n - 1, plast = pub->n - 1;
	double cg = ratio(ours->cma_max[last], ours->cma_max[0]);
	double gg = ratio(ours->gcma_max[last], ours->gcma_max[0]);
	double pcg = ratio(pub->cma_max[plast], pub->cma_max[0]);
	double pgg = ratio(pub->gcma_max[plast], pub->gcma_max[0]);
	double plong = pub->cma_max[shape_largest_cma_max(pub)];
	double olong = ours->cma_max[shape_largest_cma_max(ours)];
	bool first = true;

	sb_init(&why);
	for (size_t i = 0; i < ours->n; i++) {
		bool pub_faster = false, pub_has = false;

		for (size_t k = 0; k < pub->n; k++)
			if (pub->pages[k] == ours->pages[i]) {
				pub_has = true;
				pub_faster = pub->gcma_avg[k] < pub->cma_avg[k];
			}
		if (ours->gcma_avg[i] < ours->cma_avg[i] || (pub_has && !pub_faster))
			continue;
		sb_addf(&why, "%s%lld", first ? "GCMA is not faster than CMA on average at " : ", ",
			ours->pages[i]);
		first = false;
	}
	if (!first) {
		sb_add(&why, " pages (published: GCMA faster there, or size not published)");
		nwhy++;
	}
	if (!(cg > 1)) {
		sb_addf(&why, "%sCMA's tail does not grow with size (max %s us at %lld pages, %s us at "
			"%lld)", nwhy++ ? "; " : "", num(ours->cma_max[0]), ours->pages[0],
			num(ours->cma_max[last]), ours->pages[last]);
	} else if (pcg > pgg && !(cg > gg)) {
		sb_addf(&why, "%sCMA's tail grows no faster with size than GCMA's (%sx against %sx; "
			"published %sx against %sx)", nwhy++ ? "; " : "", num(cg), num(gg), num(pcg),
			num(pgg));
	}
	if (plong >= 1e6 && olong < 1e6)
		sb_addf(&why, "%sCMA's tail stays below a second (longest %s us; published %s us)",
			nwhy++ ? "; " : "", num(olong), num(plong));
	if (nwhy)
		sb_addf(md, "**Ours disagrees with the published shape**: %s.\n\n", why.buf);
	else
		sb_add(md, "Ours agrees with the published shape on these points: GCMA faster where "
		       "the published GCMA was, CMA's tail growing with size faster than GCMA's, "
		       "and to a second or more where the published one did.\n\n");
	sb_free(&why);
}


static const char *zu(size_t n)
{
	static char buf[8][32];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];

	snprintf(b, sizeof(buf[0]), "%zu", n);
	return b;
}

/* "3 (96)", "3 (96; 2 failed)", "0 (4 failed)" */
static const char *ncol(size_t reps, size_t items, size_t fails)
{
	static char buf[8][64];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];

	if (!reps && !fails)
		snprintf(b, sizeof(buf[0]), "-");
	else if (!reps)
		snprintf(b, sizeof(buf[0]), "0 (%zu failed)", fails);
	else if (fails)
		snprintf(b, sizeof(buf[0]), "%zu (%zu; %zu failed)", reps, items, fails);
	else
		snprintf(b, sizeof(buf[0]), "%zu (%zu)", reps, items);
	return b;
}

/* The source column of the first published row of a figure, up to a ": claim". */
static const char *pub_source(const struct published *pub, const char *figure)
{
	static char buf[512];

	for (size_t i = 0; i < pub->n; i++)
		if (!strcmp(pub->rows[i].figure, figure)) {
			const char *s = pub->rows[i].source, *colon = strstr(s, ": ");

			snprintf(buf, sizeof(buf), "%.*s", (int)(colon ? colon - s : (ptrdiff_t)strlen(s)), s);
			return buf;
		}
	return "?";
}

/* "1024-16384" */
static bool parse_band(const char *s, long long *lo, long long *hi)
{
	char *end;

	*lo = strtoll(s, &end, 10);
	if (end == s || *end != '-')
		return false;
	s = end + 1;
	*hi = strtoll(s, &end, 10);
	return end != s && !*end;
}

static void band_range(const struct shape *s, long long lo, long long hi, double *min, double *max,
		       size_t *n)
{
	*min = INFINITY;
	*max = -INFINITY;
	*n = 0;
	for (size_t i = 0; i < s->n; i++) {
		double r = ratio(s->cma_avg[i], s->gcma_avg[i]);

		if (s->pages[i] < lo || s->pages[i] > hi || isnan(r))
			continue;
		*min = r < *min ? r : *min;
		*max = r > *max ? r : *max;
		(*n)++;
	}
}

static void figure_latency(struct strbuf *md, const struct published *pub,
			   const struct repro_set *sets, size_t nsets, struct lat_ratios *lr)
{
	static const char *const sections[] = { "none", "cma", "gcma", NULL };
	static const char *const stat_names[] = { "min", "max", "avg" };
	struct picks ps;
	struct strlist setups = { 0 };
	long long *sizes, blo, bhi;
	size_t nsizes, kernel_cells = 0;
	struct shape sp = { 0 }, so = { 0 };
	const struct pub_row *band;

	picks_select(&ps, sets, nsets, "rfc-v2", sections);
	nsizes = lat_sizes(pub, &ps, &sizes);
	lat_setups(pub, sections, &setups);
	memset(lr, 0, sizeof(*lr));

	sb_add(md, "## 1. GCMA RFC v2: allocation latency\n\n");
	if (!ps.n)
		no_results(md, "rfc-v2", sections);
	sb_add(md, "Per set-up and request size: min / max / avg latency in microseconds. Ours is "
	       "the median over repetitions of each repetition's min, max and average; the "
	       "spread is the lowest" DASH "highest of those per-repetition values; n counts "
	       "repetitions (requests). Latency is kernel-side (`cma_alloc_start` to "
	       "`cma_alloc_finish` in trace.dat) where every request of the cell has it, else "
	       "user-side (the driver's `latency_ns`); the last column says which.\n\n");
	sb_add(md, "| pages | set-up | published min / max / avg | ours min / max / avg | ours "
	       "spread over repetitions | n | ours / published | latency |\n");
	sb_add(md, "|---:|---|---:|---:|---:|---:|---:|---|\n");
	for (size_t z = 0; z < nsizes; z++) {
		char size[32];

		snprintf(size, sizeof(size), "%lld", sizes[z]);
		for (size_t s = 0; s < setups.n; s++) {
			const struct pub_row *pr[3];
			struct lat_cell c;
			bool any_pub = false;

			for (int k = 0; k < 3; k++) {
				pr[k] = published_find(pub, FIG_LAT, stat_names[k], setups.v[s], size);
				any_pub |= pr[k] != NULL;
			}
			lat_cell(&ps, setups.v[s], sizes[z], SIDE_NONE, &c);
			if (!any_pub && !c.reps && !c.fails)
				continue;
			sb_addf(md, "| %lld | %s | ", sizes[z], setups.v[s]);
			if (any_pub)
				sb_addf(md, "%s / %s / %s", pr[0] ? pr[0]->value : "-",
					pr[1] ? pr[1]->value : "-", pr[2] ? pr[2]->value : "-");
			else
				sb_add(md, "-");
			if (!c.reps) {
				const char *why = !ps.n ? "no results"
						  : !in_list(sections, setups.v[s]) ? "not run"
						  : !picks_has_section(&ps, setups.v[s]) ? "no results"
						  : c.fails ? "every request failed"
						  : "no request of this size";

				sb_addf(md, " | %s | - | %s | - | - |\n", why, ncol(0, 0, c.fails));
				continue;
			}
			kernel_cells += c.side == SIDE_KERNEL;
			sb_addf(md, " | %s / %s / %s | %s / %s / %s | %s | ", num(c.st[0].med),
				num(c.st[1].med), num(c.st[2].med), range(c.st[0]), range(c.st[1]),
				range(c.st[2]), ncol(c.reps, c.reqs, c.fails));
			if (any_pub)
				sb_addf(md, "%s / %s / %s",
					num(ratio(c.st[0].med, pr[0] ? pr[0]->v : NAN)),
					num(ratio(c.st[1].med, pr[1] ? pr[1]->v : NAN)),
					num(ratio(c.st[2].med, pr[2] ? pr[2]->v : NAN)));
			else
				sb_add(md, "-");
			sb_addf(md, " | %s |\n", side_name[c.side]);
		}
	}
	sb_add(md, "\n");
	if (sl_has(&setups, "gcma.zram") && !in_list(sections, "gcma.zram"))
		sb_add(md, "gcma.zram (GCMA with a zram backend) has no counterpart here: the ported "
		       "series has no zram backend, so those rows stay published-only.\n\n");

	sb_add(md, "### Average latency, CMA / GCMA\n\n"
	       "Published: the ratio of the published averages. Ours: the ratio of the medians "
	       "of the per-repetition averages; its range runs from the lowest CMA repetition "
	       "over the highest GCMA one to the highest over the lowest. Both set-ups on the "
	       "same side (user-side when either lacks kernel-side latencies).\n\n"
	       "| pages | published | ours | ours range | ours / published | latency |\n"
	       "|---:|---:|---:|---:|---:|---|\n");
	for (size_t z = 0; z < nsizes; z++) {
		char size[32];
		struct lat_cell c, g;
		double pa, oa;

		snprintf(size, sizeof(size), "%lld", sizes[z]);
		pa = ratio(pub_value(pub, FIG_LAT, "avg", "cma", size),
			   pub_value(pub, FIG_LAT, "avg", "gcma", size));
		lat_pair(&ps, sizes[z], &c, &g);
		oa = c.reps && g.reps ? ratio(c.st[2].med, g.st[2].med) : NAN;
		if (isnan(pa) && isnan(oa))
			continue;
		shape_add(&sp, sizes[z], pub_value(pub, FIG_LAT, "avg", "cma", size),
			  pub_value(pub, FIG_LAT, "avg", "gcma", size),
			  pub_value(pub, FIG_LAT, "max", "cma", size),
			  pub_value(pub, FIG_LAT, "max", "gcma", size));
		if (isnan(oa)) {
			sb_addf(md, "| %lld | %s | %s | - | - | - |\n", sizes[z], num(pa),
				ps.n ? "no results for both set-ups" : "no results");
			continue;
		}
		shape_add(&so, sizes[z], c.st[2].med, g.st[2].med, c.st[1].med, g.st[1].med);
		lr->pages = xrealloc(lr->pages, (lr->n + 1) * sizeof(*lr->pages));
		lr->ours = xrealloc(lr->ours, (lr->n + 1) * sizeof(*lr->ours));
		lr->pages[lr->n] = sizes[z];
		lr->ours[lr->n++] = oa;
		sb_addf(md, "| %lld | %s | %s | %s" DASH "%s | %s | %s |\n", sizes[z], num(pa), num(oa),
			num(ratio(c.st[2].lo, g.st[2].hi)), num(ratio(c.st[2].hi, g.st[2].lo)),
			num(ratio(oa, pa)), side_name[c.side]);
	}
	sb_add(md, "\n");

	band = published_find(pub, FIG_LAT, "avg-ratio-cma-gcma", NULL, NULL);
	if (band && parse_band(band->size, &blo, &bhi)) {
		double pmin, pmax, omin, omax;
		size_t pn, on;

		band_range(&sp, blo, bhi, &pmin, &pmax, &pn);
		band_range(&so, blo, bhi, &omin, &omax, &on);
		sb_addf(md, "At %lld" DASH "%lld pages the published text says about %s%s; the "
			"published averages give ", blo, bhi, band->value, band->unit);
		if (pn)
			sb_addf(md, "%s" DASH "%sx", num(pmin), num(pmax));
		else
			sb_add(md, "nothing (no published size there)");
		sb_add(md, "; ours ");
		if (on)
			sb_addf(md, "%s" DASH "%sx over %zu size%s.\n\n", num(omin), num(omax), on,
				on == 1 ? "" : "s");
		else
			sb_add(md, "has no size there with both set-ups.\n\n");
	}
	if (sp.n >= 2) {
		shape_describe(md, "Published", &sp);
		sb_add(md, "\n");
	}
	if (so.n >= 2) {
		shape_describe(md, "Ours", &so);
		sb_add(md, "\n\n");
		if (sp.n >= 2)
			shape_verdict(md, &sp, &so);
	} else {
		sb_add(md, "\nOurs has too few sizes with both cma and gcma results to compare the "
		       "shape.\n\n");
	}
	if (ps.n) {
		sb_add(md, "Why they differ: the published numbers come from ");
		sb_addf(md, "%s; ours from ", pub_source(pub, FIG_LAT));
		describe_env(md, &ps);
		sb_add(md, ". An emulated CPU runs the allocator's migration and compaction many "
		       "times slower than hardware, Linux 6.12's CMA is not the 2015 one, and the "
		       "request sizes are the published ones while the area and RAM are the "
		       "guest's, so compare ratios and shapes, not microseconds.\n\n");
		sources(md, &ps, kernel_cells ? "runs/<run>/alloc.csv (`pages`, `latency_ns`, "
			"`success`) and runs/<run>/trace.dat (`cma_alloc_start`, `cma_alloc_finish`), "
			"as in the data/alloc.csv that `cmabench report` writes"
			: "runs/<run>/alloc.csv (`pages`, `latency_ns`, `success`; no cell had "
			"kernel-side latency for every request), as in the data/alloc.csv that "
			"`cmabench report` writes", NULL);
	}
	shape_free(&sp);
	shape_free(&so);
	free(sizes);
	sl_free(&setups);
	free(ps.v);
}

/* ---- figure 2: RFC v2 background job ------------------------------------- */

struct jobtime {
	size_t pick;
	char *name;
	double v[4];                /* user, sys, elapsed (s), cpu % */
};

enum { JT_USER, JT_SYS, JT_ELAPSED, JT_CPU, JT_N };
static const char *const jt_metric[JT_N] = { "user", "sys", "elapsed", "cpu" };
static const char *const jt_label[JT_N] = { "user (s)", "sys (s)", "elapsed (s)",
					    "cpu % ((user + sys) / elapsed)" };

/* runs/<run>/jobtime.csv: name,elapsed_s,user_s,sys_s */
static size_t load_jobtimes(const struct picks *ps, struct jobtime **out, struct strlist *notes)
{
	static const char *const cols[] = { "name", "elapsed_s", "user_s", "sys_s" };
	struct jobtime *jt = NULL;
	size_t n = 0;

	for (size_t i = 0; i < ps->n; i++) {
		const struct ds_run *r = prun(&ps->v[i]);
		char *p, *text, *line, *next;
		int idx[4] = { -1, -1, -1, -1 };
		bool header = true;
		size_t rows = 0;

		if (!ds_run_ok(r))
			continue;
		p = xasprintf("%s/runs/%s/jobtime.csv", ps->v[i].set->ds.dir, r->name);
		text = read_file(p, NULL);
		free(p);
		if (!text) {
			sl_addf(notes, "`%s/runs/%s/jobtime.csv` is missing: that run counts for no job",
				ps->v[i].set->label, r->name);
			continue;
		}
		for (line = text; line; line = next) {
			struct strlist f = { 0 };
			double e, u, s;
			char *end1, *end2, *end3;

			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			rtrim(line);
			if (!*line)
				continue;
			repro_csv_split(line, &f);
			if (header) {
				bool all = header_cols(&f, cols, 4, idx);

				header = false;
				sl_free(&f);
				if (!all) {
					sl_addf(notes, "`%s/runs/%s/jobtime.csv` has no header "
						"name,elapsed_s,user_s,sys_s: not used",
						ps->v[i].set->label, r->name);
					break;
				}
				continue;
			}
			if ((size_t)idx[0] >= f.n || (size_t)idx[1] >= f.n || (size_t)idx[2] >= f.n ||
			    (size_t)idx[3] >= f.n) {
				sl_free(&f);
				continue;
			}
			e = strtod(f.v[idx[1]], &end1);
			u = strtod(f.v[idx[2]], &end2);
			s = strtod(f.v[idx[3]], &end3);
			if (!*f.v[idx[1]] || *end1 || *end2 || *end3 || e <= 0) {
				sl_addf(notes, "`%s/runs/%s/jobtime.csv`: a row of `%s` is not numbers: "
					"not used", ps->v[i].set->label, r->name, f.v[idx[0]]);
				sl_free(&f);
				continue;
			}
			jt = xrealloc(jt, (n + 1) * sizeof(*jt));
			jt[n] = (struct jobtime){ i, xstrdup(f.v[idx[0]]), { u, s, e, (u + s) / e * 100 } };
			n++;
			rows++;
			sl_free(&f);
		}
		free(text);
	}
	*out = jt;
	return n;
}

/* A metric of a job over the repetitions of a section. */
static size_t jt_values(const struct picks *ps, const struct jobtime *jt, size_t n,
			const char *job, const char *section, int metric, double *v)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(jt[i].name, job) && !strcmp(prun(&ps->v[jt[i].pick])->section, section))
			v[k++] = jt[i].v[metric];
	return k;
}

static void figure_background(struct strbuf *md, const struct published *pub,
			      const struct repro_set *sets, size_t nsets)
{
	static const char *const sections[] = { "none", "cma", "gcma", NULL };
	struct picks ps;
	struct strlist setups = { 0 }, jobs = { 0 }, notes = { 0 };
	struct jobtime *jt;
	size_t njt;
	double *v, *w;

	picks_select(&ps, sets, nsets, "rfc-v2-background", sections);
	njt = load_jobtimes(&ps, &jt, &notes);
	for (size_t i = 0; i < njt; i++)
		if (!sl_has(&jobs, jt[i].name))
			sl_add(&jobs, jt[i].name);
	for (size_t i = 0; sections[i]; i++)
		sl_add(&setups, sections[i]);
	for (size_t i = 0; i < pub->n; i++)
		if (!strcmp(pub->rows[i].figure, FIG_BG) && !sl_has(&setups, pub->rows[i].setup))
			sl_add(&setups, pub->rows[i].setup);
	v = xcalloc(njt + 1, sizeof(double));
	w = xcalloc(njt + 1, sizeof(double));

	sb_add(md, "## 2. GCMA RFC v2: cost to a background job\n\n");
	if (!ps.n)
		no_results(md, "rfc-v2-background", sections);
	else if (!jobs.n)
		sb_add(md, "**No results**: no run of `rfc-v2-background` has a readable "
		       "jobtime.csv.\n\n");
	if (!jobs.n)
		sl_add(&jobs, "-");
	sb_add(md, "The background job's user, sys and elapsed seconds as the guest timed them "
	       "(jobtime.csv), and its CPU share; ours is the median over repetitions, the spread "
	       "the lowest" DASH "highest repetition, n the repetitions. The published job is a "
	       "different, far longer build, so the seconds are not comparable; the overhead "
	       "relative to `none` is.\n\n"
	       "| job | set-up | metric | published | ours | ours spread | n |\n"
	       "|---|---|---|---:|---:|---:|---:|\n");
	for (size_t j = 0; j < jobs.n; j++)
		for (size_t s = 0; s < setups.n; s++)
			for (int m = 0; m < JT_N; m++) {
				const struct pub_row *pr = published_find(pub, FIG_BG, jt_metric[m],
									  setups.v[s], NULL);
				size_t k = jt_values(&ps, jt, njt, jobs.v[j], setups.v[s], m, v);
				struct over o = over_reps(v, k);

				if (!pr && !k)
					continue;
				sb_addf(md, "| %s | %s | %s | %s | %s | %s | %s |\n", jobs.v[j],
					setups.v[s], jt_label[m], pr ? pr->value : "-",
					k ? num(o.med) : in_list(sections, setups.v[s]) ? "no results"
										       : "not run",
					range(o), k ? zu(k) : "-");
			}
	sb_add(md, "\n");

	sb_add(md, "### Overhead relative to `none`\n\n"
	       "Published: set-up / none " DASH " 1 of the published averages. Ours: each "
	       "repetition's value over the median of `none`'s repetitions, " DASH " 1; the "
	       "median and spread of those.\n\n"
	       "| job | set-up | metric | published | ours | ours spread | n |\n"
	       "|---|---|---|---:|---:|---:|---:|\n");
	for (size_t j = 0; j < jobs.n; j++) {
		double base[JT_N], oh[2] = { NAN, NAN }, noise = NAN;

		for (int m = 0; m < JT_N; m++) {
			size_t k = jt_values(&ps, jt, njt, jobs.v[j], "none", m, v);
			struct over o = over_reps(v, k);

			base[m] = k ? o.med : NAN;
			if (m == JT_ELAPSED && k)
				noise = (o.hi - o.lo) / o.med * 100;
		}
		for (size_t s = 0; s < setups.n; s++) {
			if (!strcmp(setups.v[s], "none"))
				continue;
			for (int m = 0; m < JT_CPU; m++) {
				double pn = pub_value(pub, FIG_BG, jt_metric[m], "none", NULL);
				double psv = pub_value(pub, FIG_BG, jt_metric[m], setups.v[s], NULL);
				size_t k = jt_values(&ps, jt, njt, jobs.v[j], setups.v[s], m, v);
				struct over o;

				for (size_t i = 0; i < k; i++)
					w[i] = (ratio(v[i], base[m]) - 1) * 100;
				o = over_reps(w, isnan(base[m]) ? 0 : k);
				if (isnan(psv) && !o.n)
					continue;
				if (m == JT_ELAPSED && o.n && !strcmp(setups.v[s], "cma"))
					oh[0] = o.med;
				if (m == JT_ELAPSED && o.n && !strcmp(setups.v[s], "gcma"))
					oh[1] = o.med;
				sb_addf(md, "| %s | %s | %s | %s | %s | ", jobs.v[j], setups.v[s],
					jt_label[m], pct((ratio(psv, pn) - 1) * 100),
					o.n ? pct(o.med) : !in_list(sections, setups.v[s]) ? "not run"
							: "no results");
				if (o.n)
					sb_addf(md, "%s" DASH "%s | %zu |\n", pct(o.lo), pct(o.hi), o.n);
				else
					sb_add(md, "- | - |\n");
			}
		}
		if (j == 0) {
			double pc = (ratio(pub_value(pub, FIG_BG, "elapsed", "cma", NULL),
					   pub_value(pub, FIG_BG, "elapsed", "none", NULL)) - 1) * 100;
			double pg = (ratio(pub_value(pub, FIG_BG, "elapsed", "gcma", NULL),
					   pub_value(pub, FIG_BG, "elapsed", "none", NULL)) - 1) * 100;

			sb_addf(md, "\nPublished: the elapsed time grows %s with CMA and %s with GCMA, "
				"so GCMA %s the background job less than CMA does.\n", pct(pc), pct(pg),
				pg < pc ? "costs" : "does not cost");
		}
		if (isnan(oh[0]) || isnan(oh[1])) {
			if (strcmp(jobs.v[j], "-"))
				sb_addf(md, "\nOurs (job `%s`): no overhead of both cma and gcma to "
					"compare.\n", jobs.v[j]);
			continue;
		}
		sb_addf(md, "\nOurs (job `%s`): the elapsed time grows %s with CMA and %s with GCMA; "
			"`none` alone varies by %s%% (highest " DASH " lowest over median) between "
			"repetitions.", jobs.v[j], pct(oh[0]), pct(oh[1]), num(noise));
		if (oh[1] < oh[0])
			sb_add(md, " Ours agrees: GCMA costs the job less than CMA.");
		else
			sb_addf(md, " **Ours disagrees with the published shape**: GCMA does not cost "
				"the job less than CMA (%s against %s).", pct(oh[1]), pct(oh[0]));
		if (fabs(oh[0] - oh[1]) < noise)
			sb_addf(md, " The difference between CMA and GCMA (%s points) is smaller than "
				"that variation, so it is within the noise.", num(fabs(oh[0] - oh[1])));
		sb_add(md, "\n");
	}
	sb_add(md, "\n");
	if (ps.n) {
		sb_addf(md, "Why they differ: the published job is %s; ours is the guest's own job "
			"on ", pub_source(pub, FIG_BG));
		describe_env(md, &ps);
		sb_add(md, ". An emulated CPU and a smaller, shorter job change the seconds "
		       "entirely; only the overheads relative to `none` are comparable, and a short "
		       "job has less time to feel the allocations.\n\n");
		sources(md, &ps, "runs/<run>/jobtime.csv (`name`, `elapsed_s`, `user_s`, `sys_s`, "
			"read directly: the data set does not keep it)", &notes);
	}
	free(v);
	free(w);
	sl_free(&setups);
	sl_free(&jobs);
	sl_free(&notes);
	for (size_t i = 0; i < njt; i++)
		free(jt[i].name);
	free(jt);
	free(ps.v);
}

/* ---- figure 3: the GCMA paper ---------------------------------------------- */

enum { B_P50, B_P90, B_MAX, B_N };
static const char *const b_name[B_N] = { "p50", "p90", "max" };

struct burst_cell {
	size_t reps, bursts, failed;
	struct over st[B_N];        /* per-repetition p50, p90, max (ms) */
};

/*
 * Burst latencies of one run from its alloc.csv (the data set keeps
 * neither burst nor start_ns): the last request's start_ns + latency_ns
 * minus the first request's start_ns, for each run of rows sharing a
 * burst number. Bursts with a failed request are counted apart.
 */
static size_t run_bursts(const struct pick *k, double **out, size_t *failed,
			 struct strlist *notes)
{
	static const char *const cols[] = { "burst", "start_ns", "latency_ns", "success" };
	const struct ds_run *r = prun(k);
	char *p = xasprintf("%s/runs/%s/alloc.csv", k->set->ds.dir, r->name);
	char *text = read_file(p, NULL), *line, *next;
	int idx[4] = { -1, -1, -1, -1 };
	bool header = true, open = false, bad = false;
	long long cur = 0, first = 0, end = 0;
	double *v = NULL;
	size_t n = 0;

	free(p);
	*out = NULL;
	if (!text) {
		sl_addf(notes, "`%s/runs/%s/alloc.csv` is missing", k->set->label, r->name);
		return 0;
	}
	for (line = text; line; line = next) {
		struct strlist f = { 0 };
		long long x[4];
		bool ok = true;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		rtrim(line);
		if (!*line)
			continue;
		repro_csv_split(line, &f);
		if (header) {
			bool all = header_cols(&f, cols, 4, idx);

			header = false;
			sl_free(&f);
			if (!all) {
				sl_addf(notes, "`%s/runs/%s/alloc.csv` has no burst, start_ns, "
					"latency_ns and success columns: not used", k->set->label,
					r->name);
				break;
			}
			continue;
		}
		for (size_t c = 0; c < 4 && ok; c++) {
			char *e;

			ok = (size_t)idx[c] < f.n;
			if (ok) {
				x[c] = strtoll(f.v[idx[c]], &e, 10);
				ok = e != f.v[idx[c]] && !*e;
			}
		}
		sl_free(&f);
		if (!ok)
			continue;
		if (open && x[0] != cur) {
			if (bad)
				(*failed)++;
			else {
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n++] = (end - first) / 1e6;
			}
			open = false;
		}
		if (!open) {
			open = true;
			bad = false;
			cur = x[0];
			first = x[1];
		}
		end = x[1] + x[2];
		bad |= !x[3];
	}
	if (open) {
		if (bad)
			(*failed)++;
		else {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = (end - first) / 1e6;
		}
	}
	free(text);
	*out = v;
	return n;
}

static void burst_cell(const struct picks *ps, const char *section, struct burst_cell *c,
		       struct strlist *notes)
{
	double *st[B_N];

	memset(c, 0, sizeof(*c));
	for (int b = 0; b < B_N; b++)
		st[b] = xcalloc(ps->n + 1, sizeof(double));
	for (size_t i = 0; i < ps->n; i++) {
		double *v;
		size_t n;
		struct summary s;

		if (!pick_ok(&ps->v[i], section))
			continue;
		n = run_bursts(&ps->v[i], &v, &c->failed, notes);
		if (n) {
			stats_summary(v, n, &s);
			st[B_P50][c->reps] = s.p50;
			st[B_P90][c->reps] = s.p90;
			st[B_MAX][c->reps] = s.max;
			c->reps++;
			c->bursts += n;
		}
		free(v);
	}
	for (int b = 0; b < B_N; b++) {
		c->st[b] = over_reps(st[b], c->reps);
		free(st[b]);
	}
}

static void figure_paper(struct strbuf *md, const struct published *pub,
			 const struct repro_set *sets, size_t nsets, const struct lat_ratios *lr)
{
	static const char *const sections[] = { "cma", "gcma", NULL };
	const struct pub_row *lo = published_find(pub, FIG_PAPER, "alloc-latency-ratio-low", NULL, NULL);
	const struct pub_row *hi = published_find(pub, FIG_PAPER, "alloc-latency-ratio-high", NULL, NULL);
	const struct pub_row *photo = published_find(pub, FIG_PAPER, "photo-latency-ratio-max", NULL, NULL);
	const struct pub_row *lws = published_find(pub, FIG_PAPER, "large-working-set-speedup", NULL, NULL);
	struct picks ps;
	struct strlist notes = { 0 };
	struct burst_cell bc[2];
	double rmin = NAN, rmax = NAN, bmax = NAN, br[B_N];
	size_t imin = 0, imax = 0, bwhich = 0;

	picks_select(&ps, sets, nsets, "paper-photo", sections);
	for (size_t i = 0; i < lr->n; i++) {
		if (isnan(rmin) || lr->ours[i] < rmin) {
			rmin = lr->ours[i];
			imin = i;
		}
		if (isnan(rmax) || lr->ours[i] > rmax) {
			rmax = lr->ours[i];
			imax = i;
		}
	}
	burst_cell(&ps, "cma", &bc[0], &notes);
	burst_cell(&ps, "gcma", &bc[1], &notes);
	for (int b = 0; b < B_N; b++) {
		br[b] = bc[0].reps && bc[1].reps ? ratio(bc[0].st[b].med, bc[1].st[b].med) : NAN;
		if (!isnan(br[b]) && (isnan(bmax) || br[b] > bmax)) {
			bmax = br[b];
			bwhich = b;
		}
	}

	sb_add(md, "## 3. GCMA paper (EWiLi'15, IEEE TC 2019)\n\n");
	sb_add(md, "| claim | published | ours | how ours is computed | ours / published |\n"
	       "|---|---:|---:|---|---:|\n");
	if (lo && hi) {
		sb_addf(md, "| allocation latency CMA / GCMA, lowest | %s%s | ", lo->value, lo->unit);
		if (lr->n)
			sb_addf(md, "%sx | the lowest of the per-size average ratios of figure 1 "
				"(%lld page%s; %zu sizes) | %s |\n", num(rmin), lr->pages[imin],
				lr->pages[imin] == 1 ? "" : "s", lr->n,
				num(ratio(rmin, lo->v)));
		else
			sb_add(md, "no results | figure 1 (scenario `rfc-v2`) has no size with both "
			       "cma and gcma | - |\n");
		sb_addf(md, "| allocation latency CMA / GCMA, highest | %s%s | ", hi->value, hi->unit);
		if (lr->n)
			sb_addf(md, "%sx | the highest of those ratios (%lld page%s) | %s |\n",
				num(rmax), lr->pages[imax], lr->pages[imax] == 1 ? "" : "s",
				num(ratio(rmax, hi->v)));
		else
			sb_add(md, "no results | as above | - |\n");
	}
	if (photo) {
		sb_addf(md, "| photo-shot latency CMA / GCMA, up to | %s%s | ", photo->value, photo->unit);
		if (!isnan(bmax))
			sb_addf(md, "%sx | the highest of the burst-latency ratios below (the %s) | %s |\n",
				num(bmax), b_name[bwhich], num(ratio(bmax, photo->v)));
		else
			sb_add(md, "no results | scenario `paper-photo` (bursts under cma and gcma) | - |\n");
	}
	if (lws)
		sb_addf(md, "| large working set on a fragmented high-end system, speedup | %s%s | "
			"not reproduced | no scenario: it needs a large, memory-fragmented "
			"multi-core machine and the paper's workload, not a small emulated guest | - |\n",
			lws->value, lws->unit);
	sb_add(md, "\n");
	if (lr->n && !(rmin > 1))
		sb_addf(md, "**Ours disagrees with the published shape**: GCMA's average allocation "
			"latency is not lower than CMA's at %lld pages (CMA / GCMA %s), where the paper "
			"found it %s to %s times lower.\n\n", lr->pages[imin], num(rmin),
			lo ? lo->value : "?", hi ? hi->value : "?");

	sb_add(md, "### Photo-shot (burst) latency\n\n");
	if (!ps.n)
		no_results(md, "paper-photo", sections);
	sb_add(md, "A burst's latency: the last request's `start_ns` + `latency_ns` minus the "
	       "first request's `start_ns` (requests sharing a `burst` number in alloc.csv); "
	       "bursts with a failed request are left out and counted. Per repetition the p50, "
	       "p90 and max of its bursts (type-7 percentiles); ours is the median over "
	       "repetitions. The paper shows only a CDF, so there is no published value per "
	       "statistic.\n\n"
	       "| set-up | statistic | ours (ms) | ours spread | n (bursts) |\n"
	       "|---|---|---:|---:|---:|\n");
	for (int s = 0; s < 2; s++)
		for (int b = 0; b < B_N; b++)
			sb_addf(md, "| %s | %s | %s | %s | %s |\n", sections[s], b_name[b],
				bc[s].reps ? num(bc[s].st[b].med) : "no results", range(bc[s].st[b]),
				ncol(bc[s].reps, bc[s].bursts, bc[s].failed));
	for (int b = 0; b < B_N; b++) {
		sb_addf(md, "| cma / gcma | %s | %s | ", b_name[b], num(br[b]));
		if (isnan(br[b]))
			sb_add(md, "- | - |\n");
		else
			sb_addf(md, "%s" DASH "%s | - |\n",
				num(ratio(bc[0].st[b].lo, bc[1].st[b].hi)),
				num(ratio(bc[0].st[b].hi, bc[1].st[b].lo)));
	}
	sb_add(md, "\n");
	if (!isnan(bmax)) {
		if (!(bmax > 1))
			sb_addf(md, "**Ours disagrees with the published shape**: GCMA's burst latency "
				"is not lower than CMA's (highest ratio %s, the %s).\n\n", num(bmax),
				b_name[bwhich]);
		else
			sb_addf(md, "Ours: GCMA's bursts are up to %sx faster (the %s), against up to "
				"%s%s published.\n\n", num(bmax), b_name[bwhich],
				photo ? photo->value : "-", photo ? photo->unit : "");
	}
	if (ps.n) {
		sb_addf(md, "Why they differ: the paper measured %s, a camera app under a blogbench "
			"loop; ours is a burst of back-to-back allocations from the test driver under "
			"the scenario's background on ", pub_source(pub, FIG_PAPER));
		describe_env(md, &ps);
		sb_add(md, ". The emulated CPU slows the migration CMA must do far more than "
		       "GCMA's discard of cached pages, and the bursts are the scenario's, not "
		       "a camera's.\n\n");
		sources(md, &ps, "runs/<run>/alloc.csv (`burst`, `start_ns`, `latency_ns`, "
			"`success`, read directly: the data set keeps neither burst nor start_ns)",
			&notes);
	}
	sl_free(&notes);
	free(ps.v);
}

/* ---- figure 4: LSF/MM/BPF 2025 ------------------------------------------- */

struct tv {
	double t, v;
};

/*
 * Mean over a run of cached_pages / pool_pages in %, each cached sample
 * paired with the pool sample nearest in time (within 1 s), from the
 * data set's samples table. NAN if no pair has a pool.
 */
static double run_cached_share(const char *samples, const char *run, size_t *npairs)
{
	struct tv *c = NULL, *p = NULL;
	size_t nc = 0, np = 0, n = 0;
	char *text, *line, *next;
	double sum = 0;

	*npairs = 0;
	if (!samples)
		return NAN;
	text = xstrdup(samples);
	for (line = text; line; line = next) {
		struct strlist f = { 0 };

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		repro_csv_split(line, &f);
		/* run,section,rep,time_s,name,value */
		if (f.n == 6 && !strcmp(f.v[0], run)) {
			struct tv x = { strtod(f.v[3], NULL), strtod(f.v[5], NULL) };

			if (!strcmp(f.v[4], "cleancache.cached_pages")) {
				c = xrealloc(c, (nc + 1) * sizeof(*c));
				c[nc++] = x;
			} else if (!strcmp(f.v[4], "cleancache.pool_pages")) {
				p = xrealloc(p, (np + 1) * sizeof(*p));
				p[np++] = x;
			}
		}
		sl_free(&f);
	}
	for (size_t i = 0; i < nc; i++) {
		size_t best = np;

		for (size_t k = 0; k < np; k++)
			if (fabs(p[k].t - c[i].t) <= 1.0 &&
			    (best == np || fabs(p[k].t - c[i].t) < fabs(p[best].t - c[i].t)))
				best = k;
		if (best == np || p[best].v <= 0)
			continue;
		sum += c[i].v / p[best].v * 100;
		n++;
	}
	free(text);
	free(c);
	free(p);
	*npairs = n;
	return n ? sum / n : NAN;
}

static void figure_lsfmm(struct strbuf *md, const struct published *pub,
			 const struct repro_set *sets, size_t nsets)
{
	static const char *const sections[] = { "lru", "none", NULL };
	const struct pub_row *share = published_find(pub, FIG_LSF, "cached-share", NULL, NULL);
	const struct pub_row *hit = published_find(pub, FIG_LSF, "hit-rate", NULL, NULL);
	struct picks ps;
	char **samples = xcalloc(nsets + 1, sizeof(*samples));
	double *v = NULL;
	bool any_hits = false;

	picks_select(&ps, sets, nsets, "lsfmm2025", sections);
	v = xcalloc(ps.n + 1, sizeof(double));
	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < ps.n; i++)
			if (ps.v[i].set == &sets[s]) {
				samples[s] = dataset_samples_csv(&sets[s].ds);
				break;
			}

	sb_add(md, "## 4. LSF/MM/BPF 2025: cleancache occupancy and hit rate\n\n");
	if (!ps.n)
		no_results(md, "lsfmm2025", sections);
	sb_add(md, "GCMA with `cleancache.evict=lru` (section `lru`) and `=none` (section `none`). "
	       "Cached share: per repetition the mean over its 1 s samples of cached_pages / "
	       "pool_pages; hit rate: per repetition hits / (hits + misses) of the counters' "
	       "change over the run. Ours is the median over repetitions.\n\n"
	       "| claim | set-up | published | ours | ours spread | n | ours / published |\n"
	       "|---|---|---:|---:|---:|---:|---:|\n");
	for (int m = 0; m < 2; m++) {
		const struct pub_row *pr = m ? hit : share;

		for (size_t s = 0; sections[s]; s++) {
			size_t k = 0;
			long long th = 0, tm = 0;
			struct over o;

			for (size_t i = 0; i < ps.n; i++) {
				const struct repro_set *set = ps.v[i].set;
				double x = NAN;

				if (!pick_ok(&ps.v[i], sections[s]))
					continue;
				if (!m) {
					size_t np;

					x = run_cached_share(samples[set - sets], prun(&ps.v[i])->name, &np);
				} else {
					long long h, mi;

					if (ds_counter_delta(&set->ds, ps.v[i].run, "cleancache", "hits", &h, NULL) &&
					    ds_counter_delta(&set->ds, ps.v[i].run, "cleancache", "misses", &mi, NULL) &&
					    h + mi > 0) {
						x = 100.0 * h / (h + mi);
						th += h;
						tm += mi;
						any_hits = true;
					}
				}
				if (!isnan(x))
					v[k++] = x;
			}
			o = over_reps(v, k);
			sb_addf(md, "| %s | gcma, evict=%s | %s | %s | %s | %s | %s |\n",
				m ? "cleancache hit rate (%)" : "reserved memory holding cached data (%)",
				sections[s], pr ? pr->value : "-",
				k ? num(o.med) : "no results", range(o), k ? zu(k) : "-",
				k && pr ? num(ratio(o.med, pr->v)) : "-");
			if (m && k)
				sb_addf(md, "| (hits, misses summed over the repetitions) | gcma, evict=%s "
					"| - | %lld, %lld | - | %zu | - |\n", sections[s], th, tm, k);
		}
	}
	sb_add(md, "\n");
	if (any_hits)
		sb_add(md, "Our `misses` counts every lookup of a page-in (each readahead folio of "
		       "every ext4 file, see kernel-patches/README), not only lookups of pages that "
		       "were once stored, so it understates the rate one would compute over "
		       "stored pages only.\n\n");
	if (ps.n) {
		sb_addf(md, "Why they differ: the published figures are from %s (Android face "
			"unlock on phones, no method given); ours from a page-cache-heavy scenario on ",
			pub_source(pub, FIG_LSF));
		describe_env(md, &ps);
		sb_add(md, ", whose working set and area size decide both numbers.\n\n");
		sources(md, &ps, "runs/<run>/samples.csv (`cleancache` `cached_pages` and "
			"`pool_pages`) and runs/<run>/snapshots/{before,after}/cleancache/{hits,misses}, "
			"as in the data/samples.csv and data/counters.csv that `cmabench report` writes",
			NULL);
	}
	for (size_t s = 0; s < nsets; s++)
		free(samples[s]);
	free(samples);
	free(v);
	free(ps.v);
}

/* ---- the document ---------------------------------------------------------- */

void reproduce_doc(const struct published *pub, const struct repro_set *sets, size_t nsets,
		   struct strbuf *md)
{
	struct lat_ratios lr;

	sb_add(md, "# Reproducing the published results\n\n"
	       "<!-- Generated by `cmabench reproduce` (`make reproduce-doc`); do not edit. -->\n\n");
	sb_addf(md, "Generated by `cmabench reproduce` from the published values in `%s` "
		"(transcribed from the sources each table names) and from these results "
		"directories:\n\n", pub->label);
	if (!nsets)
		sb_add(md, "- none\n");
	for (size_t s = 0; s < nsets; s++) {
		struct strlist scn = { 0 };
		size_t ok = 0;

		for (size_t i = 0; i < sets[s].ds.nruns; i++) {
			if (!sl_has(&scn, sets[s].meta[i].scenario))
				sl_add(&scn, sets[s].meta[i].scenario);
			ok += ds_run_ok(&sets[s].ds.runs[i]);
		}
		sb_addf(md, "- `%s/`: scenario", sets[s].label);
		for (size_t i = 0; i < scn.n; i++)
			sb_addf(md, "%s `%s`", i ? "," : "", scn.v[i]);
		sb_addf(md, "; %zu run%s, %zu ended ok\n", sets[s].ds.nruns,
			sets[s].ds.nruns == 1 ? "" : "s", ok);
		sl_free(&scn);
	}
	sb_add(md, "\nOurs is always a statistic of each repetition (one run in a fresh VM) "
	       "summarised over the repetitions: the median, the spread (lowest" DASH "highest "
	       "repetition) and n. Only runs that ended `ok` and only successful allocations "
	       "count; the runs left out are named under each table with their status. "
	       "\"ours / published\" is 1 where they agree. Sentences about the shape are "
	       "computed from the same numbers as the tables.\n\n");
	figure_latency(md, pub, sets, nsets, &lr);
	figure_background(md, pub, sets, nsets);
	figure_paper(md, pub, sets, nsets, &lr);
	figure_lsfmm(md, pub, sets, nsets);
	free(lr.pages);
	free(lr.ours);
	/* one trailing newline */
	while (md->len > 1 && md->buf[md->len - 1] == '\n' && md->buf[md->len - 2] == '\n')
		md->buf[--md->len] = '\0';
}
