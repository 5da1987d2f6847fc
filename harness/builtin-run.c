/*
 * cmabench run: scenarios -> plan -> kernels and image -> one VM per run ->
 * results/<scenario>-<date>/ per scenario. Each is written under
 * results/.tmp-<id> and renamed when its runs have ended; a failed run is
 * recorded and the others go on.
 */
#include "builtin.h"
#include "dataset.h"
#include "disk.h"
#include "dtb.h"
#include "history.h"
#include "image.h"
#include "jobs.h"
#include "kbuild.h"
#include "signals.h"
#include "vm.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* Kernels are indexed by arch and variant: KIDX(arch index, variant index). */
#define MAX_KERNELS 16
#define KIDX(a, v) ((a) * kvariants_count + (v))

struct run_ctx {
	const struct cmb_env *env;
	struct kernel kernels[MAX_KERNELS];
	int kernel_ok[MAX_KERNELS];
	char *images[4];            /* root image of each arch the plan uses */
	const char *accel;          /* for guests of the host's arch; others run under TCG */
	char *accel_reason;
	char *qemu_version;         /* of the first arch the plan uses (top-level metadata) */
	char *qemu_versions[4];     /* by arch */
	char *results_root;
	char *run_id;
	char *tmpdir;
	char *finaldir;
	double kvm_probe_s;
	long jobs;                  /* VMs at once (--jobs) */
	unsigned host_cores;
};

static struct kernel *kernel_for(struct run_ctx *ctx, const struct run_spec *s, int *ok)
{
	for (unsigned int i = 0; i < kvariants_count; i++)
		if (!strcmp(kvariants[i].name, s->kernel)) {
			unsigned int k = KIDX(arch_index(s->arch), i);

			*ok = ctx->kernel_ok[k];
			return &ctx->kernels[k];
		}
	*ok = 0;
	return NULL;
}

static bool plan_uses_arch(const struct plan *plan, const struct cmb_arch *a)
{
	for (size_t r = 0; r < plan->n; r++)
		if (plan->runs[r].spec->arch == a)
			return true;
	return false;
}

/* Every arch of the plan has its tools, or nothing starts. */
static int check_arches(const struct run_ctx *ctx, const struct plan *plan)
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

static int build_kernels(struct run_ctx *ctx, const struct plan *plan)
{
	int built = 0;

	for (unsigned int a = 0; a < cmb_arches_count; a++)
		for (unsigned int i = 0; i < kvariants_count; i++) {
			bool needed = false;
			unsigned int k = KIDX(a, i);

			for (size_t r = 0; r < plan->n; r++)
				needed |= plan->runs[r].spec->arch == &cmb_arches[a] &&
					  !strcmp(plan->runs[r].spec->kernel, kvariants[i].name);
			if (!needed)
				continue;
			ctx->kernel_ok[k] = kbuild_get_arch(ctx->env, &cmb_arches[a], &kvariants[i],
							    &ctx->kernels[k]) == 0;
			built += ctx->kernel_ok[k];
			if (interrupted())
				return -1;
		}
	return built ? 0 : -1;
}

/* The root image of every arch the plan uses, and its QEMU's version. */
static int make_images(struct run_ctx *ctx, const struct plan *plan)
{
	for (unsigned int a = 0; a < cmb_arches_count; a++) {
		const struct cmb_arch *arch = &cmb_arches[a];
		char *qv[] = { (char *)arch_qemu(ctx->env, arch), "--version", NULL };

		if (!plan_uses_arch(plan, arch))
			continue;
		ctx->images[a] = image_get_arch(ctx->env, arch);
		if (!ctx->images[a] || interrupted())
			return -1;
		ctx->qemu_versions[a] = cmd_first_line(qv);
		if (!ctx->qemu_versions[a])
			ctx->qemu_versions[a] = xstrdup("unknown");
		if (!ctx->qemu_version)
			ctx->qemu_version = xstrdup(ctx->qemu_versions[a]);
	}
	return 0;
}

static void choose_accel(struct run_ctx *ctx)
{
	const char *pref = ctx->env->accel;
	const char *kernel = NULL;
	const struct cmb_arch *native = NULL;

	/* KVM runs guests of the host's own architecture only: probe with one. */
	for (unsigned int k = 0; k < MAX_KERNELS && !kernel; k++)
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
	if (vm_probe_kvm(arch_qemu(ctx->env, native), native, kernel, ctx->kvm_probe_s)) {
		ctx->accel = "kvm";
		ctx->accel_reason = xstrdup("KVM probe booted a kernel");
	} else {
		ctx->accel = "tcg";
		ctx->accel_reason = xasprintf("KVM probe saw no kernel output within %.0f s",
					      ctx->kvm_probe_s);
	}
	printf("[accel] using %s: %s\n", ctx->accel, ctx->accel_reason);
}

