/*
 * One planned run in one VM and the results directory it goes into: what a
 * local run (builtin-run.c) and a Slurm task (builtin-task.c, submit.c) share. A
 * scenario's runs are written under RESULTS/.tmp-<id>-XXXXXX (runner_stage)
 * and the directory is renamed to RESULTS/<id> when all have ended
 * (runner_finish).
 */
#include "config.h"
#include "source-version.h"
#include "run/runner.h"
#include "dataset/dataset.h"
#include "lib/cache.h"
#include "kbuild/image.h"
#include "kbuild/kmod.h"
#include "lib/hash.h"
#include "lib/history.h"
#include "lib/json.h"
#include "lib/signals.h"
#include "run/board.h"
#include "run/console.h"
#include "run/dtb.h"
#include "run/overall.h"
#include "run/scratch.h"
#include "run/vm.h"
#include "scenario/disk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* Whether a command line sets a cma= of its own (a word "cma=...", not gcma=). */
static bool append_has_cma(const char *append)
{
	for (const char *p = append; p && (p = strstr(p, "cma=")); p += 4)
		if (p == append || p[-1] == ' ')
			return true;
	return false;
}

static struct kernel *kernel_for(struct run_ctx *ctx, const struct run_spec *s, int *ok)
{
	for (unsigned int i = 0; i < kvariants_count(); i++)
		if (!strcmp(kvariant_at(i)->name, s->kernel)) {
			unsigned int k = RUNNER_KIDX(arch_index(s->arch), i);

			*ok = ctx->kernel_ok[k];
			return &ctx->kernels[k];
		}
	*ok = 0;
	return NULL;
}

/* The scenario's own disk-scale, else this host's measured copy slow-down (calibrate.c). */
static double run_disk_scale(const struct run_ctx *ctx, const struct run_spec *s)
{
	return s->disk_scale > 0 ? s->disk_scale : ctx->copy_slowdown[arch_index(s->arch)];
}

void runner_hash_boot(struct run_ctx *ctx, const struct run *r, struct hash *h)
{
	unsigned int ai = arch_index(r->spec->arch);
	int ok;
	struct kernel *k = kernel_for(ctx, r->spec, &ok);

	hash_str(h, ok ? k->key : "no kernel");
	hash_str(h, ctx->images[ai] ? ctx->images[ai] : "no image");
	/* disk-scale=cpu: another host's (or a recalibrated) slow-down is another disk */
	char *opts = disk_qemu_opts(disk_find(r->spec->disk), run_disk_scale(ctx, r->spec));

	hash_str(h, opts);
	free(opts);
}

static bool plan_uses_arch(const struct plan *plan, const struct cmb_arch *a)
{
	for (size_t r = 0; r < plan->n; r++)
		if (plan->runs[r].spec->arch == a)
			return true;
	return false;
}

int runner_check_arches(const struct run_ctx *ctx, const struct plan *plan)
{
	int bad = 0;

	for (unsigned int a = 0; a < cmb_arches_count; a++) {
		char *missing;

		if (!plan_uses_arch(plan, &cmb_arches[a]))
			continue;
		missing = arch_missing(ctx->env, &cmb_arches[a]);
		if (missing) {
			err_msg("arch=%s needs what is missing here:\n%s"
				"install it with: scripts/install-deps --%s, then ./configure && make",
				cmb_arches[a].name, missing, cmb_arches[a].name);
			free(missing);
			bad++;
		}
	}
	return bad ? -1 : 0;
}

static bool kernel_needed(const struct plan *plan, unsigned int a, unsigned int i)
{
	for (size_t r = 0; r < plan->n; r++)
		if (plan->runs[r].spec->arch == &cmb_arches[a] &&
		    !strcmp(plan->runs[r].spec->kernel, kvariant_at(i)->name))
			return true;
	return false;
}

/* One kernel looked up; an error is said once. */
static void find_kernel(struct run_ctx *ctx, unsigned int a, unsigned int i, bool quiet)
{
	unsigned int k = RUNNER_KIDX(a, i);
	struct strbuf errs = { 0 };
	int rc;

	if (ctx->kernel_looked[k])
		return;
	ctx->kernel_looked[k] = true;
	/* a board's kernels start from its own .config */
	rc = kbuild_find_arch(ctx->env, &cmb_arches[a],
			      ctx->board ? board_variant(ctx->board, kvariant_at(i)) : kvariant_at(i),
			      &ctx->kernels[k], &errs);
	ctx->kernel_ok[k] = rc == 0;
	ctx->kernel_todo[k] = rc == 1;
	if (rc < 0 && !quiet && errs.buf)
		fputs(errs.buf, stderr);
	sb_free(&errs);
}

void runner_find_kernels(struct run_ctx *ctx, const struct plan *plan)
{
	for (unsigned int a = 0; a < cmb_arches_count; a++)
		for (unsigned int i = 0; i < kvariants_count(); i++)
			if (kernel_needed(plan, a, i))
				find_kernel(ctx, a, i, true);
}

