#include "scenario/scenario.h"
#include "scenario/disk.h"
#include "scenario/variants.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum key_type {
	T_STRING, T_SIZE, T_LONG, T_DURATION, T_DURATION0, T_SETUP, T_LONG_LIST, T_KERNEL,
	T_BACKGROUND, T_PIN_MODE, T_JOB, T_BOOL, T_DISK, T_DISK_SCALE, T_KEEP, T_ARCH,
};

struct key_def {
	const char *name;
	enum scn_key id;
	enum key_type type;
	size_t offset;
	long min, max;          /* for T_LONG, T_LONG_LIST */
	const char *help;
};

#define OFF(f) offsetof(struct run_spec, f)

static const struct key_def keys[] = {
	{ "description", K_DESCRIPTION, T_STRING, OFF(description), 0, 0,
	  "one line saying what the run is for" },
	{ "kernel", K_KERNEL, T_KERNEL, OFF(kernel), 0, 0,
	  "kernel variant: vanilla or gcma" },
	{ "arch", K_ARCH, T_ARCH, OFF(arch), 0, 0,
	  "guest architecture: x86_64 or arm64 (QEMU virt; cma and gcma areas come from the "
	  "device tree's reserved-memory node, not from cma=/gcma=)" },
	{ "setup", K_SETUP, T_SETUP, OFF(setup), 0, 0,
	  "none, carveout (area withheld from the guest), cma (cma=area) or gcma (gcma=area)" },
	{ "area", K_AREA, T_SIZE, OFF(area), 0, 0,
	  "size of the reserved area, e.g. 64M" },
	{ "memory", K_MEMORY, T_SIZE, OFF(memory), 0, 0,
	  "guest RAM, e.g. 512M" },
	{ "cpus", K_CPUS, T_LONG, OFF(cpus), 1, 16,
	  "guest vCPUs" },
	{ "timeout", K_TIMEOUT, T_DURATION, OFF(timeout), 0, 0,
	  "wall-clock limit of one VM run, e.g. 5m" },
	{ "repeat", K_REPEAT, T_LONG, OFF(repeat), 1, 1000,
	  "how many times the run is repeated (each in a fresh VM)" },
	{ "scratch", K_SCRATCH, T_SIZE, OFF(scratch), 0, 0,
	  "size of the scratch disk (ext4, /mnt/scratch in the guest)" },
	{ "fio", K_FIO, T_STRING, OFF(fio), 0, 0,
	  "fio job file in workloads/fio/ run on the scratch disk" },
	{ "fio-runtime", K_FIO_RUNTIME, T_DURATION, OFF(fio_runtime), 0, 0,
	  "fio runtime (job files read it as ${FIO_RUNTIME})" },
	{ "fio-size", K_FIO_SIZE, T_SIZE, OFF(fio_size), 0, 0,
	  "fio file size (job files read it as ${FIO_SIZE})" },
	{ "alloc-count", K_ALLOC_COUNT, T_LONG, OFF(alloc_count), 0, 100000,
	  "allocations per size through debugfs cma/<area>/alloc" },
	{ "alloc-pages", K_ALLOC_PAGES, T_LONG_LIST, OFF(alloc_pages), 1, 1L << 22,
	  "comma-separated request sizes in pages, e.g. 1,512,1024" },
	{ "append", K_APPEND, T_STRING, OFF(append), 0, 0,
	  "extra kernel command line" },
	{ "script", K_SCRIPT, T_STRING, OFF(script), 0, 0,
	  "guest shell script in workloads/guest/scripts/ run after the other steps" },
	{ "background", K_BACKGROUND, T_BACKGROUND, OFF(bg), 0, 0,
	  "comma list of workloads started before and stopped after the foreground "
	  "(see 'cmabench help scenario' for the workloads)" },
	{ "hog-percent", K_HOG_PERCENT, T_LONG, OFF(hog_percent), 1, 95,
	  "share of MemAvailable the hog keeps filled and touched" },
	{ "pin-buffer", K_PIN_BUFFER, T_SIZE, OFF(pin_buffer), 0, 0,
	  "memory pin-io faults in to find pages inside the area" },
	{ "pin-mode", K_PIN_MODE, T_PIN_MODE, OFF(pin_mode), 0, 0,
	  "how pin-io keeps pages busy: dio (direct reads in flight) or vmsplice (pages held in pipes)" },
	{ "job", K_JOB, T_JOB, OFF(job), 0, 0,
	  "foreground job timed to jobtime.csv: build (build-sim, a kernel-build-like job)" },
	{ "build-files", K_BUILD_FILES, T_LONG, OFF(build_files), 1, 100000,
	  "source files of build-sim (4-64 KiB each)" },
	{ "build-jobs", K_BUILD_JOBS, T_LONG, OFF(build_jobs), 1, 64,
	  "parallel build-sim workers (make -j)" },
	{ "build-work", K_BUILD_WORK, T_LONG, OFF(build_work), 1, 10000,
	  "passes over each worker's 8 MiB heap per file (CPU per compilation)" },
	{ "warmup", K_WARMUP, T_DURATION0, OFF(warmup), 0, 0,
	  "how long backgrounds run before the foreground starts" },
	{ "alloc-burst", K_ALLOC_BURST, T_LONG, OFF(alloc_burst), 1, 256,
	  "allocations made back to back, held and freed together" },
	{ "alloc-hold", K_ALLOC_HOLD, T_DURATION0, OFF(alloc_hold), 0, 0,
	  "how long a burst is held before it is freed" },
	{ "alloc-interval", K_ALLOC_INTERVAL, T_DURATION0, OFF(alloc_interval), 0, 0,
	  "mean time between bursts" },
	{ "alloc-jitter", K_ALLOC_JITTER, T_DURATION0, OFF(alloc_jitter), 0, 0,
	  "uniform +- jitter on the interval, from a generator seeded with seed" },
	{ "seed", K_SEED, T_LONG, OFF(seed), 0, 1L << 30,
	  "seed of the jitter generator" },
	{ "disk", K_DISK, T_DISK, OFF(disk), 0, 0,
	  "storage model of the scratch disk: host (unthrottled), emmc, ufs or nvme (QEMU "
	  "throttling at a datasheet's figures)" },
	{ "disk-scale", K_DISK_SCALE, T_DISK_SCALE, OFF(disk_scale), 0, 0,
	  "divide the disk model's speed by this number, or by 'cpu': how much slower the "
	  "guest copies pages than the host (measured once per host; under TCG a cache hit "
	  "slows down, a throttled disk does not)" },
	{ "fill", K_FILL, T_LONG, OFF(fill), 0, 100,
	  "% of the area its natural tenants fill before the first allocation and keep filled "
	  "(CMA: movable pages; GCMA: cached pages); 0: an idle area" },
	{ "fill-timeout", K_FILL_TIMEOUT, T_DURATION, OFF(fill_timeout), 0, 0,
	  "how long the fill may take; a run that does not reach its fill is marked not-filled" },
	{ "fill-keep", K_FILL_KEEP, T_KEEP, OFF(fill_paced), 0, 0,
	  "how the filled area is kept full: stream (its readers read on, the cache stays in "
	  "use) or paced (they read only while the area is short: a quiet guest, for a job's "
	  "CPU time)" },
	{ "baseline", K_BASELINE, T_STRING, OFF(baseline), 0, 0,
	  "the section the report compares the others with (default: the first section that "
	  "allocated, else the first)" },
	{ "parallel", K_PARALLEL, T_BOOL, OFF(parallel), 0, 0,
	  "yes: the run may share the host with other VMs under 'run --jobs N'; no: it runs alone "
	  "(latency tails feel a neighbour)" },
	{ "trace", K_TRACE, T_STRING, OFF(trace), 0, 0,
	  "comma-separated trace events recorded around the allocations (default cma, all the data set reads; gcma and cleancache events come by the thousand under a fill and can fill the buffer; empty: none)" },
};

