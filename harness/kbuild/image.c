#include "config.h"
#include "kbuild/image.h"
#include "lib/cache.h"
#include "kbuild/elfdeps.h"
#include "lib/hash.h"
#include "lib/history.h"
#include "lib/progress.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Host programs copied into the guest at the same path. */
static const char *const host_programs[] = {
	"/usr/bin/fio", "/usr/bin/trace-cmd", "/usr/bin/perf",
};

/* Our programs (Makefile.am's GUEST_PROGS: build-tree paths, copied to
 * /usr/bin/NAME; another arch's are in workloads/guest/<arch>/), then init. */
static const char guest_programs[] = CMB_GUEST_PROGRAMS;
#define GUEST_INIT "workloads/guest/init"

static const char *const dirs[] = {
	"bin", "sbin", "usr/bin", "usr/sbin", "lib", "lib64", "etc", "proc", "sys", "dev",
	"tmp", "run", "root", "mnt/scratch", "results", "var/tmp",
};

struct file_map {
	struct strlist host, guest;
};

static void map_add(struct file_map *m, const char *host, const char *guest)
{
	if (sl_has(&m->guest, guest))
		return;
	sl_add(&m->host, host);
	sl_add(&m->guest, guest);
}

/* Adds the shared libraries ldd lists for prog. */
static int add_closure(struct file_map *m, const char *prog, bool quiet)
{
	char *argv[] = { "ldd", (char *)prog, NULL };
	int status;
	char *out = cmd_output(argv, &status), *save = NULL;

	if (!out || status) {
		if (!quiet)
			err_msg("ldd %s failed", prog);
		free(out);
		return -1;
	}
	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		/* "libx.so.1 => /lib/.../libx.so.1 (0x...)" or "/lib64/ld-linux... (0x...)" */
		char *arrow = strstr(l, "=> "), *path, *sp;

		path = arrow ? arrow + 3 : l;
		while (*path == ' ' || *path == '\t')
			path++;
		if (*path != '/')
			continue;
		sp = strchr(path, ' ');
		if (sp)
			*sp = '\0';
		map_add(m, path, path);
	}
	free(out);
	return 0;
}

/* A guest program of arch a: x86_64's next to their sources, others' under <arch>/. */
static char *own_path(const struct cmb_env *env, const struct cmb_arch *a, const char *rel)
{
	char *sub, *p;

	if (a == arch_default())
		return env_build(env, rel);
	sub = xasprintf("workloads/guest/%s/%s", a->name, strrchr(rel, '/') + 1);
	p = env_build(env, sub);
	free(sub);
	return p;
}

/*
 * Another arch's programs come from its unpacked userland (Debian's packages
 * of that arch), their closure from their ELF headers: ldd cannot run them.
 */
static int collect_foreign(const struct cmb_env *env, const struct cmb_arch *a, struct file_map *m,
			   bool quiet)
{
	char *root = path_join(env->arm64_userland, "root");
	char *busybox = root_resolve(root, "/bin/busybox");
	struct strbuf errs = { 0 };
	int rc = 0;

	if (!busybox) {
		if (!quiet)
			err_msg("%s/bin/busybox is missing (scripts/install-deps --arm64)", root);
		free(root);
		return -1;
	}
	map_add(m, busybox, "/bin/busybox");
	free(busybox);
	for (size_t i = 0; i < ARRAY_SIZE(host_programs) && !rc; i++) {
		char *h = root_resolve(root, host_programs[i]);

		if (!h) {
			if (!quiet)
				err_msg("%s%s is missing (scripts/install-deps --arm64)", root, host_programs[i]);
			rc = -1;
			break;
		}
		map_add(m, h, host_programs[i]);
		free(h);
		if (elf_closure(root, host_programs[i], a->lib_dirs, &m->host, &m->guest, &errs)) {
			if (!quiet)
				err_msg("the %s image's libraries:\n%s", a->name, errs.buf);
			rc = -1;
		}
	}
	sb_free(&errs);
	free(root);
	return rc;
}

