#include "lib/progress.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int lines_only;

void progress_lines_only(void)
{
	lines_only = 1;
}

void progress_begin(struct progress *p, const char *step, double estimate_s)
{
	char est[32] = "";

	memset(p, 0, sizeof(*p));
	snprintf(p->step, sizeof(p->step), "%s", step);
	p->start_ns = p->last_print_ns = now_ns();
	p->estimate_s = estimate_s;
	p->tty = !lines_only && isatty(STDOUT_FILENO);
	if (estimate_s > 0)
		fmt_duration(est, sizeof(est), estimate_s);
	printf("[%s] started%s%s%s\n", p->step, est[0] ? " (estimate " : "", est,
	       est[0] ? ")" : "");
	fflush(stdout);
}

double progress_elapsed(const struct progress *p)
{
	return (now_ns() - p->start_ns) / 1e9;
}

void progress_update(struct progress *p, const char *detail, double fraction)
{
	double el = progress_elapsed(p);
	double left = -1;
	char e[32], l[32];

	if (!p->tty && now_ns() - p->last_print_ns < 30ull * 1000000000ull)
		return;
	p->last_print_ns = now_ns();
	if (fraction > 0.05 && fraction <= 1)
		left = el / fraction - el;
	else if (p->estimate_s > 0)
		left = p->estimate_s - el;
	fmt_duration(e, sizeof(e), el);
	if (left >= 0)
		fmt_duration(l, sizeof(l), left);
	else
		snprintf(l, sizeof(l), "?");
	printf("%s[%s] %s  %s elapsed, ~%s left%s", p->tty ? "\r\033[K" : "", p->step,
	       detail, e, l, p->tty ? "" : "\n");
	fflush(stdout);
}

double progress_end(struct progress *p, const char *outcome)
{
	double el = progress_elapsed(p);
	char e[32];

	fmt_duration(e, sizeof(e), el);
	printf("%s[%s] %s in %s\n", p->tty ? "\r\033[K" : "", p->step, outcome, e);
	fflush(stdout);
	return el;
}
