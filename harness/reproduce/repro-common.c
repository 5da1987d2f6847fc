#include "reproduce/repro-common.h"

#include <stdio.h>

bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

const struct ds_run *prun(const struct pick *k)
{
	return &k->set->ds.runs[k->run];
}

void picks_select(struct picks *ps, const struct repro_set *sets, size_t nsets,
			 const char *scenario, const char *const *sections)
{
	memset(ps, 0, sizeof(*ps));
	ps->scenario = scenario;
	ps->sections = sections;
	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < sets[s].ds.nruns; i++) {
			if (strcmp(sets[s].ds.runs[i].scenario, scenario) ||
			    !in_list(sections, sets[s].ds.runs[i].section))
				continue;
			ps->v = xrealloc(ps->v, (ps->n + 1) * sizeof(*ps->v));
			ps->v[ps->n++] = (struct pick){ &sets[s], i };
		}
}

/* Does any run (ok or not) of the section exist? */
bool picks_has_section(const struct picks *ps, const char *section)
{
	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(prun(&ps->v[i])->section, section))
			return true;
	return false;
}

bool pick_ok(const struct pick *k, const char *section)
{
	const struct ds_run *r = prun(k);

	return ds_run_ok(r) && (!section || !strcmp(r->section, section));
}

/*
 * How each section's requests asked for their buffers (alloc-path and the
 * alignment cma_alloc() saw): a figure is about a path, and debugfs at 0
 * is no driver's.
 */
static void paths_line(struct strbuf *md, const struct picks *ps)
{
	struct strbuf sb;

	sb_init(&sb);
	for (size_t s = 0; ps->sections[s]; s++) {
		struct ds_path p;
		char *t;

		ds_path_init(&p);
		for (size_t i = 0; i < ps->n; i++)
			if (!strcmp(prun(&ps->v[i])->section, ps->sections[s]))
				ds_path_add_run(&p, &ps->v[i].set->ds, ps->v[i].run);
		if (!p.n)
			continue;
		t = ds_path_text(&p);
		sb_addf(&sb, "%s`%s` %s", sb.len ? "; " : "", ps->sections[s], t);
		free(t);
	}
	if (sb.len)
		sb_addf(md, "Allocation path (`alloc-path`, the alignment order `cma_alloc()` saw): "
			"%s.\n\n", sb.buf);
	sb_free(&sb);
}

/*
 * Under a table: which directories, runs and files its rows came from.
 * files says which files of each run and which columns.
 */
void sources(struct strbuf *md, const struct picks *ps, const char *files,
		    const struct strlist *notes)
{
	sb_addf(md, "Sources (scenario `%s`): %s, of these runs:\n\n", ps->scenario, files);
	paths_line(md, ps);
	for (size_t i = 0; i < ps->n; i++) {
		const struct repro_set *set = ps->v[i].set;
		size_t nprob = 0, nok = 0, nbad = 0;

		if (i && ps->v[i - 1].set == set)
			continue;
		sb_addf(md, "- `%s/`:", set->label);
		for (size_t k = i; k < ps->n && ps->v[k].set == set; k++) {
			const struct ds_run *r = prun(&ps->v[k]);

			nprob += r->problems.n;
			if (ds_run_ok(r))
				sb_addf(md, "%s `%s`", nok++ ? "," : "", r->name);
		}
		if (!nok)
			sb_add(md, " no run ended ok");
		for (size_t k = i; k < ps->n && ps->v[k].set == set; k++) {
			const struct ds_run *r = prun(&ps->v[k]);

			if (!ds_run_ok(r))
				sb_addf(md, "%s `%s` (%s)", nbad++ ? "," : "; not counted:", r->name,
					r->status);
		}
		if (nprob)
			sb_addf(md, "; %zu problem%s noted (`cmabench report` lists them in data/problems.txt)",
				nprob, nprob == 1 ? "" : "s");
		sb_add(md, "\n");
	}
	for (size_t i = 0; notes && i < notes->n; i++)
		sb_addf(md, "- %s\n", notes->v[i]);
	sb_add(md, "\n");
}

