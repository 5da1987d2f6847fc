/* cmabench image: build (or reuse) the guest root image and print its path. */
#include "builtin.h"
#include "image.h"

#include <stdlib.h>

int cmd_image(int argc, char **argv, struct cmb_env *env)
{
	char *img;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: cmabench image\n");
		return 2;
	}
	img = image_get(env);
	if (!img)
		return 1;
	printf("%s\n", img);
	free(img);
	return 0;
}
