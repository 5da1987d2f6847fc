/*
 * cmabench cache [--clean]: the cache's bounded directories (kernels,
 * images, scratch templates, unpacked result sets; lib/cache.c) pruned to
 * their bounds, the least recently used entries first, or with --clean
 * emptied; an entry in use (a build's lock held) is never removed. Each
 * removal is printed. `cmabench run` prunes at its end. No VM.
 */
#include "builtin.h"
#include "lib/cache.h"

#include <stddef.h>
#include <stdio.h>

struct cache_opts {
	bool clean;
};

static const struct opt cache_opts_table[] = {
	OPT_FLAG(0, "clean", offsetof(struct cache_opts, clean),
		 "remove every entry not in use (make clean-cache), not only what is over the bounds"),
	OPT_END(),
};

const struct cmd_usage cache_usage = {
	"cmabench cache [--clean]",
	"Prunes the kernel, image, scratch and result-set caches to their bounds\n"
	"(kernels 4 GiB, images 4 GiB, scratch 8 GiB, sets 2 GiB; CMABENCH_CACHE_MAX=GIB\n"
	"sets every bound), the least recently used first; --clean empties them.\n"
	"The compiler cache and the run history are left alone.",
	cache_opts_table,
};

int cmd_cache(int argc, char **argv, struct cmb_env *env)
{
	struct cache_opts o = { 0 };
	int first = options_parse(&cache_usage, &o, argc, argv);

	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first < argc) {
		options_usage(stderr, &cache_usage);
		return 2;
	}
	cache_prune_all(env, o.clean, NULL, stdout);
	return 0;
}
