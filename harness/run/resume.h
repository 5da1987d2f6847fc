/*
 * run --resume: a scenario whose complete results directory is already in
 * the results root, made from the same plan by the same harness, is not
 * run again; an interrupted `make run` or `make reproduce` goes on where
 * it stopped.
 */
#ifndef CMB_RESUME_H
#define CMB_RESUME_H

#include "run/runner.h"

/*
 * What a scenario's results are made of, as 64 hex digits into out: each
 * of its runs' guest plan, command line, scratch layout and shipped files,
 * the kernel and root image it boots, the accelerator, and the cmabench
 * executable itself (a rebuilt harness is another one).
 */
void resume_key(struct run_ctx *ctx, const struct plan *plan, const struct scenario *scn,
		char out[65]);
/*
 * The results directory in root of the scenario named name with that key
 * (metadata.json's plan_key) that was not interrupted; NULL if none.
 */
char *resume_find(const char *root, const char *name, const char *key);

#endif
