#include "scenario/workload.h"
#include "scenario/scenario.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void fio_prepare(struct strbuf *sb, const struct run_spec *s, const char *job,
			const struct wl_args *a)
{
	/* The foreground's own job is laid out with it. */
	if (!s->fio || strcmp(s->fio, job))
		sb_addf(sb, "prepare %s %s\n", job, a->fio_env);
}

static void fio_command(struct strbuf *sb, const char *name, const struct run_spec *s,
			const char *job, const struct wl_args *a)
{
	sb_addf(sb, "env FIO_RUNTIME=%.0f %s fio --eta=never --output-format=json "
		"--output=$R/bg-%s.json $P/%s", s->timeout, a->fio_env, name, job);
}

static void hog_command(struct strbuf *sb, const char *name, const struct run_spec *s,
			const char *arg, const struct wl_args *a)
{
	(void)name;
	(void)arg;
	(void)a;
	sb_addf(sb, "anon-hog --percent %ld", s->hog_percent);
}

static void pin_prepare(struct strbuf *sb, const struct run_spec *s, const char *arg,
			const struct wl_args *a)
{
	(void)s;
	(void)arg;
	(void)a;
	sb_add(sb, "run prepare-pin-io dd if=/dev/zero of=/mnt/scratch/pin-io.dat bs=1M count=16\n");
}

static void pin_command(struct strbuf *sb, const char *name, const struct run_spec *s,
			const char *arg, const struct wl_args *a)
{
	(void)name;
	(void)arg;
	sb_addf(sb, "pin-io --area %s --mb %llu --mode %s --file /mnt/scratch/pin-io.dat", a->area,
		(unsigned long long)(s->pin_buffer >> 20), s->pin_mode);
}

static void sampler_command(struct strbuf *sb, const char *name, const struct run_spec *s,
			    const char *arg, const struct wl_args *a)
{
	(void)name;
	(void)s;
	(void)arg;
	(void)a;
	/* under a shared flock cma-alloc holds over each burst: never in a timed window */
	sb_add(sb, "sampler --area \"$AREA\" --lock /tmp/readers.lock "
	       "--windows $R/sampler-windows.csv");
}

static void build_command(struct strbuf *sb, const char *name, const struct run_spec *s,
			  const char *arg, const struct wl_args *a)
{
	(void)name;
	(void)arg;
	(void)a;
	sb_addf(sb, "build-sim run --dir /mnt/scratch/build --files %ld --jobs %ld --work %ld --loop",
		s->build_files, s->build_jobs, s->build_work);
}

static void alloc_command(struct strbuf *sb, const char *name, const struct run_spec *s,
			  const char *arg, const struct wl_args *a)
{
	(void)name;
	(void)s;
	(void)arg;
	sb_addf(sb, "cma-alloc %s --loop --out $R/alloc.csv", a->alloc_opts);
}

static const struct workload workloads[] = {
	{ .name = "fio", .arg = "JOB", .file_dir = "workloads/fio", .perf = true,
	  .results = "bg-fio-JOB.json, bg-fio-JOB.perf",
	  .help = "fio job file in workloads/fio/ run for the whole VM run",
	  .prepare = fio_prepare, .command = fio_command },
	{ .name = "hog", .help = "anonymous memory (hog-percent of MemAvailable), kept touched",
	  .command = hog_command },
	{ .name = "pin-io", .needs_area = true,
	  .help = "pages of the area kept referenced (pin-buffer, pin-mode)",
	  .prepare = pin_prepare, .command = pin_command },
	{ .name = "build", .perf = true, .results = "bg-build.perf",
	  .help = "build-sim in a loop (build-files, build-jobs, build-work)",
	  .command = build_command },  /* its tree: the run's layout (plan.c) */
	{ .name = "alloc", .needs_area = true, .needs_job = true, .replaces_alloc = true,
	  .results = "alloc.csv",
	  .help = "the allocation plan in a loop beside the foreground job (untraced)",
	  .command = alloc_command },
	{ .name = "sampler", .stdout_file = "samples.csv", .results = "samples.csv",
	  .help = "1 s counter samples into samples.csv", .command = sampler_command },
};

