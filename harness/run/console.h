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

#include <stdio.h>

/* Classifies one console line (without its newline). */
enum console_event console_classify(const char *line);
const char *console_event_name(enum console_event e);

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
