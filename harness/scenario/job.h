/*
 * Foreground jobs (scenario key `job`), one row of one table each, as the
 * background workloads of workload.h: the guest command that does the job
 * (guest init runs any row's command alike and times it into jobtime.csv
 * unless the command times itself), and the files it needs laid out on the
 * scratch disk before anything is measured. The data set reads jobtime.csv
 * for every job; a job that leaves more (app-switch's launches.csv) names it.
 */
#ifndef CMB_JOB_H
#define CMB_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

struct run_spec;

struct job {
	const char *name;
	const char *help;
	bool times_itself;          /* writes its own jobtime.csv row (else init times it) */
	const char *results;        /* what else it leaves in the results directory, or NULL */
	/* The shell command the guest runs ($R: the results directory). */
	void (*command)(struct strbuf *cmd, const struct run_spec *s);
	/* Lines of the run's layout (plan.c's make_layout), or NULL: none. */
	void (*layout)(struct strbuf *sb, const struct run_spec *s);
};

const struct job *job_find(const char *name);
/* The jobs' names (the key's values). */
void job_names(struct strlist *out);
/* The guest's command line of job j for s, timed (caller frees). */
char *job_command(const struct job *j, const struct run_spec *s);

#endif
