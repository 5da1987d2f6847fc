/*
 * The progress of a whole 'cmabench run' (overall.h): the steps' states and
 * times, and the lines saying what is done and left. What the steps are
 * comes from overall-plan.c; this file calls no other of run/.
 */
#include "run/overall.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t overall_add(struct overall *o, enum est_kind k, double estimate)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 16;
		o->steps = xrealloc(o->steps, o->cap * sizeof(*o->steps));
	}
	o->steps[o->n] = (struct est_step){ .kind = k, .estimate = estimate };
	return o->n++;
}

void overall_print_plan(const struct overall *o, const char *label)
{
	struct strbuf sb = { 0 };

	sb_addf(&sb, "[%s] ", label);
	est_describe(&sb, o->steps, o->n, o->jobs, o->host_cores);
	if (o->slurm)
		sb_add(&sb, "; then the runs, when Slurm runs them");
	if (o->kernels_cached)
		sb_addf(&sb, "; %zu kernel%s cached", o->kernels_cached,
			o->kernels_cached == 1 ? "" : "s");
	sb_add(&sb, "\n");
	fputs(sb.buf, stdout);
	fflush(stdout);
	sb_free(&sb);
}

static size_t step_of(const struct overall *o, enum est_kind k, size_t index)
{
	switch (k) {
	case EST_KERNEL:
		return index < RUNNER_MAX_KERNELS ? o->kernel[index] : SIZE_MAX;
	case EST_IMAGE:
		return index < RUNNER_MAX_ARCHES ? o->image[index] : SIZE_MAX;
	case EST_CALIBRATE:
		return index < RUNNER_MAX_ARCHES ? o->calibrate[index] : SIZE_MAX;
	case EST_RUN:
		return o->first_run != SIZE_MAX && o->first_run + index < o->n ? o->first_run + index
										  : SIZE_MAX;
	default:
		return SIZE_MAX;
	}
}

void overall_start(struct overall *o, enum est_kind k, size_t index)
{
	size_t s = o ? step_of(o, k, index) : SIZE_MAX;

	if (s == SIZE_MAX)
		return;
	/* an earlier kind's step that has not started never will (its build
	 * failed before it, the guess was wrong): nothing left of it */
	for (size_t i = 0; i < o->n; i++)
		if (o->steps[i].kind < k && o->steps[i].state == EST_PENDING)
			o->steps[i].state = EST_DONE;
	o->steps[s].state = EST_RUNNING;
	o->started_ns[s] = now_ns();
}

void overall_end(struct overall *o, enum est_kind k, size_t index, bool counts)
{
	size_t s = o ? step_of(o, k, index) : SIZE_MAX;
	uint64_t now = now_ns();

	if (s == SIZE_MAX)
		return;
	if (o->steps[s].state != EST_RUNNING)
		o->started_ns[s] = now;
	o->steps[s].state = EST_DONE;
	o->steps[s].seconds = counts ? (now - o->started_ns[s]) / 1e9 : 0;
	overall_print_status(o);
}

void overall_keep(struct overall *o, size_t index)
{
	size_t s = o ? step_of(o, EST_RUN, index) : SIZE_MAX;

	if (s == SIZE_MAX)
		return;
	o->steps[s].state = EST_DONE;
	o->steps[s].seconds = 0;
}

void overall_print_status(struct overall *o)
{
	uint64_t now = now_ns();
	size_t ndone = 0;
	struct strbuf sb = { 0 };

	for (size_t i = 0; i < o->n; i++) {
		if (o->steps[i].state == EST_RUNNING)
			o->steps[i].seconds = (now - o->started_ns[i]) / 1e9;
		ndone += o->steps[i].state == EST_DONE;
	}
	sb_add(&sb, "[cmabench run] ");
	est_status(&sb, o->steps, o->n, o->jobs, o->host_cores, (now - o->start_ns) / 1e9);
	if (ndone == o->n) {
		char d[32];

		fmt_duration(d, sizeof(d), o->total);
		sb_addf(&sb, " (estimated %s at the start)%s", d,
			o->slurm ? "; the runs are Slurm's" : "");
	}
	sb_add(&sb, "\n");
	fputs(sb.buf, stdout);
	fflush(stdout);
	sb_free(&sb);
}

void overall_free(struct overall *o)
{
	free(o->steps);
	free(o->started_ns);
	memset(o, 0, sizeof(*o));
}
