#include "run/console.h"
#include "lib/util.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct pattern {
	const char *text;
	enum console_event event;
	int anchored;       /* must start the message (after the printk timestamp) */
};

/*
 * The one list of what a guest's console says, for the runner (line by
 * line, while the VM runs) and the judge of whole consoles (the VM tests).
 * Order matters: the first match wins.
 */
static const struct pattern patterns[] = {
	{ "cmabench-init: done status=ok", CON_DONE_OK, 1 },
	{ "cmabench-init: done", CON_DONE_FAILED, 1 },
	{ "cmabench-init: start", CON_INIT_START, 1 },
	{ "cmabench-step: ", CON_STEP, 1 },
	{ "Kernel panic - not syncing", CON_PANIC, 0 },
	{ "Requested init /sbin/init failed", CON_NO_INIT, 0 },
	{ "No working init found", CON_NO_INIT, 0 },
	{ "VFS: Unable to mount root fs", CON_PANIC, 0 },
	{ "BUG: ", CON_OOPS, 1 },
	{ "Oops: ", CON_OOPS, 1 },
	{ "general protection fault", CON_OOPS, 1 },
	{ "Internal error: ", CON_OOPS, 1 },
	{ "kernel BUG at ", CON_OOPS, 1 },
	{ "UBSAN: ", CON_OOPS, 1 },
	{ "Bad page ", CON_OOPS, 0 },
	{ "BUG: soft lockup", CON_OOPS, 0 },
	{ "WARNING: ", CON_WARNING, 1 },
	{ "list_add corruption", CON_WARNING, 1 },
	{ "list_del corruption", CON_WARNING, 1 },
	{ "detected stall", CON_WARNING, 0 },
	{ "blocked for more than", CON_WARNING, 0 },
	{ "Call Trace:", CON_STACK, 1 },
	{ "Call trace:", CON_STACK, 1 },
	{ "Linux version ", CON_KERNEL_START, 1 },
};

/* Skips "[    1.234567] " and a trailing-CR-free prefix. */
static const char *message_start(const char *line)
{
	if (line[0] == '[') {
		const char *end = strchr(line, ']');

		if (end) {
			line = end + 1;
			while (*line == ' ')
				line++;
		}
	}
	return line;
}

enum console_event console_classify(const char *line)
{
	const char *msg = message_start(line);

	for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		const struct pattern *p = &patterns[i];

		if (p->anchored ? !strncmp(msg, p->text, strlen(p->text)) : strstr(line, p->text) != NULL)
			return p->event;
	}
	return CON_NONE;
}

const char *console_event_name(enum console_event e)
{
	static const char *const names[] = {
		[CON_NONE] = "none", [CON_KERNEL_START] = "kernel-start",
		[CON_INIT_START] = "init-start", [CON_STEP] = "step",
		[CON_DONE_OK] = "done-ok", [CON_DONE_FAILED] = "done-failed",
		[CON_WARNING] = "warning", [CON_STACK] = "stack", [CON_OOPS] = "oops",
		[CON_PANIC] = "panic",
		[CON_NO_INIT] = "no-init",
	};

	return names[e];
}

/* A report of a failed atomic allocation begins. */
#define ATOMIC_FAILURE "page allocation failure: order:[0-9]+, mode:0x[0-9a-f]+\\((GFP_ATOMIC|GFP_NOWAIT)[|)]"

static bool trouble(enum console_event e)
{
	return e == CON_WARNING || e == CON_STACK || e == CON_OOPS || e == CON_PANIC;
}

struct judge {
	FILE *out;
	struct console_verdict *v;
	bool alloc, ours;   /* inside an atomic failure's report; a frame of ours in it */
	char *banner;
	struct console_expected expected;
	const char *in_expected;    /* inside an accepted report: the line that ends it */
	int expected_left;          /* ... and the lines it may still take */
};