/* With stamp: "20261203-142501" (run ids); without: ISO 8601. */
static char *utc_now(bool stamp)
{
	char buf[64];
	time_t t = time(NULL);

	if (stamp)
		strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", gmtime(&t));
	else
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	return xstrdup(buf);
}

static json_object *host_info(void)
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

static char *make_scratch(const struct cmb_env *env, const struct run *r, const char *tag)
{
	char *dir = env_cache(env, "tmp");
	char *img = xasprintf("%s/scratch-%s-%d.img", dir, tag, (int)getpid());
	char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", "scratch", img, NULL };
	int fd;

	mkdir_p(dir);
	free(dir);
	/* A sparse file of the scenario's size: costs nothing until written. */
	fd = open(img, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)r->spec->scratch) || close(fd) ||
	    run_cmd(argv, NULL, NULL, NULL, NULL)) {
		err_msg("mkfs.ext4 of the scratch disk %s failed", img);
		unlink(img);
		free(img);
		return NULL;
	}
	return img;
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

static void write_run_meta(const char *dir, json_object *m)
{
	char *meta = path_join(dir, "metadata.json");

	json_object_to_file_ext(meta, m, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	free(meta);
}

/* cores: the host cores the run is pinned to, NULL when not pinned. */
static json_object *run_one(struct run_ctx *ctx, const struct run *r, size_t idx, size_t total,
			    const char *cores)
{
	const struct run_spec *s = r->spec;
	char *dir = xasprintf("%s/runs/%s", ctx->tmpdir, r->name);
	char *console = path_join(dir, "console.log");
	char *label = xasprintf("run %zu/%zu %s/%s", idx + 1, total, r->scn->name, r->name);
	char *hkey = xasprintf("vm.%s.%s", r->scn->name, s->section);
	char *started = utc_now(false);
	json_object *m = json_object_new_object();
	struct strlist qargv = { 0 };
	struct vm_result res = { .kernel_seconds = -1, .init_seconds = -1 };
	const char *status;
	char *scratch = NULL;
	int kok;
	struct kernel *k = kernel_for(ctx, s, &kok);
	double estimate = history_get(ctx->env, hkey);
	const struct cmb_arch *arch = s->arch;
	unsigned int ai = arch_index(arch);
	/* KVM runs the host's own architecture only; another one is emulated. */
	const char *accel = arch_native(arch) ? ctx->accel : "tcg";
	char *accel_reason = arch_native(arch) ? xstrdup(ctx->accel_reason)
		: xasprintf("an %s guest on a host of another architecture: TCG", arch->name);
	char *dtb = NULL, *dtb_dir = NULL;

	if (estimate <= 0)
		estimate = 20 + s->fio_runtime + (s->fio ? s->fio_size / (40.0 * (1 << 20)) : 0);
	mkdir_p(dir);
	json_object_object_add(m, "scenario", json_object_new_string(r->scn->name));
	json_object_object_add(m, "section", json_object_new_string(s->section));
	json_object_object_add(m, "repetition", json_object_new_int(r->rep));
	if (s->description)
		json_object_object_add(m, "description", json_object_new_string(s->description));
	json_object_object_add(m, "kernel_variant", json_object_new_string(s->kernel));
	json_object_object_add(m, "arch", json_object_new_string(arch->name));
	if (kok) {
		json_object_object_add(m, "kernel_version", json_object_new_string(k->version));
		json_object_object_add(m, "kernel_build_key", json_object_new_string(k->key));
	}
	json_object_object_add(m, "setup", json_object_new_string(setup_name(s->setup)));
	json_object_object_add(m, "area_bytes", json_object_new_int64(s->area));
	json_object_object_add(m, "guest_memory_mib", json_object_new_int64(r->mem_mib));
	json_object_object_add(m, "guest_cpus", json_object_new_int(s->cpus));
	if (r->area)
		json_object_object_add(m, "area", json_object_new_string(r->area));
	json_object_object_add(m, "allocations", json_object_new_string(r->allocations));
	json_object_object_add(m, "disk", json_object_new_string(s->disk));
	if (s->baseline)
		json_object_object_add(m, "baseline", json_object_new_string(s->baseline));
	json_object_object_add(m, "fill_target_pct", json_object_new_int64(r->area ? s->fill : 0));
	{
		json_object *bg = json_object_new_array();

		for (size_t i = 0; i < s->bg.n; i++) {
			const struct bg_item *b = &s->bg.v[i];
			char *name = b->arg ? xasprintf("%s:%s", b->w->name, b->arg)
					    : xstrdup(b->w->name);

			json_object_array_add(bg, json_object_new_string(name));
			free(name);
		}
		json_object_object_add(m, "backgrounds", bg);
	}
	json_object_object_add(m, "cmdline", json_object_new_string(r->cmdline));
	json_object_object_add(m, "qemu_version", json_object_new_string(ctx->qemu_versions[ai]));
	json_object_object_add(m, "accelerator", json_object_new_string(accel));
	json_object_object_add(m, "accelerator_reason", json_object_new_string(accel_reason));
	json_object_object_add(m, "date", json_object_new_string(started));
	json_object_object_add(m, "host", host_info());
	json_object_object_add(m, "host_load_start", host_load());
	json_object_object_add(m, "jobs", json_object_new_int64(ctx->jobs));
	if (cores)
		json_object_object_add(m, "cpu_affinity", json_object_new_string(cores));

	if (!kok) {
		status = "kernel-build-failed";
		printf("[%s] skipped: kernel %s did not build\n", label, s->kernel);
		goto record;
	}
	if (write_guest_plan(ctx->env, r, dir) || !(scratch = make_scratch(ctx->env, r, r->name))) {
		status = "setup-failed";
		goto record;
	}
	char *disk_opts = disk_qemu_opts(disk_find(s->disk));
	struct vm_config vc = {
		.qemu = arch_qemu(ctx->env, arch), .accel = accel, .mem_mib = r->mem_mib,
		.machine = arch->machine, .cpu = arch->tcg_cpu,
		.cpus = s->cpus, .kernel = k->bzimage, .cmdline = r->cmdline,
		.root_img = ctx->images[ai], .scratch_img = scratch, .share_dir = dir,
		.console_log = console, .timeout_s = s->timeout, .label = label,
		.scratch_opts = disk_opts,
		.estimate_s = estimate,
	};
	if (arch->device_tree) {
		/* QEMU's tree for this very machine plus the set-up's reserved-memory node. */
		struct strbuf errs = { 0 };

		dtb_dir = xasprintf("%s.dtb.d", scratch);
		if (dtb_make(ctx->env, &vc, s->setup, s->area, dtb_dir, &dtb, &errs)) {
			err_msg("%s/%s: %s", r->scn->name, r->name, errs.buf);
			sb_free(&errs);
			free(disk_opts);
			status = "setup-failed";
			goto record;
		}
		sb_free(&errs);
		vc.dtb = dtb;
		json_object_object_add(m, "devicetree", json_object_new_string(DTB_SOURCE_NAME));
	}
	vm_argv(&vc, &qargv);
	{
		json_object *a = json_object_new_array();

		for (size_t i = 0; i < qargv.n; i++)
			json_object_array_add(a, json_object_new_string(qargv.v[i]));
		json_object_object_add(m, "qemu_argv", a);
	}
	vm_run(&vc, &res);
	free(disk_opts);
	status = vm_status_name(res.status);
	{
		/* A text copy of the trace's cma events: results committed
		 * without the binary trace.dat still give the same report. */
		struct strbuf errs = { 0 };

		if (dataset_export_trace(dir, &errs)) {
			err_msg("%s/%s: trace.dat %s", r->scn->name, r->name, errs.buf);
			json_object_object_add(m, "trace_problem", json_object_new_string(errs.buf));
		}
		sb_free(&errs);
	}
	if (res.status == VM_OK && dataset_background_died(dir)) {
		/* The numbers exist but were not taken under the planned load. */
		status = "degraded";
		err_msg("%s/%s: a background workload died (see backgrounds.csv)", r->scn->name, r->name);
	}
	if (res.status == VM_OK)
		history_set(ctx->env, hkey, res.seconds);
	else if (res.status != VM_INTERRUPTED) {
		err_msg("%s/%s: %s%s%s", r->scn->name, r->name, status,
			res.problem[0] ? ": " : "", res.problem);
		char *name = xasprintf("runs/%s/console.log of the results directory named at "
				       "the end", r->name);

		print_tail(console, name, 25);
		free(name);
	}
	json_object_object_add(m, "seconds", json_object_new_double(res.seconds));
	json_object_object_add(m, "kernel_start_seconds", json_object_new_double(res.kernel_seconds));
	json_object_object_add(m, "init_start_seconds", json_object_new_double(res.init_seconds));
	json_object_object_add(m, "kernel_warnings", json_object_new_int(res.warnings));
	if (res.problem[0])
		json_object_object_add(m, "problem", json_object_new_string(res.problem));
record:
	json_object_object_add(m, "status", json_object_new_string(status));
	json_object_object_add(m, "host_load_end", host_load());
	/* Sequential: nothing ran beside it (the pool corrects this when it did). */
	json_object_object_add(m, "vms_beside", json_object_new_int(0));
	write_run_meta(dir, m);
	{
		char *st = path_join(dir, "status");
		char *line = xasprintf("%s\n", status);

		write_file(st, line, strlen(line));
		free(st);
		free(line);
	}
	if (scratch) {
		unlink(scratch);
		free(scratch);
	}
	if (dtb_dir) {
		rm_rf(dtb_dir);
		free(dtb_dir);
	}
	free(dtb);
	free(accel_reason);
	sl_free(&qargv);
	free(dir);
	free(console);
	free(label);
	free(hkey);
	free(started);
	return m;
}

struct run_opts {
	struct selection sel;
	const char *results, *accel;
	double kvm_probe;
	long jobs;
};

static int check_accel(void *v, const char *arg, const char **why)
{
	if (strcmp(arg, "auto") && strcmp(arg, "kvm") && strcmp(arg, "tcg")) {
		*why = "is not auto, kvm or tcg";
		return -1;
	}
	*(const char **)v = arg;
	return 0;
}

static int check_jobs(void *v, const char *arg, const char **why)
{
	if (parse_long(arg, v, why) || *(long *)v < 1) {
		*why = "is not a number of VMs (1 or more)";
		return -1;
	}
	return 0;
}

static const struct opt run_opts_table[] = {
	OPT_STRING(0, "results", offsetof(struct run_opts, results), "DIR",
		   "results root (default: results/ in the source tree)"),
	OPT_CALL(0, "accel", offsetof(struct run_opts, accel), "auto|kvm|tcg",
		 "accelerator (default auto: probe KVM, else TCG)", check_accel),
	OPT_DOUBLE(0, "kvm-probe", offsetof(struct run_opts, kvm_probe), "SECONDS",
		   "how long the KVM probe may take (default 10)"),
	OPT_CALL('j', "jobs", offsetof(struct run_opts, jobs), "N",
		 "up to N VMs at once, each pinned to host cores of its own (default 1: runs "
		 "alone measure cleanest)", check_jobs),
	SELECTION_OPTS(struct run_opts, sel),
	OPT_END(),
};

const struct cmd_usage run_usage = {
	"cmabench run [options] SCENARIO...",
	"Runs the scenarios in VMs into RESULTS/<scenario>-<date>/, one directory\n"
	"each, and writes each one's report.",
	run_opts_table,
};

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
static int finish(struct run_ctx *ctx, json_object *top, json_object *runs, size_t nfail)
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

/* Adds a run's metadata to the scenario's list; 1 if the run failed. */
static size_t add_run(json_object *runs, const struct run *r, json_object *m)
{
	json_object *st;
	bool failed = !json_object_object_get_ex(m, "status", &st) ||
		      strcmp(json_object_get_string(st), "ok");

	json_object_object_add(m, "run", json_object_new_string(r->name));
	json_object_array_add(runs, m);
	return failed;
}

/* A scenario runs beside other VMs only if every one of its sections allows it. */
static bool scenario_parallel(const struct scenario *scn)
{
	for (size_t i = 0; i < scn->nruns; i++)
		if (!scn->runs[i].parallel)
			return false;
	return true;
}

/* A run's vCPUs, each on a host core of its own (at most all of them). */
static unsigned cores_of(const struct run_ctx *ctx, const struct run *r)
{
	return r->spec->cpus < (long)ctx->host_cores ? (unsigned)r->spec->cpus : ctx->host_cores;
}

struct child_arg {
	struct run_ctx *ctx;
	const struct run *r;
	size_t idx, total;
};

static char *run_child(void *arg, const char *cores)
{
	struct child_arg *a = arg;
	json_object *m = run_one(a->ctx, a->r, a->idx, a->total, cores);
	char *out = xstrdup(json_object_to_json_string_ext(m, JSON_C_TO_STRING_PLAIN));

	json_object_put(m);
	return out;
}

/*
 * Up to ctx->jobs runs at once, each in a child pinned to its own cores, in
 * plan order; every run's metadata says how many VMs ran beside it at most.
 */
static size_t run_pool(struct run_ctx *ctx, const struct selection *sel,
		       const struct scenario *scn, json_object *runs, size_t *done)
{
	struct jobs j;
	size_t next = 0, nfail = 0, n = sel->plan.n;
	json_object **got = xcalloc(n, sizeof(*got));

	jobs_init(&j, (size_t)ctx->jobs, ctx->host_cores);
	for (;;) {
		struct job_done d;

		while (next < n && !interrupted()) {
			const struct run *r = &sel->plan.runs[next];
			struct child_arg a = { ctx, r, 0, n };

			if (r->scn != scn) {
				next++;
				continue;
			}
			if (!jobs_can_start(&j, cores_of(ctx, r)))
				break;
			a.idx = (*done)++;
			if (jobs_start(&j, next, cores_of(ctx, r), run_child, &a)) {
				err_msg("cannot start a run: %s", strerror(errno));
				(*done)--;
				break;
			}
			next++;
		}
		if (!jobs_wait(&j, &d))
			break;
		got[d.id] = d.out ? json_tokener_parse(d.out) : NULL;
		if (!got[d.id]) {
			got[d.id] = json_object_new_object();
			json_object_object_add(got[d.id], "status",
					       json_object_new_string("crashed"));
			err_msg("%s/%s: the runner's child ended with status %d", scn->name,
				sel->plan.runs[d.id].name, d.status);
		}
		json_object_object_add(got[d.id], "vms_beside", json_object_new_int((int)d.beside));
		{
			char *dir = xasprintf("%s/runs/%s", ctx->tmpdir, sel->plan.runs[d.id].name);

			write_run_meta(dir, got[d.id]);
			free(dir);
		}
		free(d.out);
		if (next >= n && !jobs_running(&j) && !interrupted())
			break;
	}
	/* Plan order in the scenario's metadata, whatever order they ended in. */
	for (size_t i = 0; i < n; i++)
		if (got[i])
			nfail += add_run(runs, &sel->plan.runs[i], got[i]);
	free(got);
	jobs_free(&j);
	return nfail;
}

/*
 * One scenario's runs into results/<scenario>-<stamp>/, written under
 * .tmp-<id> and renamed when its last run has ended (runs of different
 * scenarios share section names, so each scenario has its own directory).
 * Returns the number of failed runs, -1 when the directory could not be
 * made or completed; on an interrupt ctx->tmpdir is left for the caller.
 */
static long run_scenario(struct run_ctx *ctx, const struct selection *sel, size_t si,
			 const char *stamp, size_t *done)
{
	const struct scenario *scn = &sel->scns[si];
	const char *base = strrchr(scn->path, '/');
	json_object *top, *runs;
	struct strlist failed = { 0 };
	size_t nfail = 0;
	char *dst;

	free(ctx->run_id);
	free(ctx->tmpdir);
	free(ctx->finaldir);
	ctx->run_id = xasprintf("%s-%s", scn->name, stamp);
	/* A temporary directory of its own, whoever else runs into this root. */
	ctx->tmpdir = xasprintf("%s/.tmp-%s-XXXXXX", ctx->results_root, ctx->run_id);
	ctx->finaldir = NULL;
	if (mkdir_p(ctx->results_root) || !mkdtemp(ctx->tmpdir)) {
		err_msg("%s: %s", ctx->tmpdir, strerror(errno));
		return -1;
	}
	dst = path_join(ctx->tmpdir, base ? base + 1 : scn->path);
	copy_file(scn->path, dst);
	free(dst);
	top = json_object_new_object();
	json_object_object_add(top, "date", json_object_new_string(stamp));
	json_object_object_add(top, "host", host_info());
	json_object_object_add(top, "accelerator", json_object_new_string(ctx->accel));
	json_object_object_add(top, "qemu_version", json_object_new_string(ctx->qemu_version));
	runs = json_object_new_array();
	if (ctx->jobs > 1 && scenario_parallel(scn))
		nfail = run_pool(ctx, sel, scn, runs, done);
	else
		for (size_t i = 0; i < sel->plan.n && !interrupted(); i++) {
			const struct run *r = &sel->plan.runs[i];

			if (r->scn != scn)
				continue;
			nfail += add_run(runs, r, run_one(ctx, r, (*done)++, sel->plan.n, NULL));
		}
	if (interrupted()) {
		json_object_put(runs);
		json_object_put(top);
		return -1;
	}
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		json_object *m = json_object_array_get_idx(runs, i), *st, *name;

		if (json_object_object_get_ex(m, "status", &st) &&
		    strcmp(json_object_get_string(st), "ok") &&
		    json_object_object_get_ex(m, "run", &name))
			sl_addf(&failed, "%s\t%s", json_object_get_string(name),
				json_object_get_string(st));
	}
	if (finish(ctx, top, runs, nfail)) {
		sl_free(&failed);
		json_object_put(top);
		return -1;
	}
	json_object_put(top);
	printf("results: %s (%zu failed)\n", ctx->finaldir, nfail);
	/* The failed runs by their final paths (their consoles were shown under
	 * the temporary directory's name). */
	for (size_t i = 0; i < failed.n; i++) {
		char *tab = strchr(failed.v[i], '\t');

		*tab = '\0';
		printf("  %s: %s, console %s/runs/%s/console.log\n", failed.v[i], tab + 1,
		       ctx->finaldir, failed.v[i]);
	}
	sl_free(&failed);
	return (long)nfail;
}

