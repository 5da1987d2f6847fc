/*
 * A board reached over ssh (target = ssh://...): its address, and commands
 * run on it with a deadline. Credentials come from the user's ssh
 * configuration only (or the file given with --ssh-config): nothing of
 * ours holds a password or a key.
 */
#ifndef CMB_SSH_H
#define CMB_SSH_H

#include <stdbool.h>

#include "lib/util.h"

#define TARGET_DEFAULT_DIR "/var/tmp/cmabench"

struct target {
	char *url;                  /* as written */
	char *user;                 /* NULL: the ssh configuration's */
	char *host;
	int port;                   /* 0: the ssh configuration's */
	char *dir;                  /* the one directory ours on the board */
	const char *ssh_config;     /* ssh -F, NULL: the user's own */
	/* after Ctrl-C: commands still run, to their own deadlines (the
	 * board is being returned to its own kernel) */
	bool finishing;
};

/*
 * Parses "ssh://[user@]host[:port][/dir]" (dir: absolute, default
 * TARGET_DEFAULT_DIR). -1 with why in errs.
 */
int target_parse(const char *url, struct target *t, struct strbuf *errs);
void target_free(struct target *t);
/* "[user@]host[:port]", for messages (caller frees). */
char *target_name(const struct target *t);

/* ssh's argv up to the remote command: options, then the destination. */
void ssh_argv(const struct target *t, double connect_timeout_s, struct strlist *argv);

struct ssh_result {
	int status;                 /* the remote command's exit, 255: ssh's own failure */
	bool timed_out;             /* stopped at its deadline */
	bool interrupted;           /* stopped by Ctrl-C */
	bool stopped;               /* stopped by its stream's stop() */
	char *out;                  /* ssh_run: stdout and stderr */
};

/* Where a command's output goes while it runs (ssh_stream). */
struct ssh_stream {
	void (*data)(void *arg, const char *buf, size_t n);    /* buf NUL-terminated */
	bool (*stop)(void *arg);    /* NULL, or polled: true ends the command */
	void *arg;
	bool finishing;             /* Ctrl-C does not stop it (see target.finishing) */
};

/*
 * Runs script (sh) on the board with stdin from /dev/null, its stdout and
 * stderr fed to ops as they come, for at most timeout_s: the command
 * killed (and *res says why) at the deadline, at Ctrl-C, or when ops->stop
 * says so. 0 when it ran and exited 0.
 */
int ssh_stream(const struct target *t, const char *script, double timeout_s,
	       const struct ssh_stream *ops, struct ssh_result *res);

/*
 * Runs script (sh) on the board with stdin from /dev/null, for at most
 * timeout_s: its output in res->out (caller frees). 0 when it ran and
 * exited 0.
 */
int ssh_run(const struct target *t, const char *script, double timeout_s, struct ssh_result *res);
/* Copies a local file to path on the board (cat over ssh). 0 or -1. */
int ssh_put(const struct target *t, const char *local, const char *remote, double timeout_s,
	    struct strbuf *errs);
/* Copies a file of the board to local (cat over ssh; whole or not at all). 0 or -1. */
int ssh_get(const struct target *t, const char *remote, const char *local, double timeout_s,
	    struct strbuf *errs);
/* A tar of remote_dir's content, unpacked into local_dir. 0 or -1. */
int ssh_get_dir(const struct target *t, const char *remote_dir, const char *local_dir,
		double timeout_s, struct strbuf *errs);
/* Whether the board answers within timeout_s (one ssh connection). */
bool ssh_answers(const struct target *t, double timeout_s);
/* s quoted for a POSIX shell (caller frees). */
char *sh_quote(const char *s);

#endif
