/*
 * A results directory as a tidy data set: one row per allocation, burst,
 * fio job, counter, sample and timed job, each carrying its run, section
 * and repetition. This layer (dataset.c and one ds-<file>.c reader per raw
 * file) is the only code that reads a results directory; report, compare
 * and reproduce consume struct dataset. Every fault met on the way (a
 * missing counter file, a failed run) is kept as a problem naming the
 * file, and marks the rows it touches in their flags; the rest is still
 * read.
 */
#ifndef CMB_DATASET_H
#define CMB_DATASET_H

#include "dataset/ds-attr.h"
#include "lib/calib.h"
#include "lib/util.h"

#include <stdbool.h>
#include <stdio.h>

struct ds_run {
	char *name;                 /* directory under runs/: "<section>-r<N>" */
	char *section, *setup, *kernel, *status;
	int rep;
	bool in_metadata;           /* listed in the top-level metadata.json */
	bool has_trace;             /* trace-cma.csv was read */
	bool has_attr;              /* trace-attr.csv was read (trace=attribution) */
	/* What metadata.json says of the run ("?" / -1 where it does not). */
	char *scenario, *kernel_version, *accel;
	char *clock;                /* metadata's clock: "instructions" under -icount; NULL: host */
	char *area;                 /* CMA area allocated from, NULL if none */
	char *allocations;          /* "traced", "untraced" (beside a job) or "none" */
	char *trace_problem;        /* what run found wrong with trace.dat, or NULL */
	long long trace_lost;       /* events the main trace buffer lost (trace-loss.csv) */
	long long detail_lost;      /* events the detail buffer lost (busy retries, attribution) */
	long long area_bytes, memory_mib, cpus;
	long long swap_mib;         /* swap the guest had (metadata), -1 unknown */
	char *swap_device;          /* "disk" or "zram" with swap, else NULL */
	long long vms_beside;       /* most VMs that ran beside it (run --jobs), -1 unknown */
	/* fill.csv: the area brought to a target occupancy before the allocations */
	double fill_target, fill_reached, fill_seconds;  /* NAN without a fill */
	double fill_anon_mb;       /* anonymous memory the filler held when done; NAN: unknown */
	/* after the fill: how long it was kept, MiB read to keep it, seconds reading; NAN: unknown */
	double keep_seconds, keep_read_mb, keep_reading_seconds;
	char *fill_status;          /* "filled", "not-filled", or NULL without a fill */
	long long pinned_pages;     /* pages pin-io held in the area (bg-pin-io.log); -1 none */
	/* Our readers against the timed requests, from their own records
	 * (ds-readers.c); -1 where the run has no such records. */
	long long sampler_overlaps;  /* requests a sample overlapped */
	long long keeper_overlaps;   /* requests the fill's keeper read during (not stopped) */
	long long reader_overlaps;   /* requests either overlapped */
	long long requests_timed;    /* the plan's requests these counts are over */
	long long keeper_stopped_ns; /* time cma-alloc kept the keeper stopped */
	long long keeper_read_ns;    /* time the keeper read while keeping (its last
				      * keep_seconds), its stopped time taken out */
	long long quiet_windows;     /* quiet.csv's windows (bursts, refill retries) */
	bool fill_planned;          /* metadata: fill_target_pct > 0 */
	char *disk;                 /* storage model of the scratch disk, "?" unknown */
	double disk_scale;          /* its speed was divided by this (disk-scale); 1: not */
	struct calib disk_calib;    /* where disk_scale came from; CALIB_NONE: not recorded */
	char *arch;                 /* guest architecture; x86_64 for runs that predate the key */
	char *baseline;             /* metadata: the scenario's baseline section, or NULL */
	bool partial;               /* ended early (VM timeout, panic, Ctrl-C): its rows are
				     * whole but the plan was not done; they count, named */
	char *primary;              /* metadata: the scenario's primary comparisons, or NULL */
	long long start_unix;       /* metadata: when the run started, -1 unknown */
	long long order_seed;       /* metadata: seed of the set-up order (plan.c), -1 none */
	/*
	 * metadata "results_schema": what the run's files hold. 1 (runs
	 * without the field): cleancache's debugfs counters; 2: also the
	 * upstream names of /sys/kernel/mm/cleancache (snapshots'
	 * sys-cleancache/) and debugfs's stale_slots and max_hold_entries.
	 * The counters read are debugfs's in both, under the same names.
	 * cmabench run writes RUN_RESULTS_SCHEMA (run/runner.h).
	 */
	long long results_schema;
	struct strlist problems;    /* "runs/<name>/<file>: what is wrong" */
};

