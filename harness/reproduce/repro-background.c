/* Figure 2: the GCMA RFC v2 background-job table (scenario rfc-v2-background). */
#include "reproduce/repro-common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct jobtime {
	size_t pick;
	char *name;
	double v[4];                /* user, sys, elapsed (s), cpu % */
};

enum { JT_USER, JT_SYS, JT_ELAPSED, JT_CPU, JT_N };
static const char *const jt_metric[JT_N] = { "user", "sys", "elapsed", "cpu" };
static const char *const jt_label[JT_N] = { "user (s)", "sys (s)", "elapsed (s)",
					    "cpu % ((user + sys) / elapsed)" };

/* The data set's timed jobs of the picked runs that ended ok. */
static size_t load_jobtimes(const struct picks *ps, struct jobtime **out, struct strlist *notes)
{
	struct jobtime *jt = NULL;
	size_t n = 0;

	for (size_t i = 0; i < ps->n; i++) {
		const struct ds_run *r = prun(&ps->v[i]);
		const struct dataset *ds = &ps->v[i].set->ds;
		size_t rows = 0;

		if (!ds_run_ok(r))
			continue;
		for (size_t k = 0; k < ds->njobs; k++) {
			const struct ds_job *j = &ds->jobs[k];

			if (j->run != ps->v[i].run)
				continue;
			if (j->elapsed_s <= 0) {
				sl_addf(notes, "`%s/runs/%s/jobtime.csv`: job `%s` has no elapsed time: "
					"not used", ps->v[i].set->label, r->name, j->name);
				continue;
			}
			jt = xrealloc(jt, (n + 1) * sizeof(*jt));
			jt[n++] = (struct jobtime){ i, xstrdup(j->name),
				{ j->user_s, j->sys_s, j->elapsed_s,
				  (j->user_s + j->sys_s) / j->elapsed_s * 100 } };
			rows++;
		}
		if (!rows)
			sl_addf(notes, "`%s/runs/%s/jobtime.csv` is missing or holds no job: that run "
				"counts for no job", ps->v[i].set->label, r->name);
	}
	*out = jt;
	return n;
}

/* A metric of a job over the repetitions of a section. */
static size_t jt_values(const struct picks *ps, const struct jobtime *jt, size_t n,
			const char *job, const char *section, int metric, double *v)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(jt[i].name, job) && !strcmp(prun(&ps->v[jt[i].pick])->section, section))
			v[k++] = jt[i].v[metric];
	return k;
}

/*
 * Whether some sections' runs filled their area while others (none: no
 * area) did not: the filler's load then ran beside only part of the jobs.
 */
static void fill_load(struct strbuf *md, const struct picks *ps)
{
	struct strlist filled = { 0 }, idle = { 0 };

	for (size_t i = 0; i < ps->n; i++) {
		const struct ds_run *r = prun(&ps->v[i]);

		if (!pick_ok(&ps->v[i], NULL))
			continue;
		if (r->fill_status && !sl_has(&filled, r->section))
			sl_add(&filled, r->section);
		else if (!r->fill_status && !sl_has(&idle, r->section))
			sl_add(&idle, r->section);
	}
	if (filled.n && idle.n) {
		sb_add(md, "**The fill's load ran beside only some of the jobs**: the area was filled "
		       "(two readers streaming a file, anonymous memory) under");
		for (size_t i = 0; i < filled.n; i++)
			sb_addf(md, "%s `%s`", i ? "," : "", filled.v[i]);
		sb_add(md, " but not under");
		for (size_t i = 0; i < idle.n; i++)
			sb_addf(md, "%s `%s`", i ? "," : "", idle.v[i]);
		sb_add(md, " (no area), so the overheads above include that load, not only the "
		       "allocations. ");
	}
	sl_free(&filled);
	sl_free(&idle);
}

/*
 * What keeping each area full cost beside the job (fill-keeper.csv): the
 * refill reads after requests took part of an area back are load the job
 * shared its CPU with, which the published set-up (its build's own pages as
 * tenants) did not have in this form.
 */
