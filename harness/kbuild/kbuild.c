#include "kbuild/kbuild.h"
#include "lib/cache.h"
#include "kbuild/kconfig.h"
#include "kbuild/kmake.h"
#include "kbuild/kmod.h"
#include "lib/hash.h"
#include "lib/history.h"
#include "lib/json.h"
#include "lib/progress.h"
#include "lib/signals.h"
#include "scenario/arch.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

/* Bump when the recipe below changes in a way that changes the output. */
#define RECIPE "cmabench-kbuild-1"

/*
 * The patches of the variant's series files, in order: file names ('#'
 * comments) relative to kernel-patches/ for a series there, else to the
 * series file's own directory.
 */
static int read_series(const struct cmb_env *env, const struct kvariant *v,
		       struct strlist *patches, struct strbuf *errs)
{
	char *kp = path_join(env->srcdir, "kernel-patches");
	int rc = 0;

	for (size_t f = 0; f < v->series_files.n && !rc; f++) {
		const char *name = v->series_files.v[f];
		char *series = name[0] == '/' ? xstrdup(name) : path_join(kp, name);
		char *text = read_file(series, NULL);
		char *save = NULL, *dir;
		int lineno = 0;

		if (!text) {
			sb_addf(errs, "%s: cannot read: %s\n", series, strerror(errno));
			free(series);
			rc = -1;
			break;
		}
		/* patch names are relative to their series file (v3/series: v3/) */
		dir = xstrdup(series);
		*strrchr(dir, '/') = '\0';
		for (char *l = text; l && !rc; l = save) {
			char *nl = strchr(l, '\n');

			save = nl ? nl + 1 : NULL;
			if (nl)
				*nl = '\0';
			lineno++;
			l = rtrim(l);
			while (*l == ' ' || *l == '\t')
				l++;
			if (!*l || *l == '#')
				continue;
			char *full = path_join(dir, l);

			if (!path_exists(full)) {
				sb_addf(errs, "%s:%d: no such patch: %s\n", series, lineno, full);
				rc = -1;
			} else {
				sl_add(patches, full);
			}
			free(full);
		}
		free(dir);
		free(text);
		free(series);
	}
	free(kp);
	return rc;
}

static const char *fragment_name(const struct cmb_arch *a, const struct kvariant *v, int i)
{
	return v->configs[arch_index(a)].v[i];
}

/* A shipped fragment's name, or one's own by its absolute path */
static char *fragment_path(const struct cmb_env *env, const char *name)
{
	if (name[0] == '/')
		return xstrdup(name);
	char *rel = xasprintf("kernel-patches/configs/%s", name);
	char *p = env_src(env, rel);

	free(rel);
	return p;
}

