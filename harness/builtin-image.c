/*
 * cmabench image: build (or reuse) the guest root image and print its path;
 * with --closure, the files a set of programs needs instead (scripts/board-vm).
 */
#include "builtin.h"
#include "kbuild/elfdeps.h"
#include "kbuild/image.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct image_opts {
	const char *arch;
	const char *closure;
};

static const struct opt image_opts_table[] = {
	OPT_STRING(0, "arch", offsetof(struct image_opts, arch), "ARCH",
		   "the guest architecture: x86_64 (default) or arm64"),
	OPT_STRING(0, "closure", offsetof(struct image_opts, closure), "ROOT",
		   "print the programs PROG... of ROOT (/: the host's) with their interpreter "
		   "and shared libraries, a line each: path in ROOT, tab, path on the host; "
		   "build nothing"),
	OPT_END(),
};

const struct cmd_usage image_usage = {
	"cmabench image [--arch ARCH] [--closure ROOT PROG...]",
	"Builds (or reuses) the guest root image and prints its path. With\n"
	"--closure, prints the files programs of ARCH need under ROOT instead,\n"
	"read from their ELF headers (PT_INTERP, DT_NEEDED): what an image of\n"
	"another arch, whose programs ldd cannot run, must hold.",
	image_opts_table,
};

/* Each program with its closure, "guest<TAB>host", each file once. */
static int print_closure(const struct cmb_arch *a, const char *root_opt, int n, char **progs)
{
	/* "/" is the host: root_resolve() joins root and path as strings */
	const char *root = strcmp(root_opt, "/") ? root_opt : "";
	struct strlist hosts = { 0 }, guests = { 0 };
	struct strbuf errs = { 0 };
	int rc = 0;

	for (int i = 0; i < n; i++) {
		char *h = root_resolve(root, progs[i]);

		if (!h) {
			err_msg("image --closure: %s: no such file in %s", progs[i], root_opt);
			rc = 1;
			continue;
		}
		if (!sl_has(&guests, progs[i])) {
			sl_add(&guests, progs[i]);
			sl_add(&hosts, h);
		}
		free(h);
		if (elf_closure(root, progs[i], a->lib_dirs, &hosts, &guests, &errs)) {
			err_msg("image --closure: %s", errs.buf);
			sb_free(&errs);
			rc = 1;
		}
	}
	for (size_t i = 0; !rc && i < guests.n; i++)
		printf("%s\t%s\n", guests.v[i], hosts.v[i]);
	sl_free(&hosts);
	sl_free(&guests);
	sb_free(&errs);
	return rc;
}

int cmd_image(int argc, char **argv, struct cmb_env *env)
{
	struct image_opts o = { .arch = "x86_64" };
	int first = options_parse(&image_usage, &o, argc, argv);
	const struct cmb_arch *a;
	char *img;

	if (first < 0)
		return first == -1 ? 0 : 2;
	if ((first < argc) != !!o.closure) {
		options_usage(stderr, &image_usage);
		return 2;
	}
	a = arch_find(o.arch);
	if (!a) {
		err_msg("image: --arch %s: not an architecture (x86_64, arm64)", o.arch);
		return 2;
	}
	if (o.closure)
		return print_closure(a, o.closure, argc - first, argv + first);
	img = image_get_arch(env, a);
	if (!img)
		return 1;
	printf("%s\n", img);
	free(img);
	return 0;
}