static void keeper_load(struct strbuf *md, const struct picks *ps)
{
	for (size_t s = 0; ps->sections[s]; s++) {
		double *mb = xcalloc(ps->n + 1, sizeof(*mb)), *pct = xcalloc(ps->n + 1, sizeof(*pct));
		size_t n = 0;

		for (size_t i = 0; i < ps->n; i++) {
			const struct ds_run *r = prun(&ps->v[i]);

			/* a set-up without an area ("load") has nothing to keep */
			if (!pick_ok(&ps->v[i], ps->sections[s]) || isnan(r->keep_read_mb) ||
			    !(r->keep_seconds > 0) || !r->fill_status ||
			    !strcmp(r->fill_status, "load"))
				continue;
			mb[n] = r->keep_read_mb;
			pct[n++] = ds_keeper_reading_pct(r);
		}
		if (n) {
			struct over m = over_reps(mb, n), p = over_reps(pct, n);

			sb_addf(md, "Under %s the filler kept the area full by reading a median of "
				"%s MiB per run (%s), reading %s%% of the time (%s). ", ps->sections[s],
				repro_num(m.med), repro_range(m), repro_num(p.med), repro_range(p));
		}
		free(mb);
		free(pct);
	}
}

/*
 * How many allocation requests the job met per run, set-up by set-up: the
 * planned ones that began before the job ended (ds_alloc_after_job); the
 * ones after it met an idle guest, and those cut at their deadline, counted.
 */
static void requests_met(struct strbuf *md, const struct picks *ps)
{
	for (size_t s = 0; ps->sections[s]; s++) {
		double *v = xcalloc(ps->n + 1, sizeof(*v));
		size_t n = 0, all = 0, after = 0, cut = 0;
		struct over o;

		for (size_t i = 0; i < ps->n; i++) {
			const struct dataset *ds = &ps->v[i].set->ds;
			size_t k = 0;

			if (!pick_ok(&ps->v[i], ps->sections[s]))
				continue;
			for (size_t a = 0; a < ds->nallocs; a++) {
				const struct ds_alloc *x = &ds->allocs[a];

				if (x->run != ps->v[i].run || x->tag[0])
					continue;
				all++;
				cut += x->timed_out != 0;
				if (ds_alloc_after_job(ds, x))
					after++;
				else
					k++;
			}
			v[n++] = (double)k;
		}
		o = over_reps(v, n);
		if (n && all)
			sb_addf(md, "Under %s the job met a median of %s allocation requests per run "
				"(%s over %zu runs; those that began before it ended); of its %zu "
				"requests, %zu began after it ended and %zu hit their deadline. ",
				ps->sections[s], repro_num(o.med), repro_range(o), n, all, after, cut);
		free(v);
	}
}

/*
 * Whether every allocating set-up served its whole plan while its job ran
 * (the comparison of elapsed times is then over the same work): each run's
 * margin, the job's end minus the last request's end. Returns the runs
 * whose plan outlasted their job.
 */
static size_t plan_inside_job(struct strbuf *md, const struct picks *ps)
{
	size_t outlasted = 0, dated = 0;
	double closest = NAN;
	const char *closest_run = NULL;
	struct strlist late = { 0 };

	for (size_t i = 0; i < ps->n; i++) {
		const struct ds_run *r = prun(&ps->v[i]);
		double m;

		if (!pick_ok(&ps->v[i], NULL))
			continue;
		m = ds_plan_margin_s(&ps->v[i].set->ds, ps->v[i].run);
		if (isnan(m))
			continue;
		dated++;
		if (m < 0) {
			outlasted++;
			sl_addf(&late, "`%s` (by %.1f s)", r->name, -m);
		}
		if (isnan(closest) || m < closest) {
			closest = m;
			closest_run = r->name;
		}
	}
	if (!dated) {
		sl_free(&late);
		return 0;
	}
	if (!outlasted) {
		sb_addf(md, "The same work: in each of the %zu runs with a plan, the plan's last "
			"request ended before the job did (closest: `%s`, %.1f s before). ", dated,
			closest_run, closest);
	} else {
		sb_addf(md, "**Not the same work**: in %zu of the %zu runs with a plan the plan "
			"outlasted the job:", outlasted, dated);
		for (size_t i = 0; i < late.n; i++)
			sb_addf(md, "%s %s", i ? "," : "", late.v[i]);
		sb_add(md, "; those jobs served only part of the plan, so their elapsed times "
		       "count less allocation work than the others'. ");
	}
	sl_free(&late);
	return outlasted;
}

