/*
 * Command-line options as tables (after perf's parse-options): a builtin
 * declares each option once, with its help; the parser (getopt_long built
 * from the table) and the usage text both come from that table, so an
 * option cannot be accepted without being listed.
 */
#ifndef CMB_OPTIONS_H
#define CMB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_kind { OPTK_END, OPTK_GROUP, OPTK_FLAG, OPTK_STRING, OPTK_LIST, OPTK_LONG,
		OPTK_DOUBLE, OPTK_CALL };

struct opt {
	enum opt_kind kind;
	const char *name;           /* long name; the title of a group */
	char short_name;            /* 0: none */
	const char *arg;            /* the argument's name in the usage */
	const char *help;
	/* where the value goes: an offset into the builtin's options struct, of a
	 * bool, const char *, struct strlist, long or double */
	size_t off;
	/* OPTK_CALL: takes the argument; 0, or -1 and *why */
	int (*call)(void *value, const char *arg, const char **why);
};

#define OPT_END() { OPTK_END, NULL, 0, NULL, NULL, 0, NULL }
#define OPT_GROUP(t) { OPTK_GROUP, t, 0, NULL, NULL, 0, NULL }
#define OPT_FLAG(s, l, off, h) { OPTK_FLAG, l, s, NULL, h, off, NULL }
#define OPT_STRING(s, l, off, a, h) { OPTK_STRING, l, s, a, h, off, NULL }
#define OPT_LIST(s, l, off, a, h) { OPTK_LIST, l, s, a, h, off, NULL }
#define OPT_LONG(s, l, off, a, h) { OPTK_LONG, l, s, a, h, off, NULL }
#define OPT_DOUBLE(s, l, off, a, h) { OPTK_DOUBLE, l, s, a, h, off, NULL }
#define OPT_CALL(s, l, off, a, h, fn) { OPTK_CALL, l, s, a, h, off, fn }

/* What a builtin says of itself: its usage line and its options. */
struct cmd_usage {
	const char *synopsis;       /* "cmabench plan [options] SCENARIO..." */
	const char *about;          /* a few lines, or NULL */
	const struct opt *opts;
};

/*
 * Parses argv[1..] (argv[0] is the command's name) into the struct at
 * base; -h/--help prints the usage to stdout. Returns the index of the
 * first operand, or -1 after --help (exit 0) and -2 after an error (named,
 * usage on stderr: exit 2).
 */
int options_parse(const struct cmd_usage *u, void *base, int argc, char **argv);
void options_usage(FILE *f, const struct cmd_usage *u);

#endif
