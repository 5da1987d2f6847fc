/*
 * Progress of long steps: "[step] detail  1:05 elapsed, ~2:10 left".
 * On a terminal the line is redrawn in place; otherwise a line is printed
 * every 30 s so logs stay short.
 */
#ifndef CMB_PROGRESS_H
#define CMB_PROGRESS_H

#include <stdint.h>

struct progress {
	char step[96];
	uint64_t start_ns, last_print_ns;
	double estimate_s;      /* 0: unknown */
	int tty;
};

void progress_begin(struct progress *p, const char *step, double estimate_s);
/* fraction in [0,1] refines the estimate; pass a negative value if unknown. */
void progress_update(struct progress *p, const char *detail, double fraction);
/* Prints the final line and returns the elapsed seconds. */
double progress_end(struct progress *p, const char *outcome);
double progress_elapsed(const struct progress *p);
/* From now on, print lines (every 30 s) even on a terminal: output is shared. */
void progress_lines_only(void);

#endif
