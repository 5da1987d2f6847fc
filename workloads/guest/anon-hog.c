/*
 * anon-hog: keeps a share of free memory filled with anonymous (movable)
 * pages and touches them continuously, so the page allocator places some in
 * CMA pageblocks and a CMA allocation must migrate them out. Runs until
 * SIGTERM/SIGINT, then writes one line of statistics.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guest.h"

/* MemAvailable from /proc/meminfo, in KiB; 0 if unknown. */
static long mem_available_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long v = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &v) == 1)
			break;
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "percent", required_argument, NULL, 'p' },
		{ "mb", required_argument, NULL, 'm' },
		{ 0 },
	};
	long percent = 50, mb = 0, page = sysconf(_SC_PAGESIZE);
	unsigned long long passes = 0, touched = 0;
	size_t len;
	char *mem;
	int c;

	while ((c = getopt_long(argc, argv, "p:m:", opts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'p':
			percent = strtol(optarg, &end, 10);
			if (*end || percent <= 0 || percent > 95) {
				fprintf(stderr, "anon-hog: --percent: 1..95\n");
				return 2;
			}
			break;
		case 'm':
			mb = strtol(optarg, &end, 10);
			if (*end || mb <= 0) {
				fprintf(stderr, "anon-hog: --mb: a positive size in MiB\n");
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: anon-hog [--percent P | --mb M]\n");
			return 2;
		}
	}
	len = mb ? (size_t)mb << 20 : (size_t)(mem_available_kib() * percent / 100) << 10;
	if (!len) {
		fprintf(stderr, "anon-hog: cannot size the hog (no MemAvailable)\n");
		return 1;
	}
	stop_on_signals();
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		fprintf(stderr, "anon-hog: mmap %zu bytes: %s\n", len, strerror(errno));
		return 1;
	}
	fprintf(stderr, "anon-hog: holding %zu MiB\n", len >> 20);
	while (!stop) {
		for (size_t off = 0; off < len && !stop; off += page) {
			mem[off]++;
			touched++;
		}
		passes++;
		usleep(1000);
	}
	printf("anon-hog: mib=%zu passes=%llu pages_touched=%llu\n", len >> 20, passes, touched);
	return 0;
}
