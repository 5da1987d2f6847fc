/* cmabench image: build (or reuse) the guest root image and print its path. */
#include "builtin.h"
#include "image.h"

#include <stdlib.h>

static const struct opt image_opts_table[] = {
	OPT_END(),
};

const struct cmd_usage image_usage = {
	"cmabench image",
	"Builds (or reuses) the guest root image and prints its path.",
	image_opts_table,
};

int cmd_image(int argc, char **argv, struct cmb_env *env)
{
	int first = options_parse(&image_usage, NULL, argc, argv);
	char *img;

	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first < argc) {
		options_usage(stderr, &image_usage);
		return 2;
	}
	img = image_get(env);
	if (!img)
		return 1;
	printf("%s\n", img);
	free(img);
	return 0;
}
