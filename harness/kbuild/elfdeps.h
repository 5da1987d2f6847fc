/*
 * The shared-library closure of programs of another architecture, which
 * ldd cannot run: PT_INTERP and DT_NEEDED read with libelf, names resolved
 * in an unpacked root (Debian's arm64 packages) whose symlinks are followed
 * inside that root, never on the host.
 */
#ifndef CMB_ELFDEPS_H
#define CMB_ELFDEPS_H

#include "lib/util.h"

/*
 * The program interpreter (*interp, NULL for a static or shared object),
 * the DT_NEEDED names and the DT_RUNPATH/DT_RPATH directories (runpath may
 * be NULL) of an ELF file; errors go to errs ("path: why").
 */
int elf_deps(const char *path, char **interp, struct strlist *needed, struct strlist *runpath,
	     struct strbuf *errs);

/*
 * The host path of guest_path inside root, symlinks resolved inside root
 * (an absolute target is taken relative to root); NULL if it does not exist.
 */
char *root_resolve(const char *root, const char *guest_path);

/*
 * Adds to (hosts, guests) the files the ELF program at guest path prog
 * needs inside root, recursively: its interpreter and every DT_NEEDED name,
 * looked up in the needing object's RUNPATH, then in dirs (guest paths,
 * NULL-terminated). A name found nowhere is an error naming the object that
 * needs it.
 */
int elf_closure(const char *root, const char *prog, const char *const dirs[],
		struct strlist *hosts, struct strlist *guests, struct strbuf *errs);

#endif
