/*
 * heartbeat STEP [SECONDS]: while a plan step runs, every SECONDS (20) one
 * console line "cmabench-heartbeat: STEP cpu=N io=N" saying what the guest
 * did so far: the CPU time (clock ticks) of every user-space task but this
 * one, with the children they reaped, and the block I/Os completed on the
 * virtio disks, then "(self N us)", the CPU time this process has used, its
 * own record of what it costs the experiment. The host's watchdog
 * (harness/run/watchdog.c) counts a beat as progress only when cpu or io
 * moved: a step whose tasks all sleep (a read that never completes) beats
 * on with the same numbers and is found silent. One process, asleep
 * between beats, equal in every set-up.
 */
#include "guest.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <unistd.h>

/* CPU ticks of the user-space tasks other than self (kernel threads: pid 2 and its children). */
static unsigned long long task_ticks(pid_t self)
{
	unsigned long long sum = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[64], buf[1024], *p;
		unsigned long long ut, st, cut, cst;
		long pid = strtol(e->d_name, &p, 10), ppid;
		FILE *f;

		if (*p || pid <= 0 || pid == self || pid == 2)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		f = fopen(path, "r");
		if (!f)
			continue;       /* gone since readdir */
		p = fgets(buf, sizeof(buf), f);
		fclose(f);
		/* after "pid (comm) ": comm may hold spaces and parentheses */
		p = p ? strrchr(buf, ')') : NULL;
		if (!p || sscanf(p + 2, "%*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
				 &ppid, &ut, &st, &cut, &cst) != 5 || ppid == 2)
			continue;
		sum += ut + st + cut + cst;
	}
	closedir(d);
	return sum;
}

/* Reads and writes completed on the virtio disks. */
static unsigned long long disk_ios(void)
{
	unsigned long long sum = 0, rd, wr;
	char line[512], name[64];
	FILE *f = fopen("/proc/diskstats", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*u %*u %63s %llu %*u %*u %*u %llu", name, &rd, &wr) == 3 &&
		    !strncmp(name, "vd", 2))
			sum += rd + wr;
	fclose(f);
	return sum;
}

int main(int argc, char **argv)
{
	double every = argc > 2 ? atof(argv[2]) : 20;
	pid_t self = getpid();

	if (argc < 2 || argc > 3 || every <= 0) {
		fprintf(stderr, "usage: heartbeat STEP [SECONDS]\n");
		return 2;
	}
	stop_on_signals();
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (!stop) {
		double until = now_s() + every;

		/* a signal ends the sleep: stop is seen at once */
		while (!stop && now_s() < until) {
			double left = until - now_s();
			struct timespec ts = { (time_t)left, (long)((left - (time_t)left) * 1e9) };

			nanosleep(&ts, NULL);
		}
		if (stop)
			break;
		unsigned long long ticks = task_ticks(self), ios = disk_ios();
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		printf("cmabench-heartbeat: %s cpu=%llu io=%llu (self %lld us)\n", argv[1], ticks,
		       ios, (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
				    ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	}
	return 0;
}
