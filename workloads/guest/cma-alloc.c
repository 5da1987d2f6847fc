/*
 * cma-alloc: the guest's allocation driver. Allocates and frees buffers
 * of the area as --path says (alloc-path.h: the DMA-BUF heap, the DMA API
 * through our module, or debugfs's cma_alloc() at --align), following a
 * plan:
 *   sweep   each size --count times (bursts of 1);
 *   burst   --burst allocations back to back (a camera pipeline's buffers),
 *           held together for --hold-ms, then freed together.
 * With --loop the sweep starts over until SIGTERM (a background beside a
 * job: every size keeps coming for as long as the job runs); with
 * --passes N it is made N times (a fixed plan beside a job: every set-up
 * serves the same requests), the first after --start-ms.
 * Requests are spaced by --interval-ms plus a uniform jitter of
 * +-jitter-ms drawn from a generator seeded with --seed, so a plan replays
 * exactly. One CSV row per request; a failed allocation is a data point
 * (success=0, errno), not an error of the driver.
 *
 * With --timeout-ms each request has a deadline: a burst's requests run in
 * a child process, and a request still running at its deadline is aborted
 * by SIGKILL (a fatal signal makes alloc_contig_range() give up with
 * -EINTR). It is recorded as timed out (timed_out=1, errno ETIMEDOUT,
 * latency censored at the deadline) and the plan goes on. Rows are written
 * and flushed as each burst is freed: a run stopped half-way keeps them.
 *
 * With --wait-target each burst first waits (at most --wait-max-ms) until
 * the area's tenants are back at that occupancy: a request takes part of
 * the area back, and the next one should meet the condition the
 * experiment is about; the time waited is in the CSV (refill_wait_ns).
 * --pause-pidfile names the process that refills the area (area-fill's
 * keeper): it is stopped (SIGSTOP) for each burst, from the state read
 * before it to its free, so that no reader of ours runs in a timed window.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc-path.h"
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

/*
 * Our readers, quiet from the state read before a burst to its free: the
 * keeper (--pause-pidfile) stopped with SIGSTOP, the sampler shut out by an
 * exclusive flock of --quiet-lock (it samples under a shared one). Each
 * quiet window is a row of --quiet-out: begin_ns,end_ns (CLOCK_MONOTONIC,
 * alloc.csv's clock), keeper_stopped (0/1) and lock_wait_ns (the sample
 * under way that the window waited for, before it began).
 */
static struct {
	pid_t paused;               /* the keeper, stopped; 0 when none */
	int lock_fd;                /* --quiet-lock, -1 without */
	FILE *out;                  /* --quiet-out, NULL without */
	long long begin, wait;      /* the window under way; begin 0: none */
} quiet = { .lock_fd = -1 };

static void readers_stop(const char *pidfile)
{
	long long t0 = now_ns();
	long pid = 0;
	FILE *f;

	if (quiet.begin)
		return;
	if (quiet.lock_fd >= 0)
		while (flock(quiet.lock_fd, LOCK_EX) && errno == EINTR)
			;
	quiet.begin = now_ns();
	quiet.wait = quiet.begin - t0;
	if (!pidfile || !(f = fopen(pidfile, "r")))
		return;
	if (fscanf(f, "%ld", &pid) == 1 && pid > 1 && !kill((pid_t)pid, SIGSTOP))
		quiet.paused = (pid_t)pid;
	fclose(f);
}

static void readers_go(void)
{
	if (!quiet.begin)
		return;
	if (quiet.paused)
		kill(quiet.paused, SIGCONT);
	if (quiet.lock_fd >= 0)
		flock(quiet.lock_fd, LOCK_UN);
	if (quiet.out) {
		fprintf(quiet.out, "%lld,%lld,%d,%lld\n", quiet.begin, now_ns(), quiet.paused != 0,
			quiet.wait);
		fflush(quiet.out);
	}
	quiet.paused = 0;
	quiet.begin = 0;
}

/*
 * Before a burst: waits until the area's tenants hold target % of it (at
 * most max_ms, looking every 50 ms; no wait without a target), stops the
 * keeper and reads the state the burst records. The background may take
 * pages between the look and the stop, so the reading after the stop is
 * the one that counts: below the target, the keeper goes on and so does
 * the wait, while time is left. Returns the time waited, -1 without a target.
 */
