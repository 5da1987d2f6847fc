/*
 * Checks that a merged .config holds every value a fragment asked for:
 * merge_config.sh only warns, and a silently dropped CONFIG_CMA would make
 * every later measurement meaningless.
 */
#ifndef CMB_KCONFIG_H
#define CMB_KCONFIG_H

#include "lib/util.h"

/*
 * Appends "fragment:line: CONFIG_X: wanted V, got W" lines; returns their
 * count. A symbol that a fragment of later (NULL-terminated, may be NULL)
 * sets too is left to that fragment: merge_config.sh lets the last one win.
 */
int kconfig_check(const char *fragment, const char *const *later, const char *dotconfig,
		  struct strbuf *errs);

#endif
