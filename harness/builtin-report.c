/*
 * cmabench report RESULTS_DIR...: reads each results directory, writes its
 * data/ (alloc.csv, fio.csv, counters.csv, problems.txt, the plot inputs)
 * and report.md, and prints the comparison of its sections. No VM.
 */
#include "builtin.h"
#include "dataset.h"
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct report_opts {
	const char *baseline;
	bool quiet;
};

static const struct opt report_opts_table[] = {
	OPT_STRING('b', "baseline", offsetof(struct report_opts, baseline), "SECTION",
		   "the column the others are compared with (default: the first that allocated)"),
	OPT_FLAG('q', "quiet", offsetof(struct report_opts, quiet), "write the files, print nothing"),
	OPT_END(),
};

const struct cmd_usage report_usage = {
	"cmabench report [options] RESULTS_DIR...",
	"Writes RESULTS_DIR/data/*.csv and RESULTS_DIR/report.md and prints the\n"
	"sections side by side.",
	report_opts_table,
};

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
	struct report_opts o = { 0 };
	int first = options_parse(&report_usage, &o, argc, argv), ret = 0;

	(void)env;
	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first >= argc) {
		options_usage(stderr, &report_usage);
		return 2;
	}
	for (int i = first; i < argc; i++)
		ret |= report_results(argv[i], o.baseline, o.quiet, NULL);
	return ret;
}
