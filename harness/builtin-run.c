/*
 * cmabench run: scenarios -> plan -> kernels and image -> one VM per run ->
 * results/<scenario>-<date>/ per scenario. Each is written under
 * results/.tmp-<id> and renamed when its runs have ended; a failed run is
 * recorded and the others go on.
 */
#include "builtin.h"
#include "kbuild/image.h"
#include "lib/json.h"
#include "lib/signals.h"
#include "lib/cache.h"
#include "lib/pack.h"
#include "report/report.h"
#include "run/board.h"
#include "run/calibrate.h"
#include "run/jobs.h"
#include "run/overall.h"
#include "run/resume.h"
#include "run/runner.h"
#include "run/submit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct run_opts {
	struct selection sel;
	const char *results, *accel;
	const char *target, *ssh_config, *board_config;
	double board_timeout;
	double kvm_probe;
	long jobs, calib_rounds;
	bool slurm, no_wait, recalibrate, resume, pack;
	struct strlist sbatch;
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

static int check_rounds(void *v, const char *arg, const char **why)
{
	if (parse_long(arg, v, why) || *(long *)v < 1 || *(long *)v > 99) {
		*why = "is not a number of rounds (1-99)";
		return -1;
	}
	return 0;
}

static const struct opt run_opts_table[] = {
	OPT_FLAG(0, "pack", offsetof(struct run_opts, pack),
		 "once a scenario's report is written, pack its runs/ into runs.tar.xz (cmabench pack)"),
	OPT_STRING(0, "results", offsetof(struct run_opts, results), "DIR",
		   "results root (default: results/ in the source tree)"),
	OPT_CALL(0, "accel", offsetof(struct run_opts, accel), "auto|kvm|tcg",
		 "accelerator (default auto: probe KVM, else TCG)", check_accel),
	OPT_DOUBLE(0, "kvm-probe", offsetof(struct run_opts, kvm_probe), "SECONDS",
		   "how long the KVM probe may take (default 10)"),
	OPT_CALL('j', "jobs", offsetof(struct run_opts, jobs), "N",
		 "up to N VMs at once, each pinned to host cores of its own (default 1: runs "
		 "alone measure cleanest)", check_jobs),
	OPT_FLAG(0, "resume", offsetof(struct run_opts, resume),
		 "skip a scenario whose complete results are already in the results root, made "
		 "from the same plan, kernels, image and harness (an interrupted run goes on)"),
	OPT_GROUP("A board instead of QEMU (docs/targets.md)"),
	OPT_STRING(0, "target", offsetof(struct run_opts, target), "ssh://[user@]host[:port][/dir]",
		   "run on a board over ssh, booted into each kernel under test by kexec"),
	OPT_STRING(0, "ssh-config", offsetof(struct run_opts, ssh_config), "FILE",
		   "ssh's configuration for --target (ssh -F; default: the user's own)"),
	OPT_STRING(0, "board-config", offsetof(struct run_opts, board_config), "FILE",
		   "the board's kernel .config (default: its /proc/config.gz)"),
	OPT_DOUBLE(0, "board-timeout", offsetof(struct run_opts, board_timeout), "SECONDS",
		   "how long a boot (kexec, reboot) may take before the board counts as lost "
		   "(default 300)"),
	OPT_GROUP("disk-scale=cpu"),
	OPT_FLAG(0, "recalibrate", offsetof(struct run_opts, recalibrate),
		 "measure the guest's copy slow-down again, replacing the one the cache kept"),
	OPT_CALL(0, "calibrate-rounds", offsetof(struct run_opts, calib_rounds), "N",
		 "rounds of a new measurement, whose median is the divisor (default 5)",
		 check_rounds),
	OPT_GROUP("Slurm"),
	OPT_FLAG(0, "slurm", offsetof(struct run_opts, slurm),
		 "submit the runs as one Slurm array job (one task per run) and wait for it"),
	OPT_LIST(0, "sbatch", offsetof(struct run_opts, sbatch), "OPTION",
		 "an sbatch option for the array job, e.g. --sbatch=--partition=big "
		 "(repeatable; implies --slurm)"),
	OPT_FLAG(0, "no-wait", offsetof(struct run_opts, no_wait),
		 "with --slurm: return once submitted; 'cmabench wait' completes the results"),
	SELECTION_OPTS(struct run_opts, sel),
	OPT_END(),
};

