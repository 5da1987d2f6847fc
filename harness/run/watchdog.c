#include "run/watchdog.h"
#include "run/qmp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define NS 1000000000ull
/* A sysrq dump is over when the console has been quiet this long ... */
#define QUIET_NS (3 * NS)
/* ... or at these caps, so that a hang ends within 2 min of its last progress. */
#define TASKS_CAP_NS (25 * NS)
#define BLOCKED_CAP_NS (15 * NS)
#define MIN_PHASE_NS (1 * NS)

void wd_init(struct watchdog *w, double silence_s, uint64_t now)
{
	memset(w, 0, sizeof(*w));
	w->silence_s = silence_s;
	w->last_progress = now;
	w->files_size = -1;
	snprintf(w->last_what, sizeof(w->last_what), "QEMU started");
}

void wd_free(struct watchdog *w)
{
	sb_free(&w->log);
}

static void progress(struct watchdog *w, uint64_t now, const char *what)
{
	w->last_progress = now;
	snprintf(w->last_what, sizeof(w->last_what), "%s", what);
}

bool wd_line(struct watchdog *w, const char *line, uint64_t now)
{
	const char *beat = strstr(line, "cmabench-heartbeat: ");

	/* the header of a sysrq the probe asked for: its answer */
	if (strstr(line, "sysrq: "))
		w->sysrq_lines++;

	if (beat) {
		char step[64] = "";
		unsigned long long cpu = 0, io = 0;

		/* "STEP cpu=N io=N (self N us)": progress when cpu or io moved */
		if (sscanf(beat + 20, "%63s cpu=%llu io=%llu", step, &cpu, &io) < 1)
			return false;
		if (!strcmp(step, w->beat_step) && cpu == w->beat_cpu && io == w->beat_io)
			return false;
		snprintf(w->beat_step, sizeof(w->beat_step), "%s", step);
		w->beat_cpu = cpu;
		w->beat_io = io;
		progress(w, now, beat);
		return true;
	}
	if (strstr(line, "cmabench-init: start"))
		w->init_seen = true;
	if (w->init_seen && !strstr(line, "cmabench-"))
		return false;
	progress(w, now, line);
	return true;
}

bool wd_files(struct watchdog *w, long long size, uint64_t now)
{
	bool moved = w->files_size >= 0 && size != w->files_size;

	w->files_size = size;
	if (moved)
		progress(w, now, "a row on the share (alloc.csv, guest.log or steps.csv)");
	return moved;
}

bool wd_silent(const struct watchdog *w, uint64_t now)
{
	/* armed once our init runs: a boot (KUnit suites under KASAN, a quiet
	 * console) is the VM timeout's */
	return w->silence_s > 0 && w->phase == WD_WATCHING && w->init_seen &&
	       now > w->last_progress + (uint64_t)(w->silence_s * 1e9);
}

/*
 * One word of guest memory through the monitor: "x/1gx" (virtual) or
 * "xp/1hx" (physical) at addr; false when QEMU did not say.
 */
static bool monitor_word(struct qmp *q, const char *x, uint64_t addr, unsigned long long *val)
{
	char cmd[64], *text, *colon;

	snprintf(cmd, sizeof(cmd), "%s 0x%" PRIx64, x, addr);
	text = q ? qmp_hmp(q, cmd, -1) : NULL;
	colon = text ? strchr(text, ':') : NULL;
	if (colon)
		*val = strtoull(colon + 1, NULL, 16);
	free(text);
	return colon != NULL;
}