static const char *const setup_names[] = {
	[SETUP_NONE] = "none", [SETUP_CARVEOUT] = "carveout",
	[SETUP_CMA] = "cma", [SETUP_GCMA] = "gcma",
};

const char *setup_name(enum setup s)
{
	return setup_names[s];
}

const char *setup_area_name(enum setup s)
{
	if (s == SETUP_CMA)
		return "reserved";
	if (s == SETUP_GCMA)
		return "gcma";
	return NULL;
}

void scenario_print_keys(FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		fprintf(f, "  %-12s %s\n", keys[i].name, keys[i].help);
	fprintf(f, "\nbackground workloads:\n");
	workload_print_help(f);
}

static const struct key_def *key_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

int parse_long(const char *s, long *out, const char **why)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno) {
		*why = "is not a whole number";
		return -1;
	}
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out, const char **why)
{
	char *end;
	unsigned long long v;
	uint64_t mult;

	if (!isdigit((unsigned char)*s)) {
		*why = "is not a size (expected a number and a unit, e.g. 64M)";
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno) {
		*why = "is too large";
		return -1;
	}
	switch (toupper((unsigned char)*end)) {
	case 'K': mult = 1ull << 10; break;
	case 'M': mult = 1ull << 20; break;
	case 'G': mult = 1ull << 30; break;
	case 'T': mult = 1ull << 40; break;
	case '\0':
		*why = "needs a unit: K, M, G or T (binary), e.g. 64M";
		return -1;
	default:
		*why = "has an unknown unit (use K, M, G or T)";
		return -1;
	}
	end++;
	if (!strcmp(end, "iB") || !strcmp(end, "B"))
		end += strlen(end);
	if (*end) {
		*why = "has trailing characters after the unit";
		return -1;
	}
	if (v > UINT64_MAX / mult) {
		*why = "is too large";
		return -1;
	}
	*out = v * mult;
	return 0;
}