static long long refill_then_read(const char *area, double target, double max_ms,
				  const char *pidfile, struct area_state *st)
{
	long long t0 = now_ns(), end = t0 + (long long)(max_ms * 1e6);

	for (;;) {
		while (target > 0 && !stop && now_ns() < end &&
		       (area_read(area, 0, st) || st->total <= 0 || area_occupancy(st) < target))
			sleep_ms(50);
		readers_stop(pidfile);
		/* Read once per burst: a read between back-to-back requests
		 * would stretch the burst it measures. */
		if (area_read(area, 0, st))
			st->total = st->tenants = -1;
		if (target <= 0 || stop || now_ns() >= end ||
		    (st->total > 0 && area_occupancy(st) >= target))
			break;
		readers_go();
	}
	return target > 0 ? now_ns() - t0 : -1;
}

/* Frees the burst's buffers, under an exclusive flock of lock_fd when >= 0. */
static int free_pages(struct alloc_path *p, long pages, int lock_fd)
{
	int e;

	if (lock_fd >= 0 && flock(lock_fd, LOCK_EX))
		return errno;
	e = path_free(p, pages);
	if (lock_fd >= 0)
		flock(lock_fd, LOCK_UN);
	return e;
}

/* One request as the process that made it saw it. */
struct req {
	long long start, lat;
	struct path_result res;     /* res.err: 0 or the request's errno */
	int done;                   /* the request returned (res, lat valid) */
};

/* What a burst's child and its parent share (MAP_SHARED). */
struct shared {
	atomic_int cur;             /* the request under way, -1 before the first */
	struct req r[256];
};

/* Requests first..k-1 of a burst, in this process. */
static void do_requests(const struct alloc_path *path, long pages, int first, int k,
			struct shared *sh)
{
	for (int b = first; b < k; b++) {
		sh->r[b].start = now_ns();
		atomic_store(&sh->cur, b);
		path_request(path, pages, &sh->r[b].res);
		sh->r[b].lat = now_ns() - sh->r[b].start;
		path_check(path, pages, &sh->r[b].res);
		sh->r[b].done = 1;
	}
}

/*
 * Requests first..k-1 in a child, each given timeout_ns from its start.
 * The parent sleeps on the child's pidfd until the deadline of the request
 * under way (it never wakes during a fast burst), then kills the child.
 * Returns the first request that did not complete, k when every one did;
 * *expired says whether it met its deadline (else the kill caught it just
 * as it began, the one before having completed in time: run it again).
 */
