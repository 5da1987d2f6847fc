/*
 * cma-alloc: the guest's allocation driver. Allocates and frees pages
 * through /sys/kernel/debug/cma/<area>/{alloc,free} and writes one CSV row
 * per request. A failed allocation is a data point (success=0, errno), not
 * an error of the driver.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZES 64

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
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

static void usage(void)
{
	fprintf(stderr,
		"usage: cma-alloc --area NAME [--dir DIR] [--count N] [--pages P[,P...]]\n"
		"                 [--hold-ms MS] [--out FILE]\n"
		"Allocates each size N times through DIR/NAME/alloc (default DIR\n"
		"/sys/kernel/debug/cma), frees it through DIR/NAME/free, and writes CSV:\n"
		"seq,pages,start_ns,latency_ns,success,errno,free_latency_ns\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "area", required_argument, NULL, 'a' },
		{ "dir", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, 'n' },
		{ "pages", required_argument, NULL, 'p' },
		{ "hold-ms", required_argument, NULL, 'H' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dir = "/sys/kernel/debug/cma", *area = NULL, *out = NULL;
	long count = 1, sizes[MAX_SIZES], hold_ms = 0;
	int nsizes = 0, c, seq = 0, failures = 0;
	char alloc_path[4096], free_path[4096];
	FILE *f = stdout;

	while ((c = getopt_long(argc, argv, "a:d:n:p:H:o:h", opts, NULL)) != -1) {
		char *end, *tok, *save = NULL;

		switch (c) {
		case 'a': area = optarg; break;
		case 'd': dir = optarg; break;
		case 'o': out = optarg; break;
		case 'n':
			count = strtol(optarg, &end, 10);
			if (*end || count < 0) {
				fprintf(stderr, "cma-alloc: --count: '%s' is not a count\n", optarg);
				return 2;
			}
			break;
		case 'H':
			hold_ms = strtol(optarg, &end, 10);
			if (*end || hold_ms < 0) {
				fprintf(stderr, "cma-alloc: --hold-ms: '%s' is not a duration\n", optarg);
				return 2;
			}
			break;
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
		case 'h': usage(); return 0;
		default: usage(); return 2;
		}
	}
	if (!area || !nsizes) {
		usage();
		return 2;
	}
	snprintf(alloc_path, sizeof(alloc_path), "%s/%s/alloc", dir, area);
	snprintf(free_path, sizeof(free_path), "%s/%s/free", dir, area);
	if (access(alloc_path, W_OK)) {
		fprintf(stderr, "cma-alloc: %s: %s\n", alloc_path, strerror(errno));
		return 1;
	}
	if (out && !(f = fopen(out, "w"))) {
		fprintf(stderr, "cma-alloc: %s: %s\n", out, strerror(errno));
		return 1;
	}
	fprintf(f, "seq,pages,start_ns,latency_ns,success,errno,free_latency_ns\n");
	for (int s = 0; s < nsizes; s++) {
		for (long i = 0; i < count; i++) {
			long long t0 = now_ns(), t1, t2 = 0, t3 = 0;
			int e = write_pages(alloc_path, sizes[s]);

			t1 = now_ns();
			if (!e) {
				if (hold_ms)
					usleep(hold_ms * 1000);
				t2 = now_ns();
				if (write_pages(free_path, sizes[s])) {
					fprintf(stderr, "cma-alloc: freeing %ld pages: %s\n", sizes[s],
						strerror(errno));
					return 1;
				}
				t3 = now_ns();
			} else {
				failures++;
			}
			fprintf(f, "%d,%ld,%lld,%lld,%d,%d,%lld\n", seq++, sizes[s], t0, t1 - t0,
				!e, e, t3 - t2);
		}
	}
	if (f != stdout && fclose(f)) {
		fprintf(stderr, "cma-alloc: %s: %s\n", out, strerror(errno));
		return 1;
	}
	fprintf(stderr, "cma-alloc: %d requests, %d failed\n", seq, failures);
	return 0;
}
