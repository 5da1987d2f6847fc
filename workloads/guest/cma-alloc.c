/*
 * cma-alloc: the guest's allocation driver. Allocates and frees pages
 * through /sys/kernel/debug/cma/<area>/{alloc,free} following a plan:
 *   sweep   each size --count times (bursts of 1);
 *   burst   --burst allocations back to back (a camera pipeline's buffers),
 *           held together for --hold-ms, then freed together.
 * With --loop the sweep starts over until SIGTERM (a background beside a
 * job: every size keeps coming for as long as the job runs).
 * Requests are spaced by --interval-ms plus a uniform jitter of
 * +-jitter-ms drawn from a generator seeded with --seed, so a plan replays
 * exactly. One CSV row per request; a failed allocation is a data point
 * (success=0, errno), not an error of the driver.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "area.h"
#include "guest.h"

#define MAX_SIZES 64

/* splitmix64: small, seedable, the same sequence everywhere. */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Writes "n" to path; returns 0 or the errno of the write. */
static int write_pages(const char *path, long pages)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%ld", pages);
	int fd = open(path, O_WRONLY);
	int e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, buf, len) != len)
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	return e;
}

/* Frees through path, under an exclusive flock of lock_fd when >= 0. */
static int free_pages(const char *path, long pages, int lock_fd)
{
	int e;

	if (lock_fd >= 0 && flock(lock_fd, LOCK_EX))
		return errno;
	e = write_pages(path, pages);
	if (lock_fd >= 0)
		flock(lock_fd, LOCK_UN);
	return e;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: cma-alloc --area NAME [--dir DIR] [--count N] [--pages P[,P...]]\n"
		"                 [--burst K] [--hold-ms MS] [--interval-ms MS] [--jitter-ms MS]\n"
		"                 [--seed S] [--out FILE] [--loop] [--free-lock FILE]\n"
		"For each size, N bursts of K allocations through DIR/NAME/alloc (default\n"
		"DIR /sys/kernel/debug/cma), held MS, freed through DIR/NAME/free. CSV:\n"
		"seq,burst,pages,start_ns,latency_ns,success,errno,free_latency_ns,\n"
		"area_total,area_tenants,area_occupancy_pct (the area's state just before the\n"
		"burst's first request: tenants are movable pages in a CMA area, cached pages\n"
		"in a GCMA one). --free-lock: frees under an flock of FILE, for drivers that\n"
		"share an area: debugfs keeps one list of allocations per area, and a free\n"
		"that finds it emptied by another driver's free frees nothing (mm/cma_debug.c)\n");
}

