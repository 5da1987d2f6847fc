#include "run/overall.h"
#include "kbuild/image.h"
#include "run/calibrate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t add(struct overall *o, size_t *cap, enum est_kind k, double estimate)
{
	if (o->n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		o->steps = xrealloc(o->steps, *cap * sizeof(*o->steps));
	}
	o->steps[o->n] = (struct est_step){ .kind = k, .estimate = estimate };
	return o->n++;
}

static bool uses_arch(const struct plan *plan, const struct cmb_arch *a)
{
	for (size_t r = 0; r < plan->n; r++)
		if (plan->runs[r].spec->arch == a)
			return true;
	return false;
}

/* The runs in plan order, a group per scenario (builtin-run.c runs one
 * scenario's runs before the next one's). */
static void add_runs(struct overall *o, size_t *cap, const struct run_ctx *ctx,
		     const struct plan *plan)
{
	unsigned group = 0;

	o->first_run = o->n;
	for (size_t i = 0; i < plan->n; i++) {
		const struct run *r = &plan->runs[i];
		size_t s = add(o, cap, EST_RUN, runner_estimate(ctx->env, r));

		if (i && r->scn != plan->runs[i - 1].scn)
			group++;
		o->steps[s].group = group;
		/* as builtin-run.c: beside others only with --jobs and a scenario that allows it */
		if (ctx->jobs > 1 && scenario_parallel(r->scn))
			o->steps[s].cores = runner_cores(ctx, r);
	}
}

void overall_init(struct overall *o, const struct run_ctx *ctx, const struct plan *plan,
		  bool slurm)
{
	size_t cap = 0;

	memset(o, 0, sizeof(*o));
	o->start_ns = now_ns();
	o->jobs = ctx->jobs > 1 ? (unsigned)ctx->jobs : 1;
	o->host_cores = ctx->host_cores;
	o->slurm = slurm;
	o->first_run = SIZE_MAX;
	for (size_t k = 0; k < RUNNER_MAX_KERNELS; k++)
		o->kernel[k] = SIZE_MAX;
	for (size_t a = 0; a < RUNNER_MAX_ARCHES; a++)
		o->image[a] = o->calibrate[a] = SIZE_MAX;
	/* in the order runner_kernels, runner_images and calibrate_for_plan go */
	for (unsigned int a = 0; a < cmb_arches_count && a < RUNNER_MAX_ARCHES; a++)
		for (unsigned int i = 0; i < kvariants_count(); i++) {
			unsigned int k = RUNNER_KIDX(a, i);

			if (ctx->kernel_todo[k])
				o->kernel[k] = add(o, &cap, EST_KERNEL,
						   kbuild_estimate(ctx->env, &cmb_arches[a],
								   kvariant_at(i)));
			else
				o->kernels_cached += ctx->kernel_ok[k] != 0;
		}
	for (unsigned int a = 0; a < cmb_arches_count && a < RUNNER_MAX_ARCHES; a++)
		if (uses_arch(plan, &cmb_arches[a]) && !image_cached_arch(ctx->env, &cmb_arches[a]))
			o->image[a] = add(o, &cap, EST_IMAGE,
					  image_estimate(ctx->env, &cmb_arches[a]));
	for (unsigned int a = 0; a < cmb_arches_count && a < RUNNER_MAX_ARCHES; a++)
		if (calibrate_needed(ctx, plan, &cmb_arches[a]))
			o->calibrate[a] = add(o, &cap, EST_CALIBRATE, CALIBRATE_ESTIMATE_S);
	if (!slurm)
		add_runs(o, &cap, ctx, plan);
	o->started_ns = xcalloc(o->n ? o->n : 1, sizeof(*o->started_ns));
	o->total = est_remaining(o->steps, o->n, o->jobs, o->host_cores);
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
