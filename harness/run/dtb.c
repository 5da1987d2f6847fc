#include "run/dtb.h"

#include <errno.h>
#include <libfdt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Room for the nodes we add; fdt_pack() gives back what is unused. */
#define DTB_SLACK 4096

/* /reserved-memory, made with the root's cells when absent; its offset or a libfdt error. */
static int reserved_memory(void *fdt)
{
	int node = fdt_path_offset(fdt, "/reserved-memory");
	int ac, sc, err;

	if (node != -FDT_ERR_NOTFOUND)
		return node;
	ac = fdt_address_cells(fdt, 0);
	sc = fdt_size_cells(fdt, 0);
	if (ac < 0 || sc < 0)
		return ac < 0 ? ac : sc;
	node = fdt_add_subnode(fdt, 0, "reserved-memory");
	if (node < 0)
		return node;
	err = fdt_setprop_u32(fdt, node, "#address-cells", (uint32_t)ac);
	err = err ? err : fdt_setprop_u32(fdt, node, "#size-cells", (uint32_t)sc);
	err = err ? err : fdt_setprop_empty(fdt, node, "ranges");
	return err ? err : node;
}

/* linux,cma-default off every child of rmem: ours is the default now. */
static int drop_defaults(void *fdt, int rmem, struct strbuf *notes)
{
	int child;

	fdt_for_each_subnode(child, fdt, rmem) {
		if (!fdt_getprop(fdt, child, "linux,cma-default", NULL))
			continue;
		int err = fdt_delprop(fdt, child, "linux,cma-default");

		if (err)
			return err;
		if (notes)
			sb_addf(notes, "dropped linux,cma-default from /reserved-memory/%s: the "
				"run's area is the default\n", fdt_get_name(fdt, child, NULL));
	}
	return 0;
}

/* The area's node and /cmabench-dma; 0, a libfdt error, or 1 with *why set. */
static int add_nodes(void *fdt, enum setup s, uint64_t area, bool gcma_default,
		     struct strbuf *notes, const char **why)
{
	const char *name = setup_area_name(s);
	bool is_default = s == SETUP_CMA || gcma_default;
	int rmem = reserved_memory(fdt), node, dev, sc, err;
	uint32_t ph;

	if (rmem < 0)
		return rmem;
	sc = fdt_size_cells(fdt, rmem);
	if (sc < 0)
		return sc;
	if (sc < 1 || sc > 2 || (sc == 1 && area >> 32)) {
		*why = "the area does not fit the #size-cells of /reserved-memory";
		return 1;
	}
	if (fdt_subnode_offset(fdt, rmem, name) >= 0 ||
	    fdt_path_offset(fdt, "/cmabench-dma") >= 0) {
		*why = "the tree already has a node of ours (/reserved-memory/reserved, "
		       "/reserved-memory/gcma or /cmabench-dma)";
		return 1;
	}
	if (is_default && (err = drop_defaults(fdt, rmem, notes)))
		return err;
	if ((err = fdt_generate_phandle(fdt, &ph)))
		return err;
	node = fdt_add_subnode(fdt, rmem, name);
	if (node < 0)
		return node;
	err = fdt_setprop_string(fdt, node, "compatible", "shared-dma-pool");
	err = err ? err : fdt_setprop_empty(fdt, node, "reusable");
	if (!err)
		err = sc == 2 ? fdt_setprop_u64(fdt, node, "size", area)
			      : fdt_setprop_u32(fdt, node, "size", (uint32_t)area);
	if (!err && s == SETUP_GCMA)
		err = fdt_setprop_empty(fdt, node, "guarantee");
	if (!err && is_default)
		err = fdt_setprop_empty(fdt, node, "linux,cma-default");
	err = err ? err : fdt_setprop_u32(fdt, node, "phandle", ph);
	if (err)
		return err;
	/* workloads/kmod/cmabench_dma.c binds to it (alloc-path=dma) */
	dev = fdt_add_subnode(fdt, 0, "cmabench-dma");
	if (dev < 0)
		return dev;
	err = fdt_setprop_string(fdt, dev, "compatible", "cmabench,dma");
	return err ? err : fdt_setprop_u32(fdt, dev, "memory-region", ph);
}

