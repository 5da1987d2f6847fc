/*
 * What is left of a list of steps (kernel builds, the image, the copy-rate
 * calibration, the runs) from each one's estimate and what the finished
 * ones took: the one estimate of a whole 'cmabench run' (run/overall.c).
 * Pure: no clock, no files, so the unit tests give it any history.
 */
#ifndef CMB_ESTIMATE_H
#define CMB_ESTIMATE_H

#include "lib/util.h"

#include <stddef.h>

/* In the order a run does them; the steps before EST_RUN go one at a time. */
enum est_kind { EST_KERNEL, EST_IMAGE, EST_CALIBRATE, EST_RUN, EST_KINDS };

enum est_state { EST_PENDING, EST_RUNNING, EST_DONE };

struct est_step {
	enum est_kind kind;
	enum est_state state;
	double estimate;        /* seconds expected, > 0 */
	/* EST_DONE: seconds it took, 0 if it did not really run (a run whose
	 * kernel did not build): left out of the scaling. EST_RUNNING: seconds
	 * since it started. */
	double seconds;
	/* Runs: a group's runs (a scenario's) end before the next group's start. */
	unsigned group;
	/* Runs: host cores it holds beside other runs; 0: it runs alone. */
	unsigned cores;
};

/*
 * Seconds left: each pending step's estimate scaled by what the done steps
 * of its kind took against their estimates (est_scale), a running one's
 * less its time so far. The steps before the runs add up; the runs of a
 * group are placed as run/jobs.c starts them: in order, as soon as fewer
 * than jobs run and their cores are free.
 */
double est_remaining(const struct est_step *s, size_t n, unsigned jobs, unsigned host_cores);
/* The done steps of kind k: seconds taken over seconds estimated; 1 if none. */
double est_scale(const struct est_step *s, size_t n, enum est_kind k);
/*
 * "1 kernel to build (~21:50), image (~0:20), 67 runs at --jobs 2 (~37:10):
 * about 59:20 in all", before any step ran.
 */
void est_describe(struct strbuf *sb, const struct est_step *s, size_t n, unsigned jobs,
		  unsigned host_cores);
/*
 * At a step's end: "12:03 elapsed; done: kernel 1/1, image 1/1, runs 5/67;
 * ~45:10 left (runs x1.08 their estimates)", the kinds with steps left that
 * took other than their estimates named last.
 */
void est_status(struct strbuf *sb, const struct est_step *s, size_t n, unsigned jobs,
		unsigned host_cores, double elapsed);

#endif
