#include "run/dtb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* value as cells 32-bit cells, "0x0 0x4000000"; -1 if it does not fit. */
static int add_cells(struct strbuf *sb, uint64_t value, int cells)
{
	if (cells < 1 || cells > 2 || (cells == 1 && value >> 32))
		return -1;
	if (cells == 2)
		sb_addf(sb, "0x%llx ", (unsigned long long)(value >> 32));
	sb_addf(sb, "0x%llx", (unsigned long long)(value & 0xffffffffull));
	return 0;
}

char *dtb_fragment(enum setup s, uint64_t area, bool gcma_default, int addr_cells,
		   int size_cells, const char **why)
{
	struct strbuf sb = { 0 };
	const char *name = setup_area_name(s);

	*why = NULL;
	if (!name)
		return NULL;
	if (addr_cells < 1 || addr_cells > 2) {
		*why = "the tree's root has an #address-cells other than 1 or 2";
		return NULL;
	}
	sb_add(&sb, "\n/* cmabench: the run's reserved area */\n/ {\n\treserved-memory {\n");
	sb_addf(&sb, "\t\t#address-cells = <%d>;\n\t\t#size-cells = <%d>;\n\t\tranges;\n\n",
		addr_cells, size_cells);
	sb_addf(&sb, "\t\tcmb_area: %s {\n", name);
	sb_add(&sb, "\t\t\tcompatible = \"shared-dma-pool\";\n\t\t\treusable;\n\t\t\tsize = <");
	if (add_cells(&sb, area, size_cells)) {
		sb_free(&sb);
		*why = "the area does not fit the tree's #size-cells";
		return NULL;
	}
	sb_add(&sb, ">;\n");
	if (s == SETUP_GCMA)
		sb_add(&sb, "\t\t\tguarantee;\n");
	if (s == SETUP_CMA || gcma_default)
		sb_add(&sb, "\t\t\tlinux,cma-default;\n");
	sb_add(&sb, "\t\t};\n\t};\n\n");
	/* workloads/kmod/cmabench_dma.c binds to it (alloc-path=dma) */
	sb_add(&sb, "\tcmabench-dma {\n\t\tcompatible = \"cmabench,dma\";\n"
	       "\t\tmemory-region = <&cmb_area>;\n\t};\n};\n");
	return sb_detach(&sb);
}

/* An integer property of the root node, through fdtget; -1 if unreadable. */
static int root_cells(const char *dtb, const char *prop)
{
	char *argv[] = { "fdtget", "-t", "i", (char *)dtb, "/", (char *)prop, NULL };
	char *out = cmd_first_line(argv);
	long v = -1;
	const char *why;

	if (out && parse_long(out, &v, &why))
		v = -1;
	free(out);
	return (int)v;
}

int dtb_make(const struct cmb_env *env, const struct vm_config *vc, enum setup s, uint64_t area,
	     bool gcma_default, const char *work_dir, char **dtb, struct strbuf *errs)
{
	struct vm_config dump = *vc;
	struct strlist argv = { 0 };
	char *qemu_dtb = path_join(work_dir, "qemu.dtb");
	char *qemu_dts = path_join(work_dir, "qemu.dts");
	char *log = path_join(work_dir, "dtb.log");
	char *src = path_join(vc->share_dir, DTB_SOURCE_NAME);
	char *machine = xasprintf("%s,dumpdtb=%s", vc->machine, qemu_dtb);
	char *out = path_join(work_dir, "run.dtb");
	char *text = NULL, *frag = NULL;
	const char *why = NULL;
	int rc = -1, ac, sc;

	if (!errs->buf)
		sb_init(errs);
	*dtb = NULL;
	mkdir_p(work_dir);
	/* QEMU writes the tree of exactly this machine (memory, CPUs, devices) and exits. */
	dump.machine = machine;
	dump.dtb = NULL;
	vm_argv(&dump, &argv);
	if (run_cmd(argv.v, NULL, log, NULL, NULL) || !path_exists(qemu_dtb)) {
		sb_addf(errs, "%s: could not dump the machine's device tree (see %s)\n", vc->qemu, log);
		goto out;
	}
	ac = root_cells(qemu_dtb, "#address-cells");
	sc = root_cells(qemu_dtb, "#size-cells");
	if (ac < 0 || sc < 0) {
		sb_addf(errs, "%s: no #address-cells/#size-cells at the root (fdtget)\n", qemu_dtb);
		goto out;
	}
	{
		char *dec[] = { (char *)env->dtc, "-q", "-I", "dtb", "-O", "dts", "-o", qemu_dts,
				qemu_dtb, NULL };

		if (run_cmd(dec, NULL, log, NULL, NULL)) {
			sb_addf(errs, "%s: dtc could not decompile it (see %s)\n", qemu_dtb, log);
			goto out;
		}
	}
	frag = dtb_fragment(s, area, gcma_default, ac, sc, &why);
	if (why) {
		sb_addf(errs, "%s: %s\n", qemu_dtb, why);
		goto out;
	}
	text = read_file(qemu_dts, NULL);
	if (!text) {
		sb_addf(errs, "%s: %s\n", qemu_dts, strerror(errno));
		goto out;
	}
	{
		/* A second root node in the same source: dtc merges it into the first. */
		char *whole = xasprintf("%s%s", text, frag ? frag : "");

		rc = write_file(src, whole, strlen(whole));
		free(whole);
		if (rc) {
			sb_addf(errs, "%s: %s\n", src, strerror(errno));
			goto out;
		}
	}
	{
		char *comp[] = { (char *)env->dtc, "-q", "-I", "dts", "-O", "dtb", "-o", out, src,
				 NULL };

		rc = run_cmd(comp, NULL, log, NULL, NULL);
		if (rc) {
			sb_addf(errs, "%s: dtc could not compile it (see %s)\n", src, log);
			goto out;
		}
	}
	*dtb = out;
	out = NULL;
	rc = 0;
out:
	if (rc && !errs->len)
		sb_addf(errs, "%s: the device tree could not be made\n", src);
	sl_free(&argv);
	free(qemu_dtb);
	free(qemu_dts);
	free(log);
	free(src);
	free(machine);
	free(out);
	free(text);
	free(frag);
	return rc ? -1 : 0;
}