int parse_duration(const char *s, double *out, const char **why)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s)) {
		*why = "is not a duration (expected e.g. 10s, 500ms, 5m)";
		return -1;
	}
	v = strtod(s, &end);
	if (!strcmp(end, "ms"))
		v /= 1000;
	else if (!strcmp(end, "s"))
		;
	else if (!strcmp(end, "m"))
		v *= 60;
	else if (!strcmp(end, "h"))
		v *= 3600;
	else {
		*why = *end ? "has an unknown unit (use ms, s, m or h)"
			    : "needs a unit: ms, s, m or h, e.g. 10s";
		return -1;
	}
	if (v <= 0) {
		*why = "must be above zero";
		return -1;
	}
	*out = v;
	return 0;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return rtrim(s);
}

static int set_value(struct run_spec *r, const struct key_def *k, const char *val,
		     const char **why)
{
	char *field = (char *)r + k->offset;

	switch (k->type) {
	case T_STRING: {
		char **p = (char **)field;

		free(*p);
		*p = val[0] ? xstrdup(val) : NULL;
		return 0;
	}
	case T_KERNEL: {
		char **p = (char **)field;

		if (!kvariant_find(val)) {
			*why = "is not a kernel variant (vanilla, gcma)";
			return -1;
		}
		free(*p);
		*p = xstrdup(val);
		return 0;
	}
	case T_SIZE:
		return parse_size(val, (uint64_t *)field, why);
	case T_DURATION:
		return parse_duration(val, (double *)field, why);
	case T_DURATION0:
		if (!strcmp(val, "0")) {
			*(double *)field = 0;
			return 0;
		}
		return parse_duration(val, (double *)field, why);
	case T_JOB: {
		char **p = (char **)field;

		if (val[0] && strcmp(val, "build")) {
			*why = "is not a job (build)";
			return -1;
		}
		free(*p);
		*p = val[0] ? xstrdup(val) : NULL;
		return 0;
	}
	case T_PIN_MODE: {
		char **p = (char **)field;

		if (strcmp(val, "dio") && strcmp(val, "vmsplice")) {
			*why = "is not a pin mode (dio, vmsplice)";
			return -1;
		}
		free(*p);
		*p = xstrdup(val);
		return 0;
	}
	case T_BACKGROUND:
		return bg_list_parse((struct bg_list *)field, val, why);
	case T_ARCH: {
		const struct cmb_arch *a = arch_find(val);

		if (!a) {
			*why = "is not an architecture (x86_64, arm64)";
			return -1;
		}
		*(const struct cmb_arch **)field = a;
		return 0;
	}
	case T_DISK: {
		char **p = (char **)field;

		if (!disk_find(val)) {
			*why = "is not a storage model (host, emmc, ufs, nvme)";
			return -1;
		}
		free(*p);
		*p = xstrdup(val);
		return 0;
	}
	case T_DISK_SCALE: {
		char *end;
		double v;

		if (!strcmp(val, "cpu")) {
			*(double *)field = 0;
			return 0;
		}
		v = strtod(val, &end);
		if (end == val || *end || !(v >= 1) || v > 1e4) {
			*why = "is not 'cpu' or a number from 1 to 10000";
			return -1;
		}
		*(double *)field = v;
		return 0;
	}
	case T_KEEP:
		if (strcmp(val, "stream") && strcmp(val, "paced")) {
			*why = "is not stream or paced";
			return -1;
		}
		*(bool *)field = !strcmp(val, "paced");
		return 0;
	case T_BOOL:
		if (!strcmp(val, "yes") || !strcmp(val, "1"))
			*(bool *)field = true;
		else if (!strcmp(val, "no") || !strcmp(val, "0"))
			*(bool *)field = false;
		else {
			*why = "is not yes or no";
			return -1;
		}
		return 0;
	case T_LONG: {
		long v;

		if (parse_long(val, &v, why))
			return -1;
		if (v < k->min || v > k->max) {
			*why = "is out of range";
			return -1;
		}
		*(long *)field = v;
		return 0;
	}
	case T_LONG_LIST: {
		char *copy = xstrdup(val), *save = NULL;
		long vals[MAX_ALLOC_SIZES];
		size_t n = 0;

		for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			while (isspace((unsigned char)*tok))
				tok++;
			rtrim(tok);
			if (n == MAX_ALLOC_SIZES) {
				*why = "has too many values (at most 32)";
				free(copy);
				return -1;
			}
			if (parse_long(tok, &vals[n], why)) {
				*why = "has a value that is not a whole number";
				free(copy);
				return -1;
			}
			if (vals[n] < k->min || vals[n] > k->max) {
				*why = "has a value out of range";
				free(copy);
				return -1;
			}
			n++;
		}
		free(copy);
		if (!n) {
			*why = "is empty";
			return -1;
		}
		memcpy(r->alloc_pages, vals, n * sizeof(vals[0]));
		r->nalloc_pages = n;
		return 0;
	}
	case T_SETUP:
		for (size_t i = 0; i < ARRAY_SIZE(setup_names); i++) {
			if (!strcmp(val, setup_names[i])) {
				r->setup = (enum setup)i;
				return 0;
			}
		}
		*why = "is not a set-up (none, carveout, cma, gcma)";
		return -1;
	}
	return -1;
}

