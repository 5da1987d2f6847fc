/*
 * Runs through Slurm: one array job whose task i runs the plan's run i.
 * RESULTS/.slurm-<stamp>-XXXXXX/ holds the submission (submission.json: the
 * plan as submitted, where each scenario's runs go), the job's script and a
 * log per task. Each scenario's runs are written into its own temporary
 * directory as a local run's are; when the array has ended, each is
 * completed as a local run's is, tasks that died named with their logs.
 */
#ifndef CMB_SUBMIT_H
#define CMB_SUBMIT_H

#include "run/runner.h"
#include "scenario/selection.h"

/*
 * Submits sel's plan (kernels and image already in ctx, shared with the
 * nodes through the cache directory) with the user's sbatch options; waits
 * for it and completes its results unless !wait. Returns what 'cmabench
 * run' returns: 0, 1 when a run failed or something could not be done,
 * 130 when interrupted.
 */
int submit_run(struct run_ctx *ctx, const struct selection *sel, const char *stamp,
	       const struct strlist *sbatch, bool wait);
/* Waits for a submission's array job and completes its results directories. */
int submit_wait(const struct cmb_env *env, const char *stage);
/*
 * Sets vms_beside in each run's metadata from start_unix, end_unix and
 * host.name: the most other runs on its host at any moment of its life.
 */
void submit_set_beside(json_object **m, size_t n);
/* One array task: runs the submission's run index into its scenario's directory. */
int submit_task(struct cmb_env *env, const char *stage,
		long index);

#endif
