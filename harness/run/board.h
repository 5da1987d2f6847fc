/*
 * Runs on a board reached over ssh (run --target ssh://...): the kernel
 * under test is built from the board's own .config with the scenario's
 * fragments, copied to one directory of ours on the board, booted with
 * kexec; the same plan runs under our init in a chroot of the guest
 * userland (the board's init stays PID 1), the results come back, and a
 * reboot returns the board to its own kernel (its bootloader's choice,
 * which kexec back could not know: its initrd and command line belong to
 * the boot loader).
 */
#ifndef CMB_BOARD_H
#define CMB_BOARD_H

#include <json-c/json.h>
#include <stdbool.h>

#include "kbuild/kbuild.h"
#include "lib/env.h"
#include "run/target.h"
#include "run/vm.h"
#include "scenario/plan.h"

struct board {
	struct target t;
	struct board_facts facts;   /* the probe before the first run */
	const struct cmb_arch *arch;
	const struct cmb_env *env;
	char *config;               /* the board's .config as kernels start from it (cache) */
	char *fdt;                  /* arm64: the board's /sys/firmware/fdt, a local copy */
	char *own_cmdline;          /* the board's own kernel's command line */
	char *own_release;
	char *dir;                  /* <target dir>/<run id>: everything of ours */
	char *userland;             /* the guest userland as a tar (cache) */
	bool userland_sent;
	struct strlist kernels_sent;
	bool lost;                  /* did not come back: the remaining runs are skipped */
	double boot_timeout_s;
	struct kvariant *variants;  /* the board's variants, by kvariant_index */
	unsigned nvariants;
};

/* The board's .config as our kernels start from it (board.c says why). */
char *board_config_sanitize(const char *text);
/*
 * Probes the board and prepares what every run needs: its facts (every
 * requirement met), its config (board_config, or /proc/config.gz), on a
 * device-tree arch its tree (/sys/firmware/fdt: each run's area is added
 * to it and the kernel booted with kexec --dtb), the directory of ours for
 * run_id. -1 with the reasons printed.
 */
int board_open(struct board *b, const struct cmb_env *env, const char *url,
	       const char *ssh_config, const char *board_config, const char *run_id);
/*
 * Variant v built for the board: its .config, then board.config, then v's
 * fragments but the arch's QEMU base. Owned by b.
 */
const struct kvariant *board_variant(struct board *b, const struct kvariant *v);
/* What of ours sits beside a run's scratch files on the board: the
 * userland (about 121 MiB, twice while it unpacks) and the kernels. */
#define BOARD_OURS_KIB (512 * 1024)

/* Whether the board can honour run r's keys: -1 with the file and key in errs. */
int board_check_run(const struct board *b, const struct run *r, struct strbuf *errs);
/* The guest userland for the board: image (ext4) unpacked to a tar. */
int board_userland(struct board *b, const struct cmb_env *env, const char *image);

struct board_run {
	const struct run *r;
	const struct kernel *k;
	const char *dir;            /* the run's local directory (plan/ in it) */
	const char *console;        /* its console.log */
	const char *label;
	bool area_default;          /* the area is the default one (no cma= of the run's own) */
	json_object *m;             /* its metadata */
};

/* One run on the board: its status, res filled as a VM's would be. */
const char *board_run(struct board *b, const struct board_run *br, struct vm_result *res);
/*
 * The board back in its own kernel and the directory of ours removed; says
 * so, or what could not be done. 0 or -1.
 */
int board_close(struct board *b);

#endif