void workload_start(struct strbuf *sb, const struct bg_item *b, const struct run_spec *s,
		    const struct wl_args *a)
{
	const struct workload *w = b->w;
	struct strbuf name = { 0 };

	/* one that takes an argument is named by it too: fio-read for fio:read.fio */
	sb_init(&name);
	sb_add(&name, w->name);
	if (b->arg) {
		const char *dot = strrchr(b->arg, '.');

		sb_addf(&name, "-%.*s", (int)(dot ? dot - b->arg : (ptrdiff_t)strlen(b->arg)),
			b->arg);
	}
	sb_addf(sb, "bg %s ", name.buf);
	if (w->perf)
		sb_addf(sb, "$(perf_prefix bg-%s) ", name.buf);
	w->command(sb, name.buf, s, b->arg, a);
	if (w->stdout_file)
		sb_addf(sb, " > $R/%s 2>/dev/null\n", w->stdout_file);
	else
		sb_addf(sb, " > $R/bg-%s.log 2>&1\n", name.buf);
	sb_free(&name);
}

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(workloads); i++)
		if (!strcmp(workloads[i].name, name))
			return &workloads[i];
	return NULL;
}

void workload_print_help(FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(workloads); i++) {
		char *n = xasprintf("%s%s%s", workloads[i].name, workloads[i].arg ? ":" : "",
				    workloads[i].arg ? workloads[i].arg : "");

		fprintf(f, "  %-12s %s\n", n, workloads[i].help);
		free(n);
	}
}

int bg_list_parse(struct bg_list *list, const char *text, const char **why)
{
	struct bg_list out = { 0 };
	char *copy = xstrdup(text), *save = NULL;
	int ret = 0;

	for (char *t = strtok_r(copy, ",", &save); t && !ret; t = strtok_r(NULL, ",", &save)) {
		char *arg = strchr(t = trim(t), ':');
		const struct workload *w;

		if (arg)
			*arg++ = '\0';
		if (!*t)
			continue;
		w = workload_find(trim(t));
		if (!w) {
			*why = "has an unknown workload (see 'cmabench help scenario')";
			ret = -1;
		} else if (w->arg && (!arg || !*trim(arg))) {
			*why = "names fio without a job file (fio:JOB)";
			ret = -1;
		} else if (!w->arg && arg) {
			*why = "gives an argument to a workload that takes none";
			ret = -1;
		} else if (arg && strchr(arg, '/')) {
			*why = "has a job path: name a file of workloads/fio/ (fio:JOB)";
			ret = -1;
		} else {
			out.v = xrealloc(out.v, (out.n + 1) * sizeof(*out.v));
			out.v[out.n].w = w;
			out.v[out.n++].arg = arg ? xstrdup(trim(arg)) : NULL;
		}
	}
	free(copy);
	if (ret) {
		bg_list_free(&out);
		return ret;
	}
	bg_list_free(list);
	*list = out;
	return 0;
}

void bg_list_copy(struct bg_list *dst, const struct bg_list *src)
{
	dst->n = src->n;
	dst->v = src->n ? xcalloc(src->n, sizeof(*dst->v)) : NULL;
	for (size_t i = 0; i < src->n; i++) {
		dst->v[i].w = src->v[i].w;
		dst->v[i].arg = src->v[i].arg ? xstrdup(src->v[i].arg) : NULL;
	}
}

void bg_list_free(struct bg_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		free(list->v[i].arg);
	free(list->v);
	memset(list, 0, sizeof(*list));
}

const struct bg_item *bg_list_find(const struct bg_list *list, const char *name)
{
	for (size_t i = 0; i < list->n; i++)
		if (!strcmp(list->v[i].w->name, name))
			return &list->v[i];
	return NULL;
}

char *bg_list_string(const struct bg_list *list)
{
	struct strbuf sb;

	sb_init(&sb);
	for (size_t i = 0; i < list->n; i++)
		sb_addf(&sb, "%s%s%s%s", i ? "," : "", list->v[i].w->name,
			list->v[i].arg ? ":" : "", list->v[i].arg ? list->v[i].arg : "");
	return sb_detach(&sb);
}
