/*
 * Runs through Slurm (submit.h). The submitting host checks the scenarios,
 * builds kernels and image once (the nodes find them in the shared cache
 * directory by their keys), stages every scenario's directory, and submits
 * one array job; each task reloads the same scenarios from the staged
 * copies, so it plans exactly what was submitted.
 */
#include "run/submit.h"
#include "report/report.h"
#include "kbuild/image.h"
#include "lib/json.h"
#include "lib/signals.h"
#include "run/slurm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MANIFEST "submission.json"

static json_object *str_array(const struct strlist *l)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < l->n; i++)
		json_object_array_add(a, json_object_new_string(l->v[i]));
	return a;
}

static void array_strs(json_object *a, struct strlist *l)
{
	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		sl_add(l, json_object_get_string(json_object_array_get_idx(a, i)));
}

/* Written to a temporary name and renamed: a task never reads half of it. */
static int write_manifest(const char *stage, json_object *m)
{
	char *path = path_join(stage, MANIFEST);
	char *tmp = xasprintf("%s.tmp", path);
	int rc = json_object_to_file_ext(tmp, m, JSON_C_TO_STRING_PRETTY |
						 JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!rc && rename(tmp, path))
		rc = -1;
	if (rc)
		err_msg("%s: cannot write the submission", path);
	free(tmp);
	free(path);
	return rc;
}

static json_object *read_manifest(const char *stage)
{
	char *path = path_join(stage, MANIFEST);
	json_object *m = json_object_from_file(path);

	if (!m || !js_arr(m, "runs") || !js_arr(m, "scenarios"))
		err_msg("%s: not a cmabench submission (%s)", path,
			m ? "no runs or scenarios" : json_util_get_last_err());
	free(path);
	return m && js_arr(m, "runs") && js_arr(m, "scenarios") ? m : NULL;
}

/* Single quotes for /bin/sh; a path with one in it is refused. */
static int sh_quote(struct strbuf *sb, const char *s)
{
	if (strchr(s, '\'')) {
		err_msg("%s: a path with a single quote cannot go into the job script", s);
		return -1;
	}
	sb_addf(sb, " '%s'", s);
	return 0;
}

