/*
 * What a board must have to run cmabench's kernels (cmabench target check):
 * one ssh session runs a probe script that prints key=value facts, and a
 * table of requirements judges them. The facts also name the board in a
 * run's metadata.json (model, CPU, memory, the kernel it runs).
 */
#ifndef CMB_TARGET_H
#define CMB_TARGET_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "run/ssh.h"

/* The probe's facts: "key=value" lines, in order. */
struct board_facts {
	struct strlist keys, values;
};

/* The probe script for a board whose directory of ours is dir (caller frees). */
char *target_probe_script(const char *dir);
/* Parses the probe's output (lines without '=' are ignored). */
void board_facts_parse(const char *text, struct board_facts *f);
/* The value of key, or NULL. */
const char *board_fact(const struct board_facts *f, const char *key);
void board_facts_free(struct board_facts *f);

enum req_verdict { REQ_OK, REQ_MISSING, REQ_WARN, REQ_INFO };

struct req_result {
	const char *name;
	enum req_verdict verdict;
	char detail[256];           /* what was found, and the fix when missing */
};

/*
 * Judges every requirement: fills out[] (at most max) and returns how many;
 * *missing counts those a run cannot do without.
 */
size_t target_judge(const struct board_facts *f, struct req_result *out, size_t max,
		    int *missing);
/* The cmabench arch of the board ("x86_64", "arm64"), or NULL. */
const char *board_arch(const struct board_facts *f);
/* The board's identity for metadata.json: model, CPU, memory, kernel. */
json_object *board_identity(const struct board_facts *f);
/* Prints the judged requirements, one line each. */
void target_print(FILE *out, const struct req_result *r, size_t n);

/* Probes the board: 0 and its facts, or -1 with ssh's words in errs. */
int target_probe(const struct target *t, struct board_facts *f, struct strbuf *errs);

#endif
