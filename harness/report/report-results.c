/*
 * One results directory from its raw files to its data/ CSVs, plot data and
 * report.md: what 'cmabench report' does to each directory it is given and
 * what a run does when its results are complete.
 */
#include "dataset/dataset.h"
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int report_results(const char *dir, const char *baseline, bool quiet, struct strbuf *summary)
{
	struct dataset ds;
	struct strbuf errs = { 0 }, txt = { 0 }, md = { 0 };
	char *data, *path;
	size_t significant;
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
	significant = report_dataset(&ds, baseline, &txt, &md);
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
		size_t ok = 0, unfilled = 0, partial = 0;

		for (size_t i = 0; i < ds.nruns; i++) {
			ok += ds_run_ok(&ds.runs[i]);
			unfilled += ds_run_ok(&ds.runs[i]) && ds_run_not_filled(&ds.runs[i]);
			partial += ds.runs[i].partial;
		}
		sb_addf(summary, "%s: %zu set-ups, %zu runs (%zu failed", ds.run_id, ds.sections.n,
			ds.nruns, ds.nruns - ok);
		if (partial)
			sb_addf(summary, ", %zu of them partial, rows kept", partial);
		sb_addf(summary, ", %zu not filled), %zu significant differences\n  report: %s\n",
			unfilled, significant, path);
	}
	free(path);
	free(data);
	sb_free(&txt);
	sb_free(&md);
	sb_free(&errs);
	dataset_free(&ds);
	return ret;
}