const struct cmd_usage run_usage = {
	"cmabench run [options] SCENARIO...",
	"Runs the scenarios in VMs into RESULTS/<scenario>-<date>/, one directory\n"
	"each, and writes each one's report.",
	run_opts_table,
};

static size_t scenario_runs(const struct plan *plan, const struct scenario *scn)
{
	size_t n = 0;

	for (size_t i = 0; i < plan->n; i++)
		n += plan->runs[i].scn == scn;
	return n;
}

/*
 * Each scenario's key into keys; with resume and its complete results
 * already in the results root, their directory into kept and its runs out
 * of the estimate, all before the first run: how many were kept.
 */
static size_t resume_all(struct run_ctx *ctx, const struct selection *selp, bool resume,
			 char (*keys)[65], char **kept)
{
	size_t n = 0;

	for (size_t i = 0; i < selp->nscns; i++) {
		resume_key(ctx, &selp->plan, &selp->scns[i], keys[i]);
		if (resume)
			kept[i] = resume_find(ctx->results_root, selp->scns[i].name, keys[i]);
		if (!kept[i])
			continue;
		printf("[resume] %s: complete in %s, not run again\n", selp->scns[i].name,
		       kept[i]);
		for (size_t r = 0; r < selp->plan.n; r++)
			if (selp->plan.runs[r].scn == &selp->scns[i])
				overall_keep(ctx->overall, r);
		n++;
	}
	return n;
}

/* Only a complete run says how long runs take (as for the history): one that
 * did not boot, or was cut short, would skew what is left. */
static bool run_counts(json_object *m)
{
	return runner_status_complete(js_str(m, "status"));
}

struct child_arg {
	struct run_ctx *ctx;
	const struct run *r;
	size_t idx, total;
};

static char *run_child(void *arg, const char *cores)
{
	struct child_arg *a = arg;
	json_object *m = runner_run_one(a->ctx, a->r, a->idx, a->total, cores);
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
			if (!jobs_can_start(&j, runner_cores(ctx, r)))
				break;
			a.idx = (*done)++;
			if (jobs_start(&j, next, runner_cores(ctx, r), run_child, &a)) {
				err_msg("cannot start a run: %s", strerror(errno));
				(*done)--;
				break;
			}
			overall_start(ctx->overall, EST_RUN, next);
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
		overall_end(ctx->overall, EST_RUN, d.id, run_counts(got[d.id]));
		{
			char *dir = xasprintf("%s/runs/%s", ctx->tmpdir, sel->plan.runs[d.id].name);

			runner_write_meta(dir, got[d.id]);
			free(dir);
		}
		free(d.out);
		if (next >= n && !jobs_running(&j) && !interrupted())
			break;
	}
	/* Plan order in the scenario's metadata, whatever order they ended in. */
	for (size_t i = 0; i < n; i++)
		if (got[i])
			nfail += runner_add_run(runs, &sel->plan.runs[i], got[i]);
	free(got);
	jobs_free(&j);
	return nfail;
}

/*
 * One scenario's runs into results/<scenario>-<stamp>/ (runs of different
 * scenarios share section names, so each scenario has its own directory).
 * Returns the number of failed runs, -1 when the directory could not be
 * made or completed. Interrupted (Ctrl-C), the runs that ended are kept:
 * the one stopped is marked partial with the rows it wrote, the ones not
 * started are absent.
 */
