/*
 * app-switch: a phone user switching between apps, for the guest.
 * "prepare" writes each app's files: code (mapped and read whole at
 * launch, as a phone maps its dex/oat and libraries) and assets (half of
 * them read at launch). "run" launches apps in a Zipf-like order (the
 * popular ones far more often): an app not alive starts cold (a child
 * maps its code, reads its assets, touches a heap of its own), one alive
 * is switched to warm (it touches its heap and its code again); the last
 * --keep apps used stay alive and older ones are killed, as Android's
 * low-memory killer keeps a few recent apps. Each launch is timed to the
 * app saying it is ready (the user-visible figure), with the major faults
 * it took: one CSV row per launch. With --times it appends
 * "name,elapsed_s,user_s,sys_s" of the whole run, as build-sim does.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define MAX_APPS 256

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static int write_file(const char *path, long kb, uint64_t seed)
{
	char buf[65536];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		goto fail;
	for (long done = 0; done < kb; done += sizeof(buf) / 1024) {
		size_t len = kb - done < (long)(sizeof(buf) / 1024) ? (size_t)(kb - done) * 1024
								     : sizeof(buf);

		for (size_t k = 0; k < len; k += 8) {
			uint64_t v = mix(seed++);

			memcpy(buf + k, &v, 8);
		}
		if (write(fd, buf, len) != (ssize_t)len)
			goto fail;
	}
	if (close(fd))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "app-switch: %s: %s\n", path, strerror(errno));
	return 1;
}

static int prepare(const char *dir, int apps, long code_kb, long assets_kb)
{
	char path[4096];

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "app-switch: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (int i = 0; i < apps; i++) {
		snprintf(path, sizeof(path), "%s/app%03d.code", dir, i);
		if (write_file(path, code_kb, (uint64_t)i << 40))
			return 1;
		snprintf(path, sizeof(path), "%s/app%03d.assets", dir, i);
		if (write_file(path, assets_kb, ((uint64_t)i << 40) | 1ull << 39))
			return 1;
	}
	/* on the disk before anything is timed */
	sync();
	return 0;
}

/* ---- an app (the child) ------------------------------------------------- */

struct app_cfg {
	const char *dir;
	long heap_mb;
};

static volatile sig_atomic_t resumed;

static void on_usr1(int sig)
{
	(void)sig;
	resumed = 1;
}

/* Reads every page of a mapping; the sum keeps the reads. */
static uint64_t touch_read(const unsigned char *p, size_t len, size_t step)
{
	uint64_t sum = 0;

	for (size_t off = 0; off < len; off += step)
		sum += p[off];
	return sum;
}

/*
 * The app: launch, say ready (one byte on ready_fd), then on each SIGUSR1
 * (switched to) touch its heap and code again and say ready. Killed by
 * SIGKILL (the low-memory killer) or SIGTERM (the run's end).
 */
static void app_main(const struct app_cfg *cfg, int id, int ready_fd)
{
	char path[4096], buf[65536];
	size_t heap_len = (size_t)cfg->heap_mb << 20, code_len;
	unsigned char *code, *heap;
	struct stat st;
	uint64_t sum = 0;
	sigset_t mask, old;
	int fd;

	signal(SIGTERM, SIG_DFL);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, &old);
	signal(SIGUSR1, on_usr1);
	snprintf(path, sizeof(path), "%s/app%03d.code", cfg->dir, id);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		_exit(1);
	code_len = (size_t)st.st_size;
	code = mmap(NULL, code_len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (code == MAP_FAILED)
		_exit(1);
	sum += touch_read(code, code_len, 4096);
	/* assets: the first half, read (images, layouts of the first screen) */
	snprintf(path, sizeof(path), "%s/app%03d.assets", cfg->dir, id);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		_exit(1);
	for (off_t done = 0; done < st.st_size / 2;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n <= 0)
			break;
		sum += (unsigned char)buf[0];
		done += n;
	}
	close(fd);
	heap = mmap(NULL, heap_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (heap == MAP_FAILED)
		_exit(1);
	/* an app's heap: distinct data per page (zram compresses it about as a
	 * real heap: half of each page random, half zero) */
	for (size_t off = 0; off < heap_len; off += 4096) {
		uint64_t v = mix(sum + off);

		for (size_t k = 0; k < 2048; k += 8)
			memcpy(heap + off + k, &v, 8), v = mix(v);
	}
	for (;;) {
		char c = (char)(sum & 0x7f);

		if (write(ready_fd, &c, 1) != 1)
			_exit(1);
		while (!resumed)
			sigsuspend(&old);
		resumed = 0;
		/* switched to: its screen drawn from its heap and code again */
		sum += touch_read(heap, heap_len, 4096);
		sum += touch_read(code, code_len, 4096);
	}
}

