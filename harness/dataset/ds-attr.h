/*
 * Per-request attribution of a CMA or GCMA allocation's kernel-side time
 * (docs/attribution.md): from the events of the allocating task between
 * its cma_alloc_start and cma_alloc_finish, non-overlapping intervals,
 * each a phase (named for the events that bound it) crossed with the
 * task's state (on CPU, runnable but switched out, blocked), plus counts
 * of pages isolated, migrated, failed and dropped from cleancache.
 */
#ifndef CMB_DS_ATTR_H
#define CMB_DS_ATTR_H

#include <stdbool.h>
#include <stddef.h>

/* Phases, each bounded by events (docs/attribution.md says which). */
enum ds_phase {
	DS_PH_SEARCH,    /* GCMA: the area's bitmap search and the take-back's entry */
	DS_PH_ISOLATE,   /* page isolation, draining, the isolation test, undoing it */
	DS_PH_MIGRATE,   /* isolating movable pages from the LRU and migrating them */
	DS_PH_TAKEBACK,  /* GCMA: the range taken back from cleancache */
	DS_PH_PREPARE,   /* the free range taken and prepared for the caller */
	DS_PH_OTHER,     /* unattributed: no event bounds it */
	DS_NPHASES
};

enum ds_tstate { DS_ST_CPU, DS_ST_RUNNABLE, DS_ST_BLOCKED, DS_NSTATES };

/* Kinds of pages that would not migrate (migrate:mm_migrate_pages_fail, the
 * kernel's enum migrate_fail_kind: kernel-patches/0000). */
enum ds_failkind {
	DS_FK_ANON, DS_FK_DIRTY, DS_FK_WRITEBACK, DS_FK_PINNED, DS_FK_UNEVICTABLE,
	DS_FK_OTHER, DS_NFAILKINDS
};

/* Events of trace-attr.csv (column event). */
enum ds_aev {
	DS_AEV_START, DS_AEV_FINISH, DS_AEV_RETRY,
	DS_AEV_ISOLATE,     /* mm_compaction_isolate_migratepages: a = scanned, b = taken */
	DS_AEV_CBEGIN, DS_AEV_CEND,   /* mm_compaction_begin/end: direct compaction */
	DS_AEV_MSTART,      /* mm_migrate_pages_start */
	DS_AEV_MIGRATED,    /* mm_migrate_pages: a = succeeded, b = failed pages */
	DS_AEV_TEST,        /* test_pages_isolated: a = 1 if the whole range was */
	DS_AEV_GSTART,      /* gcma_alloc_start */
	DS_AEV_GFINISH,     /* gcma_alloc_finish: a = pages dropped from cleancache */
	DS_AEV_OUT,         /* sched_switch away from the task: a = 1 if it blocked */
	DS_AEV_IN,          /* sched_switch to the task */
	DS_AEV_WAKE,        /* sched_wakeup of the task */
	DS_AEV_MFAIL,       /* mm_migrate_pages_fail, a row per kind: a = enum ds_failkind, b = its pages */
	DS_NAEV
};

extern const char *const ds_aev_names[DS_NAEV];
extern const char *const ds_phase_names[DS_NPHASES];
extern const char *const ds_tstate_names[DS_NSTATES];
extern const char *const ds_failkind_names[DS_NFAILKINDS];

/* One request's attribution. */
struct ds_attr {
	int pid;
	unsigned long long ts_start, ts_end;
	long long count, errorno;
	long long ns[DS_NPHASES][DS_NSTATES];
	long long isolated;         /* pages taken off the LRU for migration */
	long long migrated, failed; /* page migrations that succeeded / failed */
	long long dropped;          /* GCMA: pages whose cached data was dropped */
	long long reclaimed;        /* CMA: isolated, neither migrated nor failed: clean file
				     * pages reclaimed in place (derived at the finish) */
	long long retries;          /* -EBUSY retries */
	long long compaction_ns;    /* direct compaction inside the request (in OTHER) */
	long long failkind[DS_NFAILKINDS];
	bool failkind_traced;       /* the kernel had mm_migrate_pages_fail */
	bool sched_traced;          /* sched_switch seen in the trace at all */
	bool finished;
};

/* The attribution of every request of a trace, in the order they began. */
struct ds_attrs {
	struct ds_attr *a;
	size_t n, cap;
	/* per open request (one per task at a time) */
	struct ds_attr_open {
		int pid;
		size_t idx;
		unsigned long long last;  /* the last event's time */
		long long pending[DS_NSTATES]; /* since the last phase boundary */
		int state;                /* enum ds_tstate */
		int prev;                 /* what the last phase boundary was */
		int in_compaction;
	} *open;
	size_t nopen, capopen;
	bool has_sched, has_mfail;
	size_t orphans;             /* events of no open request, ignored */
};

/* Feeds one event, in time order; pid: the task it concerns. */
void ds_attrs_event(struct ds_attrs *s, enum ds_aev ev, int pid, unsigned long long ts,
		    long long a, long long b);
/* End of the trace: requests still open stay unfinished. */
void ds_attrs_end(struct ds_attrs *s);
void ds_attrs_free(struct ds_attrs *s);

/* Sum over phases and states: the time the events covered. */
long long ds_attr_total(const struct ds_attr *a);
long long ds_attr_phase(const struct ds_attr *a, enum ds_phase p);
long long ds_attr_state(const struct ds_attr *a, enum ds_tstate t);
/* Pages the request had to move out of its range: migrated, reclaimed or
 * dropped from cleancache (the page-weighted fill's numerator). */
long long ds_attr_moved(const struct ds_attr *a);

#endif
