/* What the guest programs share: a stop flag set by SIGTERM/SIGINT, a clock. */
#ifndef GUEST_H
#define GUEST_H

#include <signal.h>
#include <time.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* CLOCK_MONOTONIC in seconds. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
