/*
 * Device trees of arm64 guests: QEMU's own tree for the run's machine
 * (-machine virt,dumpdtb=), plus the reserved-memory node the run's set-up
 * asks for, compiled with dtc and booted with -dtb. This is how a phone or
 * a board declares its CMA areas, and the only way to a GCMA area through
 * the RFC's "guarantee" property (x86 reads no device-tree reserved memory).
 * The source of every run's tree is kept beside its results.
 */
#ifndef CMB_DTB_H
#define CMB_DTB_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/env.h"
#include "lib/util.h"
#include "run/vm.h"
#include "scenario/scenario.h"

/* The name of the DTS file kept in a run's results directory. */
#define DTB_SOURCE_NAME "devicetree.dts"

/*
 * The DTS text added after QEMU's tree for set-up s with an area of `area`
 * bytes, in a tree whose root has the given #address-cells and #size-cells:
 * cma: a shared-dma-pool, reusable, linux,cma-default node called
 * "reserved" (the area cma= makes on x86); gcma: a shared-dma-pool,
 * reusable node called "gcma" with the "guarantee" property (the area gcma=
 * makes on x86), the default area as gcma=SIZE,default makes it unless
 * gcma_default is false (a command line with its own cma=, which the kernel
 * would prefer, dropping a default node); none and carveout: nothing
 * (NULL). Beside the area, the device our module binds to (compatible
 * "cmabench,dma"), its memory-region the area: the seeds' way of giving a
 * device its area (alloc-path=dma). NULL with *why set when the size does
 * not fit the cells.
 */
char *dtb_fragment(enum setup s, uint64_t area, bool gcma_default, int addr_cells,
		   int size_cells, const char **why);

/*
 * Makes the tree of a run booted with vc (its argv as it will run, without
 * -dtb): dumps QEMU's tree for that machine, adds dtb_fragment(), writes the
 * whole source to share_dir/devicetree.dts and compiles it to *dtb (a file
 * in work_dir, the caller's to remove). Errors go to errs.
 */
int dtb_make(const struct cmb_env *env, const struct vm_config *vc, enum setup s, uint64_t area,
	     bool gcma_default, const char *work_dir, char **dtb, struct strbuf *errs);

#endif
