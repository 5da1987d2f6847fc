/*
 * Checks that a merged .config holds every value a fragment asked for:
 * merge_config.sh only warns, and a silently dropped CONFIG_CMA would make
 * every later measurement meaningless.
 */
#ifndef CMB_KCONFIG_H
#define CMB_KCONFIG_H

#include "util.h"

/* Appends "fragment:line: CONFIG_X: wanted V, got W" lines; returns their count. */
int kconfig_check(const char *fragment, const char *dotconfig, struct strbuf *errs);

#endif