static char *self_exe(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

static int write_script(const struct cmb_env *env, const char *stage, char **script)
{
	struct strbuf sb = { 0 };
	char *exe = self_exe();
	int rc = 0;

	sb_init(&sb);
	sb_add(&sb, "#!/bin/sh\n# cmabench: array task i runs the submission's run i "
		    "(cmabench task).\nexec");
	rc |= exe ? sh_quote(&sb, exe) : -1;
	sb_add(&sb, " --cache-dir");
	rc |= sh_quote(&sb, env->cache_dir);
	if (env->linux_source) {
		sb_add(&sb, " --linux-source");
		rc |= sh_quote(&sb, env->linux_source);
	}
	sb_add(&sb, " task");
	rc |= sh_quote(&sb, stage);
	sb_add(&sb, " \"$SLURM_ARRAY_TASK_ID\"\n");
	*script = path_join(stage, "job.sh");
	if (!rc && (write_file(*script, sb.buf, sb.len) || chmod(*script, 0755))) {
		err_msg("%s: %s", *script, strerror(errno));
		rc = -1;
	}
	free(exe);
	sb_free(&sb);
	return rc;
}

/* A run must be alone on its node (parallel=no): the whole array gets
 * --exclusive, which Slurm honours per task. */
static bool any_exclusive(const struct selection *sel)
{
	for (size_t i = 0; i < sel->plan.n; i++)
		if (!sel->plan.runs[i].spec->parallel)
			return true;
	return false;
}

static json_object *manifest_new(const struct run_ctx *ctx, const struct selection *sel,
				 const char *stamp)
{
	json_object *m = json_object_new_object(), *runs = json_object_new_array();

	json_object_object_add(m, "stamp", json_object_new_string(stamp));
	json_object_object_add(m, "results_root", json_object_new_string(ctx->results_root));
	json_object_object_add(m, "accelerator", json_object_new_string(ctx->accel));
	json_object_object_add(m, "accelerator_reason", json_object_new_string(ctx->accel_reason));
	json_object_object_add(m, "qemu_version", json_object_new_string(ctx->qemu_version));
	/* "copy_slowdown": x86_64 guests'; "copy_slowdown_<arch>": another arch's */
	for (unsigned int a = 0; a < cmb_arches_count && a < RUNNER_MAX_ARCHES; a++) {
		char *k = a ? xasprintf("copy_slowdown_%s", cmb_arches[a].name)
			    : xstrdup("copy_slowdown");

		json_object_object_add(m, k, json_object_new_double(ctx->copy_slowdown[a]));
		free(k);
		k = a ? xasprintf("copy_calibration_%s", cmb_arches[a].name)
		      : xstrdup("copy_calibration");
		json_object_object_add(m, k, calib_to_json(&ctx->copy_calib[a]));
		free(k);
	}
	json_object_object_add(m, "only", str_array(&sel->only));
	json_object_object_add(m, "sets", str_array(&sel->sets));
	json_object_object_add(m, "scenarios", json_object_new_array());
	for (size_t i = 0; i < sel->plan.n; i++) {
		json_object *r = json_object_new_object();

		json_object_object_add(r, "scenario",
				       json_object_new_string(sel->plan.runs[i].scn->name));
		json_object_object_add(r, "name", json_object_new_string(sel->plan.runs[i].name));
		json_object_array_add(runs, r);
	}
	json_object_object_add(m, "runs", runs);
	return m;
}

static long max_cpus(const struct selection *sel)
{
	long c = 1;

	for (size_t i = 0; i < sel->plan.n; i++)
		if (sel->plan.runs[i].spec->cpus > c)
			c = sel->plan.runs[i].spec->cpus;
	return c;
}

int submit_run(struct run_ctx *ctx, const struct selection *sel, const char *stamp,
	       const struct strlist *sbatch, bool wait)
{
	char *stage = xasprintf("%s/.slurm-%s-XXXXXX", ctx->results_root, stamp);
	char *script = NULL, *job = NULL, *why = NULL, *logs, *name;
	json_object *m = NULL, *scns;
	struct strlist opts = { 0 };
	int rc = 1;

	if (!slurm_available()) {
		err_msg("--slurm: sbatch, squeue or scancel is not in PATH (scripts/install-deps "
			"installs Debian's slurm-wlm)");
		free(stage);
		return 1;
	}
	if (mkdir_p(ctx->results_root) || !mkdtemp(stage)) {
		err_msg("%s: %s", stage, strerror(errno));
		free(stage);
		return 1;
	}
	m = manifest_new(ctx, sel, stamp);
	scns = js_arr(m, "scenarios");
	for (size_t i = 0; i < sel->nscns; i++) {
		json_object *s = json_object_new_object();
		const char *base = strrchr(sel->scns[i].path, '/');

		if (runner_stage(ctx, &sel->scns[i], stamp))
			goto out;
		json_object_object_add(s, "name", json_object_new_string(sel->scns[i].name));
		json_object_object_add(s, "run_id", json_object_new_string(ctx->run_id));
		json_object_object_add(s, "tmpdir", json_object_new_string(ctx->tmpdir));
		/* The staged copy is what the tasks plan from. */
		json_object_object_add(s, "file", json_object_new_string(
				base ? base + 1 : sel->scns[i].path));
		json_object_array_add(scns, s);
	}
	if (write_manifest(stage, m) || write_script(ctx->env, stage, &script))
		goto out;
	if (any_exclusive(sel)) {
		sl_add(&opts, "--exclusive");
		info_msg("a scenario forbids parallel runs (parallel=no): each task gets a node "
			 "of its own (--exclusive)");
	}
	for (size_t i = 0; i < sbatch->n; i++)
		sl_add(&opts, sbatch->v[i]);
	logs = path_join(stage, "task-%a.log");
	name = xasprintf("cmabench-%s", stamp);
	rc = slurm_submit(script, sel->plan.n, max_cpus(sel), name, logs, &opts, &job, &why);
	free(logs);
	free(name);
	if (rc) {
		err_msg("--slurm: %s", why);
		rc = 1;
		goto out;
	}
	json_object_object_add(m, "job", json_object_new_string(job));
	if (write_manifest(stage, m)) {
		slurm_cancel(job);
		rc = 1;
		goto out;
	}
	printf("[slurm] job %s: %zu task(s), one per run; logs in %s\n", job, sel->plan.n, stage);
	if (!wait) {
		printf("[slurm] 'cmabench wait %s' completes the results when the job has ended\n",
		       stage);
		rc = 0;
		goto out_keep;
	}
	json_object_put(m);
	m = NULL;
	rc = submit_wait(ctx->env, stage);
	goto out_keep;
out:
	/* Nothing was submitted: nothing of it stays. */
	for (size_t i = 0; scns && i < json_object_array_length(scns); i++)
		rm_rf(js_str(json_object_array_get_idx(scns, i), "tmpdir"));
	if (ctx->tmpdir && !job)
		rm_rf(ctx->tmpdir);
	rm_rf(stage);
out_keep:
	sl_free(&opts);
	if (m)
		json_object_put(m);
	free(script);
	free(job);
	free(why);
	free(stage);
	return rc;
}

/* ---- waiting ------------------------------------------------------------ */

struct tally {
	size_t pending, running, ended;
};

static double now_s(void)
{
	return (double)now_ns() / 1e9;
}

/* Sleeps about seconds unless interrupted first. */
static void nap(double seconds)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	for (double t = 0; t < seconds && !interrupted(); t += 0.2)
		nanosleep(&ts, NULL);
}

