/*
 * What the readers of the data-set layer share. One reader per raw file
 * (ds-*.c), each a function of one run, listed in one table in dataset.c;
 * nothing outside this layer reads a results directory.
 */
#ifndef CMB_DS_INTERNAL_H
#define CMB_DS_INTERNAL_H

#include "dataset/dataset.h"
#include "dataset/ds-tracefile.h"
#include "lib/csv.h"
#include "lib/json.h"

#include <json-c/json.h>

/* A problem of run r with file (relative to its run directory). */
void ds_problem(struct ds_run *r, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Adds flag to a row's ';'-separated flags (once). */
void ds_flag(char *flags, size_t size, const char *flag);
#define DS_FLAG(row, f) ds_flag((row)->flags, sizeof((row)->flags), (f))

/* "<runs_dir>/<run>/<rel>" (caller frees). */
char *ds_run_path(const struct dataset *ds, const struct ds_run *r, const char *rel);
/* dir/runs, or the directory dir/runs.tar.xz is unpacked into (ds-packed.c). */
char *ds_runs_dir(const char *dir, struct strbuf *errs);
/* The names in a directory, sorted, without dot files. */
void ds_list_dir(const char *path, struct strlist *out);

/*
 * Opens the run's file rel as CSV and finds its columns: false, silently,
 * if the file is missing (*missing set), and false with a problem if a
 * column is.
 */
bool ds_open_csv(struct csv *c, const struct dataset *ds, struct ds_run *r, const char *rel,
		 const char *const *cols, size_t n, int *idx, bool *missing);

/* Grows *v (element size) so that one more element fits; returns it zeroed. */
void *ds_grow(void *vp, size_t *n, size_t *cap, size_t size);


/* The readers, in the order dataset_load calls them. */
void ds_read_alloc(struct dataset *ds, size_t run);
void ds_read_trace(struct dataset *ds, size_t run);
void ds_read_fio(struct dataset *ds, size_t run);
void ds_read_snapshots(struct dataset *ds, size_t run);
void ds_read_phases(struct dataset *ds, size_t run);
void ds_read_perf(struct dataset *ds, size_t run);
void ds_read_samples(struct dataset *ds, size_t run);
void ds_read_jobtime(struct dataset *ds, size_t run);
void ds_read_launches(struct dataset *ds, size_t run);
void ds_read_backgrounds(struct dataset *ds, size_t run);
void ds_read_pin_io(struct dataset *ds, size_t run);
void ds_read_fill(struct dataset *ds, size_t run);
void ds_read_readers(struct dataset *ds, size_t run);
void ds_read_attr(struct dataset *ds, size_t run);
/* Derived from the allocations: one row per burst. */
void ds_derive_bursts(struct dataset *ds, size_t run);

/* trace-loss.csv: events each buffer (DS_BUF_*) lost, and which CPUs did. */
struct ds_trace_loss {
	long long lost[DS_NBUFS];
	bool cpu[DS_NBUFS][DS_TRACE_CPUS];
};
void ds_trace_loss(const struct dataset *ds, struct ds_run *r, struct ds_trace_loss *l);
/*
 * The time after which events of the buffers in mask (1 << DS_BUF_*) may
 * be missing: the earliest last event (last, from the cpuend rows) of a
 * CPU that lost events; 0 when none did, 1 when one did whose last event
 * is unknown.
 */
unsigned long long ds_trace_cut(const struct ds_trace_loss *l,
				unsigned long long last[DS_NBUFS][DS_TRACE_CPUS], unsigned mask);

/* Adds a counter row (ds-snapshots.c, ds-perf.c). */
void ds_add_counter(struct dataset *ds, size_t run, const char *source, const char *name,
		    long long before, long long after, const char *flag);

#endif
