#include "config.h"
#include "run/ssh.h"
#include "lib/signals.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int parse_port(const char *s, size_t len, int *port)
{
	char buf[8];
	char *end;
	long v;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtol(buf, &end, 10);
	if (*end || v < 1 || v > 65535)
		return -1;
	*port = (int)v;
	return 0;
}

/* "[user@]host[:port]" of the URL, between "ssh://" and the path. */
static int parse_authority(const char *a, size_t len, struct target *t, struct strbuf *errs)
{
	const char *at = memchr(a, '@', len), *h = at ? at + 1 : a;
	size_t hlen = len - (size_t)(h - a);
	const char *colon = memchr(h, ':', hlen);

	if (at && at == a) {
		sb_addf(errs, "%s: an empty user before '@'", t->url);
		return -1;
	}
	if (at)
		t->user = xasprintf("%.*s", (int)(at - a), a);
	if (colon && parse_port(colon + 1, hlen - (size_t)(colon + 1 - h), &t->port)) {
		sb_addf(errs, "%s: the port is not a number from 1 to 65535", t->url);
		return -1;
	}
	if (colon)
		hlen = (size_t)(colon - h);
	if (!hlen) {
		sb_addf(errs, "%s: no host", t->url);
		return -1;
	}
	t->host = xasprintf("%.*s", (int)hlen, h);
	return 0;
}

int target_parse(const char *url, struct target *t, struct strbuf *errs)
{
	const char *a, *slash;

	memset(t, 0, sizeof(*t));
	t->url = xstrdup(url);
	if (strncmp(url, "ssh://", 6)) {
		sb_addf(errs, "%s: a target is ssh://[user@]host[:port][/dir] (or qemu)", url);
		goto bad;
	}
	a = url + 6;
	slash = strchr(a, '/');
	if (parse_authority(a, slash ? (size_t)(slash - a) : strlen(a), t, errs))
		goto bad;
	/* "/" alone, or a path with quotes or blanks, is refused: the directory
	 * is removed with everything in it when the run ends */
	t->dir = xstrdup(slash && slash[1] ? slash : TARGET_DEFAULT_DIR);
	if (strlen(t->dir) < 2 || strpbrk(t->dir, " \t\n'\"\\$`") || strstr(t->dir, "..")) {
		sb_addf(errs, "%s: the directory on the board must be an absolute path without "
			"blanks, quotes or '..'", url);
		goto bad;
	}
	return 0;
bad:
	target_free(t);
	return -1;
}

void target_free(struct target *t)
{
	free(t->url);
	free(t->user);
	free(t->host);
	free(t->dir);
	memset(t, 0, sizeof(*t));
}

char *target_name(const struct target *t)
{
	struct strbuf sb = { 0 };

	sb_addf(&sb, "%s%s%s", t->user ? t->user : "", t->user ? "@" : "", t->host);
	if (t->port)
		sb_addf(&sb, ":%d", t->port);
	return sb_detach(&sb);
}

void ssh_argv(const struct target *t, double connect_timeout_s, struct strlist *argv)
{
	sl_add(argv, "ssh");
	if (t->ssh_config) {
		sl_add(argv, "-F");
		sl_add(argv, t->ssh_config);
	}
	if (t->port)
		sl_addf(argv, "-p%d", t->port);
	if (t->user)
		sl_addf(argv, "-l%s", t->user);
	/* never a password prompt: a board that wants one is a failed check */
	sl_add(argv, "-oBatchMode=yes");
	sl_addf(argv, "-oConnectTimeout=%d", connect_timeout_s < 1 ? 1 : (int)connect_timeout_s);
	/* a board that went away mid-command is noticed, not waited for */
	sl_add(argv, "-oServerAliveInterval=10");
	sl_add(argv, "-oServerAliveCountMax=3");
	sl_add(argv, "--");
	sl_add(argv, t->host);
}

char *sh_quote(const char *s)
{
	struct strbuf sb = { 0 };

	sb_add(&sb, "'");
	for (; *s; s++) {
		if (*s == '\'')
			sb_add(&sb, "'\\''");
		else
			sb_addf(&sb, "%c", *s);
	}
	sb_add(&sb, "'");
	return sb_detach(&sb);
}

/* Feeds what the child writes to ops until it ends, the deadline, Ctrl-C or ops->stop. */
static void stream(pid_t pid, int rd, double timeout_s, const struct ssh_stream *ops,
		   struct ssh_result *res)
{
	uint64_t end = now_ns() + (uint64_t)(timeout_s * 1e9);
	char buf[8192];
	int status = 0;

	for (;;) {
		struct pollfd p = { .fd = rd, .events = POLLIN };
		ssize_t n;

		res->interrupted = interrupted() && !ops->finishing;
		res->timed_out = !res->interrupted && now_ns() > end;
		res->stopped = !res->interrupted && !res->timed_out && ops->stop &&
			       ops->stop(ops->arg);
		if (res->interrupted || res->timed_out || res->stopped) {
			stop_child(pid, 2000);
			status = -1;
			break;
		}
		if (poll(&p, 1, 200) <= 0)
			continue;
		n = read(rd, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = '\0';
			ops->data(ops->arg, buf, (size_t)n);
			continue;
		}
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		break;
	}
	close(rd);
	res->status = status;
}

