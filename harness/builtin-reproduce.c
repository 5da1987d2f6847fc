/*
 * cmabench reproduce [--output FILE] [--published CSV] RESULTS_DIR...:
 * the published figures side by side with ours (docs/reproducing.md).
 * Reads results only; no VM. Same input, same bytes.
 */
#include "builtin.h"
#include "reproduce.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: cmabench reproduce [--output FILE] [--published CSV] RESULTS_DIR...\n"
		"Writes the published figures next to ours, computed from the results\n"
		"directories (scenarios rfc-v2, rfc-v2-background, paper-photo, lsfmm2025),\n"
		"as Markdown to FILE (default: standard output). The published values come\n"
		"from CSV (default: docs/published.csv of the source tree).\n");
}

int cmd_reproduce(int argc, char **argv, struct cmb_env *env)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "published", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *output = NULL, *pubarg = NULL;
	struct published pub;
	struct repro_set *sets;
	struct strbuf errs = { 0 }, md = { 0 };
	char *pubpath;
	size_t nsets = 0;
	int c, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'p':
			pubarg = optarg;
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
	pubpath = pubarg ? xstrdup(pubarg) : env_src(env, "docs/published.csv");
	sb_init(&errs);
	if (published_load(&pub, pubpath, pubarg ? pubarg : "docs/published.csv", &errs)) {
		fputs(errs.buf, stderr);
		sb_free(&errs);
		published_free(&pub);
		free(pubpath);
		return 1;
	}
	sets = xcalloc(argc - optind, sizeof(*sets));
	for (int i = optind; i < argc; i++) {
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
