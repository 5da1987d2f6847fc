#include "lib/estimate.h"

#include <stdlib.h>

/* Singular and plural, for the lines. */
static const char *const kind_names[EST_KINDS][2] = {
	[EST_KERNEL] = { "kernel", "kernels" },
	[EST_IMAGE] = { "image", "images" },
	[EST_CALIBRATE] = { "calibration", "calibrations" },
	[EST_RUN] = { "run", "runs" },
};

double est_scale(const struct est_step *s, size_t n, enum est_kind k)
{
	double took = 0, expected = 0;

	for (size_t i = 0; i < n; i++)
		if (s[i].kind == k && s[i].state == EST_DONE && s[i].seconds > 0 &&
		    s[i].estimate > 0) {
			took += s[i].seconds;
			expected += s[i].estimate;
		}
	return expected > 0 ? took / expected : 1;
}

static double step_left(const struct est_step *s, double scale)
{
	double left;

	if (s->state == EST_DONE)
		return 0;
	left = s->estimate * scale - (s->state == EST_RUNNING ? s->seconds : 0);
	/* past its estimate: it ends any moment, as far as we can tell */
	return left > 0 ? left : 0;
}

/*
 * The seconds one group's runs still take. Cores are counted, not placed:
 * jobs.c wants a contiguous range, which only runs of mixed sizes can lack.
 */
static double group_span(const struct est_step *s, size_t n, unsigned group, double scale,
			 unsigned jobs, unsigned host_cores)
{
	double *end = xcalloc(n, sizeof(*end)), t = 0, last = 0;
	unsigned *held = xcalloc(n, sizeof(*held)), free_cores = host_cores;
	size_t running = 0;

	/* Pass 0: the runs already running hold their cores; pass 1: the rest. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			const struct est_step *r = &s[i];
			unsigned need = r->cores && r->cores < host_cores ? r->cores : host_cores;

			if (r->kind != EST_RUN || r->group != group ||
			    r->state != (pass ? EST_PENDING : EST_RUNNING))
				continue;
			/* jobs.c starts in plan order: wait for the first to end */
			while (pass && running && (running >= jobs || need > free_cores)) {
				size_t e = 0;

				for (size_t k = 1; k < running; k++)
					if (end[k] < end[e])
						e = k;
				t = end[e];
				free_cores += held[e];
				running--;
				end[e] = end[running];
				held[e] = held[running];
			}
			end[running] = t + step_left(r, scale);
			held[running] = need < free_cores ? need : free_cores;
			free_cores -= held[running];
			if (end[running] > last)
				last = end[running];
			running++;
		}
	free(end);
	free(held);
	return last;
}

static double runs_left(const struct est_step *s, size_t n, double scale, unsigned jobs,
			unsigned host_cores)
{
	double left = 0;

	if (!jobs)
		jobs = 1;
	if (!host_cores)
		host_cores = 1;
	for (size_t i = 0; i < n; i++) {
		bool first = s[i].kind == EST_RUN;

		/* each group once, in the order of its first run */
		for (size_t j = 0; first && j < i; j++)
			first = !(s[j].kind == EST_RUN && s[j].group == s[i].group);
		if (first)
			left += group_span(s, n, s[i].group, scale, jobs, host_cores);
	}
	return left;
}

double est_remaining(const struct est_step *s, size_t n, unsigned jobs, unsigned host_cores)
{
	double scale[EST_KINDS], left = 0;

	for (int k = 0; k < EST_KINDS; k++)
		scale[k] = est_scale(s, n, (enum est_kind)k);
	for (size_t i = 0; i < n; i++)
		if (s[i].kind != EST_RUN)
			left += step_left(&s[i], scale[s[i].kind]);
	return left + runs_left(s, n, scale[EST_RUN], jobs, host_cores);
}

void est_describe(struct strbuf *sb, const struct est_step *s, size_t n, unsigned jobs,
		  unsigned host_cores)
{
	size_t count[EST_KINDS] = { 0 };
	double secs[EST_KINDS] = { 0 };
	const char *sep = "";
	char d[32];

	for (size_t i = 0; i < n; i++) {
		count[s[i].kind]++;
		if (s[i].kind != EST_RUN)
			secs[s[i].kind] += step_left(&s[i], 1);
	}
	secs[EST_RUN] = runs_left(s, n, 1, jobs, host_cores);
	for (int k = 0; k < EST_KINDS; k++) {
		if (!count[k])
			continue;
		fmt_duration(d, sizeof(d), secs[k]);
		/* one image, one calibration: "the image" */
		if ((k == EST_IMAGE || k == EST_CALIBRATE) && count[k] == 1)
			sb_addf(sb, "%sthe %s", sep, kind_names[k][0]);
		else
			sb_addf(sb, "%s%zu %s%s", sep, count[k], kind_names[k][count[k] != 1],
				k == EST_KERNEL ? " to build" : "");
		if (k == EST_RUN)
			sb_addf(sb, " at --jobs %u", jobs ? jobs : 1);
		sb_addf(sb, " (~%s)", d);
		sep = ", ";
	}
	if (!n) {
		sb_add(sb, "nothing to do");
		return;
	}
	fmt_duration(d, sizeof(d), est_remaining(s, n, jobs, host_cores));
	sb_addf(sb, ": about %s in all", d);
}

void est_status(struct strbuf *sb, const struct est_step *s, size_t n, unsigned jobs,
		unsigned host_cores, double elapsed)
{
	size_t count[EST_KINDS] = { 0 }, done[EST_KINDS] = { 0 }, ndone = 0;
	const char *sep = "";
	double left = est_remaining(s, n, jobs, host_cores);
	char d[32];

	for (size_t i = 0; i < n; i++) {
		count[s[i].kind]++;
		done[s[i].kind] += s[i].state == EST_DONE;
		ndone += s[i].state == EST_DONE;
	}
	fmt_duration(d, sizeof(d), elapsed);
	sb_addf(sb, "%s elapsed; done:", d);
	for (int k = 0; k < EST_KINDS; k++)
		if (count[k]) {
			sb_addf(sb, "%s %s %zu/%zu", sep, kind_names[k][count[k] != 1], done[k],
				count[k]);
			sep = ",";
		}
	if (ndone == n) {
		sb_add(sb, "; nothing left");
		return;
	}
	fmt_duration(d, sizeof(d), left);
	sb_addf(sb, "; ~%s left", d);
	/* why the estimate moved: the kinds that took other than expected */
	sep = " (";
	for (int k = 0; k < EST_KINDS; k++) {
		double x = est_scale(s, n, (enum est_kind)k);

		if (count[k] > done[k] && (x < 0.995 || x > 1.005)) {
			sb_addf(sb, "%s%s x%.2f", sep, kind_names[k][1], x);
			sep = ", ";
		}
	}
	if (*sep == ',')
		sb_add(sb, " their estimates)");
}
