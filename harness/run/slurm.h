/*
 * The Slurm commands cmabench uses (sbatch, squeue, scancel): an array job
 * is submitted, its tasks' states are read, and it can be cancelled.
 * Nothing here schedules anything; Slurm does.
 */
#ifndef CMB_SLURM_H
#define CMB_SLURM_H

#include "lib/util.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether sbatch, squeue and scancel are in PATH. */
bool slurm_available(void);

/*
 * Submits script as an array of ntasks tasks (0..ntasks-1) with one log per
 * task (log_pattern, Slurm's %a for the task), cpus per task and the user's
 * own sbatch options; *job gets the job id. On failure *why says what sbatch
 * said. 0 or -1.
 */
int slurm_submit(const char *script, size_t ntasks, long cpus, const char *name,
		 const char *log_pattern, const struct strlist *opts, char **job, char **why);

/* A task's state as squeue names it (PENDING, RUNNING, COMPLETED, ...). */
struct slurm_task {
	long id;
	char state[24];
	char node[64];
};

/*
 * The job's tasks that the controller still knows (up to max); -1 when
 * squeue failed for another reason than a job it has forgotten (then *why).
 * A job it has forgotten has no tasks left: 0.
 */
long slurm_tasks(const char *job, struct slurm_task *v, size_t max, char **why);
/* Whether a state is one a task can still leave (pending, running, ...). */
bool slurm_state_active(const char *state);
/* Cancels the whole array (scancel JOB). */
int slurm_cancel(const char *job);

#endif
