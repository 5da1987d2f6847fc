/*
 * Device trees with the run's area (dtb.c) and the ELF closure of foreign
 * programs (elfdeps.c): the reserved-memory node each set-up adds to a tree
 * (QEMU's, a board's with its own pool), read back with libfdt, the file
 * form checked by fdtget where it is installed; DT_NEEDED/PT_INTERP and
 * symlinks resolved inside an unpacked root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libfdt.h>

#include "run/dtb.h"
#include "kbuild/elfdeps.h"
#include "kbuild/kbuild.h"

/*
 * A board's tree as a test: the root's cells, one memory node and, with
 * own_pool, a /reserved-memory (1 address and 1 size cell, unlike the
 * root) holding the board's own default CMA pool. Caller frees.
 */
static void *base_tree(int ac, int sc, bool own_pool, size_t *len)
{
	int size = 4096;
	void *fdt = xmalloc((size_t)size);

	assert_int_equal(fdt_create(fdt, size), 0);
	assert_int_equal(fdt_finish_reservemap(fdt), 0);
	assert_int_equal(fdt_begin_node(fdt, ""), 0);
	assert_int_equal(fdt_property_u32(fdt, "#address-cells", (uint32_t)ac), 0);
	assert_int_equal(fdt_property_u32(fdt, "#size-cells", (uint32_t)sc), 0);
	assert_int_equal(fdt_begin_node(fdt, "memory@40000000"), 0);
	assert_int_equal(fdt_property_string(fdt, "device_type", "memory"), 0);
	assert_int_equal(fdt_end_node(fdt), 0);
	if (own_pool) {
		assert_int_equal(fdt_begin_node(fdt, "reserved-memory"), 0);
		assert_int_equal(fdt_property_u32(fdt, "#address-cells", 1), 0);
		assert_int_equal(fdt_property_u32(fdt, "#size-cells", 1), 0);
		assert_int_equal(fdt_property(fdt, "ranges", NULL, 0), 0);
		assert_int_equal(fdt_begin_node(fdt, "linux,cma"), 0);
		assert_int_equal(fdt_property_string(fdt, "compatible", "shared-dma-pool"), 0);
		assert_int_equal(fdt_property(fdt, "reusable", NULL, 0), 0);
		assert_int_equal(fdt_property_u32(fdt, "size", 0x2000000), 0);
		assert_int_equal(fdt_property(fdt, "linux,cma-default", NULL, 0), 0);
		assert_int_equal(fdt_end_node(fdt), 0);
		assert_int_equal(fdt_end_node(fdt), 0);
	}
	assert_int_equal(fdt_end_node(fdt), 0);
	assert_int_equal(fdt_finish(fdt), 0);
	*len = fdt_totalsize(fdt);
	return fdt;
}

static void *add_area(const void *in, size_t len, enum setup s, uint64_t area, bool def,
		      struct strbuf *notes)
{
	const char *why = "unset";
	size_t out_len = 0;
	void *out = NULL;

	assert_int_equal(dtb_add_area(in, len, s, area, def, &out, &out_len, notes, &why), 0);
	assert_null(why);
	assert_non_null(out);
	assert_int_equal(fdt_check_header(out), 0);
	assert_int_equal(fdt_totalsize(out), out_len);
	return out;
}

static bool has_prop(const void *fdt, const char *path, const char *prop)
{
	int node = fdt_path_offset(fdt, path);

	return node >= 0 && fdt_getprop(fdt, node, prop, NULL);
}

/* The property as a big-endian number of 1 or 2 cells; ~0 if absent or neither. */
static uint64_t cells_prop(const void *fdt, const char *path, const char *prop)
{
	int node = fdt_path_offset(fdt, path), len = 0;
	const fdt32_t *v = node >= 0 ? fdt_getprop(fdt, node, prop, &len) : NULL;

	if (!v || (len != 4 && len != 8))
		return ~0ull;
	return len == 4 ? fdt32_to_cpu(v[0])
			: (uint64_t)fdt32_to_cpu(v[0]) << 32 | fdt32_to_cpu(v[1]);
}

