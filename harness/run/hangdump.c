#include "run/hangdump.h"
#include "lib/util.h"
#include "run/qmp.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SAMPLE_MS 200
#define STACK_WORDS 128
#define PAUSE_TRIES 10
#define PAUSE_GAP_MS 20

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int ksyms_load(struct ksyms *k, const char *sysmap)
{
	FILE *f = fopen(sysmap, "r");
	char line[512];
	size_t cap = 0;

	memset(k, 0, sizeof(*k));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    !strchr("tTwW", type))
			continue;
		if (k->n == cap) {
			cap = cap ? 2 * cap : 4096;
			k->v = xrealloc(k->v, cap * sizeof(*k->v));
		}
		k->v[k->n].addr = addr;
		k->v[k->n++].name = xstrdup(name);
	}
	fclose(f);
	qsort(k->v, k->n, sizeof(*k->v), by_addr);
	return k->n ? 0 : -1;
}

bool ksyms_name(const struct ksyms *k, uint64_t addr, char *buf, size_t len)
{
	size_t lo = 0, hi = k->n;

	buf[0] = '\0';
	if (!k->n || addr < k->v[0].addr)
		return false;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* Past _etext is data; no function is 64 KiB long (data after the last symbol). */
	if (!strcmp(k->v[lo].name, "_etext") || addr - k->v[lo].addr >= 0x10000)
		return false;
	snprintf(buf, len, "%s+0x%" PRIx64, k->v[lo].name, addr - k->v[lo].addr);
	return true;
}

void ksyms_free(struct ksyms *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/* The hex value of register name in [s, end) ("RIP=ffff..."), a whole word. */
static bool reg(const char *s, const char *end, const char *name, uint64_t *out)
{
	size_t n = strlen(name);

	for (const char *p = s; (p = strstr(p, name)) && p < end; p += n) {
		if ((p == s || isspace((unsigned char)p[-1])) && p[n] == '=') {
			*out = strtoull(p + n + 1, NULL, 16);
			return true;
		}
	}
	return false;
}

size_t hangdump_parse_regs(const char *text, struct vcpu_regs *v, size_t max)
{
	size_t n = 0;
	const char *p = strstr(text, "CPU#");

	while (p && n < max) {
		const char *next = strstr(p + 4, "CPU#");
		const char *end = next ? next : p + strlen(p);
		struct vcpu_regs r = { 0 };
		uint64_t hlt = 0;

		if (reg(p, end, "RIP", &r.pc) || reg(p, end, "PC", &r.pc)) {
			if (!reg(p, end, "RSP", &r.sp))
				reg(p, end, "SP", &r.sp);
			r.halted = reg(p, end, "HLT", &hlt) && hlt == 1;
			v[n++] = r;
		}
		p = next;
	}
	return n;
}

/* The function part of "name+0xoff" (the offset changes between samples of one loop). */
static void func_of(const char *named, char *buf, size_t len)
{
	snprintf(buf, len, "%s", named[0] ? named : "(not kernel text)");
	char *plus = strchr(buf, '+');

	if (plus)
		*plus = '\0';
}

static void stack_words(struct qmp *q, const struct ksyms *k, int cpu, uint64_t sp,
			struct strbuf *out)
{
	char cmd[64], name[256];
	char *text;
	int named = 0;

	snprintf(cmd, sizeof(cmd), "x/%dgx 0x%" PRIx64, STACK_WORDS, sp);
	text = qmp_hmp(q, cmd, cpu);
	if (!text) {
		sb_addf(out, "  (QEMU did not answer %s)\n", cmd);
		return;
	}
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *c = strchr(line, ':');

		for (char *w = c ? c + 1 : NULL; w && *w;) {
			char *e;
			uint64_t val = strtoull(w, &e, 16);

			if (e == w)
				break;
			if (ksyms_name(k, val, name, sizeof(name))) {
				sb_addf(out, "  %016" PRIx64 " %s\n", val, name);
				named++;
			}
			w = e;
		}
	}
	if (!named)
		sb_addf(out, "  (no kernel text address in %d words above 0x%" PRIx64 ")\n",
			STACK_WORDS, sp);
	free(text);
}

void hangdump_summary(const struct ksyms *k, const struct hang_samples *s, char *buf,
		      size_t len)
{
	struct strbuf sum = { 0 };
	char name[256], f[HANG_SAMPLES][256];

	buf[0] = '\0';
	if (!s->n)
		return;
	for (size_t c = 0; c < s->ncpu[s->n - 1]; c++) {
		size_t best = s->n - 1;
		int most = 0;

		/* the function of each sample once, "" where the vCPU was absent */
		for (size_t i = 0; i < s->n; i++) {
			f[i][0] = '\0';
			if (c >= s->ncpu[i])
				continue;
			ksyms_name(k, s->regs[i][c].pc, name, sizeof(name));
			func_of(name, f[i], sizeof(f[i]));
		}
		for (size_t i = 0; i < s->n; i++) {
			int same = 0;

			for (size_t j = 0; f[i][0] && j < s->n; j++)
				same += !strcmp(f[i], f[j]);
			if (f[i][0] && same >= most) {
				most = same;
				best = i;
			}
		}
		sb_addf(&sum, "%scpu%zu %s%s in %d/%zu samples", c ? ", " : "", c, f[best],
			s->regs[best][c].halted ? " (halted)" : "", most, s->n);
	}
	snprintf(buf, len, "%s", sum.buf ? sum.buf : "");
	sb_free(&sum);
}

