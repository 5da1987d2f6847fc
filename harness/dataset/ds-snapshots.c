/*
 * snapshots/{before,after}/: the counters the guest copied before and
 * after the measured phase (vmstat, meminfo, sysfs and debugfs cma, the
 * cleancache debugfs), one row per counter with both sides.
 */
#include "dataset/ds-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

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

void ds_add_counter(struct dataset *ds, size_t ri, const char *source, const char *name,
			long long before, long long after, const char *flag)
{
	struct ds_counter *c = ds_grow(&ds->counters, &ds->ncounters, &ds->cap_counters,
				       sizeof(*c));

	c->run = ri;
	c->source = xstrdup(source);
	c->name = xstrdup(name);
	c->before = before;
	c->after = after;
	if (flag)
		DS_FLAG(c, flag);
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
		char *p = xasprintf("%s/%s/snapshots/%s/%s", ds->runs_dir, r->name, tag[s], rel);

		ok[s] = read_counters(p, fname, multi ? fname : NULL, &kv[s]) == 0;
		free(p);
		if (!ok[s]) {
			char *f = xasprintf("snapshots/%s/%s", tag[s], rel);

			ds_problem(r, f, "missing");
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
		ds_add_counter(ds, ri, source, kv[0].v[i].name, kv[0].v[i].v, after,
			    found ? NULL : "missing-after");
	}
	for (size_t j = 0; j < kv[1].n; j++) {
		bool found = false;

		for (size_t i = 0; i < kv[0].n && !found; i++)
			found = !strcmp(kv[1].v[j].name, kv[0].v[i].name);
		if (!found)
			ds_add_counter(ds, ri, source, kv[1].v[j].name, DS_NONE, kv[1].v[j].v,
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
		char *p = xasprintf("%s/%s/snapshots/%s/%s", ds->runs_dir, r->name,
				    s ? "after" : "before", rel);

		ds_list_dir(p, s ? &b : &a);
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

void ds_read_snapshots(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	char *snap = ds_run_path(ds, r, "snapshots");
	struct strlist areas = { 0 };

	if (!is_dir(snap)) {
		if (ds_run_ok(r))
			ds_problem(r, "snapshots", "missing");
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
 * A script's own counter copies (gcma-functional's cleancache-PHASE/): one
 * counter per file of source "cleancache@PHASE", counted from 0.
 */
void ds_read_phases(struct dataset *ds, size_t ri)
{
	struct ds_run *r = &ds->runs[ri];
	char *dir = ds_run_path(ds, r, "");
	struct strlist subs = { 0 };

	ds_list_dir(dir, &subs);
	for (size_t i = 0; i < subs.n; i++) {
		struct strlist files = { 0 };
		char *sub, *src;

		if (strncmp(subs.v[i], "cleancache-", 11))
			continue;
		sub = path_join(dir, subs.v[i]);
		src = xasprintf("cleancache@%s", subs.v[i] + 11);
		ds_list_dir(sub, &files);
		for (size_t f = 0; f < files.n; f++) {
			char *p = path_join(sub, files.v[f]);
			struct kvlist kv = { 0 };

			if (!read_counters(p, files.v[f], NULL, &kv))
				for (size_t k = 0; k < kv.n; k++)
					ds_add_counter(ds, ri, src, kv.v[k].name, 0, kv.v[k].v, NULL);
			kv_free(&kv);
			free(p);
		}
		sl_free(&files);
		free(src);
		free(sub);
	}
	sl_free(&subs);
	free(dir);
}
