/*
 * The steps of a whole 'cmabench run' before the first starts: the kernels
 * to build, the images, the copy-rate calibrations and the runs, each with
 * its estimate (from the build history, the image cache, the runs'
 * history). It asks the runner and the calibration; overall.c, which they
 * tell of their progress, asks nobody back.
 */
#include "run/overall.h"
#include "kbuild/image.h"
#include "kbuild/kbuild.h"
#include "run/calibrate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool uses_arch(const struct plan *plan, const struct cmb_arch *a)
{
	for (size_t r = 0; r < plan->n; r++)
		if (plan->runs[r].spec->arch == a)
			return true;
	return false;
}

/* The runs in plan order, a group per scenario (builtin-run.c runs one
 * scenario's runs before the next one's). */
static void add_runs(struct overall *o, const struct run_ctx *ctx,
		     const struct plan *plan)
{
	unsigned group = 0;

	o->first_run = o->n;
	for (size_t i = 0; i < plan->n; i++) {
		const struct run *r = &plan->runs[i];
		size_t s = overall_add(o, EST_RUN, runner_estimate(ctx->env, r));

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
				o->kernel[k] = overall_add(o, EST_KERNEL,
						   kbuild_estimate(ctx->env, &cmb_arches[a],
								   kvariant_at(i)));
			else
				o->kernels_cached += ctx->kernel_ok[k] != 0;
		}
	for (unsigned int a = 0; a < cmb_arches_count && a < RUNNER_MAX_ARCHES; a++)
		if (uses_arch(plan, &cmb_arches[a]) && !image_cached_arch(ctx->env, &cmb_arches[a]))
			o->image[a] = overall_add(o, EST_IMAGE,
					  image_estimate(ctx->env, &cmb_arches[a]));
	for (unsigned int a = 0; a < cmb_arches_count && a < RUNNER_MAX_ARCHES; a++)
		if (calibrate_needed(ctx, plan, &cmb_arches[a]))
			o->calibrate[a] = overall_add(o, EST_CALIBRATE, CALIBRATE_ESTIMATE_S);
	if (!slurm)
		add_runs(o, ctx, plan);
	o->started_ns = xcalloc(o->n ? o->n : 1, sizeof(*o->started_ns));
	o->total = est_remaining(o->steps, o->n, o->jobs, o->host_cores);
}