/* quiet: image_cached_arch only asks; image_get_arch says what is missing. */
static int collect_files(const struct cmb_env *env, const struct cmb_arch *a, struct file_map *m,
			 bool quiet)
{
	if (!env->busybox || !*env->busybox) {
		if (!quiet)
			err_msg("no static busybox configured (Debian package busybox-static)");
		return -1;
	}
	if (a != arch_default()) {
		if (collect_foreign(env, a, m, quiet))
			return -1;
	} else {
		map_add(m, env->busybox, "/bin/busybox");
		for (size_t i = 0; i < ARRAY_SIZE(host_programs); i++) {
			if (!path_exists(host_programs[i])) {
				if (!quiet)
					err_msg("%s is missing (run scripts/install-deps)", host_programs[i]);
				return -1;
			}
			map_add(m, host_programs[i], host_programs[i]);
			if (add_closure(m, host_programs[i], quiet))
				return -1;
		}
	}
	{
		char *list = xstrdup(guest_programs), *save = NULL;

		for (char *rel = strtok_r(list, " \t", &save); rel; rel = strtok_r(NULL, " \t", &save)) {
			char *p = own_path(env, a, rel), *g = xasprintf("/usr/bin/%s", strrchr(rel, '/') + 1);
			bool there = path_exists(p);

			if (there)
				map_add(m, p, g);
			else if (!quiet)
				err_msg("%s is missing (run make first)", p);
			free(p);
			free(g);
			if (!there) {
				free(list);
				return -1;
			}
		}
		free(list);
	}
	{
		char *p = env_src(env, GUEST_INIT);

		if (!path_exists(p)) {
			if (!quiet)
				err_msg("%s is missing", p);
			free(p);
			return -1;
		}
		map_add(m, p, "/sbin/init");
		free(p);
	}
	return 0;
}

static int stage(const struct cmb_env *env, const struct file_map *m, const char *root,
		 uint64_t *bytes)
{
	char *argv[] = { (char *)env->busybox, "--list-full", NULL };
	int status;
	char *applets, *save = NULL;
	struct stat st;

	*bytes = 0;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *d = path_join(root, dirs[i]);

		mkdir_p(d);
		free(d);
	}
	for (size_t i = 0; i < m->host.n; i++) {
		char *dst = xasprintf("%s%s", root, m->guest.v[i]);
		char *slash = strrchr(dst, '/');

		*slash = '\0';
		mkdir_p(dst);
		*slash = '/';
		if (copy_file(m->host.v[i], dst)) {
			err_msg("cannot copy %s: %s", m->host.v[i], strerror(errno));
			free(dst);
			return -1;
		}
		if (!stat(dst, &st))
			*bytes += st.st_size;
		free(dst);
	}
	/*
	 * busybox applets as symlinks, where no real program is installed. The
	 * list comes from the host's busybox, which can run here: another
	 * arch's busybox-static is the same Debian version and configuration.
	 */
	applets = cmd_output(argv, &status);
	if (!applets || status) {
		err_msg("%s --list-full failed", env->busybox);
		free(applets);
		return -1;
	}
	for (char *a = strtok_r(applets, "\n", &save); a; a = strtok_r(NULL, "\n", &save)) {
		char *dst = path_join(root, a);

		if (!path_exists(dst) && symlink("/bin/busybox", dst) && errno != EEXIST) {
			err_msg("symlink %s: %s", dst, strerror(errno));
			free(dst);
			free(applets);
			return -1;
		}
		free(dst);
	}
	free(applets);
	{
		char *p = path_join(root, "etc/passwd");
		static const char pw[] = "root:x:0:0:root:/root:/bin/sh\n";
		char *g = path_join(root, "etc/group");
		static const char gr[] = "root:x:0:\n";
		int rc = write_file(p, pw, strlen(pw)) | write_file(g, gr, strlen(gr));

		free(p);
		free(g);
		if (rc)
			return -1;
	}
	return 0;
}

char *image_get(const struct cmb_env *env)
{
	return image_get_arch(env, arch_default());
}

