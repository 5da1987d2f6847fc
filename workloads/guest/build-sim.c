/*
 * build-sim: a kernel-build-like job for the guest, where no compiler is.
 * "prepare" writes a tree of source files (4 to 64 KiB each) on the scratch
 * disk; "run" compiles it with J worker processes: each reads a source,
 * works on it with a cc1-sized heap (anonymous memory, CPU proportional to
 * its size), writes an object; then one "link" reads every object and
 * writes the result. Page cache, anonymous memory and CPU move the way a
 * build moves them. With --headers-mb, "prepare" also writes that much of
 * shared headers (64 KiB each) and every compilation reads --includes of
 * them, the popular ones far more often (a cubic skew, as kernel.h is read
 * by every file and a driver's header by a few): re-read pages are the
 * workingset, which cleancache keeps when the source tree streams past. With --loop it builds again until SIGTERM; otherwise
 * it builds once and appends "name,elapsed_s,user_s,sys_s" to --times.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

#define HEADER_KB 64

static int write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || close(fd)) {
		fprintf(stderr, "build-sim: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int prepare(const char *dir, long files, long headers)
{
	char path[4096], buf[65536];
	uint64_t seed = 1;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "build-sim: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (long i = 0; i < headers; i++) {
		for (size_t k = 0; k < sizeof(buf); k += 8) {
			uint64_t v = mix(seed++ ^ 0x68647273ull);

			memcpy(buf + k, &v, 8);
		}
		snprintf(path, sizeof(path), "%s/hdr%05ld.h", dir, i);
		if (write_file(path, buf, HEADER_KB << 10))
			return 1;
	}
	for (long i = 0; i < files; i++) {
		size_t len = 4096 + (mix(seed++) % (60 * 1024));

		for (size_t k = 0; k < len; k += 8) {
			uint64_t v = mix(seed + k);

			memcpy(buf + k, &v, len - k < 8 ? len - k : 8);
		}
		snprintf(path, sizeof(path), "%s/src%05ld.c", dir, i);
		if (write_file(path, buf, len))
			return 1;
	}
	/* on the disk before anything is timed: its writeback is not the build's */
	sync();
	return 0;
}

/* Reads a file whole (a header); its bytes stir h. */
static int read_whole(const char *path, char *buf, size_t size, uint64_t *h)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 1;
	while ((n = read(fd, buf, size)) > 0)
		*h = mix(*h + (unsigned char)buf[n - 1]);
	close(fd);
	return n < 0;
}

/* File i's k-th include: header index headers * u^3 for u uniform in [0,1). */
static long include_of(long i, int k, long headers)
{
	double u = (mix((uint64_t)i * 1000003u + (uint64_t)k) >> 11) * (1.0 / 9007199254740992.0);

	return (long)(headers * u * u * u);
}

/* One "compilation": read the source and its includes, churn a heap, write an object. */
static int compile(const char *dir, long i, size_t heap_mb, int work, long headers,
		   int includes)
{
	char src[4096], obj[4096], buf[65536], hbuf[65536];
	size_t heap_len = heap_mb << 20;
	char *heap = malloc(heap_len);
	ssize_t n;
	uint64_t h = (uint64_t)i;
	int fd;

	snprintf(src, sizeof(src), "%s/src%05ld.c", dir, i);
	snprintf(obj, sizeof(obj), "%s/src%05ld.o", dir, i);
	fd = open(src, O_RDONLY);
	if (fd < 0 || !heap)
		return 1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return 1;
	for (int k = 0; headers > 0 && k < includes; k++) {
		snprintf(obj, sizeof(obj), "%s/hdr%05ld.h", dir, include_of(i, k, headers));
		if (read_whole(obj, hbuf, sizeof(hbuf), &h))
			return 1;
	}
	for (int r = 0; r < work; r++)
		for (size_t off = 0; off < heap_len; off += 4096) {
			h = mix(h + (unsigned char)buf[(off / 4096) % n]);
			heap[off] = (char)h;
		}
	for (ssize_t k = 0; k < n; k++)
		buf[k] ^= (char)(h >> (k % 56));
	free(heap);
	fd = open(obj, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, n) != n || close(fd))
		return 1;
	return 0;
}

