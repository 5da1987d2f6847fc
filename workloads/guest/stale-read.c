/*
 * stale-read: checks that no buffered read returns data older than a
 * write that completed before the read began, while O_DIRECT writers,
 * buffered writers and buffered readers share one file larger than RAM
 * (so its pages keep moving between the page cache, cleancache and the
 * disk).
 *
 * Every 4 KiB block of the file holds 64 records of 64 bytes: magic,
 * block number, sequence number, writer, a checksum. A writer takes the
 * block's lock, writes the next sequence number into all records (one
 * pwrite, through an O_DIRECT or a buffered descriptor), then publishes
 * it as the block's "completed" sequence. A reader notes the completed
 * sequence of a block before its pread and then checks every record:
 *   stale    a record older than that sequence (a completed write lost);
 *   corrupt  a record whose checksum or block number is wrong while no
 *            write of the block was in flight (the read is retried first
 *            when a write was: a buffered read may see a write half done).
 * Reads mostly go to a hot part of the file (re-read while resident, so
 * reclaim stores them in cleancache) and sometimes anywhere (pressure).
 * Writers hit the hot part too, a block at a time, O_DIRECT and buffered
 * alike (a buffered writer pauses --buf-pause-us between writes, so that
 * reads stay the majority). Prints key=value counters; exits 1 on any
 * stale or corrupt read.
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
#define RECORD 64
#define RECORDS (BLOCK / RECORD)
#define MAGIC 0x5354414c45524541ull /* "STALEREA" */
#define LOCKS 4096

struct record {
	uint64_t magic;
	uint64_t block;
	uint64_t seq;
	uint64_t writer;
	uint64_t index;
	uint64_t pad[2];
	uint64_t sum;
};

_Static_assert(sizeof(struct record) == RECORD, "record size");

static const char *path;
static long nblocks, hot_blocks;
static double seconds = 30;
static int dio_writers = 1, buf_writers = 1, readers = 2, read_blocks = 16;
static long buf_pause_us = 500;
static uint64_t seed = 1;

static _Atomic uint64_t *completed;	/* per block: last completed sequence */
static _Atomic uint32_t *writing;	/* per block: writes in flight */
static pthread_mutex_t locks[LOCKS];

static _Atomic uint64_t n_reads, n_dio_writes, n_buf_writes, n_stale, n_corrupt,
	n_retries, n_errors;

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static uint64_t rnd(uint64_t *s)
{
	*s += 0x9e3779b97f4a7c15ull;
	return mix(*s);
}

static uint64_t record_sum(const struct record *r)
{
	return mix(r->magic ^ mix(r->block ^ mix(r->seq ^ mix(r->writer ^ r->index))));
}

static void fill_block(void *buf, uint64_t block, uint64_t seq, uint64_t writer)
{
	struct record *r = buf;

	for (int i = 0; i < RECORDS; i++) {
		r[i] = (struct record){ .magic = MAGIC, .block = block, .seq = seq,
					.writer = writer, .index = i };
		r[i].sum = record_sum(&r[i]);
	}
}

/* A hot block most of the time, any block otherwise. */
static long pick_block(uint64_t *s, int span)
{
	if (rnd(s) % 8)
		return rnd(s) % (hot_blocks - span + 1);
	return rnd(s) % (nblocks - span + 1);
}

struct writer {
	pthread_t tid;
	int direct;
	uint64_t id;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	uint64_t s = seed * 1000 + w->id;
	void *buf;
	int fd = open(path, O_WRONLY | (w->direct ? O_DIRECT : 0));

