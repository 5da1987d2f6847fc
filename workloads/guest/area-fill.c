/*
 * area-fill: brings a reserved area to a target occupancy with its natural
 * tenants, reports when it got there, and keeps it there until stopped.
 *   CMA area: page cache and anonymous memory. Linux 6.12 puts movable
 *   pages into CMA pageblocks only when free CMA pages exceed half of all
 *   free pages, so the area fills only as the rest of memory runs short:
 *   two readers stream a file larger than memory (page cache keeps memory
 *   full, and reclaim can give it back), and anonymous chunks are added
 *   while MemAvailable stays above the area's size plus a margin, so that
 *   CMA can always migrate its tenants out without the OOM killer.
 *   GCMA area: cleancache keeps clean file pages that reclaim evicts while
 *   they are workingset. Two readers stream one file larger than memory,
 *   nearly in step, so every page is read twice while resident.
 *   No area (--area none, a set-up beside the filled ones): the same load
 *   without the condition, so that every set-up of a scenario runs beside
 *   it: the two readers, "done" once they have read as much as the guest's
 *   memory (its page cache is then theirs, as in the filled set-ups, where
 *   page cache alone filled the CMA area: anon_mb 0). No anonymous chunks:
 *   the CMA rule adds them only as its area needs them.
 * The parent returns once the target is reached or the time is up (exit 0
 * or 3) and writes a CSV line; a child keeps the tenants in place until
 * SIGTERM: --keep stream (the default) reads on, so that the cache is in
 * use while allocations run; --keep paced reads only while the area is
 * below its target (an allocation took part of it back), for measurements
 * of a job's CPU time that a streaming keeper would swamp; without an area
 * a paced keeper stops after its pass. --out: target_pct,reached_pct,seconds, status (filled |
 * not-filled | load), anon_mb (anonymous memory it held); --keeper-out:
 * what keeping it cost, keep_seconds,read_mb,reading_seconds;
 * --keeper-windows: when it read, start_ns,end_ns.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdbool.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>

#include "area.h"
#include "guest.h"

#define CHUNK (4L << 20)
#define MARGIN_KB (48L << 10)       /* MemAvailable kept beyond the area's size */


static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ---- CMA: anonymous tenants ---- */

static char **chunks;
static long nchunks, capchunks;

static int add_chunk(void)
{
	char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	for (long o = 0; o < CHUNK; o += 4096)
		p[o] = (char)o | 1;
	if (nchunks == capchunks) {
		capchunks = capchunks ? 2 * capchunks : 64;
		chunks = realloc(chunks, capchunks * sizeof(*chunks));
	}
	chunks[nchunks++] = p;
	return 0;
}

/* One step towards target: an anonymous chunk while there is room for it. */
static void cma_step(const char *area, double target)
{
	struct area_state s;

	if (area_read(area, 0, &s) || area_occupancy(&s) >= target)
		return;
	if (area_meminfo_kb("MemAvailable") > MARGIN_KB + s.total * 4 + (CHUNK >> 10))
		add_chunk();
}

/* ---- GCMA: workingset file pages ---- */

static const char *file_path;
static long long file_bytes;
static _Atomic long long bytes_read;       /* by both readers */
static _Atomic int reading = 1;            /* the keeper pauses the readers */

/*
 * The keeper's own record of when it read (the readers' preads and its
 * look at the area), CLOCK_MONOTONIC windows merged across gaps under 5 ms,
 * written at SIGTERM to --keeper-windows: the report counts the requests a
 * window overlapped and the time cma-alloc kept it stopped (SIGSTOP: a read
 * under way when stopped spans the stop, which the report takes out).
 */
static pthread_mutex_t win_lock = PTHREAD_MUTEX_INITIALIZER;
static long long (*wins)[2];
static size_t nwins, capwins;

static void window_add(long long t0, long long t1)
{
	pthread_mutex_lock(&win_lock);
	if (nwins && t0 <= wins[nwins - 1][1] + 5000000LL) {
		if (t0 < wins[nwins - 1][0])
			wins[nwins - 1][0] = t0;
		if (t1 > wins[nwins - 1][1])
			wins[nwins - 1][1] = t1;
		/* a window that began earlier (the look, a long read) may now
		 * reach back into the ones before: join them */
		while (nwins > 1 && wins[nwins - 1][0] <= wins[nwins - 2][1] + 5000000LL) {
			if (wins[nwins - 1][0] < wins[nwins - 2][0])
				wins[nwins - 2][0] = wins[nwins - 1][0];
			if (wins[nwins - 1][1] > wins[nwins - 2][1])
				wins[nwins - 2][1] = wins[nwins - 1][1];
			nwins--;
		}
	} else {
		if (nwins == capwins) {
			long long (*w)[2];

			capwins = capwins ? 2 * capwins : 256;
			w = realloc(wins, capwins * sizeof(*wins));
			if (!w) {
				pthread_mutex_unlock(&win_lock);
				return;
			}
			wins = w;
		}
		wins[nwins][0] = t0;
		wins[nwins][1] = t1;
		nwins++;
	}
	pthread_mutex_unlock(&win_lock);
}

