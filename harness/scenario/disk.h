/*
 * Storage models for the scratch disk: QEMU's block throttling set to the
 * figures a named device was published with, so that cache effects are
 * measured against a disk as slow as the devices GCMA's users have, not
 * against the host's page cache (docs/scenarios.md cites each source).
 */
#ifndef CMB_DISK_H
#define CMB_DISK_H

#include "lib/util.h"

struct disk_profile {
	const char *name;
	double read_bps, write_bps;         /* bytes/s, 0: unlimited */
	double read_iops, write_iops;       /* requests/s, 0: unlimited */
	const char *device;                 /* what the figures describe */
	const char *label;                  /* how a report names it: "eMMC" */
};

/* The profile named name, or NULL. */
const struct disk_profile *disk_find(const char *name);
/* The models' names, in the table's order. */
void disk_list(struct strlist *out);
/* ",throttling.bps-read=...,..." for the scratch -drive, every limit divided
 * by scale (>= 1; disk-scale); "" for host. Caller frees. */
char *disk_qemu_opts(const struct disk_profile *d, double scale);

#endif