/*
 * Stops the guest at a moment all its vCPUs are in kernel text (one in user
 * space has its task's user stack at SP), at most PAUSE_TRIES times, and
 * leaves it stopped; the registers of that pause (caller frees), NULL when
 * QEMU did not answer.
 */
static char *pause_in_kernel(struct qmp *q, const struct ksyms *k, struct vcpu_regs *v,
			     size_t *nv, int *tries)
{
	char name[256];

	for (*tries = 1;; ++*tries) {
		char *ack = qmp_hmp(q, "stop", -1);
		char *text = ack ? qmp_hmp(q, "info registers -a", -1) : NULL;
		size_t in = 0;

		free(ack);
		if (!text)
			return NULL;
		*nv = hangdump_parse_regs(text, v, HANG_MAX_CPUS);
		for (size_t c = 0; c < *nv; c++)
			in += ksyms_name(k, v[c].pc, name, sizeof(name));
		if (in == *nv || *tries == PAUSE_TRIES || !k->n)
			return text;
		free(text);
		free(qmp_hmp(q, "cont", -1));
		sleep_ms(PAUSE_GAP_MS);
	}
}

int hangdump_write(const char *qmp_sock, const char *sysmap, const char *out_path,
		   char *summary, size_t len)
{
	struct qmp *q = qmp_open(qmp_sock, 3.0);
	struct ksyms k;
	struct hang_samples *s;
	struct vcpu_regs now[HANG_MAX_CPUS];
	size_t nnow = 0;
	struct strbuf out = { 0 };
	char *paused, name[256];
	int tries = 0, rc = -1;

	summary[0] = '\0';
	if (!q) {
		snprintf(summary, len, "QEMU's monitor did not answer (%s)", strerror(errno));
		return -1;
	}
	s = xcalloc(1, sizeof(*s));
	if (ksyms_load(&k, sysmap))
		memset(&k, 0, sizeof(k));
	sb_addf(&out, "# Where the guest's vCPUs were when its VM timeout fired, read through\n"
		"# QMP before the kill: %d samples %d ms apart of each program counter,\n"
		"# named from %s.\n", HANG_SAMPLES, SAMPLE_MS, k.n ? sysmap : "(no System.map)");
	for (s->n = 0; s->n < HANG_SAMPLES; s->n++) {
		char *text = qmp_hmp(q, "info registers -a", -1);
		size_t i = s->n;

		if (!text)
			break;
		s->ncpu[i] = hangdump_parse_regs(text, s->regs[i], HANG_MAX_CPUS);
		free(text);
		sb_addf(&out, "sample %zu:", i + 1);
		for (size_t c = 0; c < s->ncpu[i]; c++) {
			ksyms_name(&k, s->regs[i][c].pc, name, sizeof(name));
			sb_addf(&out, "  cpu%zu %s%s", c, name[0] ? name : "(not kernel text)",
				s->regs[i][c].halted ? " (halted)" : "");
		}
		sb_add(&out, "\n");
		if (i + 1 < HANG_SAMPLES)
			sleep_ms(SAMPLE_MS);
	}
	if (!s->n) {
		snprintf(summary, len, "QEMU's monitor gave no registers");
		goto done;
	}
	hangdump_summary(&k, s, summary, len);
	sb_addf(&out, "# summary: %s\n", summary);
	paused = pause_in_kernel(q, &k, now, &nnow, &tries);
	if (!paused) {
		sb_add(&out, "# (QEMU did not answer stop and info registers: no stacks)\n");
	} else {
		sb_addf(&out, "# Kernel text words on each vCPU's stack, lowest address first (an\n"
			"# unreliable backtrace, like the kernel's \"?\" frames), read with the\n"
			"# guest stopped at try %d of at most %d to find its vCPUs in kernel text:\n",
			tries, PAUSE_TRIES);
		for (size_t c = 0; c < nnow; c++) {
			bool in = ksyms_name(&k, now[c].pc, name, sizeof(name));

			sb_addf(&out, "cpu%zu at %s (sp %016" PRIx64 "):\n", c,
				in ? name : "(not kernel text)", now[c].sp);
			if (k.n && now[c].sp)
				stack_words(q, &k, (int)c, now[c].sp, &out);
		}
		sb_addf(&out, "# info registers -a with the guest stopped:\n%s", paused);
		free(paused);
		free(qmp_hmp(q, "cont", -1));
	}
	rc = write_file(out_path, out.buf, out.len);
done:
	sb_free(&out);
	ksyms_free(&k);
	free(s);
	qmp_close(q);
	return rc;
}
