/*
 * Kernel pipeline: extract the source, apply kernel-patches/series, merge
 * the variant's config fragments, build a bzImage. Builds are cached under
 * <cache>/kernels/<variant>-<key>/, the key hashing everything that affects
 * the result, so unchanged inputs are never rebuilt.
 */
#ifndef CMB_KBUILD_H
#define CMB_KBUILD_H

#include <stdbool.h>

#include "env.h"
#include "util.h"
#include "variants.h"

struct kernel {
	const struct kvariant *variant;
	char key[65];
	char *dir;          /* cache directory of this build */
	char *bzimage;
	char *version;      /* make kernelversion */
};

/* The cache key of a variant from its inputs; errors name the file. */
int kbuild_key(const struct cmb_env *env, const struct kvariant *v, char key[65],
	       struct strbuf *errs);
/* Builds the variant unless a build with the same key is cached. */
int kbuild_get(const struct cmb_env *env, const struct kvariant *v, struct kernel *k);
void kernel_free(struct kernel *k);

#endif
