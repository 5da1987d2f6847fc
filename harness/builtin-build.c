/* cmabench build [VARIANT...]: build (or reuse) kernels; default all. */
#include "builtin.h"
#include "kbuild/kbuild.h"
#include "lib/signals.h"

#include <stddef.h>
#include <string.h>

struct build_opts {
	const char *arch;
};

static const struct opt build_opts_table[] = {
	OPT_STRING(0, "arch", offsetof(struct build_opts, arch), "ARCH",
		   "the guest architecture the kernels are for: x86_64 (default) or arm64"),
	OPT_END(),
};

const struct cmd_usage build_usage = {
	"cmabench build [--arch ARCH] [VARIANT...]",
	"Builds (or reuses) the kernel variants, all of them by default (the variants\n"
	"are the values of the scenario key kernel: 'cmabench help scenario').",
	build_opts_table,
};

int cmd_build(int argc, char **argv, struct cmb_env *env)
{
	struct build_opts o = { .arch = "x86_64" };
	int failed = 0, first = options_parse(&build_usage, &o, argc, argv);
	const struct cmb_arch *a;

	if (first < 0)
		return first == -1 ? 0 : 2;
	a = arch_find(o.arch);
	if (!a) {
		err_msg("build: --arch %s: not an architecture (x86_64, arm64)", o.arch);
		return 2;
	}
	for (int i = first; i < argc; i++) {
		const struct kvariant *v = kvariant_find(argv[i]);

		if (!v) {
			err_msg("build: unknown kernel variant '%s' (try --help)", argv[i]);
			return 2;
		}
		if (!kvariant_suits(v, a->name)) {
			err_msg("build: kernel variant '%s' is for %s only", v->name, v->only_arch);
			return 2;
		}
	}
	for (unsigned int v = 0; v < kvariants_count && !interrupted(); v++) {
		struct kernel k;
		bool wanted = first >= argc;

		for (int i = first; i < argc; i++)
			wanted |= !strcmp(argv[i], kvariants[v].name);
		/* all variants: those of this arch */
		if (!wanted || !kvariant_suits(&kvariants[v], a->name))
			continue;
		if (kbuild_get_arch(env, a, &kvariants[v], &k))
			failed++;
		else
			printf("[kernel %s%s] %s\n", a->cache_prefix, kvariants[v].name, k.bzimage);
		kernel_free(&k);
	}
	return interrupted() ? 130 : failed ? 1 : 0;
}
