/* make's command line for kernel builds (kmake.h). */
#include "kbuild/kmake.h"

#include <stdlib.h>
#include <string.h>

char *kmake_ccache_dir(const struct cmb_env *env)
{
	const char *off = getenv("CMABENCH_CCACHE");
	const char *dir = getenv("CMABENCH_CCACHE_DIR");

	if ((off && !strcmp(off, "0")) || !have_program("ccache"))
		return NULL;
	return dir && *dir ? xstrdup(dir) : env_cache(env, "ccache");
}

void kmake_argv(const struct kmake *m, struct strlist *argv)
{
	sl_add(argv, "env");
	if (m->arch->cross_compile) {
		sl_addf(argv, "ARCH=%s", m->arch->kernel_arch);
		sl_addf(argv, "CROSS_COMPILE=%s", m->arch->cross_compile);
	}
	/*
	 * The identity a build writes into its image (uname -v, /proc/version):
	 * the date and the counter would differ between two builds of the same
	 * inputs; the host names the key instead of this machine.
	 */
	sl_add(argv, "KBUILD_BUILD_TIMESTAMP=Thu Jan  1 00:00:00 UTC 1970");
	sl_add(argv, "KBUILD_BUILD_USER=cmabench");
	sl_addf(argv, "KBUILD_BUILD_HOST=%s-%.16s", m->variant, m->key);
	sl_add(argv, "KBUILD_BUILD_VERSION=1");
	if (m->ccache_dir) {
		sl_addf(argv, "CCACHE_DIR=%s", m->ccache_dir);
		/* Every build extracts into its own directory: hash paths relative to it. */
		if (m->basedir)
			sl_addf(argv, "CCACHE_BASEDIR=%s", m->basedir);
		sl_add(argv, "CCACHE_NOHASHDIR=1");
		/* Kernel objects of three variants and two arches: ~1 GB. */
		sl_add(argv, "CCACHE_MAXSIZE=4G");
	}
	sl_add(argv, "make");
}

void kmake_vars(const struct kmake *m, struct strlist *argv)
{
	if (!m->ccache_dir)
		return;
	sl_addf(argv, "CC=ccache %sgcc", m->arch->cross_compile ? m->arch->cross_compile : "");
	sl_add(argv, "HOSTCC=ccache gcc");
}

void kmake_target(const struct kmake *m, int jobs, const char *objdir, const char *target,
		  struct strlist *argv)
{
	kmake_argv(m, argv);
	sl_addf(argv, "-j%d", jobs);
	kmake_vars(m, argv);
	if (objdir)
		sl_addf(argv, "O=%s", objdir);
	sl_add(argv, target);
}
