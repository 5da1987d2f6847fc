/* cmabench build [VARIANT...]: build (or reuse) kernels; default all. */
#include "builtin.h"
#include "kbuild.h"
#include "signals.h"

#include <string.h>

static const struct opt build_opts_table[] = {
	OPT_END(),
};

const struct cmd_usage build_usage = {
	"cmabench build [VARIANT...]",
	"Builds (or reuses) the kernel variants, all of them by default (the variants\n"
	"are the values of the scenario key kernel: 'cmabench help scenario').",
	build_opts_table,
};

int cmd_build(int argc, char **argv, struct cmb_env *env)
{
	int failed = 0, first = options_parse(&build_usage, NULL, argc, argv);

	if (first < 0)
		return first == -1 ? 0 : 2;
	for (int i = first; i < argc; i++)
		if (!kvariant_find(argv[i])) {
			err_msg("build: unknown kernel variant '%s' (try --help)", argv[i]);
			return 2;
		}
	for (unsigned int v = 0; v < kvariants_count && !interrupted(); v++) {
		struct kernel k;
		bool wanted = first >= argc;

		for (int i = first; i < argc; i++)
			wanted |= !strcmp(argv[i], kvariants[v].name);
		if (!wanted)
			continue;
		if (kbuild_get(env, &kvariants[v], &k))
			failed++;
		else
			printf("[kernel %s] %s\n", kvariants[v].name, k.bzimage);
		kernel_free(&k);
	}
	return interrupted() ? 130 : failed ? 1 : 0;
}
