/*
 * Our kernel module (workloads/kmod/: cmabench_dma.ko, the DMA API as a
 * driver calls it), built with each kernel against its own build: after
 * the image, `make modules` (Module.symvers), then the module out of tree
 * from a copy of its source, so that the project's tree stays clean and
 * two builds never share objects. Cached beside the image.
 */
#ifndef CMB_KMOD_H
#define CMB_KMOD_H

#include "lib/env.h"
#include "lib/hash.h"
#include "lib/util.h"

/* The module's file, in the kernel's cache directory and in the guest. */
#define KMOD_FILE "cmabench_dma.ko"

/* The module's sources into the kernel's key (every key changed once with it). */
int kmod_hash(const struct cmb_env *env, struct hash *h, struct strbuf *errs);
/* Copies the module's sources into dir (created). */
int kmod_copy_source(const struct cmb_env *env, const char *dir);

#endif
