/*
 * The attribution of each request's kernel-side time (ds-attr.h,
 * docs/attribution.md): a state machine over the allocating task's
 * events. Each phase event closes an interval whose phase follows from
 * the boundary before it and the event itself; sched events split the
 * time inside it by the task's state.
 */
#include "dataset/ds-attr.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

const char *const ds_aev_names[DS_NAEV] = {
	"start", "finish", "retry", "isolate", "cbegin", "cend", "mstart", "migrated",
	"test", "gstart", "gfinish", "out", "in", "wake", "mfail",
};
const char *const ds_phase_names[DS_NPHASES] = {
	"search", "isolate", "migrate", "takeback", "prepare", "unattributed",
};
const char *const ds_tstate_names[DS_NSTATES] = { "cpu", "runnable", "blocked" };
const char *const ds_failkind_names[DS_NFAILKINDS] = {
	"anon", "dirty", "writeback", "pinned", "unevictable", "other",
};

/* What the last phase boundary of a request was. */
enum { PV_ATTEMPT, PV_MIGRATE, PV_TEST_OK, PV_TEST_FAIL, PV_GSTART, PV_GDONE };

static struct ds_attr_open *find_open(struct ds_attrs *s, int pid, size_t *at)
{
	for (size_t i = 0; i < s->nopen; i++)
		if (s->open[i].pid == pid) {
			*at = i;
			return &s->open[i];
		}
	return NULL;
}

/* The time since the last boundary goes to phase p, split by state. */
static void close_interval(struct ds_attrs *s, struct ds_attr_open *o, enum ds_phase p)
{
	struct ds_attr *a = &s->a[o->idx];

	for (int t = 0; t < DS_NSTATES; t++) {
		a->ns[p][t] += o->pending[t];
		o->pending[t] = 0;
	}
}

/* The phase of the interval that an event of kind ev ends. */
static enum ds_phase phase_ending(const struct ds_attr_open *o, enum ds_aev ev)
{
	switch (ev) {
	case DS_AEV_ISOLATE:
	case DS_AEV_MSTART:
	case DS_AEV_MIGRATED:
		/* the first scan of an attempt comes after isolating the range */
		return ev == DS_AEV_ISOLATE && o->prev == PV_ATTEMPT ? DS_PH_ISOLATE
								      : DS_PH_MIGRATE;
	case DS_AEV_TEST:
		return DS_PH_ISOLATE;
	case DS_AEV_RETRY:
		/* undoing a failed attempt's isolation, or isolation refused */
		return o->prev == PV_ATTEMPT || o->prev == PV_TEST_FAIL ? DS_PH_ISOLATE
									 : DS_PH_OTHER;
	case DS_AEV_GSTART:
		/* CMA's own search is inside its isolation: no event between */
		return o->prev == PV_ATTEMPT ? DS_PH_SEARCH : DS_PH_OTHER;
	case DS_AEV_GFINISH:
		return o->prev == PV_GSTART ? DS_PH_TAKEBACK : DS_PH_OTHER;
	case DS_AEV_FINISH:
		return o->prev == PV_TEST_OK || o->prev == PV_GDONE ? DS_PH_PREPARE
								     : DS_PH_OTHER;
	case DS_AEV_CBEGIN:
		return o->prev == PV_MIGRATE ? DS_PH_MIGRATE : DS_PH_OTHER;
	default:
		return DS_PH_OTHER;
	}
}

static void start_request(struct ds_attrs *s, int pid, unsigned long long ts, long long count)
{
	struct ds_attr_open *o;
	struct ds_attr *a;
	size_t at;

	if ((o = find_open(s, pid, &at))) {
		/* a second start before the first finished: the first stays open-ended */
		memmove(o, o + 1, (s->nopen - at - 1) * sizeof(*o));
		s->nopen--;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->a = xrealloc(s->a, s->cap * sizeof(*s->a));
	}
	a = &s->a[s->n];
	memset(a, 0, sizeof(*a));
	a->pid = pid;
	a->ts_start = ts;
	a->count = count;
	a->errorno = 0;
	if (s->nopen == s->capopen) {
		s->capopen = s->capopen ? 2 * s->capopen : 8;
		s->open = xrealloc(s->open, s->capopen * sizeof(*s->open));
	}
	o = &s->open[s->nopen++];
	memset(o, 0, sizeof(*o));
	o->pid = pid;
	o->idx = s->n++;
	o->last = ts;
	o->state = DS_ST_CPU;   /* it emitted the event */
	o->prev = PV_ATTEMPT;
}

