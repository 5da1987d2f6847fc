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
	CON_WARNING,        /* kernel WARNING: recorded, the run goes on */
	CON_OOPS,           /* oops / BUG: the run is marked failed */
	CON_PANIC,          /* kernel panic: the VM is stopped */
	CON_NO_INIT,        /* the kernel could not start our init */
};

/* Classifies one console line (without its newline). */
enum console_event console_classify(const char *line);
const char *console_event_name(enum console_event e);

#endif
