/*
 * sbatch, squeue and scancel, run as commands: a cluster's own tools, in
 * whatever version it has, rather than its C API.
 */
#include "run/slurm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool slurm_available(void)
{
	return have_program("sbatch") && have_program("squeue") && have_program("scancel");
}

int slurm_submit(const char *script, size_t ntasks, long cpus, const char *name,
		 const char *log_pattern, const struct strlist *opts, char **job, char **why)
{
	struct strlist argv = { 0 };
	char *out;
	int status;

	sl_add(&argv, "sbatch");
	sl_add(&argv, "--parsable");
	sl_addf(&argv, "--array=0-%zu", ntasks - 1);
	sl_addf(&argv, "--cpus-per-task=%ld", cpus);
	sl_addf(&argv, "--job-name=%s", name);
	sl_addf(&argv, "--output=%s", log_pattern);
	/* The user's options come last: theirs win over ours. */
	for (size_t i = 0; i < opts->n; i++)
		sl_add(&argv, opts->v[i]);
	sl_add(&argv, script);
	out = cmd_capture(argv.v, &status, true);
	sl_free(&argv);
	*job = NULL;
	if (!out) {
		*why = xstrdup("sbatch could not be run");
		return -1;
	}
	rtrim(out);
	if (status) {
		*why = xasprintf("sbatch exited with %d: %s", status, out);
		free(out);
		return -1;
	}
	/* --parsable: "JOBID" or "JOBID;CLUSTER" on the last line. */
	{
		char *last = strrchr(out, '\n');

		last = last ? last + 1 : out;
		last[strcspn(last, ";")] = '\0';
		if (!last[0] || strspn(last, "0123456789") != strlen(last)) {
			*why = xasprintf("sbatch printed no job id: %s", out);
			free(out);
			return -1;
		}
		*job = xstrdup(last);
	}
	free(out);
	return 0;
}

long slurm_tasks(const char *job, struct slurm_task *v, size_t max, char **why)
{
	/* -r: one line per array task; -t all: ended tasks too, while the
	 * controller keeps them (MinJobAge). */
	char *argv[] = { "squeue", "-h", "-r", "-t", "all", "-j", (char *)job, "-o", "%K %T %N",
			 NULL };
	int status;
	char *out = cmd_capture(argv, &status, true), *line, *save = NULL;
	long n = 0;

	if (!out) {
		*why = xstrdup("squeue could not be run");
		return -1;
	}
	if (status) {
		long rc = -1;

		if (strstr(out, "Invalid job id"))
			rc = 0;
		else
			*why = xasprintf("squeue exited with %d: %s", status, rtrim(out));
		free(out);
		return rc;
	}
	for (line = strtok_r(out, "\n", &save); line && (size_t)n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		struct slurm_task *t = &v[n];

		t->node[0] = '\0';
		if (sscanf(line, "%ld %23s %63s", &t->id, t->state, t->node) >= 2)
			n++;
	}
	free(out);
	return n;
}

bool slurm_state_active(const char *state)
{
	static const char *const active[] = {
		"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED",
		"RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD", "REQUEUE_HOLD",
		"REQUEUE_FED", "SPECIAL_EXIT",
	};

	for (size_t i = 0; i < sizeof(active) / sizeof(active[0]); i++)
		if (!strcmp(state, active[i]))
			return true;
	return false;
}

int slurm_cancel(const char *job)
{
	char *argv[] = { "scancel", (char *)job, NULL };

	return run_cmd(argv, NULL, NULL, NULL, NULL);
}
