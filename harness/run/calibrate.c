/*
 * The copy slow-down (calibrate.h), measured in rounds in one boot of the
 * first kernel at hand. A round: the guest copies for 2 s, then waits; while
 * it waits, the host runs the same loop and leaves a file in the share that
 * ends the guest's wait. The two never compete for a core, and a change of
 * the host's load (a job starting beside us) falls on both halves of a
 * round, seconds apart, rather than on one side of the ratio only. The
 * median of the rounds' ratios is the divisor, their spread how far to
 * trust it; both are kept in the cache's history, so a study measures once.
 */
#include "run/calibrate.h"
#include "lib/csv.h"
#include "lib/history.h"
#include "lib/signals.h"
#include "run/overall.h"
#include "run/vm.h"

#include "../../workloads/guest/copy-rate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A guest's wait for the host's half of a round, at most (s). */
#define HOST_WAIT_S 30

/* A run whose disk is scaled by the guest's copy slow-down (disk-scale=cpu). */
static bool cpu_scaled(const struct run_spec *s)
{
	return s->disk_scale == 0 && strcmp(s->disk, "host");
}

/* The plan's first such run of arch a, or NULL. */
static const struct run_spec *first_scaled(const struct plan *plan, const struct cmb_arch *a)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->runs[i].spec->arch == a && cpu_scaled(plan->runs[i].spec))
			return plan->runs[i].spec;
	return NULL;
}

static bool plan_needs_it(const struct plan *plan, const struct cmb_arch *a)
{
	return first_scaled(plan, a) != NULL;
}

/*
 * The clock the plan's disk-scale=cpu runs of arch a run under: the slow-down
 * is measured under it (calibrate_check_clocks refuses a plan that mixes them).
 */
static bool plan_icount(const struct plan *plan, const struct cmb_arch *a)
{
	const struct run_spec *s = first_scaled(plan, a);

	return s && s->clock == CLOCK_INSTRUCTIONS;
}

static int calibrate_check_clocks(const struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		const struct run_spec *s = plan->runs[i].spec;

		if (!cpu_scaled(s))
			continue;
		if ((s->clock == CLOCK_INSTRUCTIONS) != plan_icount(plan, s->arch)) {
			err_msg("%s: section %s: disk-scale=cpu under clock=%s beside runs of "
				"another clock in one plan: the slow-down is measured under one "
				"clock per arch; run them apart or give disk-scale a number",
				plan->runs[i].scn->path, s->section,
				s->clock == CLOCK_INSTRUCTIONS ? "instructions" : "host");
			return -1;
		}
	}
	return 0;
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
static char *history_key(const struct run_ctx *ctx, const struct cmb_arch *a, bool icount)
{
	unsigned int ai = arch_index(a);
	const char *accel = icount ? "tcg-icount" : arch_native(a) ? likely_accel(ctx) : "tcg";
	/* the measuring guest's -smp (vm.c): with QEMU's barriers kept, a key of its own */
	struct vm_config measuring = { .accel = accel, .icount = icount, .cpus = 1 };
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
	if (tcg_barriers_need_smp(&measuring))
		accel = "tcg-maxcpus2";
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
	if (ctx->recalibrate)
		return true;
	key = history_key(ctx, a, plan_icount(plan, a));
	needed = history_get(ctx->env, key) <= 0;
	free(key);
	return needed;
}

/* The host's half of each round, run from the console as the guest waits. */
struct rounds {
	const char *dir;            /* the share, where host-N ends the guest's wait */
	double *host;               /* MB/s per round; 0: not yet */
	int n;
};

static void host_round(void *arg, const char *line)
{
	static const char mark[] = "cmabench-step: begin host-";
	struct rounds *r = arg;
	const char *p = strstr(line, mark);
	char *file, *text;
	int i;

	if (!p || sscanf(p + strlen(mark), "%d", &i) != 1 || i < 1 || i > r->n || r->host[i - 1])
		return;
	r->host[i - 1] = copy_rate_mbps(2.0);
	file = xasprintf("%s/host-%d", r->dir, i);
	text = xasprintf("%.1f\n", r->host[i - 1]);
	write_file(file, text, strlen(text));
	free(file);
	free(text);
}

