#include "config.h"
#include "scenario/arch.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

const struct cmb_arch cmb_arches[] = {
	{
		.name = "x86_64",
		.uname_machine = "x86_64",
		.kernel_arch = "x86",
		.image_target = "bzImage",
		.image_path = "arch/x86/boot/bzImage",
		.base_fragment = "base.config",
		.cache_prefix = "",
		.console = "ttyS0",
		.lib_dirs = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", NULL },
	},
	{
		.name = "arm64",
		.uname_machine = "aarch64",
		.kernel_arch = "arm64",
		.cross_compile = "aarch64-linux-gnu-",
		.image_target = "Image",
		.image_path = "arch/arm64/boot/Image",
		.base_fragment = "arm64.config",
		.cache_prefix = "arm64-",
		.console = "ttyAMA0",
		.machine = "virt",
		/* cortex-a57: no SVE or pointer authentication, which TCG emulates slowly */
		.tcg_cpu = "cortex-a57",
		.lib_dirs = { "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", NULL },
		.device_tree = true,
	},
};

const unsigned int cmb_arches_count = ARRAY_SIZE(cmb_arches);

const struct cmb_arch *arch_find(const char *name)
{
	for (unsigned int i = 0; i < cmb_arches_count; i++)
		if (!strcmp(cmb_arches[i].name, name))
			return &cmb_arches[i];
	return NULL;
}

const struct cmb_arch *arch_default(void)
{
	return &cmb_arches[0];
}

unsigned int arch_index(const struct cmb_arch *a)
{
	return (unsigned int)(a - cmb_arches);
}

bool arch_native(const struct cmb_arch *a)
{
	struct utsname u;

	return !uname(&u) && !strcmp(u.machine, a->uname_machine);
}

const char *arch_qemu(const struct cmb_env *env, const struct cmb_arch *a)
{
	return a->machine ? env->qemu_arm64 : env->qemu;
}

char *arch_cc(const struct cmb_arch *a)
{
	return a->cross_compile ? xasprintf("%sgcc", a->cross_compile) : xstrdup("gcc");
}

char *arch_missing(const struct cmb_env *env, const struct cmb_arch *a)
{
	struct strbuf sb = { 0 };
	char *cc;

	if (!a->machine)
		return NULL;
	cc = arch_cc(a);
	if (!have_program(cc))
		sb_addf(&sb, "  %s (Debian package: gcc-aarch64-linux-gnu)\n", cc);
	free(cc);
	if (!have_program(arch_qemu(env, a)))
		sb_addf(&sb, "  %s (Debian package: qemu-system-arm)\n",
			*arch_qemu(env, a) ? arch_qemu(env, a) : "qemu-system-aarch64");
	if (!have_program(env->dtc))
		sb_addf(&sb, "  %s (Debian package: device-tree-compiler)\n",
			*env->dtc ? env->dtc : "dtc");
	{
		char *fio = path_join(env->arm64_userland, "root/usr/bin/fio");

		if (!path_exists(fio))
			sb_addf(&sb, "  the arm64 userland in %s (scripts/arm64-userland)\n",
				env->arm64_userland);
		free(fio);
	}
	return sb.len ? sb_detach(&sb) : (sb_free(&sb), NULL);
}
