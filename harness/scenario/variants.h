/*
 * The kernels cmabench builds: one file each under kernel-patches/variants/
 * (and the directories of CMABENCH_VARIANTS), read at start. Its format is
 * described in kernel-patches/variants/README.
 */
#ifndef CMB_VARIANTS_H
#define CMB_VARIANTS_H

#include <stdbool.h>

#include "lib/util.h"

#define KVARIANTS_MAX 16     /* the runner keeps one kernel per arch and variant */
#define KVARIANT_ARCHES 4    /* at least cmb_arches_count */

enum kv_source {
	KV_SOURCE_DEBIAN,    /* the configured source (env->linux_source) */
	KV_SOURCE_TREE,      /* a local kernel git tree, built with O= */
};

struct kvariant {
	char *name;                /* the file's name */
	char *file;                /* the file it was read from */
	char *help;                /* description */
	enum kv_source source;
	char *tree;                /* KV_SOURCE_TREE: the tree, absolute */
	char *series;              /* the series value as written, NULL: no patches */
	struct strlist series_files; /* its files in order: names under kernel-patches/,
				      * or absolute paths (./NAME, /PATH) */
	/* by arch_index(): fragments under kernel-patches/configs/, in merge
	 * order; n == 0: the variant does not suit that arch */
	struct strlist configs[KVARIANT_ARCHES];
	char *arches;              /* "x86_64 arm64", for messages */
	bool has_gcma;             /* offers=gcma: understands gcma= */
	/*
	 * A board's kernel (run/board.c): each arch's first config is the
	 * board's whole .config, whose unnamed symbols take their defaults
	 * (alldefconfig) and whose values are not checked after the merge.
	 */
	bool board_base;
};
/* A deep copy of v (kvariant_free frees it). */
void kvariant_copy(struct kvariant *dst, const struct kvariant *v);

/*
 * Reads one variant file; the paths it names are checked under srcdir.
 * -1 with "file:line: key: what" lines in errs.
 */
int kvariant_parse(const char *path, const char *srcdir, struct kvariant *v,
		   struct strbuf *errs);
void kvariant_free(struct kvariant *v);

/*
 * Reads srcdir/kernel-patches/variants/ and the directories of
 * CMABENCH_VARIANTS (colon-separated), replacing what was read before:
 * -1 with every error in errs (and no variants).
 */
int kvariants_load(const char *srcdir, struct strbuf *errs);
/* The same from the given directories (NULL-terminated), for tests. */
int kvariants_load_dirs(const char *const dirs[], const char *srcdir, struct strbuf *errs);
void kvariants_unload(void);

/*
 * The variants, sorted by name. A program that did not call kvariants_load
 * reads the project's own on first use (and exits on an error).
 */
unsigned int kvariants_count(void);
const struct kvariant *kvariant_at(unsigned int i);
unsigned int kvariant_index(const struct kvariant *v);
const struct kvariant *kvariant_find(const char *name);
bool kvariant_suits(const struct kvariant *v, const char *arch);
/* Its fragments for arch, NULL-terminated; NULL when it does not suit arch. */
const char *const *kvariant_configs(const struct kvariant *v, const char *arch);

#endif