static void test_area_cma(void **state)
{
	size_t len;
	void *in = base_tree(2, 2, false, &len), *out = add_area(in, len, SETUP_CMA,
								 64ull << 20, true, NULL);

	(void)state;
	/* /reserved-memory made with the root's cells */
	assert_int_equal(cells_prop(out, "/reserved-memory", "#address-cells"), 2);
	assert_int_equal(cells_prop(out, "/reserved-memory", "#size-cells"), 2);
	assert_true(has_prop(out, "/reserved-memory", "ranges"));
	/* the area cma= makes on x86 is called "reserved": so is this node */
	assert_string_equal(fdt_getprop(out, fdt_path_offset(out, "/reserved-memory/reserved"),
					"compatible", NULL), "shared-dma-pool");
	assert_true(has_prop(out, "/reserved-memory/reserved", "reusable"));
	assert_int_equal(cells_prop(out, "/reserved-memory/reserved", "size"), 64ull << 20);
	assert_true(has_prop(out, "/reserved-memory/reserved", "linux,cma-default"));
	assert_false(has_prop(out, "/reserved-memory/reserved", "guarantee"));
	/* the input is left alone */
	assert_int_equal(fdt_path_offset(in, "/reserved-memory"), -FDT_ERR_NOTFOUND);
	free(in);
	free(out);
}

static void test_area_gcma(void **state)
{
	size_t len;
	void *in = base_tree(2, 2, false, &len), *out;
	uint64_t ph;

	(void)state;
	/* a 64-bit size in two cells */
	out = add_area(in, len, SETUP_GCMA, 5ull << 30, true, NULL);
	assert_true(has_prop(out, "/reserved-memory/gcma", "guarantee"));
	assert_true(has_prop(out, "/reserved-memory/gcma", "reusable"));
	/* the default area, as gcma=SIZE,default makes it on x86 */
	assert_true(has_prop(out, "/reserved-memory/gcma", "linux,cma-default"));
	assert_int_equal(cells_prop(out, "/reserved-memory/gcma", "size"), 5ull << 30);
	/* the device our module binds, given the area as the seeds give one */
	ph = cells_prop(out, "/reserved-memory/gcma", "phandle");
	assert_true(ph > 0 && ph < 0xffffffffull);
	assert_int_equal(cells_prop(out, "/cmabench-dma", "memory-region"), ph);
	assert_string_equal(fdt_getprop(out, fdt_path_offset(out, "/cmabench-dma"), "compatible",
					NULL), "cmabench,dma");
	free(out);
	/* not the default area beside a cma= of the command line, which the
	 * kernel would take instead of a default node */
	out = add_area(in, len, SETUP_GCMA, 64ull << 20, false, NULL);
	assert_true(has_prop(out, "/reserved-memory/gcma", "guarantee"));
	assert_false(has_prop(out, "/reserved-memory/gcma", "linux,cma-default"));
	free(out);
	free(in);
}

/* A board's own /reserved-memory: its cells used, its default pool no longer the default. */
static void test_area_board_pool(void **state)
{
	struct strbuf notes = { 0 };
	size_t len;
	void *in = base_tree(2, 2, true, &len), *out;

	(void)state;
	out = add_area(in, len, SETUP_GCMA, 64ull << 20, true, &notes);
	assert_int_equal(cells_prop(out, "/reserved-memory/gcma", "size"), 64ull << 20);
	assert_true(has_prop(out, "/reserved-memory/gcma", "linux,cma-default"));
	assert_false(has_prop(out, "/reserved-memory/linux,cma", "linux,cma-default"));
	assert_true(has_prop(out, "/reserved-memory/linux,cma", "reusable"));
	assert_non_null(strstr(notes.buf, "dropped linux,cma-default from "
				"/reserved-memory/linux,cma"));
	free(out);
	sb_free(&notes);
	/* not our default: the board's pool keeps its role */
	out = add_area(in, len, SETUP_GCMA, 64ull << 20, false, &notes);
	assert_true(has_prop(out, "/reserved-memory/linux,cma", "linux,cma-default"));
	assert_null(notes.buf);
	free(out);
	free(in);
}

static void test_area_none(void **state)
{
	size_t len;
	void *in = base_tree(2, 2, false, &len), *out;

	(void)state;
	for (int s = SETUP_NONE; s <= SETUP_CARVEOUT; s++) {
		out = add_area(in, len, (enum setup)s, 64ull << 20, true, NULL);
		assert_int_equal(fdt_path_offset(out, "/reserved-memory"), -FDT_ERR_NOTFOUND);
		assert_int_equal(fdt_path_offset(out, "/cmabench-dma"), -FDT_ERR_NOTFOUND);
		free(out);
	}
	free(in);
}

