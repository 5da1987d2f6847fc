#include "kbuild/kconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * One line of a config file as (symbol, value); "# CONFIG_X is not set"
 * reads as value "n". Returns 0 for lines that set nothing.
 */
static int parse_line(char *s, char **sym, char **val)
{
	static char n[] = "n";
	char *eq;

	rtrim(s);
	if (!strncmp(s, "# CONFIG_", 9)) {
		char *end = strstr(s, " is not set");

		if (!end || end[11])
			return 0;
		*end = '\0';
		*sym = s + 2;
		*val = n;
		return 1;
	}
	if (strncmp(s, "CONFIG_", 7) || !(eq = strchr(s, '=')))
		return 0;
	*eq = '\0';
	*sym = s;
	*val = eq + 1;
	return 1;
}

static const char *lookup(const char *config, size_t clen, const char *sym)
{
	size_t len = strlen(sym);

	/* config holds the .config's lines, each NUL-terminated. */
	for (const char *p = config; p < config + clen; p += strlen(p) + 1)
		if (!strncmp(p, sym, len) && p[len] == '=')
			return p + len + 1;
	return NULL;
}

/* Whether a later fragment sets sym too (its value is the one that counts). */
static int set_later(const char *const *later, const char *sym)
{
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	for (; later && *later && !found; later++) {
		FILE *f = fopen(*later, "r");
		char *s, *v;

		if (!f)
			continue;
		while (!found && getline(&line, &cap, f) >= 0)
			found = parse_line(line, &s, &v) && !strcmp(s, sym);
		fclose(f);
	}
	free(line);
	return found;
}

int kconfig_check(const char *fragment, const char *const *later, const char *dotconfig,
		  struct strbuf *errs)
{
	size_t clen;
	char *config = read_file(dotconfig, &clen);
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, bad = 0;

	if (!errs->buf)
		sb_init(errs);
	if (!config) {
		sb_addf(errs, "%s: cannot read\n", dotconfig);
		return 1;
	}
	f = fopen(fragment, "r");
	if (!f) {
		sb_addf(errs, "%s: cannot read\n", fragment);
		free(config);
		return 1;
	}
	/* Split .config into NUL-terminated lines. */
	for (size_t i = 0; i < clen; i++)
		if (config[i] == '\n')
			config[i] = '\0';

	while (getline(&line, &cap, f) >= 0) {
		char *sym, *want;
		const char *got;

		lineno++;
		if (!parse_line(line, &sym, &want) || set_later(later, sym))
			continue;
		got = lookup(config, clen, sym);
		if (!strcmp(want, "n") ? got == NULL || !strcmp(got, "n") : got && !strcmp(got, want))
			continue;
		sb_addf(errs, "%s:%d: %s: wanted %s, got %s\n", fragment, lineno, sym,
			!strcmp(want, "n") ? "not set" : want, got ? got : "not set");
		bad++;
	}
	free(line);
	fclose(f);
	free(config);
	return bad;
}
