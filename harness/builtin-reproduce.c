/*
 * cmabench reproduce [--output FILE] [--published CSV] RESULTS_DIR...:
 * the published figures side by side with ours (docs/reproducing.md).
 * Reads results only; no VM. Same input, same bytes.
 */
#include "builtin.h"
#include "reproduce/reproduce.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reproduce_opts {
	const char *output, *published;
};

static const struct opt reproduce_opts_table[] = {
	OPT_STRING('o', "output", offsetof(struct reproduce_opts, output), "FILE",
		   "write the Markdown to FILE (default: standard output)"),
	OPT_STRING('p', "published", offsetof(struct reproduce_opts, published), "CSV",
		   "the published values (default: docs/published.csv of the source tree)"),
	OPT_END(),
};

const struct cmd_usage reproduce_usage = {
	"cmabench reproduce [options] RESULTS_DIR...",
	"Writes the published figures next to ours, computed from the results directories\n"
	"(scenarios rfc-v2, rfc-v2-background, paper-photo, lsfmm2025), as Markdown.",
	reproduce_opts_table,
};

int cmd_reproduce(int argc, char **argv, struct cmb_env *env)
{
	struct reproduce_opts o = { 0 };
	const char *output, *pubarg;
	struct published pub;
	struct repro_set *sets;
	struct strbuf errs = { 0 }, md = { 0 };
	char *pubpath;
	size_t nsets = 0;
	int first, ret = 0;

	first = options_parse(&reproduce_usage, &o, argc, argv);
	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first >= argc) {
		options_usage(stderr, &reproduce_usage);
		return 2;
	}
	output = o.output;
	pubarg = o.published;
	pubpath = pubarg ? xstrdup(pubarg) : env_src(env, "docs/published.csv");
	sb_init(&errs);
	if (published_load(&pub, pubpath, pubarg ? pubarg : "docs/published.csv", &errs)) {
		fputs(errs.buf, stderr);
		sb_free(&errs);
		published_free(&pub);
		free(pubpath);
		return 1;
	}
	sets = xcalloc(argc - first, sizeof(*sets));
	for (int i = first; i < argc; i++) {
		if (repro_set_load(&sets[nsets], argv[i], &errs)) {
			repro_set_free(&sets[nsets]);
			ret = 1;
			continue;
		}
		nsets++;
	}
	if (ret) {
		fputs(errs.buf, stderr);
		goto out;
	}
	sb_init(&md);
	reproduce_doc(&pub, sets, nsets, &md);
	if (!output)
		fputs(md.buf, stdout);
	else if (write_file(output, md.buf, md.len)) {
		err_msg("%s: %s", output, strerror(errno));
		ret = 1;
	}
out:
	for (size_t i = 0; i < nsets; i++)
		repro_set_free(&sets[i]);
	free(sets);
	sb_free(&md);
	sb_free(&errs);
	published_free(&pub);
	free(pubpath);
	return ret;
}