/*
 * The tasks' states into state[i] (a task the controller no longer lists
 * keeps its last state: it has ended). Returns how many are still active,
 * or -1 when squeue keeps failing.
 */
static long poll_tasks(const char *job, size_t n, char (*state)[24], char (*node)[64],
		       struct tally *t)
{
	struct slurm_task *v = xcalloc(n, sizeof(*v));
	char *why = NULL;
	long got = -1;

	for (int tries = 0; tries < 5 && got < 0 && !interrupted(); tries++) {
		got = slurm_tasks(job, v, n, &why);
		if (got < 0) {
			err_msg("[slurm] %s (retrying)", why);
			free(why);
			why = NULL;
			nap(2);
		}
	}
	if (got < 0) {
		free(v);
		return -1;
	}
	/* Listed tasks get their state; unlisted ones ended (the controller
	 * forgets ended tasks after MinJobAge). */
	for (size_t i = 0; i < n; i++)
		if (slurm_state_active(state[i]) || !state[i][0]) {
			bool listed = false;

			for (long k = 0; k < got; k++)
				listed |= v[k].id == (long)i;
			if (!listed)
				snprintf(state[i], sizeof(state[i]), "%s",
					 state[i][0] ? "ENDED" : (got ? "PENDING" : "ENDED"));
		}
	for (long k = 0; k < got; k++)
		if (v[k].id >= 0 && (size_t)v[k].id < n) {
			snprintf(state[v[k].id], sizeof(state[0]), "%s", v[k].state);
			if (v[k].node[0] && strcmp(v[k].node, "(null)"))
				snprintf(node[v[k].id], sizeof(node[0]), "%s", v[k].node);
		}
	*t = (struct tally){ 0 };
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(state[i], "PENDING"))
			t->pending++;
		else if (slurm_state_active(state[i]))
			t->running++;
		else
			t->ended++;
	}
	free(v);
	return (long)(t->pending + t->running);
}

static void progress(const char *job, size_t n, const struct tally *t, double start,
		     double *last_print, struct tally *last)
{
	double el = now_s() - start;
	char e[32], left[48] = "";

	if (!memcmp(t, last, sizeof(*t)) && el - *last_print < 60)
		return;
	*last = *t;
	*last_print = el;
	fmt_duration(e, sizeof(e), el);
	if (t->ended && t->ended < n) {
		/* Ended tasks' mean pace, with as many at once as now run. */
		char l[32];

		fmt_duration(l, sizeof(l), el / (double)t->ended * (double)(n - t->ended));
		snprintf(left, sizeof(left), ", ~%s left", l);
	}
	printf("[slurm] job %s: %zu/%zu ended, %zu running, %zu pending, %s elapsed%s\n", job,
	       t->ended, n, t->running, t->pending, e, left);
}

