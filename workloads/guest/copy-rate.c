/*
 * copy-rate: the guest's page-copy rate (copy-rate.h) as a CSV line:
 * "copy_rate_mbps\n<rate>". cmabench divides the host's rate by it to scale
 * a disk model to the emulated CPU (disk-scale=cpu).
 */
#include <stdio.h>

#include "copy-rate.h"
#include "guest.h"

int main(void)
{
	double r = copy_rate_mbps(2.0);

	if (r <= 0) {
		fprintf(stderr, "copy-rate: no memory for the buffers\n");
		return 1;
	}
	printf("copy_rate_mbps\n%.1f\n", r);
	return 0;
}