	if (fd < 0 || posix_memalign(&buf, BLOCK, BLOCK)) {
		perror("stale-read: writer");
		atomic_fetch_add(&n_errors, 1);
		return NULL;
	}
	while (!stop) {
		long b = pick_block(&s, 1);
		pthread_mutex_t *l = &locks[b % LOCKS];
		uint64_t seq;

		pthread_mutex_lock(l);
		seq = atomic_load(&completed[b]) + 1;
		fill_block(buf, b, seq, w->id);
		atomic_fetch_add(&writing[b], 1);
		if (pwrite(fd, buf, BLOCK, (off_t)b * BLOCK) != BLOCK) {
			perror("stale-read: pwrite");
			atomic_fetch_add(&n_errors, 1);
		} else {
			atomic_store(&completed[b], seq);
		}
		atomic_fetch_sub(&writing[b], 1);
		pthread_mutex_unlock(l);
		atomic_fetch_add(w->direct ? &n_dio_writes : &n_buf_writes, 1);
		/* A buffered write costs a copy: keep the readers in the majority */
		if (!w->direct && buf_pause_us)
			usleep(buf_pause_us);
	}
	free(buf);
	close(fd);
	return NULL;
}

/* 0: fine, 1: stale, 2: bad record (torn or corrupt) */
static int check_block(const struct record *r, long b, uint64_t min)
{
	int stale = 0;

	for (int i = 0; i < RECORDS; i++) {
		if (r[i].magic != MAGIC || r[i].block != (uint64_t)b || r[i].index != (uint64_t)i ||
		    r[i].sum != record_sum(&r[i]))
			return 2;
		if (r[i].seq < min)
			stale = 1;
	}
	return stale;
}

static void *reader_main(void *arg)
{
	uint64_t s = seed * 2000 + (uintptr_t)arg;
	size_t len = (size_t)read_blocks * BLOCK;
	uint64_t *min = calloc(read_blocks, sizeof(*min));
	uint32_t *busy = calloc(read_blocks, sizeof(*busy));
	char *buf = malloc(len);
	int fd = open(path, O_RDONLY);

	if (fd < 0 || !buf || !min || !busy) {
		perror("stale-read: reader");
		atomic_fetch_add(&n_errors, 1);
		return NULL;
	}
	while (!stop) {
		long b0 = pick_block(&s, read_blocks);
		int again = 0;

		for (int tries = 0; tries < 100; tries++) {
			for (int i = 0; i < read_blocks; i++) {
				busy[i] = atomic_load(&writing[b0 + i]);
				min[i] = atomic_load(&completed[b0 + i]);
			}
			if (pread(fd, buf, len, (off_t)b0 * BLOCK) != (ssize_t)len) {
				perror("stale-read: pread");
				atomic_fetch_add(&n_errors, 1);
				break;
			}
			again = 0;
			for (int i = 0; i < read_blocks; i++) {
				int rc = check_block((struct record *)(buf + (size_t)i * BLOCK),
						     b0 + i, min[i]);

				if (rc == 1) {
					atomic_fetch_add(&n_stale, 1);
					fprintf(stderr, "stale-read: block %ld: a record older than "
						"sequence %llu, completed before the read\n", b0 + i,
						(unsigned long long)min[i]);
				} else if (rc == 2) {
					if (busy[i] || atomic_load(&writing[b0 + i]) ||
					    atomic_load(&completed[b0 + i]) != min[i]) {
						again = 1;
					} else {
						atomic_fetch_add(&n_corrupt, 1);
						fprintf(stderr, "stale-read: block %ld: bad record "
							"with no write in flight\n", b0 + i);
					}
				}
			}
			atomic_fetch_add(&n_reads, 1);
			if (!again)
				break;
			atomic_fetch_add(&n_retries, 1);
		}
	}
	free(buf);
	free(min);
	free(busy);
	close(fd);
	return NULL;
}

