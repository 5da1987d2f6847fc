#include "run/console.h"

#include <stddef.h>
#include <string.h>

struct pattern {
	const char *text;
	enum console_event event;
	int anchored;       /* must start the message (after the printk timestamp) */
};

/* Order matters: the first match wins. */
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
	{ "WARNING: ", CON_WARNING, 1 },
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
		[CON_WARNING] = "warning", [CON_OOPS] = "oops", [CON_PANIC] = "panic",
		[CON_NO_INIT] = "no-init",
	};

	return names[e];
}
