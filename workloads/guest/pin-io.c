/*
 * pin-io: a CMA failure inducer. Finds anonymous pages of its own that the
 * page allocator placed inside a CMA area (by /proc/self/pagemap against
 * the area's base_pfn and count in debugfs) and keeps them referenced:
 *   --mode dio       O_DIRECT reads in flight into them from several threads
 *                    (short pins, as a storage or network stack makes);
 *   --mode vmsplice  the pages spliced into pipes nobody reads for
 *                    --pin-ms, released for --gap-ms, again (long pins, as
 *                    vmsplice or a driver's get_user_pages make).
 * A referenced page cannot be migrated, so cma_alloc retries
 * (cma_alloc_busy_retry) or fails. GCMA's area never holds such pages.
 * Runs until SIGTERM/SIGINT, then prints statistics.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "guest.h"

static int data_fd;
static off_t file_pages;
static long page;

struct worker {
	pthread_t tid;
	char **bufs;
	size_t nbufs;
	unsigned long long reads, errors;
};

static long read_long(const char *dir, const char *area, const char *name)
{
	char path[512];
	FILE *f;
	long v = -1;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, area, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Pins the pages into pipes for pin_ms, drains them, waits gap_ms, repeats. */
static unsigned long long vmsplice_loop(char **pages, size_t n, long pin_ms, long gap_ms)
{
	size_t per_pipe = 256, npipes = (n + per_pipe - 1) / per_pipe;
	int (*fds)[2] = calloc(npipes, sizeof(*fds));
	char *sink = malloc(per_pipe * page);
	unsigned long long cycles = 0;

	for (size_t p = 0; p < npipes; p++) {
		if (pipe(fds[p])) {
			perror("pin-io: pipe");
			return 0;
		}
		fcntl(fds[p][0], F_SETPIPE_SZ, (int)(per_pipe * page));
	}
	while (!stop) {
		for (size_t i = 0; i < n; i++) {
			struct iovec iov = { pages[i], page };

			if (vmsplice(fds[i / per_pipe][1], &iov, 1, SPLICE_F_NONBLOCK) < 0)
				break;
		}
		usleep(pin_ms * 1000);
		for (size_t p = 0; p < npipes; p++) {
			int fl = fcntl(fds[p][0], F_GETFL);

			fcntl(fds[p][0], F_SETFL, fl | O_NONBLOCK);
			while (read(fds[p][0], sink, per_pipe * page) > 0)
				;
		}
		cycles++;
		usleep(gap_ms * 1000);
	}
	return cycles;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	size_t i = 0;

	while (!stop) {
		off_t off = (off_t)((i * 7919) % file_pages) * page;

		if (pread(data_fd, w->bufs[i % w->nbufs], page, off) != page)
			w->errors++;
		else
			w->reads++;
		i++;
	}
	return NULL;
}

/* The command line. */
struct opts {
	const char *mode, *area, *dir, *file;
	long pin_ms, gap_ms, mb, threads, settle_ms;
};

/* -1 to go on, else main's exit code. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "area", required_argument, NULL, 'a' },
		{ "dir", required_argument, NULL, 'd' },
		{ "file", required_argument, NULL, 'f' },
		{ "mb", required_argument, NULL, 'm' },
		{ "threads", required_argument, NULL, 't' },
		{ "mode", required_argument, NULL, 'M' },
		{ "pin-ms", required_argument, NULL, 'P' },
		{ "gap-ms", required_argument, NULL, 'G' },
		{ "settle-ms", required_argument, NULL, 'S' },
		{ 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "a:d:f:m:t:M:P:G:S:", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': o->area = optarg; break;
		case 'd': o->dir = optarg; break;
		case 'f': o->file = optarg; break;
		case 'm': o->mb = atol(optarg); break;
		case 't': o->threads = atol(optarg); break;
		case 'M': o->mode = optarg; break;
		case 'P': o->pin_ms = atol(optarg); break;
		case 'G': o->gap_ms = atol(optarg); break;
		case 'S': o->settle_ms = atol(optarg); break;
		default:
			fprintf(stderr, "usage: pin-io --area NAME --file DATA [--mb M] [--threads T]\n");
			return 2;
		}
	}
	if (!o->area || o->mb <= 0 || o->threads <= 0 || o->threads > 64 || o->pin_ms < 0 ||
	    o->gap_ms < 0 || o->settle_ms < 0 ||
	    (strcmp(o->mode, "dio") && strcmp(o->mode, "vmsplice")) ||
	    (!strcmp(o->mode, "dio") && !o->file)) {
		fprintf(stderr, "usage: pin-io --area NAME [--mode dio --file DATA [--threads 1..64] |\n"
			"              --mode vmsplice [--pin-ms MS] [--gap-ms MS]] [--mb M]\n"
			"              [--settle-ms MS]\n");
		return 2;
	}
	return -1;
}

/* Opens file for O_DIRECT reads into data_fd; 1 (said why) when it cannot be read. */
static int open_data(const char *file)
{
	data_fd = open(file, O_RDONLY | O_DIRECT);
	if (data_fd < 0) {
		fprintf(stderr, "pin-io: %s: %s\n", file, strerror(errno));
		return 1;
	}
	file_pages = lseek(data_fd, 0, SEEK_END) / page;
	if (file_pages <= 0) {
		fprintf(stderr, "pin-io: %s is empty\n", file);
		return 1;
	}
	return 0;
}

