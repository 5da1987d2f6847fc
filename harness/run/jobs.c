#include "run/jobs.h"
#include "lib/progress.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void jobs_init(struct jobs *j, size_t max, unsigned host_cores)
{
	memset(j, 0, sizeof(*j));
	j->max = max ? max : 1;
	j->host_cores = host_cores ? host_cores : 1;
	j->v = xcalloc(j->max, sizeof(*j->v));
	j->core_used = xcalloc(j->host_cores, sizeof(*j->core_used));
}

void jobs_free(struct jobs *j)
{
	free(j->v);
	free(j->core_used);
	memset(j, 0, sizeof(*j));
}

size_t jobs_running(const struct jobs *j)
{
	return j->n;
}

/* The first run of ncores free cores, or host_cores if there is none. */
static unsigned free_cores(const struct jobs *j, unsigned ncores)
{
	for (unsigned c = 0; c + ncores <= j->host_cores; c++) {
		unsigned k = 0;

		while (k < ncores && !j->core_used[c + k])
			k++;
		if (k == ncores)
			return c;
	}
	return j->host_cores;
}

bool jobs_can_start(const struct jobs *j, unsigned ncores)
{
	return j->n < j->max && free_cores(j, ncores) < j->host_cores;
}

int jobs_start(struct jobs *j, size_t id, unsigned ncores, job_fn fn, void *arg)
{
	unsigned first = free_cores(j, ncores);
	struct job_slot *s;
	int pfd[2];
	pid_t pid;

	if (j->n >= j->max || first >= j->host_cores || pipe2(pfd, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		cpu_set_t set;
		char cores[32];
		char *out;

		close(pfd[0]);
		CPU_ZERO(&set);
		for (unsigned c = first; c < first + ncores; c++)
			CPU_SET(c, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			fprintf(stderr, "cmabench: cannot pin to cores %u-%u: %s\n", first,
				first + ncores - 1, strerror(errno));
		/* Several VMs share the terminal: progress as lines, not redrawn. */
		progress_lines_only();
		snprintf(cores, sizeof(cores), ncores > 1 ? "%u-%u" : "%u", first,
			 first + ncores - 1);
		out = fn(arg, cores);
		if (out) {
			size_t len = strlen(out), off = 0;

			while (off < len) {
				ssize_t w = write(pfd[1], out + off, len - off);

				if (w <= 0)
					_exit(1);
				off += (size_t)w;
			}
		}
		_exit(out ? 0 : 1);
	}
	close(pfd[1]);
	for (size_t i = 0; i < j->n; i++)
		if (j->v[i].beside < j->n)
			j->v[i].beside = (unsigned)j->n;
	s = &j->v[j->n++];
	*s = (struct job_slot){ .pid = pid, .fd = pfd[0], .id = id, .first_core = first,
				.ncores = ncores, .beside = (unsigned)(j->n - 1) };
	for (unsigned c = first; c < first + ncores; c++)
		j->core_used[c] = true;
	return 0;
}

bool jobs_wait(struct jobs *j, struct job_done *d)
{
	struct strbuf sb;
	char buf[4096];
	int status;
	pid_t pid;
	size_t i;
	ssize_t n;

	if (!j->n)
		return false;
	do
		pid = waitpid(-1, &status, 0);
	while (pid < 0 && errno == EINTR);
	for (i = 0; i < j->n && j->v[i].pid != pid; i++)
		;
	if (pid < 0 || i == j->n)
		return jobs_wait(j, d);     /* a child that is not ours (none expected) */
	sb_init(&sb);
	while ((n = read(j->v[i].fd, buf, sizeof(buf) - 1)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0) {
			buf[n] = '\0';
			sb_add(&sb, buf);
		}
	close(j->v[i].fd);
	d->id = j->v[i].id;
	d->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	d->out = sb.len ? sb_detach(&sb) : NULL;
	sb_free(&sb);
	d->beside = j->v[i].beside;
	for (unsigned c = j->v[i].first_core; c < j->v[i].first_core + j->v[i].ncores; c++)
		j->core_used[c] = false;
	j->v[i] = j->v[--j->n];
	return true;
}
