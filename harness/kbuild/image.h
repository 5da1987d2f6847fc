/*
 * The guest's root file system: static busybox, fio, trace-cmd, perf, our
 * guest programs and init, with their shared-library closure, made into an
 * ext4 image with mkfs.ext4 -d (no mount, no root needed) and cached by a
 * hash of every file in it.
 */
#ifndef CMB_IMAGE_H
#define CMB_IMAGE_H

#include "lib/env.h"
#include "scenario/arch.h"

#include <stdbool.h>

/* Path of an up-to-date x86_64 root image (built if needed), or NULL. */
char *image_get(const struct cmb_env *env);
/*
 * The same for arch a: another arch's programs and libraries come from its
 * unpacked Debian packages (env->arm64_userland), our programs from
 * workloads/guest/<arch>/ (cross-built by make).
 */
char *image_get_arch(const struct cmb_env *env, const struct cmb_arch *a);
/* Whether arch a's image is cached, so image_get_arch builds nothing. */
bool image_cached_arch(const struct cmb_env *env, const struct cmb_arch *a);
/* The seconds a build of arch a's image should take: its last, else a default. */
double image_estimate(const struct cmb_env *env, const struct cmb_arch *a);
/* Copies and mkfs.ext4 of a ~210 MB image: seconds, not minutes. */
#define IMAGE_DEFAULT_SECONDS 30.0

#endif
