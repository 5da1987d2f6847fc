/*
 * The figures of a results directory drawn from its plot data (the plot-*
 * files of data/, written by report-plots.c): each gnuplot script once, into
 * the directory's plots/, PNG and SVG. What `make plots` and the end of
 * `cmabench run` do; report.md links the figures beside their tables.
 */
#include "config.h"
#include "report/report.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *plot_dir;      /* the gnuplot scripts (plots/); NULL: not set */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void report_set_plot_dir(const char *dir)
{
	free(plot_dir);
	plot_dir = dir ? xstrdup(dir) : NULL;
}

/* Whether script draws from data dir d (the sampler's figures need its file). */
static bool has_data(const char *script, const char *data)
{
	char *p;
	bool ok;

	if (!strstr(script, "occupancy.gp") && !strstr(script, "hitrate.gp"))
		return true;
	p = path_join(data, "samples.csv");
	ok = path_exists(p);
	free(p);
	return ok;
}

int report_draw(const char *dir, bool quiet)
{
	char *data = path_join(dir, "data"), *out = path_join(dir, "plots");
	struct strlist scripts = { 0 };
	DIR *d = plot_dir ? opendir(plot_dir) : NULL;
	struct dirent *e;
	int ret = 0;

	if (!d || !have_program(CMB_GNUPLOT)) {
		if (!quiet)
			err_msg("%s: no figures drawn (%s)", dir,
				d ? "gnuplot is not installed" : "no plots/ directory");
		goto out;
	}
	while ((e = readdir(d)))
		if (strlen(e->d_name) > 3 && !strcmp(e->d_name + strlen(e->d_name) - 3, ".gp"))
			sl_addf(&scripts, "%s/%s", plot_dir, e->d_name);
	qsort(scripts.v, scripts.n, sizeof(*scripts.v), by_name);
	mkdir_p(out);
	for (size_t i = 0; i < scripts.n; i++) {
		char *expr = xasprintf("datadir='%s'; outdir='%s'", data, out);
		char *argv[] = { CMB_GNUPLOT, "-e", expr, scripts.v[i], NULL };
		int st;
		char *msg;

		if (!has_data(scripts.v[i], data)) {
			free(expr);
			continue;
		}
		msg = cmd_capture(argv, &st, true);
		if (st) {
			err_msg("%s: %s failed: %s", dir, scripts.v[i], msg ? rtrim(msg) : "");
			ret = 1;
		}
		free(msg);
		free(expr);
	}
	if (!quiet)
		printf("figures: %s/ (%zu scripts)\n", out, scripts.n);
out:
	if (d)
		closedir(d);
	sl_free(&scripts);
	free(data);
	free(out);
	return ret;
}

int report_finish(const char *dir, struct strbuf *summary)
{
	if (report_results(dir, NULL, true, summary))
		return 1;
	if (!report_draw(dir, true) && summary)
		sb_addf(summary, "  figures: %s/plots/ (linked from report.md)\n", dir);
	return 0;
}