/*
 * The share of its kept time the fill's keeper read, %: from its own
 * windows without the time it was stopped where it recorded them, else
 * fill-keeper.csv's reading_seconds over keep_seconds; NAN without a keeper.
 */
double ds_keeper_reading_pct(const struct ds_run *r);

/* Column value not known (no trace, no pair, missing file). */
#define DS_NONE (-1LL)

struct ds_alloc {
	size_t run;                 /* index into dataset.runs */
	long long seq, pages;
	long long burst, start_ns;  /* alloc.csv; DS_NONE in files without them */
	long long user_ns;          /* alloc.csv latency_ns */
	long long kernel_ns;        /* cma_alloc_finish - cma_alloc_start */
	long long retries;          /* cma_alloc_busy_retry events in between */
	long long kerrno;           /* cma_alloc_finish errorno */
	long long kalign;           /* cma_alloc_start's align; DS_NONE: untraced or an older trace */
	unsigned long long kts;     /* its cma_alloc_start's time, 0 if untraced */
	int kpid;                   /* the task that made it */
	long long free_ns;
	int success, err;
	int timed_out;              /* aborted at its deadline: user_ns is censored there */
	long long refill_wait_ns;   /* its burst's wait for the area to refill; DS_NONE: none */
	char flags[64];             /* ';'-separated: unpaired, no-trace, unmatched */
	char tag[32];               /* "" for alloc.csv; TAG for a script's alloc-TAG.csv */
	double occupancy;           /* % of the area its tenants held at the burst's start; NAN unknown */
	char path[8];               /* heap, dma or debugfs (alloc-path); debugfs in older files */
	int align;                  /* the order the path asked for; -1 unknown */
	int from_area;              /* 1 the area's pages, 0 a buddy fallback (dma), -1 unknown */
	int zeroed;                 /* 1 read zero, 0 did not, -1 not checked */
};

/*
 * How requests asked for their buffers (alloc-path), summed over the
 * requests added: the paths in the order met, the alignment orders
 * (cma_alloc_start's where traced, else the path's own) and the dma
 * buffers the buddy allocator served.
 */
struct dataset;

struct ds_path {
	const char *paths[4];       /* the distinct paths met (three exist) */
	size_t npaths;
	int lo, hi, klo, khi;       /* hi, khi < 0: unknown */
	size_t n, fallbacks;
};

void ds_path_init(struct ds_path *p);
void ds_path_add(struct ds_path *p, const struct ds_alloc *a);
/* The requests of a run (its plan's, not a script's tagged files). */
void ds_path_add_run(struct ds_path *p, const struct dataset *ds, size_t run);
/* "heap, align 8", "heap and debugfs, align 0-8, 2 from the buddy allocator", "-" for none. */
char *ds_path_text(const struct ds_path *p);

struct ds_fio {
	size_t run;
	char *file, *job;
	double read_iops, read_bw, write_iops, write_bw; /* bw in bytes/s */
	long long read_p50, read_p99, write_p50, write_p99; /* clat ns, DS_NONE if absent */
	long long runtime_ms;
	char flags[64];
};

struct ds_counter {
	size_t run;
	char *source, *name;
	long long before, after;    /* DS_NONE when that side is missing */
	char flags[64];             /* missing-before, missing-after */
};

/*
 * A burst: the two or more requests of one run sharing a burst number.
 * Its latency is the first request's start to the last request's end; it
 * succeeded if every request did.
 */
