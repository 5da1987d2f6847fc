/*
 * The progress of a whole 'cmabench run': its steps (the kernels to build,
 * the images, the copy-rate calibrations, the runs), one estimate of them
 * all before the first, and at each step's end one line with what is done
 * and what is left, the estimate corrected by what the steps took
 * (lib/estimate.c). The steps' own progress lines (lib/progress.c) stay.
 */
#ifndef CMB_OVERALL_H
#define CMB_OVERALL_H

#include "lib/estimate.h"
#include "run/runner.h"

#include <stdbool.h>
#include <stdint.h>

struct overall {
	struct est_step *steps;
	size_t n, cap;
	uint64_t start_ns, *started_ns;   /* the command's start, each step's */
	double total;                     /* the estimate before the first step */
	unsigned jobs, host_cores;
	size_t kernels_cached;
	bool slurm;                       /* the runs are Slurm's: not estimated */
	/* Each thing's step; SIZE_MAX when it is none (cached, not needed). */
	size_t kernel[RUNNER_MAX_KERNELS], image[RUNNER_MAX_ARCHES], calibrate[RUNNER_MAX_ARCHES];
	size_t first_run;                 /* plan run i is step first_run + i */
};

/*
 * The steps of ctx's plan (overall-plan.c), after runner_find_kernels; with
 * slurm, the runs are left out (Slurm decides when they run). Checks the image cache and
 * the copy-rate history, so it takes a moment.
 */
void overall_init(struct overall *o, const struct run_ctx *ctx, const struct plan *plan,
		  bool slurm);
/* Appends a step of kind k estimated to take estimate seconds: its index. */
size_t overall_add(struct overall *o, enum est_kind k, double estimate);
/* "[label] 1 kernel to build (~21:50), the image (~0:30), 67 runs at --jobs 2
 * (~37:10): about 59:30 in all; 2 kernels cached" */
void overall_print_plan(const struct overall *o, const char *label);
/*
 * A step of kind k starts or ends; index: the kernel's RUNNER_KIDX, the
 * arch's index, or the run's index in the plan. o NULL, or a thing that is
 * not one of its steps: nothing. counts false: it did not really run (left
 * out of the scaling). Each end prints "[cmabench run] 12:03 elapsed; done:
 * ...; ~45:10 left".
 */
void overall_start(struct overall *o, enum est_kind k, size_t index);
void overall_end(struct overall *o, enum est_kind k, size_t index, bool counts);
/*
 * Plan run index will not run (--resume kept its scenario): done, left out
 * of the scaling, no line; overall_print_status then says what is left.
 */
void overall_keep(struct overall *o, size_t index);
/* "[cmabench run] 12:03 elapsed; done: ...; ~45:10 left", the running steps'
 * seconds brought up to now */
void overall_print_status(struct overall *o);
void overall_free(struct overall *o);

#endif
