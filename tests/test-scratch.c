/* Scratch disks: the run's layout written on the host into the image, and
 * errors that leave no image behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/scratch.h"

struct fixture {
	char dir[32];
	struct cmb_env env;
	struct scenario scn;
	struct run_spec spec;
	struct run run;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test-scratch-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	env_init(&f->env);
	f->env.cache_dir = f->dir;
	f->scn.name = "scn";
	f->scn.path = "scn.scn";
	f->spec.scratch = 32ull << 20;
	f->run = (struct run){ .scn = &f->scn, .spec = &f->spec, .name = "cma-r1" };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	rm_rf(f->dir);
	free(f);
	return 0;
}

/* The files of a directory of the image, as debugfs lists them. */
static char *image_ls(const char *img, const char *dir)
{
	char *req = xasprintf("ls -l %s", dir);
	char *argv[] = { "debugfs", "-R", req, (char *)img, NULL };
	int st;
	char *out = cmd_output(argv, &st);

	free(req);
	return out;
}

static size_t tmp_entries(const char *dir)
{
	char *argv[] = { "ls", "-A", (char *)dir, NULL };
	int st;
	char *out = cmd_output(argv, &st);
	size_t n = 0;

	for (char *p = out; p && *p; p++)
		n += *p == '\n';
	free(out);
	return n;
}

static void test_layout_in_image(void **state)
{
	struct fixture *f = *state;
	char *tmp = path_join(f->dir, "tmp");
	char *img, *ls;

	f->run.layout = "build-sim prepare --dir build --files 3 --headers-mb 1\n"
			"app-switch prepare --dir apps --apps 2 --code-kb 64 --assets-kb 64\n";
	img = scratch_make(&f->env, &f->run, "t");
	assert_non_null(img);
	ls = image_ls(img, "/build");
	assert_non_null(ls);
	/* 1 MiB of 64 KiB headers and three sources, written by build-sim itself */
	assert_non_null(strstr(ls, "hdr00000.h"));
	assert_non_null(strstr(ls, "hdr00015.h"));
	assert_null(strstr(ls, "hdr00016.h"));
	assert_non_null(strstr(ls, "src00002.c"));
	assert_null(strstr(ls, "src00003.c"));
	free(ls);
	ls = image_ls(img, "/apps");
	assert_non_null(ls);
	assert_null(strstr(ls, "File not found"));
	free(ls);
	/* the host's copy of the trees is gone once the image is made */
	assert_int_equal(tmp_entries(tmp), 1);
	unlink(img);
	free(img);
	free(tmp);
}

/* A layout made once is kept and copied: the same files, one template per layout. */
static void test_layout_kept(void **state)
{
	struct fixture *f = *state;
	char *kept = path_join(f->dir, "scratch");
	char *a, *b, *ls;

	f->run.layout = "build-sim prepare --dir build --files 2\n";
	a = scratch_make(&f->env, &f->run, "a");
	assert_non_null(a);
	assert_int_equal(tmp_entries(kept), 1);
	b = scratch_make(&f->env, &f->run, "b");
	assert_non_null(b);
	assert_int_equal(tmp_entries(kept), 1);
	ls = image_ls(b, "/build");
	assert_non_null(strstr(ls, "src00001.c"));
	assert_null(strstr(ls, "src00002.c"));
	free(ls);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	f->run.layout = "build-sim prepare --dir build --files 3\n";
	a = scratch_make(&f->env, &f->run, "a");
	assert_non_null(a);
	assert_int_equal(tmp_entries(kept), 2);
	ls = image_ls(a, "/build");
	assert_non_null(strstr(ls, "src00002.c"));
	free(ls);
	unlink(a);
	free(a);
	free(kept);
}

static void test_no_layout(void **state)
{
	struct fixture *f = *state;
	char *img = scratch_make(&f->env, &f->run, "t");
	char *ls;

	assert_non_null(img);
	ls = image_ls(img, "/");
	assert_non_null(strstr(ls, "lost+found"));
	assert_null(strstr(ls, "build"));
	free(ls);
	unlink(img);
	free(img);
}

/* A layout that names no program, fails, or does not fit: NULL, nothing left. */
static void test_errors_leave_nothing(void **state)
{
	struct fixture *f = *state;
	char *tmp = path_join(f->dir, "tmp");

	f->run.layout = "cat /etc/hostname\n";
	assert_null(scratch_make(&f->env, &f->run, "t"));
	assert_int_equal(tmp_entries(tmp), 0);
	/* 64 MiB of headers on a 32 MiB disk */
	f->run.layout = "build-sim prepare --dir build --files 2 --headers-mb 64\n";
	assert_null(scratch_make(&f->env, &f->run, "t"));
	assert_int_equal(tmp_entries(tmp), 0);
	free(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_layout_in_image, setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors_leave_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