static void read_jiffies(struct watchdog *w, struct qmp *q, const struct wd_guest *g,
			 uint64_t now)
{
	if (w->njiffies == WD_JIFFIES_SAMPLES)
		return;
	int i = w->njiffies++;

	w->jiffies[i].host_s = (now - w->silent_at) / 1e9;
	if (!q || !g->jiffies_addr) {
		sb_addf(&w->log, "jiffies at +%.1f s: not read (%s)\n", w->jiffies[i].host_s,
			q ? "no jiffies_64 in System.map" : "QEMU's monitor did not answer");
		return;
	}
	w->jiffies[i].ok = monitor_word(q, "x/1gx", g->jiffies_addr, &w->jiffies[i].jiffies);
	if (w->jiffies[i].ok)
		sb_addf(&w->log, "jiffies at +%.1f s: %llu\n", w->jiffies[i].host_s,
			w->jiffies[i].jiffies);
	else
		sb_addf(&w->log, "jiffies at +%.1f s: not read (no answer)\n", w->jiffies[i].host_s);
}

/* The 16-bit word at guest-physical addr, or -1 */
static long guest_u16(struct qmp *q, uint64_t addr)
{
	unsigned long long v;

	return monitor_word(q, "xp/1hx", addr, &v) ? (long)v : -1;
}

/* The value of the line "  name: value" of QEMU's status text, 0 if absent */
static uint64_t status_field(const char *st, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = st; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		l += strspn(l, " ");
		if (!strncmp(l, name, n) && l[n] == ':')
			return strtoull(l + n + 1, NULL, 0);
	}
	return 0;
}

/*
 * The guest's side of the split ring, read from its memory: avail->idx
 * (what the guest has queued: ahead of QEMU's last_avail_idx, a kick QEMU
 * never saw), used->idx (what QEMU has completed), and the event indexes
 * (used_event: where the guest asked to be interrupted; avail_event: where
 * QEMU asked to be kicked).
 */
static void ring_words(struct watchdog *w, struct qmp *q, const char *path, const char *st)
{
	uint64_t num = status_field(st, "num"), avail = status_field(st, "avail");
	uint64_t used = status_field(st, "used");
	long avail_idx, used_event, used_idx;

	if (!num || !avail || !used)
		return;
	avail_idx = guest_u16(q, avail + 2);
	used_event = guest_u16(q, avail + 4 + 2 * num);
	used_idx = guest_u16(q, used + 2);
	sb_addf(&w->log, "  guest memory: avail.flags %ld avail.idx %ld used_event %ld; "
		"used.flags %ld used.idx %ld avail_event %ld\n",
		guest_u16(q, avail), avail_idx, used_event,
		guest_u16(q, used), used_idx, guest_u16(q, used + 4 + 8 * num));
	if (!w->lost_irq[0] && avail_idx >= 0 && used_event >= 0 && used_idx >= 0 &&
	    virtq_lost_irq(avail_idx, used_idx, used_event, status_field(st, "inuse")))
		lost_irq_note(w->lost_irq, sizeof(w->lost_irq), path, used_idx, used_event);
}

bool virtq_lost_irq(unsigned int avail_idx, unsigned int used_idx, unsigned int used_event,
		    unsigned long inuse)
{
	return !inuse && avail_idx == used_idx && (uint16_t)(used_idx - used_event) != 0;
}

/* "device[2]: ..." from QEMU's path /machine/peripheral-anon/device[2]/virtio-backend */
void lost_irq_note(char *buf, size_t len, const char *path, long used_idx, long used_event)
{
	const char *end = strstr(path, "/virtio-backend"), *start;

	if (!end)
		end = path + strlen(path);
	for (start = end; start > path && start[-1] != '/'; start--)
		;
	snprintf(buf, len, "lost virtio interrupt on %.*s: every request done (used.idx %ld), "
		 "the guest's used_event %ld already passed", (int)(end - start), start, used_idx,
		 used_event);
}

/* A monitor's answer into the log, each line indented (NULL: nothing). */
static void log_indented(struct watchdog *w, const char *text)
{
	for (const char *l = text, *n; l && *l; l = n) {
		n = strchr(l, '\n');
		sb_addf(&w->log, "  %.*s\n", (int)(n ? n - l : (long)strlen(l)), l);
		n = n ? n + 1 : NULL;
	}
}

