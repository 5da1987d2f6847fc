/*
 * cmabench compare RUN_A RUN_B: the sections both results directories
 * have, A as the baseline, B beside it; mmtests compare-kernels style.
 */
#include "builtin.h"
#include "dataset/dataset.h"
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct compare_opts {
	const char *output;
	double equivalence;         /* margin in %; 0: no equivalence test */
	long min_runs;
};

static const struct opt compare_opts_table[] = {
	OPT_STRING('o', "output", offsetof(struct compare_opts, output), "FILE",
		   "also write the comparison as Markdown to FILE"),
	OPT_DOUBLE(0, "equivalence", offsetof(struct compare_opts, equivalence), "PCT",
		   "also test whether B equals A within +-PCT% on the primaries' metrics "
		   "(e.g. --jobs 1 against --jobs 2); exit 3 if not shown equivalent"),
	OPT_LONG(0, "min-runs", offsetof(struct compare_opts, min_runs), "N",
		 "runs per arm an equivalence needs (default 8)"),
	OPT_END(),
};

const struct cmd_usage compare_usage = {
	"cmabench compare [options] RUN_A RUN_B",
	"Compares the sections two results directories share, section by section\n"
	"(A is the baseline), and prints the tables.",
	compare_opts_table,
};

int cmd_compare(int argc, char **argv, struct cmb_env *env)
{
	struct compare_opts o = { 0 };
	const char *output;
	struct dataset ds[2];
	struct strbuf errs = { 0 }, txt = { 0 }, md = { 0 };
	size_t matched = 0, nsecs = 0;
	struct report_col **secs = NULL;
	struct strlist labels = { 0 };
	struct tables ts = { 0 };
	int first, ret = 0;

	(void)env;
	first = options_parse(&compare_usage, &o, argc, argv);
	if (first < 0)
		return first == -1 ? 0 : 2;
	if (argc - first != 2) {
		options_usage(stderr, &compare_usage);
		return 2;
	}
	output = o.output;
	sb_init(&errs);
	if (dataset_load(&ds[0], argv[first], &errs) | dataset_load(&ds[1], argv[first + 1], &errs)) {
		fputs(errs.buf, stderr);
		ret = 1;
		goto out;
	}
	sb_init(&txt);
	sb_init(&md);
	ts.no_figures = true;
	sb_addf(&txt, "cmabench compare\n  A: %s (%s)\n  B: %s (%s)\n\n", ds[0].run_id, argv[first],
		ds[1].run_id, argv[first + 1]);
	sb_addf(&md, "# cmabench compare\n\n- A: `%s`\n- B: `%s`\n\nEach set's figures are "
		"in its own `plots/`, linked from its report.md.\n\n", ds[0].run_id, ds[1].run_id);
	for (size_t s = 0; s < ds[0].sections.n; s++) {
		const char *sec = ds[0].sections.v[s];
		struct report_col *cols;
		char *heading;

		if (!sl_has(&ds[1].sections, sec)) {
			sb_addf(&txt, "section %s: only in A\n\n", sec);
			sb_addf(&md, "Section `%s`: only in A.\n\n", sec);
			continue;
		}
		matched++;
		/* Tables point at their columns until they are rendered. */
		cols = xcalloc(2, sizeof(*cols));
		sl_addf(&labels, "A:%s", sec);
		sl_addf(&labels, "B:%s", sec);
		cols[0] = (struct report_col){ labels.v[labels.n - 2], &ds[0], sec };
		cols[1] = (struct report_col){ labels.v[labels.n - 1], &ds[1], sec };
		secs = xrealloc(secs, (nsecs + 1) * sizeof(*secs));
		secs[nsecs++] = cols;
		heading = xasprintf("section %s", sec);
		tables_heading(&ts, heading);
		free(heading);
		report_tables(cols, 2, &ts);
	}
	if (o.equivalence > 0) {
		bool eq;

		report_equivalence(&ds[0], &ds[1], o.equivalence / 100,
				   o.min_runs > 0 ? (size_t)o.min_runs : 8, &txt, &md, &eq);
		if (!eq)
			ret = 3;
	}
	/* One false-discovery-rate control over every section's tests. */
	tables_render(&ts, &txt, &md);
	tables_free(&ts);
	for (size_t i = 0; i < nsecs; i++)
		free(secs[i]);
	free(secs);
	sl_free(&labels);
	for (size_t s = 0; s < ds[1].sections.n; s++)
		if (!sl_has(&ds[0].sections, ds[1].sections.v[s])) {
			sb_addf(&txt, "section %s: only in B\n\n", ds[1].sections.v[s]);
			sb_addf(&md, "Section `%s`: only in B.\n\n", ds[1].sections.v[s]);
		}
	report_problems(&ds[0], &txt, &md);
	report_problems(&ds[1], &txt, &md);
	fputs(txt.buf, stdout);
	if (output && write_file(output, md.buf, md.len)) {
		err_msg("%s: %s", output, strerror(errno));
		ret = 1;
	}
	if (!matched) {
		err_msg("no section in common");
		ret = 1;
	}
out:
	sb_free(&txt);
	sb_free(&md);
	sb_free(&errs);
	dataset_free(&ds[0]);
	dataset_free(&ds[1]);
	return ret;
}