int runner_kernels(struct run_ctx *ctx, const struct plan *plan)
{
	int built = 0;

	for (unsigned int a = 0; a < cmb_arches_count; a++)
		for (unsigned int i = 0; i < kvariants_count(); i++) {
			unsigned int k = RUNNER_KIDX(a, i);

			if (!kernel_needed(plan, a, i))
				continue;
			/* runner_find_kernels kept quiet: a kernel that cannot be had is said here */
			if (ctx->kernel_looked[k] && !ctx->kernel_ok[k] && !ctx->kernel_todo[k])
				ctx->kernel_looked[k] = false;
			find_kernel(ctx, a, i, false);
			if (ctx->kernel_ok[k]) {
				kbuild_print_found(&ctx->kernels[k]);
				/* reused: the cache's bound evicts it last */
				cache_touch(ctx->kernels[k].dir);
			}
			if (ctx->kernel_todo[k]) {
				overall_start(ctx->overall, EST_KERNEL, k);
				ctx->kernel_ok[k] = kbuild_build(ctx->env, &ctx->kernels[k]) == 0;
				ctx->kernel_todo[k] = false;
				overall_end(ctx->overall, EST_KERNEL, k, ctx->kernel_ok[k]);
			}
			built += ctx->kernel_ok[k];
			if (interrupted())
				return -1;
		}
	return built ? 0 : -1;
}

int runner_images(struct run_ctx *ctx, const struct plan *plan)
{
	for (unsigned int a = 0; a < cmb_arches_count; a++) {
		const struct cmb_arch *arch = &cmb_arches[a];
		char *qv[] = { (char *)arch_qemu(ctx->env, arch), "--version", NULL };

		if (!plan_uses_arch(plan, arch))
			continue;
		overall_start(ctx->overall, EST_IMAGE, a);
		ctx->images[a] = image_get_arch(ctx->env, arch);
		overall_end(ctx->overall, EST_IMAGE, a, ctx->images[a] != NULL);
		if (!ctx->images[a] || interrupted())
			return -1;
		ctx->qemu_versions[a] = cmd_first_line(qv);
		if (!ctx->qemu_versions[a])
			ctx->qemu_versions[a] = xstrdup("unknown");
	}
	return 0;
}

static void choose_accel(struct run_ctx *ctx)
{
	const char *pref = ctx->env->accel;
	const char *kernel = NULL;
	const struct cmb_arch *native = NULL;

	/* KVM runs guests of the host's own architecture only: probe with one. */
	for (unsigned int k = 0; k < RUNNER_MAX_KERNELS && !kernel; k++)
		if (ctx->kernel_ok[k] && arch_native(ctx->kernels[k].arch)) {
			kernel = ctx->kernels[k].bzimage;
			native = ctx->kernels[k].arch;
		}
	if (!strcmp(pref, "tcg") || !strcmp(pref, "kvm")) {
		ctx->accel = pref;
		ctx->accel_reason = xasprintf("chosen with --accel=%s", pref);
		return;
	}
	if (access("/dev/kvm", R_OK | W_OK)) {
		ctx->accel = "tcg";
		ctx->accel_reason = xstrdup("no usable /dev/kvm");
		return;
	}
	if (!kernel) {
		ctx->accel = "tcg";
		ctx->accel_reason = xstrdup("no guest of the host's architecture to run under KVM");
		return;
	}
	printf("[accel] probing KVM (at most %.0f s)\n", ctx->kvm_probe_s);
	bool kvm = vm_probe_kvm(arch_qemu(ctx->env, native), native, kernel, ctx->kvm_probe_s);

	/* what the next run's estimate (calibrate_needed) guesses from */
	history_set(ctx->env, RUNNER_KVM_PROBE_KEY, kvm ? 1 : -1);
	if (kvm) {
		ctx->accel = "kvm";
		ctx->accel_reason = xstrdup("KVM probe booted a kernel");
	} else {
		ctx->accel = "tcg";
		ctx->accel_reason = xasprintf("KVM probe saw no kernel output within %.0f s",
					      ctx->kvm_probe_s);
	}
	printf("[accel] using %s: %s\n", ctx->accel, ctx->accel_reason);
}

/* The top-level QEMU version: the first arch's the plan uses (runner_images),
 * else the configured x86_64 QEMU's. */
static void qemu_version(struct run_ctx *ctx)
{
	char *qv[] = { (char *)ctx->env->qemu, "--version", NULL };

	for (unsigned int a = 0; a < RUNNER_MAX_ARCHES && !ctx->qemu_version; a++)
		if (ctx->qemu_versions[a])
			ctx->qemu_version = xstrdup(ctx->qemu_versions[a]);
	if (!ctx->qemu_version)
		ctx->qemu_version = cmd_first_line(qv);
	if (!ctx->qemu_version)
		ctx->qemu_version = xstrdup("unknown");
}

/*
 * Which cmabench made a result: the source the binary was built from
 * (source-version.h: git describe at build time). A source tree that has
 * moved on since (a commit or an edit without make, or a copy of a build
 * tree, whose compiled-in source directory is another checkout's) is said
 * and recorded beside it (cmabench_tree), never in its place.
 */