/* Cancels the array and waits (a minute at most) for its tasks to stop. */
static void cancel_and_drain(const char *job, size_t n, char (*state)[24], char (*node)[64])
{
	struct tally t;

	slurm_cancel(job);
	for (int i = 0; i < 60; i++) {
		struct timespec ts = { 1, 0 };

		if (poll_tasks(job, n, state, node, &t) <= 0)
			return;
		nanosleep(&ts, NULL);
	}
	err_msg("[slurm] job %s: tasks still listed a minute after scancel", job);
}

/*
 * VMs beside each run: the most runs of this submission on its host at any
 * moment of its life (runs on other hosts, or other users' jobs, are not
 * seen; host_load_* says what the host did).
 */
void submit_set_beside(json_object **m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double s = js_num(m[i], "start_unix", -1), e = js_num(m[i], "end_unix", -1);
		const char *host = js_str(js_at(m[i], "/host"), "name");
		int most = 0;

		if (s < 0 || e < s || !host)
			continue;
		/* The count only rises at another run's start (or at s itself). */
		for (size_t k = 0; k <= n; k++) {
			double at = k == n ? s : js_num(m[k], "start_unix", -1);
			int c = 0;

			if (at < s || at >= e)
				continue;
			for (size_t o = 0; o < n; o++) {
				const char *ohost = js_str(js_at(m[o], "/host"), "name");

				if (o != i && ohost && !strcmp(ohost, host) &&
				    js_num(m[o], "start_unix", -1) <= at && js_num(m[o], "end_unix", -1) > at)
					c++;
			}
			if (c > most)
				most = c;
		}
		json_object_object_add(m[i], "vms_beside", json_object_new_int(most));
	}
}

/* The run's metadata as its task left it, or a record of a task that died
 * before writing one; either way with its Slurm task and log. */
static json_object *collect_run(const char *tmpdir, const struct run *r, const char *stage,
				const char *job, size_t i, const char *state, const char *node)
{
	char *dir = xasprintf("%s/runs/%s", tmpdir, r->name);
	char *meta = path_join(dir, "metadata.json");
	char *log = xasprintf("%s/task-%zu.log", stage, i);
	char *dst = path_join(dir, "slurm.log");
	json_object *m = path_exists(meta) ? json_object_from_file(meta) : NULL;

	mkdir_p(dir);
	if (!m) {
		char *st = xasprintf("slurm-%s", state);

		for (char *p = st; *p; p++)
			*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
		m = json_object_new_object();
		json_object_object_add(m, "scenario", json_object_new_string(r->scn->name));
		json_object_object_add(m, "section", json_object_new_string(r->spec->section));
		json_object_object_add(m, "repetition", json_object_new_int(r->rep));
		json_object_object_add(m, "kernel_variant", json_object_new_string(r->spec->kernel));
		json_object_object_add(m, "status", json_object_new_string(st));
		json_object_object_add(m, "problem", json_object_new_string(
			"the Slurm task ended without recording the run (see slurm.log)"));
		runner_write_status(dir, st);
		free(st);
	}
	json_object_object_add(m, "executor", json_object_new_string("slurm"));
	json_object_object_add(m, "slurm_task", json_object_new_string(state));
	{
		char *id = xasprintf("%s_%zu", job, i);

		json_object_object_add(m, "slurm_job", json_object_new_string(id));
		free(id);
	}
	if (node[0])
		json_object_object_add(m, "slurm_node", json_object_new_string(node));
	if (path_exists(log) && !copy_file(log, dst))
		json_object_object_add(m, "slurm_log", json_object_new_string("slurm.log"));
	free(dir);
	free(meta);
	free(log);
	free(dst);
	return m;
}

/* Loads the submission's scenarios from their staged copies, as a task does. */
static int load_submitted(const struct cmb_env *env, json_object *man, struct selection *sel)
{
	json_object *scns = js_arr(man, "scenarios");
	size_t n = json_object_array_length(scns);
	char **args = xcalloc(n, sizeof(*args));
	int rc;

	array_strs(js_arr(man, "only"), &sel->only);
	array_strs(js_arr(man, "sets"), &sel->sets);
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(scns, i);

		args[i] = path_join(js_str(s, "tmpdir"), js_str(s, "file"));
	}
	rc = selection_load(env, sel, (int)n, args);
	for (size_t i = 0; i < n; i++)
		free(args[i]);
	free(args);
	if (!rc && sel->plan.n != json_object_array_length(js_arr(man, "runs"))) {
		err_msg("the staged scenarios plan %zu runs, the submission %zu", sel->plan.n,
			json_object_array_length(js_arr(man, "runs")));
		rc = 1;
	}
	return rc;
}

