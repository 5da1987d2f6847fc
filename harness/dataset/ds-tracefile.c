/*
 * trace.dat read through libtracecmd: its top buffer and the "detail"
 * instance merged in time order, each CPU's last event kept per buffer.
 */
#include "dataset/ds-tracefile.h"

#include <string.h>
#include <trace-cmd.h>

struct iter {
	struct ds_tracefile *t;
	int (*cb)(struct tep_record *rec, int buffer, int cpu, void *arg);
	void *arg;
};

int ds_tracefile_open(struct ds_tracefile *t, const char *path)
{
	memset(t, 0, sizeof(*t));
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	t->h[DS_BUF_MAIN] = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
						 TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!t->h[DS_BUF_MAIN])
		return -1;
	t->n = 1;
	t->tep = tracecmd_get_tep(t->h[DS_BUF_MAIN]);
	for (int i = 0; i < tracecmd_buffer_instances(t->h[DS_BUF_MAIN]); i++) {
		const char *name = tracecmd_buffer_instance_name(t->h[DS_BUF_MAIN], i);

		if (name && !strcmp(name, DS_TRACE_DETAIL)) {
			t->h[DS_BUF_DETAIL] = tracecmd_buffer_instance_handle(t->h[DS_BUF_MAIN], i);
			t->n += t->h[DS_BUF_DETAIL] != NULL;
			break;
		}
	}
	return 0;
}

/* cpu counts the CPUs of every handle in turn: the record's own is rec->cpu */
static int one(struct tracecmd_input *h, struct tep_record *rec, int all_cpu, void *arg)
{
	struct iter *it = arg;
	int b = h == it->t->h[DS_BUF_MAIN] ? DS_BUF_MAIN : DS_BUF_DETAIL, cpu = rec->cpu;

	(void)all_cpu;

	if (cpu >= 0 && cpu < DS_TRACE_CPUS && rec->ts > it->t->last[b][cpu])
		it->t->last[b][cpu] = rec->ts;
	return it->cb(rec, b, cpu, it->arg);
}

int ds_tracefile_iterate(struct ds_tracefile *t,
			 int (*cb)(struct tep_record *rec, int buffer, int cpu, void *arg),
			 void *arg)
{
	struct iter it = { t, cb, arg };

	return tracecmd_iterate_events_multi(t->h, t->n, one, &it);
}

void ds_tracefile_close(struct ds_tracefile *t)
{
	/* an instance's handle holds a reference to the top one */
	for (int i = t->n; i-- > 0;)
		tracecmd_close(t->h[i]);
	memset(t, 0, sizeof(*t));
}

long long ds_trace_num(struct tep_event *ev, struct tep_record *rec, const char *name,
		       long long dflt)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v;

	if (!f || tep_read_number_field(f, rec->data, &v))
		return dflt;
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		if (f->size == 4)
			return (int)v;
		if (f->size == 2)
			return (short)v;
	}
	return (long long)v;
}

int ds_trace_buffer(const char *name)
{
	if (!strcmp(name, DS_TRACE_MAIN))
		return DS_BUF_MAIN;
	if (!strcmp(name, DS_TRACE_DETAIL))
		return DS_BUF_DETAIL;
	return -1;
}