/* Figure 2's inputs, read once for its tables. */
struct bg_fig {
	const struct published *pub;
	const char *const *sections;    /* the set-ups we run */
	struct picks ps;
	struct jobtime *jt;
	size_t njt;
	struct strlist jobs, setups, notes;
	double *v, *w;                  /* scratch: a metric over repetitions, their overheads */
};

/* The runs, their timed jobs; the set-ups: ours, then the published ones we do not run. */
static void bg_load(struct bg_fig *b, const struct repro_ctx *ctx, const char *const *sections)
{
	const struct published *pub = ctx->pub;

	b->pub = pub;
	b->sections = sections;
	picks_select(&b->ps, ctx->sets, ctx->nsets, "rfc-v2-background", sections);
	b->njt = load_jobtimes(&b->ps, &b->jt, &b->notes);
	for (size_t i = 0; i < b->njt; i++)
		if (!sl_has(&b->jobs, b->jt[i].name))
			sl_add(&b->jobs, b->jt[i].name);
	for (size_t i = 0; sections[i]; i++)
		sl_add(&b->setups, sections[i]);
	for (size_t i = 0; i < pub->n; i++)
		if (!strcmp(pub->rows[i].figure, FIG_BG) && !strchr(pub->rows[i].setup, '/') &&
		    !sl_has(&b->setups, pub->rows[i].setup))
			sl_add(&b->setups, pub->rows[i].setup);
	b->v = xcalloc(b->njt + 1, sizeof(double));
	b->w = xcalloc(b->njt + 1, sizeof(double));
}

static void bg_free(struct bg_fig *b)
{
	free(b->v);
	free(b->w);
	sl_free(&b->setups);
	sl_free(&b->jobs);
	sl_free(&b->notes);
	for (size_t i = 0; i < b->njt; i++)
		free(b->jt[i].name);
	free(b->jt);
	free(b->ps.v);
}

/*
 * The figure's claims (published.csv rows with a band, set-up "B/A"): the
 * elapsed time of B over A's, tested on the first job's per-repetition
 * elapsed times, the ones the tables show, as one family.
 */
static void background_verdict(struct strbuf *md, const struct bg_fig *b, const char *job)
{
	const struct published *pub = b->pub;
	struct claim *c = xcalloc(pub->n + 1, sizeof(*c));
	double *va = xcalloc(b->njt + 1, sizeof(*va)), *vb = xcalloc(b->njt + 1, sizeof(*vb));
	size_t n = 0;

	for (size_t i = 0; i < pub->n; i++) {
		const struct pub_row *r = &pub->rows[i];
		const char *slash = strchr(r->setup, '/');
		char num[64];
		size_t na, nb;

		if (strcmp(r->figure, FIG_BG) || r->band.kind == BAND_NONE || !slash)
			continue;
		snprintf(num, sizeof(num), "%.*s", (int)(slash - r->setup), r->setup);
		na = jt_values(&b->ps, b->jt, b->njt, job, slash + 1, JT_ELAPSED, va);
		nb = jt_values(&b->ps, b->jt, b->njt, job, num, JT_ELAPSED, vb);
		c[n].row = r;
		snprintf(c[n].label, sizeof(c[n].label), "job `%s` elapsed, %s / %s%s", job, num,
			 slash + 1, r->band.sc == SC_OVERHEAD ? " - 1" : "");
		ours_two(&c[n++].ours, va, na, vb, nb, r->band.sc);
	}
	sb_add(md, "\n");
	plan_inside_job(md, &b->ps);
	sb_add(md, "What the verdict tests: each claim's band B comes from the tolerance column "
	       "of `docs/published.csv`; ours is the Hodges-Lehmann ratio of the per-repetition "
	       "elapsed times the first table shows, with its exact 95% interval (q over this "
	       "table): the median of every run-against-run ratio, not the overhead table's "
	       "median over `none`'s median, so the two estimates can part.\n\n");
	claims_adjust(c, n);
	claims_table(md, c, n);
	claims_verdict(md, c, n, NULL);
	md->len -= 1;   /* the verdict's blank line: the next paragraph adds its own */
	md->buf[md->len] = '\0';
	free(va);
	free(vb);
	free(c);
}

