/*
 * run --resume: which scenarios already have their results (resume.h).
 */
#include "run/resume.h"

#include "lib/hash.h"
#include "lib/json.h"
#include "lib/util.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

void resume_key(struct run_ctx *ctx, const struct plan *plan, const struct scenario *scn,
		char out[65])
{
	struct hash *h = hash_new();

	/* the harness as built: its code decides what every run does */
	if (hash_file(h, "/proc/self/exe"))
		hash_str(h, ctx->source_version ? ctx->source_version : "unknown");
	hash_str(h, ctx->accel ? ctx->accel : "");
	for (size_t i = 0; i < plan->n; i++) {
		const struct run *r = &plan->runs[i];
		struct strlist files = { 0 };

		if (r->scn != scn)
			continue;
		hash_str(h, r->name);
		hash_str(h, r->steps);
		hash_str(h, r->cmdline);
		hash_str(h, r->layout ? r->layout : "");
		runner_hash_boot(ctx, r, h);
		plan_files(r, &files);
		for (size_t f = 0; f < files.n; f++) {
			char *src = env_src(ctx->env, files.v[f]);

			hash_str(h, files.v[f]);
			if (hash_file(h, src))
				hash_str(h, "(unreadable)");
			free(src);
		}
		sl_free(&files);
	}
	hash_final(h, out);
}

/* name-YYYYMMDD-HHMMSS, or with claim_final's -N */
static bool named_for(const char *dir, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(dir, name, n) && dir[n] == '-' && strlen(dir + n + 1) >= 15 &&
	       dir[n + 1] >= '0' && dir[n + 1] <= '9';
}

char *resume_find(const char *root, const char *name, const char *key)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char *found = NULL;

	if (!d)
		return NULL;
	while (!found && (e = readdir(d))) {
		char *meta;
		json_object *m;

		if (e->d_name[0] == '.' || !named_for(e->d_name, name))
			continue;
		meta = xasprintf("%s/%s/metadata.json", root, e->d_name);
		m = json_object_from_file(meta);
		if (m && js_str(m, "plan_key") && !strcmp(js_str(m, "plan_key"), key) &&
		    !json_object_object_get_ex(m, "interrupted", NULL))
			found = xasprintf("%s/%s", root, e->d_name);
		json_object_put(m);
		free(meta);
	}
	closedir(d);
	return found;
}
