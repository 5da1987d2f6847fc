/* A board's address (ssh://...) and what target check makes of its facts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "scenario/arch.h"
#include "scenario/variants.h"
#include "run/board.h"
#include "run/ssh.h"
#include "run/target.h"

static void parses_urls(void **state)
{
	struct strbuf errs = { 0 };
	struct target t;

	(void)state;
	assert_int_equal(target_parse("ssh://root@board:2222/srv/cmb", &t, &errs), 0);
	assert_string_equal(t.user, "root");
	assert_string_equal(t.host, "board");
	assert_int_equal(t.port, 2222);
	assert_string_equal(t.dir, "/srv/cmb");
	target_free(&t);
	assert_int_equal(target_parse("ssh://board", &t, &errs), 0);
	assert_null(t.user);
	assert_int_equal(t.port, 0);
	assert_string_equal(t.dir, TARGET_DEFAULT_DIR);
	target_free(&t);
	sb_free(&errs);
}

/* Each bad address is refused with words that say what is wrong. */
static void refuses_bad_urls(void **state)
{
	static const char *const bad[][2] = {
		{ "board", "a target is ssh://" },
		{ "ssh://", "no host" },
		{ "ssh://@board", "empty user" },
		{ "ssh://board:0", "port" },
		{ "ssh://board:99999", "port" },
		{ "ssh://board:22x", "port" },
		{ "ssh://board/", "" },          /* "/" alone: the default directory */
		{ "ssh://board/a b", "blanks" },
		{ "ssh://board/x/../etc", "'..'" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct strbuf errs = { 0 };
		struct target t;
		int rc = target_parse(bad[i][0], &t, &errs);

		if (!bad[i][1][0]) {
			assert_int_equal(rc, 0);
			assert_string_equal(t.dir, TARGET_DEFAULT_DIR);
			target_free(&t);
		} else {
			assert_int_equal(rc, -1);
			assert_non_null(strstr(errs.buf, bad[i][1]));
		}
		sb_free(&errs);
	}
}

static void quotes_for_sh(void **state)
{
	char *q = sh_quote("a'b c");

	(void)state;
	assert_string_equal(q, "'a'\\''b c'");
	free(q);
}

static const char good_board[] =
	"uid=0\nmachine=x86_64\nrelease=6.12.57\nkexec=/sbin/kexec\n"
	"kexec_load_disabled=0\nlockdown=\nsecureboot=\nefi=no\nconfig=yes\n"
	"kconfig.CONFIG_KEXEC=y\nkconfig.CONFIG_CMA=y\nmemtotal_kib=1012345\ncpus=2\n"
	"cpu_model=QEMU Virtual CPU\nmodel=Standard PC\nfdt=no\ntool.chroot=/usr/sbin/chroot\n"
	"tool.tar=/bin/tar\ntool.mount=/bin/mount\nsysrq=1\ndir_parent=/var/tmp\n"
	"dir_writable=yes\ndir_free_kib=4000000\n";

/* The verdict of requirement name for the facts text. */
static enum req_verdict verdict_of(const char *text, const char *name, int *missing)
{
	struct board_facts f;
	struct req_result r[32];
	size_t n;

	board_facts_parse(text, &f);
	n = target_judge(&f, r, ARRAY_SIZE(r), missing);
	board_facts_free(&f);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].name, name))
			return r[i].verdict;
	fail_msg("no requirement %s", name);
	return REQ_INFO;
}

/* good_board with key's line replaced by "key=value" */
static char *with(const char *key, const char *value)
{
	char *s = xasprintf("%s%s=%s\n", good_board, key, value);

	return s;
}

static void judges_a_good_board(void **state)
{
	int missing = -1;

	(void)state;
	assert_int_equal(verdict_of(good_board, "kexec-tools", &missing), REQ_OK);
	assert_int_equal(missing, 0);
}