/*
 * QEMU's side of each virtio-blk queue (HMP "info virtio-queue-status"): a
 * guest waiting on I/O whose requests QEMU has completed (used_idx caught
 * up with last_avail_idx) missed their interrupt; requests still between
 * the two are in QEMU's block layer. Then the local APIC's state (HMP
 * "info lapic"): whether such an interrupt is pending or in service.
 */
static void virtio_state(struct watchdog *w, struct qmp *q, uint64_t now)
{
	char *list = q ? qmp_hmp(q, "info virtio", -1) : NULL;

	if (!list) {
		sb_addf(&w->log, "virtio at +%.1f s: not read\n", (now - w->silent_at) / 1e9);
		return;
	}
	for (char *line = list, *next; line && *line; line = next) {
		char path[256], cmd[300], *st;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strstr(line, "[virtio-blk]") || sscanf(line, " %255s", path) != 1)
			continue;
		snprintf(cmd, sizeof(cmd), "info virtio-queue-status %s 0", path);
		st = qmp_hmp(q, cmd, -1);
		sb_addf(&w->log, "virtio at +%.1f s: %s queue 0:\n", (now - w->silent_at) / 1e9, path);
		ring_words(w, q, path, st);
		log_indented(w, st);
		free(st);
	}
	free(list);
	/* completions QEMU made with no interrupt taken: is a vector pending
	 * (IRR) or in service (ISR) on the vCPU's local APIC? (x86 only) */
	list = qmp_hmp(q, "info lapic", -1);
	sb_addf(&w->log, "lapic at +%.1f s:\n", (now - w->silent_at) / 1e9);
	log_indented(w, list);
	free(list);
}

/* A break on the serial line, then the key: the kernel's sysrq KEY; false if not sent. */
static bool sysrq(struct watchdog *w, struct qmp *q, const struct wd_guest *g, char key,
		  uint64_t now)
{
	char cmd[64];
	char *ack;
	bool sent = false;

	if (g->send_sysrq) {
		sent = g->send_sysrq(g->send_arg, key);
		sb_addf(&w->log, "sysrq %c at +%.1f s: %s (try %d)\n", key,
			(now - w->silent_at) / 1e9, sent ? "sent" : "not sent", w->tries);
		return sent;
	}
	if (!q || g->serial_in < 0) {
		sb_addf(&w->log, "sysrq %c at +%.1f s: not sent (%s)\n", key,
			(now - w->silent_at) / 1e9,
			q ? "no serial input" : "QEMU's monitor did not answer");
		return false;
	}
	snprintf(cmd, sizeof(cmd), "chardev-send-break %s", g->serial_id);
	ack = qmp_hmp(q, cmd, -1);
	/* the break is the 8250's/PL011's interrupt; the key must come after it */
	sleep_ms(200);
	if (!ack || send(g->serial_in, &key, 1, MSG_NOSIGNAL) != 1) {
		sb_addf(&w->log, "sysrq %c at +%.1f s: %s\n", key, (now - w->silent_at) / 1e9,
			ack ? "the key could not be written" : "the break was not sent");
	} else {
		sb_addf(&w->log, "sysrq %c at +%.1f s: sent (try %d)\n", key,
			(now - w->silent_at) / 1e9, w->tries);
		sent = true;
	}
	free(ack);
	return sent;
}

static const char wd_keys[] = "9tw";
#define ANSWER_NS (2 * NS)
#define MAX_TRIES 3

/* Sends the current key (a new try); false when it could not be sent. */
static bool ask(struct watchdog *w, struct qmp *q, const struct wd_guest *g, uint64_t now)
{
	w->tries++;
	w->answered = false;
	w->sent_at = now;
	w->sysrq_lines_at_send = w->sysrq_lines;
	return sysrq(w, q, g, wd_keys[w->key], now);
}

/* On to the next key, a jiffies sample after each dump (t, w); done after the last. */
static void next_key(struct watchdog *w, struct qmp *q, const struct wd_guest *g, uint64_t now)
{
	if (wd_keys[w->key] != '9')
		read_jiffies(w, q, g, now);
	w->key++;
	w->tries = 0;
	w->key_at = now;
	if (!wd_keys[w->key]) {
		/* did QEMU complete anything while the guest dumped its tasks? */
		virtio_state(w, q, now);
		w->phase = WD_DONE;
	}
}

