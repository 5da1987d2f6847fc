/*
 * Where a hung guest was: before a timed-out VM is killed, its vCPUs'
 * program counters are sampled a few times through QMP, then the guest is
 * paused while they are in kernel text and the stack words above each stack
 * pointer read; kernel text addresses are named from the kernel's
 * System.map. A vCPU that stays in one function spins (with
 * CONFIG_PREEMPT_NONE and one vCPU nothing else runs, and no watchdog of
 * ours prints); one halted in the idle loop waits for a task that never
 * wakes.
 */
#ifndef CMB_HANGDUMP_H
#define CMB_HANGDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kernel text symbols of a System.map, sorted by address. */
struct ksyms {
	struct ksym {
		uint64_t addr;
		char *name;
	} *v;
	size_t n;
};

int ksyms_load(struct ksyms *k, const char *sysmap);
/* "name+0xoff" of a text address; false (buf "") outside the kernel's text. */
bool ksyms_name(const struct ksyms *k, uint64_t addr, char *buf, size_t len);
void ksyms_free(struct ksyms *k);

struct vcpu_regs {
	uint64_t pc, sp;
	bool halted;                /* x86 HLT=1: in the idle loop's hlt */
};

/* The vCPUs of QEMU's "info registers -a" text (x86_64 RIP/RSP, arm64 PC/SP). */
size_t hangdump_parse_regs(const char *text, struct vcpu_regs *v, size_t max);

#define HANG_SAMPLES 5
#define HANG_MAX_CPUS 64

/* The vCPUs' registers at each of n samples. */
struct hang_samples {
	struct vcpu_regs regs[HANG_SAMPLES][HANG_MAX_CPUS];
	size_t ncpu[HANG_SAMPLES];
	size_t n;
};

/*
 * One line: per vCPU, the function most samples found it in (on a tie, the
 * later one) and in how many, e.g. "cpu0 default_idle (halted) in 4/5
 * samples". A guest that is slow rather than hung is caught in user space
 * at some samples; where it spent the others is what names it.
 */
void hangdump_summary(const struct ksyms *k, const struct hang_samples *s, char *buf,
		      size_t len);

/*
 * Writes out_path (where each vCPU was, its stack's text words, the raw
 * registers) from the guest behind qmp_sock, and a one-line summary into
 * summary. -1 when QEMU did not answer.
 */
int hangdump_write(const char *qmp_sock, const char *sysmap, const char *out_path,
		   char *summary, size_t len);

#endif