static void test_area_refused(void **state)
{
	const char *why;
	size_t len, out_len;
	void *in = base_tree(2, 2, true, &len), *out = (void *)1, *twice;

	(void)state;
	/* 5 GiB in the board's one size cell */
	assert_int_equal(dtb_add_area(in, len, SETUP_GCMA, 5ull << 30, true, &out, &out_len,
				      NULL, &why), -1);
	assert_null(out);
	assert_non_null(strstr(why, "#size-cells"));
	/* a tree that has our nodes already (an edited tree edited again) */
	twice = add_area(in, len, SETUP_CMA, 64ull << 20, true, NULL);
	assert_int_equal(dtb_add_area(twice, fdt_totalsize(twice), SETUP_CMA, 64ull << 20, true,
				      &out, &out_len, NULL, &why), -1);
	assert_non_null(strstr(why, "already has a node of ours"));
	free(twice);
	/* not a tree at all, and a tree cut short */
	assert_int_equal(dtb_add_area("hello", 5, SETUP_CMA, 64ull << 20, true, &out, &out_len,
				      NULL, &why), -1);
	assert_non_null(strstr(why, "not a flattened device tree"));
	assert_int_equal(dtb_add_area(in, len - 8, SETUP_CMA, 64ull << 20, true, &out, &out_len,
				      NULL, &why), -1);
	free(in);
}

/* dtb_edit_file: the blob and its decompiled record, checked by fdtget. */
static void test_edit_file(void **state)
{
	char dir[] = "/tmp/cmb-dtb-XXXXXX";
	struct cmb_env env = { .dtc = "dtc" };
	struct strbuf errs = { 0 };
	size_t len;
	void *in = base_tree(2, 2, false, &len);

	(void)state;
	if (system("command -v dtc > /dev/null 2>&1 && command -v fdtget > /dev/null 2>&1")) {
		free(in);
		skip();
		return;
	}
	assert_non_null(mkdtemp(dir));
	char *src = xasprintf("%s/in.dtb", dir), *dtb = xasprintf("%s/out.dtb", dir);
	char *dts = xasprintf("%s/out.dts", dir), *text;
	char *get = xasprintf("fdtget -t x %s /reserved-memory/gcma size", dtb);
	char *argv[] = { "sh", "-c", get, NULL }, *out;

	assert_int_equal(write_file(src, in, len), 0);
	assert_int_equal(dtb_edit_file(&env, src, SETUP_GCMA, 64ull << 20, true, dtb, dts, NULL,
				       &errs), 0);
	out = cmd_first_line(argv);
	assert_non_null(out);
	assert_string_equal(out, "0 4000000");
	text = read_file(dts, NULL);
	assert_non_null(strstr(text, "guarantee;"));
	free(text);
	free(out);
	/* a file that is no tree: named, nothing written */
	assert_int_equal(write_file(src, "junk", 4), 0);
	unlink(dtb);
	assert_int_equal(dtb_edit_file(&env, src, SETUP_GCMA, 64ull << 20, true, dtb, dts, NULL,
				       &errs), -1);
	assert_non_null(strstr(errs.buf, "in.dtb: not a flattened device tree"));
	assert_false(path_exists(dtb));
	sb_free(&errs);
	free(src);
	free(dtb);
	free(dts);
	free(get);
	free(in);
	rm_rf(dir);
}

/* The test program's own headers: a dynamic x86_64 (or native) executable. */
static void test_elf_deps_self(void **state)
{
	struct strlist needed = { 0 };
	struct strbuf errs = { 0 };
	char *interp = NULL;

	(void)state;
	assert_int_equal(elf_deps("/proc/self/exe", &interp, &needed, NULL, &errs), 0);
	assert_non_null(interp);
	assert_non_null(strstr(interp, "ld-linux"));
	assert_true(sl_has(&needed, "libc.so.6"));
	assert_true(sl_has(&needed, "libcmocka.so.0"));
	free(interp);
	sl_free(&needed);
	/* a text file is no ELF file */
	assert_int_equal(elf_deps("/etc/passwd", &interp, &needed, NULL, &errs), -1);
	assert_non_null(strstr(errs.buf, "/etc/passwd: not an ELF file"));
	sb_free(&errs);
}

/* Symlinks inside an unpacked root are followed inside it, never on the host. */
static void test_root_resolve(void **state)
{
	char dir[] = "/tmp/cmb-root-XXXXXX";
	char *p, *q;

	(void)state;
	assert_non_null(mkdtemp(dir));
	p = xasprintf("%s/lib/aarch64-linux-gnu", dir);
	assert_int_equal(mkdir_p(p), 0);
	free(p);
	p = xasprintf("%s/lib/aarch64-linux-gnu/libc.so.6", dir);
	assert_int_equal(write_file(p, "x", 1), 0);
	/* relative (as Debian's ld.so link) and absolute links */
	q = xasprintf("%s/lib/ld.so", dir);
	assert_int_equal(symlink("aarch64-linux-gnu/libc.so.6", q), 0);
	free(q);
	q = xasprintf("%s/lib/abs.so", dir);
	assert_int_equal(symlink("/lib/aarch64-linux-gnu/libc.so.6", q), 0);
	free(q);
	q = root_resolve(dir, "/lib/ld.so");
	assert_non_null(q);
	assert_string_equal(q, p);
	free(q);
	q = root_resolve(dir, "/lib/abs.so");
	assert_non_null(q);
	assert_string_equal(q, p);
	free(q);
	assert_null(root_resolve(dir, "/lib/missing.so"));
	/* a loop ends */
	q = xasprintf("%s/lib/loop", dir);
	assert_int_equal(symlink("/lib/loop", q), 0);
	free(q);
	assert_null(root_resolve(dir, "/lib/loop"));
	free(p);
	rm_rf(dir);
}

