/*
 * Scenario files: ini style like fio job files. [global] sets defaults for
 * the sections after it; every other section is one run (times `repeat`).
 * Every key is one row of one table (scenario-keys.c), shared with --set on the
 * command line.
 */
#ifndef CMB_SCENARIO_H
#define CMB_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"
#include "scenario/arch.h"
#include "scenario/workload.h"

enum setup { SETUP_NONE, SETUP_CARVEOUT, SETUP_CMA, SETUP_GCMA };
/* stream: its readers read on; paced: only while the area is short */
enum fill_keep { FILL_STREAM, FILL_PACED };
/* host: guest time follows the host's clock; instructions: QEMU's -icount */
enum guest_clock { CLOCK_HOST, CLOCK_INSTRUCTIONS };

#define MAX_ALLOC_SIZES 32

enum scn_key {
	K_DESCRIPTION, K_KERNEL, K_SETUP, K_AREA, K_MEMORY, K_CPUS, K_TIMEOUT,
	K_REPEAT, K_SCRATCH, K_FIO, K_FIO_RUNTIME, K_FIO_SIZE, K_ALLOC_COUNT,
	K_ALLOC_PAGES, K_APPEND, K_TRACE, K_SCRIPT, K_BACKGROUND, K_HOG_PERCENT,
	K_PIN_BUFFER, K_WARMUP, K_ALLOC_BURST, K_ALLOC_HOLD, K_ALLOC_INTERVAL, K_ALLOC_JITTER,
	K_SEED, K_PIN_MODE, K_JOB, K_BUILD_FILES, K_BUILD_JOBS, K_BUILD_WORK, K_PARALLEL,
	K_DISK, K_DISK_SCALE, K_FILL, K_FILL_TIMEOUT, K_FILL_KEEP, K_BASELINE, K_ARCH,
	K_ALLOC_TIMEOUT, K_PRIMARY, K_ORDER_SEED, K_ALLOC_REFILL, K_SWAP, K_SWAP_DEVICE,
	K_BUILD_HEADERS, K_BUILD_INCLUDES, K_ALLOC_PASSES, K_ALLOC_START,
	K_APP_COUNT, K_APP_CODE, K_APP_ASSETS, K_APP_HEAP, K_APP_LAUNCHES, K_APP_KEEP, K_APP_DWELL,
	K_HANG_SILENCE, K_SCRATCH_STALL, K_ALLOC_PATH, K_ALLOC_ALIGN, K_CLOCK,
	K__COUNT
};

struct run_spec {
	char *section;
	char *description;
	char *kernel;
	const struct cmb_arch *arch;   /* guest architecture (arch.h) */
	enum setup setup;
	uint64_t area;          /* bytes */
	uint64_t memory;        /* bytes */
	long cpus;
	double timeout;         /* seconds: the key's value, else derived from the plan */
	double timeout_key;     /* the key's value; 0: derive it (scenario_derived_timeout) */
	double hang_silence;    /* seconds without progress that make a hang; 0: no watchdog */
	char *scratch_stall;    /* console text on which the scratch disk stalls (a fault), or NULL */
	long repeat;
	uint64_t scratch;       /* bytes */
	char *fio;              /* job file under workloads/fio, or NULL */
	double fio_runtime;     /* seconds */
	uint64_t fio_size;      /* bytes */
	long alloc_count;
	long alloc_pages[MAX_ALLOC_SIZES];
	size_t nalloc_pages;
	char *append;           /* extra kernel command line */
	char *trace;            /* trace-cmd event systems/events around the allocations */
	char *script;           /* guest script in workloads/guest/scripts, run last */
	struct bg_list bg;      /* background workloads, parsed once here */
	long hog_percent;       /* share of MemAvailable the hog keeps */
	uint64_t pin_buffer;    /* bytes pin-io faults in to find pages in the area */
	char *pin_mode;         /* dio or vmsplice */
	double warmup;          /* seconds backgrounds run before the foreground */
	long alloc_burst;       /* allocations back to back, held and freed together */
	double alloc_hold;      /* seconds a burst is held */
	double alloc_interval;  /* seconds between bursts */
	double alloc_jitter;    /* +- seconds of uniform jitter on the interval */
	double alloc_timeout;   /* a request's deadline in seconds; 0: none */
	double alloc_refill;    /* seconds a burst may wait for the area back at fill; 0: none */
	char *alloc_path;       /* heap, dma or debugfs: how a request asks (alloc-path.h) */
	char *alloc_align;      /* debugfs's alignment order, or "dma"; "0" by default */
	long seed;
	char *job;              /* foreground timed job: "build" or NULL */
	long build_files, build_jobs, build_work;
	uint64_t build_headers;   /* bytes of shared headers build-sim lays out; 0: none */
	long build_includes;      /* headers each compilation reads */
	/* job=apps: app-switch's apps, their files and heaps, launches, apps kept alive */
	long app_count, app_launches, app_keep;
	uint64_t app_code, app_assets, app_heap;
	double app_dwell;         /* seconds in an app before the next switch */
	long alloc_passes;        /* times the plan's sweep is made */
	double alloc_start;       /* seconds after the job starts that the plan begins */
	bool parallel;          /* may run beside other VMs (run --jobs) */
	char *disk;             /* storage model of the scratch disk (disk.h) */
	double disk_scale;      /* its speed divided by this; 0: by the emulation's slow-down */
	long fill;              /* % of the area its tenants fill before allocations; 0: idle */
	double fill_timeout;    /* seconds the fill may take */
	enum fill_keep fill_keep; /* how the keeper keeps the area full */
	enum guest_clock clock; /* what the guest's time counts (TCG only for instructions) */
	uint64_t swap;          /* bytes of swap the guest turns on; 0: none */
	char *swap_device;      /* "disk" (a file on the scratch disk) or "zram" */
	char *baseline;         /* the section the report compares the others with */
	char *primary;          /* the declared primary comparisons (struct primaries) */
	long order_seed;        /* shuffles the sections within each repetition; 0: file order */
	int line[K__COUNT];     /* where each key was set; 0: default */
	int section_line;
};

