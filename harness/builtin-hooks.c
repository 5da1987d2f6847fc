/*
 * The later stages' hooks for runs (runner.h's run_hooks): the data set
 * and the report, which the runner must not call by name (they come after
 * it). run, task and wait give them to the runner.
 */
#include "builtin.h"
#include "dataset/dataset.h"
#include "report/report.h"

/* A run's results get their report and figures at once (report.md links them). */
static int report_quietly(const char *dir, struct strbuf *summary)
{
	int ret = report_results(dir, NULL, true, summary);

	if (!ret && summary)
		sb_addf(summary, "  figures: %s/plots/ (linked from report.md)\n", dir);
	return ret ? ret : report_draw(dir, true);
}

const struct run_hooks cmd_run_hooks = {
	.export_trace = dataset_export_trace,
	.background_died = dataset_background_died,
	.report = report_quietly,
	.alloc_counts = dataset_alloc_counts,
};
