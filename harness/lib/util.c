#include "lib/util.h"
#include "lib/signals.h"

#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void vmsg(const char *fmt, va_list ap)
{
	fputs("cmabench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void err_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void info_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

static void *oom(void)
{
	fputs("cmabench: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom();
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	return p ? p : oom();
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	return p ? p : oom();
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	return p ? p : oom();
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	va_end(ap);
	return s;
}

void sb_init(struct strbuf *sb)
{
	sb->cap = 256;
	sb->len = 0;
	sb->buf = xmalloc(sb->cap);
	sb->buf[0] = '\0';
}

static void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	if (!sb->buf)
		sb_init(sb);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, cp);
	va_end(cp);
	if ((size_t)n >= sb->cap - sb->len) {
		sb->cap = (sb->len + n + 1) * 2;
		sb->buf = xrealloc(sb->buf, sb->cap);
		vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	}
	sb->len += n;
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sb_add(struct strbuf *sb, const char *s)
{
	sb_addf(sb, "%s", s);
}

char *sb_detach(struct strbuf *sb)
{
	char *s;

	if (!sb->buf)
		sb_init(sb);
	s = sb->buf;
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void sl_add(struct strlist *sl, const char *s)
{
	if (sl->n + 1 >= sl->cap) {
		sl->cap = sl->cap ? sl->cap * 2 : 8;
		sl->v = xrealloc(sl->v, sl->cap * sizeof(*sl->v));
	}
	sl->v[sl->n++] = xstrdup(s);
	sl->v[sl->n] = NULL;
}

void sl_addf(struct strlist *sl, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	va_end(ap);
	sl_add(sl, s);
	free(s);
}

bool sl_has(const struct strlist *sl, const char *s)
{
	for (size_t i = 0; i < sl->n; i++)
		if (!strcmp(sl->v[i], s))
			return true;
	return false;
}

void sl_free(struct strlist *sl)
{
	for (size_t i = 0; i < sl->n; i++)
		free(sl->v[i]);
	free(sl->v);
	sl->v = NULL;
	sl->n = sl->cap = 0;
}

bool path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int ret = 0;

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) && errno != EEXIST) {
				ret = -1;
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return ret;
}

int rm_rf(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int ret = 0;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char *child;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		child = path_join(path, de->d_name);
		if (rm_rf(child))
			ret = -1;
		free(child);
	}
	closedir(d);
	if (rmdir(path))
		ret = -1;
	return ret;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb;
	char buf[8192];
	size_t n;

	if (!f)
		return NULL;
	sb_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (sb.len + n + 1 > sb.cap) {
			sb.cap = (sb.len + n + 1) * 2;
			sb.buf = xrealloc(sb.buf, sb.cap);
		}
		memcpy(sb.buf + sb.len, buf, n);
		sb.len += n;
		sb.buf[sb.len] = '\0';
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		sb_free(&sb);
		errno = e;
		return NULL;
	}
	fclose(f);
	if (len)
		*len = sb.len;
	return sb_detach(&sb);
}

int write_file(const char *path, const char *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "wb");
	int ret = -1;

	if (!f)
		goto out;
	if (fwrite(data, 1, len, f) != len || fflush(f) || fsync(fileno(f))) {
		fclose(f);
		unlink(tmp);
		goto out;
	}
	if (fclose(f) || rename(tmp, path)) {
		unlink(tmp);
		goto out;
	}
	ret = 0;
out:
	free(tmp);
	return ret;
}

int write_text(const char *dir, const char *name, char *text)
{
	char *p = path_join(dir, name);
	int ret = write_file(p, text, strlen(text));

	if (ret)
		err_msg("%s: %s", p, strerror(errno));
	free(p);
	free(text);
	return ret;
}

int copy_file(const char *from, const char *to)
{
	size_t len;
	char *data = read_file(from, &len);
	struct stat st;
	int ret;

	if (!data)
		return -1;
	ret = write_file(to, data, len);
	free(data);
	if (!ret && !stat(from, &st))
		chmod(to, st.st_mode & 07777);
	return ret;
}

char *path_join(const char *a, const char *b)
{
	if (b[0] == '/')
		return xstrdup(b);
	return xasprintf("%s%s%s", a, a[0] && a[strlen(a) - 1] == '/' ? "" : "/", b);
}

char *abs_path(const char *path)
{
	char *r = realpath(path, NULL);

	if (!r && path[0] != '/') {
		char cwd[PATH_MAX];

		if (getcwd(cwd, sizeof(cwd)))
			return path_join(cwd, path);
	}
	return r ? r : xstrdup(path);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&t, NULL);
}

