/* The kernels cmabench builds: one row each. */
#ifndef CMB_VARIANTS_H
#define CMB_VARIANTS_H

#include <stdbool.h>

struct kvariant {
	const char *name;
	const char *help;
	bool patched;              /* applies kernel-patches/series */
	const char *fragments[4];  /* under kernel-patches/configs/, NULL-terminated */
	bool has_gcma;             /* understands gcma= */
	const char *only_arch;     /* the one arch its fragments suit, NULL: every arch */
};

extern const struct kvariant kvariants[];
extern const unsigned int kvariants_count;

const struct kvariant *kvariant_find(const char *name);
bool kvariant_suits(const struct kvariant *v, const char *arch);

#endif
