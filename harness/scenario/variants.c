#include "scenario/variants.h"
#include "lib/env.h"
#include "scenario/arch.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct kvariant variants[KVARIANTS_MAX];
static unsigned int nvariants;
static bool loaded;

static const char *const known_keys[] = { "description", "source", "series", "arches", "offers" };

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
			return false;
	return true;
}

/* The blank-separated words of s, copied into out. */
static void split_words(const char *s, struct strlist *out)
{
	char *copy = xstrdup(s), *save = NULL;

	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		sl_add(out, w);
	free(copy);
}

void kvariant_free(struct kvariant *v)
{
	free(v->name);
	free(v->file);
	free(v->help);
	free(v->tree);
	free(v->series);
	sl_free(&v->series_files);
	free(v->arches);
	for (int a = 0; a < KVARIANT_ARCHES; a++)
		sl_free(&v->configs[a]);
	memset(v, 0, sizeof(*v));
}

static void sl_copy(struct strlist *dst, const struct strlist *src)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->n; i++)
		sl_add(dst, src->v[i]);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void kvariant_copy(struct kvariant *dst, const struct kvariant *v)
{
	*dst = *v;
	dst->name = dup_or_null(v->name);
	dst->file = dup_or_null(v->file);
	dst->help = dup_or_null(v->help);
	dst->tree = dup_or_null(v->tree);
	dst->series = dup_or_null(v->series);
	dst->arches = dup_or_null(v->arches);
	sl_copy(&dst->series_files, &v->series_files);
	for (int a = 0; a < KVARIANT_ARCHES; a++)
		sl_copy(&dst->configs[a], &v->configs[a]);
}

/*
 * A series file: under kernel-patches/, or beside the variant file when the
 * name starts with ./ or ../ (a variant of one's own kept outside the
 * project), or absolute.
 */
static char *series_path(const char *variant_file, const char *srcdir, const char *name)
{
	if (name[0] == '/')
		return xstrdup(name);
	if (!strncmp(name, "./", 2) || !strncmp(name, "../", 3)) {
		char *dir = xstrdup(variant_file);
		char *slash = strrchr(dir, '/');
		char *p;

		if (slash)
			*slash = '\0';
		p = slash ? path_join(dir, name) : xstrdup(name);
		free(dir);
		return p;
	}
	char *rel = xasprintf("kernel-patches/%s", name);
	char *p = path_join(srcdir, rel);

	free(rel);
	return p;
}

/* What one parse has seen: the line of each key, 0 if not given. */
struct seen {
	int description, source, series, arches, offers;
	int config[KVARIANT_ARCHES];
};

static int *seen_line(struct seen *s, const char *key, const struct cmb_arch *a)
{
	if (a)
		return &s->config[arch_index(a)];
	if (!strcmp(key, "description"))
		return &s->description;
	if (!strcmp(key, "source"))
		return &s->source;
	if (!strcmp(key, "series"))
		return &s->series;
	if (!strcmp(key, "arches"))
		return &s->arches;
	return &s->offers;
}

#define ERR(line, key, ...)                                               \
	do {                                                              \
		sb_addf(errs, "%s:%d: %s: ", path, line, key);            \
		sb_addf(errs, __VA_ARGS__);                               \
		sb_add(errs, "\n");                                       \
	} while (0)

static void parse_value(const char *path, int line, const char *key, char *val,
			const struct cmb_arch *a, const char *srcdir, struct kvariant *v,
			struct strbuf *errs)
{
	struct strlist w = { 0 };

