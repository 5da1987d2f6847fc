/*
 * Device trees with the run's reserved area: a tree someone else made (QEMU's
 * own for the run's machine, -machine virt,dumpdtb=; a board's
 * /sys/firmware/fdt), the reserved-memory node the run's set-up asks for
 * added with libfdt, never a tree written by hand. This is how a phone or a
 * board declares its CMA areas, and the only way to a GCMA area through the
 * RFC's "guarantee" property (x86 reads no device-tree reserved memory).
 * The decompiled source of every run's tree is kept beside its results.
 */
#ifndef CMB_DTB_H
#define CMB_DTB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/env.h"
#include "lib/util.h"
#include "run/vm.h"
#include "scenario/scenario.h"

/* The name of the DTS file kept in a run's results directory. */
#define DTB_SOURCE_NAME "devicetree.dts"

/*
 * Adds set-up s's area of `area` bytes to the flattened tree in (len bytes,
 * not changed) under /reserved-memory (made with the root's cells when the
 * tree has none): cma: a shared-dma-pool, reusable, linux,cma-default node
 * called "reserved" (the area cma= makes on x86); gcma: the same called
 * "gcma" with the "guarantee" property (the area gcma= makes on x86), the
 * default area as gcma=SIZE,default makes it unless gcma_default is false
 * (a command line with its own cma=, which the kernel would prefer). Our
 * area being the default, linux,cma-default is dropped from any other node
 * (a board's own CMA pool), each drop said in notes. Beside the area,
 * /cmabench-dma (compatible "cmabench,dma", memory-region the area): the
 * device our module binds, given its area the seeds' way. none and
 * carveout: the tree unchanged. *out (malloc'd, *out_len bytes) or -1 with
 * *why (a node of ours already there, a size the cells cannot hold, a tree
 * libfdt refuses).
 */
int dtb_add_area(const void *in, size_t len, enum setup s, uint64_t area, bool gcma_default,
		 void **out, size_t *out_len, struct strbuf *notes, const char **why);

/*
 * dtb_add_area() on the tree in file `in`: the result written to dtb_out
 * and decompiled by dtc to dts_out (the record kept with the results).
 * Errors, naming the file, go to errs; notes as above. 0 or -1.
 */
int dtb_edit_file(const struct cmb_env *env, const char *in, enum setup s, uint64_t area,
		  bool gcma_default, const char *dtb_out, const char *dts_out,
		  struct strbuf *notes, struct strbuf *errs);

/*
 * Makes the tree of a run booted with vc (its argv as it will run, without
 * -dtb): dumps QEMU's tree for that machine and edits it with
 * dtb_edit_file(), the source in share_dir/devicetree.dts, the blob in
 * *dtb (a file in work_dir, the caller's to remove). Errors go to errs.
 */
int dtb_make(const struct cmb_env *env, const struct vm_config *vc, enum setup s, uint64_t area,
	     bool gcma_default, const char *work_dir, char **dtb, struct strbuf *errs);

#endif
