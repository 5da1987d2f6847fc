/*
 * Kernel pipeline: extract the source, apply the variant's series, merge
 * the variant's config fragments, build a bzImage (a local tree's variant:
 * build it where it is, out of tree). Builds are cached under
 * <cache>/kernels/<variant>-<key>/, the key hashing everything that affects
 * the result, so unchanged inputs are never rebuilt.
 */
#ifndef CMB_KBUILD_H
#define CMB_KBUILD_H

#include <stdbool.h>

#include "lib/env.h"
#include "lib/util.h"
#include "scenario/arch.h"
#include "scenario/variants.h"

struct kernel {
	const struct kvariant *variant;
	const struct cmb_arch *arch;
	char key[65];
	char *dir;          /* cache directory of this build */
	char *bzimage;      /* the boot image: bzImage (x86_64), Image (arm64) */
	char *version;      /* make kernelversion */
	char *kmod;         /* our module built against it (kmod.h); NULL: none (an external image) */
};

/*
 * The cache key of a variant for an arch from its inputs; errors name the
 * file. The arch enters the key (with its compiler and boot image) for every
 * arch but x86_64, whose keys are those of the builds made before arm64.
 */
int kbuild_key_arch(const struct cmb_env *env, const struct cmb_arch *a,
		    const struct kvariant *v, char key[65], struct strbuf *errs);
/* Builds the variant for arch a unless a build with the same key is cached. */
int kbuild_get_arch(const struct cmb_env *env, const struct cmb_arch *a, const struct kvariant *v,
		    struct kernel *k);
/*
 * kbuild_get_arch in two halves, so a run can say what it will build before
 * it builds. kbuild_find_arch prints nothing: 0 when the kernel is at hand
 * (cached or external; k complete), 1 when it must be built (k's key and
 * paths set: kbuild_build builds it), -1 when it cannot be had (errs).
 */
int kbuild_find_arch(const struct cmb_env *env, const struct cmb_arch *a,
		     const struct kvariant *v, struct kernel *k, struct strbuf *errs);
/* "[kernel gcma] reusing ..." for a kernel kbuild_find_arch found. */
void kbuild_print_found(const struct kernel *k);
int kbuild_build(const struct cmb_env *env, struct kernel *k);
/*
 * The seconds a build of v for arch a should take: its last compile (the
 * history), else another variant's, else KBUILD_DEFAULT_SECONDS; plus the
 * source, patches and config.
 */
double kbuild_estimate(const struct cmb_env *env, const struct cmb_arch *a,
		       const struct kvariant *v);
/* A trimmed build took 8.5-20 min on the 2-core machine (README, "How long
 * things take"). */
#define KBUILD_DEFAULT_SECONDS (15 * 60.0)
/* The same for x86_64. */
int kbuild_key(const struct cmb_env *env, const struct kvariant *v, char key[65],
	       struct strbuf *errs);
int kbuild_get(const struct cmb_env *env, const struct kvariant *v, struct kernel *k);
void kernel_free(struct kernel *k);

#endif
