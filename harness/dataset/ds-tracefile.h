/*
 * trace.dat's buffers, read together in time order: the guest keeps each
 * request's cma_alloc_start/finish in the top buffer and the events that
 * come by the thousand (busy retries, the attribution's) in the "detail"
 * instance, so that a detail buffer that fills never costs a request its
 * kernel-side time (workloads/guest/init, run_alloc).
 */
#ifndef CMB_DS_TRACEFILE_H
#define CMB_DS_TRACEFILE_H

#include <stdbool.h>

struct tracecmd_input;
struct tep_handle;
struct tep_event;
struct tep_record;

/* trace-loss.csv's and trace-*.csv's names of the two buffers */
#define DS_TRACE_MAIN "main"
#define DS_TRACE_DETAIL "detail"

enum { DS_BUF_MAIN, DS_BUF_DETAIL, DS_NBUFS };

/* CPUs whose last event is kept (a guest has at most a few) */
#define DS_TRACE_CPUS 64

struct ds_tracefile {
	struct tracecmd_input *h[DS_NBUFS];
	int n;
	struct tep_handle *tep;     /* shared by the buffers' handles */
	/* each buffer's and CPU's last event: where a buffer that filled stopped */
	unsigned long long last[DS_NBUFS][DS_TRACE_CPUS];
};

/* Opens path's top buffer and its detail instance, if any; -1 if unreadable. */
int ds_tracefile_open(struct ds_tracefile *t, const char *path);
/* Every event of every buffer in time order; cb gets the buffer (DS_BUF_*). */
int ds_tracefile_iterate(struct ds_tracefile *t,
			 int (*cb)(struct tep_record *rec, int buffer, int cpu, void *arg),
			 void *arg);
void ds_tracefile_close(struct ds_tracefile *t);
/* A number field of an event record (signed fields sign-extended); missing: dflt. */
long long ds_trace_num(struct tep_event *ev, struct tep_record *rec, const char *name,
		       long long dflt);
/* DS_BUF_* of a name in trace-loss.csv or a cpuend row; -1 if unknown. */
int ds_trace_buffer(const char *name);

#endif
