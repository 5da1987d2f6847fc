/* Where things are: project files, cache, kernel source, tools. */
#ifndef CMB_ENV_H
#define CMB_ENV_H

#include <stdbool.h>

struct cmb_env {
	const char *srcdir;        /* project top (kernel-patches/, workloads/) */
	const char *builddir;      /* where make built the guest programs */
	const char *cache_dir;
	const char *linux_source;  /* tarball or tree */
	const char *qemu;
	const char *busybox;
	const char *qemu_arm64;    /* arch=arm64: qemu-system-aarch64 */
	const char *dtc;           /* arch=arm64: the device tree compiler */
	const char *arm64_userland; /* arch=arm64: Debian's arm64 packages, unpacked (root/) */
	const char *accel;         /* auto, kvm or tcg */
	int jobs;                  /* make -j */
	bool keep_tree;            /* keep kernel build trees */
};

/* Fills defaults from configure, then CMABENCH_* environment variables. */
void env_init(struct cmb_env *env);
/* Joins a path under srcdir / cache_dir (caller frees). */
char *env_src(const struct cmb_env *env, const char *rel);
char *env_cache(const struct cmb_env *env, const char *rel);
char *env_build(const struct cmb_env *env, const char *rel);

#endif
