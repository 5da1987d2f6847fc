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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "area", required_argument, NULL, 'a' },
		{ "dir", required_argument, NULL, 'd' },
		{ "file", required_argument, NULL, 'f' },
		{ "mb", required_argument, NULL, 'm' },
		{ "threads", required_argument, NULL, 't' },
		{ "mode", required_argument, NULL, 'M' },
		{ "pin-ms", required_argument, NULL, 'P' },
		{ "gap-ms", required_argument, NULL, 'G' },
		{ 0 },
	};
	const char *mode = "dio";
	long pin_ms = 1000, gap_ms = 100;
	const char *area = NULL, *dir = "/sys/kernel/debug/cma", *file = NULL;
	long mb = 64, threads = 4, base, count;
	size_t len, nin = 0;
	char *mem, **inside;
	struct worker *ws;
	int pm, c;
	unsigned long long reads = 0, errors = 0;

	page = sysconf(_SC_PAGESIZE);
	while ((c = getopt_long(argc, argv, "a:d:f:m:t:M:P:G:", opts, NULL)) != -1) {
		switch (c) {
		case 'a': area = optarg; break;
		case 'd': dir = optarg; break;
		case 'f': file = optarg; break;
		case 'm': mb = atol(optarg); break;
		case 't': threads = atol(optarg); break;
		case 'M': mode = optarg; break;
		case 'P': pin_ms = atol(optarg); break;
		case 'G': gap_ms = atol(optarg); break;
		default:
			fprintf(stderr, "usage: pin-io --area NAME --file DATA [--mb M] [--threads T]\n");
			return 2;
		}
	}
	if (!area || mb <= 0 || threads <= 0 || threads > 64 || pin_ms < 0 || gap_ms < 0 ||
	    (strcmp(mode, "dio") && strcmp(mode, "vmsplice")) || (!strcmp(mode, "dio") && !file)) {
		fprintf(stderr, "usage: pin-io --area NAME [--mode dio --file DATA [--threads 1..64] |\n"
			"              --mode vmsplice [--pin-ms MS] [--gap-ms MS]] [--mb M]\n");
		return 2;
	}
	base = read_long(dir, area, "base_pfn");
	count = read_long(dir, area, "count");
	if (base < 0 || count <= 0) {
		fprintf(stderr, "pin-io: cannot read %s/%s/{base_pfn,count}\n", dir, area);
		return 1;
	}
	if (file) {
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
	}
	stop_on_signals();

	/* Fault in a buffer and keep the pages that landed in the area. */
	len = (size_t)mb << 20;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		fprintf(stderr, "pin-io: mmap: %s\n", strerror(errno));
		return 1;
	}
	memset(mem, 1, len);
	pm = open("/proc/self/pagemap", O_RDONLY);
	inside = calloc(len / page, sizeof(*inside));
	if (pm < 0 || !inside) {
		fprintf(stderr, "pin-io: /proc/self/pagemap: %s\n", strerror(errno));
		return 1;
	}
	for (size_t off = 0; off < len; off += page) {
		uint64_t e;
		uintptr_t vpn = (uintptr_t)(mem + off) / page;

		if (pread(pm, &e, sizeof(e), vpn * sizeof(e)) != sizeof(e))
			continue;
		if (!(e >> 63))
			continue;
		e &= (1ull << 55) - 1;
		if ((long)e >= base && (long)e < base + count)
			inside[nin++] = mem + off;
		else
			madvise(mem + off, page, MADV_DONTNEED);
	}
	close(pm);
	fprintf(stderr, "pin-io: %zu of %zu pages are in area %s (pfn %ld+%ld)\n", nin,
		len / page, area, base, count);
	if (!nin) {
		/* Nothing to pin: the inducer idles and says so in its statistics. */
		while (!stop)
			pause();
		printf("pin-io: pages_in_area=0 reads=0 errors=0\n");
		return 0;
	}
	if (!strcmp(mode, "vmsplice")) {
		unsigned long long cycles = vmsplice_loop(inside, nin, pin_ms, gap_ms);

		printf("pin-io: mode=vmsplice pages_in_area=%zu cycles=%llu\n", nin, cycles);
		return 0;
	}
	ws = calloc(threads, sizeof(*ws));
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
	return 0;
}