/* A program's closure in a root that misses one of its libraries names it. */
static void test_closure_missing(void **state)
{
	char dir[] = "/tmp/cmb-clos-XXXXXX";
	const char *const dirs[] = { "/lib", NULL };
	struct strlist hosts = { 0 }, guests = { 0 };
	struct strbuf errs = { 0 };
	char *bin;

	(void)state;
	assert_non_null(mkdtemp(dir));
	bin = xasprintf("%s/prog", dir);
	assert_int_equal(copy_file("/proc/self/exe", bin), 0);
	assert_int_equal(elf_closure(dir, "/prog", dirs, &hosts, &guests, &errs), -1);
	assert_non_null(strstr(errs.buf, "/prog needs libc.so.6"));
	assert_non_null(strstr(errs.buf, "its interpreter"));
	sl_free(&hosts);
	sl_free(&guests);
	sb_free(&errs);
	free(bin);
	rm_rf(dir);
}

/*
 * A program whose RUNPATH ($ORIGIN/../lib/sub) holds its libc: the closure
 * finds it there, with the interpreter, inside the root.
 */
static void test_closure_runpath(void **state)
{
	char dir[] = "/tmp/cmb-rpath-XXXXXX";
	/* libc needs the interpreter by name: where the root keeps it */
	const char *const dirs64[] = { "/lib64", "/lib", NULL };
	struct strlist hosts = { 0 }, guests = { 0 }, needed = { 0 }, rp = { 0 };
	struct strbuf errs = { 0 };
	char *interp = NULL, *cmd, *ld, *libc;

	(void)state;
	assert_non_null(mkdtemp(dir));
	cmd = xasprintf("mkdir -p %s/bin %s/lib/sub && echo 'int main(void) { return 0; }' > %s/t.c && "
			"cc -o %s/bin/prog %s/t.c -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../lib/sub' "
			"2> /dev/null", dir, dir, dir, dir, dir);
	if (system(cmd)) {
		free(cmd);
		rm_rf(dir);
		skip();
		return;
	}
	free(cmd);
	cmd = xasprintf("%s/bin/prog", dir);
	assert_int_equal(elf_deps(cmd, &interp, &needed, &rp, &errs), 0);
	assert_true(sl_has(&rp, "$ORIGIN/../lib/sub"));
	assert_true(sl_has(&needed, "libc.so.6"));
	/* the host's own libc and interpreter stand in for the root's */
	ld = xasprintf("%s%s", dir, interp);
	{
		char *slash = strrchr(ld, '/');

		*slash = '\0';
		assert_int_equal(mkdir_p(ld), 0);
		*slash = '/';
	}
	assert_int_equal(copy_file(interp, ld), 0);
	libc = xasprintf("%s/lib/sub/libc.so.6", dir);
	{
		char *argv[] = { "sh", "-c", "ldd /bin/sh | awk '/libc.so.6/ { print $3 }'",
				 NULL };
		char *host_libc = cmd_first_line(argv);

		assert_non_null(host_libc);
		assert_int_equal(copy_file(host_libc, libc), 0);
		free(host_libc);
	}
	if (elf_closure(dir, "/bin/prog", dirs64, &hosts, &guests, &errs))
		fail_msg("%s", errs.buf);
	assert_true(sl_has(&guests, "/bin/../lib/sub/libc.so.6"));
	assert_true(sl_has(&guests, interp));
	free(interp);
	free(cmd);
	free(ld);
	free(libc);
	sl_free(&hosts);
	sl_free(&guests);
	sl_free(&needed);
	sl_free(&rp);
	sb_free(&errs);
	rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_area_cma),
		cmocka_unit_test(test_area_gcma),
		cmocka_unit_test(test_area_board_pool),
		cmocka_unit_test(test_area_none),
		cmocka_unit_test(test_area_refused),
		cmocka_unit_test(test_edit_file),
		cmocka_unit_test(test_elf_deps_self),
		cmocka_unit_test(test_root_resolve),
		cmocka_unit_test(test_closure_missing),
		cmocka_unit_test(test_closure_runpath),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
