/*
 * Durations of earlier builds and runs, kept in the cache directory, so
 * progress lines can estimate what is left; and the copy slow-down
 * (run/calibrate.c), so that a study measures it once.
 */
#ifndef CMB_HISTORY_H
#define CMB_HISTORY_H

#include "lib/env.h"

#include <json-c/json.h>

/* Returns 0 (unknown) if never recorded. */
double history_get(const struct cmb_env *env, const char *key);
void history_set(const struct cmb_env *env, const char *key, double value);
/* The value of key whatever its type (caller puts), or NULL. */
json_object *history_get_obj(const struct cmb_env *env, const char *key);
/* Sets key to v, which it takes over. */
void history_put(const struct cmb_env *env, const char *key, json_object *v);

#endif
