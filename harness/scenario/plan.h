/*
 * Run plan: a scenario expanded into VM runs (sections times repetitions),
 * each with its kernel command line and the step list our guest init runs.
 */
#ifndef CMB_PLAN_H
#define CMB_PLAN_H

#include <stdio.h>

#include "scenario/scenario.h"

struct run {
	const struct scenario *scn;
	const struct run_spec *spec;
	long rep;
	char *name;             /* <section>-r<rep> */
	char *cmdline;
	char *steps;            /* text of the guest plan */
	/* What the scratch disk holds when the guest boots: a line per tree,
	 * "PROG prepare --dir SUB ARGS", run on the host (run/scratch.c). */
	char *layout;
	unsigned long mem_mib;  /* carveout withholds the area from the guest */
	/* Facts the data set needs, written into the run's metadata.json. */
	const char *area;       /* the CMA area allocated from, or NULL */
	const char *allocations; /* "traced", "untraced" (beside a job) or "none" */
	long order_seed;        /* the scenario's order-seed (0: file order) */
	int order_pos;          /* 1-based place among its repetition's runs */
};

struct plan {
	struct run *runs;
	size_t n;
};

/*
 * Adds the runs of scn (only the named sections if only->n) to plan,
 * repetition-major; within a repetition the sections in the order that
 * the scenario's order-seed and the repetition's number shuffle them to.
 */
int plan_add(struct plan *plan, const struct scenario *scn, const struct strlist *only,
	     struct strbuf *errs);
/*
 * The source files run r ships to its guest (foreground and background fio
 * jobs, the script) as "dir/name" paths relative to the source tree.
 */
void plan_files(const struct run *r, struct strlist *out);
void plan_print(FILE *f, const struct plan *plan);
void plan_free(struct plan *plan);

#endif