/* Each fact a run cannot do without, spoilt alone, is named missing. */
static void names_what_is_missing(void **state)
{
	static const char *const cases[][3] = {
		{ "uid", "1000", "root" },
		{ "machine", "riscv64", "architecture" },
		{ "kexec", "", "kexec-tools" },
		{ "kexec_load_disabled", "1", "kexec allowed" },
		{ "lockdown", "none [integrity] confidentiality", "kernel lockdown" },
		{ "secureboot", "1", "Secure Boot" },
		{ "config", "no", "board kernel config" },
		{ "kconfig.CONFIG_KEXEC", "n", "kexec in the config" },
		{ "efi", "yes", "EFI" },
		{ "tool.chroot", "", "tools" },
		{ "dir_writable", "no", "directory of ours" },
		{ "dir_free_kib", "1000", "directory of ours" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *text = with(cases[i][0], cases[i][1]);
		int missing = 0;

		assert_int_equal(verdict_of(text, cases[i][2], &missing), REQ_MISSING);
		assert_int_equal(missing, 1);
		free(text);
	}
}

static void arm64_needs_its_device_tree(void **state)
{
	char *text = xasprintf("%smachine=aarch64\n", good_board);
	int missing = 0;

	(void)state;
	assert_int_equal(verdict_of(text, "device tree", &missing), REQ_MISSING);
	free(text);
	text = xasprintf("%smachine=aarch64\nfdt=yes\n", good_board);
	assert_int_equal(verdict_of(text, "device tree", &missing), REQ_OK);
	assert_int_equal(missing, 0);
	free(text);
}

/* What a board can honour: each key it cannot refused alone, with the file, section and key. */
static void board_refuses_what_it_cannot_honour(void **state)
{
	static const char *const words[] = {
		"disk = emmc", "arch = arm64", "clock = instructions", "scratch-stall",
		"memory: 2048 MiB, the board has 988 MiB", "cpus = 4: the board has 2",
		"scratch = 4096 MiB: 3906 MiB free under /var/tmp"
	};
	struct board b = { 0 };
	struct scenario scn = { .path = "x/t.scn" };
	struct run_spec ok = { .section = "s", .disk = "host", .arch = arch_find("x86_64"),
			       .cpus = 1, .scratch = 1ull << 30 };
	struct strbuf errs = { 0 };

	(void)state;
	board_facts_parse(good_board, &b.facts);
	b.arch = arch_find("x86_64");
	for (int i = -1; i < (int)ARRAY_SIZE(words); i++) {
		struct run_spec s = ok;
		struct run r = { .scn = &scn, .spec = &s, .mem_mib = 512 };

		switch (i) {
		case 0: s.disk = "emmc"; break;
		case 1: s.arch = arch_find("arm64"); break;
		case 2: s.clock = CLOCK_INSTRUCTIONS; break;
		case 3: s.scratch_stall = "begin fio"; break;
		case 4: r.mem_mib = 2048; break;
		case 5: s.cpus = 4; break;
		case 6: s.scratch = 4ull << 30; break;
		}
		sb_free(&errs);
		sb_init(&errs);
		assert_int_equal(board_check_run(&b, &r, &errs), i < 0 ? 0 : -1);
		if (i < 0)
			continue;
		assert_non_null(strstr(errs.buf, "x/t.scn: [s] "));
		assert_non_null(strstr(errs.buf, words[i]));
		/* one refusal, one line */
		assert_int_equal(strchr(errs.buf, '\n') - errs.buf + 1, (long)errs.len);
	}
	sb_free(&errs);
	board_facts_free(&b.facts);
}

static void sysrq_off_is_a_warning(void **state)
{
	char *text = with("sysrq", "0");
	int missing = -1;

	(void)state;
	assert_int_equal(verdict_of(text, "sysrq", &missing), REQ_WARN);
	assert_int_equal(missing, 0);
	free(text);
}

/* A board's .config as our kernels start from it: modules built in, the
 * distribution's keys and debug info dropped, everything else kept. */
static void sanitizes_a_board_config(void **state)
{
	static const char in[] =
		"# comment\nCONFIG_VIRTIO_NET=m\nCONFIG_EXT4_FS=y\n"
		"CONFIG_SYSTEM_TRUSTED_KEYS=\"debian/certs/debian-uefi-certs.pem\"\n"
		"CONFIG_MODULE_SIG_FORCE=y\nCONFIG_DEBUG_INFO_DWARF5=y\nCONFIG_DEBUG_INFO_BTF=y\n"
		"CONFIG_LOCALVERSION=\"-m\"\n# CONFIG_FOO is not set";
	char *out = board_config_sanitize(in);

	(void)state;
	assert_non_null(strstr(out, "# comment\n"));
	assert_non_null(strstr(out, "CONFIG_VIRTIO_NET=y\n"));
	assert_null(strstr(out, "=m\n"));
	assert_non_null(strstr(out, "CONFIG_EXT4_FS=y\n"));
	assert_non_null(strstr(out, "CONFIG_SYSTEM_TRUSTED_KEYS=\"\"\n"));
	assert_non_null(strstr(out, "# CONFIG_MODULE_SIG_FORCE is not set\n"));
	assert_non_null(strstr(out, "# CONFIG_DEBUG_INFO_DWARF5 is not set\n"));
	assert_non_null(strstr(out, "# CONFIG_DEBUG_INFO_BTF is not set\n"));
	assert_non_null(strstr(out, "CONFIG_DEBUG_INFO_NONE=y\n"));
	/* a string that ends in m is not a module */
	assert_non_null(strstr(out, "CONFIG_LOCALVERSION=\"-m\"\n"));
	assert_non_null(strstr(out, "# CONFIG_FOO is not set\n"));
	free(out);
}

/* The gcma variant for an x86_64 board: the board's .config, board.config,
 * then gcma.config without the QEMU guest's base.config; its own name. */
static void builds_from_the_board_config(void **state)
{
	char *srcdir = xasprintf("%s/../..", TEST_DATA);
	struct strbuf errs = { 0 };
	struct board b = { 0 };
	const struct kvariant *v;
	const char *const *c;

	(void)state;
	if (kvariants_load(srcdir, &errs))
		fail_msg("%s", errs.buf);
	b.arch = arch_find("x86_64");
	b.config = xstrdup("/cache/boards/0123456789abcdef.config");
	b.nvariants = kvariants_count();
	b.variants = xcalloc(b.nvariants, sizeof(*b.variants));
	v = board_variant(&b, kvariant_find("gcma"));
	assert_string_equal(v->name, "gcma-board-01234567");
	assert_true(v->board_base);
	assert_true(v->has_gcma);
	c = kvariant_configs(v, "x86_64");
	assert_non_null(c);
	assert_string_equal(c[0], b.config);
	assert_string_equal(c[1], "board.config");
	assert_string_equal(c[2], "gcma.config");
	assert_null(c[3]);
	assert_null(kvariant_configs(v, "arm64"));
	/* asked again: the same one */
	assert_ptr_equal(board_variant(&b, kvariant_find("gcma")), v);
	for (unsigned i = 0; i < b.nvariants; i++)
		if (b.variants[i].name)
			kvariant_free(&b.variants[i]);
	free(b.variants);
	free(b.config);
	kvariants_unload();
	sb_free(&errs);
	free(srcdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_urls),
		cmocka_unit_test(refuses_bad_urls),
		cmocka_unit_test(quotes_for_sh),
		cmocka_unit_test(judges_a_good_board),
		cmocka_unit_test(names_what_is_missing),
		cmocka_unit_test(arm64_needs_its_device_tree),
		cmocka_unit_test(board_refuses_what_it_cannot_honour),
		cmocka_unit_test(sysrq_off_is_a_warning),
		cmocka_unit_test(sanitizes_a_board_config),
		cmocka_unit_test(builds_from_the_board_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