void ds_attrs_event(struct ds_attrs *s, enum ds_aev ev, int pid, unsigned long long ts,
		    long long x, long long y)
{
	struct ds_attr_open *o;
	struct ds_attr *a;
	size_t at;

	if (ev == DS_AEV_OUT || ev == DS_AEV_IN || ev == DS_AEV_WAKE)
		s->has_sched = true;
	if (ev == DS_AEV_MFAIL)
		s->has_mfail = true;
	if (ev == DS_AEV_START) {
		start_request(s, pid, ts, x);
		return;
	}
	if (!(o = find_open(s, pid, &at))) {
		s->orphans++;
		return;
	}
	a = &s->a[o->idx];
	if (ts > o->last) {
		o->pending[o->state] += (long long)(ts - o->last);
		if (o->in_compaction)
			a->compaction_ns += (long long)(ts - o->last);
		o->last = ts;
	}
	switch (ev) {
	case DS_AEV_OUT:
		o->state = x ? DS_ST_BLOCKED : DS_ST_RUNNABLE;
		return;
	case DS_AEV_IN:
		o->state = DS_ST_CPU;
		return;
	case DS_AEV_WAKE:
		if (o->state == DS_ST_BLOCKED)
			o->state = DS_ST_RUNNABLE;
		return;
	case DS_AEV_MFAIL:
		/* y: the folio's pages */
		if (!o->in_compaction)
			a->failkind[x >= 0 && x < DS_NFAILKINDS ? x : DS_FK_OTHER] += y > 0 ? y : 1;
		return;
	case DS_AEV_CBEGIN:
		if (!o->in_compaction++)
			close_interval(s, o, phase_ending(o, ev));
		return;
	case DS_AEV_CEND:
		if (o->in_compaction && !--o->in_compaction)
			close_interval(s, o, DS_PH_OTHER);
		return;
	default:
		break;
	}
	/* events of direct compaction are its own, not the request's phases */
	if (o->in_compaction && ev != DS_AEV_FINISH)
		return;
	close_interval(s, o, phase_ending(o, ev));
	switch (ev) {
	case DS_AEV_ISOLATE:
		a->isolated += y;
		o->prev = PV_MIGRATE;
		break;
	case DS_AEV_MIGRATED:
		a->migrated += x;
		a->failed += y;
		o->prev = PV_MIGRATE;
		break;
	case DS_AEV_MSTART:
		o->prev = PV_MIGRATE;
		break;
	case DS_AEV_TEST:
		o->prev = x ? PV_TEST_OK : PV_TEST_FAIL;
		break;
	case DS_AEV_RETRY:
		a->retries++;
		o->prev = PV_ATTEMPT;
		break;
	case DS_AEV_GSTART:
		o->prev = PV_GSTART;
		break;
	case DS_AEV_GFINISH:
		a->dropped += x;
		o->prev = PV_GDONE;
		break;
	case DS_AEV_FINISH:
		/* every isolated page was migrated, failed (and put back), or reclaimed */
		a->reclaimed = a->isolated > a->migrated + a->failed ?
			       a->isolated - a->migrated - a->failed : 0;
		a->ts_end = ts;
		a->errorno = x;
		a->finished = true;
		memmove(o, o + 1, (s->nopen - at - 1) * sizeof(*o));
		s->nopen--;
		break;
	default:
		break;
	}
}

void ds_attrs_end(struct ds_attrs *s)
{
	for (size_t i = 0; i < s->n; i++) {
		s->a[i].sched_traced = s->has_sched;
		s->a[i].failkind_traced = s->has_mfail;
	}
	s->nopen = 0;
}

void ds_attrs_free(struct ds_attrs *s)
{
	free(s->a);
	free(s->open);
	memset(s, 0, sizeof(*s));
}

long long ds_attr_phase(const struct ds_attr *a, enum ds_phase p)
{
	long long n = 0;

	for (int t = 0; t < DS_NSTATES; t++)
		n += a->ns[p][t];
	return n;
}

long long ds_attr_state(const struct ds_attr *a, enum ds_tstate t)
{
	long long n = 0;

	for (int p = 0; p < DS_NPHASES; p++)
		n += a->ns[p][t];
	return n;
}

long long ds_attr_moved(const struct ds_attr *a)
{
	return a->migrated + a->reclaimed + a->dropped;
}

long long ds_attr_total(const struct ds_attr *a)
{
	long long n = 0;

	for (int p = 0; p < DS_NPHASES; p++)
		n += ds_attr_phase(a, p);
	return n;
}
