/*
 * cmabench report RESULTS_DIR...: reads each results directory, writes its
 * data/ (alloc.csv, fio.csv, counters.csv, problems.txt, the plot inputs)
 * and report.md, and prints the comparison of its sections. No VM.
 */
#include "builtin.h"
#include "dataset.h"
#include "report.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: cmabench report [--baseline SECTION] [--quiet] RESULTS_DIR...\n"
		"Writes RESULTS_DIR/data/*.csv and RESULTS_DIR/report.md and prints the\n"
		"sections side by side (the first section, or --baseline, is the baseline).\n");
}

int report_results(const char *dir, const char *baseline, bool quiet, struct strbuf *summary)
{
	struct dataset ds;
	struct strbuf errs = { 0 }, txt = { 0 }, md = { 0 };
	char *data, *path;
	int ret = 0;

	if (dataset_load(&ds, dir, &errs)) {
		fputs(errs.buf, stderr);
		sb_free(&errs);
		dataset_free(&ds);
		return 1;
	}
	if (baseline && !sl_has(&ds.sections, baseline))
		err_msg("%s: no section '%s'; the first one is the baseline", dir, baseline);
	data = path_join(dir, "data");
	if (dataset_write_csv(&ds, data) || report_plot_data(&ds, data))
		ret = 1;
	sb_init(&txt);
	sb_init(&md);
	report_dataset(&ds, baseline, &txt, &md);
	path = path_join(dir, "report.md");
	if (write_file(path, md.buf, md.len)) {
		err_msg("%s: %s", path, strerror(errno));
		ret = 1;
	}
	if (!quiet)
		fputs(txt.buf, stdout);
	for (size_t i = 0; i < ds.nruns; i++)
		for (size_t k = 0; k < ds.runs[i].problems.n; k++)
			err_msg("%s: %s", ds.run_id, ds.runs[i].problems.v[k]);
	if (summary) {
		size_t ok = 0, unfilled = 0;

		for (size_t i = 0; i < ds.nruns; i++) {
			ok += ds_run_ok(&ds.runs[i]);
			unfilled += ds_run_ok(&ds.runs[i]) && ds_run_not_filled(&ds.runs[i]);
		}
		sb_addf(summary, "%s: %zu set-ups, %zu runs (%zu failed, %zu not filled), "
			"%zu significant differences\n  report: %s\n", ds.run_id, ds.sections.n,
			ds.nruns, ds.nruns - ok, unfilled, report_count_significant(md.buf), path);
	}
	free(path);
	free(data);
	sb_free(&txt);
	sb_free(&md);
	sb_free(&errs);
	dataset_free(&ds);
	return ret;
}

int cmd_report(int argc, char **argv, struct cmb_env *env)
{
	static const struct option opts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *baseline = NULL;
	bool quiet = false;
	int c, ret = 0;

	(void)env;
	optind = 1;
	while ((c = getopt_long(argc, argv, "b:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			baseline = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++)
		ret |= report_results(argv[i], baseline, quiet, NULL);
	return ret;
}