static void spec_defaults(struct run_spec *r)
{
	memset(r, 0, sizeof(*r));
	r->kernel = xstrdup("vanilla");
	r->arch = arch_default();
	r->setup = SETUP_CMA;
	r->area = 64ull << 20;
	r->memory = 512ull << 20;
	r->cpus = 1;
	r->timeout = 300;
	r->repeat = 1;
	r->scratch = 1ull << 30;
	r->fio_runtime = 10;
	r->fio_size = 256ull << 20;
	r->alloc_count = 10;
	r->alloc_pages[0] = 1024;
	r->nalloc_pages = 1;
	r->trace = xstrdup("cma");
	r->hog_percent = 50;
	r->pin_buffer = 64ull << 20;
	r->pin_mode = xstrdup("vmsplice");
	r->warmup = 5;
	r->alloc_burst = 1;
	r->seed = 1;
	r->build_files = 1000;
	r->build_jobs = 2;
	r->build_work = 32;
	r->parallel = true;
	r->disk = xstrdup("host");
	r->disk_scale = 1;
	r->fill_timeout = 120;
}

static void spec_copy(struct run_spec *dst, const struct run_spec *src)
{
	*dst = *src;
	dst->section = src->section ? xstrdup(src->section) : NULL;
	dst->description = src->description ? xstrdup(src->description) : NULL;
	dst->kernel = src->kernel ? xstrdup(src->kernel) : NULL;
	dst->fio = src->fio ? xstrdup(src->fio) : NULL;
	dst->append = src->append ? xstrdup(src->append) : NULL;
	dst->trace = src->trace ? xstrdup(src->trace) : NULL;
	dst->script = src->script ? xstrdup(src->script) : NULL;
	bg_list_copy(&dst->bg, &src->bg);
	dst->pin_mode = src->pin_mode ? xstrdup(src->pin_mode) : NULL;
	dst->job = src->job ? xstrdup(src->job) : NULL;
	dst->disk = src->disk ? xstrdup(src->disk) : NULL;
	dst->baseline = src->baseline ? xstrdup(src->baseline) : NULL;
}

