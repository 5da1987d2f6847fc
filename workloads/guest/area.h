/*
 * The state of a reserved area, read in the guest, shared by cma-alloc
 * (occupancy at each request), area-state (the sampler) and area-fill.
 *
 * CMA area: its pages are free (in the buddy allocator), allocated by CMA
 * (debugfs used), or held by tenants: movable pages the kernel put there.
 * tenants = count - used - free, free from meminfo's CmaFree (the only CMA
 * area of a cma set-up). With walk, /proc/kpageflags splits the tenants
 * into anonymous and file (page cache) pages on the LRU lists.
 * GCMA area: its pool lent to cleancache; tenants = cleancache's
 * cached_pages, total = pool_pages; with walk, its pages walked as a CMA
 * area's (found on no LRU list: 0 and 0).
 */
#ifndef AREA_H
#define AREA_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct area_state {
	int gcma;                   /* 1: a GCMA area (cleancache pool) */
	long total, used, free, tenants;
	long anon, file;            /* with walk: tenants on the LRU lists, -1 otherwise */
};

static long area_read_long(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* Where the CMA areas' debugfs directories are (cma-alloc --dir changes it). */
static const char *area_cma_dir = "/sys/kernel/debug/cma";

static long area_debugfs(const char *area, const char *file)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s/%s", area_cma_dir, area, file);
	return area_read_long(p);
}

/* A /proc/meminfo field in kB, -1 if absent. */
static long area_meminfo_kb(const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

#define KPF_LRU 5
#define KPF_BUDDY 10
#define KPF_ANON 12

/* Counts the LRU pages of [base, base + count) by kind; -1 without kpageflags. */
static int area_walk(long base, long count, long *anon, long *file)
{
	uint64_t flags[512];
	int fd = open("/proc/kpageflags", O_RDONLY);

	*anon = *file = 0;
	if (fd < 0)
		return -1;
	for (long p = 0; p < count;) {
		long n = count - p < 512 ? count - p : 512;
		ssize_t got = pread(fd, flags, n * 8, (off_t)(base + p) * 8);

		if (got <= 0)
			break;
		for (long i = 0; i < got / 8; i++)
			if (flags[i] >> KPF_LRU & 1) {
				if (flags[i] >> KPF_ANON & 1)
					(*anon)++;
				else
					(*file)++;
			}
		p += got / 8;
	}
	close(fd);
	return 0;
}

static int area_read(const char *area, int walk, struct area_state *s)
{
	memset(s, 0, sizeof(*s));
	s->anon = s->file = -1;
	if (!strcmp(area, "gcma")) {
		s->gcma = 1;
		s->total = area_read_long("/sys/kernel/debug/cleancache/pool_pages");
		s->tenants = area_read_long("/sys/kernel/debug/cleancache/cached_pages");
		s->used = area_read_long("/sys/kernel/debug/cleancache/lent_pages");
		s->free = s->total >= 0 && s->tenants >= 0 && s->used >= 0 ?
			  s->total - s->tenants - s->used : -1;
		/* the same walk over its pages where the cma debugfs lists it (none
		 * are on the LRU): a sampler pays it in both set-ups alike */
		if (walk) {
			long base = area_debugfs(area, "base_pfn"), n = area_debugfs(area, "count");

			if (base >= 0 && n > 0)
				area_walk(base, n, &s->anon, &s->file);
		}
		return s->total > 0 && s->tenants >= 0 ? 0 : -1;
	}
	s->total = area_debugfs(area, "count");
	s->used = area_debugfs(area, "used");
	s->free = area_meminfo_kb("CmaFree");
	if (s->total <= 0 || s->used < 0 || s->free < 0)
		return -1;
	s->free /= 4;               /* kB -> 4 KiB pages */
	s->tenants = s->total - s->used - s->free;
	if (s->tenants < 0)
		s->tenants = 0;
	if (walk)
		area_walk(area_debugfs(area, "base_pfn"), s->total, &s->anon, &s->file);
	return 0;
}

/* Tenants as a percentage of the area. */
static double area_occupancy(const struct area_state *s)
{
	return s->total > 0 ? 100.0 * s->tenants / s->total : -1;
}

#endif
