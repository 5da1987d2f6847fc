/*
 * cmabench pack RESULTS_DIR...: each set's raw run directories (runs/)
 * into runs.tar.xz beside its data/ and report (lib/pack.c: the same runs
 * give the same bytes), runs/ removed. Report, compare and reproduce read
 * the packed form (dataset/ds-packed.c). No VM.
 */
#include "builtin.h"
#include "lib/pack.h"

#include <stddef.h>
#include <stdio.h>

struct pack_opts {
	bool keep;
};

static const struct opt pack_opts_table[] = {
	OPT_FLAG('k', "keep", offsetof(struct pack_opts, keep), "keep runs/ after packing it"),
	OPT_END(),
};

const struct cmd_usage pack_usage = {
	"cmabench pack [options] RESULTS_DIR...",
	"Packs RESULTS_DIR/runs/ into RESULTS_DIR/runs.tar.xz (deterministic bytes)\n"
	"and removes runs/; report, compare and reproduce read the archive.",
	pack_opts_table,
};

int cmd_pack(int argc, char **argv, struct cmb_env *env)
{
	struct pack_opts o = { 0 };
	int first = options_parse(&pack_usage, &o, argc, argv), ret = 0;

	(void)env;
	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first >= argc) {
		options_usage(stderr, &pack_usage);
		return 2;
	}
	for (int i = first; i < argc; i++)
		ret |= pack_runs(argv[i], o.keep);
	return ret;
}
