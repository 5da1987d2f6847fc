#include "config.h"
#include "run/board.h"
#include "lib/hash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The board's .config as our kernels start from it. A kernel of ours
 * carries no modules onto the board (its initrd's are the board kernel's),
 * so what the board builds as a module is built in; signing keys of the
 * board's distribution are not ours to sign with; debug info only costs
 * build time.
 */
static void sanitize_line(struct strbuf *sb, const char *line, size_t len)
{
	static const char *const keys[] = { "CONFIG_SYSTEM_TRUSTED_KEYS=",
					    "CONFIG_SYSTEM_REVOCATION_KEYS=" };
	static const char *const off[] = { "CONFIG_MODULE_SIG_FORCE", "CONFIG_DEBUG_INFO_BTF",
					   "CONFIG_DEBUG_INFO_DWARF4", "CONFIG_DEBUG_INFO_DWARF5",
					   "CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT" };

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strncmp(line, keys[i], strlen(keys[i]))) {
			sb_addf(sb, "%s\"\"\n", keys[i]);
			return;
		}
	for (size_t i = 0; i < ARRAY_SIZE(off); i++)
		if (!strncmp(line, off[i], strlen(off[i])) && line[strlen(off[i])] == '=') {
			sb_addf(sb, "# %s is not set\n", off[i]);
			return;
		}
	if (len > 2 && !strncmp(line, "CONFIG_", 7) && !strncmp(line + len - 2, "=m", 2))
		sb_addf(sb, "%.*s=y\n", (int)(len - 2), line);
	else
		sb_addf(sb, "%.*s\n", (int)len, line);
}

char *board_config_sanitize(const char *text)
{
	struct strbuf sb = { 0 };

	sb_add(&sb, "");
	while (*text) {
		size_t len = strcspn(text, "\n");

		sanitize_line(&sb, text, len);
		text += len + (text[len] == '\n');
	}
	sb_add(&sb, "CONFIG_DEBUG_INFO_NONE=y\n");
	return sb_detach(&sb);
}

/* The board's config, sanitized, kept in the cache by its content. */
static char *keep_config(const struct cmb_env *env, const char *text, struct strbuf *errs)
{
	char *clean = board_config_sanitize(text), key[65], *rel, *path;
	struct hash *h = hash_new();

	hash_str(h, clean);
	hash_final(h, key);
	rel = xasprintf("boards/%.16s.config", key);
	path = env_cache(env, rel);
	free(rel);
	rel = xstrdup(path);
	*strrchr(rel, '/') = '\0';
	if (mkdir_p(rel) || write_file(path, clean, strlen(clean))) {
		sb_addf(errs, "%s: %s", path, strerror(errno));
		free(path);
		path = NULL;
	}
	free(rel);
	free(clean);
	return path;
}

static char *fetch_config(struct board *b, const char *board_config, struct strbuf *errs)
{
	struct ssh_result r;
	char *text;

	if (board_config) {
		text = read_file(board_config, NULL);
		if (!text)
			sb_addf(errs, "--board-config %s: %s", board_config, strerror(errno));
		return text;
	}
	if (ssh_run(&b->t, "zcat /proc/config.gz", 60, &r) || !strstr(r.out, "CONFIG_")) {
		sb_addf(errs, "reading /proc/config.gz: %s", r.out);
		free(r.out);
		return NULL;
	}
	return r.out;
}

/* The board's device tree as its bootloader gave it, copied here for the runs to edit. */
static char *fetch_fdt(struct board *b, const char *run_id, struct strbuf *errs)
{
	char *rel = xasprintf("tmp/board-%s.dtb", run_id), *path = env_cache(b->env, rel);
	char *dir = xstrdup(path);

	*strrchr(dir, '/') = '\0';
	if (mkdir_p(dir) || ssh_get(&b->t, "/sys/firmware/fdt", path, 60, errs)) {
		sb_addf(errs, "%sreading /sys/firmware/fdt into %s", errs->len ? "; " : "", path);
		free(path);
		path = NULL;
	}
	free(dir);
	free(rel);
	return path;
}