void no_results(struct strbuf *md, const char *scenario, const char *const *sections)
{
	sb_addf(md, "**No results**: the results given hold no run of scenario `%s` (sections", scenario);
	for (size_t i = 0; sections[i]; i++)
		sb_addf(md, "%s `%s`", i ? "," : "", sections[i]);
	sb_add(md, "); ours is empty below.\n\n");
}

/* "x86-64 guest under QEMU TCG (emulated CPU), Linux 6.12.118, 1 vCPU, ..." */
void describe_env(struct strbuf *md, const struct picks *ps)
{
	struct strlist acc = { 0 }, ver = { 0 }, cpus = { 0 }, mem = { 0 }, area = { 0 };
	struct strlist swap = { 0 }, clock = { 0 };
	const struct strlist *all[] = { &acc, &ver, &cpus, &mem, &area, &swap, &clock };

	for (size_t i = 0; i < ps->n; i++) {
		const struct ds_run *m = prun(&ps->v[i]);
		char *s;

		if (!pick_ok(&ps->v[i], NULL))
			continue;
		if (!sl_has(&acc, m->accel))
			sl_add(&acc, m->accel);
		if (!sl_has(&ver, m->kernel_version))
			sl_add(&ver, m->kernel_version);
		if (!sl_has(&clock, m->clock ? m->clock : "host"))
			sl_add(&clock, m->clock ? m->clock : "host");
#define ADD_UNIQ(list, cond, ...)                        \
		if (cond) {                              \
			s = xasprintf(__VA_ARGS__);      \
			if (!sl_has(&list, s))           \
				sl_add(&list, s);        \
			free(s);                         \
		}
		ADD_UNIQ(cpus, m->cpus > 0, "%lld", m->cpus);
		ADD_UNIQ(mem, m->memory_mib > 0, "%lld", m->memory_mib);
		ADD_UNIQ(area, m->area_bytes > 0, "%lld", m->area_bytes >> 20);
		/* results older than the key say nothing of swap (their kernels had none) */
		ADD_UNIQ(swap, m->swap_mib > 0, "%lld MiB (%s)", m->swap_mib,
			 m->swap_device ? m->swap_device : "?");
		ADD_UNIQ(swap, m->swap_mib == 0, "none");
#undef ADD_UNIQ
	}
	sb_add(md, "an x86-64 guest under QEMU");
	for (size_t i = 0; i < acc.n; i++)
		sb_addf(md, "%s%s", i ? "/" : " ", acc.v[i]);
	if (acc.n == 1 && !strcmp(acc.v[0], "tcg"))
		sb_add(md, " (TCG: an emulated CPU)");
	else if (acc.n == 1 && !strcmp(acc.v[0], "kvm"))
		sb_add(md, " (KVM: a virtualised host CPU)");
	if (clock.n == 1 && !strcmp(clock.v[0], "instructions"))
		sb_add(md, " with a guest clock that counts instructions (-icount: 1 ns each, "
		       "vCPUs in turn on one host thread)");
	else if (sl_has(&clock, "instructions"))
		sb_add(md, " with a guest clock that counts instructions in some runs and follows "
		       "the host's in others");
	sb_add(md, ", Linux");
	for (size_t i = 0; i < ver.n; i++)
		sb_addf(md, "%s%s", i ? "/" : " ", ver.v[i]);
	if (cpus.n) {
		sb_add(md, ",");
		for (size_t i = 0; i < cpus.n; i++)
			sb_addf(md, "%s%s", i ? "/" : " ", cpus.v[i]);
		sb_add(md, " vCPU");
	}
	if (mem.n) {
		sb_add(md, ",");
		for (size_t i = 0; i < mem.n; i++)
			sb_addf(md, "%s%s", i ? "/" : " ", mem.v[i]);
		sb_add(md, " MiB of RAM");
	}
	if (area.n) {
		sb_add(md, ", an area of");
		for (size_t i = 0; i < area.n; i++)
			sb_addf(md, "%s%s", i ? "/" : " ", area.v[i]);
		sb_add(md, " MiB");
	}
	if (swap.n) {
		sb_add(md, ", swap:");
		for (size_t i = 0; i < swap.n; i++)
			sb_addf(md, "%s%s", i ? "/" : " ", swap.v[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		sl_free((struct strlist *)all[i]);
}

/* ---- numbers ------------------------------------------------------------- */

/* Rotating buffers: a row can hold several numbers. */
const char *repro_num(double v)
{
	static char buf[16][48];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];
	double a = fabs(v);

	if (isnan(v))
		snprintf(b, sizeof(buf[0]), "-");
	else if (a >= 100)
		snprintf(b, sizeof(buf[0]), "%.0f", v);
	else if (a >= 10)
		snprintf(b, sizeof(buf[0]), "%.1f", v);
	else
		snprintf(b, sizeof(buf[0]), "%.2f", v);
	return b;
}

const char *repro_pct(double v)
{
	static char buf[8][32];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];

	if (isnan(v))
		snprintf(b, sizeof(buf[0]), "-");
	else
		snprintf(b, sizeof(buf[0]), "%+.2f%%", v);
	return b;
}

double repro_ratio(double a, double b)
{
	return isnan(a) || isnan(b) || b == 0 ? NAN : a / b;
}

struct over over_reps(const double *v, size_t n)
{
	struct summary s;

	stats_summary(v, n, &s);
	return (struct over){ n, s.p50, s.min, s.max };
}

const char *repro_range(struct over o)
{
	static char buf[8][64];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];

	if (!o.n)
		snprintf(b, sizeof(buf[0]), "-");
	else
		snprintf(b, sizeof(buf[0]), "%s" DASH "%s", repro_num(o.lo), repro_num(o.hi));
	return b;
}