struct ds_burst {
	size_t run;
	long long burst, pages;     /* pages of its first request */
	size_t n, failed;           /* requests, failed requests */
	size_t timed_out;           /* requests aborted at their deadline: latency a lower bound */
	long long start_ns, latency_ns;
	double occupancy;           /* its first request's; NAN unknown */
};

/* One sample of the guest's 1 s sampler: time from the run's first sample. */
struct ds_sample {
	size_t run;
	double t;
	char *name;                 /* "source.name"; derived: cleancache.hit_rate_pct */
	double value;
	bool derived;               /* computed here, not read */
};

/* A request's attribution (trace-attr.csv, ds-attr.h): one per traced request. */
struct ds_attr_row {
	size_t alloc;               /* index into dataset.allocs */
	struct ds_attr at;
};

/* One app launch of app-switch (launches.csv): cold (started) or warm (switched to). */
struct ds_launch {
	size_t run;
	long long seq, app;
	bool cold;
	long long launch_ns;        /* to the app saying it is ready */
	long long majflt;           /* the app's major faults during it; -1 unknown */
};

/* One timed foreground job (jobtime.csv). */
struct ds_job {
	size_t run;
	char *name;
	double elapsed_s, user_s, sys_s;
	double start_s;             /* uptime it started beside a plan (steps.csv job-start-NAME); NAN: alone */
};

struct dataset {
	char *dir;
	char *runs_dir;            /* dir/runs, or where dir/runs.tar.xz was unpacked */
	char *run_id;
	struct ds_run *runs;
	size_t nruns;
	struct ds_alloc *allocs;
	size_t nallocs, cap_allocs;
	struct ds_fio *fios;
	size_t nfios, cap_fios;
	struct ds_counter *counters;
	size_t ncounters, cap_counters;
	struct ds_burst *bursts;
	size_t nbursts, cap_bursts;
	struct ds_sample *samples;
	size_t nsamples, cap_samples;
	struct ds_job *jobs;
	size_t njobs, cap_jobs;
	struct ds_launch *launches;
	size_t nlaunches, cap_launches;
	struct ds_attr_row *attrs;
	size_t nattrs, cap_attrs;
	struct strlist sections;    /* in the order of the top-level metadata */
	char *baseline;             /* the scenario's baseline section, NULL if it names none */
	char *primary;              /* the scenario's primary comparisons, NULL if none declared */
	char *primary_from;         /* where they came from: "metadata.json" or a scenario file */
};

/*
 * Kernel-side allocations from trace events, in the order read: a
 * cma_alloc_start opens an allocation for its (pid, area name); busy
 * retries count against the open one; cma_alloc_finish closes it. A start
 * that meets another start, or the end of the trace, stays "unpaired".
 */
/* ALIGN: the alignment order of the start just before it (same pid and area) */
enum ds_kev { DS_KEV_START, DS_KEV_RETRY, DS_KEV_FINISH, DS_KEV_ALIGN };

struct ds_kalloc {
	int pid;
	char name[64];
	unsigned long long ts_start, ts_end;
	long long count, retries, errorno, align;
	bool finished, unpaired;
};

struct ds_kpairs {
	struct ds_kalloc *k;
	size_t nk, capk;
	size_t *open;               /* indices into k of starts without a finish yet */
	size_t nopen;
	size_t orphan_finish, orphan_retry, unpaired;
};

/* value: the request's count for a start, errorno for a finish, the number
 * of retry events for a retry (1 from trace.dat; a trace-cma.csv row may
 * stand for several). */
void ds_kpairs_event(struct ds_kpairs *p, enum ds_kev type, int pid, const char *name,
		     unsigned long long ts, long long value);
/* End of the trace: starts still open become unpaired; counts them. */
void ds_kpairs_end(struct ds_kpairs *p);
void ds_kpairs_free(struct ds_kpairs *p);

/*
 * Reads dir (a results/<run-id>/ directory). Returns -1 only when dir
 * holds no run at all (message in errs); faults of single runs are kept in
 * their problems and the return is 0.
 */
int dataset_load(struct dataset *ds, const char *dir, struct strbuf *errs);
/*
 * Where a set's packed runs (dir/runs.tar.xz, no dir/runs) are unpacked,
 * once per archive: <dir>/<hash of the archive>/runs. NULL: packed sets
 * cannot be read.
 */
