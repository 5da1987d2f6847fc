/*
 * read-files FILE...: read each file once to its end, one process per
 * file, all started at once; prints "seconds=S bytes=N", S the wall time
 * from before the first start to the last end on the monotonic clock
 * (busybox's clocks in the guest tick in 10 ms, too coarse for reads of a
 * few hundred milliseconds). Exits 1 if a read failed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define BUF_SIZE (1 << 20)

/* Read @path to its end; the number of bytes, or -1. */
static long long read_file(const char *path)
{
	static char buf[BUF_SIZE];
	long long total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		perror(path);
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0)
		perror(path);
	close(fd);
	return n < 0 ? -1 : total;
}

int main(int argc, char **argv)
{
	int pipes[2], i, status, failed = 0;
	long long bytes = 0, b;
	double t0, t1;

	if (argc < 2) {
		fprintf(stderr, "usage: read-files FILE...\n");
		return 2;
	}
	if (pipe(pipes)) {
		perror("pipe");
		return 1;
	}
	t0 = now_s();
	for (i = 1; i < argc; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			b = read_file(argv[i]);
			/* One write of 8 bytes to a pipe is atomic */
			if (write(pipes[1], &b, sizeof(b)) != sizeof(b))
				_exit(1);
			_exit(b < 0);
		}
	}
	close(pipes[1]);
	for (i = 1; i < argc; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
	}
	t1 = now_s();
	while (read(pipes[0], &b, sizeof(b)) == sizeof(b))
		if (b > 0)
			bytes += b;
	printf("seconds=%.6f bytes=%lld\n", t1 - t0, bytes);
	return failed;
}