struct scenario {
	char *path;
	char *name;             /* file name without .scn */
	struct run_spec *runs;
	size_t nruns;
};

/* Where scenario-relative names (fio job files) are looked up. */
struct scn_ctx {
	const char *fio_dir;
	const char *script_dir;
};

/*
 * Parses and validates; on errors appends "file:line: key: message" lines
 * to errs and returns their number (0 on success).
 */
int scenario_load(const char *path, const struct scn_ctx *ctx,
		  struct scenario *scn, struct strbuf *errs);
/* Applies key=value to every run (command line --set), then revalidates. */
int scenario_override(struct scenario *scn, const char *assignment,
		      const struct scn_ctx *ctx, struct strbuf *errs);
/*
 * Every section (of only, when it names any) once per kernel of kernels
 * (run --kernels), named SECTION.KERNEL; the first kernel's first section
 * the baseline, the primaries between kernels (scenario-kernels.c).
 * Revalidates.
 */
int scenario_kernels(struct scenario *scn, const struct strlist *kernels,
		     const struct strlist *only, const struct scn_ctx *ctx, struct strbuf *errs);
void scenario_free(struct scenario *scn);
/* A scenario runs beside other VMs (run --jobs) only if every section allows it. */
bool scenario_parallel(const struct scenario *scn);

const char *setup_name(enum setup s);
/* The CMA area a set-up allocates from, or NULL. */
const char *setup_area_name(enum setup s);

/* Unit parsers, exported for tests and the command line. */
int parse_size(const char *s, uint64_t *out, const char **why);
int parse_duration(const char *s, double *out, const char **why);
int parse_long(const char *s, long *out, const char **why);

/*
 * A VM timeout that a healthy run never meets: every phase of the plan at
 * its bound (boot, fill-timeout, warm-up, fio's layout and runtime, each
 * allocation request at its deadline with its interval and hold, a job or
 * script at an allowance of 10 min), plus a quarter and a minute of margin.
 */
double scenario_derived_timeout(const struct run_spec *r);

/*
 * The primary comparisons a scenario declares (key "primary"): a list of
 * METRIC[@PAGES]:A/B, each a metric of the report (at a request size, for
 * the allocation metrics; @all: every size of alloc-pages) compared
 * between sections A and B as B against A. Their p-values are adjusted
 * together, apart from every other test of the report (report.c).
 */
struct primary {
	const char *metric;     /* "kernel-mean", "burst-p50", ... (scenario-primary.c) */
	long pages;             /* the request size; 0 for the metrics without one */
	char *a, *b;            /* the sections: B against A */
	bool ratio;             /* compared as the ratio B / A, else as B - A */
};

struct primaries {
	struct primary *v;
	size_t n;
};

/*
 * Parses text (the key's value) into out; sizes (of alloc-pages) stand for
 * @all. -1 with *why set on an error.
 */
int primaries_parse(const char *text, const long *sizes, size_t nsizes, struct primaries *out,
		    const char **why);
/* "kernel-mean@1024" or "burst-p50" (caller frees). */
char *primary_key(const struct primary *p);
void primaries_free(struct primaries *p);

/* Help text listing every key. */
void scenario_print_keys(FILE *f);
/* The key table of docs/scenarios.md. */
void scenario_print_keys_md(FILE *f);
/* The guest's "env CMB_<KEY> value" plan lines of the keys it reads. */
void scenario_guest_env(const struct run_spec *r, struct strbuf *steps);

#endif
