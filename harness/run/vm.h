/*
 * One QEMU guest: started with a kernel, command line and disks, watched
 * through its serial console, stopped on panic, timeout or Ctrl-C. QEMU runs
 * in its own process group with PR_SET_PDEATHSIG, so it never outlives us.
 */
#ifndef CMB_VM_H
#define CMB_VM_H

#include <stdbool.h>

#include "lib/util.h"
#include "scenario/arch.h"

struct vm_config {
	const char *qemu;
	const char *accel;          /* "kvm" or "tcg" */
	bool icount;                /* TCG: guest time counts instructions (-icount) */
	const char *machine;        /* -machine (arm64: virt), NULL: QEMU's default */
	const char *cpu;            /* -cpu under TCG, NULL: QEMU's default (KVM: host) */
	const char *dtb;            /* -dtb: the device tree to boot with, NULL: QEMU's own */
	unsigned long mem_mib;
	long cpus;
	const char *kernel;
	const char *cmdline;
	const char *root_img;       /* opened snapshot=on: the cached image stays pristine */
	const char *scratch_img;    /* NULL: none */
	const char *scratch_opts;   /* appended to its -drive (throttling), or NULL */
	const char *share_dir;      /* virtio-9p, tag "results"; NULL: none */
	const char *console_log;
	double timeout_s;
	/* On timeout, where the vCPUs were is written here (hangdump.c), or NULL. */
	const char *hang_dump;
	const char *sysmap;         /* the kernel's System.map, naming the addresses */
	/*
	 * The progress watchdog (watchdog.h): a guest silent this long is asked
	 * for its tasks' stacks, what it did is written to watchdog_log, and
	 * the run ends as VM_HANG. 0: none.
	 */
	double silence_s;
	const char *watchdog_log;
	/* A fault to inject: when a console line holds this text, the scratch
	 * disk is throttled to 1 byte/s through QMP (a read that never
	 * completes). NULL: none. */
	const char *scratch_stall;
	const char *label;          /* progress line */
	double estimate_s;
	/* Called with each console line as it comes (calibrate.c's rounds), or NULL. */
	void (*line_hook)(void *arg, const char *line);
	void *line_hook_arg;
};

enum vm_status {
	VM_OK,              /* init ran every step and powered off */
	VM_STEP_FAILED,     /* init finished but a step failed */
	VM_OOPS,            /* the kernel oopsed (the run may have finished) */
	VM_PANIC,
	VM_NO_INIT,
	VM_TIMEOUT,
	VM_HANG,            /* no progress for the watchdog's bound: stacks asked for, stopped */
	VM_CRASHED,         /* QEMU ended without our init's done marker */
	VM_START_FAILED,
	VM_INTERRUPTED,
};

struct vm_result {
	enum vm_status status;
	double seconds;             /* QEMU start to exit */
	double kernel_seconds;      /* QEMU start to "Linux version"; <0 unseen */
	double init_seconds;        /* QEMU start to our init; <0 unseen */
	int warnings;
	char problem[256];          /* first panic/oops line */
	char hang[512];             /* on timeout or hang: where each vCPU was, or "" */
	char silence[320];          /* on hang: the watchdog's summary (watchdog.h) */
	int qemu_exit;
};

/* The QEMU argv for c (caller frees with sl_free). */
/* Does this TCG guest need a second possible vCPU to keep its barriers (vm.c)? */
bool tcg_barriers_need_smp(const struct vm_config *c);
void vm_argv(const struct vm_config *c, struct strlist *argv);
int vm_run(const struct vm_config *c, struct vm_result *r);
const char *vm_status_name(enum vm_status s);
/*
 * Whether a KVM guest of arch a reaches the kernel within timeout_s (KVM
 * hangs in nested guests).
 */
bool vm_probe_kvm(const char *qemu, const struct cmb_arch *a, const char *kernel,
		  double timeout_s);

#endif
