/*
 * The divisor's record (calib.h): its median and spread, and the words
 * the run's warnings and the report use for it.
 */
#include "lib/calib.h"
#include "lib/history.h"
#include "lib/json.h"
#include "lib/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const source_names[] = {
	[CALIB_NONE] = "none", [CALIB_MEASURED] = "measured",
	[CALIB_HISTORY] = "history", [CALIB_KEY] = "key",
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int calib_from_ratios(struct calib *c, const double *ratios, size_t n)
{
	double *v;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!(ratios[i] > 0))
			return -1;
	v = xmalloc(n * sizeof(*v));
	memcpy(v, ratios, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	c->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	c->min = v[0];
	c->max = v[n - 1];
	c->rounds = (int)n;
	free(v);
	return 0;
}

void calib_one(struct calib *c, double value, enum calib_source source)
{
	memset(c, 0, sizeof(*c));
	c->source = source;
	c->median = c->min = c->max = value;
	c->rounds = 1;
	c->load = -1;
}

const char *calib_source_name(enum calib_source s)
{
	return (unsigned)s < ARRAY_SIZE(source_names) ? source_names[s] : "none";
}

json_object *calib_to_json(const struct calib *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "source", json_object_new_string(calib_source_name(c->source)));
	if (c->source == CALIB_KEY || c->source == CALIB_NONE || c->rounds < 1)
		return o;
	json_object_object_add(o, "rounds", json_object_new_int(c->rounds));
	json_object_object_add(o, "median", json_object_new_double(c->median));
	json_object_object_add(o, "min", json_object_new_double(c->min));
	json_object_object_add(o, "max", json_object_new_double(c->max));
	if (c->date[0])
		json_object_object_add(o, "date", json_object_new_string(c->date));
	if (c->load >= 0)
		json_object_object_add(o, "host_load", json_object_new_double(c->load));
	return o;
}

int calib_from_json(struct calib *c, json_object *o)
{
	const char *src = js_str(o, "source"), *date = js_str(o, "date");
	struct calib n = { .load = js_num(o, "host_load", -1) };

	if (!src)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(source_names); i++)
		if (!strcmp(src, source_names[i]))
			n.source = (enum calib_source)i;
	n.rounds = (int)js_int(o, "rounds");
	if (n.rounds < 1)
		n.rounds = 0;
	n.median = js_num(o, "median", 0);
	n.min = js_num(o, "min", n.median);
	n.max = js_num(o, "max", n.median);
	if (date)
		snprintf(n.date, sizeof(n.date), "%s", date);
	*c = n;
	return 0;
}

bool calib_wide(const struct calib *c)
{
	return c->rounds > 1 && c->min > 0 && c->max / c->min > CALIB_WIDE;
}

char *calib_describe(const struct calib *c, double scale)
{
	struct strbuf sb;

	sb_init(&sb);
	if (c->source == CALIB_KEY)
		sb_addf(&sb, "disk-scale=%g in the scenario", scale);
	else if (c->rounds > 1)
		sb_addf(&sb, "median of %d rounds, %.1fx-%.1fx", c->rounds, c->min, c->max);
	else
		sb_add(&sb, "1 round");
	if (c->source == CALIB_MEASURED || c->source == CALIB_HISTORY) {
		/* the date without its time: the day is what tells runs apart */
		if (c->date[0])
			sb_addf(&sb, ", measured %.10s", c->date);
		if (c->source == CALIB_HISTORY)
			sb_add(&sb, c->date[0] ? ", from the cache's history"
					       : ", from the cache's history, date not recorded");
	}
	if (calib_wide(c))
		sb_addf(&sb, "; the rounds disagree (max/min %.2f)", c->max / c->min);
	return sb_detach(&sb);
}

char *calib_doubts(const struct calib *c, unsigned cores)
{
	struct strbuf sb;

	sb_init(&sb);
	if (calib_wide(c))
		sb_addf(&sb, "its %d rounds disagree: %.1fx to %.1fx (max/min %.2f > %.2f)",
			c->rounds, c->min, c->max, c->max / c->min, CALIB_WIDE);
	/* the guest takes a core of its own: more load than the rest leaves */
	if (c->load >= 0 && cores > 0 && c->load > (double)cores - 1)
		sb_addf(&sb, "%sthe host's other work kept %.1f of its %u cores busy when it was measured",
			sb.len ? "; " : "", c->load, cores);
	return sb_detach(&sb);
}

int calib_recall(const struct cmb_env *env, const char *key, struct calib *c)
{
	char *rkey = xasprintf("%s.rounds", key);
	double median = history_get(env, key);
	json_object *o = median > 0 ? history_get_obj(env, rkey) : NULL;

	free(rkey);
	if (median <= 0)
		return -1;
	/* rounds whose median is not the number's: an older cmabench measured since */
	if (calib_from_json(c, o) || c->rounds < 1 || fabs(c->median - median) > 1e-9 * median)
		calib_one(c, median, CALIB_HISTORY);
	c->source = CALIB_HISTORY;
	json_object_put(o);
	return 0;
}

void calib_keep(const struct cmb_env *env, const char *key, const struct calib *c)
{
	char *rkey = xasprintf("%s.rounds", key);

	history_put(env, rkey, calib_to_json(c));
	history_set(env, key, c->median);
	free(rkey);
}
