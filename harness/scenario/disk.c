#include "scenario/disk.h"
#include "lib/util.h"

#include <string.h>

/* Datasheet figures (MB = 10^6 bytes); docs/scenarios.md names the sources. */
static const struct disk_profile profiles[] = {
	{ "host", 0, 0, 0, 0, "the host's disk and page cache, unthrottled",
	  "the host's disk" },
	{ "emmc", 250e6, 125e6, 11000, 13000, "Samsung 64 GB eMMC 5.1 (2015)", "eMMC" },
	{ "ufs", 2100e6, 1200e6, 100000, 70000, "Samsung 512 GB eUFS 3.1 (2020)", "UFS" },
	{ "nvme", 7000e6, 5000e6, 1000000, 1000000, "Samsung 980 PRO 1 TB NVMe (2020)",
	  "NVMe" },
};

const struct disk_profile *disk_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

void disk_list(struct strlist *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(profiles); i++)
		sl_add(out, profiles[i].name);
}

char *disk_qemu_opts(const struct disk_profile *d, double scale)
{
	struct strbuf sb;

	sb_init(&sb);
	if (scale < 1)
		scale = 1;
	if (d && d->read_bps > 0)
		sb_addf(&sb, ",throttling.bps-read=%.0f,throttling.bps-write=%.0f"
			",throttling.iops-read=%.0f,throttling.iops-write=%.0f",
			d->read_bps / scale, d->write_bps / scale, d->read_iops / scale,
			d->write_iops / scale);
	return sb_detach(&sb);
}
