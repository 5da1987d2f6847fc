/*
 * The foreground jobs, one row each (job.h). A new job is a row here (and
 * its guest program, if busybox has none for it): init runs the command,
 * times it and the report compares its elapsed, user and sys times.
 */
#include "scenario/job.h"
#include "scenario/scenario.h"

#include <string.h>

static void build_command(struct strbuf *c, const struct run_spec *s)
{
	sb_addf(c, "build-sim run --dir /mnt/scratch/build --files %ld --jobs %ld --work %ld "
		"--headers-mb %llu --includes %ld", s->build_files, s->build_jobs, s->build_work,
		(unsigned long long)(s->build_headers >> 20), s->build_includes);
}

static void build_layout(struct strbuf *sb, const struct run_spec *s)
{
	sb_addf(sb, "build-sim prepare --dir build --files %ld --headers-mb %llu\n",
		s->build_files, (unsigned long long)(s->build_headers >> 20));
}

static void apps_command(struct strbuf *c, const struct run_spec *s)
{
	sb_addf(c, "app-switch run --dir /mnt/scratch/apps --apps %ld --launches %ld --keep %ld "
		"--heap-mb %llu --dwell-ms %.0f --seed %ld --out $R/launches.csv", s->app_count,
		s->app_launches, s->app_keep, (unsigned long long)(s->app_heap >> 20),
		s->app_dwell * 1000, s->seed);
}

static void apps_layout(struct strbuf *sb, const struct run_spec *s)
{
	sb_addf(sb, "app-switch prepare --dir apps --apps %ld --code-kb %llu --assets-kb %llu\n",
		s->app_count, (unsigned long long)(s->app_code >> 10),
		(unsigned long long)(s->app_assets >> 10));
}

static const struct job jobs[] = {
	{ "build", "build-sim, a kernel-build-like job (J workers read sources, churn an 8 MiB "
	  "heap each, write objects, then link; `build-*` keys)", .times_itself = true,
	  .command = build_command, .layout = build_layout },
	{ "apps", "app-switch, a phone user switching between apps (`app-*` keys; each launch's "
	  "time to ready and major faults into `launches.csv`)", .times_itself = true,
	  .results = "launches.csv", .command = apps_command, .layout = apps_layout },
};

const struct job *job_find(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(jobs); i++)
		if (!strcmp(jobs[i].name, name))
			return &jobs[i];
	return NULL;
}

void job_names(struct strlist *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(jobs); i++)
		sl_add(out, jobs[i].name);
}

char *job_command(const struct job *j, const struct run_spec *s)
{
	struct strbuf c = { 0 };

	/* a job that does not time itself is timed by init (job_timed) */
	if (!j->times_itself)
		sb_addf(&c, "job_timed %s ", j->name);
	j->command(&c, s);
	if (j->times_itself)
		sb_addf(&c, " --times $R/jobtime.csv --name %s", j->name);
	return sb_detach(&c);
}
