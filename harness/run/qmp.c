#include "run/qmp.h"
#include "lib/util.h"

#include <errno.h>
#include <json-c/json.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct qmp {
	int fd;
	double timeout_s;
	struct strbuf in;           /* bytes read but not yet a whole line */
};

/* The next whole line QEMU sent (caller frees), or NULL on timeout or EOF. */
static char *read_line(struct qmp *q)
{
	uint64_t end = now_ns() + (uint64_t)(q->timeout_s * 1e9);

	for (;;) {
		char *nl = q->in.buf ? memchr(q->in.buf, '\n', q->in.len) : NULL;

		if (nl) {
			size_t n = nl - q->in.buf;
			char *line = xmalloc(n + 1);

			memcpy(line, q->in.buf, n);
			line[n] = '\0';
			memmove(q->in.buf, nl + 1, q->in.len - n - 1);
			q->in.len -= n + 1;
			q->in.buf[q->in.len] = '\0';
			return line;
		}
		uint64_t now = now_ns();
		struct pollfd p = { .fd = q->fd, .events = POLLIN };
		char buf[65536];
		ssize_t r;

		if (now >= end || poll(&p, 1, (int)((end - now) / 1000000) + 1) <= 0)
			return NULL;
		r = read(q->fd, buf, sizeof(buf) - 1);
		if (r <= 0)
			return NULL;
		buf[r] = '\0';
		sb_add(&q->in, buf);
	}
}

/* The reply to the command just sent: the first line with "return" or "error" (events skipped). */
static json_object *reply(struct qmp *q)
{
	char *line;

	while ((line = read_line(q))) {
		json_object *o = json_tokener_parse(line), *v;

		free(line);
		if (o && (json_object_object_get_ex(o, "return", &v) ||
			  json_object_object_get_ex(o, "error", &v)))
			return o;
		json_object_put(o);
	}
	return NULL;
}

static int send_json(struct qmp *q, json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	size_t n = strlen(s);
	int rc = write(q->fd, s, n) == (ssize_t)n && write(q->fd, "\n", 1) == 1 ? 0 : -1;

	json_object_put(o);
	return rc;
}

struct qmp *qmp_open(const char *sock_path, double timeout_s)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct qmp *q;
	json_object *r;
	char *greeting;

	if (strlen(sock_path) >= sizeof(a.sun_path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	strcpy(a.sun_path, sock_path);
	q = xcalloc(1, sizeof(*q));
	q->timeout_s = timeout_s;
	q->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (q->fd < 0 || connect(q->fd, (struct sockaddr *)&a, sizeof(a)))
		goto fail;
	greeting = read_line(q);
	if (!greeting || !strstr(greeting, "\"QMP\"")) {
		free(greeting);
		errno = EPROTO;
		goto fail;
	}
	free(greeting);
	if (send_json(q, json_tokener_parse("{\"execute\":\"qmp_capabilities\"}")))
		goto fail;
	r = reply(q);
	if (!r) {
		errno = ETIMEDOUT;
		goto fail;
	}
	json_object_put(r);
	return q;
fail:
	qmp_close(q);
	return NULL;
}

char *qmp_hmp(struct qmp *q, const char *command, int cpu)
{
	json_object *cmd = json_object_new_object(), *args = json_object_new_object(), *r, *v;
	char *out = NULL;

	json_object_object_add(cmd, "execute", json_object_new_string("human-monitor-command"));
	json_object_object_add(args, "command-line", json_object_new_string(command));
	if (cpu >= 0)
		json_object_object_add(args, "cpu-index", json_object_new_int(cpu));
	json_object_object_add(cmd, "arguments", args);
	if (send_json(q, cmd))
		return NULL;
	r = reply(q);
	if (r && json_object_object_get_ex(r, "return", &v) && json_object_is_type(v, json_type_string))
		out = xstrdup(json_object_get_string(v));
	json_object_put(r);
	return out;
}

void qmp_close(struct qmp *q)
{
	if (!q)
		return;
	if (q->fd >= 0)
		close(q->fd);
	sb_free(&q->in);
	free(q);
}
