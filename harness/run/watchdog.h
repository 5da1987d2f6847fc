/*
 * The progress watchdog of a running guest, armed when our init starts (a
 * boot, KUnit suites under KASAN behind a quiet console, is the VM
 * timeout's). Progress is what the guest's own programs do: our init's
 * lines (steps begin and end, backgrounds),
 * a heartbeat whose numbers moved (workloads/guest/heartbeat.c: a step
 * beats every 20 s with its tasks' CPU time and the disks' completed I/Os),
 * and the growth of the rows the guest writes on the share (alloc.csv,
 * guest.log, steps.csv). Kernel messages are not progress: a hung-task
 * report every two minutes must not keep a hang alive.
 *
 * A guest silent for the bound is asked, from the host and not by a guest
 * timer (a hang may have stopped them), what its tasks wait on: a break on
 * the serial line and sysrq 9 (every message to the console), t (every
 * task's stack) and w (the blocked ones), and the kernel's jiffies read
 * through QEMU's monitor at the start, after t and after w (do timers run?).
 * The run then ends as a hang with its rows kept.
 */
#ifndef CMB_WATCHDOG_H
#define CMB_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/util.h"

#define WD_JIFFIES_SAMPLES 3

enum wd_phase {
	WD_WATCHING,
	WD_ASKING,          /* sysrq keys sent one by one ("9tw"), each till answered */
	WD_DONE,            /* the guest has said what it could: stop it */
};

struct watchdog {
	double silence_s;           /* 0: no watchdog */
	bool init_seen;
	uint64_t last_progress;     /* ns (now_ns()) */
	char last_what[160];        /* what that progress was */
	char beat_step[64];          /* the last heartbeat: its step and numbers */
	unsigned long long beat_cpu, beat_io;
	long long files_size;       /* the share's rows, -1 before the first look */
	/* the probe of a silent guest */
	enum wd_phase phase;
	uint64_t silent_at;
	/*
	 * The key being asked: sent (a break, then the key), resent when the
	 * guest printed no "sysrq: " header within 2 s (a break that comes to
	 * a vCPU idle for a minute may be taken for a plain NUL), at most 3
	 * times; once answered, the dump is over when the console is quiet.
	 */
	int key, tries;
	bool answered;
	uint64_t sent_at, answered_at, key_at;
	unsigned long sysrq_lines, sysrq_lines_at_send;
	struct wd_jiffies {
		double host_s;          /* seconds since the silence was found */
		unsigned long long jiffies;
		bool ok;
	} jiffies[WD_JIFFIES_SAMPLES];
	int njiffies;
	/* a board's own word on its clock (its /proc/uptime twice), said in
	 * place of the jiffies a QEMU monitor reads */
	char clock[96];
	/* a virtio queue whose completions can raise no interrupt (the first found) */
	char lost_irq[160];
	struct strbuf log;          /* what the probe did, for the run's watchdog.txt */
};

void wd_init(struct watchdog *w, double silence_s, uint64_t now);
void wd_free(struct watchdog *w);
/* One console line; true when it was progress (then noted as the last). */
bool wd_line(struct watchdog *w, const char *line, uint64_t now);
/* The total size of the share's row files; progress when it changed. */
bool wd_files(struct watchdog *w, long long size, uint64_t now);
/* Whether the guest has been silent for its bound (never with silence_s 0). */
bool wd_silent(const struct watchdog *w, uint64_t now);

/* How the probe reaches the guest: QMP's socket, QEMU's stdin (the serial line's input). */
struct wd_guest {
	const char *qmp_sock;
	int serial_in;              /* -1: none */
	uint64_t jiffies_addr;      /* 0: not known (no System.map) */
	const char *serial_id;      /* the serial chardev's id: "serial0" */
	/* Instead of QMP and serial_in (the unit tests): sends a sysrq key, true if sent. */
	bool (*send_sysrq)(void *arg, char key);
	void *send_arg;
};

/*
 * Advances the probe of a silent guest; last_output is when the console
 * last printed anything (the sysrq dumps take seconds to drain). Returns
 * true once the probe is done (WD_DONE).
 */
bool wd_probe(struct watchdog *w, const struct wd_guest *g, uint64_t now, uint64_t last_output);
/* One line for the log and metadata: the silence, what came last, the jiffies. */
void wd_summary(const struct watchdog *w, char *buf, size_t len);

/*
 * A split virtqueue whose every request QEMU has completed (inuse 0,
 * used.idx = avail.idx) while the guest's used_event lags: the guest asked
 * for an interrupt at a completion already past, so none will come.
 */
bool virtq_lost_irq(unsigned int avail_idx, unsigned int used_idx, unsigned int used_event,
		    unsigned long inuse);
/* The summary's words for it, naming the device of QEMU's path. */
void lost_irq_note(char *buf, size_t len, const char *path, long used_idx, long used_event);

/* The address of a data symbol of a System.map (e.g. jiffies_64), 0 if absent. */
uint64_t sysmap_symbol(const char *sysmap, const char *name);

#endif
