/*
 * Background workloads, one row of one table each (after fio's ioengine_ops
 * and stress-ng's stressor info): what a scenario's `background` list may
 * name, what each needs, the guest steps it adds and the files it ships.
 * The scenario parser turns the list into struct bg_item once; plan, run
 * and validation only walk that list.
 */
#ifndef CMB_WORKLOAD_H
#define CMB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/util.h"

struct run_spec;

/* What a workload's start line may refer to besides the spec. */
struct wl_args {
	const char *area;           /* the CMA area's name, NULL without one */
	const char *fio_env;        /* "FIO_SIZE=..." */
	const char *alloc_opts;     /* the allocation plan as cma-alloc's options */
};

struct workload {
	const char *name;
	const char *arg;            /* argument after ':' ("JOB"); NULL: takes none */
	const char *file_dir;       /* the argument names a file in this source dir */
	bool needs_area;            /* only with setup cma or gcma */
	bool needs_job;             /* only beside a foreground job */
	bool replaces_alloc;        /* the foreground makes no allocation of its own */
	bool perf;                  /* counted by perf stat into bg-NAME.perf */
	const char *stdout_file;    /* its output is a result (else bg-NAME.log) */
	const char *results;        /* what else it leaves in the results directory */
	const char *help;
	/* Unmeasured preparation before anything starts (may be NULL). */
	void (*prepare)(struct strbuf *steps, const struct run_spec *s, const char *arg,
			const struct wl_args *a);
	/*
	 * The shell command the guest starts in the background (guest init
	 * runs any row's command alike: $R is the results directory, $P the
	 * plan's files); name is the instance's (fio-read for fio:read.fio).
	 */
	void (*command)(struct strbuf *cmd, const char *name, const struct run_spec *s,
			const char *arg, const struct wl_args *a);
};

/* One entry of a scenario's background list. */
struct bg_item {
	const struct workload *w;
	char *arg;                  /* NULL when the workload takes none */
};

struct bg_list {
	struct bg_item *v;
	size_t n;
};

const struct workload *workload_find(const char *name);
/*
 * "fio:a.fio, hog,sampler" into list (replacing its contents): entries
 * split on ',' and trimmed. -1 and *why on an unknown name, a missing or
 * unexpected argument, or an argument with a '/'.
 */
int bg_list_parse(struct bg_list *list, const char *text, const char **why);
void bg_list_copy(struct bg_list *dst, const struct bg_list *src);
void bg_list_free(struct bg_list *list);
/* The first entry of workload name, or NULL. */
const struct bg_item *bg_list_find(const struct bg_list *list, const char *name);
/* "fio:a.fio,hog": the list as a scenario file would spell it (caller frees). */
char *bg_list_string(const struct bg_list *list);
/* The guest's "bg NAME COMMAND > OUTPUT" line of one entry. */
void workload_start(struct strbuf *steps, const struct bg_item *b, const struct run_spec *s,
		    const struct wl_args *a);
/* One help line per workload. */
void workload_print_help(FILE *f);

#endif