/* The board's own command line without what a run sets itself. */
static char *own_cmdline(const char *cmdline)
{
	static const char *const ours[] = { "cma=", "gcma=", "mem=", "maxcpus=", "cmabench.",
					    "BOOT_IMAGE=", "initrd=", "panic=" };
	char *copy = xstrdup(cmdline ? cmdline : ""), *save = NULL;
	struct strbuf sb = { 0 };

	sb_add(&sb, "");
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		bool skip = false;

		for (size_t i = 0; i < ARRAY_SIZE(ours); i++)
			skip |= !strncmp(w, ours[i], strlen(ours[i]));
		if (!skip)
			sb_addf(&sb, "%s%s", sb.len ? " " : "", w);
	}
	free(copy);
	return sb_detach(&sb);
}

static int check_requirements(struct board *b)
{
	struct req_result r[32];
	int missing;
	size_t n = target_judge(&b->facts, r, ARRAY_SIZE(r), &missing);

	if (!missing)
		return 0;
	err_msg("target %s: %d requirement%s missing (cmabench target check):", b->t.url,
		missing, missing == 1 ? "" : "s");
	target_print(stderr, r, n);
	return -1;
}

int board_open(struct board *b, const struct cmb_env *env, const char *url,
	       const char *ssh_config, const char *board_config, const char *run_id)
{
	struct strbuf errs = { 0 };
	char *text = NULL;
	int rc = -1;

	memset(b, 0, sizeof(*b));
	b->env = env;
	b->boot_timeout_s = 300;
	if (target_parse(url, &b->t, &errs))
		goto out;
	b->t.ssh_config = ssh_config;
	printf("[target %s] probing the board\n", url);
	if (target_probe(&b->t, &b->facts, &errs) || check_requirements(b))
		goto out;
	b->arch = arch_find(board_arch(&b->facts));
	b->own_cmdline = own_cmdline(board_fact(&b->facts, "cmdline"));
	b->own_release = xstrdup(board_fact(&b->facts, "release"));
	b->dir = xasprintf("%s/%s", b->t.dir, run_id);
	if (!(text = fetch_config(b, board_config, &errs)) ||
	    !(b->config = keep_config(env, text, &errs)))
		goto out;
	if (b->arch->device_tree && !(b->fdt = fetch_fdt(b, run_id, &errs)))
		goto out;
	b->nvariants = kvariants_count();
	b->variants = xcalloc(b->nvariants, sizeof(*b->variants));
	printf("[target %s] %s board, kernel %s; kernels under test start from %s\n", url,
	       b->arch->name, b->own_release, b->config);
	rc = 0;
out:
	if (rc && errs.len)
		err_msg("target %s: %s", url, errs.buf);
	sb_free(&errs);
	free(text);
	return rc;
}

const struct kvariant *board_variant(struct board *b, const struct kvariant *v)
{
	unsigned i = kvariant_index(v), ai = arch_index(b->arch);
	struct kvariant *bv = &b->variants[i];
	const char *base = strrchr(b->config, '/') + 1;

	if (bv->name)
		return bv;
	kvariant_copy(bv, v);
	free(bv->name);
	/* the board's config names it: one board's kernels never pass for another's */
	bv->name = xasprintf("%s-board-%.8s", v->name, base);
	free(bv->arches);
	bv->arches = xstrdup(b->arch->name);
	bv->board_base = true;
	for (unsigned a = 0; a < KVARIANT_ARCHES; a++)
		sl_free(&bv->configs[a]);
	sl_add(&bv->configs[ai], b->config);
	sl_add(&bv->configs[ai], "board.config");
	for (size_t f = 0; f < v->configs[ai].n; f++)
		if (strcmp(v->configs[ai].v[f], b->arch->base_fragment))
			sl_add(&bv->configs[ai], v->configs[ai].v[f]);
	return bv;
}