static void spec_free(struct run_spec *r)
{
	free(r->section);
	free(r->description);
	free(r->kernel);
	free(r->fio);
	free(r->append);
	free(r->trace);
	free(r->script);
	bg_list_free(&r->bg);
	free(r->pin_mode);
	free(r->job);
	free(r->disk);
	free(r->baseline);
}

void scenario_free(struct scenario *scn)
{
	for (size_t i = 0; i < scn->nruns; i++)
		spec_free(&scn->runs[i]);
	free(scn->runs);
	free(scn->path);
	free(scn->name);
	memset(scn, 0, sizeof(*scn));
}

/* Errors point at the line that set the key, or at the section if defaulted. */
static void verr(struct strbuf *errs, const char *path, const struct run_spec *r,
		 enum scn_key key, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void verr(struct strbuf *errs, const char *path, const struct run_spec *r,
		 enum scn_key key, const char *fmt, ...)
{
	va_list ap;
	char msg[512];
	int line = r->line[key] ? r->line[key] : r->section_line;

	const char *name = "?";

	/* The table is ordered for help output, not by id. */
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (keys[i].id == key)
			name = keys[i].name;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		sb_addf(errs, "%s:%d: %s: %s (in [%s])\n", path, line, name, msg, r->section);
	else
		sb_addf(errs, "%s: %s: %s (in [%s])\n", path, name, msg, r->section);
}

static int validate(const char *path, struct run_spec *r, const struct scn_ctx *ctx,
		    struct strbuf *errs)
{
	size_t before = errs->len;
	const struct kvariant *kv = kvariant_find(r->kernel);
	uint64_t area_pages = r->area / 4096;

	if (r->memory < (128ull << 20))
		verr(errs, path, r, K_MEMORY, "%llu MiB is too small (at least 128M)",
		     (unsigned long long)(r->memory >> 20));
	if (r->setup != SETUP_NONE && r->area == 0)
		verr(errs, path, r, K_AREA, "must be above zero for set-up %s", setup_name(r->setup));
	if (r->setup != SETUP_NONE && r->area + (96ull << 20) > r->memory)
		verr(errs, path, r, K_AREA,
		     "%llu MiB leaves less than 96 MiB of the guest's %llu MiB",
		     (unsigned long long)(r->area >> 20), (unsigned long long)(r->memory >> 20));
	if (kv && r->arch && !kvariant_suits(kv, r->arch->name))
		verr(errs, path, r, K_KERNEL, "%s is for %s only (arch %s)", r->kernel, kv->only_arch,
		     r->arch->name);
	if (r->setup == SETUP_GCMA && kv && !kv->has_gcma)
		verr(errs, path, r, K_SETUP, "gcma needs kernel=gcma (kernel %s has no gcma=)", r->kernel);
	if (setup_area_name(r->setup) && r->alloc_count > 0) {
		for (size_t i = 0; i < r->nalloc_pages; i++)
			if ((uint64_t)r->alloc_pages[i] > area_pages)
				verr(errs, path, r, K_ALLOC_PAGES,
				     "%ld pages exceed the area (%llu pages)",
				     r->alloc_pages[i], (unsigned long long)area_pages);
	}
	if (r->fio) {
		char *job = path_join(ctx->fio_dir, r->fio);

		if (strchr(r->fio, '/'))
			verr(errs, path, r, K_FIO, "'%s' must be a file name in %s", r->fio, ctx->fio_dir);
		else if (!path_exists(job))
			verr(errs, path, r, K_FIO, "no job file %s", job);
		free(job);
	}
	if ((r->fio || bg_list_find(&r->bg, "fio")) &&
	    r->fio_size + (64ull << 20) > r->scratch)
		verr(errs, path, r, K_FIO_SIZE, "does not fit the scratch disk (%llu MiB)",
		     (unsigned long long)(r->scratch >> 20));
	if (r->alloc_jitter > r->alloc_interval)
		verr(errs, path, r, K_ALLOC_JITTER, "exceeds alloc-interval (%gs)", r->alloc_interval);
	if (setup_area_name(r->setup) && r->alloc_count > 0) {
		for (size_t i = 0; i < r->nalloc_pages; i++)
			if ((uint64_t)r->alloc_pages[i] * r->alloc_burst > area_pages && r->alloc_burst > 1)
				verr(errs, path, r, K_ALLOC_BURST,
				     "%ld bursts of %ld pages exceed the area (%llu pages)",
				     r->alloc_burst, r->alloc_pages[i], (unsigned long long)area_pages);
	}
	for (size_t i = 0; i < r->bg.n; i++) {
		const struct bg_item *b = &r->bg.v[i];

		if (b->w->file_dir) {
			char *file = path_join(ctx->fio_dir, b->arg);

			if (!path_exists(file))
				verr(errs, path, r, K_BACKGROUND, "no job file %s", file);
			free(file);
		}
		if (b->w->needs_area && !setup_area_name(r->setup))
			verr(errs, path, r, K_BACKGROUND, "%s needs an area (setup cma or gcma)",
			     b->w->name);
		if (b->w->needs_job && !r->job)
			verr(errs, path, r, K_BACKGROUND,
			     "%s in the background needs a foreground job to run beside", b->w->name);
	}
	if (r->script) {
		char *p = ctx->script_dir ? path_join(ctx->script_dir, r->script) : NULL;

		if (strchr(r->script, '/'))
			verr(errs, path, r, K_SCRIPT, "'%s' must be a file name in workloads/guest/scripts",
			     r->script);
		else if (!p || !path_exists(p))
			verr(errs, path, r, K_SCRIPT, "no guest script %s", p ? p : r->script);
		free(p);
	}
	if (r->fill > 0 && (setup_area_name(r->setup) || r->area > 0)) {
		/* the fill (its load, without an area) streams a file of 1.5 x
		 * memory beside the fio files */
		uint64_t need = (r->memory >> 20) * 3 / 2 + 64 +
				(r->fio || bg_list_find(&r->bg, "fio") ? r->fio_size >> 20 : 0);

		if (need > (r->scratch >> 20))
			verr(errs, path, r, K_FILL, "needs a scratch disk of %llu MiB (a fill file of "
			     "1.5 x memory, the fio files, 64 MiB spare), not %llu MiB",
			     (unsigned long long)need, (unsigned long long)(r->scratch >> 20));
	}
	if (r->timeout < 10)
		verr(errs, path, r, K_TIMEOUT, "below 10s cannot even boot a guest");
	return errs->len != before;
}

/* A baseline names a section of the scenario. */
static int check_baseline(const char *path, const struct scenario *scn, struct strbuf *errs)
{
	int nerr = 0;

	for (size_t i = 0; i < scn->nruns; i++) {
		const struct run_spec *r = &scn->runs[i];
		bool found = !r->baseline;

		for (size_t k = 0; k < scn->nruns && !found; k++)
			found = !strcmp(scn->runs[k].section, r->baseline);
		if (!found) {
			verr(errs, path, r, K_BASELINE, "'%s' is not a section of this scenario",
			     r->baseline);
			nerr++;
		}
	}
	return nerr;
}

int scenario_load(const char *path, const struct scn_ctx *ctx,
		  struct scenario *scn, struct strbuf *errs)
{
	FILE *f = fopen(path, "r");
	struct run_spec global, *cur = NULL;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, nerr = 0;
	const char *base;

	memset(scn, 0, sizeof(*scn));
	if (!errs->buf)
		sb_init(errs);
	if (!f) {
		sb_addf(errs, "%s: cannot open: %s\n", path, strerror(errno));
		return 1;
	}
	scn->path = xstrdup(path);
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	scn->name = xstrdup(base);
	if (strlen(scn->name) > 4 && !strcmp(scn->name + strlen(scn->name) - 4, ".scn"))
		scn->name[strlen(scn->name) - 4] = '\0';
	spec_defaults(&global);
	global.section = xstrdup("global");

	while (getline(&line, &cap, f) >= 0) {
		char *s = trim(line), *eq, *k, *v;
		const struct key_def *kd;
		const char *why = NULL;

		lineno++;
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (!end || end[1]) {
				sb_addf(errs, "%s:%d: section header must be [name]\n", path, lineno);
				nerr++;
				continue;
			}
			*end = '\0';
			s = trim(s + 1);
			if (!*s || strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != strlen(s)) {
				sb_addf(errs, "%s:%d: section name '%s' must use a-z, 0-9, '-', '_', '.'\n",
					path, lineno, s);
				nerr++;
				continue;
			}
			if (!strcmp(s, "global")) {
				cur = &global;
				continue;
			}
			for (size_t i = 0; i < scn->nruns; i++) {
				if (!strcmp(scn->runs[i].section, s)) {
					sb_addf(errs, "%s:%d: section [%s] appears twice (first at line %d)\n",
						path, lineno, s, scn->runs[i].section_line);
					nerr++;
				}
			}
			scn->runs = xrealloc(scn->runs, (scn->nruns + 1) * sizeof(*scn->runs));
			cur = &scn->runs[scn->nruns++];
			spec_copy(cur, &global);
			free(cur->section);
			cur->section = xstrdup(s);
			cur->section_line = lineno;
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			sb_addf(errs, "%s:%d: expected key=value, got '%s'\n", path, lineno, s);
			nerr++;
			continue;
		}
		*eq = '\0';
		k = trim(s);
		v = trim(eq + 1);
		if (!cur) {
			sb_addf(errs, "%s:%d: %s: key outside any section (start with [global])\n",
				path, lineno, k);
			nerr++;
			continue;
		}
		kd = key_find(k);
		if (!kd) {
			sb_addf(errs, "%s:%d: %s: unknown key (see 'cmabench help scenario')\n",
				path, lineno, k);
			nerr++;
			continue;
		}
		if (set_value(cur, kd, v, &why)) {
			sb_addf(errs, "%s:%d: %s: '%s' %s\n", path, lineno, k, v, why);
			nerr++;
			continue;
		}
		cur->line[kd->id] = lineno;
	}
	free(line);
	fclose(f);
	spec_free(&global);

	if (!nerr && scn->nruns == 0) {
		sb_addf(errs, "%s: no runs: add a [section] after [global]\n", path);
		nerr++;
	}
	if (!nerr)
		for (size_t i = 0; i < scn->nruns; i++)
			nerr += validate(path, &scn->runs[i], ctx, errs);
	if (!nerr)
		nerr += check_baseline(path, scn, errs);
	return nerr;
}

