/*
 * json-c getters for metadata.json, fio's output and the Slurm manifest: a
 * missing member or one of another type reads as NULL, -1 or the caller's
 * default, never as a crash.
 */
#ifndef CMB_JSON_H
#define CMB_JSON_H

#include <json-c/json.h>
#include <stdbool.h>

/* The value at a JSON pointer ("/read/clat_ns/percentile/99.000000"), or NULL. */
json_object *js_at(json_object *o, const char *pointer);
/* A string member, or NULL. */
const char *js_str(json_object *o, const char *key);
/* A number member as an integer, or -1. */
long long js_int(json_object *o, const char *key);
/* A number member, or absent. */
double js_num(json_object *o, const char *key, double absent);
/* A boolean member; false when absent or of another type. */
bool js_bool(json_object *o, const char *key);
/* An array member, or NULL. */
json_object *js_arr(json_object *o, const char *key);

#endif