int dtb_add_area(const void *in, size_t len, enum setup s, uint64_t area, bool gcma_default,
		 void **out, size_t *out_len, struct strbuf *notes, const char **why)
{
	int size, err;
	void *fdt;

	*why = NULL;
	*out = NULL;
	if (len < sizeof(struct fdt_header) || fdt_check_header(in) ||
	    fdt_totalsize(in) > len || fdt_totalsize(in) > INT32_MAX - DTB_SLACK) {
		*why = "not a flattened device tree";
		return -1;
	}
	size = (int)fdt_totalsize(in) + DTB_SLACK;
	fdt = xmalloc((size_t)size);
	err = fdt_open_into(in, fdt, size);
	if (!err && setup_area_name(s))
		err = add_nodes(fdt, s, area, gcma_default, notes, why);
	err = err ? err : fdt_pack(fdt);
	if (err) {
		if (!*why)
			*why = fdt_strerror(err);
		free(fdt);
		return -1;
	}
	*out = fdt;
	*out_len = fdt_totalsize(fdt);
	return 0;
}

int dtb_edit_file(const struct cmb_env *env, const char *in, enum setup s, uint64_t area,
		  bool gcma_default, const char *dtb_out, const char *dts_out,
		  struct strbuf *notes, struct strbuf *errs)
{
	char *log = xasprintf("%s.log", dtb_out);
	char *dec[] = { (char *)env->dtc, "-q", "-I", "dtb", "-O", "dts", "-o", (char *)dts_out,
			(char *)dtb_out, NULL };
	size_t len = 0, out_len = 0;
	char *blob = read_file(in, &len);
	const char *why = NULL;
	void *out = NULL;
	int rc = -1;

	if (!blob)
		sb_addf(errs, "%s: %s\n", in, strerror(errno));
	else if (dtb_add_area(blob, len, s, area, gcma_default, &out, &out_len, notes, &why))
		sb_addf(errs, "%s: %s\n", in, why);
	else if (write_file(dtb_out, out, out_len))
		sb_addf(errs, "%s: %s\n", dtb_out, strerror(errno));
	else if (run_cmd(dec, NULL, log, NULL, NULL))
		sb_addf(errs, "%s: dtc could not decompile it (see %s)\n", dtb_out, log);
	else
		rc = 0;
	if (rc)
		unlink(dtb_out);
	else
		unlink(log);
	free(log);
	free(blob);
	free(out);
	return rc;
}

int dtb_make(const struct cmb_env *env, const struct vm_config *vc, enum setup s, uint64_t area,
	     bool gcma_default, const char *work_dir, char **dtb, struct strbuf *errs)
{
	struct vm_config dump = *vc;
	struct strlist argv = { 0 };
	char *qemu_dtb = path_join(work_dir, "qemu.dtb");
	char *log = path_join(work_dir, "dtb.log");
	char *src = path_join(vc->share_dir, DTB_SOURCE_NAME);
	char *machine = xasprintf("%s,dumpdtb=%s", vc->machine, qemu_dtb);
	char *out = path_join(work_dir, "run.dtb");
	int rc = -1;

	if (!errs->buf)
		sb_init(errs);
	*dtb = NULL;
	mkdir_p(work_dir);
	/* QEMU writes the tree of exactly this machine (memory, CPUs, devices) and exits. */
	dump.machine = machine;
	dump.dtb = NULL;
	vm_argv(&dump, &argv);
	if (run_cmd(argv.v, NULL, log, NULL, NULL) || !path_exists(qemu_dtb))
		sb_addf(errs, "%s: could not dump the machine's device tree (see %s)\n", vc->qemu,
			log);
	else if (!dtb_edit_file(env, qemu_dtb, s, area, gcma_default, out, src, NULL, errs)) {
		*dtb = out;
		out = NULL;
		rc = 0;
	}
	sl_free(&argv);
	free(qemu_dtb);
	free(log);
	free(src);
	free(machine);
	free(out);
	return rc;
}