/* One row of the seconds table: a job's metric under a set-up, published beside ours. */
static void jobtime_row(struct strbuf *md, const struct bg_fig *b, const char *job,
			const char *setup, int m)
{
	const struct pub_row *pr = published_find(b->pub, FIG_BG, jt_metric[m], setup, NULL);
	size_t k = jt_values(&b->ps, b->jt, b->njt, job, setup, m, b->v);
	struct over o = over_reps(b->v, k);

	if (!pr && !k)
		return;
	sb_addf(md, "| %s | %s | %s | %s | %s | %s | %s |\n", job, setup, jt_label[m],
		pr ? pr->value : "-",
		k ? repro_num(o.med) : in_list(b->sections, setup) ? "no results" : "not run",
		repro_range(o), k ? repro_zu(k) : "-");
}

static void jobtime_table(struct strbuf *md, const struct bg_fig *b)
{
	sb_add(md, "The background job's user, sys and elapsed seconds as the guest timed them "
	       "(jobtime.csv), and its CPU share; ours is the median over repetitions, the spread "
	       "the lowest" DASH "highest repetition, n the repetitions. The published job is a "
	       "different, far longer build, so the seconds are not comparable; the overhead "
	       "relative to `none` is.\n\n"
	       "| job | set-up | metric | published | ours | ours spread | n |\n"
	       "|---|---|---|---:|---:|---:|---:|\n");
	for (size_t j = 0; j < b->jobs.n; j++)
		for (size_t s = 0; s < b->setups.n; s++)
			for (int m = 0; m < JT_N; m++)
				jobtime_row(md, b, b->jobs.v[j], b->setups.v[s], m);
	sb_add(md, "\n");
}

/*
 * One overhead row: a job's metric under a set-up over base (none's
 * median), published beside ours. CMA's and GCMA's elapsed go into oh.
 */
static void overhead_row(struct strbuf *md, const struct bg_fig *b, const char *job,
			 const char *setup, int m, double base, double *oh)
{
	double pn = pub_value(b->pub, FIG_BG, jt_metric[m], "none", NULL);
	double psv = pub_value(b->pub, FIG_BG, jt_metric[m], setup, NULL);
	size_t k = jt_values(&b->ps, b->jt, b->njt, job, setup, m, b->v);
	struct over o;

	for (size_t i = 0; i < k; i++)
		b->w[i] = (repro_ratio(b->v[i], base) - 1) * 100;
	o = over_reps(b->w, isnan(base) ? 0 : k);
	if (isnan(psv) && !o.n)
		return;
	if (m == JT_ELAPSED && o.n && !strcmp(setup, "cma"))
		oh[0] = o.med;
	if (m == JT_ELAPSED && o.n && !strcmp(setup, "gcma"))
		oh[1] = o.med;
	sb_addf(md, "| %s | %s | %s | %s | %s | ", job, setup, jt_label[m],
		repro_pct((repro_ratio(psv, pn) - 1) * 100),
		o.n ? repro_pct(o.med) : !in_list(b->sections, setup) ? "not run" : "no results");
	if (o.n)
		sb_addf(md, "%s" DASH "%s | %zu |\n", repro_pct(o.lo), repro_pct(o.hi), o.n);
	else
		sb_add(md, "- | - |\n");
}

/*
 * A job's overhead rows, every set-up but none at every metric but the
 * CPU share. Returns how much none's elapsed time varies between
 * repetitions (%), NAN without none.
 */
static double overhead_rows(struct strbuf *md, const struct bg_fig *b, const char *job,
			    double *oh)
{
	double base[JT_N], noise = NAN;

	for (int m = 0; m < JT_N; m++) {
		size_t k = jt_values(&b->ps, b->jt, b->njt, job, "none", m, b->v);
		struct over o = over_reps(b->v, k);

		base[m] = k ? o.med : NAN;
		if (m == JT_ELAPSED && k)
			noise = (o.hi - o.lo) / o.med * 100;
	}
	for (size_t s = 0; s < b->setups.n; s++) {
		if (!strcmp(b->setups.v[s], "none"))
			continue;
		for (int m = 0; m < JT_CPU; m++)
			overhead_row(md, b, job, b->setups.v[s], m, base[m], oh);
	}
	return noise;
}

