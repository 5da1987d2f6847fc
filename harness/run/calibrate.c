/*
 * The copy slow-down (calibrate.h): one boot of the first kernel at hand
 * with a plan of one step (copy-rate), against the same loop on the host.
 * It is kept in the cache's history so that a study measures it once.
 */
#include "run/calibrate.h"
#include "lib/csv.h"
#include "lib/history.h"
#include "lib/signals.h"
#include "run/overall.h"
#include "run/vm.h"

#include "../../workloads/guest/copy-rate.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool plan_needs_it(const struct plan *plan, const struct cmb_arch *a)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->runs[i].spec->arch == a && plan->runs[i].spec->disk_scale == 0 &&
		    strcmp(plan->runs[i].spec->disk, "host"))
			return true;
	return false;
}

/* The accelerator runner_accel will likely choose (calibrate_needed runs before it). */
static const char *likely_accel(const struct run_ctx *ctx)
{
	const char *pref = ctx->env->accel;

	if (ctx->accel)
		return ctx->accel;
	if (!strcmp(pref, "tcg") || !strcmp(pref, "kvm"))
		return pref;
	if (access("/dev/kvm", R_OK | W_OK))
		return "tcg";
	/* a usable /dev/kvm that booted nothing last time (no nested virtualization) */
	return history_get(ctx->env, RUNNER_KVM_PROBE_KEY) < 0 ? "tcg" : "kvm";
}

/* x86_64's key is the one it always was; another arch's names the arch. */
static char *history_key(const struct run_ctx *ctx, const struct cmb_arch *a)
{
	unsigned int ai = arch_index(a);
	const char *accel = arch_native(a) ? likely_accel(ctx) : "tcg";
	char *qv = ctx->qemu_versions[ai] ? xstrdup(ctx->qemu_versions[ai])
		 : ctx->qemu_version ? xstrdup(ctx->qemu_version) : NULL;
	char *key;

	/* before runner_images: what it will read */
	if (!qv) {
		char *argv[] = { (char *)arch_qemu(ctx->env, a), "--version", NULL };

		qv = cmd_first_line(argv);
		if (!qv)
			qv = xstrdup("unknown");
	}
	key = a == arch_default() ? xasprintf("copy-slowdown.%s.%s", accel, qv)
				  : xasprintf("copy-slowdown.%s.%s.%s", a->name, accel, qv);
	for (char *p = key; *p; p++)
		if (*p == ' ' || *p == '"')
			*p = '_';
	free(qv);
	return key;
}

bool calibrate_needed(const struct run_ctx *ctx, const struct plan *plan,
		      const struct cmb_arch *a)
{
	char *key;
	bool needed;

	if (!plan_needs_it(plan, a))
		return false;
	key = history_key(ctx, a);
	needed = history_get(ctx->env, key) <= 0;
	free(key);
	return needed;
}

/* The guest's copy rate in MB/s, or -1. */
static double guest_rate(const struct run_ctx *ctx, const struct cmb_arch *a, const char *kernel)
{
	unsigned int ai = arch_index(a);
	char *dir = env_cache(ctx->env, "tmp/calibrate-XXXXXX");
	char *plan = NULL, *steps = NULL, *console = NULL, *csvp = NULL, *cmdline = NULL;
	struct vm_result res = { .kernel_seconds = -1, .init_seconds = -1 };
	struct csv c;
	double rate = -1;

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
	cmdline = xasprintf("console=%s root=/dev/vda rw rootfstype=ext4 init=/sbin/init "
			    "panic=-1 printk.time=1", a->console);
	if (!mkdir_p(plan) && !write_file(steps, "copy-rate\n", 10)) {
		/* No reserved area: QEMU's own device tree is enough on arm64. */
		struct vm_config vc = {
			.qemu = arch_qemu(ctx->env, a),
			.accel = arch_native(a) ? ctx->accel : "tcg",
			.machine = a->machine, .cpu = a->tcg_cpu, .mem_mib = 512, .cpus = 1,
			.kernel = kernel, .root_img = ctx->images[ai], .share_dir = dir,
			.cmdline = cmdline,
			.console_log = console, .timeout_s = 180, .label = "calibrate copy rate",
			.estimate_s = CALIBRATE_ESTIMATE_S - 2,
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
	free(cmdline);
	free(dir);
	return rate;
}

/* ctx->copy_slowdown[] of one arch. */
static int calibrate_arch(struct run_ctx *ctx, const struct cmb_arch *a)
{
	unsigned int ai = arch_index(a);
	const char *kernel = NULL;
	char *key = history_key(ctx, a);
	double host, guest;

	ctx->copy_slowdown[ai] = history_get(ctx->env, key);
	if (ctx->copy_slowdown[ai] > 0) {
		printf("[calibrate] page copies %.1fx slower in the %s guest (measured before, %s)\n",
		       ctx->copy_slowdown[ai], a->name, arch_native(a) ? ctx->accel : "tcg");
		free(key);
		return 0;
	}
	for (unsigned int i = 0; i < kvariants_count() && !kernel && ctx->images[ai]; i++)
		if (ctx->kernel_ok[RUNNER_KIDX(ai, i)])
			kernel = ctx->kernels[RUNNER_KIDX(ai, i)].bzimage;
	printf("[calibrate] measuring how much slower the %s guest copies pages (disk-scale=cpu)\n",
	       a->name);
	overall_start(ctx->overall, EST_CALIBRATE, ai);
	host = copy_rate_mbps(2.0);
	guest = kernel && !interrupted() ? guest_rate(ctx, a, kernel) : -1;
	overall_end(ctx->overall, EST_CALIBRATE, ai, guest > 0);
	if (host <= 0 || guest <= 0) {
		free(key);
		return -1;
	}
	ctx->copy_slowdown[ai] = host / guest;
	history_set(ctx->env, key, ctx->copy_slowdown[ai]);
	printf("[calibrate] host %.0f MB/s, %s guest %.0f MB/s: %.1fx\n", host, a->name, guest,
	       ctx->copy_slowdown[ai]);
	free(key);
	return 0;
}

int calibrate_for_plan(struct run_ctx *ctx, const struct plan *plan)
{
	int rc = 0;

	for (unsigned int a = 0; a < cmb_arches_count && a < RUNNER_MAX_ARCHES; a++)
		if (plan_needs_it(plan, &cmb_arches[a]) && calibrate_arch(ctx, &cmb_arches[a]))
			rc = -1;
	return rc;
}
