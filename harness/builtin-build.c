/* cmabench build [--list] [VARIANT...]: build (or reuse) kernels; default all. */
#include "builtin.h"
#include "kbuild/kbuild.h"
#include "lib/signals.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct build_opts {
	const char *arch;
	bool list;
};

static const struct opt build_opts_table[] = {
	OPT_STRING(0, "arch", offsetof(struct build_opts, arch), "ARCH",
		   "the guest architecture the kernels are for: x86_64 (default) or arm64"),
	OPT_FLAG('l', "list", offsetof(struct build_opts, list),
		 "list the variants (their files, sources, arches and cache keys) and build nothing"),
	OPT_END(),
};

const struct cmd_usage build_usage = {
	"cmabench build [--arch ARCH] [--list] [VARIANT...]",
	"Builds (or reuses) the kernel variants, all of them by default (the variants\n"
	"are the files of kernel-patches/variants/, the values of the scenario key\n"
	"kernel: 'cmabench help scenario'). --list shows each variant and its cache\n"
	"key for every arch it suits (for --arch only when given), computed, not built.",
	build_opts_table,
};

/* One variant: where it comes from, then a key line per arch. */
static int list_variant(struct cmb_env *env, const struct kvariant *v, const struct cmb_arch *only)
{
	int bad = 0;

	printf("%s: %s\n", v->name, v->help);
	printf("  file    %s\n", v->file);
	if (v->source == KV_SOURCE_TREE)
		printf("  source  tree %s (built out of tree)\n", v->tree);
	else
		printf("  source  debian (%s)\n", env->linux_source);
	printf("  series  ");
	for (size_t i = 0; i < v->series_files.n; i++)
		printf("%s%s%s", i ? " " : "",
		       v->series_files.v[i][0] == '/' ? "" : "kernel-patches/", v->series_files.v[i]);
	printf("%s\n", v->series_files.n ? "" : "none");
	printf("  arches  %s\n", v->arches);
	printf("  offers  %s\n", v->has_gcma ? "gcma" : "-");
	for (unsigned int a = 0; a < cmb_arches_count; a++) {
		const struct cmb_arch *arch = &cmb_arches[a];
		const char *const *frags = kvariant_configs(v, arch->name);
		struct strbuf errs = { 0 };
		char key[65], *kdir, *dir, *image;

		if (!frags || (only && only != arch))
			continue;
		printf("  %-7s config", arch->name);
		for (int i = 0; frags[i]; i++)
			printf(" %s", frags[i]);
		printf("\n");
		if (kbuild_key_arch(env, arch, v, key, &errs)) {
			printf("  %-7s key: cannot be computed:\n%s", arch->name, errs.buf);
			sb_free(&errs);
			bad++;
			continue;
		}
		sb_free(&errs);
		kdir = env_cache(env, "kernels");
		dir = xasprintf("%s/%s%s-%.16s", kdir, arch->cache_prefix, v->name, key);
		image = path_join(dir, strrchr(arch->image_path, '/') + 1);
		printf("  %-7s key %s (%s)\n", arch->name, key,
		       path_exists(image) ? dir : "not built");
		free(image);
		free(dir);
		free(kdir);
	}
	return bad;
}

int cmd_build(int argc, char **argv, struct cmb_env *env)
{
	struct build_opts o = { .arch = NULL };
	int failed = 0, first = options_parse(&build_usage, &o, argc, argv);
	const struct cmb_arch *a;

	if (first < 0)
		return first == -1 ? 0 : 2;
	a = arch_find(o.arch ? o.arch : "x86_64");
	if (!a) {
		err_msg("build: --arch %s: not an architecture (x86_64, arm64)", o.arch);
		return 2;
	}
	for (int i = first; i < argc; i++) {
		const struct kvariant *v = kvariant_find(argv[i]);

		if (!v) {
			err_msg("build: unknown kernel variant '%s' (try --list)", argv[i]);
			return 2;
		}
		if (!o.list && !kvariant_suits(v, a->name)) {
			err_msg("build: kernel variant '%s' is for %s only", v->name, v->arches);
			return 2;
		}
	}
	for (unsigned int v = 0; v < kvariants_count() && !interrupted(); v++) {
		const struct kvariant *kv = kvariant_at(v);
		struct kernel k;
		bool wanted = first >= argc;

		for (int i = first; i < argc; i++)
			wanted |= !strcmp(argv[i], kv->name);
		if (wanted && o.list) {
			failed += list_variant(env, kv, o.arch ? a : NULL);
			continue;
		}
		/* all variants: those of this arch */
		if (!wanted || !kvariant_suits(kv, a->name))
			continue;
		if (kbuild_get_arch(env, a, kv, &k))
			failed++;
		else
			printf("[kernel %s%s] %s\n", a->cache_prefix, kv->name, k.bzimage);
		kernel_free(&k);
	}
	return interrupted() ? 130 : failed ? 1 : 0;
}