static void source_version(struct run_ctx *ctx)
{
	char *git = path_join(ctx->env->srcdir, ".git");
	char *argv[] = { "git", "-C", (char *)ctx->env->srcdir, "describe", "--always", "--dirty",
			 "--abbrev=12", NULL };

	ctx->source_version = xstrdup(CMB_SOURCE_VERSION);
	ctx->tree_version = path_exists(git) ? cmd_first_line(argv) : NULL;
	if (ctx->tree_version && !strcmp(ctx->tree_version, ctx->source_version)) {
		free(ctx->tree_version);
		ctx->tree_version = NULL;
	}
	if (ctx->tree_version)
		printf("[cmabench] built from %s, but the source tree %s is at %s now: `make` "
		       "rebuilds it (both are recorded)\n", ctx->source_version, ctx->env->srcdir,
		       ctx->tree_version);
	free(git);
}

void runner_accel(struct run_ctx *ctx)
{
	/* a board's CPU is its own (open_board said so) */
	if (!ctx->board)
		choose_accel(ctx);
	qemu_version(ctx);
	source_version(ctx);
}

json_object *host_info(void)
{
	struct utsname u;
	json_object *h = json_object_new_object();
	char *cpuinfo = read_file("/proc/cpuinfo", NULL);

	if (!uname(&u)) {
		json_object_object_add(h, "name", json_object_new_string(u.nodename));
		json_object_object_add(h, "kernel", json_object_new_string(u.release));
		json_object_object_add(h, "machine", json_object_new_string(u.machine));
	}
	json_object_object_add(h, "cpus", json_object_new_int(sysconf(_SC_NPROCESSORS_ONLN)));
	if (cpuinfo) {
		char *m = strstr(cpuinfo, "model name");

		if (m && (m = strchr(m, ':'))) {
			m += 2;
			m[strcspn(m, "\n")] = '\0';
			json_object_object_add(h, "cpu", json_object_new_string(m));
		}
		free(cpuinfo);
	}
	return h;
}

/* The run's share: plan/steps and every file the plan ships (fio jobs, the
 * script), read by the guest init. */
static int write_guest_plan(const struct cmb_env *env, const struct run *r, const char *dir)
{
	char *plan = path_join(dir, "plan");
	char *steps = path_join(plan, "steps");
	struct strlist files = { 0 };
	int rc = mkdir_p(plan) || write_file(steps, r->steps, strlen(r->steps));

	/* what the host wrote into the scratch disk, kept with the run */
	if (!rc && r->layout) {
		char *layout = path_join(plan, "layout");

		rc = write_file(layout, r->layout, strlen(r->layout));
		free(layout);
	}

	plan_files(r, &files);
	for (size_t i = 0; i < files.n && !rc; i++) {
		char *src = env_src(env, files.v[i]);
		char *dst = path_join(plan, strrchr(files.v[i], '/') + 1);

		if ((rc = copy_file(src, dst)))
			err_msg("%s: %s", src, strerror(errno));
		free(src);
		free(dst);
	}
	sl_free(&files);
	free(plan);
	free(steps);
	return rc;
}

/* The console's tail; name: what to call it (its final path is not known yet). */
static void print_tail(const char *path, const char *name, int lines)
{
	char n[16];
	char *argv[] = { "tail", "-n", n, (char *)path, NULL };

	snprintf(n, sizeof(n), "%d", lines);
	fprintf(stderr, "---- last %d console lines (%s) ----\n", lines, name);
	run_cmd(argv, NULL, NULL, NULL, NULL);
	fprintf(stderr, "----\n");
}

/* The host's load averages (1, 5, 15 min) as a JSON array. */
static json_object *host_load(void)
{
	double l[3];
	json_object *a = json_object_new_array();

	if (getloadavg(l, 3) == 3)
		for (int i = 0; i < 3; i++)
			json_object_array_add(a, json_object_new_double(l[i]));
	return a;
}