static void write_windows(const char *path)
{
	FILE *f = path ? fopen(path, "w") : NULL;

	if (!f)
		return;
	fprintf(f, "start_ns,end_ns\n");
	for (size_t i = 0; i < nwins; i++)
		fprintf(f, "%lld,%lld\n", wins[i][0], wins[i][1]);
	fclose(f);
}

static void *reader(void *arg)
{
	char *buf = malloc(1 << 20);
	int fd = open(file_path, O_RDONLY);

	nap_ms((long)(intptr_t)arg);
	while (fd >= 0 && buf && !stop)
		for (long long off = 0; off < file_bytes && !stop; off += 1 << 20) {
			/* paused where it is: the pair stays in step */
			long long t0;
			ssize_t got;

			while (!reading && !stop)
				nap_ms(50);
			t0 = now_ns();
			got = pread(fd, buf, 1 << 20, off);
			window_add(t0, now_ns());
			if (got <= 0)
				break;
			bytes_read += 1 << 20;
		}
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static int make_file(const char *path, long long bytes)
{
	char *buf = malloc(1 << 20);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int rc = 0;

	if (!buf || fd < 0)
		rc = -1;
	for (long long off = 0; !rc && off < bytes; off += 1 << 20) {
		memset(buf, (int)(off >> 20) | 1, 1 << 20);
		if (write(fd, buf, 1 << 20) != 1 << 20)
			rc = -1;
	}
	if (fd >= 0 && (fsync(fd) || close(fd)))
		rc = -1;
	free(buf);
	return rc;
}

static void usage(void)
{
	fprintf(stderr, "usage: area-fill --area NAME --target PCT --timeout SECONDS --out CSV\n"
		"                 --file PATH --file-mb MB (the file the readers stream)\n"
		"                 [--pidfile FILE] (the pid of the process that keeps the area full)\n"
		"                 [--keeper-out CSV] (what keeping it full cost, written at SIGTERM)\n"
		"                 [--keep stream|paced] (read on, or only while the area is short)\n"
		"                 [--keeper-windows CSV] (when the keeper read, written at SIGTERM)\n");
}

/* The command line (--file and --file-mb go to file_path and file_bytes). */
struct opts {
	const char *area, *out, *pidfile, *keeper_out, *windows;
	bool paced;
	double target, timeout;
};

/* -1 to go on, else main's exit code. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "area", required_argument, NULL, 'a' },
		{ "target", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "out", required_argument, NULL, 'o' },
		{ "file", required_argument, NULL, 'f' },
		{ "file-mb", required_argument, NULL, 'm' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "keeper-out", required_argument, NULL, 'k' },
		{ "keep", required_argument, NULL, 'K' },
		{ "keeper-windows", required_argument, NULL, 'w' },
		{ 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "a:t:T:o:f:m:p:k:K:w:", longopts, NULL)) != -1)
		switch (c) {
		case 'a': o->area = optarg; break;
		case 't': o->target = atof(optarg); break;
		case 'T': o->timeout = atof(optarg); break;
		case 'o': o->out = optarg; break;
		case 'f': file_path = optarg; break;
		case 'm': file_bytes = atoll(optarg) << 20; break;
		case 'p': o->pidfile = optarg; break;
		case 'k': o->keeper_out = optarg; break;
		case 'w': o->windows = optarg; break;
		case 'K':
			if (strcmp(optarg, "stream") && strcmp(optarg, "paced")) {
				usage();
				return 2;
			}
			o->paced = !strcmp(optarg, "paced");
			break;
		default: usage(); return 2;
		}
	if (!o->area || !o->out || o->target <= 0 || o->target > 100) {
		usage();
		return 2;
	}
	if (!file_path || file_bytes <= 0) {
		fprintf(stderr, "area-fill: --file and --file-mb name the file the readers stream\n");
		return 2;
	}
	return -1;
}

/* What keeping the area full cost, from kept_from on; nothing when it cannot be written. */
static void write_keeper_out(const char *path, double kept_from, long long read_at_fill,
			     double reading_s)
{
	FILE *k = fopen(path, "w");

	if (k) {
		fprintf(k, "keep_seconds,read_mb,reading_seconds\n%.1f,%.0f,%.1f\n",
			now_s() - kept_from, (double)(bytes_read - read_at_fill) / (1 << 20),
			reading_s);
		fclose(k);
	}
}

/*
 * The child: fills the area, tells the parent through ready_fd (the
 * occupancy reached and the anonymous MB held), and keeps the area full
 * until SIGTERM. Never returns.
 */
static _Noreturn void fill_and_keep(const struct opts *o, int ready_fd, double t0)
{
	bool none = !strcmp(o->area, "none");
	double kept_from = 0, reading_s = 0, last = 0;
	long long read_at_fill = 0;
	struct area_state s;
	pthread_t th[2];
	int said = 0;

	signal(SIGTERM, on_signal);
	if (make_file(file_path, file_bytes)) {
		fprintf(stderr, "area-fill: %s: %s\n", file_path, strerror(errno));
		_exit(1);
	}
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, reader, (void *)(intptr_t)(i * 200));
	while (!stop) {
		long long look = now_ns();
		double occ = 0;
		bool have = true;

		/* none: the share of memory the readers have been through */
		if (none)
			occ = 100.0 * (double)bytes_read / 1024 /
			      (double)area_meminfo_kb("MemTotal");
		else if ((have = !area_read(o->area, 0, &s)))
			occ = area_occupancy(&s);

		if (!none && strcmp(o->area, "gcma"))
			cma_step(o->area, o->target);
		window_add(look, now_ns());
		if (!said && have && (occ >= o->target || now_s() - t0 >= o->timeout)) {
			/* and the anonymous memory held then: the load's size */
			double msg[2] = { occ, (double)nchunks * (CHUNK >> 20) };

			if (write(ready_fd, msg, sizeof(msg)) != sizeof(msg))
				_exit(1);
			said = 1;
			kept_from = last = now_s();
			read_at_fill = bytes_read;
		}
		if (said) {
			double t = now_s();

			reading_s += reading ? t - last : 0;
			last = t;
			/* paced: read again only while the area is short */
			if (o->paced)
				reading = !none && have && occ < o->target;
		}
		nap_ms(said ? 200 : 20);
	}
	reading = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	if (o->keeper_out && said)
		write_keeper_out(o->keeper_out, kept_from, read_at_fill, reading_s);
	if (said)
		write_windows(o->windows);
	_exit(0);
}

