#include "config.h"
#include "run/scratch.h"
#include "lib/cache.h"
#include "lib/hash.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The programs a layout line may name: they write deterministic trees. */
static const char *const layout_programs[] = { "build-sim", "app-switch" };

static bool layout_program(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(layout_programs); i++)
		if (!strcmp(name, layout_programs[i]))
			return true;
	return false;
}

/* The host's copy of a guest program (the same source, built for the host). */
static char *program_path(const struct cmb_env *env, const char *name)
{
	char *rel = xasprintf("workloads/guest/%s", name), *p = env_build(env, rel);

	free(rel);
	return p;
}

/* One line, "PROG prepare --dir SUB ARGS...", run with SUB under root. */
static int lay_out(const struct cmb_env *env, const char *line, const char *root,
		   const char *img)
{
	char *copy = xstrdup(line), *save = NULL, *argv[32] = { 0 };
	size_t n = 0;
	int rc = -1;

	for (char *t = strtok_r(copy, " ", &save); t && n < ARRAY_SIZE(argv) - 1;
	     t = strtok_r(NULL, " ", &save)) {
		if (!n && !layout_program(t))
			break;
		if (!n)
			t = program_path(env, t);
		else if (!strcmp(argv[n - 1], "--dir"))
			t = path_join(root, t);
		else
			t = xstrdup(t);
		argv[n++] = t;
	}
	if (!n)
		err_msg("scratch layout of %s: \"%s\" names no program that lays files out", img,
			line);
	else if (run_cmd(argv, NULL, NULL, NULL, NULL))
		err_msg("scratch layout of %s: \"%s\" failed", img, line);
	else
		rc = 0;
	for (size_t i = 0; i < n; i++)
		free(argv[i]);
	free(copy);
	return rc;
}

/* Monotonic seconds, for the progress line. */
static double seconds_now(void)
{
	return now_ns() / 1e9;
}

/*
 * The layout's programs write the same bytes every time: an image made once
 * is kept under the cache's scratch/, keyed by the layout, the disk's size
 * and the programs themselves, and copied (sparse) for each run.
 */
static char *template_path(const struct cmb_env *env, const struct run *r)
{
	struct hash *h = hash_new();
	char key[65], *rel, *p;
	int rc = 0;

	hash_str(h, r->layout);
	hash_bytes(h, &r->spec->scratch, sizeof(r->spec->scratch));
	for (size_t i = 0; i < ARRAY_SIZE(layout_programs); i++) {
		p = program_path(env, layout_programs[i]);
		rc |= hash_file(h, p);
		free(p);
	}
	hash_final(h, key);
	if (rc)
		return NULL;
	key[16] = '\0';
	rel = xasprintf("scratch/%s.img", key);
	p = env_cache(env, rel);
	free(rel);
	return p;
}

static int copy_sparse(const char *from, const char *to)
{
	char *argv[] = { "cp", "--sparse=always", (char *)from, (char *)to, NULL };

	return run_cmd(argv, NULL, NULL, NULL, NULL);
}

static char *build_image(const struct cmb_env *env, const struct run *r, const char *tag)
{
	char *dir = env_cache(env, "tmp");
	char *img = xasprintf("%s/scratch-%s-%d.img", dir, tag, (int)getpid());
	char *root = xasprintf("%s/scratch-%s-%d.d", dir, tag, (int)getpid());
	char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", "scratch", "-d", root, img, NULL };
	const char *layout = r->layout ? r->layout : "";
	double t0 = seconds_now();
	int fd, rc = 0;

	mkdir_p(dir);
	free(dir);
	rm_rf(root);
	if (mkdir_p(root)) {
		err_msg("%s: %s", root, strerror(errno));
		rc = -1;
	}
	for (const char *p = layout; !rc && *p;) {
		size_t len = strcspn(p, "\n");
		char *line = xasprintf("%.*s", (int)len, p);

		rc = lay_out(env, line, root, img);
		free(line);
		p += len + (p[len] == '\n');
	}
	/* A sparse file of the scenario's size: costs nothing until written. */
	if (!rc) {
		fd = open(img, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || ftruncate(fd, (off_t)r->spec->scratch) || close(fd) ||
		    run_cmd(argv, NULL, NULL, NULL, NULL)) {
			if (*layout)
				err_msg("%s: mkfs.ext4 of the scratch disk %s failed: is scratch= (%llu MiB) too small for the files of %s?",
					r->scn->path, img, (unsigned long long)(r->spec->scratch >> 20),
					r->name);
			else
				err_msg("mkfs.ext4 of the scratch disk %s failed", img);
			rc = -1;
		}
	}
	rm_rf(root);
	free(root);
	if (rc) {
		unlink(img);
		free(img);
		return NULL;
	}
	if (*layout)
		printf("[%s/%s] scratch disk laid out on the host in %.1f s\n", r->scn->name, r->name,
		       seconds_now() - t0);
	return img;
}

char *scratch_make(const struct cmb_env *env, const struct run *r, const char *tag)
{
	char *tpl = r->layout ? template_path(env, r) : NULL, *img, *tmp, *dir;
	double t0 = seconds_now();

	if (tpl && path_exists(tpl)) {
		cache_touch(tpl);           /* the cache's bound evicts it last */
		dir = env_cache(env, "tmp");
		img = xasprintf("%s/scratch-%s-%d.img", dir, tag, (int)getpid());
		free(dir);
		if (!copy_sparse(tpl, img)) {
			printf("[%s/%s] scratch disk copied from the layout kept in %s in %.1f s\n",
			       r->scn->name, r->name, tpl, seconds_now() - t0);
			free(tpl);
			return img;
		}
		unlink(img);
		free(img);
	}
	img = build_image(env, r, tag);
	if (img && tpl) {
		/* kept for the next run; a copy that fails costs only the next run's time.
		 * Slurm tasks on other nodes may share the cache: host and pid name it. */
		char host[64] = "";

		gethostname(host, sizeof(host) - 1);
		tmp = xasprintf("%s.%s.%d", tpl, host, (int)getpid());
		dir = xstrdup(tpl);
		*strrchr(dir, '/') = '\0';
		mkdir_p(dir);
		if (copy_sparse(img, tmp) || rename(tmp, tpl))
			unlink(tmp);
		free(dir);
		free(tmp);
	}
	free(tpl);
	return img;
}
