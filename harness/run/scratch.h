/*
 * A run's scratch disk: a sparse ext4 image of the scenario's size that
 * already holds the files its workloads read (the run's layout), written on
 * the host by the guest's own programs before the guest boots, so that no
 * run spends its time, or its page cache, writing them.
 */
#ifndef CMB_RUN_SCRATCH_H
#define CMB_RUN_SCRATCH_H

#include "lib/env.h"
#include "scenario/plan.h"

/* The image's path (under the cache's tmp/), or NULL after an error message. */
char *scratch_make(const struct cmb_env *env, const struct run *r, const char *tag);

#endif