bool console_expect_add(struct console_expected *x, const char *line)
{
	const char *tag = strstr(line, "expect-splat: ");
	const char *at, *in, *sep;

	if (!tag)
		return false;
	tag += 14;
	at = strstr(tag, " at ");
	in = strstr(tag, " in ");
	sep = at && (!in || at < in) ? at : in;
	if (sep && x->n < CONSOLE_MAX_EXPECTED) {
		struct console_expect *e = &x->v[x->n++];

		snprintf(e->prefix, sizeof(e->prefix), "%.*s", (int)(sep - tag), tag);
		snprintf(e->func, sizeof(e->func), " %.*s+", (int)strcspn(sep + 4, " \t"), sep + 4);
	}
	return true;
}

const char *console_expect_take(struct console_expected *x, const char *line)
{
	const char *msg = message_start(line);

	for (size_t i = 0; i < x->n; i++) {
		struct console_expect *e = &x->v[i];

		if (strncmp(msg, e->prefix, strlen(e->prefix)) || !strstr(msg, e->func))
			continue;
		x->v[i] = x->v[--x->n];
		/* a WARN ends with its trace's end, a KASAN report with a rule */
		return strstr(msg, "KASAN") ? "=========" : "---[ end trace";
	}
	return NULL;
}

static void counted(struct judge *j, const char *line)
{
	j->v->counted++;
	if (j->out)
		fprintf(j->out, "S %s\n", line);
}

static void end_alloc(struct judge *j)
{
	if (!j->alloc)
		return;
	if (j->ours)
		counted(j, j->banner);
	else {
		j->v->excused++;
		if (j->out)
			fprintf(j->out, "A %s\n", j->banner);
	}
	j->alloc = false;
	free(j->banner);
	j->banner = NULL;
}

int console_judge(FILE *in, FILE *out, struct console_verdict *v)
{
	struct judge j = { .out = out, .v = v };
	regex_t atomic;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	memset(v, 0, sizeof(*v));
	if (!in)
		return -1;
	if (regcomp(&atomic, ATOMIC_FAILURE, REG_EXTENDED | REG_NOSUB))
		return -1;
	while ((n = getline(&line, &cap, in)) >= 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (!regexec(&atomic, line, 0, NULL, 0)) {
			end_alloc(&j);
			j.alloc = true;
			j.ours = false;
			j.banner = strdup(line);
			continue;
		}
		if (j.alloc && (strstr(line, "</TASK>") || strstr(line, "Mem-Info:"))) {
			end_alloc(&j);
			continue;
		}
		if (j.alloc && (strstr(line, "cleancache") || strstr(line, "gcma") ||
				strstr(line, "cma_")))
			j.ours = true;
		if (console_expect_add(&j.expected, line))
			continue;
		if (j.in_expected) {
			/* a report cut short ends at its bound: no later splat hides in it */
			if (strstr(line, j.in_expected) || !--j.expected_left)
				j.in_expected = NULL;
			continue;
		}
		enum console_event e = console_classify(line);

		if (trouble(e) && (j.in_expected = console_expect_take(&j.expected, line))) {
			j.expected_left = 80;
			v->expected++;
			if (out)
				fprintf(out, "X %s\n", line);
			continue;
		}

		/* the excused report's own stack dump */
		if (j.alloc && e == CON_STACK)
			continue;
		if (trouble(e))
			counted(&j, line);
	}
	end_alloc(&j);
	free(line);
	regfree(&atomic);
	return ferror(in) ? -1 : 0;
}

char *console_no_area(const char *text)
{
	static const char *const marks[] = {
		"no GCMA area", "cma: Failed to reserve", "could not be activated",
		"cannot register GCMA area",
	};

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		const char *p = strstr(text, marks[i]), *b, *e;

		if (!p)
			continue;
		for (b = p; b > text && b[-1] != '\n'; b--)
			;
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if (e > b && e[-1] == '\r')
			e--;
		return xasprintf("%.*s", (int)(e - b), b);
	}
	return NULL;
}