void fmt_duration(char *buf, size_t len, double seconds)
{
	long s = seconds < 0 ? 0 : (long)(seconds + 0.5);

	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
}

pid_t spawn_cmd(char *const argv[], const struct spawn_opts *o)
{
	int pfd[2] = { -1, -1 }, ifd[2] = { -1, -1 }, out = o->out_fd;
	pid_t pid;

	if (o->pipe_rd) {
		if (pipe2(pfd, O_CLOEXEC))
			return -1;
		out = pfd[1];
	}
	if (o->stdin_sock && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ifd)) {
		if (o->pipe_rd) {
			close(pfd[0]);
			close(pfd[1]);
		}
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		if (o->pipe_rd) {
			close(pfd[0]);
			close(pfd[1]);
		}
		if (o->stdin_sock) {
			close(ifd[0]);
			close(ifd[1]);
		}
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR);

		if (o->group) {
			setpgid(0, 0);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
		}
		if (o->stdin_sock)
			dup2(ifd[0], 0);
		else if (devnull >= 0)
			dup2(devnull, 0);
		if (out >= 0)
			dup2(out, 1);
		if (o->quiet_err && devnull >= 0)
			dup2(devnull, 2);
		else if (out >= 0)
			dup2(out, 2);
		if (o->cwd && chdir(o->cwd)) {
			fprintf(stderr, "cannot chdir to %s: %s\n", o->cwd, strerror(errno));
			_exit(127);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (o->group)
		setpgid(pid, pid);
	if (o->pipe_rd) {
		close(pfd[1]);
		*o->pipe_rd = pfd[0];
	}
	if (o->stdin_sock) {
		close(ifd[0]);
		*o->stdin_sock = ifd[1];
	}
	return pid;
}

int run_cmd(char *const argv[], const char *cwd, const char *log, tick_fn tick, void *arg)
{
	struct spawn_opts o = { .cwd = cwd, .out_fd = -1, .group = true };
	pid_t pid;
	int status = 0;
	uint64_t last_tick = now_ns();

	if (log) {
		o.out_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (o.out_fd < 0) {
			err_msg("%s: %s", log, strerror(errno));
			return -1;
		}
	}
	pid = spawn_cmd(argv, &o);
	if (pid < 0) {
		err_msg("fork: %s", strerror(errno));
		if (o.out_fd >= 0)
			close(o.out_fd);
		return -1;
	}
	for (;;) {
		pid_t r;

		poll(NULL, 0, 200);
		if (interrupted()) {
			stop_child(pid, 2000);
			status = -1;
			break;
		}
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid) {
			status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			break;
		}
		if (tick && now_ns() - last_tick > 500000000ull) {
			tick(arg);
			last_tick = now_ns();
		}
	}
	if (o.out_fd >= 0)
		close(o.out_fd);
	return status;
}

char *cmd_output(char *const argv[], int *status_out)
{
	return cmd_capture(argv, status_out, false);
}

char *cmd_capture(char *const argv[], int *status_out, bool with_stderr)
{
	int rd;
	struct spawn_opts o = { .out_fd = -1, .pipe_rd = &rd, .quiet_err = !with_stderr };
	pid_t pid = spawn_cmd(argv, &o);
	struct strbuf sb;
	char buf[8192];
	ssize_t n;
	int status;

	if (pid < 0)
		return NULL;
	sb_init(&sb);
	while ((n = read(rd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		sb_add(&sb, buf);
	}
	close(rd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	*status_out = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return sb_detach(&sb);
}

char *cmd_first_line(char *const argv[])
{
	int status;
	char *out = cmd_output(argv, &status);

	if (!out)
		return NULL;
	out[strcspn(out, "\n")] = '\0';
	rtrim(out);
	if (status || !out[0]) {
		free(out);
		return NULL;
	}
	return out;
}

char *rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return rtrim(s);
}

int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

size_t sort_unique_ll(long long *v, size_t n)
{
	size_t u = 0;

	if (n)
		qsort(v, n, sizeof(*v), cmp_ll);
	for (size_t i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	return u;
}

bool have_program(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL;
	bool found = false;

	if (!prog || !*prog)
		return false;
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = path_join(d, prog);

		found = access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}

/* With stamp: "20261203-142501" (run ids); without: ISO 8601. */
char *utc_now(bool stamp)
{
	char buf[64];
	time_t t = time(NULL);

	if (stamp)
		strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", gmtime(&t));
	else
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	return xstrdup(buf);
}