/* ---- the user (the parent) ----------------------------------------------- */

struct app {
	pid_t pid;                  /* 0: not alive */
	int ready_fd;               /* the app's "ready" pipe, read end */
	long last_used;             /* launch sequence number */
};

/* An app's major faults so far (/proc/PID/stat field 12), -1 unknown. */
static long majflt(pid_t pid)
{
	char path[64], buf[1024], *p;
	long v = -1;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* after "pid (comm)": state ppid pgrp session tty tpgid flags minflt cminflt majflt */
	if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %ld", &v) != 1)
		v = -1;
	return v;
}

static void app_kill(struct app *a, int sig)
{
	if (!a->pid)
		return;
	kill(a->pid, sig);
	while (waitpid(a->pid, NULL, 0) < 0 && errno == EINTR)
		;
	close(a->ready_fd);
	a->pid = 0;
}

/* Waits for the app's ready byte; false if it died. */
static bool app_wait_ready(struct app *a)
{
	char c;
	ssize_t n;

	while ((n = read(a->ready_fd, &c, 1)) < 0 && errno == EINTR)
		;
	return n == 1;
}

static int app_launch(struct app *a, const struct app_cfg *cfg, int id)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		app_main(cfg, id, p[1]);
	}
	close(p[1]);
	a->pid = pid;
	a->ready_fd = p[0];
	return 0;
}

/* Zipf-like popularity: app i (0 most popular) weighs 1 / (i + 1)^s. */
static int pick(const double *cdf, int apps, uint64_t *rng)
{
	double u;

	*rng = mix(*rng + 0x9e3779b97f4a7c15ull);
	u = (*rng >> 11) * (1.0 / 9007199254740992.0) * cdf[apps - 1];
	for (int i = 0; i < apps; i++)
		if (u < cdf[i])
			return i;
	return apps - 1;
}

/* The command line after "prepare" or "run". */
struct opts {
	const char *dir, *out, *times, *name;
	long apps, code_kb, assets_kb, launches, keep, heap_mb;
	double zipf, dwell_ms;
	uint64_t seed;
};

/* -1 to go on, else main's exit code. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "apps", required_argument, NULL, 'a' },
		{ "code-kb", required_argument, NULL, 'c' },
		{ "assets-kb", required_argument, NULL, 'A' },
		{ "launches", required_argument, NULL, 'l' },
		{ "keep", required_argument, NULL, 'k' },
		{ "heap-mb", required_argument, NULL, 'H' },
		{ "zipf", required_argument, NULL, 'z' },
		{ "dwell-ms", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "times", required_argument, NULL, 't' },
		{ "name", required_argument, NULL, 'n' },
		{ 0 },
	};
	int c;

	if (argc < 2 || (strcmp(argv[1], "prepare") && strcmp(argv[1], "run"))) {
		fprintf(stderr, "usage: app-switch prepare|run --dir DIR [--apps N] [--code-kb K]\n"
			"       [--assets-kb K] [--launches L] [--keep K] [--heap-mb M] [--zipf S]\n"
			"       [--dwell-ms MS] [--seed S] [--out FILE] [--times FILE] [--name NAME]\n"
			"CSV: seq,app,kind,launch_ns,majflt,alive (kind: cold or warm; majflt: the\n"
			"app's major faults during the launch; alive: apps alive after it)\n");
		return 2;
	}
	optind = 2;
	while ((c = getopt_long(argc, argv, "d:a:c:A:l:k:H:z:w:s:o:t:n:", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': o->dir = optarg; break;
		case 'a': o->apps = atol(optarg); break;
		case 'c': o->code_kb = atol(optarg); break;
		case 'A': o->assets_kb = atol(optarg); break;
		case 'l': o->launches = atol(optarg); break;
		case 'k': o->keep = atol(optarg); break;
		case 'H': o->heap_mb = atol(optarg); break;
		case 'z': o->zipf = atof(optarg); break;
		case 'w': o->dwell_ms = atof(optarg); break;
		case 's': o->seed = (uint64_t)atoll(optarg); break;
		case 'o': o->out = optarg; break;
		case 't': o->times = optarg; break;
		case 'n': o->name = optarg; break;
		default: return 2;
		}
	}
	if (!o->dir || o->apps < 1 || o->apps > MAX_APPS || o->code_kb < 4 || o->assets_kb < 4 ||
	    o->launches < 1 || o->keep < 1 || o->heap_mb < 1 || o->zipf < 0 || o->dwell_ms < 0) {
		fprintf(stderr, "app-switch: --dir is needed; --apps 1-%d; sizes and counts must "
			"be positive\n", MAX_APPS);
		return 2;
	}
	return -1;
}

/* The low-memory killer: while more than keep are alive, the least recently used but cur. */
static void kill_lru(struct app *app, int apps, const struct app *cur, long keep, int *alive)
{
	while (*alive > keep) {
		struct app *lru = NULL;

		for (int i = 0; i < apps; i++)
			if (app[i].pid && &app[i] != cur &&
			    (!lru || app[i].last_used < lru->last_used))
				lru = &app[i];
		app_kill(lru, SIGKILL);
		(*alive)--;
	}
}

