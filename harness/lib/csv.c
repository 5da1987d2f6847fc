#include "lib/csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

size_t csv_split(const char *line, struct strlist *out)
{
	struct strbuf cur;
	size_t n = 0;
	const char *p = line;

	for (;;) {
		sb_init(&cur);
		if (*p == '"') {
			for (p++; *p; p++) {
				if (*p == '"' && p[1] == '"')
					sb_add(&cur, "\""), p++;
				else if (*p == '"') {
					p++;
					break;
				} else
					sb_addf(&cur, "%c", *p);
			}
			while (*p && *p != ',')
				p++;
		} else {
			size_t len = strcspn(p, ",");

			sb_addf(&cur, "%.*s", (int)len, p);
			p += len;
		}
		sl_add(out, cur.buf);
		sb_free(&cur);
		n++;
		if (*p != ',')
			return n;
		p++;
	}
}

/* The next line (without '\r\n'), or NULL at the end. */
static char *next_line(struct csv *c)
{
	char *l = c->pos, *nl;

	if (!l || !*l)
		return NULL;
	nl = strchr(l, '\n');
	if (nl) {
		*nl = '\0';
		c->pos = nl + 1;
	} else {
		c->pos = l + strlen(l);
	}
	c->lineno++;
	return rtrim(l);
}

static void read_header(struct csv *c)
{
	char *l;

	while ((l = next_line(c)) && (!*l || *l == '#'))
		;
	if (l)
		csv_split(l, &c->head);
}

int csv_open(struct csv *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->text = read_file(path, NULL);
	if (!c->text)
		return -1;
	c->pos = c->text;
	read_header(c);
	return 0;
}

void csv_open_text(struct csv *c, const char *text)
{
	memset(c, 0, sizeof(*c));
	c->text = xstrdup(text);
	c->pos = c->text;
	read_header(c);
}

bool csv_next(struct csv *c)
{
	char *l;

	sl_free(&c->f);
	while ((l = next_line(c)))
		if (*l && *l != '#') {
			csv_split(l, &c->f);
			return true;
		}
	return false;
}

void csv_close(struct csv *c)
{
	free(c->text);
	sl_free(&c->head);
	sl_free(&c->f);
	memset(c, 0, sizeof(*c));
}

int csv_col(const struct csv *c, const char *name)
{
	for (size_t i = 0; i < c->head.n; i++)
		if (!strcmp(c->head.v[i], name))
			return (int)i;
	return -1;
}

bool csv_cols(const struct csv *c, const char *const *names, size_t n, int *idx)
{
	bool all = true;

	for (size_t i = 0; i < n; i++)
		all &= (idx[i] = csv_col(c, names[i])) >= 0;
	return all;
}

const char *csv_field(const struct csv *c, int col)
{
	return col >= 0 && (size_t)col < c->f.n ? c->f.v[col] : NULL;
}

bool csv_ll(const struct csv *c, int col, long long *v)
{
	const char *s = csv_field(c, col);
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !*end && !errno;
}

bool csv_double(const struct csv *c, int col, double *v)
{
	const char *s = csv_field(c, col);
	char *end;

	if (!s || !*s)
		return false;
	*v = strtod(s, &end);
	return !*end;
}

void csv_put_str(struct strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		sb_add(sb, s);
		return;
	}
	sb_add(sb, "\"");
	for (; *s; s++)
		sb_addf(sb, "%s%c", *s == '"' ? "\"" : "", *s);
	sb_add(sb, "\"");
}

void csv_put_ll(struct strbuf *sb, long long v, long long none)
{
	if (v == none)
		sb_add(sb, ",");
	else
		sb_addf(sb, ",%lld", v);
}
