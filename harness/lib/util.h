/* Small helpers shared by every part of the harness. */
#ifndef CMB_UTIL_H
#define CMB_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Messages go to stderr prefixed with "cmabench: ". */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable string. */
struct strbuf {
	char *buf;
	size_t len, cap;
};
void sb_init(struct strbuf *sb);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_add(struct strbuf *sb, const char *s);
char *sb_detach(struct strbuf *sb);
void sb_free(struct strbuf *sb);

/* A growable list of strings. */
struct strlist {
	char **v;
	size_t n, cap;
};
void sl_add(struct strlist *sl, const char *s);
void sl_addf(struct strlist *sl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool sl_has(const struct strlist *sl, const char *s);
void sl_free(struct strlist *sl);

bool path_exists(const char *path);
bool is_dir(const char *path);
int mkdir_p(const char *path);
int rm_rf(const char *path);
/* Whole file into a NUL-terminated buffer; NULL and errno on failure. */
char *read_file(const char *path, size_t *len);
/* Writes through a temporary file and rename, so readers never see half. */
int write_file(const char *path, const char *data, size_t len);
int copy_file(const char *from, const char *to);
/* write_file of dir/name, taking text (freed); the error is printed. */
int write_text(const char *dir, const char *name, char *text);
char *path_join(const char *a, const char *b);
char *abs_path(const char *path);

uint64_t now_ns(void);
/* Sleeps ms milliseconds (a signal may end it early). */
void sleep_ms(long ms);
/* The time now, UTC: with stamp "20261203-142501" (run ids), without ISO 8601
 * (caller frees). */
char *utc_now(bool stamp);
/* "1:05" / "12:04:33": elapsed-time display. */
void fmt_duration(char *buf, size_t len, double seconds);

/*
 * Starts argv (looked up in PATH) with stdin from /dev/null. stdout goes to
 * out_fd, or to a new pipe whose read end is returned in *pipe_rd when
 * pipe_rd is set, or is inherited (out_fd -1); stderr goes where stdout
 * goes, or to /dev/null with quiet_err. A group child leads its own process
 * group (so that a signal reaches all it starts) and is killed when we die.
 * Returns the pid, or -1.
 */
struct spawn_opts {
	const char *cwd;
	int out_fd;
	int *pipe_rd;
	/* the child's stdin on a socket pair (send with MSG_NOSIGNAL: no SIGPIPE
	 * once it died), our end here; NULL: /dev/null */
	int *stdin_sock;
	bool quiet_err, group;
};
pid_t spawn_cmd(char *const argv[], const struct spawn_opts *o);

/*
 * Runs argv, appending stdout and stderr to log (NULL: inherit). Polls so
 * that Ctrl-C can stop it; a callback, if set, runs every 500 ms.
 * Returns the exit status, or -1 if it could not run or was interrupted.
 */
typedef void (*tick_fn)(void *arg);
int run_cmd(char *const argv[], const char *cwd, const char *log, tick_fn tick, void *arg);
/* Runs argv and returns all of its stdout (binary-unsafe); NULL if it cannot run. */
char *cmd_output(char *const argv[], int *status);
/* The same, with stderr too when with_stderr (for a tool's error message). */
char *cmd_capture(char *const argv[], int *status, bool with_stderr);
/* Runs argv and returns its first stdout line (trimmed), or NULL. */
char *cmd_first_line(char *const argv[]);

/* Trims trailing whitespace in place and returns s. */
char *rtrim(char *s);
/* qsort's comparison of long longs, ascending. */
int cmp_ll(const void *a, const void *b);
/* Sorts v[0..n-1] ascending and keeps each value once: the new count. */
size_t sort_unique_ll(long long *v, size_t n);
/* Whether prog runs from PATH (or is an executable path). */
bool have_program(const char *prog);
/* s without leading and trailing white space (in place). */
char *trim(char *s);

#endif
