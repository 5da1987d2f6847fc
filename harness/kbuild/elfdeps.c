#include "kbuild/elfdeps.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int elf_deps(const char *path, char **interp, struct strlist *needed, struct strlist *runpath,
	     struct strbuf *errs)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;
	size_t nph;
	int rc = 0;

	*interp = NULL;
	if (!errs->buf)
		sb_init(errs);
	if (fd < 0) {
		sb_addf(errs, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (elf_version(EV_CURRENT) == EV_NONE || !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		sb_addf(errs, "%s: %s\n", path, elf_errmsg(-1));
		close(fd);
		return -1;
	}
	if (elf_kind(e) != ELF_K_ELF) {
		sb_addf(errs, "%s: not an ELF file\n", path);
		rc = -1;
		goto out;
	}
	if (elf_getphdrnum(e, &nph)) {
		sb_addf(errs, "%s: %s\n", path, elf_errmsg(-1));
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		size_t size;
		char *raw;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_INTERP)
			continue;
		raw = elf_rawfile(e, &size);
		if (!raw || ph.p_offset + ph.p_filesz > size || ph.p_filesz == 0) {
			sb_addf(errs, "%s: PT_INTERP outside the file\n", path);
			rc = -1;
			goto out;
		}
		*interp = xasprintf("%.*s", (int)strnlen(raw + ph.p_offset, ph.p_filesz),
				    raw + ph.p_offset);
	}
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / (sh.sh_entsize ? sh.sh_entsize : 1); i++) {
			GElf_Dyn dyn;
			const char *name;

			if (!gelf_getdyn(d, (int)i, &dyn))
				break;
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH && dyn.d_tag != DT_RPATH)
				continue;
			name = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
			if (!name) {
				sb_addf(errs, "%s: a dynamic entry's name is outside the string table\n",
					path);
				rc = -1;
				goto out;
			}
			if (dyn.d_tag == DT_NEEDED) {
				if (!sl_has(needed, name))
					sl_add(needed, name);
				continue;
			}
			/* RUNPATH/RPATH: colon-separated directories */
			char *copy = xstrdup(name), *save = NULL;

			for (char *dir = strtok_r(copy, ":", &save); dir;
			     dir = strtok_r(NULL, ":", &save))
				if (runpath && !sl_has(runpath, dir))
					sl_add(runpath, dir);
			free(copy);
		}
	}
out:
	elf_end(e);
	close(fd);
	return rc;
}

char *root_resolve(const char *root, const char *guest_path)
{
	char *cur = xstrdup(guest_path);

	for (int hops = 0; hops < 40; hops++) {
		char *host = xasprintf("%s%s", root, cur);
		char target[PATH_MAX];
		ssize_t n = readlink(host, target, sizeof(target) - 1);
		struct stat st;

		if (n < 0) {
			bool ok = errno == EINVAL && !lstat(host, &st);

			free(cur);
			if (!ok) {
				free(host);
				return NULL;
			}
			return host;
		}
		free(host);
		target[n] = '\0';
		if (target[0] == '/') {
			free(cur);
			cur = xstrdup(target);
		} else {
			char *slash = strrchr(cur, '/');
			char *next;

			*slash = '\0';
			next = xasprintf("%s/%s", cur, target);
			free(cur);
			cur = next;
		}
	}
	free(cur);
	return NULL;
}

/* Adds guest path g (found at host path h) unless it is there already. */
static bool add_file(struct strlist *hosts, struct strlist *guests, const char *h, const char *g)
{
	if (sl_has(guests, g))
		return false;
	sl_add(hosts, h);
	sl_add(guests, g);
	return true;
}

int elf_closure(const char *root, const char *prog, const char *const dirs[],
		struct strlist *hosts, struct strlist *guests, struct strbuf *errs)
{
	struct strlist todo = { 0 };
	int rc = 0;

	if (!errs->buf)
		sb_init(errs);
	sl_add(&todo, prog);
	for (size_t t = 0; t < todo.n; t++) {
		struct strlist needed = { 0 }, search = { 0 };
		char *interp = NULL;
		char *host = root_resolve(root, todo.v[t]);

		if (!host) {
			sb_addf(errs, "%s: no such file under %s\n", todo.v[t], *root ? root : "/");
			rc = -1;
			continue;
		}
		if (elf_deps(host, &interp, &needed, &search, errs)) {
			rc = -1;
		} else {
			/* the object's RUNPATH first ($ORIGIN: its own directory), then dirs */
			for (size_t i = 0; i < search.n; i++)
				if (!strncmp(search.v[i], "$ORIGIN", 7)) {
					const char *slash = strrchr(todo.v[t], '/');
					char *o = xasprintf("%.*s%s", (int)(slash - todo.v[t]),
							    todo.v[t], search.v[i] + 7);

					free(search.v[i]);
					search.v[i] = o;
				}
			for (int d = 0; dirs[d]; d++)
				if (!sl_has(&search, dirs[d]))
					sl_add(&search, dirs[d]);
			if (interp) {
				char *ih = root_resolve(root, interp);

				if (!ih) {
					sb_addf(errs, "%s: its interpreter %s is not in %s\n", todo.v[t],
						interp, root);
					rc = -1;
				} else if (add_file(hosts, guests, ih, interp)) {
					sl_add(&todo, interp);
				}
				free(ih);
			}
			for (size_t i = 0; i < needed.n; i++) {
				bool found = false;

				for (size_t d = 0; d < search.n && !found; d++) {
					char *g = xasprintf("%s/%s", search.v[d], needed.v[i]);
					char *h = root_resolve(root, g);

					if (h) {
						found = true;
						if (add_file(hosts, guests, h, g))
							sl_add(&todo, g);
					}
					free(h);
					free(g);
				}
				if (!found) {
					sb_addf(errs, "%s needs %s, which is in none of its library "
						"directories in %s\n", todo.v[t], needed.v[i], root);
					rc = -1;
				}
			}
		}
		free(interp);
		free(host);
		sl_free(&needed);
		sl_free(&search);
	}
	sl_free(&todo);
	return rc;
}