	split_words(val, &w);
	if (a) {
		if (!w.n)
			ERR(line, key, "no config fragment");
		for (size_t i = 0; i < w.n; i++) {
			/* a fragment of one's own: beside the variant or absolute */
			bool own = w.v[i][0] == '.' || w.v[i][0] == '/';
			char *rel = own ? series_path(path, srcdir, w.v[i])
					: xasprintf("kernel-patches/configs/%s", w.v[i]);
			char *p = own ? abs_path(rel) : path_join(srcdir, rel);

			if (!p || !path_exists(p))
				ERR(line, key, "no such config fragment: %s", rel);
			sl_add(&v->configs[arch_index(a)], own && p ? p : w.v[i]);
			free(rel);
			free(p);
		}
	} else if (!strcmp(key, "source")) {
		if (w.n == 1 && !strcmp(w.v[0], "debian")) {
			v->source = KV_SOURCE_DEBIAN;
		} else if (w.n == 2 && !strcmp(w.v[0], "tree")) {
			v->source = KV_SOURCE_TREE;
			v->tree = w.v[1][0] == '/' ? xstrdup(w.v[1]) : path_join(srcdir, w.v[1]);
			if (!is_dir(v->tree))
				ERR(line, key, "%s: not a directory", v->tree);
		} else {
			ERR(line, key, "'%s': expected 'debian' or 'tree PATH'", val);
		}
	} else if (!strcmp(key, "series")) {
		bool none = false;

		for (size_t i = 0; i < w.n; i++)
			none |= !strcmp(w.v[i], "none");
		if (w.n == 0 || (none && w.n > 1)) {
			ERR(line, key, "expected series files, or none");
		} else if (!none) {
			for (size_t i = 0; i < w.n; i++) {
				char *p = series_path(path, srcdir, w.v[i]);

				bool own = w.v[i][0] == '.' || w.v[i][0] == '/';

				if (!path_exists(p) || is_dir(p))
					ERR(line, key, "no such series file: %s%s",
					    own ? "" : "kernel-patches/", own ? p : w.v[i]);
				/* a name under kernel-patches/ is found where the build looks */
				sl_add(&v->series_files, own ? p : w.v[i]);
				free(p);
			}
			v->series = xstrdup(val);
		}
	} else if (!strcmp(key, "arches")) {
		struct strbuf names = { 0 };

		sb_init(&names);
		if (!w.n)
			ERR(line, key, "no architecture");
		for (size_t i = 0; i < w.n; i++) {
			if (!arch_find(w.v[i]))
				ERR(line, key, "unknown architecture '%s'", w.v[i]);
			sb_addf(&names, "%s%s", i ? " " : "", w.v[i]);
		}
		v->arches = sb_detach(&names);
	} else if (!strcmp(key, "offers")) {
		for (size_t i = 0; i < w.n; i++) {
			if (!strcmp(w.v[i], "gcma"))
				v->has_gcma = true;
			else
				ERR(line, key, "unknown offer '%s' (known: gcma)", w.v[i]);
		}
	} else {
		v->help = xstrdup(val);
	}
	sl_free(&w);
}

int kvariant_parse(const char *path, const char *srcdir, struct kvariant *v,
		   struct strbuf *errs)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *text = read_file(path, NULL);
	size_t before;
	struct seen seen = { 0 };
	char *save = NULL;
	int lineno = 0;

	if (!errs->buf)
		sb_init(errs);
	before = errs->len;
	memset(v, 0, sizeof(*v));
	v->name = xstrdup(base);
	v->file = xstrdup(path);
	if (!text) {
		sb_addf(errs, "%s: cannot read: %s\n", path, strerror(errno));
		return -1;
	}
	if (!valid_name(base))
		sb_addf(errs, "%s: '%s' is not a variant name (letters, digits, '-', '_')\n", path,
			base);
	for (char *l = text; l; l = save) {
		char *nl = strchr(l, '\n'), *eq, *key, *val;
		const struct cmb_arch *a = NULL;
		int *prev;

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		l = trim(l);
		if (!*l || *l == '#')
			continue;
		eq = strchr(l, '=');
		if (!eq) {
			sb_addf(errs, "%s:%d: expected key = value\n", path, lineno);
			continue;
		}
		*eq = '\0';
		key = trim(l);
		val = trim(eq + 1);
		if (!strncmp(key, "config.", 7)) {
			a = arch_find(key + 7);
			if (!a) {
				ERR(lineno, key, "unknown architecture '%s'", key + 7);
				continue;
			}
		} else {
			bool known = false;

			for (size_t i = 0; i < ARRAY_SIZE(known_keys); i++)
				known |= !strcmp(key, known_keys[i]);
			if (!known) {
				ERR(lineno, key, "unknown key (known: description, source, series, "
					"arches, config.ARCH, offers)");
				continue;
			}
		}
		prev = seen_line(&seen, key, a);
		if (*prev) {
			ERR(lineno, key, "given twice (first on line %d)", *prev);
			continue;
		}
		*prev = lineno;
		parse_value(path, lineno, key, val, a, srcdir, v, errs);
	}
	free(text);
	if (!seen.source)
		sb_addf(errs, "%s: source: missing (debian, or tree PATH)\n", path);
	if (!seen.arches)
		sb_addf(errs, "%s: arches: missing (x86_64, arm64)\n", path);
	if (v->source == KV_SOURCE_TREE && v->series)
		ERR(seen.series, "series", "a tree takes no series (commit the patches to it)");
	/* arches and the config.ARCH lines name the same architectures */
	for (unsigned int a = 0; seen.arches && a < cmb_arches_count; a++) {
		char padded[64], name[32];
		bool listed;

		snprintf(padded, sizeof(padded), " %s ", v->arches ? v->arches : "");
		snprintf(name, sizeof(name), " %s ", cmb_arches[a].name);
		listed = strstr(padded, name) != NULL;
		if (listed && !seen.config[a])
			ERR(seen.arches, "arches", "%s has no config.%s line", cmb_arches[a].name,
			    cmb_arches[a].name);
		else if (!listed && seen.config[a])
			sb_addf(errs, "%s:%d: config.%s: %s is not in arches\n", path, seen.config[a],
				cmb_arches[a].name, cmb_arches[a].name);
	}
	if (!v->help)
		v->help = xstrdup("");
	return errs->len > before ? -1 : 0;
}

