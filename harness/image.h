/*
 * The guest's root file system: static busybox, fio, trace-cmd, perf, our
 * guest programs and init, with their shared-library closure, made into an
 * ext4 image with mkfs.ext4 -d (no mount, no root needed) and cached by a
 * hash of every file in it.
 */
#ifndef CMB_IMAGE_H
#define CMB_IMAGE_H

#include "env.h"

/* Path of an up-to-date root image (built if needed), or NULL. */
char *image_get(const struct cmb_env *env);

#endif
