/*
 * trace-loss.csv: what each ring buffer of a run's trace lost, and from
 * when on a buffer's events are incomplete. Both trace readers use it
 * (ds-trace.c, ds-attr-trace.c); it calls neither.
 */
#include "dataset/ds-internal.h"

#include <string.h>

/*
 * trace-loss.csv (buffer,cpu,overrun,dropped): events each ring buffer
 * lost; a file without the buffer column had one buffer, the main one.
 */
void ds_trace_loss(const struct dataset *ds, struct ds_run *r, struct ds_trace_loss *l)
{
	static const char *const cols[] = { "cpu", "overrun", "dropped" };
	long long cpu, v, n;
	struct csv c;
	int col[3], bcol;
	bool missing;

	memset(l, 0, sizeof(*l));
	if (!ds_open_csv(&c, ds, r, "trace-loss.csv", cols, 3, col, &missing))
		return;
	bcol = csv_col(&c, "buffer");
	while (csv_next(&c)) {
		const char *name = bcol >= 0 ? csv_field(&c, bcol) : DS_TRACE_MAIN;
		int b = name ? ds_trace_buffer(name) : -1;

		if (b < 0) {
			ds_problem(r, "trace-loss.csv", "line %zu: unknown buffer '%s'", c.lineno,
				   name ? name : "");
			continue;
		}
		n = 0;
		for (int k = 1; k < 3; k++)
			if (csv_ll(&c, col[k], &v))
				n += v;
		l->lost[b] += n;
		if (n > 0 && csv_ll(&c, col[0], &cpu) && cpu >= 0 && cpu < DS_TRACE_CPUS)
			l->cpu[b][cpu] = true;
	}
	csv_close(&c);
}

unsigned long long ds_trace_cut(const struct ds_trace_loss *l,
				unsigned long long last[DS_NBUFS][DS_TRACE_CPUS], unsigned mask)
{
	unsigned long long cut = 0;
	bool lost = false;

	for (int b = 0; b < DS_NBUFS; b++) {
		if (!(mask & (1u << b)) || !l->lost[b])
			continue;
		lost = true;
		for (int cpu = 0; cpu < DS_TRACE_CPUS; cpu++)
			if (l->cpu[b][cpu] && last[b][cpu] && (!cut || last[b][cpu] < cut))
				cut = last[b][cpu];
	}
	return lost && !cut ? 1 : cut;
}
