/*
 * sampler: every second, cleancache's counters, each CMA area's use,
 * meminfo's MemFree, Cached, AnonPages and CmaFree, and the area's state
 * (area.h, with the kpageflags walk) as tidy "uptime,source,name,value"
 * rows on stdout. It is a reader of ours: with --lock it takes a shared
 * flock of that file for each sample, which cma-alloc holds exclusively
 * from the state read before a burst to its free, so no sample falls in a
 * timed window; --windows records each sample's CLOCK_MONOTONIC start and
 * end (alloc.csv's clock), from which the report counts the requests a
 * sample overlapped. The walk runs on the GCMA area's pages too (where the
 * cma debugfs lists it), so both set-ups pay it alike.
 */
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "area.h"
#include "guest.h"

/* Every regular file of dir as "t,source,name,value" (its first number). */
static void dir_rows(FILE *out, const char *t, const char *dir, const char *source)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[512];
	long v;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if ((v = area_read_long(p)) >= 0)
			fprintf(out, "%s,%s,%s,%ld\n", t, source, e->d_name, v);
	}
	if (d)
		closedir(d);
}

/* Each CMA area's debugfs "used" as "t,cma-NAME,used,N". */
static void cma_rows(FILE *out, const char *t)
{
	DIR *d = opendir(area_cma_dir);
	struct dirent *e;
	long v;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if ((v = area_debugfs(e->d_name, "used")) >= 0)
			fprintf(out, "%s,cma-%s,used,%ld\n", t, e->d_name, v);
	}
	if (d)
		closedir(d);
}

/* The area's state, with the kpageflags walk (area.h: both kinds of area). */
static void area_rows(FILE *out, const char *t, const char *area)
{
	struct area_state s;

	if (area_read(area, 1, &s))
		return;
	fprintf(out, "%s,area,total,%ld\n%s,area,used,%ld\n%s,area,free,%ld\n"
		"%s,area,tenants,%ld\n%s,area,occupancy_pct,%.1f\n", t, s.total, t, s.used, t,
		s.free, t, s.tenants, t, area_occupancy(&s));
	if (s.anon >= 0)
		fprintf(out, "%s,area,anon,%ld\n%s,area,file,%ld\n", t, s.anon, t, s.file);
}

/* One sample, stamped with /proc/uptime as the rows always were. */
static void sample(FILE *out, const char *area)
{
	static const char *const keys[] = { "MemFree", "Cached", "AnonPages", "CmaFree" };
	char t[32] = "0";
	FILE *u = fopen("/proc/uptime", "r");

	if (u) {
		if (fscanf(u, "%31s", t) != 1)
			strcpy(t, "0");
		fclose(u);
	}
	dir_rows(out, t, "/sys/kernel/debug/cleancache", "cleancache");
	cma_rows(out, t);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		long kb = area_meminfo_kb(keys[i]);

		if (kb >= 0)
			fprintf(out, "%s,meminfo,%s,%ld\n", t, keys[i], kb);
	}
	if (area && *area)
		area_rows(out, t, area);
	fflush(out);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "area", required_argument, NULL, 'a' },
		{ "lock", required_argument, NULL, 'l' },
		{ "windows", required_argument, NULL, 'w' },
		{ 0 },
	};
	const char *area = NULL, *lock = NULL, *windows = NULL;
	FILE *w = NULL;
	int c, lfd = -1;

	while ((c = getopt_long(argc, argv, "a:l:w:", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': area = optarg; break;
		case 'l': lock = optarg; break;
		case 'w': windows = optarg; break;
		default:
			fprintf(stderr, "usage: sampler [--area NAME] [--lock FILE] [--windows CSV]\n");
			return 2;
		}
	}
	if (lock && (lfd = open(lock, O_RDWR | O_CREAT, 0644)) < 0) {
		perror("sampler: lock");
		return 1;
	}
	if (windows && !(w = fopen(windows, "w"))) {
		perror("sampler: windows");
		return 1;
	}
	if (w) {
		fprintf(w, "start_ns,end_ns\n");
		fflush(w);
	}
	stop_on_signals();
	printf("uptime,source,name,value\n");
	while (!stop) {
		long long t0, t1;

		if (lfd >= 0 && flock(lfd, LOCK_SH))
			break;
		t0 = now_ns();
		sample(stdout, area);
		t1 = now_ns();
		if (lfd >= 0)
			flock(lfd, LOCK_UN);
		if (w) {
			fprintf(w, "%lld,%lld\n", t0, t1);
			fflush(w);
		}
		sleep_ms(1000);
	}
	if (w)
		fclose(w);
	return 0;
}
