/*
 * dio-window: forces the direct I/O window of issue 10 (item 1) instead of
 * waiting for a random race to find it: a buffered read made while an
 * O_DIRECT write invalidates the page cache must not bring back a
 * cleancache copy older than a write that completed before the read.
 * Each round, on a file of --size-mb:
 *   1. write generation G (buffered), fsync; read it twice (its pages go
 *      active), then --pressure-file the same way: the active list grows,
 *      so reclaim deactivates the oldest active pages, the file's (which
 *      marks them workingset), and evicts them: cleancache stores G; read
 *      the file once more (restores: "restored" counts the hits);
 *   2. overwrite it with G+1 (buffered), fsync: G+1 is the completed write;
 *   3. one O_DIRECT pwrite of the whole file with G+2 while --readers
 *      threads re-read its first --read-kb. The write's invalidation
 *      removes the pages one by one; a read that misses the page cache
 *      meanwhile looks in cleancache. Any copy of G still there is a
 *      stale read. The larger the file, the longer that loop.
 * The first series kept a copy on restore and dropped copies only after
 * the whole invalidation loop, so step 3 could read G; a fixed kernel
 * reads G+1 or G+2. Prints key=value counters; exits 1 on any stale or
 * damaged read or any I/O error.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest.h"

#define BLOCK 4096
#define WORDS (BLOCK / sizeof(uint64_t))
#define HITS "/sys/kernel/debug/cleancache/hits"

static const char *path, *pressure_path;
static long nblocks, pressure_mb, read_blocks = 64;
static int rounds = 5, readers = 2;

static _Atomic uint64_t completed;	/* generation of the last completed write */
static _Atomic int in_window;		/* the O_DIRECT write is in flight */
static _Atomic uint64_t n_reads, n_window_reads, n_stale, n_corrupt, n_errors;
static _Atomic int round_done;

/* Words in pairs: generation, block number. */
static void fill(uint64_t *buf, long first, long n, uint64_t gen)
{
	for (long b = 0; b < n; b++)
		for (size_t i = 0; i < WORDS; i += 2) {
			buf[b * WORDS + i] = gen;
			buf[b * WORDS + i + 1] = first + b;
		}
}

static void fail(const char *what)
{
	fprintf(stderr, "dio-window: %s: %s\n", what, strerror(errno));
	atomic_fetch_add(&n_errors, 1);
}

/* Writes the whole file with generation gen, through fd. */
static int write_all(int fd, uint64_t *buf, long chunk_blocks, uint64_t gen)
{
	for (long b = 0; b < nblocks; b += chunk_blocks) {
		long n = nblocks - b < chunk_blocks ? nblocks - b : chunk_blocks;

		fill(buf, b, n, gen);
		if (pwrite(fd, buf, n * BLOCK, (off_t)b * BLOCK) != n * BLOCK) {
			fail("pwrite");
			return -1;
		}
	}
	return 0;
}

/* Reads p through; twice per chunk with twice set (the pages go active). */
static int read_file(const char *p, char *buf, size_t len, int twice)
{
	int fd = open(p, O_RDONLY);
	off_t off = 0;
	ssize_t n;

	if (fd < 0) {
		fail(p);
		return -1;
	}
	while ((n = pread(fd, buf, len, off)) > 0) {
		if (twice && pread(fd, buf, n, off) < 0)
			break;
		off += n;
	}
	if (n < 0)
		fail(p);
	close(fd);
	return n < 0 ? -1 : 0;
}

/* cleancache's hit counter, or -1 on a kernel without it. */
static long long hits(void)
{
	FILE *f = fopen(HITS, "r");
	long long h = -1;

	if (f) {
		if (fscanf(f, "%lld", &h) != 1)
			h = -1;
		fclose(f);
	}
	return h;
}

static void *reader_main(void *arg)
{
	size_t len = (size_t)read_blocks * BLOCK;
	uint64_t *buf = malloc(len);
	int fd = open(path, O_RDONLY);

	(void)arg;
	if (fd < 0 || !buf) {
		fail("reader");
		free(buf);
		return NULL;
	}
	while (!atomic_load(&round_done)) {
		uint64_t min = atomic_load(&completed);
		int window = atomic_load(&in_window);

		if (pread(fd, buf, len, 0) != (ssize_t)len) {
			fail("pread");
			break;
		}
		atomic_fetch_add(&n_reads, 1);
		if (window)
			atomic_fetch_add(&n_window_reads, 1);
		for (long b = 0; b < read_blocks; b++) {
			const uint64_t *w = buf + b * WORDS;
			int stale = 0, bad = 0;

			for (size_t i = 0; i < WORDS; i += 2) {
				if (w[i + 1] != (uint64_t)b || w[i] > min + 1)
					bad = 1;
				else if (w[i] < min)
					stale = 1;
			}
			if (bad) {
				atomic_fetch_add(&n_corrupt, 1);
				fprintf(stderr, "dio-window: block %ld: damaged (word 0: %llu)\n",
					b, (unsigned long long)w[0]);
			} else if (stale) {
				atomic_fetch_add(&n_stale, 1);
				fprintf(stderr, "dio-window: block %ld: generation %llu read after "
					"%llu completed\n", b, (unsigned long long)w[0],
					(unsigned long long)min);
			}
		}
	}
	free(buf);
	close(fd);
	return NULL;
}