/*
 * One round: faults in --mb of anonymous memory, appends the pages that
 * landed in the area (pfns base..base+count-1) to inside[] and gives the
 * others back. Returns how many it found, -1 (said why) on failure.
 */
static long fault_round(const struct opts *o, long base, long count, char **inside, size_t *nin,
			size_t cap)
{
	size_t len = (size_t)o->mb << 20, before = *nin;
	char *mem;
	int pm;

	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		fprintf(stderr, "pin-io: mmap: %s\n", strerror(errno));
		return -1;
	}
	memset(mem, 1, len);
	pm = open("/proc/self/pagemap", O_RDONLY);
	if (pm < 0) {
		fprintf(stderr, "pin-io: /proc/self/pagemap: %s\n", strerror(errno));
		return -1;
	}
	for (size_t off = 0; off < len; off += page) {
		uint64_t e;
		uintptr_t vpn = (uintptr_t)(mem + off) / page;
		bool in = false;

		if (pread(pm, &e, sizeof(e), vpn * sizeof(e)) == sizeof(e) && (e >> 63)) {
			e &= (1ull << 55) - 1;
			in = (long)e >= base && (long)e < base + count && *nin < cap;
		}
		if (in)
			inside[(*nin)++] = mem + off;
		else
			madvise(mem + off, page, MADV_DONTNEED);
	}
	close(pm);
	return (long)(*nin - before);
}

/*
 * Faults in rounds until a quarter of --mb's pages sit in the area or
 * --settle-ms has passed. Movable pages go to the area only once its free
 * pages are more than half the zone's free pages (6.12's __rmqueue), that
 * is once the hog, started beside us, has filled the rest: a single round
 * at start finds none. Returns the pages (*nin of them), NULL on failure.
 */
static char **pages_in_area(const struct opts *o, long base, long count, size_t *nin)
{
	size_t per_round = ((size_t)o->mb << 20) / page, want = per_round / 4;
	char **inside = calloc(per_round, sizeof(*inside));
	long rounds = 0, waited = 0, got;

	if (!inside) {
		fprintf(stderr, "pin-io: out of memory\n");
		return NULL;
	}
	while (!stop && *nin < want) {
		got = fault_round(o, base, count, inside, nin, per_round);
		if (got < 0)
			return NULL;
		rounds++;
		fprintf(stderr, "pin-io: round %ld at %ld ms: %ld of %zu pages in area %s\n", rounds,
			waited, got, per_round, o->area);
		if (*nin >= want || waited >= o->settle_ms)
			break;
		usleep(250 * 1000);
		waited += 250;
	}
	fprintf(stderr, "pin-io: %zu pages are in area %s (pfn %ld+%ld) after %ld rounds\n", *nin,
		o->area, base, count, rounds);
	return inside;
}

/* --mode dio: threads reading into the pages until SIGTERM, then their counts. */
static void run_dio(char **inside, size_t nin, long threads)
{
	struct worker *ws = calloc(threads, sizeof(*ws));
	unsigned long long reads = 0, errors = 0;

	for (long t = 0; t < threads; t++) {
		ws[t].bufs = inside + t * nin / threads;
		ws[t].nbufs = (t + 1) * nin / threads - t * nin / threads;
		if (!ws[t].nbufs) {
			ws[t].bufs = inside;
			ws[t].nbufs = nin;
		}
		pthread_create(&ws[t].tid, NULL, worker_main, &ws[t]);
	}
	for (long t = 0; t < threads; t++) {
		pthread_join(ws[t].tid, NULL);
		reads += ws[t].reads;
		errors += ws[t].errors;
	}
	printf("pin-io: mode=dio pages_in_area=%zu reads=%llu errors=%llu\n", nin, reads, errors);
}

int main(int argc, char **argv)
{
	struct opts o = {
		.mode = "dio", .dir = "/sys/kernel/debug/cma", .pin_ms = 1000, .gap_ms = 100,
		.mb = 64, .threads = 4, .settle_ms = 5000,
	};
	long base, count;
	size_t nin = 0;
	char **inside;
	int rc;

	page = sysconf(_SC_PAGESIZE);
	rc = parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	base = read_long(o.dir, o.area, "base_pfn");
	count = read_long(o.dir, o.area, "count");
	if (base < 0 || count <= 0) {
		fprintf(stderr, "pin-io: cannot read %s/%s/{base_pfn,count}\n", o.dir, o.area);
		return 1;
	}
	if (o.file && open_data(o.file))
		return 1;
	stop_on_signals();
	inside = pages_in_area(&o, base, count, &nin);
	if (!inside)
		return 1;
	if (!nin) {
		/* Nothing to pin: the inducer idles and says so in its statistics. */
		while (!stop)
			pause();
		printf("pin-io: pages_in_area=0 reads=0 errors=0\n");
		return 0;
	}
	if (!strcmp(o.mode, "vmsplice")) {
		unsigned long long cycles = vmsplice_loop(inside, nin, o.pin_ms, o.gap_ms);

		printf("pin-io: mode=vmsplice pages_in_area=%zu cycles=%llu\n", nin, cycles);
		return 0;
	}
	run_dio(inside, nin, o.threads);
	return 0;
}
