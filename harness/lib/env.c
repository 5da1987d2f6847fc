#include "config.h"
#include "lib/env.h"
#include "lib/util.h"

#include <stdlib.h>
#include <unistd.h>

static const char *getenv_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

void env_init(struct cmb_env *env)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	env->srcdir = getenv_or("CMABENCH_SRCDIR", CMB_SRCDIR);
	env->builddir = getenv_or("CMABENCH_BUILDDIR", CMB_BUILDDIR);
	env->cache_dir = getenv_or("CMABENCH_CACHE_DIR", CMB_CACHE_DIR);
	env->linux_source = getenv_or("CMABENCH_LINUX_SOURCE", CMB_LINUX_SOURCE);
	env->qemu = getenv_or("CMABENCH_QEMU", CMB_QEMU);
	env->busybox = getenv_or("CMABENCH_BUSYBOX", CMB_BUSYBOX);
	env->qemu_arm64 = getenv_or("CMABENCH_QEMU_ARM64", CMB_QEMU_ARM64);
	env->dtc = getenv_or("CMABENCH_DTC", CMB_DTC);
	env->arm64_userland = getenv_or("CMABENCH_ARM64_USERLAND", CMB_ARM64_USERLAND);
	env->accel = getenv_or("CMABENCH_ACCEL", "auto");
	env->jobs = (n > 0 ? (int)n : 1) + 1;
	env->keep_tree = getenv("CMABENCH_KEEP_TREE") != NULL;
}

char *env_src(const struct cmb_env *env, const char *rel)
{
	return path_join(env->srcdir, rel);
}

char *env_cache(const struct cmb_env *env, const char *rel)
{
	return path_join(env->cache_dir, rel);
}

char *env_build(const struct cmb_env *env, const char *rel)
{
	return path_join(env->builddir, rel);
}