static int run_child(const struct alloc_path *path, long pages, int first, int k,
		     long long timeout_ns, struct shared *sh, bool *expired)
{
	long long forked;
	int pfd, status, late = k;

	*expired = false;
	pid_t pid;

	atomic_store(&sh->cur, -1);
	forked = now_ns();
	pid = fork();
	if (pid < 0) {
		/* no child: the requests run here, without a deadline */
		do_requests(path, pages, first, k, sh);
		return k;
	}
	if (pid == 0) {
		/* the driver gone (killed in a test), its requests end too */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		do_requests(path, pages, first, k, sh);
		_exit(0);
	}
	pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		int b = atomic_load(&sh->cur);
		long long start = b >= first ? sh->r[b].start : forked, left;
		struct pollfd p = { .fd = pfd, .events = POLLIN };

		left = start + timeout_ns - now_ns();
		if (left > 0) {
			int ms = (int)((left + 999999) / 1000000);

			if (pfd >= 0 && poll(&p, 1, ms) > 0) {
				waitpid(pid, &status, 0);
				break;
			}
			/* without a pidfd (a kernel before 5.3): look every 10 ms */
			if (pfd < 0 && (poll(NULL, 0, ms < 10 ? ms : 10),
					waitpid(pid, &status, WNOHANG) == pid))
				break;
			continue;
		}
		if (atomic_load(&sh->cur) != b)
			continue;
		/* reaped once the kernel has noticed the signal: the next request
		 * never overlaps an aborted one */
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		/* a request that returned before the signal landed completed */
		for (late = first; late < k && sh->r[late].done; late++)
			;
		*expired = late == (b < first ? first : b);
		if (*expired && b < first)
			/* killed before it began (a slow fork): its time ran from the fork */
			sh->r[late].start = forked;
		if (late == k)
			return k;
		break;
	}
	if (pfd >= 0)
		close(pfd);
	/* the child died of something else: its unfinished requests failed */
	for (int b = first; b < k && late == k && !*expired; b++)
		if (!sh->r[b].done) {
			sh->r[b].res.err = EIO;
			sh->r[b].done = 1;
		}
	return late;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: cma-alloc --area NAME [--dir DIR] [--count N] [--pages P[,P...]]\n"
		"                 [--burst K] [--hold-ms MS] [--interval-ms MS] [--jitter-ms MS]\n"
		"                 [--seed S] [--out FILE] [--loop | --passes N] [--free-lock FILE]\n"
		"                 [--timeout-ms MS] [--wait-target PCT [--wait-max-ms MS]]\n"
		"                 [--pause-pidfile FILE] [--quiet-lock FILE] [--quiet-out CSV]\n"
		"                 [--start-ms MS]\n"
		"                 [--path heap|dma|debugfs] [--align N|dma] [--verify]\n"
		"For each size, N bursts of K allocations of the area NAME, held MS, freed.\n"
		"--path: heap (/dev/dma_heap/NAME, mapped and touched), dma (dma_alloc_coherent()\n"
		"through cmabench_dma.ko), debugfs (DIR/NAME/alloc and free, default DIR\n"
		"/sys/kernel/debug/cma, the default path) at --align: an order, or dma\n"
		"(min(get_order(size), 8), as the device paths); default 0. --verify: every\n"
		"byte of a buffer checked zero (heap: inside its time; dma: after). CSV:\n"
		"seq,burst,pages,start_ns,latency_ns,success,errno,free_latency_ns,\n"
		"area_total,area_tenants,area_occupancy_pct,timed_out,refill_wait_ns,path,align,\n"
		"from_area,zeroed (the area's state just before the burst's first request:\n"
		"tenants are movable pages in a CMA area, cached pages in a GCMA one; align the\n"
		"order the path asks; from_area 0: a dma buffer from the buddy allocator, a CMA\n"
		"failure; zeroed empty: not checked). --timeout-ms: a request still running after MS\n"
		"is killed (timed_out=1, errno ETIMEDOUT, latency_ns = the deadline); 0: none.\n"
		"--wait-target: before each burst, wait until the tenants hold PCT%% of the area,\n"
		"at most --wait-max-ms (default 30000); refill_wait_ns is the time waited (empty\n"
		"without). --pause-pidfile: the process in FILE (the area's refiller) is stopped\n"
		"from just before each burst to its free. --quiet-lock: held exclusively over the\n"
		"same window (the sampler samples under a shared flock of FILE); --quiet-out: one\n"
		"row per window, begin_ns,end_ns,keeper_stopped,lock_wait_ns.\n"
		"--loop: the sweep again until SIGTERM; --passes N: N times. --start-ms: wait\n"
		"that long before the first burst.\n"
		"--free-lock: frees under an flock of FILE, for drivers that\n"
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

/* The command line. */
struct opts {
	const char *dir, *area, *out, *lock, *pause_pidfile, *path, *align;
	const char *quiet_lock, *quiet_out;
	double count, burst, hold, interval, jitter, seed, timeout;
	double wait_target, wait_max, passes, start_ms;
	long sizes[MAX_SIZES];
	int nsizes, loop, verify;
};

/* What the bursts of a run share, and its counts. */
struct run {
	struct alloc_path path;
	struct shared *sh;
	FILE *f;
	int lock_fd, seq, bursts, failures, timeouts;
};

/* One burst, as its rows record it. */
struct burst {
	long pages, held;
	int k, late[256];
	struct area_state st;
	long long waited, free_ns;
};

/* --pages P[,P...], appended to o->sizes; -1 (said why) on a bad size. */
static int parse_sizes(char *arg, struct opts *o)
{
	char *end, *tok, *save = NULL;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long v = strtol(tok, &end, 10);

		if (*end || v <= 0 || o->nsizes == MAX_SIZES) {
			fprintf(stderr, "cma-alloc: --pages: bad size '%s'\n", tok);
			return -1;
		}
		o->sizes[o->nsizes++] = v;
	}
	return 0;
}

