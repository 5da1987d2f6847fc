/* What the scenario files share (scenario-keys.c, scenario-check.c, scenario.c). */
#ifndef CMB_SCENARIO_INTERNAL_H
#define CMB_SCENARIO_INTERNAL_H

#include "scenario/scenario.h"

#include <stdbool.h>
#include <stddef.h>

enum key_type {
	T_STRING,       /* text; empty: none */
	T_CHOICE,       /* a string from the row's values */
	T_ENUM,         /* an int: the index of the value in posval */
	T_ARCH,         /* an architecture (arch.h) */
	T_SIZE, T_LONG, T_DURATION,
	T_DURATION0,    /* a duration or 0 */
	T_BOOL, T_LONG_LIST, T_BACKGROUND, T_DISK_SCALE,
};

/*
 * One row per key, as fio's option table: where the value goes, its
 * default as a scenario file would spell it, the values it takes. Defaults,
 * validation, 'cmabench help scenario' and the key table of
 * docs/scenarios.md all come from the row.
 */
struct key_def {
	const char *name;
	enum scn_key id;
	enum key_type type;
	size_t off;
	const char *def;                /* default; NULL: none (empty, 0, no) */
	const char *const *posval;      /* T_CHOICE, T_ENUM: the values, NULL-terminated */
	void (*values)(struct strlist *out); /* T_CHOICE, T_ARCH: values known at run time */
	const char *what;               /* T_CHOICE, T_ENUM, T_ARCH: "a set-up" in errors */
	bool may_be_empty;              /* T_CHOICE: an empty value means none */
	long min, max;                  /* T_LONG, T_LONG_LIST */
	const char *form;               /* how the value is written, where the type does not say */
	bool guest;                     /* in the guest's environment as CMB_<NAME> */
	const char *help;
};


/* The name of the key whose id is id ("?" if none). */
const char *key_name_of(enum scn_key id);
/* The key row named name, or NULL. */
const struct key_def *key_find(const char *name);
/* Sets r's field of key k from its text val: 0, or -1 with *why. */
int set_value(struct run_spec *r, const struct key_def *k, const char *val, const char **why);
/* Every key's default into r. */
void spec_defaults(struct run_spec *r);
/* dst becomes a copy of src, its strings its own. */
void spec_copy(struct run_spec *dst, const struct run_spec *src);
void spec_free(struct run_spec *r);

/* scenario-check.c: the checks of a section and of the whole scenario. */
int validate(const char *path, struct run_spec *r, const struct scn_ctx *ctx,
	     struct strbuf *errs);
int check_baseline(const char *path, const struct scenario *scn, struct strbuf *errs);
int check_primary(const char *path, const struct scenario *scn, struct strbuf *errs);

#endif