/* The image's path for the files of m (its key their hash), or NULL. */
static char *image_path(const struct cmb_env *env, const struct cmb_arch *a,
			const struct file_map *m, char key[65], bool quiet)
{
	struct hash *h = hash_new();
	char *imgdir, *img;

	hash_str(h, "cmabench-image-1");
	if (a != arch_default())
		hash_str(h, a->name);
	for (size_t i = 0; i < m->host.n; i++) {
		hash_str(h, m->guest.v[i]);
		if (hash_file(h, m->host.v[i])) {
			if (!quiet)
				err_msg("%s: %s", m->host.v[i], strerror(errno));
			hash_final(h, key);
			return NULL;
		}
	}
	hash_final(h, key);
	imgdir = env_cache(env, "images");
	img = xasprintf("%s/root-%s%.16s.img", imgdir, a->cache_prefix, key);
	free(imgdir);
	return img;
}

bool image_cached_arch(const struct cmb_env *env, const struct cmb_arch *a)
{
	struct file_map m = { 0 };
	char key[65], *img = collect_files(env, a, &m, true) ? NULL
			   : image_path(env, a, &m, key, true);
	bool there = img && path_exists(img);

	free(img);
	sl_free(&m.host);
	sl_free(&m.guest);
	return there;
}

static char *history_key(const struct cmb_arch *a)
{
	return xasprintf("image.%sroot.seconds", a->cache_prefix);
}

double image_estimate(const struct cmb_env *env, const struct cmb_arch *a)
{
	char *key = history_key(a);
	double s = history_get(env, key);

	free(key);
	return s > 0 ? s : IMAGE_DEFAULT_SECONDS;
}

char *image_get_arch(const struct cmb_env *env, const struct cmb_arch *a)
{
	struct file_map m = { 0 };
	char key[65], *imgdir = NULL, *img = NULL, *tmpdir = NULL, *root = NULL, *tmpimg = NULL;
	uint64_t bytes;
	struct progress p;

	if (collect_files(env, a, &m, false) || !(img = image_path(env, a, &m, key, false)))
		goto fail;
	imgdir = env_cache(env, "images");
	if (path_exists(img)) {
		printf("[image] reusing %s root image %.16s\n", a->name, key);
		cache_touch(img);           /* the cache's bound evicts it last */
		goto out;
	}
	tmpdir = xasprintf("%s/.tmp-%.16s.%d", imgdir, key, (int)getpid());
	root = path_join(tmpdir, "root");
	tmpimg = path_join(tmpdir, "root.img");
	rm_rf(tmpdir);
	if (mkdir_p(root)) {
		err_msg("%s: %s", root, strerror(errno));
		goto fail;
	}
	progress_begin(&p, a == arch_default() ? "image" : a->name, 0);
	if (stage(env, &m, root, &bytes))
		goto fail_progress;
	{
		/* Room for the files plus a margin for ext4 metadata and guest writes. */
		char size[32];
		char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", "cmbroot", "-d", root, tmpimg, size, NULL };
		char *log = path_join(tmpdir, "mkfs.log");

		snprintf(size, sizeof(size), "%lluM", (unsigned long long)(bytes * 5 / 4 / (1 << 20) + 64));
		if (run_cmd(argv, NULL, log, NULL, NULL)) {
			err_msg("mkfs.ext4 failed; see %s", log);
			free(log);
			goto fail_progress;
		}
		free(log);
	}
	if (rename(tmpimg, img)) {
		err_msg("%s: %s", img, strerror(errno));
		goto fail_progress;
	}
	{
		char *hkey = history_key(a);

		history_set(env, hkey, progress_end(&p, "root image built"));
		free(hkey);
	}
	rm_rf(tmpdir);
	goto out;

fail_progress:
	progress_end(&p, "FAILED");
fail:
	if (tmpdir)
		rm_rf(tmpdir);
	free(img);
	img = NULL;
out:
	free(imgdir);
	free(tmpdir);
	free(root);
	free(tmpimg);
	sl_free(&m.host);
	sl_free(&m.guest);
	return img;
}
