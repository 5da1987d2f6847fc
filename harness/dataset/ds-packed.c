/*
 * A set whose raw runs are packed: runs.tar.xz beside its data/ and report
 * (results/ keeps a set's README, tables and report unpacked, its tens of
 * files per run packed, issue 43). The archive is unpacked once into the
 * cache, under the hash of its bytes, and read there: a repacked or
 * changed archive gets a directory of its own, never a stale one.
 */
#include "dataset/ds-internal.h"
#include "lib/cache.h"
#include "lib/hash.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *unpack_root;   /* <cache>/sets; NULL: not set */

void dataset_set_unpack_dir(const char *dir)
{
	free(unpack_root);
	unpack_root = dir ? xstrdup(dir) : NULL;
}

/* Unpacks archive into <unpack_root>/<hash>/ (atomically: into a temporary
 * directory renamed at the end); returns <hash>/runs or NULL. */
static char *unpack(const char *archive, struct strbuf *errs)
{
	struct hash *h = hash_new();
	char key[65], *dst, *tmp, *runs = NULL;
	int st;

	if (hash_file(h, archive)) {
		hash_final(h, key);
		sb_addf(errs, "%s: cannot be read\n", archive);
		return NULL;
	}
	hash_final(h, key);
	dst = xasprintf("%s/%.16s", unpack_root, key);
	runs = path_join(dst, "runs");
	if (is_dir(runs)) {
		cache_touch(dst);           /* the cache's bound evicts it last */
		goto out;
	}
	tmp = xasprintf("%s.tmp-%ld", dst, (long)getpid());
	rm_rf(tmp);
	if (mkdir_p(tmp)) {
		sb_addf(errs, "%s: cannot create the directory to unpack %s into\n", tmp, archive);
	} else {
		char *argv[] = { "tar", "-C", tmp, "-xJf", (char *)archive, NULL };
		char *msg = cmd_capture(argv, &st, true);

		if (st || !msg)
			sb_addf(errs, "%s: tar could not unpack it: %s\n", archive,
				msg && *msg ? rtrim(msg) : "(no message)");
		else if (rename(tmp, dst) && !is_dir(runs))  /* another reader may have won */
			sb_addf(errs, "%s: cannot rename %s to %s\n", archive, tmp, dst);
		free(msg);
	}
	rm_rf(tmp);
	free(tmp);
	if (!is_dir(runs)) {
		free(runs);
		runs = NULL;
	}
out:
	free(dst);
	return runs;
}

char *ds_runs_dir(const char *dir, struct strbuf *errs)
{
	char *runs = path_join(dir, "runs"), *archive, *got;

	if (is_dir(runs))
		return runs;
	archive = path_join(dir, "runs.tar.xz");
	if (!path_exists(archive) || !unpack_root) {
		if (path_exists(archive))
			sb_addf(errs, "%s: packed runs, and no cache to unpack them into\n", dir);
		free(archive);
		return runs;    /* missing: the loader says "no runs" */
	}
	got = unpack(archive, errs);
	free(archive);
	if (!got)
		return runs;
	free(runs);
	return got;
}
