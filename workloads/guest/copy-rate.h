/*
 * Page-copy rate: 4 KiB copies between two 64 MiB buffers for about a
 * second, in MB/s. The same loop runs on the host (cmabench) and in the
 * guest (copy-rate): their ratio is how much the emulation slows what a
 * cache hit costs (a page copy), which a disk throttled to a device's
 * datasheet speed is not slowed by.
 */
#ifndef CMB_COPY_RATE_H
#define CMB_COPY_RATE_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double copy_rate_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* MB/s (10^6 bytes) of 4 KiB page copies over about seconds; -1 without memory. */
static double copy_rate_mbps(double seconds)
{
	const size_t len = 64u << 20, page = 4096;
	char *a = malloc(len), *b = malloc(len);
	double t0, t;
	size_t copied = 0;

	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	memset(a, 1, len);
	memset(b, 2, len);
	t0 = copy_rate_now();
	do {
		for (size_t off = 0; off < len; off += page)
			memcpy(b + off, a + off, page);
		copied += len;
		/* keep the copies from being optimised away */
		a[copied % len] = b[(copied / page) % len];
		t = copy_rate_now() - t0;
	} while (t < seconds);
	free(a);
	free(b);
	return (double)copied / t / 1e6;
}

#endif