void runner_write_meta(const char *dir, json_object *m)
{
	char *meta = path_join(dir, "metadata.json");

	json_object_to_file_ext(meta, m, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	free(meta);
}

/* The one-line status file beside metadata.json (what the data set reads first). */
void runner_write_status(const char *dir, const char *status)
{
	char *st = path_join(dir, "status");
	char *line = xasprintf("%s\n", status);

	write_file(st, line, strlen(line));
	free(st);
	free(line);
}

double runner_estimate(const struct cmb_env *env, const struct run *r)
{
	const struct run_spec *s = r->spec;
	char *hkey = xasprintf("vm.%s.%s", r->scn->name, s->section);
	double estimate = history_get(env, hkey);

	free(hkey);
	if (estimate <= 0)
		estimate = 20 + s->fio_runtime + (s->fio ? s->fio_size / (40.0 * (1 << 20)) : 0);
	return estimate;
}

unsigned runner_cores(const struct run_ctx *ctx, const struct run *r)
{
	return r->spec->cpus < (long)ctx->host_cores ? (unsigned)r->spec->cpus : ctx->host_cores;
}

/* One run's state across its phases (runner_run_one). */
struct one_run {
	struct run_ctx *ctx;
	const struct run *r;
	const struct run_spec *s;
	const struct cmb_arch *arch;
	unsigned int ai;
	struct kernel *k;
	int kok;
	const char *accel;          /* KVM runs the host's own architecture only */
	char *accel_reason;
	char *dir, *console, *label, *hkey, *scratch, *dtb, *dtb_dir;
	double disk_scale;
	json_object *m;
	struct strlist qargv;
	struct vm_result res;
};

static void meta_str(json_object *m, const char *key, const char *v)
{
	json_object_object_add(m, key, json_object_new_string(v));
}

/* What the run is: its plan's scenario, set-up, kernel and guest. */
static void meta_plan(const struct one_run *o)
{
	const struct run *r = o->r;
	const struct run_spec *s = o->s;
	json_object *m = o->m, *bg = json_object_new_array();

	meta_str(m, "scenario", r->scn->name);
	meta_str(m, "section", s->section);
	json_object_object_add(m, "repetition", json_object_new_int(r->rep));
	/* the set-up order: its seed and this run's place in its repetition (plan.c) */
	json_object_object_add(m, "order_seed", json_object_new_int64(r->order_seed));
	json_object_object_add(m, "order_in_repetition", json_object_new_int(r->order_pos));
	if (s->description)
		meta_str(m, "description", s->description);
	meta_str(m, "kernel_variant", s->kernel);
	meta_str(m, "arch", o->arch->name);
	if (o->kok) {
		meta_str(m, "kernel_version", o->k->version);
		meta_str(m, "kernel_build_key", o->k->key);
	}
	meta_str(m, "setup", setup_name(s->setup));
	json_object_object_add(m, "area_bytes", json_object_new_int64(s->area));
	json_object_object_add(m, "guest_memory_mib", json_object_new_int64(r->mem_mib));
	json_object_object_add(m, "guest_cpus", json_object_new_int(s->cpus));
	json_object_object_add(m, "swap_mib", json_object_new_int64((int64_t)(s->swap >> 20)));
	if (s->swap)
		meta_str(m, "swap_device", s->swap_device);
	if (r->area)
		meta_str(m, "area", r->area);
	meta_str(m, "allocations", r->allocations);
	meta_str(m, "disk", s->disk);
	json_object_object_add(m, "timeout_seconds", json_object_new_double(s->timeout));
	json_object_object_add(m, "timeout_derived", json_object_new_boolean(!(s->timeout_key > 0)));
	if (s->alloc_count > 0 && r->area)
		json_object_object_add(m, "alloc_timeout_seconds",
				       json_object_new_double(s->alloc_timeout));
	if (strcmp(s->disk, "host")) {
		struct calib key = { .source = CALIB_KEY };

		json_object_object_add(m, "disk_scale", json_object_new_double(o->disk_scale));
		/* where the divisor came from: the scenario's number, or measured */
		json_object_object_add(m, "disk_calibration",
				       calib_to_json(s->disk_scale > 0 ? &key
								       : &o->ctx->copy_calib[o->ai]));
	}
	if (s->baseline)
		meta_str(m, "baseline", s->baseline);
	if (s->primary)
		meta_str(m, "primary", s->primary);
	/* Set-ups without an area run the fill's load too (plan.c). */
	json_object_object_add(m, "fill_target_pct",
			       json_object_new_int64(r->area || s->area > 0 ? s->fill : 0));
	for (size_t i = 0; i < s->bg.n; i++) {
		const struct bg_item *b = &s->bg.v[i];
		char *name = b->arg ? xasprintf("%s:%s", b->w->name, b->arg) : xstrdup(b->w->name);

		json_object_array_add(bg, json_object_new_string(name));
		free(name);
	}
	json_object_object_add(m, "backgrounds", bg);
	meta_str(m, "cmdline", r->cmdline);
}

/* Where and with what it runs: QEMU, the image, the host, the time. */
static void meta_host(const struct one_run *o, const char *started, const char *cores)
{
	const struct run_ctx *ctx = o->ctx;
	const char *image = ctx->images[o->ai];
	json_object *m = o->m;

	meta_str(m, "qemu_version", ctx->board ? "none: a board over ssh"
		 : ctx->qemu_versions[o->ai] ? ctx->qemu_versions[o->ai] : ctx->qemu_version);
	json_object_object_add(m, "results_schema", json_object_new_int(RUN_RESULTS_SCHEMA));
	meta_str(m, "cmabench_source", ctx->source_version ? ctx->source_version : "unknown");
	if (ctx->tree_version)
		meta_str(m, "cmabench_tree", ctx->tree_version);
	if (image)
		meta_str(m, "root_image", strrchr(image, '/') ? strrchr(image, '/') + 1 : image);
	meta_str(m, "accelerator", o->accel);
	/* what guest time counts (scenario key clock) */
	meta_str(m, "clock", o->s->clock == CLOCK_INSTRUCTIONS ? "instructions" : "host");
	meta_str(m, "accelerator_reason", o->accel_reason);
	meta_str(m, "date", started);
	/* Epoch seconds: when runs on one host overlapped (Slurm's tasks). */
	json_object_object_add(m, "start_unix", json_object_new_int64((int64_t)time(NULL)));
	json_object_object_add(m, "host", host_info());
	json_object_object_add(m, "host_load_start", host_load());
	json_object_object_add(m, "jobs", json_object_new_int64(ctx->jobs));
	if (cores)
		meta_str(m, "cpu_affinity", cores);
}

/* Boots the guest and waits for it: the run's status, or NULL when its
 * set-up failed before QEMU started. */
static const char *boot(struct one_run *o)
{
	const struct run_spec *s = o->s;
	char *disk_opts = disk_qemu_opts(disk_find(s->disk), o->disk_scale);
	char *hang_dump = path_join(o->dir, "hang.txt");
	char *wd_log = path_join(o->dir, "watchdog.txt");
	char *kdir = xstrdup(o->k->bzimage), *sysmap;
	const char *status = NULL;

	*strrchr(kdir, '/') = '\0';
	sysmap = path_join(kdir, "System.map");
	free(kdir);
	struct vm_config vc = {
		.qemu = arch_qemu(o->ctx->env, o->arch), .accel = o->accel,
		.icount = o->s->clock == CLOCK_INSTRUCTIONS,
		.mem_mib = o->r->mem_mib, .machine = o->arch->machine, .cpu = o->arch->tcg_cpu,
		.cpus = s->cpus, .kernel = o->k->bzimage, .cmdline = o->r->cmdline,
		.root_img = o->ctx->images[o->ai], .scratch_img = o->scratch, .share_dir = o->dir,
		.console_log = o->console, .timeout_s = s->timeout, .label = o->label,
		.scratch_opts = disk_opts,
		.estimate_s = runner_estimate(o->ctx->env, o->r),
		.hang_dump = hang_dump, .sysmap = sysmap,
		.silence_s = s->hang_silence, .watchdog_log = wd_log,
		.scratch_stall = s->scratch_stall && s->scratch_stall[0] ? s->scratch_stall : NULL,
	};
	if (o->arch->device_tree) {
		/* QEMU's tree for this very machine plus the set-up's reserved-memory node. */
		struct strbuf errs = { 0 };

		o->dtb_dir = xasprintf("%s.dtb.d", o->scratch);
		if (dtb_make(o->ctx->env, &vc, s->setup, s->area, !append_has_cma(s->append),
			     o->dtb_dir, &o->dtb, &errs)) {
			err_msg("%s/%s: %s", o->r->scn->name, o->r->name, errs.buf);
			sb_free(&errs);
			goto out;
		}
		sb_free(&errs);
		vc.dtb = o->dtb;
		meta_str(o->m, "devicetree", DTB_SOURCE_NAME);
	}
	vm_argv(&vc, &o->qargv);
	{
		json_object *a = json_object_new_array();

		for (size_t i = 0; i < o->qargv.n; i++)
			json_object_array_add(a, json_object_new_string(o->qargv.v[i]));
		json_object_object_add(o->m, "qemu_argv", a);
	}
	vm_run(&vc, &o->res);
	status = vm_status_name(o->res.status);
out:
	free(disk_opts);
	free(hang_dump);
	free(wd_log);
	free(sysmap);
	return status;
}

/* The run on the board of --target: its status, or NULL. */
static const char *boot_board(struct one_run *o)
{
	struct board_run br = { .r = o->r, .k = o->k, .dir = o->dir, .console = o->console,
				.label = o->label, .m = o->m,
				.area_default = !append_has_cma(o->r->spec->append) };

	return board_run(o->ctx->board, &br, &o->res);
}

/* What the guest brought back decides the status: its trace, its rows, its
 * backgrounds. */
static const char *judge(struct one_run *o, const char *status)
{
	struct vm_result *res = &o->res;
	const char *scn = o->r->scn->name, *name = o->r->name;

	{
		/* A text copy of the trace's cma events: results committed
		 * without the binary trace.dat still give the same report. */
		struct strbuf errs = { 0 };

		if (dataset_export_trace(o->dir, &errs)) {
			err_msg("%s/%s: trace.dat %s", scn, name, errs.buf);
			meta_str(o->m, "trace_problem", errs.buf);
		}
		sb_free(&errs);
	}
	/* Ended before its plan did: the rows its driver wrote (and flushed)
	 * are on the share; they count, marked partial. */
	if (res->status == VM_TIMEOUT || res->status == VM_HANG || res->status == VM_PANIC ||
	    res->status == VM_CRASHED || res->status == VM_INTERRUPTED)
		json_object_object_add(o->m, "partial", json_object_new_boolean(1));
	{
		long long rows = 0, failed, timed_out;
		bool have = dataset_alloc_counts(o->dir, &rows, &failed, &timed_out);

		if (have) {
			json_object_object_add(o->m, "requests", json_object_new_int64(rows));
			json_object_object_add(o->m, "requests_failed", json_object_new_int64(failed));
			json_object_object_add(o->m, "requests_timed_out",
					       json_object_new_int64(timed_out));
		}
		/* A run that did everything and brought back no row of the
		 * allocations it planned produced nothing: a fault, not a result. */
		if (res->status == VM_OK && strcmp(o->r->allocations, "none") && !rows) {
			status = "no-rows";
			snprintf(res->problem, sizeof(res->problem),
				 "the plan allocates, but alloc.csv %s", have ? "has no row" : "is missing");
			err_msg("%s/%s: %s", scn, name, res->problem);
		}
	}
	if (res->status == VM_OK) {
		char *text = o->r->area ? read_file(o->console, NULL) : NULL;
		char *line = text ? console_no_area(text) : NULL;

		free(text);
		if (line) {
			status = "no-area";
			snprintf(res->problem, sizeof(res->problem),
				 "the set-up has an area, but the kernel made none: %s", line);
			err_msg("%s/%s: %s", scn, name, res->problem);
			free(line);
		}
	}
	if (res->status == VM_OK && !strcmp(status, "ok") && dataset_background_died(o->dir)) {
		/* The numbers exist but were not taken under the planned load. */
		status = "degraded";
		err_msg("%s/%s: a background workload died (see backgrounds.csv)", scn, name);
	}
	return status;
}

/* The run's end, told: its time into the history when it was ok, else
 * why not, with its console's tail; and what the VM measured. */
static void tell_end(struct one_run *o, const char *status)
{
	const struct vm_result *res = &o->res;
	const char *scn = o->r->scn->name, *name = o->r->name;
	json_object *m = o->m;

	if (res->status == VM_OK)
		history_set(o->ctx->env, o->hkey, res->seconds);
	else if (res->status != VM_INTERRUPTED) {
		char *where = xasprintf("runs/%s/console.log of the results directory named at "
					"the end", name);

		err_msg("%s/%s: %s%s%s", scn, name, status, res->problem[0] ? ": " : "",
			res->problem);
		print_tail(o->console, where, 25);
		free(where);
		if (res->silence[0]) {
			err_msg("%s/%s: %s (runs/%s/watchdog.txt; the tasks' stacks are in its "
				"console.log)", scn, name, res->silence, name);
			meta_str(m, "silence", res->silence);
		}
		if (res->hang[0]) {
			err_msg("%s/%s: where the vCPUs were (runs/%s/hang.txt): %s", scn, name, name,
				res->hang);
			meta_str(m, "hang", res->hang);
		}
	}
	json_object_object_add(m, "seconds", json_object_new_double(res->seconds));
	json_object_object_add(m, "kernel_start_seconds", json_object_new_double(res->kernel_seconds));
	json_object_object_add(m, "init_start_seconds", json_object_new_double(res->init_seconds));
	json_object_object_add(m, "kernel_warnings", json_object_new_int(res->warnings));
	if (res->problem[0])
		meta_str(m, "problem", res->problem);
}

/*
 * alloc-path=dma: our module, built with the run's kernel, in the plan the
 * guest's init loads it from; never left in the results (one_run_free).
 */
static int ship_kmod(const struct one_run *o)
{
	char *dst;
	int rc;

	if (strcmp(o->s->alloc_path, "dma") || !setup_area_name(o->s->setup))
		return 0;
	if (!o->k->kmod || !path_exists(o->k->kmod)) {
		err_msg("%s: alloc-path=dma needs %s built with kernel %s, which has none (%s)",
			o->label, KMOD_FILE, o->s->kernel, o->k->kmod ? o->k->kmod :
			"a kernel built elsewhere");
		return -1;
	}
	dst = xasprintf("%s/plan/%s", o->dir, KMOD_FILE);
	rc = copy_file(o->k->kmod, dst);
	if (rc)
		err_msg("%s: %s", dst, strerror(errno));
	free(dst);
	return rc;
}

static void one_run_free(struct one_run *o)
{
	char *kmod = xasprintf("%s/plan/%s", o->dir, KMOD_FILE);

	unlink(kmod);
	free(kmod);
	if (o->scratch) {
		unlink(o->scratch);
		free(o->scratch);
	}
	if (o->dtb_dir) {
		rm_rf(o->dtb_dir);
		free(o->dtb_dir);
	}
	free(o->dtb);
	free(o->accel_reason);
	sl_free(&o->qargv);
	free(o->dir);
	free(o->console);
	free(o->label);
	free(o->hkey);
}

/* cores: the host cores the run is pinned to, NULL when not pinned. */
json_object *runner_run_one(struct run_ctx *ctx, const struct run *r, size_t idx, size_t total,
			    const char *cores)
{
	struct one_run o = {
		.ctx = ctx, .r = r, .s = r->spec, .arch = r->spec->arch,
		.res = { .kernel_seconds = -1, .init_seconds = -1 },
		.m = json_object_new_object(),
	};
	char *started = utc_now(false);
	const char *status;

	o.ai = arch_index(o.arch);
	o.k = kernel_for(ctx, o.s, &o.kok);
	o.accel = arch_native(o.arch) && o.s->clock != CLOCK_INSTRUCTIONS ? ctx->accel : "tcg";
	o.accel_reason = !arch_native(o.arch)
		? xasprintf("an %s guest on a host of another architecture: TCG", o.arch->name)
		: o.s->clock == CLOCK_INSTRUCTIONS ? xstrdup("clock=instructions: TCG's -icount")
		: xstrdup(ctx->accel_reason);
	o.dir = xasprintf("%s/runs/%s", ctx->tmpdir, r->name);
	o.console = path_join(o.dir, "console.log");
	o.label = xasprintf("run %zu/%zu %s/%s", idx + 1, total, r->scn->name, r->name);
	o.hkey = xasprintf("vm.%s.%s", r->scn->name, o.s->section);
	o.disk_scale = run_disk_scale(ctx, o.s);
	mkdir_p(o.dir);
	meta_plan(&o);
	meta_host(&o, started, cores);
	free(started);
	if (!o.kok) {
		status = "kernel-build-failed";
		printf("[%s] skipped: kernel %s did not build\n", o.label, o.s->kernel);
	} else if (write_guest_plan(ctx->env, r, o.dir) || ship_kmod(&o) ||
		   (!ctx->board && !(o.scratch = scratch_make(ctx->env, r, r->name))) ||
		   !(status = ctx->board ? boot_board(&o) : boot(&o))) {
		status = "setup-failed";
	} else {
		status = judge(&o, status);
		tell_end(&o, status);
	}
	meta_str(o.m, "status", status);
	json_object_object_add(o.m, "host_load_end", host_load());
	json_object_object_add(o.m, "end_unix", json_object_new_int64((int64_t)time(NULL)));
	/* Sequential: nothing ran beside it (the pool corrects this when it did). */
	json_object_object_add(o.m, "vms_beside", json_object_new_int(0));
	runner_write_meta(o.dir, o.m);
	runner_write_status(o.dir, status);
	one_run_free(&o);
	return o.m;
}


/*
 * Claims a results directory that no other run has: mkdir of the name
 * (atomic, fails if it exists), then -2, -3, ... Two runs of one scenario
 * started in the same second get two directories.
 */
static char *claim_final(const char *root, const char *id)
{
	for (int n = 1; n < 1000; n++) {
		char *dir = n == 1 ? xasprintf("%s/%s", root, id) : xasprintf("%s/%s-%d", root, id, n);

		if (!mkdir(dir, 0755))
			return dir;
		if (errno != EEXIST) {
			err_msg("%s: %s", dir, strerror(errno));
			free(dir);
			return NULL;
		}
		free(dir);
	}
	return NULL;
}

/* Names the final directory, writes the top-level metadata, and renames the
 * finished temporary directory over the claimed (empty) one. */
static int complete(struct run_ctx *ctx, json_object *top, json_object *runs, size_t nfail)
{
	char *meta = path_join(ctx->tmpdir, "metadata.json");
	char *final = claim_final(ctx->results_root, ctx->run_id);
	int rc = 0;

	if (!final) {
		free(meta);
		return -1;
	}
	free(ctx->finaldir);
	ctx->finaldir = final;
	free(ctx->run_id);
	ctx->run_id = xstrdup(strrchr(final, '/') + 1);
	json_object_object_add(top, "run_id", json_object_new_string(ctx->run_id));
	json_object_object_add(top, "runs", runs);
	json_object_object_add(top, "failed_runs", json_object_new_int(nfail));
	/* rename(2) replaces an empty directory: the claim becomes the results */
	if (json_object_to_file_ext(meta, top, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE) ||
	    rename(ctx->tmpdir, ctx->finaldir)) {
		err_msg("cannot complete %s: %s", ctx->finaldir, strerror(errno));
		rmdir(ctx->finaldir);
		rc = -1;
	}
	free(meta);
	return rc;
}

/* Renames the scenario's directory and names it, with its failed runs by
 * their final paths (their consoles were shown under the temporary name). */
int runner_finish(struct run_ctx *ctx, json_object *top, json_object *runs, size_t nfail)
{
	struct strlist failed = { 0 };

	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		json_object *m = json_object_array_get_idx(runs, i);
		const char *st = js_str(m, "status"), *name = js_str(m, "run");

		if (st && strcmp(st, "ok") && name)
			sl_addf(&failed, "%s\t%s", name, st);
	}
	if (complete(ctx, top, runs, nfail)) {
		sl_free(&failed);
		return -1;
	}
	printf("results: %s (%zu failed)\n", ctx->finaldir, nfail);
	for (size_t i = 0; i < failed.n; i++) {
		char *tab = strchr(failed.v[i], '\t');

		*tab = '\0';
		printf("  %s: %s, console %s/runs/%s/console.log\n", failed.v[i], tab + 1,
		       ctx->finaldir, failed.v[i]);
	}
	sl_free(&failed);
	return 0;
}