int ssh_stream(const struct target *t, const char *script, double timeout_s,
	       const struct ssh_stream *ops, struct ssh_result *res)
{
	struct strlist argv = { 0 };
	int rd = -1;
	struct spawn_opts o = { .out_fd = -1, .pipe_rd = &rd, .group = true };
	pid_t pid;

	memset(res, 0, sizeof(*res));
	ssh_argv(t, timeout_s < 10 ? timeout_s : 10, &argv);
	sl_add(&argv, script);
	pid = spawn_cmd(argv.v, &o);
	sl_free(&argv);
	if (pid < 0) {
		res->status = 255;
		res->out = xasprintf("cannot start ssh: %s", strerror(errno));
		return -1;
	}
	stream(pid, rd, timeout_s, ops, res);
	return res->status == 0 ? 0 : -1;
}

static void to_strbuf(void *arg, const char *buf, size_t n)
{
	(void)n;
	sb_add(arg, buf);
}

int ssh_run(const struct target *t, const char *script, double timeout_s, struct ssh_result *res)
{
	struct strbuf sb = { 0 };
	struct ssh_stream ops = { .data = to_strbuf, .arg = &sb, .finishing = t->finishing };
	int rc;

	sb_add(&sb, "");
	rc = ssh_stream(t, script, timeout_s, &ops, res);
	if (res->out)
		sb_free(&sb);   /* ssh did not start: res->out says why */
	else
		res->out = sb_detach(&sb);
	return rc;
}

bool ssh_answers(const struct target *t, double timeout_s)
{
	struct ssh_result r;
	bool ok = !ssh_run(t, "true", timeout_s, &r);

	free(r.out);
	return ok;
}

/* Runs "sh -c CMD" locally with the ssh argv appended as "$@"; cmd runs it. */
static int local_pipe(const struct target *t, const char *cmd, const char *a0,
		      const char *remote, double timeout_s, struct strbuf *errs)
{
	struct strlist argv = { 0 };
	char *log = xasprintf("/tmp/cmabench-ssh-%d.log", (int)getpid());
	char *text;
	int rc;

	sl_add(&argv, "timeout");
	sl_addf(&argv, "%.0f", timeout_s < 1 ? 1 : timeout_s);
	sl_add(&argv, "sh");
	sl_add(&argv, "-c");
	sl_add(&argv, cmd);
	sl_add(&argv, a0);
	ssh_argv(t, 10, &argv);
	sl_add(&argv, remote);
	unlink(log);
	rc = run_cmd(argv.v, NULL, log, NULL, NULL);
	if (rc) {
		text = read_file(log, NULL);
		sb_addf(errs, "%s%s", rc == 124 ? "timed out; " : "", text ? rtrim(text) : "");
		free(text);
	}
	unlink(log);
	free(log);
	sl_free(&argv);
	return rc ? -1 : 0;
}

int ssh_put(const struct target *t, const char *local, const char *remote, double timeout_s,
	    struct strbuf *errs)
{
	char *q = sh_quote(remote), *cmd = xasprintf("cat > %s", q);
	int rc = local_pipe(t, "f=$0; exec \"$@\" < \"$f\"", local, cmd, timeout_s, errs);

	free(q);
	free(cmd);
	return rc;
}

int ssh_get(const struct target *t, const char *remote, const char *local, double timeout_s,
	    struct strbuf *errs)
{
	char *q = sh_quote(remote), *cmd = xasprintf("cat %s", q);
	/* through a .part file: a copy cut short is no file */
	int rc = local_pipe(t, "f=$0; \"$@\" > \"$f.part\" && mv \"$f.part\" \"$f\"; rc=$?; "
			    "rm -f \"$f.part\"; exit $rc", local, cmd, timeout_s, errs);

	free(q);
	free(cmd);
	return rc;
}

int ssh_get_dir(const struct target *t, const char *remote_dir, const char *local_dir,
		double timeout_s, struct strbuf *errs)
{
	char *q = sh_quote(remote_dir), *cmd = xasprintf("tar -C %s -cf - .", q);
	int rc;

	if (mkdir_p(local_dir)) {
		sb_addf(errs, "%s: %s", local_dir, strerror(errno));
		rc = -1;
	} else {
		/* through a file: sh has no pipefail, and a half tar is not a result */
		rc = local_pipe(t, "d=$0; \"$@\" > \"$d/.board.tar\" && tar -C \"$d\" -xf "
				"\"$d/.board.tar\"; rc=$?; rm -f \"$d/.board.tar\"; exit $rc",
				local_dir, cmd, timeout_s, errs);
	}
	free(q);
	free(cmd);
	return rc;
}