void dataset_set_unpack_dir(const char *dir);
void dataset_free(struct dataset *ds);

/*
 * Writes run_dir/trace-cma.csv (ts_ns,pid,event,name,value: the
 * cma_alloc_start/retry/finish events of run_dir/trace.dat, a run of
 * retries as one row counting them), the text form the data set reads, so
 * that results kept without the binary trace give the same data set.
 * Called by run only. No trace.dat: 0, nothing written; an unreadable or
 * truncated one: -1, what is wrong in errs, and the events read before
 * the fault are written.
 */
int dataset_export_trace(const char *run_dir, struct strbuf *errs);
/* Writes run_dir/trace-attr.csv (ts_ns,pid,event,a,b: the attribution's
 * events of each task inside its requests) when trace.dat has events
 * beyond cma's; called by dataset_export_trace. */
int dataset_export_attr(const char *run_dir, struct strbuf *errs);
/* A run directory's alloc.csv: rows, failed ones (timed out included) and
 * timed-out ones; false without the file. Called by run (its summary). */
bool dataset_alloc_counts(const char *run_dir, long long *rows, long long *failed,
			  long long *timed_out);
/* Whether a run directory's backgrounds.csv names a workload that died. */
bool dataset_background_died(const char *run_dir);

/* Writes the tidy CSVs (alloc, bursts, fio, counters, samples, jobs) and
 * problems.txt into outdir. */
int dataset_write_csv(const struct dataset *ds, const char *outdir);
/* The CSVs as text (for tests and for dataset_write_csv); samples and jobs
 * NULL when no run has any. */
char *dataset_alloc_csv(const struct dataset *ds);
char *dataset_runs_csv(const struct dataset *ds);
char *dataset_burst_csv(const struct dataset *ds);
char *dataset_fio_csv(const struct dataset *ds);
char *dataset_counters_csv(const struct dataset *ds);
char *dataset_samples_csv(const struct dataset *ds);
/* data/launches.csv: app-switch's launches, NULL when there are none */
char *dataset_launches_csv(const struct dataset *ds);
char *dataset_jobs_csv(const struct dataset *ds);
/* attribution.csv: one row per attributed request; NULL when none is. */
char *dataset_attr_csv(const struct dataset *ds);

/* Derives the bursts again from the allocations (for data sets built by hand). */
void dataset_derive_bursts(struct dataset *ds);

/* A run's rows count in statistics only if the run ended "ok"... */
bool ds_run_ok(const struct ds_run *r);
/* ...or ended early with the rows it completed (partial). */
bool ds_run_counts(const struct ds_run *r);
/* Statuses of a run that ended before its plan did: timeout, panic, crashed,
 * interrupted (results made before run wrote "partial" in metadata.json). */
bool ds_status_partial(const char *status);
/* A run that planned a fill and did not reach it: left out of comparisons. */
bool ds_run_not_filled(const struct ds_run *r);
/* A request (a burst: its first request) met the condition its run is
 * about: the area at the run's fill, and with a plan beside a job, the job
 * still running; false only where that is known not to be so (ds-util.c). */
bool ds_alloc_met(const struct dataset *ds, const struct ds_alloc *a);
bool ds_burst_met(const struct dataset *ds, const struct ds_burst *b);
/* Of those that did not: began after the job it was to overlap had ended
 * (the others began below the fill). */
bool ds_alloc_after_job(const struct dataset *ds, const struct ds_alloc *a);
bool ds_burst_after_job(const struct dataset *ds, const struct ds_burst *b);
/* The job's end minus the plan's last request's end (s), NAN if either is unknown. */
double ds_plan_margin_s(const struct dataset *ds, size_t run);
/* Number of runs with a bad status or any problem. */
size_t dataset_degraded(const struct dataset *ds);
/* Counter lookup: delta of source/name in run, false if either side is missing. */
bool ds_counter_delta(const struct dataset *ds, size_t run, const char *source,
		      const char *name, long long *delta, long long *after);

#endif