/* One round with generations gen, gen+1, gen+2; adds cleancache hits to *restored. */
static int run_round(uint64_t gen, uint64_t *buf, char *rbuf, size_t rlen,
		     long long *restored)
{
	long chunk = 256;
	int fd = open(path, O_RDWR | O_CREAT, 0644), dfd = open(path, O_WRONLY | O_DIRECT);
	pthread_t *rd = calloc(readers, sizeof(*rd));
	long long h0, h1;
	int rc = -1;

	if (fd < 0 || dfd < 0 || !rd) {
		fail(path);
		goto out;
	}
	/* 1. cleancache holds generation gen */
	if (write_all(fd, buf, chunk, gen) || fsync(fd) || read_file(path, rbuf, rlen, 1) ||
	    read_file(pressure_path, rbuf, rlen, 1))
		goto out;
	h0 = hits();
	if (read_file(path, rbuf, rlen, 0))
		goto out;
	h1 = hits();
	if (h0 >= 0 && h1 >= h0)
		*restored += h1 - h0;
	/* 2. gen+1 completes */
	if (write_all(fd, buf, chunk, gen + 1) || fsync(fd))
		goto out;
	atomic_store(&completed, gen + 1);
	/* 3. one direct write of the whole file, raced by readers */
	atomic_store(&round_done, 0);
	for (int i = 0; i < readers; i++)
		pthread_create(&rd[i], NULL, reader_main, NULL);
	usleep(20000);
	fill(buf, 0, nblocks, gen + 2);
	atomic_store(&in_window, 1);
	if (pwrite(dfd, buf, nblocks * BLOCK, 0) != nblocks * BLOCK)
		fail("O_DIRECT pwrite");
	else
		atomic_store(&completed, gen + 2);
	atomic_store(&in_window, 0);
	usleep(50000);
	atomic_store(&round_done, 1);
	for (int i = 0; i < readers; i++)
		pthread_join(rd[i], NULL);
	rc = 0;
out:
	free(rd);
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	return rc;
}

/* The pressure file: allocated, not written (its reads still fill memory). */
static int make_pressure(void)
{
	int fd = open(pressure_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int err;

	if (fd < 0) {
		fail(pressure_path);
		return -1;
	}
	err = posix_fallocate(fd, 0, (off_t)pressure_mb << 20);
	close(fd);
	if (err) {
		errno = err;
		fail("posix_fallocate");
		return -1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: dio-window --file PATH --size-mb N --pressure-file PATH "
		"--pressure-mb N\n       [--rounds N] [--readers N] [--read-kb N]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "size-mb", required_argument, NULL, 's' },
		{ "pressure-file", required_argument, NULL, 'p' },
		{ "pressure-mb", required_argument, NULL, 'P' },
		{ "rounds", required_argument, NULL, 'n' },
		{ "readers", required_argument, NULL, 'r' },
		{ "read-kb", required_argument, NULL, 'k' },
		{ 0 }
	};
	long size_mb = 0;
	size_t rlen = 1 << 20;
	long long restored = 0;
	uint64_t *buf;
	char *rbuf;
	double t0 = now_s();
	int c, done = 0;

	while ((c = getopt_long(argc, argv, "f:s:p:P:n:r:k:", opts, NULL)) != -1)
		switch (c) {
		case 'f': path = optarg; break;
		case 's': size_mb = atol(optarg); break;
		case 'p': pressure_path = optarg; break;
		case 'P': pressure_mb = atol(optarg); break;
		case 'n': rounds = atoi(optarg); break;
		case 'r': readers = atoi(optarg); break;
		case 'k': read_blocks = atol(optarg) * 1024 / BLOCK; break;
		default: usage(); return 2;
		}
	nblocks = size_mb * (1024 * 1024 / BLOCK);
	if (!path || !pressure_path || size_mb <= 0 || pressure_mb <= 0 || rounds < 1 ||
	    readers < 1 || read_blocks < 1 || read_blocks > nblocks) {
		usage();
		return 2;
	}
	if (posix_memalign((void **)&buf, BLOCK, (size_t)nblocks * BLOCK) ||
	    !(rbuf = malloc(rlen)) || make_pressure())
		return 1;
	stop_on_signals();
	for (int r = 0; r < rounds && !stop; r++, done++)
		if (run_round(1 + 3 * (uint64_t)r, buf, rbuf, rlen, &restored))
			break;
	unlink(pressure_path);
	printf("seconds=%.1f rounds=%d restored=%lld reads=%llu window_reads=%llu "
	       "stale=%llu corrupt=%llu errors=%llu\n", now_s() - t0, done,
	       hits() < 0 ? -1 : restored, (unsigned long long)n_reads,
	       (unsigned long long)n_window_reads, (unsigned long long)n_stale,
	       (unsigned long long)n_corrupt, (unsigned long long)n_errors);
	free(buf);
	free(rbuf);
	return n_stale || n_corrupt || n_errors || done < rounds ? 1 : 0;
}