/* The published elapsed-time overheads, and which of CMA and GCMA costs the job less. */
static void published_overhead(struct strbuf *md, const struct published *pub)
{
	double pc = (repro_ratio(pub_value(pub, FIG_BG, "elapsed", "cma", NULL),
				 pub_value(pub, FIG_BG, "elapsed", "none", NULL)) - 1) * 100;
	double pg = (repro_ratio(pub_value(pub, FIG_BG, "elapsed", "gcma", NULL),
				 pub_value(pub, FIG_BG, "elapsed", "none", NULL)) - 1) * 100;

	sb_addf(md, "\nPublished: the elapsed time grows %s with CMA and %s with GCMA, "
		"so GCMA %s the background job less than CMA does.\n", repro_pct(pc), repro_pct(pg),
		pg < pc ? "costs" : "does not cost");
}

/*
 * Ours for one job: CMA's and GCMA's elapsed overheads oh against how much
 * none alone varies (noise); false when the job lacks either overhead.
 */
static bool our_overhead(struct strbuf *md, const char *job, const double *oh, double noise)
{
	if (isnan(oh[0]) || isnan(oh[1])) {
		if (strcmp(job, "-"))
			sb_addf(md, "\nOurs (job `%s`): no overhead of both cma and gcma to "
				"compare.\n", job);
		return false;
	}
	sb_addf(md, "\nOurs (job `%s`): the elapsed time grows %s with CMA and %s with GCMA; "
		"`none` alone varies by %s%% (highest " DASH " lowest over median) between "
		"repetitions.", job, repro_pct(oh[0]), repro_pct(oh[1]), repro_num(noise));
	sb_addf(md, " GCMA's median overhead is %s CMA's.", oh[1] < oh[0] ? "below" : "not below");
	if (fabs(oh[0] - oh[1]) < noise)
		sb_addf(md, " The difference between CMA and GCMA (%s points) is smaller than "
			"that variation, so it is within the noise.",
			repro_num(fabs(oh[0] - oh[1])));
	sb_add(md, "\n");
	return true;
}

/* The overheads relative to none, each job's table then what it says; the first job's verdict. */
static void overhead_table(struct strbuf *md, const struct bg_fig *b)
{
	sb_add(md, "### Overhead relative to `none`\n\n"
	       "Published: set-up / none " DASH " 1 of the published averages. Ours: each "
	       "repetition's value over the median of `none`'s repetitions, " DASH " 1; the "
	       "median and spread of those.\n\n"
	       "| job | set-up | metric | published | ours | ours spread | n |\n"
	       "|---|---|---|---:|---:|---:|---:|\n");
	for (size_t j = 0; j < b->jobs.n; j++) {
		double oh[2] = { NAN, NAN };
		double noise = overhead_rows(md, b, b->jobs.v[j], oh);

		if (j == 0)
			published_overhead(md, b->pub);
		our_overhead(md, b->jobs.v[j], oh, noise);
		if (j == 0)
			background_verdict(md, b, b->jobs.v[j]);
	}
	sb_add(md, "\n");
}

/* Why ours differs from the published job, and where ours comes from. */
static void background_why(struct strbuf *md, const struct bg_fig *b)
{
	sb_addf(md, "Why they differ: the published job is %s; ours is the guest's own job "
		"on ", pub_source(b->pub, FIG_BG));
	describe_env(md, &b->ps);
	sb_add(md, ". ");
	requests_met(md, &b->ps);
	fill_load(md, &b->ps);
	keeper_load(md, &b->ps);
	area_facts(md, &b->ps, "cma", "gcma");
	end_paragraph(md);
	sources(md, &b->ps, "runs/<run>/jobtime.csv (`name`, `elapsed_s`, `user_s`, `sys_s`), "
		"as in the data/jobs.csv that `cmabench report` writes", &b->notes);
}

static void figure_background(struct strbuf *md, struct repro_ctx *ctx)
{
	static const char *const sections[] = { "none", "cma", "gcma", NULL };
	struct bg_fig b = { 0 };

	bg_load(&b, ctx, sections);
	sb_add(md, "## 2. GCMA RFC v2: cost to a background job\n\n");
	if (!b.ps.n)
		no_results(md, "rfc-v2-background", sections);
	else if (!b.jobs.n)
		sb_add(md, "**No results**: no run of `rfc-v2-background` has a readable "
		       "jobtime.csv.\n\n");
	if (!b.jobs.n)
		sl_add(&b.jobs, "-");
	jobtime_table(md, &b);
	overhead_table(md, &b);
	if (b.ps.n)
		background_why(md, &b);
	bg_free(&b);
}


const struct repro_figure repro_fig_background = { "GCMA RFC v2: cost to a background job",
						    "rfc-v2-background", figure_background };
