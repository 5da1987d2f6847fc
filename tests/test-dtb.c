/*
 * Device-tree fragments (dtb.c) and the ELF closure of foreign programs
 * (elfdeps.c): the reserved-memory node each set-up adds to QEMU's tree,
 * checked by dtc where it is installed; DT_NEEDED/PT_INTERP and symlinks
 * resolved inside an unpacked root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/dtb.h"
#include "kbuild/elfdeps.h"
#include "kbuild/kbuild.h"

static void test_fragment_cma(void **state)
{
	const char *why;
	char *f = dtb_fragment(SETUP_CMA, 64ull << 20, true, 2, 2, &why);

	(void)state;
	assert_null(why);
	assert_non_null(f);
	assert_non_null(strstr(f, "reserved-memory {"));
	assert_non_null(strstr(f, "#address-cells = <2>;"));
	assert_non_null(strstr(f, "#size-cells = <2>;"));
	assert_non_null(strstr(f, "ranges;"));
	/* the area cma= makes on x86 is called "reserved": so is this node */
	assert_non_null(strstr(f, "\t\tcmb_area: reserved {\n"));
	assert_non_null(strstr(f, "compatible = \"shared-dma-pool\";"));
	assert_non_null(strstr(f, "reusable;"));
	assert_non_null(strstr(f, "size = <0x0 0x4000000>;"));
	assert_non_null(strstr(f, "linux,cma-default;"));
	assert_null(strstr(f, "guarantee"));
	free(f);
}

static void test_fragment_gcma(void **state)
{
	const char *why;
	char *f = dtb_fragment(SETUP_GCMA, 3ull << 30, true, 2, 2, &why);

	(void)state;
	assert_null(why);
	assert_non_null(f);
	assert_non_null(strstr(f, "\t\tcmb_area: gcma {\n"));
	assert_non_null(strstr(f, "compatible = \"shared-dma-pool\";"));
	assert_non_null(strstr(f, "reusable;"));
	assert_non_null(strstr(f, "guarantee;"));
	/* the default area, as gcma=SIZE,default makes it on x86 */
	assert_non_null(strstr(f, "linux,cma-default;"));
	assert_non_null(strstr(f, "size = <0x0 0xc0000000>;"));
	/* the device our module binds, given the area as the seeds give one */
	assert_non_null(strstr(f, "cmb_area: gcma {"));
	assert_non_null(strstr(f, "compatible = \"cmabench,dma\";"));
	assert_non_null(strstr(f, "memory-region = <&cmb_area>;"));
	free(f);
	/* not the default area beside a cma= of the command line, which the
	 * kernel would take instead of a default node, dropping it */
	f = dtb_fragment(SETUP_GCMA, 64ull << 20, false, 2, 2, &why);
	assert_non_null(strstr(f, "guarantee;"));
	assert_null(strstr(f, "linux,cma-default"));
	free(f);
	/* a 64-bit size in two cells */
	f = dtb_fragment(SETUP_GCMA, 5ull << 30, true, 2, 2, &why);
	assert_non_null(strstr(f, "size = <0x1 0x40000000>;"));
	free(f);
	/* one size cell */
	f = dtb_fragment(SETUP_GCMA, 64ull << 20, true, 1, 1, &why);
	assert_non_null(strstr(f, "size = <0x4000000>;"));
	assert_non_null(strstr(f, "#size-cells = <1>;"));
	free(f);
}

static void test_fragment_none(void **state)
{
	const char *why = "unset";

	(void)state;
	assert_null(dtb_fragment(SETUP_NONE, 64ull << 20, true, 2, 2, &why));
	assert_null(why);
	assert_null(dtb_fragment(SETUP_CARVEOUT, 64ull << 20, true, 2, 2, &why));
	assert_null(why);
}

static void test_fragment_bad_cells(void **state)
{
	const char *why;

	(void)state;
	assert_null(dtb_fragment(SETUP_GCMA, 5ull << 30, true, 2, 1, &why));
	assert_non_null(strstr(why, "#size-cells"));
	assert_null(dtb_fragment(SETUP_CMA, 64ull << 20, true, 3, 2, &why));
	assert_non_null(strstr(why, "#address-cells"));
}

/* dtc accepts a tree with the fragment merged in, and the node lands where expected. */
static void test_fragment_compiles(void **state)
{
	char dir[] = "/tmp/cmb-dtb-XXXXXX";
	const char *why;

	(void)state;
	if (system("command -v dtc > /dev/null 2>&1 && command -v fdtget > /dev/null 2>&1")) {
		skip();
		return;
	}
	assert_non_null(mkdtemp(dir));
	for (int s = SETUP_CMA; s <= SETUP_GCMA; s++) {
		char *frag = dtb_fragment((enum setup)s, 64ull << 20, true, 2, 2, &why);
		char *src = xasprintf("/dts-v1/;\n/ {\n\t#address-cells = <2>;\n\t#size-cells = <2>;\n"
				      "\tmemory@40000000 {\n\t\tdevice_type = \"memory\";\n"
				      "\t\treg = <0x0 0x40000000 0x0 0x10000000>;\n\t};\n};\n%s", frag);
		char *dts = xasprintf("%s/t.dts", dir), *dtb = xasprintf("%s/t.dtb", dir);
		char *cmd = xasprintf("dtc -q -I dts -O dtb -o %s %s", dtb, dts);
		char *get = xasprintf("fdtget -t x %s /reserved-memory/%s size", dtb,
				      setup_area_name((enum setup)s));
		char *argv[] = { "sh", "-c", get, NULL };
		char *out;

		assert_int_equal(write_file(dts, src, strlen(src)), 0);
		assert_int_equal(system(cmd), 0);
		out = cmd_first_line(argv);
		assert_non_null(out);
		assert_string_equal(out, "0 4000000");
		free(out);
		free(get);
		free(frag);
		free(src);
		free(cmd);
		free(dts);
		free(dtb);
	}
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
		cmocka_unit_test(test_fragment_cma),
		cmocka_unit_test(test_fragment_gcma),
		cmocka_unit_test(test_fragment_none),
		cmocka_unit_test(test_fragment_bad_cells),
		cmocka_unit_test(test_fragment_compiles),
		cmocka_unit_test(test_elf_deps_self),
		cmocka_unit_test(test_root_resolve),
		cmocka_unit_test(test_closure_missing),
		cmocka_unit_test(test_closure_runpath),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
