/*
 * cmabench report RESULTS_DIR...: reads each results directory, writes its
 * data/ (alloc.csv, fio.csv, counters.csv, problems.txt, the plot inputs)
 * and report.md, and prints the comparison of its sections. No VM.
 */
#include "builtin.h"
#include "dataset/dataset.h"
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct report_opts {
	const char *baseline;
	bool quiet, plots;
};

static const struct opt report_opts_table[] = {
	OPT_STRING('b', "baseline", offsetof(struct report_opts, baseline), "SECTION",
		   "the column the others are compared with (default: the first that allocated)"),
	OPT_FLAG('q', "quiet", offsetof(struct report_opts, quiet), "write the files, print nothing"),
	OPT_FLAG(0, "plots", offsetof(struct report_opts, plots),
		 "draw the figures too (plots/*.png and *.svg, gnuplot; what make plots does)"),
	OPT_END(),
};

const struct cmd_usage report_usage = {
	"cmabench report [options] RESULTS_DIR...",
	"Writes RESULTS_DIR/data/*.csv and RESULTS_DIR/report.md and prints the\n"
	"sections side by side.",
	report_opts_table,
};

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
	for (int i = first; i < argc; i++) {
		ret |= report_results(argv[i], o.baseline, o.quiet, NULL);
		if (o.plots)
			ret |= report_draw(argv[i], o.quiet);
	}
	return ret;
}