/* A temporary directory of its own, whoever else runs into this root. */
int runner_stage(struct run_ctx *ctx, const struct scenario *scn, const char *stamp)
{
	const char *base = strrchr(scn->path, '/');
	char *dst;

	free(ctx->run_id);
	free(ctx->tmpdir);
	free(ctx->finaldir);
	ctx->run_id = xasprintf("%s-%s", scn->name, stamp);
	ctx->tmpdir = xasprintf("%s/.tmp-%s-XXXXXX", ctx->results_root, ctx->run_id);
	ctx->finaldir = NULL;
	if (mkdir_p(ctx->results_root) || !mkdtemp(ctx->tmpdir)) {
		err_msg("%s: %s", ctx->tmpdir, strerror(errno));
		return -1;
	}
	dst = path_join(ctx->tmpdir, base ? base + 1 : scn->path);
	copy_file(scn->path, dst);
	free(dst);
	return 0;
}

json_object *runner_top(const struct run_ctx *ctx, const char *stamp)
{
	json_object *top = json_object_new_object();

	json_object_object_add(top, "date", json_object_new_string(stamp));
	json_object_object_add(top, "host", host_info());
	json_object_object_add(top, "accelerator", json_object_new_string(ctx->accel));
	if (ctx->board) {
		/* the board's identity as its probe found it (the runs' say the same) */
		json_object_object_add(top, "target", json_object_new_string(ctx->board->t.url));
		json_object_object_add(top, "board", board_identity(&ctx->board->facts));
	} else {
		json_object_object_add(top, "qemu_version",
				       json_object_new_string(ctx->qemu_version));
	}
	return top;
}