/* The guest's steps: per round, copy, then wait for the host's half. */
static char *rounds_plan(int n)
{
	struct strbuf sb;

	sb_init(&sb);
	for (int i = 1; i <= n; i++)
		sb_addf(&sb, "run copy-rate-%d copy-rate > $R/copy-rate-%d.csv\n"
			"run host-%d cw=0; while [ ! -e $R/host-%d ] && [ $cw -lt %d ]; do "
			"sleep 0.5; cw=$((cw + 1)); done; [ -e $R/host-%d ]\n",
			i, i, i, i, 2 * HOST_WAIT_S, i);
	return sb_detach(&sb);
}

/* One boot: guest[] and host[] MB/s of n rounds: 0, or -1. */
static int measure_rounds(const struct run_ctx *ctx, const struct cmb_arch *a, const char *kernel,
			  int n, bool icount, double *host, double *guest)
{
	unsigned int ai = arch_index(a);
	char *dir = env_cache(ctx->env, "tmp/calibrate-XXXXXX");
	char *plan = NULL, *steps = NULL, *console = NULL, *cmdline = NULL, *text = NULL;
	struct vm_result res = { .kernel_seconds = -1, .init_seconds = -1 };
	struct rounds r = { .host = host, .n = n };
	int got = 0;

	{
		char *tmp = env_cache(ctx->env, "tmp");

		mkdir_p(tmp);
		free(tmp);
	}
	if (!mkdtemp(dir)) {
		free(dir);
		return -1;
	}
	r.dir = dir;
	plan = path_join(dir, "plan");
	steps = path_join(plan, "steps");
	console = path_join(dir, "console.log");
	cmdline = xasprintf("console=%s root=/dev/vda rw rootfstype=ext4 init=/sbin/init "
			    "panic=-1 printk.time=1", a->console);
	text = rounds_plan(n);
	if (!mkdir_p(plan) && !write_file(steps, text, strlen(text))) {
		/* No reserved area: QEMU's own device tree is enough on arm64. */
		struct vm_config vc = {
			.qemu = arch_qemu(ctx->env, a),
			.accel = arch_native(a) && !icount ? ctx->accel : "tcg", .icount = icount,
			.machine = a->machine, .cpu = a->tcg_cpu, .mem_mib = 512, .cpus = 1,
			.kernel = kernel, .root_img = ctx->images[ai], .share_dir = dir,
			.cmdline = cmdline,
			.console_log = console, .timeout_s = 180 + HOST_WAIT_S * n,
			.label = "calibrate copy rate", .estimate_s = 20 + 6 * n,
			.line_hook = host_round, .line_hook_arg = &r,
		};

		vm_run(&vc, &res);
		for (int i = 0; i < n && res.status == VM_OK; i++) {
			char *p = xasprintf("%s/copy-rate-%d.csv", dir, i + 1);
			struct csv c;

			guest[i] = -1;
			if (!csv_open(&c, p)) {
				int col = csv_col(&c, "copy_rate_mbps");

				if (col < 0 || !csv_next(&c) || !csv_double(&c, col, &guest[i]))
					guest[i] = -1;
				csv_close(&c);
			}
			got += guest[i] > 0 && host[i] > 0;
			free(p);
		}
		if (got < n)
			err_msg("calibrate: %d of %d rounds measured (%s; console %s)", got, n,
				vm_status_name(res.status), console);
	}
	if (got == n)
		rm_rf(dir);
	free(plan);
	free(steps);
	free(console);
	free(cmdline);
	free(text);
	free(dir);
	return got == n ? 0 : -1;
}

/* Says on stderr when c may be off, and how to measure again. */
/* busy and total jiffies of all CPUs */
static int cpu_times(unsigned long long t[2])
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 5)
		return -1;
	t[1] = 0;
	for (int i = 0; i < 8; i++)
		t[1] += v[i];
	t[0] = t[1] - v[3] - v[4]; /* idle and iowait */
	return 0;
}

/*
 * How many cores the host's other work kept busy over the last seconds
 * (from /proc/stat), or -1: the 1-min load average would still count a
 * kernel build that ended a minute ago.
 */
static double busy_cores(double seconds)
{
	unsigned long long t0[2], t1[2];

	if (cpu_times(t0))
		return -1;
	usleep((useconds_t)(seconds * 1e6));
	if (cpu_times(t1) || t1[1] <= t0[1])
		return -1;
	return (double)(t1[0] - t0[0]) / (double)(t1[1] - t0[1]) * (double)sysconf(_SC_NPROCESSORS_ONLN);
}

