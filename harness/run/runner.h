/*
 * One planned run in one VM and the results directory it goes into: what a
 * local run and a Slurm task share (runner.c).
 */
#ifndef CMB_RUNNER_H
#define CMB_RUNNER_H

#include "kbuild/kbuild.h"
#include "lib/calib.h"
#include "lib/env.h"
#include "lib/util.h"
#include "scenario/plan.h"

#include <json-c/json.h>
#include <stdbool.h>

/* Kernels are indexed by arch and variant: RUNNER_KIDX(arch index, variant index). */
/*
 * metadata.json's "results_schema": what a run's files hold (the data
 * set's struct ds_run says what each number means; runs without the field
 * are 1).
 */
#define RUN_RESULTS_SCHEMA 2
#define RUNNER_MAX_ARCHES 4
#define RUNNER_MAX_KERNELS (RUNNER_MAX_ARCHES * KVARIANTS_MAX)
#define RUNNER_KIDX(a, v) ((a) * KVARIANTS_MAX + (v))

/*
 * What the runs of a command came to. A run is complete when it ended ok or
 * degraded (a background died: named, but the run did all it planned);
 * anything else is a failed run, a fault of the harness or the guest, never
 * of an allocator: allocations that failed or timed out are data.
 */
struct run_tally {
	size_t runs, ok, degraded, failed, partial;
	long long requests, requests_failed, requests_timed_out;
};

struct overall;
struct board;

struct run_ctx {
	const struct cmb_env *env;
	struct kernel kernels[RUNNER_MAX_KERNELS];
	int kernel_ok[RUNNER_MAX_KERNELS];
	/* runner_find_kernels: looked up; not at hand, runner_kernels builds it */
	bool kernel_looked[RUNNER_MAX_KERNELS], kernel_todo[RUNNER_MAX_KERNELS];
	struct overall *overall;    /* the whole command's progress (run/overall.h), or NULL */
	char *images[RUNNER_MAX_ARCHES];  /* root image of each arch the plan uses */
	const char *accel;          /* for guests of the host's arch; others run under TCG */
	char *accel_reason;
	char *qemu_version;         /* of the first arch the plan uses (top-level metadata) */
	char *qemu_versions[RUNNER_MAX_ARCHES]; /* by arch */
	char *source_version;       /* git describe of the source the binary was built from */
	char *tree_version;         /* the source tree's now, when it differs; else NULL */
	char *results_root;
	char *run_id;
	char *tmpdir;
	char *finaldir;
	double kvm_probe_s;
	long jobs;                  /* VMs at once (--jobs) */
	/* host/guest page-copy rate (disk-scale=cpu) by arch index; 0: unknown */
	double copy_slowdown[RUNNER_MAX_ARCHES];
	struct calib copy_calib[RUNNER_MAX_ARCHES];  /* its rounds, spread and source */
	int calib_rounds;           /* rounds of a new measurement (--calibrate-rounds), 0: default */
	bool recalibrate;           /* --recalibrate: measure again, whatever history kept */
	unsigned host_cores;
	struct board *board;        /* --target ssh://...: runs on a board (board.h), else NULL */
};


/* Every arch of the plan has its tools (else says what to install): 0, or -1. */
struct hash;
/* Adds to h what run r boots: its kernel's build key and the root image. */
void runner_hash_boot(struct run_ctx *ctx, const struct run *r, struct hash *h);
int runner_check_arches(const struct run_ctx *ctx, const struct plan *plan);
/* Looks up the kernels the plan needs, for each arch it uses, building
 * none and printing nothing (kernel_ok, kernel_todo). */
void runner_find_kernels(struct run_ctx *ctx, const struct plan *plan);
/* Builds (or finds) the kernels the plan needs, for each arch it uses; -1 if
 * none could be had. */
int runner_kernels(struct run_ctx *ctx, const struct plan *plan);
/* The root image of every arch the plan uses, and that arch's QEMU version. */
int runner_images(struct run_ctx *ctx, const struct plan *plan);
/* KVM or TCG (env->accel, else a probe), and QEMU's version. */
#define RUNNER_KVM_PROBE_KEY "accel.kvm-probe"  /* history: the last probe's 1 booted, -1 not */
void runner_accel(struct run_ctx *ctx);
/* The host's name, kernel, machine, CPUs and model. */
json_object *host_info(void);
/* The seconds run r should take: its section's last run (the history), else
 * a guess from its fio job. */
double runner_estimate(const struct cmb_env *env, const struct run *r);
/* A run's vCPUs, each on a host core of its own (at most all of them). */
unsigned runner_cores(const struct run_ctx *ctx, const struct run *r);
/* Runs r in a VM into ctx->tmpdir/runs/<name>/ (metadata.json, status);
 * cores: the host cores it is pinned to, NULL when not pinned. */
json_object *runner_run_one(struct run_ctx *ctx, const struct run *r, size_t idx, size_t total,
			    const char *cores);
void runner_write_meta(const char *dir, json_object *m);
void runner_write_status(const char *dir, const char *status);
/* ctx->run_id and a new ctx->tmpdir for scenario scn, with a copy of its file. */
int runner_stage(struct run_ctx *ctx, const struct scenario *scn, const char *stamp);
/* The scenario's top-level metadata, before its runs are added. */
json_object *runner_top(const struct run_ctx *ctx, const char *stamp);
/* Adds a run's metadata to the scenario's list; 1 if the run failed (did not complete). */
size_t runner_add_run(json_object *runs, const struct run *r, json_object *m);
/* ok or degraded: the run did everything it planned. */
bool runner_status_complete(const char *status);
/* Counts a run's metadata (status, partial, requests) into t. */
void runner_tally(struct run_tally *t, json_object *m);
/* The closing lines of a command that ran VMs: runs, then allocations. */
void runner_print_tally(FILE *f, const struct run_tally *t, const char *suffix);
/* Renames ctx->tmpdir to its final name and prints it with its failed runs. */
int runner_finish(struct run_ctx *ctx, json_object *top, json_object *runs, size_t nfail);
void runner_free(struct run_ctx *ctx);

#endif