void runner_free(struct run_ctx *ctx)
{
	for (unsigned int i = 0; i < RUNNER_MAX_KERNELS; i++)
		kernel_free(&ctx->kernels[i]);
	for (unsigned int a = 0; a < RUNNER_MAX_ARCHES; a++) {
		free(ctx->images[a]);
		free(ctx->qemu_versions[a]);
	}
	free(ctx->accel_reason);
	free(ctx->qemu_version);
	free(ctx->source_version);
	free(ctx->tree_version);
	free(ctx->results_root);
	free(ctx->run_id);
	free(ctx->tmpdir);
	free(ctx->finaldir);
}

bool runner_status_complete(const char *status)
{
	return status && (!strcmp(status, "ok") || !strcmp(status, "degraded"));
}

void runner_tally(struct run_tally *t, json_object *m)
{
	const char *st = js_str(m, "status");

	t->runs++;
	if (st && !strcmp(st, "ok"))
		t->ok++;
	else if (st && !strcmp(st, "degraded"))
		t->degraded++;
	else
		t->failed++;
	t->partial += js_bool(m, "partial");
	/* runs that allocated nothing have no counts (js_int: -1) */
	if (js_int(m, "requests") > 0) {
		t->requests += js_int(m, "requests");
		t->requests_failed += js_int(m, "requests_failed");
		t->requests_timed_out += js_int(m, "requests_timed_out");
	}
}