static int hash_source(const struct cmb_env *env, struct hash *h, struct strbuf *errs)
{
	if (is_dir(env->linux_source)) {
		/* A tree: its identity is its path, Makefile and git commit. */
		char *abs = abs_path(env->linux_source);
		char *mk = path_join(abs, "Makefile");
		char *argv[] = { "git", "-C", abs, "describe", "--always", "--dirty", NULL };
		char *head = cmd_first_line(argv);

		hash_str(h, abs);
		if (hash_file(h, mk)) {
			sb_addf(errs, "%s: not a kernel tree (no Makefile)\n", abs);
			free(abs);
			free(mk);
			free(head);
			return -1;
		}
		hash_str(h, head ? head : "no-git");
		free(abs);
		free(mk);
		free(head);
		return 0;
	}
	if (hash_file(h, env->linux_source)) {
		sb_addf(errs, "%s: cannot read the kernel source: %s\n", env->linux_source,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * A local tree (source = tree PATH): its HEAD, its uncommitted diff and its
 * untracked files (names and contents), not its path, so a clone at the
 * same state has the same key.
 */
static int hash_tree(const char *tree, struct hash *h, struct strbuf *errs)
{
	char *head_argv[] = { "git", "-C", (char *)tree, "rev-parse", "HEAD", NULL };
	char *diff_argv[] = { "git", "-C", (char *)tree, "diff", "--binary", "HEAD", NULL };
	/* names git would quote (a newline, a tab, a quote) are hashed as printed */
	char *untracked_argv[] = { "git", "-C", (char *)tree, "-c", "core.quotePath=false",
				   "ls-files", "--others", "--exclude-standard", NULL };
	char *mk = path_join(tree, "Makefile");
	char *head = cmd_first_line(head_argv), *diff = NULL, *untracked = NULL, *save = NULL;
	int st1 = -1, st2 = -1, ret = 0;

	if (!path_exists(mk)) {
		sb_addf(errs, "%s: not a kernel tree (no Makefile)\n", tree);
		ret = -1;
		goto out;
	}
	if (!head || strlen(head) < 40) {
		sb_addf(errs, "%s: not a git tree (git rev-parse HEAD failed)\n", tree);
		ret = -1;
		goto out;
	}
	/* a directory inside another repository would be keyed by that one */
	{
		char *top_argv[] = { "git", "-C", (char *)tree, "rev-parse", "--show-toplevel", NULL };
		char *top = cmd_first_line(top_argv), *rtop = top ? abs_path(top) : NULL;
		char *rtree = abs_path(tree);
		bool same = rtop && !strcmp(rtop, rtree);

		free(top);
		free(rtop);
		free(rtree);
		if (!same) {
			sb_addf(errs, "%s: not the top of a git tree\n", tree);
			ret = -1;
			goto out;
		}
	}
	diff = cmd_output(diff_argv, &st1);
	untracked = cmd_output(untracked_argv, &st2);
	if (!diff || st1 || !untracked || st2) {
		sb_addf(errs, "%s: git diff or git ls-files failed\n", tree);
		ret = -1;
		goto out;
	}
	hash_str(h, "tree");
	hash_str(h, head);
	hash_str(h, diff);
	for (char *name = strtok_r(untracked, "\n", &save); name;
	     name = strtok_r(NULL, "\n", &save)) {
		char *p = path_join(tree, name);

		hash_str(h, name);
		/* a nested repository or a dangling link: its name only */
		if (is_dir(p) || hash_file(h, p))
			hash_str(h, "-");
		free(p);
	}
out:
	free(mk);
	free(head);
	free(diff);
	free(untracked);
	return ret;
}

int kbuild_key_arch(const struct cmb_env *env, const struct cmb_arch *a,
		    const struct kvariant *v, char key[65], struct strbuf *errs)
{
	struct hash *h;
	char *cc_name, *gcc;
	int ret = 0;

	if (!errs->buf)
		sb_init(errs);
	if (!kvariant_suits(v, a->name)) {
		sb_addf(errs, "%s: kernel variant %s is for %s only\n", v->file, v->name, v->arches);
		memset(key, '0', 64);
		key[64] = '\0';
		return -1;
	}
	/*
	 * The inputs in the order of the table of variants this file replaced,
	 * so that the keys of vanilla, gcma and gcma-debug stay those of the
	 * kernels already cached (tests/test-hash.c checks it).
	 */
	h = hash_new();
	cc_name = arch_cc(a);
	{
		char *gcc_argv[] = { cc_name, "--version", NULL };

		gcc = cmd_first_line(gcc_argv);
	}
	hash_str(h, RECIPE);
	/* x86_64 keys stay what they were before there were other arches. */
	if (a != arch_default()) {
		hash_str(h, "arch");
		hash_str(h, a->name);
		hash_str(h, a->image_target);
	}
	hash_str(h, gcc ? gcc : "no-gcc");
	free(gcc);
	free(cc_name);
	if (v->source == KV_SOURCE_TREE ? hash_tree(v->tree, h, errs) : hash_source(env, h, errs))
		ret = -1;
	if (v->board_base)
		hash_str(h, "board-base");   /* alldefconfig, not allnoconfig */
	for (int i = 0; fragment_name(a, v, i); i++) {
		const char *name = fragment_name(a, v, i);
		char *frag = fragment_path(env, name);

		hash_str(h, name);
		if (hash_file(h, frag)) {
			sb_addf(errs, "%s: cannot read config fragment: %s\n", frag, strerror(errno));
			ret = -1;
		}
		free(frag);
	}
	if (v->series) {
		struct strlist patches = { 0 };

		if (read_series(env, v, &patches, errs))
			ret = -1;
		for (size_t i = 0; i < patches.n; i++) {
			const char *base = strrchr(patches.v[i], '/') + 1;

			hash_str(h, base);
			hash_file(h, patches.v[i]);
		}
		sl_free(&patches);
	}
	if (kmod_hash(env, h, errs))
		ret = -1;
	hash_final(h, key);
	return ret;
}

int kbuild_key(const struct cmb_env *env, const struct kvariant *v, char key[65],
	       struct strbuf *errs)
{
	return kbuild_key_arch(env, arch_default(), v, key, errs);
}

/* "env ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-" before a kernel command. */
static void add_arch_env(struct strlist *argv, const struct cmb_arch *a)
{
	if (!a->cross_compile)
		return;
	sl_add(argv, "env");
	sl_addf(argv, "ARCH=%s", a->kernel_arch);
	sl_addf(argv, "CROSS_COMPILE=%s", a->cross_compile);
}

struct build_tick {
	struct progress *prog;
	const char *log;
	long offset;
	long objects;
	double expected;
};

/* Counts compiled objects in the new part of the build log. */
static void build_tick(void *arg)
{
	struct build_tick *t = arg;
	FILE *f = fopen(t->log, "r");
	char line[4096], detail[96];

	if (!f)
		return;
	fseek(f, t->offset, SEEK_SET);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "  CC ", 5) || !strncmp(line, "  AS ", 5))
			t->objects++;
	t->offset = ftell(f);
	fclose(f);
	snprintf(detail, sizeof(detail), "compiling: %ld objects", t->objects);
	progress_update(t->prog, detail, t->expected > 0 ? t->objects / t->expected : -1);
}

static void print_log_tail(const char *log, int lines)
{
	char *argv[] = { "tail", "-n", NULL, (char *)log, NULL };
	char n[16];

	snprintf(n, sizeof(n), "%d", lines);
	argv[2] = n;
	fprintf(stderr, "---- last %d lines of %s ----\n", lines, log);
	run_cmd(argv, NULL, NULL, NULL, NULL);
}

static int step(const char *name, char *const argv[], const char *cwd, const char *log)
{
	struct progress p;
	int rc;

	progress_begin(&p, name, 0);
	rc = run_cmd(argv, cwd, log, NULL, NULL);
	progress_end(&p, rc ? "FAILED" : "done");
	if (rc && !interrupted())
		print_log_tail(log, 20);
	return rc;
}

/* Extracts (or copies) the source into dir/linux. */
static int get_source(const struct cmb_env *env, const char *dir, const char *log, const char *tag)
{
	char *linux_dir = path_join(dir, "linux");
	char *stepname = xasprintf("%s: source", tag);
	int rc;

	if (is_dir(env->linux_source)) {
		char *argv[] = { "cp", "-a", "--reflink=auto", (char *)env->linux_source,
				 linux_dir, NULL };

		rc = step(stepname, argv, NULL, log);
	} else {
		char *x = path_join(dir, "x");
		char *argv[] = { "tar", "-xf", (char *)env->linux_source, "-C", x, NULL };

		mkdir_p(x);
		rc = step(stepname, argv, NULL, log);
		if (!rc) {
			/* The tarball holds one top directory, whatever its name. */
			DIR *d = opendir(x);
			struct dirent *de;
			char *top = NULL;
			int n = 0;

			while (d && (de = readdir(d)))
				if (de->d_name[0] != '.') {
					n++;
					free(top);
					top = path_join(x, de->d_name);
				}
			if (d)
				closedir(d);
			if (n != 1 || rename(top, linux_dir)) {
				err_msg("%s: expected one top directory in the tarball", env->linux_source);
				rc = -1;
			}
			free(top);
			rmdir(x);
		}
		free(x);
	}
	free(stepname);
	free(linux_dir);
	return rc;
}

static int apply_patches(const struct cmb_env *env, const struct kvariant *v,
			 const char *linux_dir, const char *log, const char *tag)
{
	struct strlist patches = { 0 };
	struct strbuf errs = { 0 };
	struct progress p;
	int rc = 0;

	if (read_series(env, v, &patches, &errs)) {
		fputs(errs.buf, stderr);
		sb_free(&errs);
		return -1;
	}
	char *name = xasprintf("%s: patches", tag);

	progress_begin(&p, name, 0);
	for (size_t i = 0; i < patches.n && !rc; i++) {
		char *argv[] = { "patch", "-p1", "--batch", "--forward", "-i", patches.v[i], NULL };

		rc = run_cmd(argv, linux_dir, log, NULL, NULL);
		if (rc && !interrupted()) {
			err_msg("%s does not apply (patch %zu of series %s)", patches.v[i], i + 1,
				v->series);
			print_log_tail(log, 20);
		}
	}
	char *outcome = xasprintf("%zu patches applied", patches.n);

	progress_end(&p, rc ? "FAILED" : outcome);
	free(outcome);
	free(name);
	sl_free(&patches);
	sb_free(&errs);
	return rc;
}

/* linux_dir: the source; objdir: where the output goes (O=), NULL: the source. */
static int configure_kernel(const struct cmb_env *env, const struct cmb_arch *a,
			    const struct kvariant *v, const char *linux_dir, const char *objdir,
			    const char *log, const char *tag)
{
	struct strlist argv = { 0 };
	struct strbuf errs = { 0 };
	char *dotconfig = path_join(objdir ? objdir : linux_dir, ".config");
	char *name = xasprintf("%s: config", tag);
	int rc, bad = 0;

	add_arch_env(&argv, a);
	sl_add(&argv, "scripts/kconfig/merge_config.sh");
	/* allnoconfig base: only what the fragments ask for; a board's whole
	 * .config instead leaves the symbols it predates at their defaults */
	if (!v->board_base)
		sl_add(&argv, "-n");
	if (objdir) {
		sl_add(&argv, "-O");
		sl_add(&argv, objdir);
	}
	for (int i = 0; fragment_name(a, v, i); i++) {
		char *frag = fragment_path(env, fragment_name(a, v, i));

		sl_add(&argv, frag);
		free(frag);
	}
	rc = step(name, argv.v, linux_dir, log);
	/* a board's .config is the base, not a request: its values are not judged */
	for (int i = v->board_base ? 1 : 0; !rc && fragment_name(a, v, i); i++) {
		char *frag = fragment_path(env, fragment_name(a, v, i));
		struct strlist later = { 0 };

		/* a later fragment's value wins (e.g. debug.config's DEBUG_KERNEL) */
		for (int j = i + 1; fragment_name(a, v, j); j++) {
			char *l = fragment_path(env, fragment_name(a, v, j));

			sl_add(&later, l);
			free(l);
		}
		bad += kconfig_check(frag, (const char *const *)later.v, dotconfig, &errs);
		sl_free(&later);
		free(frag);
	}
	if (bad) {
		err_msg("the merged .config lost %d requested value(s); fix the fragment:", bad);
		fputs(errs.buf, stderr);
		rc = -1;
	}
	sb_free(&errs);
	sl_free(&argv);
	free(name);
	free(dotconfig);
	return rc;
}

static int compile_kernel(const struct cmb_env *env, const struct kmake *m,
			  const struct kvariant *v, const char *linux_dir, const char *objdir,
			  const char *log, const char *tag, long *objects)
{
	char *hkey_s = xasprintf("kbuild.%s%s.seconds", m->arch->cache_prefix, v->name);
	char *hkey_o = xasprintf("kbuild.%s%s.objects", m->arch->cache_prefix, v->name);
	struct strlist argv = { 0 };
	char *name = xasprintf("%s: compile", tag);
	struct progress p;
	struct build_tick t = { .prog = &p, .log = log };
	const struct cmb_arch *a = m->arch;
	int rc;

	kmake_target(m, env->jobs, objdir, a->image_target, &argv);
	t.expected = history_get(env, hkey_o);
	/* Never built this variant: another variant's build is a fair guess. */
	for (unsigned int i = 0; t.expected <= 0 && i < kvariants_count(); i++) {
		char *k = xasprintf("kbuild.%s%s.objects", a->cache_prefix, kvariant_at(i)->name);

		t.expected = history_get(env, k);
		free(k);
	}
	{
		FILE *f = fopen(log, "r");

		if (f) {
			fseek(f, 0, SEEK_END);
			t.offset = ftell(f);
			fclose(f);
		}
	}
	progress_begin(&p, name, history_get(env, hkey_s));
	rc = run_cmd(argv.v, linux_dir, log, build_tick, &t);
	build_tick(&t);
	double secs = progress_end(&p, rc ? "FAILED" : "done");

	if (!rc) {
		history_set(env, hkey_s, secs);
		history_set(env, hkey_o, t.objects);
	} else if (!interrupted()) {
		print_log_tail(log, 30);
	}
	*objects = t.objects;
	sl_free(&argv);
	free(name);
	free(hkey_s);
	free(hkey_o);
	return rc;
}

/* The version string a bzImage carries (boot protocol: header field at 0x20e). */
static char *bzimage_version(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char off[2];
	char buf[128] = "";

	if (!f)
		return NULL;
	if (fseek(f, 0x20e, SEEK_SET) || fread(off, 1, 2, f) != 2 ||
	    fseek(f, 0x200 + (off[0] | off[1] << 8), SEEK_SET) ||
	    !fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[strcspn(buf, " ")] = '\0';
	return buf[0] ? xstrdup(buf) : NULL;
}

/*
 * The version in an uncompressed image's banner ("Linux version 6.12.118 ("):
 * what an arm64 Image carries, where no header points at it.
 */
static char *banner_version(const char *path)
{
	static const char tag[] = "Linux version ";
	size_t len;
	char *data = read_file(path, &len), *ver = NULL;

	if (!data)
		return NULL;
	for (char *p = data; p && (size_t)(p - data) + sizeof(tag) < len;) {
		p = memmem(p, len - (size_t)(p - data), tag, sizeof(tag) - 1);
		if (!p)
			break;
		p += sizeof(tag) - 1;
		size_t n = strcspn(p, " ");

		/* the banner, not a format string: a digit and a space follow */
		if (n > 0 && n < 64 && p[0] >= '0' && p[0] <= '9' && p[n] == ' ') {
			ver = xasprintf("%.*s", (int)n, p);
			break;
		}
	}
	free(data);
	return ver;
}

/* The kernel version an image of arch a carries. */
static char *image_version(const struct cmb_arch *a, const char *path)
{
	return a == arch_default() ? bzimage_version(path) : banner_version(path);
}

/* The cache's name of the boot image: the make target's file name. */
static const char *image_file(const struct cmb_arch *a)
{
	return strrchr(a->image_path, '/') + 1;
}

static int collect(const struct cmb_arch *a, const char *tmp, const char *linux_dir,
		   const struct kvariant *v,
		   const char *key, double seconds, long objects, bool keep_tree)
{
	const char *const keep[][2] = {
		{ a->image_path, image_file(a) },
		{ ".config", "config" },
		{ "System.map", "System.map" },
	};
	char *version;
	char *image;
	json_object *meta = json_object_new_object();
	char *metapath = path_join(tmp, "build.json");
	char date[64];
	time_t now = time(NULL);
	int rc = 0;

	for (size_t i = 0; i < ARRAY_SIZE(keep); i++) {
		char *from = path_join(linux_dir, keep[i][0]);
		char *to = path_join(tmp, keep[i][1]);

		if (copy_file(from, to)) {
			err_msg("%s: %s", from, strerror(errno));
			rc = -1;
		}
		free(from);
		free(to);
	}
	/* Read from the image itself: "make kernelversion" run under make prints
	 * "Entering directory" lines that would end up in the metadata. */
	image = path_join(tmp, image_file(a));
	version = image_version(a, image);
	free(image);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_object_add(meta, "variant", json_object_new_string(v->name));
	json_object_object_add(meta, "arch", json_object_new_string(a->name));
	json_object_object_add(meta, "key", json_object_new_string(key));
	json_object_object_add(meta, "version", json_object_new_string(version ? version : "?"));
	json_object_object_add(meta, "built", json_object_new_string(date));
	json_object_object_add(meta, "build_seconds", json_object_new_double(seconds));
	json_object_object_add(meta, "objects", json_object_new_int64(objects));
	if (json_object_to_file_ext(metapath, meta, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE))
		rc = -1;
	json_object_put(meta);
	free(metapath);
	free(version);
	if (!rc && !keep_tree)
		rc = rm_rf(linux_dir);
	return rc;
}

static int read_meta(struct kernel *k)
{
	char *path = path_join(k->dir, "build.json");
	json_object *meta = json_object_from_file(path);
	const char *version;

	free(path);
	if (!meta)
		return -1;
	if ((version = js_str(meta, "version")))
		k->version = xstrdup(version);
	json_object_put(meta);
	/* Caches written before the version came from the image may hold make's
	 * chatter instead of a version. */
	if (k->version && strchr(k->version, ' ')) {
		free(k->version);
		k->version = image_version(k->arch, k->bzimage);
	}
	return k->version ? 0 : -1;
}

/* The variable naming a kernel built elsewhere for variant v of arch a. */
static void external_var(const struct cmb_arch *a, const struct kvariant *v, char *var,
			 size_t len)
{
	if (a == arch_default())
		snprintf(var, len, "CMABENCH_BZIMAGE_%s", v->name);
	else
		snprintf(var, len, "CMABENCH_IMAGE_%s_%s", a->name, v->name);
	for (char *p = var; *p; p++)
		*p = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
}

/*
 * CMABENCH_BZIMAGE_<VARIANT>=path (x86_64), CMABENCH_IMAGE_<ARCH>_<VARIANT>=path
 * (other arches): a kernel built elsewhere, used as is.
 */
static int external_kernel(const struct cmb_arch *a, const struct kvariant *v, struct kernel *k,
			   struct strbuf *errs)
{
	char var[96];
	const char *path;

	external_var(a, v, var, sizeof(var));
	path = getenv(var);
	if (!path)
		return 1;
	k->bzimage = abs_path(path);
	k->dir = xstrdup(k->bzimage);
	snprintf(k->key, sizeof(k->key), "external");
	k->version = image_version(a, k->bzimage);
	if (!k->version) {
		sb_addf(errs, "%s=%s: not a %s kernel image\n", var, path, a->name);
		return -1;
	}
	return 0;
}

int kbuild_find_arch(const struct cmb_env *env, const struct cmb_arch *a,
		     const struct kvariant *v, struct kernel *k, struct strbuf *errs)
{
	char *kdir;
	int rc;

	memset(k, 0, sizeof(*k));
	k->variant = v;
	k->arch = a;
	rc = external_kernel(a, v, k, errs);
	if (rc <= 0)
		return rc;
	if (kbuild_key_arch(env, a, v, k->key, errs))
		return -1;
	kdir = env_cache(env, "kernels");
	k->dir = xasprintf("%s/%s%s-%.16s", kdir, a->cache_prefix, v->name, k->key);
	k->bzimage = path_join(k->dir, image_file(a));
	k->kmod = path_join(k->dir, KMOD_FILE);
	free(kdir);
	return path_exists(k->bzimage) && path_exists(k->kmod) && !read_meta(k) ? 0 : 1;
}

void kbuild_print_found(const struct kernel *k)
{
	const char *prefix = k->arch->cache_prefix, *name = k->variant->name;

	if (!strcmp(k->key, "external")) {
		char var[96];

		external_var(k->arch, k->variant, var, sizeof(var));
		printf("[kernel %s%s] using %s (%s, Linux %s)\n", prefix, name, k->bzimage, var,
		       k->version);
	} else {
		printf("[kernel %s%s] reusing %s build %.16s (Linux %s)\n", prefix, name, name,
		       k->key, k->version);
	}
}

double kbuild_estimate(const struct cmb_env *env, const struct cmb_arch *a,
		       const struct kvariant *v)
{
	char *key = xasprintf("kbuild.%s%s.seconds", a->cache_prefix, v->name);
	double s = history_get(env, key);

	free(key);
	/* Never built this variant: another variant's build is a fair guess. */
	for (unsigned int i = 0; s <= 0 && i < kvariants_count(); i++) {
		key = xasprintf("kbuild.%s%s.seconds", a->cache_prefix, kvariant_at(i)->name);
		s = history_get(env, key);
		free(key);
	}
	if (s <= 0)
		s = KBUILD_DEFAULT_SECONDS;
	/* the history has the compile only: the source, patches and config
	 * took 20-45 s more here (build.json's build_seconds) */
	return s + 30;
}

/*
 * Our module against the kernel just built (kmod.h), into tmp/KMOD_FILE.
 * src: where make runs; objdir: the build's O= (a local tree's), or NULL.
 */
static int build_kmod(const struct cmb_env *env, const struct kmake *m, const char *src,
		      const char *objdir, const char *tmp, const char *log, const char *tag)
{
	struct strlist mods = { 0 }, ours = { 0 };
	char *moddir = path_join(tmp, "kmod");
	char *built = path_join(moddir, KMOD_FILE);
	char *dst = path_join(tmp, KMOD_FILE);
	char *name1 = xasprintf("%s: modules", tag), *name2 = xasprintf("%s: %s", tag, KMOD_FILE);
	int rc;

	/* Module.symvers first; then ours, out of tree (M=) */
	kmake_target(m, env->jobs, objdir, "modules", &mods);
	kmake_target(m, 1, objdir, "modules", &ours);
	sl_addf(&ours, "M=%s", moddir);
	rc = kmod_copy_source(env, moddir);
	if (!rc)
		rc = step(name1, mods.v, src, log);
	if (!rc)
		rc = step(name2, ours.v, src, log);
	if (!rc && copy_file(built, dst)) {
		err_msg("%s: %s", built, strerror(errno));
		rc = -1;
	}
	if (!rc)
		rm_rf(moddir);
	sl_free(&mods);
	sl_free(&ours);
	free(name1);
	free(name2);
	free(moddir);
	free(built);
	free(dst);
	return rc;
}

/*
 * A local tree is built where it is (it must hold no in-tree build: make
 * mrproper), its output in outdir, one directory per variant and arch that
 * outlives the build: the next build after an edit recompiles what make
 * finds changed. The paths never change, so ccache needs no base
 * directory. *lock: held (two cmabench processes never build into outdir
 * at once) until the image is collected.
 */
static int build_tree(const struct cmb_env *env, const struct kmake *m,
		      const struct kvariant *v, const char *outdir, const char *tmp,
		      const char *log, const char *tag, long *objects, int *lock)
{
	char *lockpath = xasprintf("%s.lock", outdir);
	int rc = mkdir_p(outdir);

	*lock = rc ? -1 : open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*lock >= 0 && flock(*lock, LOCK_EX | LOCK_NB)) {
		printf("[%s] waiting for another build of %s\n", tag, outdir);
		flock(*lock, LOCK_EX);
	}
	if (!rc)
		rc = configure_kernel(env, m->arch, v, v->tree, outdir, log, tag);
	if (!rc)
		rc = compile_kernel(env, m, v, v->tree, outdir, log, tag, objects);
	if (!rc)
		rc = build_kmod(env, m, v->tree, outdir, tmp, log, tag);
	free(lockpath);
	return rc;
}

int kbuild_build(const struct cmb_env *env, struct kernel *k)
{
	const struct cmb_arch *a = k->arch;
	const struct kvariant *v = k->variant;
	char *kdir, *tmp, *log, *linux_dir, *tag, *keylockpath;
	long objects = 0;
	double t0;
	int rc, keylock;

	kdir = env_cache(env, "kernels");
	tag = xasprintf("kernel %s%s", a->cache_prefix, v->name);
	/*
	 * Two cmabench processes that need the same kernel (a make check
	 * beside a cmabench build) build it once: the second waits for the
	 * first and takes its image.
	 */
	keylockpath = xasprintf("%s/.%s%s-%.16s.lock", kdir, a->cache_prefix, v->name, k->key);
	mkdir_p(kdir);
	keylock = open(keylockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (keylock >= 0 && flock(keylock, LOCK_EX | LOCK_NB)) {
		printf("[%s] waiting for another cmabench building the same kernel (%.16s)\n", tag,
		       k->key);
		fflush(stdout);
		flock(keylock, LOCK_EX);
	}
	/* Built by another process since this one looked */
	if (path_exists(k->bzimage) && read_meta(k) == 0) {
		printf("[%s] another cmabench built it meanwhile: using it\n", tag);
		close(keylock);
		free(keylockpath);
		free(tag);
		free(kdir);
		return 0;
	}
	tmp = xasprintf("%s/.tmp-%s%s-%.16s.%d", kdir, a->cache_prefix, v->name, k->key,
			(int)getpid());
	log = xasprintf("%s/%s%s-%.16s.log", kdir, a->cache_prefix, v->name, k->key);
	linux_dir = path_join(tmp, "linux");
	rm_rf(tmp);
	if (mkdir_p(tmp)) {
		err_msg("%s: %s", tmp, strerror(errno));
		rc = -1;
		goto out;
	}
	unlink(log);
	printf("[kernel %s%s] building %.16s; compiler output in %s\n", a->cache_prefix, v->name,
	       k->key, log);
	t0 = now_ns() / 1e9;
	int lock = -1; /* held until the image is collected from a tree's output */
	struct kmake m = { .arch = a, .variant = v->name, .key = k->key, .basedir = tmp,
			   .ccache_dir = kmake_ccache_dir(env) };

	if (v->source == KV_SOURCE_TREE) {
		free(linux_dir);
		linux_dir = xasprintf("%s/tree-%s%s", kdir, a->cache_prefix, v->name);
		m.basedir = NULL;
		rc = build_tree(env, &m, v, linux_dir, tmp, log, tag, &objects, &lock);
	} else {
		rc = get_source(env, tmp, log, tag);
		if (!rc && v->series)
			rc = apply_patches(env, v, linux_dir, log, tag);
		if (!rc)
			rc = configure_kernel(env, a, v, linux_dir, NULL, log, tag);
		if (!rc)
			rc = compile_kernel(env, &m, v, linux_dir, NULL, log, tag, &objects);
		if (!rc)
			rc = build_kmod(env, &m, linux_dir, NULL, tmp, log, tag);
	}
	free((char *)m.ccache_dir);
	if (!rc)
		rc = collect(a, tmp, linux_dir, v, k->key, now_ns() / 1e9 - t0, objects,
			     env->keep_tree || v->source == KV_SOURCE_TREE);
	if (lock >= 0)
		close(lock);
	if (!rc && rename(tmp, k->dir)) {
		err_msg("%s: %s", k->dir, strerror(errno));
		rc = -1;
	}
	if (!rc) {
		char *dst = path_join(k->dir, "build.log");

		rename(log, dst);
		free(dst);
		rc = read_meta(k);
	} else {
		if (interrupted())
			err_msg("kernel %s%s: interrupted", a->cache_prefix, v->name);
		else
			err_msg("kernel %s%s: build failed; log kept in %s", a->cache_prefix, v->name,
				log);
		rm_rf(tmp);
	}
out:
	if (keylock >= 0)
		close(keylock);
	free(keylockpath);
	free(tag);
	free(tmp);
	free(log);
	free(linux_dir);
	free(kdir);
	return rc;
}

int kbuild_get_arch(const struct cmb_env *env, const struct cmb_arch *a, const struct kvariant *v,
		    struct kernel *k)
{
	struct strbuf errs = { 0 };
	int rc = kbuild_find_arch(env, a, v, k, &errs);

	if (rc < 0 && errs.buf)
		fputs(errs.buf, stderr);
	sb_free(&errs);
	if (rc == 0) {
		kbuild_print_found(k);
		cache_touch(k->dir);        /* reused: the cache's bound evicts it last */
	}
	return rc == 1 ? kbuild_build(env, k) : rc;
}

int kbuild_get(const struct cmb_env *env, const struct kvariant *v, struct kernel *k)
{
	return kbuild_get_arch(env, arch_default(), v, k);
}

void kernel_free(struct kernel *k)
{
	free(k->dir);
	free(k->bzimage);
	free(k->kmod);
	free(k->version);
	memset(k, 0, sizeof(*k));
}
