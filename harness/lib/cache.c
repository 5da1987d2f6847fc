/*
 * The cache's bounds (cache.h). An entry's last use is its modification
 * time: the kernel build, the image and the scratch template are touched
 * when reused, so the oldest is the one unused longest. An entry used in
 * the last hour may belong to a cmabench running beside us: kept. tmp/
 * (runs' scratch disks) loses only what no run has touched for a day.
 */
#include "lib/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

const struct cache_bound cache_bounds[] = {
	{ "kernels", 4ULL << 30 },
	{ "images", 4ULL << 30 },
	{ "scratch", 8ULL << 30 },
	{ "sets", 2ULL << 30 },
};
const size_t ncache_bounds = sizeof(cache_bounds) / sizeof(cache_bounds[0]);

/* Disk use of path and everything under it. */
static uint64_t disk_use(const char *path)
{
	struct stat st;
	uint64_t n;
	DIR *d;
	struct dirent *e;

	if (lstat(path, &st))
		return 0;
	n = (uint64_t)st.st_blocks * 512;
	if (!S_ISDIR(st.st_mode) || !(d = opendir(path)))
		return n;
	while ((e = readdir(d))) {
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = path_join(path, e->d_name);
		n += disk_use(p);
		free(p);
	}
	closedir(d);
	return n;
}

/* Whether another process holds dir/.NAME.lock (a build of it). */
static bool locked(const char *dir, const char *name)
{
	char *p = xasprintf("%s/.%s.lock", dir, name);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	bool held = false;

	free(p);
	if (fd < 0)
		return false;
	if (flock(fd, LOCK_EX | LOCK_NB))
		held = errno == EWOULDBLOCK;
	else
		flock(fd, LOCK_UN);
	close(fd);
	return held;
}

static int by_use(const void *x, const void *y)
{
	const struct cache_entry *a = x, *b = y;

	return (a->used > b->used) - (a->used < b->used);
}

/* dir's entries: names without dot files; "NAME.log" counts with NAME. */
static size_t list_entries(const char *dir, struct cache_entry **out)
{
	struct strlist names = { 0 };
	struct cache_entry *v;
	size_t n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			sl_add(&names, e->d_name);
	closedir(d);
	v = xcalloc(names.n ? names.n : 1, sizeof(*v));
	for (size_t i = 0; i < names.n; i++) {
		const char *nm = names.v[i];
		size_t len = strlen(nm);
		char *p = path_join(dir, nm);
		struct stat st;

		if (len > 4 && !strcmp(nm + len - 4, ".log")) {
			char *owner = xasprintf("%.*s", (int)(len - 4), nm);
			bool has = sl_has(&names, owner);

			free(owner);
			if (has) {          /* its owner's: counted there */
				free(p);
				continue;
			}
		}
		if (!stat(p, &st)) {
			char *log = xasprintf("%s.log", p);

			v[n].name = xstrdup(nm);
			v[n].bytes = disk_use(p) + disk_use(log);
			v[n].used = st.st_mtime;
			n++;
			free(log);
		}
		free(p);
	}
	sl_free(&names);
	qsort(v, n, sizeof(*v), by_use);
	*out = v;
	return n;
}

static void remove_entry(const char *dir, const char *name)
{
	char *p = path_join(dir, name), *log = xasprintf("%s.log", p);

	rm_rf(p);
	unlink(log);
	free(log);
	free(p);
}

uint64_t cache_prune(const char *dir, uint64_t max_bytes, const struct strlist *keep,
		     double recent_s, time_t now, FILE *log, uint64_t *left)
{
	struct cache_entry *v;
	size_t n = list_entries(dir, &v);
	uint64_t total = 0, freed = 0;

	for (size_t i = 0; i < n; i++) {
		total += v[i].bytes;
		v[i].busy = (keep && sl_has(keep, v[i].name)) || locked(dir, v[i].name) ||
			    difftime(now, v[i].used) < recent_s;
	}
	for (size_t i = 0; i < n && total > max_bytes; i++) {
		char when[32];

		if (v[i].busy)
			continue;
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M", localtime(&v[i].used));
		if (log)
			fprintf(log, "[cache] %s: removed %s (%.1f MiB, last used %s)\n", dir,
				v[i].name, v[i].bytes / 1048576.0, when);
		remove_entry(dir, v[i].name);
		total -= v[i].bytes;
		freed += v[i].bytes;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	if (left)
		*left = total;
	return freed;
}

void cache_touch(const char *path)
{
	utimensat(AT_FDCWD, path, NULL, 0);
}

void cache_prune_all(const struct cmb_env *env, bool clean, const struct strlist *keep, FILE *log)
{
	const char *max_env = getenv("CMABENCH_CACHE_MAX");
	char *end = NULL;
	double gib = max_env ? strtod(max_env, &end) : 0;
	bool override = max_env && end != max_env && gib >= 0;

	for (size_t i = 0; i < ncache_bounds; i++) {
		char *dir = env_cache(env, cache_bounds[i].dir);
		uint64_t max = clean ? 0 : override ? (uint64_t)(gib * (1ULL << 30))
						      : cache_bounds[i].max_bytes;
		uint64_t left = 0, freed;

		freed = cache_prune(dir, max, keep, clean ? 0 : 3600, time(NULL), log, &left);
		if (log && (freed || clean))
			fprintf(log, "[cache] %s: %.1f MiB freed, %.1f MiB left (bound %.1f GiB)\n",
				dir, freed / 1048576.0, left / 1048576.0, max / 1073741824.0);
		free(dir);
	}
	{
		/* tmp/: the scratch disks of runs. A running VM writes its own,
		 * so one untouched for a day belongs to a run that died without
		 * its cleanup (Slurm nodes share the cache: no pid to ask). */
		char *dir = env_cache(env, "tmp");
		uint64_t freed = cache_prune(dir, 0, keep, 86400, time(NULL), log, NULL);

		if (log && freed)
			fprintf(log, "[cache] %s: %.1f MiB of dead runs' scratch disks freed\n", dir,
				freed / 1048576.0);
		free(dir);
	}
}