/*
 * The parent: names the keeper in --pidfile, waits for the child's word on
 * ready_fd and writes --out. Returns main's exit code: 0 filled (or no
 * area), 3 not, 1 when --out cannot be written.
 */
static int report(const struct opts *o, int ready_fd, pid_t pid, double t0)
{
	double reached, got[2] = { -1, -1 };
	char ok;
	FILE *f;

	if (o->pidfile && (f = fopen(o->pidfile, "w"))) {
		fprintf(f, "%d\n", (int)pid);
		fclose(f);
	}
	ok = read(ready_fd, got, sizeof(got)) == sizeof(got);
	reached = got[0];
	f = fopen(o->out, "w");
	if (!f)
		return 1;
	/* Without an area there is no condition to miss: the load ran ("load"). */
	fprintf(f, "area,target_pct,reached_pct,seconds,status,anon_mb\n%s,%.1f,%.1f,%.2f,%s,%.0f\n",
		o->area, o->target, ok ? reached : -1, now_s() - t0,
		!strcmp(o->area, "none") ? "load" :
		ok && reached >= o->target ? "filled" : "not-filled",
		ok ? got[1] : -1);
	fclose(f);
	printf("area-fill: %s %.1f%% of %.1f%% in %.1f s (filler %d keeps it)\n", o->area,
	       ok ? reached : -1, o->target, now_s() - t0, (int)pid);
	return ok && (reached >= o->target || !strcmp(o->area, "none")) ? 0 : 3;
}

int main(int argc, char **argv)
{
	struct opts o = { .target = 90, .timeout = 120 };
	int pfd[2], rc = parse_args(argc, argv, &o);
	double t0;
	pid_t pid;

	if (rc >= 0)
		return rc;
	if (pipe(pfd))
		return 1;
	t0 = now_s();
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(pfd[0]);
		fill_and_keep(&o, pfd[1], t0);
	}
	close(pfd[1]);
	return report(&o, pfd[0], pid, t0);
}
