/*
 * A results directory's raw runs packed beside its report: runs/ into
 * runs.tar.xz, deterministically (names sorted, mtime 0, owner 0, modes
 * normalised, xz on one thread: the same runs give the same bytes), checked
 * against runs/ before runs/ goes. The reader is dataset/ds-packed.c.
 */
#include "lib/pack.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TAR_FLAGS "--sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner " \
	"--mode=u=rwX,go=rX --format=gnu"

/* The number of lines of a command's output, or -1. */
static long count_lines(char *const argv[])
{
	int st;
	char *out = cmd_output(argv, &st);
	long n = 0;

	if (!out || st) {
		free(out);
		return -1;
	}
	for (char *p = out; *p; p++)
		n += *p == '\n';
	free(out);
	return n;
}

int pack_runs(const char *dir, bool keep)
{
	char *runs = path_join(dir, "runs"), *dst = path_join(dir, "runs.tar.xz");
	char *tmp = xasprintf("%s.tmp-%ld", dst, (long)getpid()), *msg;
	char *pack[] = { "sh", "-c", "tar " TAR_FLAGS " -C \"$1\" -cf - runs | xz -9 -T1 -c > \"$2\"",
			 "pack", (char *)dir, tmp, NULL };
	char *find[] = { "find", runs, NULL };
	char *list[] = { "tar", "-tJf", tmp, NULL };
	long files, listed;
	int st, ret = 1;

	if (!is_dir(runs)) {
		err_msg("%s: no runs/ to pack%s", dir, path_exists(dst) ? " (already packed)" : "");
		ret = path_exists(dst) ? 0 : 1;
		goto out;
	}
	msg = cmd_capture(pack, &st, true);
	if (st || !msg) {
		err_msg("%s: packing runs/ failed: %s", dir, msg && *msg ? rtrim(msg) : "(no message)");
		free(msg);
		goto out;
	}
	free(msg);
	files = count_lines(find);
	listed = count_lines(list);
	if (files < 0 || files != listed) {
		err_msg("%s: the archive lists %ld entries, runs/ holds %ld: not packed", dir, listed, files);
		goto out;
	}
	if (rename(tmp, dst)) {
		err_msg("%s: cannot rename %s to %s", dir, tmp, dst);
		goto out;
	}
	if (!keep && rm_rf(runs)) {
		err_msg("%s: packed, but runs/ could not be removed", dir);
		goto out;
	}
	printf("packed %s/runs (%ld entries) into %s (a console by hand: tar -C %s -xJf %s)\n",
	       dir, files, dst, dir, dst);
	ret = 0;
out:
	unlink(tmp);
	free(tmp);
	free(dst);
	free(runs);
	return ret;
}