/* Lays the file out: sequence 1 in every block, on disk. */
static int prepare(void)
{
	size_t chunk = 256 * BLOCK;
	char *buf = malloc(chunk);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || !buf) {
		perror(path);
		return -1;
	}
	for (long b = 0; b < nblocks; b += chunk / BLOCK) {
		long n = nblocks - b < (long)(chunk / BLOCK) ? nblocks - b : (long)(chunk / BLOCK);

		for (long i = 0; i < n; i++) {
			fill_block(buf + i * BLOCK, b + i, 1, 0);
			atomic_store(&completed[b + i], 1);
		}
		if (write(fd, buf, n * BLOCK) != n * BLOCK) {
			perror("stale-read: write");
			return -1;
		}
	}
	free(buf);
	if (fsync(fd) || close(fd)) {
		perror("stale-read: fsync");
		return -1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: stale-read --file PATH --size-mb N [--hot-mb N] [--seconds S]\n"
		"       [--dio-writers N] [--buf-writers N] [--readers N] [--read-kb N] [--seed N]\n"
		"       [--buf-pause-us N]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "size-mb", required_argument, NULL, 's' },
		{ "hot-mb", required_argument, NULL, 'h' },
		{ "seconds", required_argument, NULL, 't' },
		{ "dio-writers", required_argument, NULL, 'd' },
		{ "buf-writers", required_argument, NULL, 'b' },
		{ "readers", required_argument, NULL, 'r' },
		{ "read-kb", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 'S' },
		{ "buf-pause-us", required_argument, NULL, 'p' },
		{ 0 }
	};
	long size_mb = 0, hot_mb = 0;
	struct writer *w;
	pthread_t *rd;
	double t0;
	int c, nw;

	while ((c = getopt_long(argc, argv, "f:s:h:t:d:b:r:k:S:p:", opts, NULL)) != -1)
		switch (c) {
		case 'f': path = optarg; break;
		case 's': size_mb = atol(optarg); break;
		case 'h': hot_mb = atol(optarg); break;
		case 't': seconds = atof(optarg); break;
		case 'd': dio_writers = atoi(optarg); break;
		case 'b': buf_writers = atoi(optarg); break;
		case 'r': readers = atoi(optarg); break;
		case 'k': read_blocks = atoi(optarg) * 1024 / BLOCK; break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 'p': buf_pause_us = atol(optarg); break;
		default: usage(); return 2;
		}
	if (!path || size_mb <= 0 || seconds <= 0 || readers < 1 || read_blocks < 1 ||
	    dio_writers < 0 || buf_writers < 0) {
		usage();
		return 2;
	}
	nblocks = size_mb * (1024 * 1024 / BLOCK);
	hot_blocks = hot_mb > 0 && hot_mb < size_mb ? hot_mb * (1024 * 1024 / BLOCK) : nblocks;
	if (hot_blocks < read_blocks) {
		usage();
		return 2;
	}
	completed = calloc(nblocks, sizeof(*completed));
	writing = calloc(nblocks, sizeof(*writing));
	if (!completed || !writing)
		return 1;
	for (int i = 0; i < LOCKS; i++)
		pthread_mutex_init(&locks[i], NULL);
	if (prepare())
		return 1;

	stop_on_signals();
	nw = dio_writers + buf_writers;
	w = calloc(nw ? nw : 1, sizeof(*w));
	rd = calloc(readers, sizeof(*rd));
	t0 = now_s();
	for (int i = 0; i < nw; i++) {
		w[i].direct = i < dio_writers;
		w[i].id = i + 1;
		pthread_create(&w[i].tid, NULL, writer_main, &w[i]);
	}
	for (int i = 0; i < readers; i++)
		pthread_create(&rd[i], NULL, reader_main, (void *)(uintptr_t)i);
	while (!stop && now_s() - t0 < seconds)
		usleep(100000);
	stop = 1;
	for (int i = 0; i < nw; i++)
		pthread_join(w[i].tid, NULL);
	for (int i = 0; i < readers; i++)
		pthread_join(rd[i], NULL);

	printf("seconds=%.1f reads=%llu dio_writes=%llu buffered_writes=%llu retries=%llu "
	       "stale=%llu corrupt=%llu errors=%llu\n", now_s() - t0,
	       (unsigned long long)n_reads, (unsigned long long)n_dio_writes,
	       (unsigned long long)n_buf_writes, (unsigned long long)n_retries,
	       (unsigned long long)n_stale, (unsigned long long)n_corrupt,
	       (unsigned long long)n_errors);
	return n_stale || n_corrupt || n_errors ? 1 : 0;
}