/* What getopt cannot check: -1 when the options make a plan, else 2 (said why). */
static int check_args(const struct opts *o)
{
	if (!o->area || !o->nsizes) {
		usage();
		return 2;
	}
	if (o->burst > 256) {
		fprintf(stderr, "cma-alloc: --burst: at most 256\n");
		return 2;
	}
	if (o->wait_target > 100) {
		fprintf(stderr, "cma-alloc: --wait-target: at most 100 (%%)\n");
		return 2;
	}
	if (o->path && strcmp(o->path, "heap") && strcmp(o->path, "dma") &&
	    strcmp(o->path, "debugfs")) {
		fprintf(stderr, "cma-alloc: --path: '%s' is not heap, dma or debugfs\n", o->path);
		return 2;
	}
	if (o->align && (o->path && strcmp(o->path, "debugfs"))) {
		fprintf(stderr, "cma-alloc: --align: only with --path debugfs (the device paths "
			"align as the DMA API does)\n");
		return 2;
	}
	if (o->align && strcmp(o->align, "dma")) {
		char *end;
		long v = strtol(o->align, &end, 10);

		if (*end || end == o->align || v < 0 || v > 30) {
			fprintf(stderr, "cma-alloc: --align: '%s' is not an order (0-30) or dma\n",
				o->align);
			return 2;
		}
	}
	if (o->jitter > o->interval) {
		fprintf(stderr, "cma-alloc: --jitter-ms must not exceed --interval-ms\n");
		return 2;
	}
	return -1;
}

/* -1 to go on, else main's exit code (0 after --help). */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
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
		{ "passes", required_argument, NULL, 'N' },
		{ "start-ms", required_argument, NULL, 'S' },
		{ "free-lock", required_argument, NULL, 'L' },
		{ "timeout-ms", required_argument, NULL, 't' },
		{ "wait-target", required_argument, NULL, 'w' },
		{ "wait-max-ms", required_argument, NULL, 'W' },
		{ "pause-pidfile", required_argument, NULL, 'P' },
		{ "quiet-lock", required_argument, NULL, 'Q' },
		{ "quiet-out", required_argument, NULL, 'q' },
		{ "path", required_argument, NULL, 'A' },
		{ "align", required_argument, NULL, 'G' },
		{ "verify", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "a:d:n:p:b:H:i:j:s:o:lL:t:w:W:P:Q:q:N:S:A:G:Vh", longopts,
				NULL)) != -1) {
		int bad = 0;

		switch (c) {
		case 'a': o->area = optarg; break;
		case 'd': o->dir = optarg; break;
		case 'o': o->out = optarg; break;
		case 'n': bad = parse_num("count", optarg, 0, &o->count); break;
		case 'b': bad = parse_num("burst", optarg, 1, &o->burst); break;
		case 'H': bad = parse_num("hold-ms", optarg, 0, &o->hold); break;
		case 'i': bad = parse_num("interval-ms", optarg, 0, &o->interval); break;
		case 'j': bad = parse_num("jitter-ms", optarg, 0, &o->jitter); break;
		case 's': bad = parse_num("seed", optarg, 0, &o->seed); break;
		case 't': bad = parse_num("timeout-ms", optarg, 0, &o->timeout); break;
		case 'w': bad = parse_num("wait-target", optarg, 0, &o->wait_target); break;
		case 'W': bad = parse_num("wait-max-ms", optarg, 0, &o->wait_max); break;
		case 'P': o->pause_pidfile = optarg; break;
		case 'Q': o->quiet_lock = optarg; break;
		case 'q': o->quiet_out = optarg; break;
		case 'p': bad = parse_sizes(optarg, o); break;
		case 'l': o->loop = 1; break;
		case 'N': bad = parse_num("passes", optarg, 1, &o->passes); break;
		case 'S': bad = parse_num("start-ms", optarg, 0, &o->start_ms); break;
		case 'L': o->lock = optarg; break;
		case 'A': o->path = optarg; break;
		case 'G': o->align = optarg; break;
		case 'V': o->verify = 1; break;
		case 'h': usage(); return 0;
		default: usage(); return 2;
		}
		if (bad)
			return 2;
	}
	return check_args(o);
}