static int parse_num(const char *opt, const char *s, double min, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (*end || end == s || v < min) {
		fprintf(stderr, "cma-alloc: --%s: '%s' is not a valid value\n", opt, s);
		return -1;
	}
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "area", required_argument, NULL, 'a' },
		{ "dir", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, 'n' },
		{ "pages", required_argument, NULL, 'p' },
		{ "burst", required_argument, NULL, 'b' },
		{ "hold-ms", required_argument, NULL, 'H' },
		{ "interval-ms", required_argument, NULL, 'i' },
		{ "jitter-ms", required_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "loop", no_argument, NULL, 'l' },
		{ "free-lock", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dir = "/sys/kernel/debug/cma", *area = NULL, *out = NULL, *lock = NULL;
	double count = 1, burst = 1, hold = 0, interval = 0, jitter = 0, seed = 1;
	long sizes[MAX_SIZES];
	int nsizes = 0, c, seq = 0, bursts = 0, failures = 0, loop = 0, lock_fd = -1;
	char alloc_path[4096], free_path[4096];
	FILE *f = stdout;

	while ((c = getopt_long(argc, argv, "a:d:n:p:b:H:i:j:s:o:lL:h", opts, NULL)) != -1) {
		char *end, *tok, *save = NULL;
		int bad = 0;

		switch (c) {
		case 'a': area = optarg; break;
		case 'd': dir = optarg; break;
		case 'o': out = optarg; break;
		case 'n': bad = parse_num("count", optarg, 0, &count); break;
		case 'b': bad = parse_num("burst", optarg, 1, &burst); break;
		case 'H': bad = parse_num("hold-ms", optarg, 0, &hold); break;
		case 'i': bad = parse_num("interval-ms", optarg, 0, &interval); break;
		case 'j': bad = parse_num("jitter-ms", optarg, 0, &jitter); break;
		case 's': bad = parse_num("seed", optarg, 0, &seed); break;
		case 'p':
			for (tok = strtok_r(optarg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				long v = strtol(tok, &end, 10);

				if (*end || v <= 0 || nsizes == MAX_SIZES) {
					fprintf(stderr, "cma-alloc: --pages: bad size '%s'\n", tok);
					return 2;
				}
				sizes[nsizes++] = v;
			}
			break;
		case 'l': loop = 1; break;
		case 'L': lock = optarg; break;
		case 'h': usage(); return 0;
		default: usage(); return 2;
		}
		if (bad)
			return 2;
	}
	if (!area || !nsizes) {
		usage();
		return 2;
	}
	if (burst > 256) {
		fprintf(stderr, "cma-alloc: --burst: at most 256\n");
		return 2;
	}
	if (jitter > interval) {
		fprintf(stderr, "cma-alloc: --jitter-ms must not exceed --interval-ms\n");
		return 2;
	}
	rng_state = (uint64_t)seed;
	area_cma_dir = dir;
	/* as a background loop: finish the burst, write the CSV */
	stop_on_signals();
	snprintf(alloc_path, sizeof(alloc_path), "%s/%s/alloc", dir, area);
	snprintf(free_path, sizeof(free_path), "%s/%s/free", dir, area);
	if (access(alloc_path, W_OK)) {
		fprintf(stderr, "cma-alloc: %s: %s\n", alloc_path, strerror(errno));
		return 1;
	}
	if (lock && (lock_fd = open(lock, O_RDWR | O_CREAT, 0644)) < 0) {
		fprintf(stderr, "cma-alloc: %s: %s\n", lock, strerror(errno));
		return 1;
	}
	if (out && !(f = fopen(out, "w"))) {
		fprintf(stderr, "cma-alloc: %s: %s\n", out, strerror(errno));
		return 1;
	}
	fprintf(f, "seq,burst,pages,start_ns,latency_ns,success,errno,free_latency_ns,"
		"area_total,area_tenants,area_occupancy_pct\n");
	do {
		for (int s = 0; s < nsizes && !stop; s++) {
			for (long i = 0; i < (long)count && !stop; i++, bursts++) {
				long long start[256], lat[256], t_free0, t_free1;
				struct area_state st[256];
				int err[256], k = (int)burst;
				long held = 0;

				if (bursts > 0 && interval > 0) {
					double u = (rng_next() >> 11) * (1.0 / 9007199254740992.0);

					sleep_ms(interval + (2 * u - 1) * jitter);
				}
				for (int b = 0; b < k; b++) {
					/* Read once per burst: a read between back-to-back requests
					 * would stretch the burst it measures. */
					if (b)
						st[b] = st[0];
					else if (area_read(area, 0, &st[b]))
						st[b].total = st[b].tenants = -1;
					start[b] = now_ns();
					err[b] = write_pages(alloc_path, sizes[s]);
					lat[b] = now_ns() - start[b];
					if (!err[b])
						held += sizes[s];
					else
						failures++;
				}
				sleep_ms(hold);
				t_free0 = now_ns();
				/* debugfs frees whole earlier allocations, up to the count written */
				if (held && free_pages(free_path, held, lock_fd)) {
					fprintf(stderr, "cma-alloc: freeing %ld pages: %s\n", held, strerror(errno));
					return 1;
				}
				t_free1 = now_ns();
				for (int b = 0; b < k; b++) {
					fprintf(f, "%d,%d,%ld,%lld,%lld,%d,%d,%lld,", seq++, bursts, sizes[s],
						start[b], lat[b], !err[b], err[b],
						held ? t_free1 - t_free0 : 0);
					if (st[b].total > 0)
						fprintf(f, "%ld,%ld,%.1f\n", st[b].total, st[b].tenants,
							area_occupancy(&st[b]));
					else
						fprintf(f, ",,\n");
				}
			}
		}
	} while (loop && !stop);
	if (f != stdout && fclose(f)) {
		fprintf(stderr, "cma-alloc: %s: %s\n", out, strerror(errno));
		return 1;
	}
	fprintf(stderr, "cma-alloc: %d requests in %d bursts, %d failed\n", seq, bursts, failures);
	return 0;
}
