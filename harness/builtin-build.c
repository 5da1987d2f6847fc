/* cmabench build [VARIANT...]: build (or reuse) kernels; default all. */
#include "builtin.h"
#include "kbuild.h"
#include "signals.h"

#include <string.h>

int cmd_build(int argc, char **argv, struct cmb_env *env)
{
	int failed = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fprintf(stderr, "usage: cmabench build [VARIANT...]\nvariants:\n");
			for (unsigned int v = 0; v < kvariants_count; v++)
				fprintf(stderr, "  %-8s %s\n", kvariants[v].name, kvariants[v].help);
			return 0;
		}
		if (!kvariant_find(argv[i])) {
			err_msg("build: unknown kernel variant '%s' (try --help)", argv[i]);
			return 2;
		}
	}
	for (unsigned int v = 0; v < kvariants_count && !interrupted(); v++) {
		struct kernel k;
		bool wanted = argc < 2;

		for (int i = 1; i < argc; i++)
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