int cmd_run(int argc, char **argv, struct cmb_env *env)
{
	struct run_opts o = { .kvm_probe = 10, .jobs = 1 };
	struct selection *selp = &o.sel;
	struct run_ctx ctx = { .env = env };
	char *stamp = NULL;
	size_t nfail = 0, done = 0;
	struct strbuf summary = { 0 };
	int first, rc = 2;

	ctx.host_cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	first = options_parse(&run_usage, &o, argc, argv);
	if (first < 0) {
		rc = first == -1 ? 0 : 2;
		goto out;
	}
	if (first >= argc) {
		options_usage(stderr, &run_usage);
		goto out;
	}
	if (o.accel)
		env->accel = o.accel;
	ctx.kvm_probe_s = o.kvm_probe;
	ctx.jobs = o.jobs;
	if (ctx.jobs > (long)ctx.host_cores)
		info_msg("--jobs %ld: the host has %u cores; at most %u VMs run at once", ctx.jobs,
			 ctx.host_cores, ctx.host_cores);
	/* Every scenario is checked before anything is built or booted. */
	if (selection_load(env, selp, argc - first, argv + first))
		goto out;
	plan_print(stdout, &selp->plan);

	rc = 1;
	if (check_arches(&ctx, &selp->plan) || build_kernels(&ctx, &selp->plan))
		goto out;
	if (make_images(&ctx, &selp->plan))
		goto out;
	choose_accel(&ctx);

	ctx.results_root = o.results ? abs_path(o.results) : env_src(env, "results");
	stamp = utc_now(true);
	rc = 0;
	for (size_t i = 0; i < selp->nscns && !interrupted(); i++) {
		long failed = run_scenario(&ctx, selp, i, stamp, &done);

		if (failed < 0)
			rc = 1;
		else {
			nfail += (size_t)failed;
			rc |= failed > 0;
			/* Each results directory gets its report at once: the run
			 * ends with something to read. */
			if (report_results(ctx.finaldir, NULL, true, &summary))
				rc = 1;
		}
	}
	if (interrupted()) {
		err_msg("interrupted: no VM left running; partial results removed (%s)",
			ctx.tmpdir ? ctx.tmpdir : "none yet");
		if (ctx.tmpdir)
			rm_rf(ctx.tmpdir);
		rc = 130;
		goto out;
	}
	printf("\n%s%zu run(s), %zu ok, %zu failed\n", summary.buf ? summary.buf : "", done,
	       done - nfail, nfail);
out:
	sb_free(&summary);
	free(stamp);
	for (unsigned int i = 0; i < MAX_KERNELS; i++)
		kernel_free(&ctx.kernels[i]);
	for (unsigned int a = 0; a < ARRAY_SIZE(ctx.images); a++) {
		free(ctx.images[a]);
		free(ctx.qemu_versions[a]);
	}
	free(ctx.accel_reason);
	free(ctx.qemu_version);
	free(ctx.results_root);
	free(ctx.run_id);
	free(ctx.tmpdir);
	free(ctx.finaldir);
	selection_free(selp);
	return rc;
}