static int link_all(const char *dir, long files)
{
	char path[4096], buf[65536];
	int out;

	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		return 1;
	for (long i = 0; i < files; i++) {
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "%s/src%05ld.o", dir, i);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(out, buf, n) != n)
				break;
		close(fd);
	}
	return close(out);
}

/* A build: J workers take files i, i+J, ...; then the link. */
static int build(const char *dir, long files, int jobs, size_t heap_mb, int work, long headers,
		 int includes)
{
	int failed = 0;

	for (int j = 0; j < jobs; j++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0) {
			signal(SIGTERM, SIG_DFL);
			for (long i = j; i < files; i += jobs)
				if (compile(dir, i, heap_mb, work, headers, includes))
					_exit(1);
			_exit(0);
		}
	}
	for (int j = 0; j < jobs; j++) {
		int st;

		while (wait(&st) < 0 && errno == EINTR)
			;
		failed |= !WIFEXITED(st) || WEXITSTATUS(st);
	}
	return failed || stop ? failed : link_all(dir, files);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "files", required_argument, NULL, 'f' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "heap-mb", required_argument, NULL, 'H' },
		{ "work", required_argument, NULL, 'w' },
		{ "loop", no_argument, NULL, 'l' },
		{ "times", required_argument, NULL, 't' },
		{ "name", required_argument, NULL, 'n' },
		{ "headers-mb", required_argument, NULL, 'h' },
		{ "includes", required_argument, NULL, 'i' },
		{ 0 },
	};
	const char *dir = NULL, *times = NULL, *name = "build";
	long files = 1000, jobs = 2, heap_mb = 8, work = 4, headers_mb = 0, includes = 8, headers;
	int loop = 0, c, builds = 0, rc = 0;
	double t0;

	if (argc < 2 || (strcmp(argv[1], "prepare") && strcmp(argv[1], "run"))) {
		fprintf(stderr, "usage: build-sim prepare|run --dir DIR [--files N] [--jobs J]\n"
			"       [--heap-mb M] [--work W] [--headers-mb H] [--includes I] [--loop]\n"
			"       [--times FILE] [--name NAME]\n");
		return 2;
	}
	optind = 2;
	while ((c = getopt_long(argc, argv, "d:f:j:H:w:lt:n:h:i:", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 'f': files = atol(optarg); break;
		case 'j': jobs = atol(optarg); break;
		case 'H': heap_mb = atol(optarg); break;
		case 'w': work = atol(optarg); break;
		case 'l': loop = 1; break;
		case 't': times = optarg; break;
		case 'n': name = optarg; break;
		case 'h': headers_mb = atol(optarg); break;
		case 'i': includes = atol(optarg); break;
		default: return 2;
		}
	}
	if (!dir || files <= 0 || jobs <= 0 || jobs > 64 || heap_mb <= 0 || work <= 0 ||
	    headers_mb < 0 || includes < 0 || includes > 1000) {
		fprintf(stderr, "build-sim: --dir is needed; counts must be positive\n");
		return 2;
	}
	headers = headers_mb * 1024 / HEADER_KB;
	if (!strcmp(argv[1], "prepare"))
		return prepare(dir, files, headers);
	stop_on_signals();
	t0 = now_s();
	do {
		rc = build(dir, files, (int)jobs, (size_t)heap_mb, (int)work, headers, (int)includes);
		builds++;
	} while (loop && !stop && !rc);
	fprintf(stderr, "build-sim: %d builds in %.1f s, rc=%d\n", builds, now_s() - t0, rc);
	if (times && !loop && append_jobtime(times, name, t0))
		return 1;
	return stop && loop ? 0 : rc;
}