void runner_print_tally(FILE *f, const struct run_tally *t, const char *suffix)
{
	fprintf(f, "%zu run(s): %zu complete (%zu ok, %zu degraded), %zu runs failed", t->runs,
		t->ok + t->degraded, t->ok, t->degraded, t->failed);
	if (t->partial)
		fprintf(f, " (%zu partial, rows kept)", t->partial);
	fprintf(f, "%s\n", suffix ? suffix : "");
	fprintf(f, "allocations: %lld requests, %lld failed or timed out (%lld timed out): "
		"results, not faults\n", t->requests, t->requests_failed, t->requests_timed_out);
}

/* Adds a run's metadata to the scenario's list; 1 if the run failed (did not complete). */
/* The scenario file's order: its section's place, then the repetition. */
static int by_section_rep(const void *x, const void *y)
{
	json_object *a = *(json_object *const *)x, *b = *(json_object *const *)y;
	long long sa = js_int(a, "section_index"), sb = js_int(b, "section_index");
	long long ra = js_int(a, "repetition"), rb = js_int(b, "repetition");

	if (sa != sb)
		return (sa > sb) - (sa < sb);
	return (ra > rb) - (ra < rb);
}

/*
 * Adds a run's metadata to the scenario's list, kept in the scenario
 * file's order whatever order the runs ran in (the data set's sections,
 * and so a report's columns, follow it); 1 if the run failed.
 */
size_t runner_add_run(json_object *runs, const struct run *r, json_object *m)
{
	bool failed = !runner_status_complete(js_str(m, "status"));

	json_object_object_add(m, "run", json_object_new_string(r->name));
	json_object_object_add(m, "section_index",
			       json_object_new_int64((int64_t)(r->spec - r->scn->runs)));
	json_object_array_add(runs, m);
	json_object_array_sort(runs, by_section_rep);
	return failed;
}

