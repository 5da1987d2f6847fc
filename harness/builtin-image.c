/* cmabench image: build (or reuse) the guest root image and print its path. */
#include "builtin.h"
#include "kbuild/image.h"

#include <stddef.h>
#include <stdlib.h>

struct image_opts {
	const char *arch;
};

static const struct opt image_opts_table[] = {
	OPT_STRING(0, "arch", offsetof(struct image_opts, arch), "ARCH",
		   "the guest architecture: x86_64 (default) or arm64"),
	OPT_END(),
};

const struct cmd_usage image_usage = {
	"cmabench image [--arch ARCH]",
	"Builds (or reuses) the guest root image and prints its path.",
	image_opts_table,
};

int cmd_image(int argc, char **argv, struct cmb_env *env)
{
	struct image_opts o = { .arch = "x86_64" };
	int first = options_parse(&image_usage, &o, argc, argv);
	const struct cmb_arch *a;
	char *img;

	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first < argc) {
		options_usage(stderr, &image_usage);
		return 2;
	}
	a = arch_find(o.arch);
	if (!a) {
		err_msg("image: --arch %s: not an architecture (x86_64, arm64)", o.arch);
		return 2;
	}
	img = image_get_arch(env, a);
	if (!img)
		return 1;
	printf("%s\n", img);
	free(img);
	return 0;
}
