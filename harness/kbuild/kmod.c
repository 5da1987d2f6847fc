/* Our kernel module, built with each kernel (kmod.h). */
#include "kbuild/kmod.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Everything the module's build reads from workloads/kmod/. */
static const char *const kmod_sources[] = { "Kbuild", "cmabench_dma.c" };

static char *kmod_src(const struct cmb_env *env, const char *name)
{
	char *rel = xasprintf("workloads/kmod/%s", name);
	char *p = env_src(env, rel);

	free(rel);
	return p;
}

int kmod_hash(const struct cmb_env *env, struct hash *h, struct strbuf *errs)
{
	int rc = 0;

	hash_str(h, "kmod");
	for (size_t i = 0; i < ARRAY_SIZE(kmod_sources); i++) {
		char *p = kmod_src(env, kmod_sources[i]);

		hash_str(h, kmod_sources[i]);
		if (hash_file(h, p)) {
			sb_addf(errs, "%s: cannot read the module's source: %s\n", p,
				strerror(errno));
			rc = -1;
		}
		free(p);
	}
	return rc;
}

int kmod_copy_source(const struct cmb_env *env, const char *dir)
{
	int rc = mkdir_p(dir);

	for (size_t i = 0; !rc && i < ARRAY_SIZE(kmod_sources); i++) {
		char *from = kmod_src(env, kmod_sources[i]);
		char *to = path_join(dir, kmod_sources[i]);

		rc = copy_file(from, to);
		if (rc)
			err_msg("%s: %s", from, strerror(errno));
		free(from);
		free(to);
	}
	return rc;
}