void kvariants_unload(void)
{
	for (unsigned int i = 0; i < nvariants; i++)
		kvariant_free(&variants[i]);
	nvariants = 0;
	loaded = false;
}

static int cmp_variant(const void *a, const void *b)
{
	return strcmp(((const struct kvariant *)a)->name, ((const struct kvariant *)b)->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool skipped(const char *name)
{
	size_t n = strlen(name);

	return name[0] == '.' || (n && name[n - 1] == '~') || !strcmp(name, "README");
}

/* The variant files of dir, sorted; a missing directory holds none. */
static int read_dir(const char *dir, const char *srcdir, struct strbuf *errs)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct strlist names = { 0 };

	if (!d) {
		if (errno == ENOENT)
			return 0;
		sb_addf(errs, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (!skipped(de->d_name))
			sl_add(&names, de->d_name);
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.n; i++) {
		char *path = path_join(dir, names.v[i]);
		struct kvariant v;
		const struct kvariant *dup = NULL;

		if (is_dir(path)) {
			free(path);
			continue;
		}
		for (unsigned int j = 0; j < nvariants; j++)
			if (!strcmp(variants[j].name, names.v[i]))
				dup = &variants[j];
		if (dup) {
			sb_addf(errs, "%s: name: variant '%s' is already defined by %s\n", path,
				names.v[i], dup->file);
		} else if (kvariant_parse(path, srcdir, &v, errs)) {
			kvariant_free(&v);
		} else if (nvariants == KVARIANTS_MAX) {
			sb_addf(errs, "%s: more than %d variants\n", path, KVARIANTS_MAX);
			kvariant_free(&v);
		} else {
			variants[nvariants++] = v;
		}
		free(path);
	}
	sl_free(&names);
	return 0;
}

int kvariants_load_dirs(const char *const dirs[], const char *srcdir, struct strbuf *errs)
{
	size_t before;

	if (!errs->buf)
		sb_init(errs);
	before = errs->len;
	kvariants_unload();
	for (int i = 0; dirs[i]; i++)
		read_dir(dirs[i], srcdir, errs);
	if (!nvariants && errs->len == before)
		sb_add(errs, "no kernel variants (kernel-patches/variants/ is empty)\n");
	if (errs->len > before) {
		kvariants_unload();
		return -1;
	}
	qsort(variants, nvariants, sizeof(*variants), cmp_variant);
	loaded = true;
	return 0;
}

int kvariants_load(const char *srcdir, struct strbuf *errs)
{
	const char *extra = getenv("CMABENCH_VARIANTS");
	struct strlist dirs = { 0 };
	int rc;
	char *own = path_join(srcdir, "kernel-patches/variants");

	sl_add(&dirs, own);
	free(own);
	if (extra && *extra) {
		char *copy = xstrdup(extra), *save = NULL;

		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
			sl_add(&dirs, d);
		free(copy);
	}
	rc = kvariants_load_dirs((const char *const *)dirs.v, srcdir, errs);
	sl_free(&dirs);
	return rc;
}

/* A program that never loaded the variants (a unit test) gets the project's. */
static void ensure_loaded(void)
{
	struct cmb_env env;
	struct strbuf errs = { 0 };

	if (loaded)
		return;
	env_init(&env);
	if (kvariants_load(env.srcdir, &errs)) {
		fputs(errs.buf, stderr);
		exit(2);
	}
	sb_free(&errs);
}

unsigned int kvariants_count(void)
{
	ensure_loaded();
	return nvariants;
}

const struct kvariant *kvariant_at(unsigned int i)
{
	ensure_loaded();
	return i < nvariants ? &variants[i] : NULL;
}

unsigned int kvariant_index(const struct kvariant *v)
{
	return (unsigned int)(v - variants);
}

const struct kvariant *kvariant_find(const char *name)
{
	ensure_loaded();
	for (unsigned int i = 0; i < nvariants; i++)
		if (!strcmp(variants[i].name, name))
			return &variants[i];
	return NULL;
}

const char *const *kvariant_configs(const struct kvariant *v, const char *arch)
{
	const struct cmb_arch *a = arch_find(arch);

	if (!a || !v->configs[arch_index(a)].n)
		return NULL;
	return (const char *const *)v->configs[arch_index(a)].v;
}

bool kvariant_suits(const struct kvariant *v, const char *arch)
{
	return kvariant_configs(v, arch) != NULL;
}
