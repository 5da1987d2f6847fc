/*
 * The cache's bounds (lib/cache.c): kernels, root images, scratch disk
 * templates and unpacked result sets grow with every variant, plan and
 * set; each directory is kept under a size bound by removing its least
 * recently used entries, never one in use.
 */
#ifndef CMB_CACHE_H
#define CMB_CACHE_H

#include "lib/env.h"
#include "lib/util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* One entry: a file or directory, with its "NAME.log" and ".NAME.lock". */
struct cache_entry {
	char *name;
	uint64_t bytes;             /* disk use (allocated blocks), with its log */
	time_t used;                /* last use: its modification time (reuse touches it) */
	bool busy;                  /* kept: named in use, locked, or used recently */
};

struct cache_bound {
	const char *dir;            /* under the cache: "kernels", "images", ... */
	uint64_t max_bytes;
};

/* The bounded directories and their default bounds (CMABENCH_CACHE_MAX
 * overrides every one). */
extern const struct cache_bound cache_bounds[];
extern const size_t ncache_bounds;

/*
 * Removes the least recently used entries of dir until it holds at most
 * max_bytes (max_bytes 0: every entry), never one named in keep, one whose
 * ".NAME.lock" another process holds, or one used within recent_s seconds
 * of now. Prints each removal to log (NULL: quiet). Returns the bytes
 * freed; *left: what dir holds after.
 */
uint64_t cache_prune(const char *dir, uint64_t max_bytes, const struct strlist *keep,
		     double recent_s, time_t now, FILE *log, uint64_t *left);
/* Marks path as used now (its modification time): a reused entry. */
void cache_touch(const char *path);
/* Every bounded directory of env's cache pruned to its bound (clean: to
 * nothing), keeping keep, and tmp/'s scratch disks untouched for a day;
 * prints what goes. */
void cache_prune_all(const struct cmb_env *env, bool clean, const struct strlist *keep, FILE *log);

#endif