const char *repro_zu(size_t n)
{
	static char buf[8][32];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];

	snprintf(b, sizeof(buf[0]), "%zu", n);
	return b;
}

/* "3 (96)", "3 (96; 2 failed)", "0 (4 failed)" */
const char *ncol(size_t reps, size_t items, size_t fails)
{
	static char buf[8][64];
	static unsigned k;
	char *b = buf[k++ % ARRAY_SIZE(buf)];

	if (!reps && !fails)
		snprintf(b, sizeof(buf[0]), "-");
	else if (!reps)
		snprintf(b, sizeof(buf[0]), "0 (%zu failed)", fails);
	else if (fails)
		snprintf(b, sizeof(buf[0]), "%zu (%zu; %zu failed)", reps, items, fails);
	else
		snprintf(b, sizeof(buf[0]), "%zu (%zu)", reps, items);
	return b;
}

/* The source column of the first published row of a figure, up to a ": claim". */
const char *pub_source(const struct published *pub, const char *figure)
{
	static char buf[512];

	for (size_t i = 0; i < pub->n; i++)
		if (!strcmp(pub->rows[i].figure, figure)) {
			const char *s = pub->rows[i].source, *colon = strstr(s, ": ");

			snprintf(buf, sizeof(buf), "%.*s", (int)(colon ? colon - s : (ptrdiff_t)strlen(s)), s);
			return buf;
		}
	return "?";
}


double pub_value(const struct published *p, const char *figure, const char *metric,
			const char *setup, const char *size)
{
	const struct pub_row *r = published_find(p, figure, metric, setup, size);

	return r ? r->v : NAN;
}

void end_paragraph(struct strbuf *md)
{
	while (md->len && md->buf[md->len - 1] == ' ')
		md->buf[--md->len] = '\0';
	sb_add(md, "\n\n");
}
