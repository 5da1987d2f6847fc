/*
 * docs/reproducing.md: the published figures (docs/published.csv) side by
 * side with ours, computed from results directories of the scenarios
 * rfc-v2, rfc-v2-background, paper-photo and lsfmm2025. Allocation
 * latencies, counters and samples come from the data set of dataset.c;
 * what it does not keep (alloc.csv's burst and start_ns columns, the
 * guest's jobtime.csv) is read from the run directories. Same input, same
 * bytes.
 */
#ifndef CMB_REPRODUCE_H
#define CMB_REPRODUCE_H

#include "dataset.h"
#include "util.h"

/* One line of docs/published.csv: figure,metric,setup,size,value,unit,source */
struct pub_row {
	char *figure, *metric, *setup, *size, *value, *unit, *source;
	double v;                   /* value as a number */
};

struct published {
	struct pub_row *rows;
	size_t n;
	char *label;                /* how the document names the file */
};

/* Reads path; label names it in the document. -1 and a message in errs on error. */
int published_load(struct published *p, const char *path, const char *label,
		   struct strbuf *errs);
void published_free(struct published *p);
/* The row with these keys (size NULL: any size), or NULL. */
const struct pub_row *published_find(const struct published *p, const char *figure,
				     const char *metric, const char *setup, const char *size);

/* Splits one CSV line (fields may be "quoted", "" inside quotes is a quote). */
size_t repro_csv_split(const char *line, struct strlist *out);

/* What the metadata says of a run beyond struct ds_run. */
struct repro_meta {
	char *scenario;             /* "?" if no metadata names it */
	char *kernel_version, *accel;
	long long area_bytes, memory_mib, cpus;  /* -1 if unknown */
};

/* One results directory. */
struct repro_set {
	char *label;                /* the directory as given, without trailing '/' */
	struct dataset ds;
	struct repro_meta *meta;    /* one per ds.runs[i] */
};

/* Loads dir (dataset_load plus the run metadata); -1 and errs if it holds no run. */
int repro_set_load(struct repro_set *s, const char *dir, struct strbuf *errs);
void repro_set_free(struct repro_set *s);

/* The whole document. */
void reproduce_doc(const struct published *pub, const struct repro_set *sets, size_t nsets,
		   struct strbuf *md);

#endif