int scenario_override(struct scenario *scn, const char *assignment,
		      const struct scn_ctx *ctx, struct strbuf *errs)
{
	char *copy = xstrdup(assignment), *eq = strchr(copy, '=');
	const struct key_def *kd;
	int nerr = 0;

	if (!errs->buf)
		sb_init(errs);
	if (!eq) {
		sb_addf(errs, "--set %s: expected key=value\n", assignment);
		free(copy);
		return 1;
	}
	*eq = '\0';
	kd = key_find(trim(copy));
	if (!kd) {
		sb_addf(errs, "--set %s: unknown key '%s'\n", assignment, trim(copy));
		free(copy);
		return 1;
	}
	for (size_t i = 0; i < scn->nruns; i++) {
		const char *why = NULL;

		if (set_value(&scn->runs[i], kd, trim(eq + 1), &why)) {
			sb_addf(errs, "--set %s: '%s' %s\n", kd->name, trim(eq + 1), why);
			free(copy);
			return 1;
		}
		scn->runs[i].line[kd->id] = -1;
	}
	free(copy);
	for (size_t i = 0; i < scn->nruns; i++)
		nerr += validate(scn->path, &scn->runs[i], ctx, errs);
	return nerr + (nerr ? 0 : check_baseline(scn->path, scn, errs));
}
