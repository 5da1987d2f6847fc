/*
 * The primary comparisons a scenario declares (key `primary`): parsed into
 * pairs of set-ups per metric and request size.
 */
#include "scenario/scenario.h"

#include <stdlib.h>
#include <string.h>

/* Which metrics have a request size, and which compare as a ratio. */
static const struct {
	const char *name;
	bool sized, ratio;
} pmetrics[] = {
	{ "user-p50", true, true }, { "user-p99", true, true }, { "user-mean", true, true },
	{ "user-success", true, false }, { "kernel-p50", true, true }, { "kernel-p99", true, true },
	{ "kernel-mean", true, true }, { "kernel-success", true, false },
	{ "kernel-retries", true, false }, { "burst-p50", false, true },
	{ "burst-ok", false, false }, { "job-elapsed", false, true }, { "job-user", false, true },
	{ "job-sys", false, true }, { "read-bw", false, true }, { "write-bw", false, true },
	{ "bg-read-bw", false, true }, { "bg-write-bw", false, true },
	{ "hit-rate", false, false }, { "occupancy", false, false },
	{ "launch-p50", false, true }, { "launch-cold-p50", false, true },
};

static void primary_push(struct primaries *out, size_t m, long pages, const char *a, const char *b)
{
	struct primary *p;

	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	p = &out->v[out->n++];
	p->metric = pmetrics[m].name;
	p->ratio = pmetrics[m].ratio;
	p->pages = pages;
	p->a = xstrdup(a);
	p->b = xstrdup(b);
}

int primaries_parse(const char *text, const long *sizes, size_t nsizes, struct primaries *out,
		    const char **why)
{
	char *copy = xstrdup(text ? text : ""), *save = NULL;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (char *tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		char *colon, *slash, *at, *a, *b;
		size_t m = ARRAY_SIZE(pmetrics);
		long pages = 0;

		tok = trim(tok);
		colon = strchr(tok, ':');
		slash = colon ? strchr(colon, '/') : NULL;
		if (!colon || !slash) {
			*why = "has an entry that is not METRIC[@PAGES]:A/B";
			ret = -1;
			break;
		}
		*colon = *slash = '\0';
		a = trim(colon + 1);
		b = trim(slash + 1);
		at = strchr(tok, '@');
		if (at)
			*at++ = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(pmetrics); i++)
			if (!strcmp(pmetrics[i].name, trim(tok)))
				m = i;
		if (m == ARRAY_SIZE(pmetrics)) {
			*why = "names an unknown metric (see 'cmabench help scenario')";
			ret = -1;
		} else if (!*a || !*b || !strcmp(a, b)) {
			*why = "needs two different sections A/B";
			ret = -1;
		} else if (pmetrics[m].sized != !!at) {
			*why = at ? "gives a size to a metric without one"
				  : "needs @PAGES (or @all) for an allocation metric";
			ret = -1;
		} else if (at && !strcmp(at, "all")) {
			for (size_t i = 0; i < nsizes; i++)
				primary_push(out, m, sizes[i], a, b);
		} else if (at && (parse_long(at, &pages, why) || pages < 1)) {
			*why = "has a size that is not a number of pages";
			ret = -1;
		} else {
			primary_push(out, m, pages, a, b);
		}
	}
	free(copy);
	if (ret)
		primaries_free(out);
	return ret;
}

char *primary_key(const struct primary *p)
{
	return p->pages ? xasprintf("%s@%ld", p->metric, p->pages) : xstrdup(p->metric);
}

void primaries_free(struct primaries *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].a);
		free(p->v[i].b);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}
