/*
 * The command line of every make a kernel build runs: the arch, a pinned
 * build identity (two clean builds of one key give the same image) and the
 * compiler cache shared by all variants (an edit recompiles one file).
 */
#ifndef CMB_KMAKE_H
#define CMB_KMAKE_H

#include <stdbool.h>

#include "lib/env.h"
#include "lib/util.h"
#include "scenario/arch.h"

struct kmake {
	const struct cmb_arch *arch;
	const char *variant;
	const char *key;        /* the build's cache key (its first 16 digits name it) */
	const char *basedir;    /* the build's top directory: ccache hashes paths below it relative */
	const char *ccache_dir; /* NULL: no compiler cache */
};

/*
 * The compiler cache's directory, or NULL when it is off: CMABENCH_CCACHE=0,
 * or no ccache program. CMABENCH_CCACHE_DIR overrides <cache>/ccache.
 */
char *kmake_ccache_dir(const struct cmb_env *env);
/* Appends "env VAR=... make" (a cross arch's ARCH and CROSS_COMPILE among the VARs). */
void kmake_argv(const struct kmake *m, struct strlist *argv);
/* Appends the make variables that follow "make": CC and HOSTCC through ccache. */
void kmake_vars(const struct kmake *m, struct strlist *argv);
/* A whole make of target: kmake_argv, -jJOBS, kmake_vars, O=objdir (when not NULL). */
void kmake_target(const struct kmake *m, int jobs, const char *objdir, const char *target,
		  struct strlist *argv);

#endif
