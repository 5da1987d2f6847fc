#include "scenario/variants.h"
#include "lib/util.h"

#include <string.h>

const struct kvariant kvariants[] = {
	{
		.name = "vanilla",
		.help = "Debian's 6.12 source, no patches",
		.fragments = { "base.config" },
	},
	{
		.name = "gcma",
		.help = "6.12 with kernel-patches/series (cleancache, GCMA, gcma=)",
		.patched = true,
		.fragments = { "base.config", "gcma.config" },
		.has_gcma = true,
	},
	{
		.name = "gcma-debug",
		.help = "the gcma kernel with KASAN, lockdep and DEBUG_VM (functional runs, not measured)",
		.patched = true,
		.fragments = { "base.config", "gcma.config", "debug.config" },
		.has_gcma = true,
		/* debug.config sets X86_MCE (MEMORY_FAILURE's hwpoison on x86) */
		.only_arch = "x86_64",
	},
};

const unsigned int kvariants_count = ARRAY_SIZE(kvariants);

const struct kvariant *kvariant_find(const char *name)
{
	for (unsigned int i = 0; i < kvariants_count; i++)
		if (!strcmp(kvariants[i].name, name))
			return &kvariants[i];
	return NULL;
}

bool kvariant_suits(const struct kvariant *v, const char *arch)
{
	return !v->only_arch || !strcmp(v->only_arch, arch);
}
