#include "lib/options.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

void options_usage(FILE *f, const struct cmd_usage *u)
{
	fprintf(f, "usage: %s\n", u->synopsis);
	if (u->about)
		fprintf(f, "%s\n", u->about);
	fprintf(f, "  %-28s %s\n", "-h, --help", "this text");
	for (const struct opt *o = u->opts; o && o->kind != OPTK_END; o++) {
		char left[64];

		if (o->kind == OPTK_GROUP) {
			fprintf(f, "\n%s:\n", o->name);
			continue;
		}
		snprintf(left, sizeof(left), "%s%c%s--%s%s%s", o->short_name ? "-" : "",
			 o->short_name ? o->short_name : ' ', o->short_name ? ", " : " ", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-28s %s\n", o->short_name ? left : left + 2, o->help);
	}
}

static int take(const struct opt *o, void *base, const char *arg, const char **why)
{
	void *v = (char *)base + o->off;
	char *end;

	switch (o->kind) {
	case OPTK_FLAG:
		*(bool *)v = true;
		return 0;
	case OPTK_STRING:
		*(const char **)v = arg;
		return 0;
	case OPTK_LIST:
		sl_add(v, arg);
		return 0;
	case OPTK_LONG:
		*(long *)v = strtol(arg, &end, 10);
		if (end == arg || *end) {
			*why = "is not a whole number";
			return -1;
		}
		return 0;
	case OPTK_DOUBLE:
		*(double *)v = strtod(arg, &end);
		if (end == arg || *end) {
			*why = "is not a number";
			return -1;
		}
		return 0;
	case OPTK_CALL:
		return o->call(v, arg, why);
	default:
		return 0;
	}
}

int options_parse(const struct cmd_usage *u, void *base, int argc, char **argv)
{
	struct option *lo;
	struct strbuf shorts;
	size_t n = 0, k = 0;
	int c, idx, ret = -3;

	for (const struct opt *o = u->opts; o && o->kind != OPTK_END; o++)
		n++;
	lo = xcalloc(n + 2, sizeof(*lo));
	sb_init(&shorts);
	sb_add(&shorts, "+h");          /* stop at the first operand */
	for (size_t i = 0; i < n; i++) {
		const struct opt *o = &u->opts[i];

		if (o->kind == OPTK_GROUP)
			continue;
		lo[k++] = (struct option){ o->name, o->kind == OPTK_FLAG ? no_argument
							 : required_argument, NULL, 256 + (int)i };
		if (o->short_name)
			sb_addf(&shorts, "%c%s", o->short_name, o->kind == OPTK_FLAG ? "" : ":");
	}
	lo[k] = (struct option){ "help", no_argument, NULL, 'h' };
	optind = 1;
	opterr = 0;
	while (ret == -3 && (c = getopt_long(argc, argv, shorts.buf, lo, &idx)) != -1) {
		const struct opt *o = NULL;
		const char *why = NULL;

		if (c == 'h') {
			options_usage(stdout, u);
			ret = -1;
			break;
		}
		if (c >= 256)
			o = &u->opts[c - 256];
		for (size_t i = 0; !o && i < n; i++)
			if (u->opts[i].short_name == c && u->opts[i].kind != OPTK_GROUP)
				o = &u->opts[i];
		if (!o) {
			if (optopt && optopt < 256)
				err_msg("unknown option '-%c'", optopt);
			else
				err_msg("unknown option '%s' or missing argument", argv[optind - 1]);
			options_usage(stderr, u);
			ret = -2;
		} else if (take(o, base, optarg, &why)) {
			err_msg("--%s: '%s' %s", o->name, optarg, why);
			ret = -2;
		}
	}
	if (ret == -3)
		ret = optind;
	free(lo);
	sb_free(&shorts);
	return ret;
}
