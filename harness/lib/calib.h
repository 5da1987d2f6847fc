/*
 * A disk model's divisor (disk-scale) and where it came from: the copy
 * slow-down measured in rounds (run/calibrate.c), whose median is the
 * divisor and whose spread says how far to trust it. The cache's history,
 * each run's metadata.json ("disk_calibration") and the report carry it.
 */
#ifndef CMB_CALIB_H
#define CMB_CALIB_H

#include "lib/env.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

enum calib_source {
	CALIB_NONE,         /* metadata from before the divisor was recorded */
	CALIB_MEASURED,     /* measured by this invocation */
	CALIB_HISTORY,      /* measured earlier, kept in the cache's history */
	CALIB_KEY,          /* the scenario's number (disk-scale=N) */
};

struct calib {
	enum calib_source source;
	double median, min, max;    /* the divisor and the rounds' extremes; 0: unknown */
	int rounds;                 /* 1: one-shot, as before rounds were kept */
	double load;                /* cores the host kept busy just before it; <0 unknown */
	char date[32];              /* UTC, ISO 8601; "": not recorded */
};

/* Rounds whose max/min exceed this disagree too much to trust the median. */
#define CALIB_WIDE 1.25
#define CALIB_ROUNDS 5

/* median (of an even n: the mean of the middle two), min, max and rounds
 * of n ratios, which must all be > 0: 0, or -1. */
int calib_from_ratios(struct calib *c, const double *ratios, size_t n);
/* A one-shot value (an old history entry, or a round count unknown). */
void calib_one(struct calib *c, double value, enum calib_source source);
const char *calib_source_name(enum calib_source s);
/* {"source", and with rounds: "rounds", "median", "min", "max", "date", "host_load"} */
json_object *calib_to_json(const struct calib *c);
/* From calib_to_json's object: 0, or -1 (c untouched) when o is not one. */
int calib_from_json(struct calib *c, json_object *o);
/* max/min > CALIB_WIDE */
bool calib_wide(const struct calib *c);
/* "median of 5 rounds, 4.5x-5.1x, measured 2026-12-04"; scale: the key's
 * number for CALIB_KEY. Caller frees. */
char *calib_describe(const struct calib *c, double scale);
/* Why c may be off, one clause each ("" if nothing), for a host of cores
 * cores: wide rounds, or a load above cores - 1. Caller frees. */
char *calib_doubts(const struct calib *c, unsigned cores);

/*
 * The cache's history (history.h) under key: the bare median, which is what
 * cmabench read before rounds, and the rounds beside it under key.rounds.
 * recall: 0 with c from history (a bare number: 1 round), -1 if none.
 */
int calib_recall(const struct cmb_env *env, const char *key, struct calib *c);
void calib_keep(const struct cmb_env *env, const char *key, const struct calib *c);

#endif
