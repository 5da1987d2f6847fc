/*
 * What a guest's serial console line means to the runner: our init's
 * markers, and the kernel's ways of saying it is in trouble.
 */
#ifndef CMB_CONSOLE_H
#define CMB_CONSOLE_H

enum console_event {
	CON_NONE,
	CON_KERNEL_START,   /* "Linux version ..." */
	CON_INIT_START,     /* our init runs */
	CON_STEP,           /* our init begins or ends a step */
	CON_DONE_OK,        /* init finished, all steps passed */
	CON_DONE_FAILED,    /* init finished, some step failed */
	CON_WARNING,        /* kernel WARNING, stall, list corruption: recorded, the run goes on */
	CON_STACK,          /* a stack dump ("Call Trace:"), with or without a banner */
	CON_OOPS,           /* oops / BUG: the run is marked failed */
	CON_PANIC,          /* kernel panic: the VM is stopped */
	CON_NO_INIT,        /* the kernel could not start our init */
};

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The line of a whole console log in which the kernel said it made no
 * CMA or GCMA area (a gcma= over half of memory, a cma= it could not
 * reserve), malloc'd, or NULL.
 */
char *console_no_area(const char *text);

/* Classifies one console line (without its newline). */
enum console_event console_classify(const char *line);
const char *console_event_name(enum console_event e);

/*
 * Reports a test announced on the line before provoking them: "expect-splat:
 * WARNING at FUNC" or "expect-splat: BUG: KASAN: KIND in FUNC". The next
 * report whose banner starts with the prefix and names the function is
 * accepted, once: by the judge below and by the runner (a run whose only
 * oops was announced is not an oops).
 */
#define CONSOLE_MAX_EXPECTED 16

struct console_expected {
	struct console_expect {
		char prefix[64], func[64];
	} v[CONSOLE_MAX_EXPECTED];
	size_t n;
};

/* Whether line is an announcement (then noted). */
bool console_expect_add(struct console_expected *x, const char *line);
/*
 * Whether the report banner line was announced: then the announcement is
 * taken and the text of the line that ends the report is returned; NULL
 * otherwise.
 */
const char *console_expect_take(struct console_expected *x, const char *line);

/* What the judge found in a whole console. */
struct console_verdict {
	size_t counted;     /* lines that say the kernel is in trouble */
	size_t excused;     /* reports of failed atomic allocations outside our code */
	size_t expected;    /* reports a test tagged beforehand ("expect-splat: "), accepted */
};

/*
 * The judge of a whole console (the VM tests' and 'cmabench console'): every
 * warning, oops, panic or stack dump counts, except the report of a failed
 * atomic allocation (GFP_ATOMIC, GFP_NOWAIT) none of whose frames is
 * cleancache's, GCMA's or CMA's: its caller must cope with failure, and the
 * tests' memory pressure has it happen in writeback on every set-up; and
 * the one report a test announced just before provoking it ("expect-splat:
 * WARNING at FUNC", "expect-splat: BUG: KASAN: KIND in FUNC"), once per
 * announcement. Prints "S line" per counted line, "A line" per excused
 * report and "X line" per announced one to out (if not NULL). 0, or -1 if in cannot be read.
 */
int console_judge(FILE *in, FILE *out, struct console_verdict *v);

#endif