/* What the current key is waiting for; true when it is time to act. */
static bool key_due(const struct watchdog *w, uint64_t now, uint64_t last_output)
{
	char k = wd_keys[w->key];
	uint64_t cap = k == 't' ? TASKS_CAP_NS : BLOCKED_CAP_NS;

	if (!w->answered)
		return w->sysrq_lines > w->sysrq_lines_at_send || now > w->sent_at + ANSWER_NS;
	if (k == '9')
		return true;
	return (now > last_output + QUIET_NS && now > w->answered_at + MIN_PHASE_NS) ||
	       now > w->key_at + cap;
}

bool wd_probe(struct watchdog *w, const struct wd_guest *g, uint64_t now, uint64_t last_output)
{
	struct qmp *q;

	if (w->phase == WD_DONE)
		return true;
	if (w->phase == WD_ASKING && !key_due(w, now, last_output))
		return false;
	q = g->qmp_sock ? qmp_open(g->qmp_sock, 3.0) : NULL;
	if (w->phase == WD_WATCHING) {
		w->silent_at = w->key_at = now;
		sb_addf(&w->log, "# The guest made no progress for %.0f s (the watchdog's bound).\n"
			"# Last progress %.1f s before: %s\n", w->silence_s,
			(now - w->last_progress) / 1e9, w->last_what);
		read_jiffies(w, q, g, now);
		virtio_state(w, q, now);
		w->phase = WD_ASKING;
		/* 9: every level to the console (the task dump prints at KERN_INFO) */
		while (w->phase == WD_ASKING && !ask(w, q, g, now))
			next_key(w, q, g, now);
	} else if (!w->answered && w->sysrq_lines > w->sysrq_lines_at_send) {
		w->answered = true;
		w->answered_at = now;
		sb_addf(&w->log, "sysrq %c: answered at +%.1f s\n", wd_keys[w->key],
			(now - w->silent_at) / 1e9);
	} else if (!w->answered && w->tries < MAX_TRIES) {
		if (!ask(w, q, g, now))
			next_key(w, q, g, now);
	} else {
		if (!w->answered)
			sb_addf(&w->log, "sysrq %c: no answer after %d tries\n", wd_keys[w->key],
				w->tries);
		next_key(w, q, g, now);
		while (w->phase == WD_ASKING && !ask(w, q, g, now))
			next_key(w, q, g, now);
	}
	qmp_close(q);
	return w->phase == WD_DONE;
}

void wd_summary(const struct watchdog *w, char *buf, size_t len)
{
	const struct wd_jiffies *a = &w->jiffies[0], *b = &w->jiffies[w->njiffies ? w->njiffies - 1 : 0];
	char timers[128] = "jiffies not read";

	if (w->clock[0])
		snprintf(timers, sizeof(timers), "%s", w->clock);
	else if (w->njiffies >= 2 && a->ok && b->ok && b->host_s > a->host_s)
		snprintf(timers, sizeof(timers), "jiffies +%llu in %.1f s (timers %s)",
			 b->jiffies - a->jiffies, b->host_s - a->host_s,
			 b->jiffies > a->jiffies ? "running" : "stopped");
	snprintf(buf, len, "no progress for %.0f s (last: %.60s); %s%s%s", w->silence_s,
		 w->last_what, timers, w->lost_irq[0] ? "; " : "", w->lost_irq);
}

uint64_t sysmap_symbol(const char *sysmap, const char *name)
{
	FILE *f = sysmap ? fopen(sysmap, "r") : NULL;
	char line[512];
	uint64_t addr = 0;

	if (!f)
		return 0;
	while (!addr && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, sym[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 && !strcmp(sym, name))
			addr = a;
	}
	fclose(f);
	return addr;
}