static int complete(const struct cmb_env *env, json_object *man,
		    const struct selection *sel, const char *stage, char (*state)[24], char (*node)[64], struct strbuf *summary,
		    size_t *nfail_all, struct run_tally *tally)
{
	json_object *scns = js_arr(man, "scenarios");
	const char *job = js_str(man, "job");
	size_t n = sel->plan.n;
	json_object **metas = xcalloc(n, sizeof(*metas));
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		const struct run *r = &sel->plan.runs[i];

		for (size_t s = 0; s < sel->nscns; s++)
			if (r->scn == &sel->scns[s])
				metas[i] = collect_run(js_str(json_object_array_get_idx(scns, s),
							    "tmpdir"),
						       r, stage, job, i, state[i], node[i]);
	}
	submit_set_beside(metas, n);
	for (size_t s = 0; s < sel->nscns; s++) {
		json_object *js = json_object_array_get_idx(scns, s);
		struct run_ctx ctx = { .env = env };
		json_object *top, *runs = json_object_new_array();
		size_t nfail = 0;
		char *copy;

		ctx.accel = js_str(man, "accelerator");
		ctx.qemu_version = xstrdup(js_str(man, "qemu_version"));
		ctx.results_root = xstrdup(js_str(man, "results_root"));
		ctx.run_id = xstrdup(js_str(js, "run_id"));
		ctx.tmpdir = xstrdup(js_str(js, "tmpdir"));
		for (size_t i = 0; i < n; i++) {
			if (sel->plan.runs[i].scn != &sel->scns[s])
				continue;
			char *dir = xasprintf("%s/runs/%s", ctx.tmpdir, sel->plan.runs[i].name);

			runner_write_meta(dir, metas[i]);
			free(dir);
			runner_tally(tally, metas[i]);
			nfail += runner_add_run(runs, &sel->plan.runs[i],
						json_object_get(metas[i]));
		}
		copy = path_join(ctx.tmpdir, "slurm.json");
		json_object_to_file_ext(copy, man, JSON_C_TO_STRING_PRETTY |
						     JSON_C_TO_STRING_NOSLASHESCAPE);
		free(copy);
		top = runner_top(&ctx, js_str(man, "stamp"));
		json_object_object_add(top, "executor", json_object_new_string("slurm"));
		json_object_object_add(top, "slurm_job", json_object_new_string(job));
		if (runner_finish(&ctx, top, runs, nfail))
			rc = 1;
		else {
			*nfail_all += nfail;
			rc |= nfail > 0;
			/* its report and figures at once, as a local run's */
			if (report_finish(ctx.finaldir, summary))
				rc = 1;
		}
		json_object_put(top);
		ctx.accel = NULL;
		runner_free(&ctx);
	}
	for (size_t i = 0; i < n; i++)
		json_object_put(metas[i]);
	free(metas);
	return rc;
}