static long run_scenario(struct run_ctx *ctx, const struct selection *sel, size_t si,
			 const char *stamp, const char *key, size_t *done, struct run_tally *tally)
{
	const struct scenario *scn = &sel->scns[si];
	json_object *top, *runs;
	size_t nfail = 0;
	int rc;

	if (runner_stage(ctx, scn, stamp))
		return -1;
	top = runner_top(ctx, stamp);
	json_object_object_add(top, "plan_key", json_object_new_string(key));
	runs = json_object_new_array();
	if (ctx->jobs > 1 && scenario_parallel(scn))
		nfail = run_pool(ctx, sel, scn, runs, done);
	else
		for (size_t i = 0; i < sel->plan.n && !interrupted(); i++) {
			const struct run *r = &sel->plan.runs[i];
			json_object *m;

			if (r->scn != scn)
				continue;
			overall_start(ctx->overall, EST_RUN, i);
			m = runner_run_one(ctx, r, (*done)++, sel->plan.n, NULL);
			overall_end(ctx->overall, EST_RUN, i, run_counts(m));
			nfail += runner_add_run(runs, r, m);
		}
	for (size_t i = 0; i < json_object_array_length(runs); i++)
		runner_tally(tally, json_object_array_get_idx(runs, i));
	/* interrupted before its first run: nothing to keep */
	if (interrupted() && !json_object_array_length(runs)) {
		rm_rf(ctx->tmpdir);
		json_object_put(runs);
		json_object_put(top);
		return -1;
	}
	if (interrupted())
		json_object_object_add(top, "interrupted", json_object_new_boolean(1));
	rc = runner_finish(ctx, top, runs, nfail);
	json_object_put(top);
	return rc ? -1 : (long)nfail;
}

/*
 * A scenario's results directory once its runs ended: its report at once
 * (the run ends with something to read), the figures report.md links, and
 * with pack its runs/ into runs.tar.xz. 0, or 1 when one of them failed.
 */
/*
 * --target: the board probed, every run checked against what a board can
 * honour, before anything is built. 0, or -1 (said).
 */
static int open_board(struct run_ctx *ctx, struct board *b, const struct run_opts *o,
		      const char *stamp)
{
	struct strbuf errs = { 0 };

	if (o->slurm || o->jobs > 1) {
		err_msg("run: --target runs on one board, one run at a time: no --slurm, no --jobs");
		return -1;
	}
	if (board_open(b, ctx->env, o->target, o->ssh_config, o->board_config, stamp))
		return -1;
	ctx->board = b;
	if (o->board_timeout > 0)
		b->boot_timeout_s = o->board_timeout;
	for (size_t i = 0; i < o->sel.plan.n; i++)
		board_check_run(b, &o->sel.plan.runs[i], &errs);
	if (errs.len) {
		err_msg("run: what the board cannot honour:\n%s", errs.buf);
		sb_free(&errs);
		return -1;
	}
	/* the board's own CPU: no accelerator to choose */
	ctx->accel = "board";
	ctx->accel_reason = xasprintf("a board over ssh (%s)", o->target);
	return 0;
}

/* What Ctrl-C left: no guest running (or the board back), the runs kept. */
static void say_interrupted(const struct run_ctx *ctx)
{
	err_msg("interrupted: %s; the runs that ended are kept%s%s (the one stopped marked "
		"partial), the others not started",
		ctx->board ? "the board is returned to its own kernel" : "no VM left running",
		ctx->finaldir ? " in " : "", ctx->finaldir ? ctx->finaldir : "");
}

static int finish_results(const char *dir, bool pack, struct strbuf *summary)
{
	if (report_finish(dir, summary))
		return 1;
	return pack && pack_runs(dir, false);
}