/* Everything a burst needs, and the CSV's header; 1 (said why) when it cannot be had. */
static int set_up(const struct opts *o, struct run *r)
{
	rng_state = (uint64_t)o->seed;
	area_cma_dir = o->dir;
	/* as a background loop: finish the burst, write the CSV */
	stop_on_signals();
	r->path.kind = !o->path || !strcmp(o->path, "debugfs") ? PATH_DEBUGFS :
		       !strcmp(o->path, "dma") ? PATH_DMA : PATH_HEAP;
	r->path.align = !o->align ? 0 : !strcmp(o->align, "dma") ? -1 : atoi(o->align);
	r->path.verify = o->verify;
	if (path_open(&r->path, o->dir, o->area))
		return 1;
	if (o->quiet_lock && (quiet.lock_fd = open(o->quiet_lock, O_RDWR | O_CREAT, 0644)) < 0) {
		fprintf(stderr, "cma-alloc: %s: %s\n", o->quiet_lock, strerror(errno));
		return 1;
	}
	if (o->quiet_out) {
		if (!(quiet.out = fopen(o->quiet_out, "w"))) {
			fprintf(stderr, "cma-alloc: %s: %s\n", o->quiet_out, strerror(errno));
			return 1;
		}
		fprintf(quiet.out, "begin_ns,end_ns,keeper_stopped,lock_wait_ns\n");
		fflush(quiet.out);
	}
	if (o->lock && (r->lock_fd = open(o->lock, O_RDWR | O_CREAT, 0644)) < 0) {
		fprintf(stderr, "cma-alloc: %s: %s\n", o->lock, strerror(errno));
		return 1;
	}
	r->sh = mmap(NULL, sizeof(*r->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	if (r->sh == MAP_FAILED) {
		fprintf(stderr, "cma-alloc: mmap: %s\n", strerror(errno));
		return 1;
	}
	if (o->out && !(r->f = fopen(o->out, "w"))) {
		fprintf(stderr, "cma-alloc: %s: %s\n", o->out, strerror(errno));
		return 1;
	}
	fprintf(r->f, "seq,burst,pages,start_ns,latency_ns,success,errno,free_latency_ns,"
		"area_total,area_tenants,area_occupancy_pct,timed_out,refill_wait_ns,path,align,"
		"from_area,zeroed\n");
	fflush(r->f);
	return 0;
}

/*
 * The burst's requests with --timeout-ms: one past its deadline is recorded
 * as timed out and the burst goes on after it. Pages a killed request got
 * all the same are added to bu->held, to be freed with the burst.
 */
static void timed_requests(const struct opts *o, struct run *r, struct burst *bu)
{
	for (int first = 0; first < bu->k;) {
		/* a heap buffer is the fd's: a killed request's dies with it */
		long used0 = r->lock_fd < 0 && r->path.kind != PATH_HEAP ?
			     area_debugfs(o->area, "used") : -1;
		bool expired;
		int b = run_child(&r->path, bu->pages, first, bu->k,
				  (long long)(o->timeout * 1e6), r->sh, &expired);

		/* the heap buffers it made, now the parent's */
		path_collect(&r->path);

		if (b == bu->k)
			break;
		if (!expired) {
			first = b;
			continue;
		}
		bu->late[b] = 1;
		r->sh->r[b].lat = (long long)(o->timeout * 1e6);
		r->sh->r[b].res.err = ETIMEDOUT;
		/* Killed between the allocation and the return to user
		 * space, the request may hold its pages: debugfs's used
		 * says so (when no other driver shares the area). */
		if (used0 >= 0) {
			long done = 0, u1 = area_debugfs(o->area, "used");

			for (int q = first; q < b; q++)
				done += r->sh->r[q].res.held;
			if (u1 >= used0 + done + bu->pages) {
				bu->held += bu->pages;
				fprintf(stderr, "cma-alloc: request %d went through as "
					"it was killed: freed with its burst\n", r->seq + b);
			}
		}
		first = b + 1;
	}
}

/* The burst's CSV rows. */
static void write_rows(struct run *r, const struct burst *bu)
{
	for (int b = 0; b < bu->k; b++) {
		const struct req *q = &r->sh->r[b];

		fprintf(r->f, "%d,%d,%ld,%lld,%lld,%d,%d,%lld,", r->seq++, r->bursts, bu->pages,
			q->start, q->lat, !q->res.err, q->res.err, bu->held ? bu->free_ns : 0);
		if (bu->st.total > 0)
			fprintf(r->f, "%ld,%ld,%.1f,%d,", bu->st.total, bu->st.tenants,
				area_occupancy(&bu->st), bu->late[b]);
		else
			fprintf(r->f, ",,,%d,", bu->late[b]);
		if (bu->waited >= 0)
			fprintf(r->f, "%lld", bu->waited);
		fprintf(r->f, ",%s,%d,", path_names[r->path.kind], path_align(&r->path, bu->pages));
		if (q->res.cma >= 0)
			fprintf(r->f, "%d", q->res.cma);
		fputc(',', r->f);
		if (q->res.zeroed >= 0)
			fprintf(r->f, "%d", q->res.zeroed);
		fputc('\n', r->f);
	}
	/* on the results share at once: a run cut short keeps it */
	fflush(r->f);
}

/*
 * One burst of --burst requests of pages each: spaced from the one before,
 * after the refill; held for --hold-ms, freed together, written. 1 (said
 * why) when the free failed.
 */
static int run_burst(const struct opts *o, struct run *r, long pages)
{
	struct burst bu = { .pages = pages, .k = (int)o->burst };
	long long t_free0;

	if (r->bursts > 0 && o->interval > 0) {
		double u = (rng_next() >> 11) * (1.0 / 9007199254740992.0);

		sleep_ms(o->interval + (2 * u - 1) * o->jitter);
	}
	bu.waited = refill_then_read(o->area, o->wait_target, o->wait_max, o->pause_pidfile,
				     &bu.st);
	memset(r->sh->r, 0, bu.k * sizeof(r->sh->r[0]));
	if (path_prepare(&r->path, o->dir, o->area, pages)) {
		readers_go();
		return 1;
	}
	if (o->timeout <= 0) {
		do_requests(&r->path, pages, 0, bu.k, r->sh);
		path_collect(&r->path);
	} else {
		timed_requests(o, r, &bu);
	}
	for (int b = 0; b < bu.k; b++) {
		/* a dma fallback failed as CMA, but its buffer is freed with the others */
		bu.held += r->sh->r[b].res.held;
		if (r->sh->r[b].res.err)
			r->failures++;
		r->timeouts += bu.late[b];
	}
	sleep_ms(o->hold);
	t_free0 = now_ns();
	/* debugfs frees whole earlier allocations, up to the count written */
	if (bu.held && free_pages(&r->path, bu.held, r->lock_fd)) {
		fprintf(stderr, "cma-alloc: freeing %ld pages: %s\n", bu.held, strerror(errno));
		readers_go();
		return 1;
	}
	bu.free_ns = now_ns() - t_free0;
	readers_go();
	write_rows(r, &bu);
	return 0;
}

/* The sweep, --passes times or (--loop) until SIGTERM; 1 when a free failed. */
static int run_plan(const struct opts *o, struct run *r)
{
	double passes = o->passes;

	if (o->start_ms > 0)
		sleep_ms(o->start_ms);
	do {
		for (int s = 0; s < o->nsizes && !stop; s++)
			for (long i = 0; i < (long)o->count && !stop; i++, r->bursts++)
				if (run_burst(o, r, o->sizes[s]))
					return 1;
	} while ((o->loop || --passes >= 1) && !stop);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.dir = "/sys/kernel/debug/cma", .count = 1, .burst = 1, .seed = 1,
		.wait_max = 30000, .passes = 1,
	};
	struct run r = { .f = stdout, .lock_fd = -1 };
	int rc = parse_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	if (set_up(&o, &r) || run_plan(&o, &r))
		return 1;
	if (r.f != stdout && fclose(r.f)) {
		fprintf(stderr, "cma-alloc: %s: %s\n", o.out, strerror(errno));
		return 1;
	}
	fprintf(stderr, "cma-alloc: %d requests in %d bursts, %d failed (%d timed out)\n", r.seq,
		r.bursts, r.failures, r.timeouts);
	return 0;
}