int board_check_run(const struct board *b, const struct run *r, struct strbuf *errs)
{
	const struct run_spec *s = r->spec;
	const char *mem = board_fact(&b->facts, "memtotal_kib"), *cpus = board_fact(&b->facts, "cpus");
	const char *free_kib = board_fact(&b->facts, "dir_free_kib");
	size_t before = errs->len;

	if (strcmp(s->disk, "host"))
		sb_addf(errs, "%s: [%s] disk = %s: a board's storage is its own, the storage "
			"model needs a QEMU disk (set disk = host)\n", r->scn->path, s->section,
			s->disk);
	if (s->arch != b->arch)
		sb_addf(errs, "%s: [%s] arch = %s: the board is %s\n", r->scn->path, s->section,
			s->arch->name, b->arch->name);
	if (s->clock == CLOCK_INSTRUCTIONS)
		sb_addf(errs, "%s: [%s] clock = instructions: only TCG counts instructions\n",
			r->scn->path, s->section);
	if (s->scratch_stall && s->scratch_stall[0])
		sb_addf(errs, "%s: [%s] scratch-stall: throttles a QEMU disk\n", r->scn->path,
			s->section);
	if (mem && (long long)r->mem_mib * 1024 > atoll(mem))
		sb_addf(errs, "%s: [%s] memory: %lu MiB, the board has %lld MiB\n", r->scn->path,
			s->section, r->mem_mib, atoll(mem) / 1024);
	if (cpus && s->cpus > atol(cpus))
		sb_addf(errs, "%s: [%s] cpus = %ld: the board has %s\n", r->scn->path, s->section,
			s->cpus, cpus);
	/* the scratch files beside the userland (121 MiB, twice while its tar
	 * unpacks) and the kernels: what target check's 1 GiB rule assumed */
	if (free_kib && s->scratch / 1024 + BOARD_OURS_KIB > (uint64_t)atoll(free_kib))
		sb_addf(errs, "%s: [%s] scratch = %llu MiB: %lld MiB free under %s on the board, "
			"and the userland and kernels need %d MiB beside it\n", r->scn->path,
			s->section, (unsigned long long)(s->scratch >> 20), atoll(free_kib) / 1024,
			board_fact(&b->facts, "dir_parent"), BOARD_OURS_KIB / 1024);
	return errs->len > before ? -1 : 0;
}

int board_userland(struct board *b, const struct cmb_env *env, const char *image)
{
	const char *base = strrchr(image, '/') ? strrchr(image, '/') + 1 : image;
	char *rel = xasprintf("boards/userland-%s.tar", base);
	char *tar = env_cache(env, rel), *dir = xasprintf("%s.d", tar);
	char *req = xasprintf("rdump / %s", dir);
	char *dump[] = { "debugfs", "-R", req, (char *)image, NULL };
	char *pack[] = { "tar", "-C", dir, "-cf", tar, ".", NULL };
	int rc = 0;

	free(rel);
	if (!path_exists(tar)) {
		/* debugfs reads the image as a file: no loop device, no mount */
		rm_rf(dir);
		rc = mkdir_p(dir) || run_cmd(dump, NULL, "/dev/null", NULL, NULL) ||
			run_cmd(pack, NULL, NULL, NULL, NULL);
		rm_rf(dir);
		if (rc) {
			err_msg("%s: cannot unpack the guest userland from %s", tar, image);
			unlink(tar);
		}
	}
	free(dir);
	free(req);
	if (rc)
		free(tar);
	else
		b->userland = tar;
	return rc ? -1 : 0;
}

int board_close(struct board *b)
{
	char *name = target_name(&b->t), *cmd;
	struct ssh_result r;
	int rc = -1;

	b->t.finishing = true;
	if (b->lost) {
		err_msg("target %s: the board did not come back; %s may remain on it", name,
			b->dir);
	} else if (b->dir) {
		const char *parent = board_fact(&b->facts, "dir_parent");
		/* the parent too when the run made it (the probe found it absent) */
		bool made = parent && strcmp(parent, b->t.dir);

		cmd = xasprintf("rm -rf %s; %s%s%suname -r", b->dir, made ? "rmdir " : "",
				made ? b->t.dir : "", made ? " 2>/dev/null; " : "");
		rc = ssh_run(&b->t, cmd, 120, &r);
		if (rc)
			err_msg("target %s: removing %s: %s", name, b->dir, r.out);
		else
			printf("[target %s] in its own kernel %s, %s removed\n", name, rtrim(r.out),
			       b->dir);
		free(r.out);
		free(cmd);
	}
	for (unsigned i = 0; i < b->nvariants; i++)
		if (b->variants[i].name)
			kvariant_free(&b->variants[i]);
	free(b->variants);
	free(b->config);
	if (b->fdt)
		unlink(b->fdt);
	free(b->fdt);
	free(b->own_cmdline);
	free(b->own_release);
	free(b->dir);
	free(b->userland);
	sl_free(&b->kernels_sent);
	board_facts_free(&b->facts);
	target_free(&b->t);
	free(name);
	return rc;
}