int submit_wait(const struct cmb_env *env, const char *stage)
{
	json_object *man = read_manifest(stage);
	struct selection sel = { 0 };
	const char *job;
	char(*state)[24] = NULL;
	char(*node)[64] = NULL;
	struct tally t = { 0 }, last = { .pending = (size_t)-1 };
	struct run_tally rt = { 0 };
	struct strbuf summary = { 0 };
	double start = now_s(), last_print = 0;
	size_t n, nfail = 0;
	int rc = 1;

	if (!man)
		return 1;
	if (!(job = js_str(man, "job"))) {
		err_msg("%s/%s: no job id: the submission did not reach Slurm", stage, MANIFEST);
		goto out;
	}
	if (load_submitted(env, man, &sel))
		goto out;
	n = sel.plan.n;
	state = xcalloc(n, sizeof(*state));
	node = xcalloc(n, sizeof(*node));
	for (;;) {
		long active = poll_tasks(job, n, state, node, &t);

		if (interrupted())
			break;
		if (active < 0) {
			err_msg("[slurm] job %s: squeue keeps failing; 'cmabench wait %s' resumes",
				job, stage);
			goto out;
		}
		progress(job, n, &t, start, &last_print, &last);
		if (!active)
			break;
		nap(2);
	}
	if (interrupted()) {
		err_msg("interrupted: job %s cancelled, its partial results removed", job);
		cancel_and_drain(job, n, state, node);
		for (size_t i = 0; i < json_object_array_length(js_arr(man, "scenarios")); i++)
			rm_rf(js_str(json_object_array_get_idx(js_arr(man, "scenarios"), i), "tmpdir"));
		rm_rf(stage);
		rc = 130;
		goto out;
	}
	sb_init(&summary);
	rc = complete(env, man, &sel, stage, state, node, &summary, &nfail, &rt);
	if (!rc || nfail)
		rm_rf(stage);
	{
		char *suffix = xasprintf(" (Slurm job %s)", job);

		printf("\n%s", summary.buf ? summary.buf : "");
		runner_print_tally(stdout, &rt, suffix);
		free(suffix);
	}
out:
	sb_free(&summary);
	free(state);
	free(node);
	selection_free(&sel);
	json_object_put(man);
	return rc;
}

/* ---- one task ------------------------------------------------------------ */

int submit_task(struct cmb_env *env, const char *stage,
		long index)
{
	json_object *man = read_manifest(stage), *want, *m, *scns;
	struct selection sel = { 0 };
	struct run_ctx ctx = { .env = env, .jobs = 1 };
	const struct run *r;
	struct plan one;
	int rc = 1;

	if (!man)
		return 1;
	scns = js_arr(man, "scenarios");
	if (load_submitted(env, man, &sel))
		goto out;
	if (index < 0 || (size_t)index >= sel.plan.n) {
		err_msg("task %ld: the submission has runs 0-%zu", index, sel.plan.n - 1);
		goto out;
	}
	r = &sel.plan.runs[index];
	want = json_object_array_get_idx(js_arr(man, "runs"), (size_t)index);
	if (strcmp(r->name, js_str(want, "name")) || strcmp(r->scn->name, js_str(want, "scenario"))) {
		err_msg("task %ld: the staged scenarios plan %s/%s, the submission %s/%s", index,
			r->scn->name, r->name, js_str(want, "scenario"), js_str(want, "name"));
		goto out;
	}
	for (size_t s = 0; s < sel.nscns; s++)
		if (r->scn == &sel.scns[s])
			ctx.tmpdir = xstrdup(js_str(json_object_array_get_idx(scns, s), "tmpdir"));
	ctx.results_root = xstrdup(js_str(man, "results_root"));
	one = (struct plan){ .runs = (struct run *)r, .n = 1 };
	if (runner_kernels(&ctx, &one) || runner_images(&ctx, &one) || interrupted())
		goto out;
	/* The accelerator the submitting host chose: every task alike. */
	env->accel = js_str(man, "accelerator");
	runner_accel(&ctx);
	free(ctx.accel_reason);
	ctx.accel_reason = xasprintf("%s (chosen on the submitting host)",
				     js_str(man, "accelerator_reason"));
	/* measured on the submitting host, for every task alike */
	for (unsigned int a = 0; a < cmb_arches_count && a < RUNNER_MAX_ARCHES; a++) {
		json_object *cal;
		char *k = a ? xasprintf("copy_slowdown_%s", cmb_arches[a].name)
			    : xstrdup("copy_slowdown");

		ctx.copy_slowdown[a] = js_num(man, k, -1);
		free(k);
		/* its rounds and source; a manifest from before them says none */
		k = a ? xasprintf("copy_calibration_%s", cmb_arches[a].name)
		      : xstrdup("copy_calibration");
		if (json_object_object_get_ex(man, k, &cal))
			calib_from_json(&ctx.copy_calib[a], cal);
		free(k);
	}
	m = runner_run_one(&ctx, r, (size_t)index, sel.plan.n, NULL);
	rc = js_str(m, "status") && !strcmp(js_str(m, "status"), "ok") ? 0 : 1;
	json_object_put(m);
out:
	runner_free(&ctx);
	selection_free(&sel);
	json_object_put(man);
	return rc;
}
