/*
 * Guest architectures: one row each. Everything that differs between an
 * x86_64 guest and an arm64 one (kernel build, boot image, QEMU machine,
 * console, where the guest's programs come from, whether CMA areas come
 * from the device tree) is a field here, so the rest of the harness asks
 * the row instead of testing names.
 */
#ifndef CMB_ARCH_H
#define CMB_ARCH_H

#include <stdbool.h>

#include "lib/env.h"

struct cmb_arch {
	const char *name;           /* value of the scenario key arch */
	const char *uname_machine;  /* uname -m of a host that runs it natively (KVM) */
	/* kernel build */
	const char *kernel_arch;    /* ARCH= */
	const char *cross_compile;  /* CROSS_COMPILE=, NULL: the host's gcc */
	const char *image_target;   /* make target */
	const char *image_path;     /* where make leaves it, in the tree */
	const char *base_fragment;  /* kernel-patches/configs/ file used for base.config */
	const char *cache_prefix;   /* prefix of kernel cache directories and history keys */
	/* guest */
	const char *console;        /* console= */
	const char *machine;        /* QEMU -machine, NULL: QEMU's default */
	const char *tcg_cpu;        /* QEMU -cpu under TCG, NULL: QEMU's default */
	const char *lib_dirs[3];    /* multiarch library directories of its userland */
	bool device_tree;           /* CMA areas come from the DT's reserved-memory node */
};

extern const struct cmb_arch cmb_arches[];
extern const unsigned int cmb_arches_count;

/* The row called name, or NULL. */
const struct cmb_arch *arch_find(const char *name);
/* x86_64: what a scenario runs on unless it says otherwise. */
const struct cmb_arch *arch_default(void);
/* Whether this host runs the architecture natively (KVM is worth probing). */
bool arch_native(const struct cmb_arch *a);
/* The row's index in cmb_arches. */
unsigned int arch_index(const struct cmb_arch *a);

/* QEMU system emulator of the architecture (configured path or env). */
const char *arch_qemu(const struct cmb_env *env, const struct cmb_arch *a);
/* The kernel's C compiler as make will call it ("gcc" or the cross gcc). */
char *arch_cc(const struct cmb_arch *a);
/*
 * What is missing to build and boot guests of this architecture, as
 * "tool (Debian package: x)" lines, or NULL when nothing is: x86_64 needs
 * what ./configure already checked, arm64 the cross compiler, QEMU, dtc
 * and the arm64 userland (scripts/install-deps --arm64).
 */
char *arch_missing(const struct cmb_env *env, const struct cmb_arch *a);

#endif
