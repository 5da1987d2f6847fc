/*
 * cmabench target check [--ssh-config FILE] TARGET: what a board reached
 * over ssh has and lacks for runs with target = ssh://... (run/target.c):
 * one line per requirement, exit 1 when one a run needs is missing.
 */
#include "builtin.h"
#include "run/target.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct target_opts {
	const char *ssh_config;
};

static const struct opt target_opts_table[] = {
	OPT_STRING('F', "ssh-config", offsetof(struct target_opts, ssh_config), "FILE",
		   "ssh's configuration file (ssh -F); default: the user's own"),
	OPT_END(),
};

const struct cmd_usage target_usage = {
	"cmabench target check [--ssh-config FILE] ssh://[user@]host[:port][/dir]",
	"Logs into the board over ssh (key-based: BatchMode) and prints each\n"
	"requirement of a run on it: root, kexec-tools, kexec allowed (lockdown,\n"
	"kexec_load_disabled, Secure Boot), its kernel config, the device tree\n"
	"(arm64), tools and room in the directory of ours. Writes nothing there.",
	target_opts_table,
};

static int check(const char *arg, const struct target_opts *o)
{
	char *url = strstr(arg, "://") ? xstrdup(arg) : xasprintf("ssh://%s", arg);
	struct strbuf errs = { 0 };
	struct target t;
	struct board_facts f;
	struct req_result r[32];
	int missing = 0, rc = 2;
	size_t n;

	if (target_parse(url, &t, &errs)) {
		err_msg("target check: %s", errs.buf);
		goto out;
	}
	t.ssh_config = o->ssh_config;
	printf("target %s (directory of ours: %s)\n", t.url, t.dir);
	if (target_probe(&t, &f, &errs)) {
		printf("  %-8s %-20s %s\n", "MISSING", "ssh", errs.buf);
		rc = 1;
		target_free(&t);
		goto out;
	}
	printf("  %-8s %-20s answers\n", "ok", "ssh");
	n = target_judge(&f, r, ARRAY_SIZE(r), &missing);
	target_print(stdout, r, n);
	if (missing)
		printf("%d requirement%s missing: runs on this board would fail\n", missing,
		       missing == 1 ? "" : "s");
	else
		printf("every requirement met\n");
	rc = missing ? 1 : 0;
	board_facts_free(&f);
	target_free(&t);
out:
	sb_free(&errs);
	free(url);
	return rc;
}

int cmd_target(int argc, char **argv, struct cmb_env *env)
{
	struct target_opts o = { 0 };
	int first;

	(void)env;
	/* the subcommand first, then its options: "target check -F FILE URL" */
	if (argc < 2 || strcmp(argv[1], "check")) {
		first = options_parse(&target_usage, &o, argc, argv);
		if (first == -1)
			return 0;
		options_usage(stderr, &target_usage);
		return 2;
	}
	first = options_parse(&target_usage, &o, argc - 1, argv + 1);
	if (first < 0)
		return first == -1 ? 0 : 2;
	if (first + 1 != argc - 1) {
		options_usage(stderr, &target_usage);
		return 2;
	}
	return check(argv[first + 1], &o);
}
