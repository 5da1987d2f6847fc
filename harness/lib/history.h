/*
 * Durations of earlier builds and runs, kept in the cache directory, so
 * progress lines can estimate what is left.
 */
#ifndef CMB_HISTORY_H
#define CMB_HISTORY_H

#include "lib/env.h"

/* Returns 0 (unknown) if never recorded. */
double history_get(const struct cmb_env *env, const char *key);
void history_set(const struct cmb_env *env, const char *key, double value);

#endif