static void warn_doubts(const struct run_ctx *ctx, const struct cmb_arch *a, const struct calib *c)
{
	char *why = calib_doubts(c, ctx->host_cores);

	if (*why)
		err_msg("warning: the %s guest's copy slow-down (%.1fx, disk-scale=cpu) may be off: "
			"%s; on a quieter host, 'cmabench run --recalibrate ...' measures it again",
			a->name, c->median, why);
	else if (c->rounds == 1)
		info_msg("the %s guest's copy slow-down was measured in 1 round; "
			 "'cmabench run --recalibrate ...' measures %d", a->name, CALIB_ROUNDS);
	free(why);
}

/* ctx->copy_slowdown[] and copy_calib[] of one arch. */
static int calibrate_arch(struct run_ctx *ctx, const struct cmb_arch *a, bool icount)
{
	unsigned int ai = arch_index(a);
	struct calib *c = &ctx->copy_calib[ai];
	const char *kernel = NULL;
	char *key = history_key(ctx, a, icount), *desc, *date;
	int n = ctx->calib_rounds > 0 ? ctx->calib_rounds : CALIB_ROUNDS;
	double *host = xcalloc((size_t)n, sizeof(*host)), *guest = xcalloc((size_t)n, sizeof(*guest));
	double *ratio = xcalloc((size_t)n, sizeof(*ratio)), load = -1;
	int rc = -1;

	/* --recalibrate: what history kept is replaced once measured, kept if not */
	if (!ctx->recalibrate && !calib_recall(ctx->env, key, c)) {
		desc = calib_describe(c, 0);
		printf("[calibrate] page copies %.1fx slower in the %s guest (%s; %s)\n", c->median,
		       a->name, desc, arch_native(a) ? ctx->accel : "tcg");
		free(desc);
		rc = 0;
		goto out;
	}
	for (unsigned int i = 0; i < kvariants_count() && !kernel && ctx->images[ai]; i++)
		if (ctx->kernel_ok[RUNNER_KIDX(ai, i)])
			kernel = ctx->kernels[RUNNER_KIDX(ai, i)].bzimage;
	printf("[calibrate] measuring how much slower the %s guest copies pages (disk-scale=cpu), "
	       "%d rounds\n", a->name, n);
	/* before the boot: the load of the others, not of our guest */
	load = busy_cores(1.0);
	date = utc_now(false);
	overall_start(ctx->overall, EST_CALIBRATE, ai);
	if (!kernel || interrupted() || measure_rounds(ctx, a, kernel, n, icount, host, guest)) {
		overall_end(ctx->overall, EST_CALIBRATE, ai, false);
		goto out_date;
	}
	overall_end(ctx->overall, EST_CALIBRATE, ai, true);
	for (int i = 0; i < n; i++) {
		ratio[i] = host[i] / guest[i];
		printf("[calibrate] round %d: host %.0f MB/s, %s guest %.0f MB/s: %.2fx\n", i + 1,
		       host[i], a->name, guest[i], ratio[i]);
	}
	memset(c, 0, sizeof(*c));
	calib_from_ratios(c, ratio, (size_t)n);
	c->source = CALIB_MEASURED;
	c->load = load;
	snprintf(c->date, sizeof(c->date), "%s", date);
	calib_keep(ctx->env, key, c);
	desc = calib_describe(c, 0);
	printf("[calibrate] page copies %.1fx slower in the %s guest (%s; host busy: %.1f cores)\n",
	       c->median, a->name, desc, load);
	free(desc);
	rc = 0;
out_date:
	free(date);
out:
	if (!rc) {
		ctx->copy_slowdown[ai] = c->median;
		warn_doubts(ctx, a, c);
	}
	free(host);
	free(guest);
	free(ratio);
	free(key);
	return rc;
}

int calibrate_for_plan(struct run_ctx *ctx, const struct plan *plan)
{
	int rc = 0;

	if (calibrate_check_clocks(plan))
		return -1;

	for (unsigned int a = 0; a < cmb_arches_count && a < RUNNER_MAX_ARCHES; a++)
		if (plan_needs_it(plan, &cmb_arches[a]) &&
		    calibrate_arch(ctx, &cmb_arches[a], plan_icount(plan, &cmb_arches[a])))
			rc = -1;
	return rc;
}
