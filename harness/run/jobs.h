/*
 * Runs at once: at most max children, each pinned to host cores of its own
 * (sched_setaffinity, inherited by the QEMU it starts), never more cores in
 * use than the host has. A child runs one function and hands its result
 * (a string, here a run's metadata as JSON) back through a pipe.
 */
#ifndef CMB_JOBS_H
#define CMB_JOBS_H

#include <stdbool.h>
#include <stddef.h>

typedef char *(*job_fn)(void *arg, const char *cores);

struct job_slot {
	int pid, fd;
	size_t id;
	unsigned first_core, ncores;
	unsigned beside;            /* most other jobs running at once during its life */
};

struct jobs {
	struct job_slot *v;
	size_t n, max;
	unsigned host_cores;
	bool *core_used;
};

struct job_done {
	size_t id;
	char *out;                  /* what the function returned, NULL if it died */
	int status;                 /* exit status, 128 + signal if killed */
	unsigned beside;
};

void jobs_init(struct jobs *j, size_t max, unsigned host_cores);
void jobs_free(struct jobs *j);
/* Whether a job needing ncores could start now. */
bool jobs_can_start(const struct jobs *j, unsigned ncores);
/* Forks fn(arg, "2-3") pinned to ncores free cores; -1 if it cannot start. */
int jobs_start(struct jobs *j, size_t id, unsigned ncores, job_fn fn, void *arg);
/* Waits for one job to end; false when none is running. */
bool jobs_wait(struct jobs *j, struct job_done *d);
/* How many jobs run now. */
size_t jobs_running(const struct jobs *j);

#endif