/*
 * The launches, one CSV row each to f; the apps launched are left alive in
 * app[]. Returns 1 when an app could not be launched or died launching.
 */
static int launch_apps(const struct opts *o, const struct app_cfg *cfg, const double *cdf,
		       struct app *app, FILE *f)
{
	uint64_t rng = o->seed;
	int alive = 0, rc = 0;

	for (long seq = 0; seq < o->launches && !stop; seq++) {
		int id = pick(cdf, (int)o->apps, &rng);
		struct app *a = &app[id];
		bool warm = a->pid != 0;
		long m0 = warm ? majflt(a->pid) : 0, m1;
		long long t = now_ns();

		if (warm)
			kill(a->pid, SIGUSR1);
		else if (app_launch(a, cfg, id)) {
			rc = 1;
			break;
		} else
			alive++;
		if (!app_wait_ready(a)) {
			fprintf(stderr, "app-switch: app %d died launching\n", id);
			app_kill(a, SIGKILL);
			alive--;
			rc = 1;
			continue;
		}
		t = now_ns() - t;
		m1 = majflt(a->pid);
		a->last_used = seq;
		kill_lru(app, (int)o->apps, a, o->keep, &alive);
		fprintf(f, "%ld,%d,%s,%lld,%ld,%d\n", seq, id, warm ? "warm" : "cold", t,
			m1 >= 0 && m0 >= 0 ? m1 - m0 : -1, alive);
		fflush(f);
		sleep_ms(o->dwell_ms);
	}
	return rc;
}

/* "run": the launches, then every app ended and --times appended. Returns main's exit code. */
static int run(const struct opts *o)
{
	static struct app app[MAX_APPS];
	double cdf[MAX_APPS], t0, w = 0;
	struct app_cfg cfg;
	FILE *f = stdout;
	int rc;

	if (o->out && !(f = fopen(o->out, "w"))) {
		fprintf(stderr, "app-switch: %s: %s\n", o->out, strerror(errno));
		return 1;
	}
	for (int i = 0; i < o->apps; i++) {
		w += 1.0 / pow(i + 1.0, o->zipf);
		cdf[i] = w;
	}
	cfg = (struct app_cfg){ .dir = o->dir, .heap_mb = o->heap_mb };
	stop_on_signals();
	signal(SIGPIPE, SIG_IGN);
	fprintf(f, "seq,app,kind,launch_ns,majflt,alive\n");
	t0 = now_s();
	rc = launch_apps(o, &cfg, cdf, app, f);
	for (int i = 0; i < o->apps; i++)
		app_kill(&app[i], SIGTERM);
	if (f != stdout && fclose(f))
		rc = 1;
	if (o->times && append_jobtime(o->times, o->name, t0))
		rc = 1;
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.name = "apps", .apps = 20, .code_kb = 16384, .assets_kb = 8192, .launches = 100,
		.keep = 4, .heap_mb = 32, .zipf = 1.0, .dwell_ms = 1000, .seed = 1,
	};
	int rc = parse_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	if (!strcmp(argv[1], "prepare"))
		return prepare(o.dir, (int)o.apps, o.code_kb, o.assets_kb);
	return run(&o);
}