int cmd_run(int argc, char **argv, struct cmb_env *env)
{
	struct run_opts o = { .kvm_probe = 10, .jobs = 1 };
	struct selection *selp = &o.sel;
	struct run_ctx ctx = { .env = env };
	char *stamp = NULL, **kept = NULL, (*keys)[65] = NULL;
	size_t done = 0;
	struct run_tally tally = { 0 };
	struct strbuf summary = { 0 };
	struct overall overall = { 0 };
	struct board board = { 0 };
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
	o.slurm |= o.sbatch.n > 0;
	if (o.no_wait && !o.slurm) {
		err_msg("run: --no-wait is for --slurm (a local run is its own waiting)");
		goto out;
	}
	if (o.slurm && o.jobs > 1)
		info_msg("--jobs %ld is for local runs: with --slurm, Slurm decides what runs at once",
			 o.jobs);
	if (o.accel)
		env->accel = o.accel;
	ctx.kvm_probe_s = o.kvm_probe;
	ctx.jobs = o.jobs;
	ctx.calib_rounds = (int)o.calib_rounds;
	ctx.recalibrate = o.recalibrate;
	if (ctx.jobs > (long)ctx.host_cores)
		info_msg("--jobs %ld: the host has %u cores; at most %u VMs run at once", ctx.jobs,
			 ctx.host_cores, ctx.host_cores);
	/* Every scenario is checked before anything is built or booted. */
	if (selection_load(env, selp, argc - first, argv + first))
		goto out;
	plan_print(stdout, &selp->plan);
	stamp = utc_now(true);
	if (o.target && open_board(&ctx, &board, &o, stamp))
		goto out;

	rc = 1;
	if (runner_check_arches(&ctx, &selp->plan))
		goto out;
	/* One estimate of everything before the first step, one line after each. */
	runner_find_kernels(&ctx, &selp->plan);
	overall_init(&overall, &ctx, &selp->plan, o.slurm);
	overall_print_plan(&overall, "cmabench run");
	ctx.overall = &overall;
	if (runner_kernels(&ctx, &selp->plan))
		goto out;
	if (runner_images(&ctx, &selp->plan))
		goto out;
	if (ctx.board && board_userland(ctx.board, env, ctx.images[arch_index(board.arch)]))
		goto out;
	runner_accel(&ctx);
	if (calibrate_for_plan(&ctx, &selp->plan)) {
		err_msg("run: disk-scale=cpu needs the guest's copy rate, which was not measured");
		goto out;
	}

	ctx.results_root = o.results ? abs_path(o.results) : env_src(env, "results");
	if (o.slurm) {
		rc = submit_run(&ctx, selp, stamp, &o.sbatch, !o.no_wait);
		goto out;
	}
	rc = 0;
	keys = xcalloc(selp->nscns, sizeof(*keys));
	kept = xcalloc(selp->nscns, sizeof(*kept));
	if (resume_all(&ctx, selp, o.resume, keys, kept))
		overall_print_status(&overall);  /* what is left without the kept scenarios */
	for (size_t i = 0; i < selp->nscns && !interrupted(); i++) {
		long failed;

		if (kept[i]) {
			sb_addf(&summary, "%s: kept from %s\n", selp->scns[i].name, kept[i]);
			done += scenario_runs(&selp->plan, &selp->scns[i]);
			continue;
		}
		failed = run_scenario(&ctx, selp, i, stamp, keys[i], &done, &tally);

		/* A run that did not complete is a fault of the harness or the guest
		 * (panic, hang, a missing tool); failed and timed-out allocations
		 * are results and leave the status 0. */
		if (failed < 0)
			rc = 1;
		else
			rc |= (failed > 0) | finish_results(ctx.finaldir, o.pack, &summary);
	}
	printf("\n%s", summary.buf ? summary.buf : "");
	runner_print_tally(stdout, &tally, NULL);
	/* what this run used was touched: the bound evicts older entries */
	cache_prune_all(env, false, NULL, stdout);
	if (interrupted()) {
		say_interrupted(&ctx);
		rc = 130;
	}
out:
	if (ctx.board)
		board_close(ctx.board);
	for (size_t i = 0; kept && i < selp->nscns; i++)
		free(kept[i]);
	free(kept);
	free(keys);
	overall_free(&overall);
	sb_free(&summary);
	free(stamp);
	runner_free(&ctx);
	sl_free(&o.sbatch);
	selection_free(selp);
	return rc;
}
