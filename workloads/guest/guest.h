/*
 * What the guest programs share: a stop flag set by SIGTERM/SIGINT (a
 * background workload is stopped with SIGTERM and finishes its output), the
 * monotonic clock, and a sleep that outlasts signals.
 */
#ifndef GUEST_H
#define GUEST_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

static volatile sig_atomic_t stop;

static inline void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* SIGTERM and SIGINT set stop. */
static inline void stop_on_signals(void)
{
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
}

/* CLOCK_MONOTONIC in seconds. */
static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CLOCK_MONOTONIC in nanoseconds. */
static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Sleeps ms milliseconds, resumed after a signal. */
static inline void sleep_ms(double ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)((ms - ts.tv_sec * 1000.0) * 1e6);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * A timed job's line of jobtime.csv, appended to times: name, seconds since
 * t0 (now_s()), and the user and sys seconds of the children waited for.
 */
static inline int append_jobtime(const char *times, const char *name, double t0)
{
	struct rusage ru;
	FILE *f = fopen(times, "a");

	if (!f)
		return 1;
	getrusage(RUSAGE_CHILDREN, &ru);
	fprintf(f, "%s,%.3f,%.3f,%.3f\n", name, now_s() - t0,
		ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return fclose(f) ? 1 : 0;
}

#endif
