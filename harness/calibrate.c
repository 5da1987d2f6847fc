/*
 * The copy slow-down (calibrate.h): one boot of the first kernel at hand
 * with a plan of one step (copy-rate), against the same loop on the host.
 * It is kept in the cache's history so that a study measures it once.
 */
#include "calibrate.h"
#include "csv.h"
#include "history.h"
#include "signals.h"
#include "vm.h"

#include "../workloads/guest/copy-rate.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool plan_needs_it(const struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->runs[i].spec->disk_scale == 0 && strcmp(plan->runs[i].spec->disk, "host"))
			return true;
	return false;
}

static char *history_key(const struct run_ctx *ctx)
{
	char *key = xasprintf("copy-slowdown.%s.%s", ctx->accel, ctx->qemu_version);

	for (char *p = key; *p; p++)
		if (*p == ' ' || *p == '"')
			*p = '_';
	return key;
}

/* The guest's copy rate in MB/s, or -1. */
static double guest_rate(const struct run_ctx *ctx, const char *kernel)
{
	char *dir = env_cache(ctx->env, "tmp/calibrate-XXXXXX");
	char *plan = NULL, *steps = NULL, *console = NULL, *csvp = NULL;
	struct vm_result res = { .kernel_seconds = -1, .init_seconds = -1 };
	struct csv c;
	double rate = -1;

	mkdir_p(ctx->env->cache_dir);
	{
		char *tmp = env_cache(ctx->env, "tmp");

		mkdir_p(tmp);
		free(tmp);
	}
	if (!mkdtemp(dir)) {
		free(dir);
		return -1;
	}
	plan = path_join(dir, "plan");
	steps = path_join(plan, "steps");
	console = path_join(dir, "console.log");
	csvp = path_join(dir, "copy-rate.csv");
	if (!mkdir_p(plan) && !write_file(steps, "copy-rate\n", 10)) {
		struct vm_config vc = {
			.qemu = ctx->env->qemu, .accel = ctx->accel, .mem_mib = 512, .cpus = 1,
			.kernel = kernel, .root_img = ctx->images[0], .share_dir = dir,
			.cmdline = "console=ttyS0 root=/dev/vda rw rootfstype=ext4 init=/sbin/init "
				   "panic=-1 printk.time=1",
			.console_log = console, .timeout_s = 180, .label = "calibrate copy rate",
			.estimate_s = 20,
		};

		vm_run(&vc, &res);
		if (res.status == VM_OK && !csv_open(&c, csvp)) {
			int col = csv_col(&c, "copy_rate_mbps");

			if (col < 0 || !csv_next(&c) || !csv_double(&c, col, &rate))
				rate = -1;
			csv_close(&c);
		}
		if (rate <= 0)
			err_msg("calibrate: the guest's copy rate was not measured (%s; console %s)",
				vm_status_name(res.status), console);
	}
	if (rate > 0)
		rm_rf(dir);
	free(plan);
	free(steps);
	free(console);
	free(csvp);
	free(dir);
	return rate;
}

int calibrate_for_plan(struct run_ctx *ctx, const struct plan *plan)
{
	const char *kernel = NULL;
	char *key;
	double host, guest;

	if (!plan_needs_it(plan))
		return 0;
	key = history_key(ctx);
	ctx->copy_slowdown = history_get(ctx->env, key);
	if (ctx->copy_slowdown > 0) {
		printf("[calibrate] page copies %.1fx slower in the guest (measured before, %s)\n",
		       ctx->copy_slowdown, ctx->accel);
		free(key);
		return 0;
	}
	/* An x86_64 guest's (arch index 0, RUNNER_KIDX(0, i) == i): the history
	 * key names no arch, and arm64 guests do not calibrate yet. */
	for (unsigned int i = 0; i < kvariants_count && !kernel && ctx->images[0]; i++)
		if (ctx->kernel_ok[i])
			kernel = ctx->kernels[i].bzimage;
	printf("[calibrate] measuring how much slower the guest copies pages (disk-scale=cpu)\n");
	host = copy_rate_mbps(2.0);
	guest = kernel && !interrupted() ? guest_rate(ctx, kernel) : -1;
	if (host <= 0 || guest <= 0) {
		free(key);
		return -1;
	}
	ctx->copy_slowdown = host / guest;
	history_set(ctx->env, key, ctx->copy_slowdown);
	printf("[calibrate] host %.0f MB/s, guest %.0f MB/s: %.1fx\n", host, guest,
	       ctx->copy_slowdown);
	free(key);
	return 0;
}
