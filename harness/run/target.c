#include "config.h"
#include "run/target.h"

#include <stdlib.h>
#include <string.h>

/*
 * POSIX sh as busybox and dash run it; reads only, writes nothing on the
 * board. The kernel config lines are those a requirement reads.
 */
static const char probe_body[] =
	"f() { printf '%s=%s\\n' \"$1\" \"$2\"; }\n"
	"f uid \"$(id -u)\"\n"
	"f machine \"$(uname -m)\"\n"
	"f release \"$(uname -r)\"\n"
	"f kexec \"$(command -v kexec)\"\n"
	"f kexec_load_disabled \"$(cat /proc/sys/kernel/kexec_load_disabled 2>/dev/null)\"\n"
	"f lockdown \"$(cat /sys/kernel/security/lockdown 2>/dev/null)\"\n"
	"sb=\n"
	"for v in /sys/firmware/efi/efivars/SecureBoot-*; do\n"
	"	[ -r \"$v\" ] && sb=$(tail -c 1 \"$v\" | od -An -tu1 | tr -d ' ')\n"
	"done\n"
	"f secureboot \"$sb\"\n"
	"f efi \"$([ -d /sys/firmware/efi ] && echo yes || echo no)\"\n"
	"if [ -r /proc/config.gz ]; then\n"
	"	f config yes\n"
	"	zcat /proc/config.gz | grep -E "
	"'^CONFIG_(KEXEC|KEXEC_FILE|EFI|CMA|DEVTMPFS|MAGIC_SYSRQ|MODULES)=' |\n"
	"		sed 's/^/kconfig./'\n"
	"else\n"
	"	f config no\n"
	"fi\n"
	"f memtotal_kib \"$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)\"\n"
	"f cpus \"$(grep -c '^processor' /proc/cpuinfo)\"\n"
	"f cpu_model \"$(awk -F': *' '/^model name|^Hardware/ { print $2; exit }' /proc/cpuinfo)\"\n"
	"m=$(tr -d '\\000' < /sys/firmware/devicetree/base/model 2>/dev/null)\n"
	"[ -n \"$m\" ] || m=$(cat /sys/class/dmi/id/product_name 2>/dev/null)\n"
	"f model \"$m\"\n"
	"f fdt \"$([ -r /sys/firmware/fdt ] && echo yes || echo no)\"\n"
	"for t in chroot tar mount; do f \"tool.$t\" \"$(command -v $t)\"; done\n"
	"f sysrq \"$(cat /proc/sys/kernel/sysrq 2>/dev/null)\"\n"
	"f cmdline \"$(cat /proc/cmdline)\"\n"
	/* the nearest existing ancestor of our directory: writable, and its room */
	"while [ ! -d \"$d\" ]; do d=$(dirname \"$d\"); done\n"
	"f dir_parent \"$d\"\n"
	"f dir_writable \"$([ -w \"$d\" ] && echo yes || echo no)\"\n"
	"f dir_free_kib \"$(df -k \"$d\" | awk 'NR == 2 { print $4 }')\"\n"
	"exit 0\n";

char *target_probe_script(const char *dir)
{
	char *q = sh_quote(dir), *s = xasprintf("d=%s\n%s", q, probe_body);

	free(q);
	return s;
}

void board_facts_parse(const char *text, struct board_facts *f)
{
	memset(f, 0, sizeof(*f));
	while (text && *text) {
		size_t len = strcspn(text, "\n");
		const char *eq = memchr(text, '=', len);

		if (eq && eq > text) {
			sl_addf(&f->keys, "%.*s", (int)(eq - text), text);
			sl_addf(&f->values, "%.*s", (int)(len - (size_t)(eq + 1 - text)), eq + 1);
		}
		text += len + (text[len] == '\n');
	}
}

const char *board_fact(const struct board_facts *f, const char *key)
{
	/* the last word wins, as in the probe's order */
	for (size_t i = f->keys.n; i-- > 0;)
		if (!strcmp(f->keys.v[i], key))
			return f->values.v[i];
	return NULL;
}

void board_facts_free(struct board_facts *f)
{
	sl_free(&f->keys);
	sl_free(&f->values);
}

const char *board_arch(const struct board_facts *f)
{
	const char *m = board_fact(f, "machine");

	if (m && !strcmp(m, "x86_64"))
		return "x86_64";
	if (m && (!strcmp(m, "aarch64") || !strcmp(m, "arm64")))
		return "arm64";
	return NULL;
}

static bool fact_is(const struct board_facts *f, const char *key, const char *v)
{
	const char *x = board_fact(f, key);

	return x && !strcmp(x, v);
}

static bool fact_set(const struct board_facts *f, const char *key)
{
	const char *x = board_fact(f, key);

	return x && *x;
}

/* One requirement: judges the facts into r (verdict, detail). */
struct requirement {
	const char *name;
	void (*judge)(const struct board_facts *f, struct req_result *r);
};

#define SAY(r, v, ...) ((r)->verdict = (v), snprintf((r)->detail, sizeof((r)->detail), __VA_ARGS__))

static void req_root(const struct board_facts *f, struct req_result *r)
{
	if (fact_is(f, "uid", "0"))
		SAY(r, REQ_OK, "logged in as root");
	else
		SAY(r, REQ_MISSING, "uid %s: kexec and the area's mounts need root (User root in "
		    "the ssh configuration)", board_fact(f, "uid") ? board_fact(f, "uid") : "?");
}

static void req_arch(const struct board_facts *f, struct req_result *r)
{
	const char *m = board_fact(f, "machine");

	if (board_arch(f))
		SAY(r, REQ_OK, "%s (cmabench arch %s)", m, board_arch(f));
	else
		SAY(r, REQ_MISSING, "%s: cmabench builds x86_64 and arm64 kernels", m ? m : "?");
}

static void req_kexec_tool(const struct board_facts *f, struct req_result *r)
{
	if (fact_set(f, "kexec"))
		SAY(r, REQ_OK, "%s", board_fact(f, "kexec"));
	else
		SAY(r, REQ_MISSING, "no kexec in PATH: install kexec-tools (Debian package "
		    "kexec-tools)");
}

static void req_kexec_allowed(const struct board_facts *f, struct req_result *r)
{
	if (fact_is(f, "kexec_load_disabled", "0"))
		SAY(r, REQ_OK, "kernel.kexec_load_disabled = 0");
	else if (fact_set(f, "kexec_load_disabled"))
		SAY(r, REQ_MISSING, "kernel.kexec_load_disabled = %s: kexec -l is refused until "
		    "the next boot (the switch is one-way)", board_fact(f, "kexec_load_disabled"));
	else
		SAY(r, REQ_MISSING, "no /proc/sys/kernel/kexec_load_disabled: the running kernel "
		    "has no kexec (CONFIG_KEXEC)");
}

static void req_lockdown(const struct board_facts *f, struct req_result *r)
{
	const char *l = board_fact(f, "lockdown");

	if (!l || !*l || strstr(l, "[none]"))
		SAY(r, REQ_OK, "%s", l && *l ? l : "no lockdown LSM");
	else
		SAY(r, REQ_MISSING, "lockdown %s: kexec -l is refused; kexec -s with a kernel "
		    "signed by a key the board trusts is needed", l);
}

static void req_secureboot(const struct board_facts *f, struct req_result *r)
{
	const char *s = board_fact(f, "secureboot");

	if (!s || !*s)
		SAY(r, REQ_OK, "not an EFI Secure Boot system");
	else if (!strcmp(s, "0"))
		SAY(r, REQ_OK, "Secure Boot off");
	else
		SAY(r, REQ_MISSING, "Secure Boot on: kexec -s with a kernel signed by a key the "
		    "board trusts is needed");
}

static void req_config(const struct board_facts *f, struct req_result *r)
{
	if (fact_is(f, "config", "yes"))
		SAY(r, REQ_OK, "/proc/config.gz: kernels under test start from it");
	else
		SAY(r, REQ_MISSING, "no /proc/config.gz: name the board's kernel config with "
		    "--board-config FILE (its drivers, network and kexec)");
}

static void req_kconfig_kexec(const struct board_facts *f, struct req_result *r)
{
	if (!fact_is(f, "config", "yes"))
		SAY(r, REQ_INFO, "unknown without /proc/config.gz");
	else if (fact_is(f, "kconfig.CONFIG_KEXEC", "y"))
		SAY(r, REQ_OK, "CONFIG_KEXEC=y: kexec -l (kexec_load) loads our kernels");
	else if (fact_is(f, "kconfig.CONFIG_KEXEC_FILE", "y"))
		SAY(r, REQ_MISSING, "only CONFIG_KEXEC_FILE: kexec -l is refused, kexec -s needs "
		    "a kernel signed for the board");
	else
		SAY(r, REQ_MISSING, "neither CONFIG_KEXEC nor CONFIG_KEXEC_FILE");
}

static void req_efi(const struct board_facts *f, struct req_result *r)
{
	if (!fact_is(f, "efi", "yes"))
		SAY(r, REQ_OK, "not booted through EFI");
	else if (fact_is(f, "kconfig.CONFIG_EFI", "y"))
		SAY(r, REQ_OK, "booted through EFI, CONFIG_EFI=y");
	else
		SAY(r, REQ_MISSING, "booted through EFI: the kernel under test needs CONFIG_EFI=y "
		    "(not in the board's config)");
}

static void req_fdt(const struct board_facts *f, struct req_result *r)
{
	if (!fact_is(f, "machine", "aarch64"))
		SAY(r, REQ_INFO, "x86 takes its area from the command line");
	else if (fact_is(f, "fdt", "yes"))
		SAY(r, REQ_OK, "/sys/firmware/fdt: the area's reserved-memory node goes into it");
	else
		SAY(r, REQ_MISSING, "no /sys/firmware/fdt: the board's device tree is needed for "
		    "the area's reserved-memory node");
}

static void req_tools(const struct board_facts *f, struct req_result *r)
{
	static const char *const tools[] = { "chroot", "tar", "mount" };
	char miss[64] = "";

	for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
		char key[32];

		snprintf(key, sizeof(key), "tool.%s", tools[i]);
		if (!fact_set(f, key))
			snprintf(miss + strlen(miss), sizeof(miss) - strlen(miss), " %s", tools[i]);
	}
	if (miss[0])
		SAY(r, REQ_MISSING, "missing:%s (busybox has them)", miss);
	else
		SAY(r, REQ_OK, "chroot, tar, mount");
}

static void req_dir(const struct board_facts *f, struct req_result *r)
{
	const char *p = board_fact(f, "dir_parent"), *free_kib = board_fact(f, "dir_free_kib");
	long long kib = free_kib ? atoll(free_kib) : 0;

	if (!fact_is(f, "dir_writable", "yes"))
		SAY(r, REQ_MISSING, "%s is not writable: name another with ssh://host/DIR",
		    p ? p : "?");
	else if (kib < 1024 * 1024)
		SAY(r, REQ_MISSING, "%lld MiB free under %s: the userland, kernels and scratch "
		    "files need 1 GiB", kib / 1024, p);
	else
		SAY(r, REQ_OK, "%lld MiB free under %s", kib / 1024, p);
}

static void req_sysrq(const struct board_facts *f, struct req_result *r)
{
	if (fact_set(f, "sysrq") && !fact_is(f, "sysrq", "0"))
		SAY(r, REQ_OK, "kernel.sysrq = %s: a stalled run's task stacks can be asked for",
		    board_fact(f, "sysrq"));
	else
		SAY(r, REQ_WARN, "sysrq off or absent: a stalled run cannot dump its tasks' stacks");
}

static void req_memory(const struct board_facts *f, struct req_result *r)
{
	const char *m = board_fact(f, "memtotal_kib"), *c = board_fact(f, "cpus");

	SAY(r, REQ_INFO, "%lld MiB, %s CPUs (mem= and maxcpus= give a run less)",
	    m ? atoll(m) / 1024 : 0, c ? c : "?");
}

static const struct requirement requirements[] = {
	{ "root", req_root },
	{ "architecture", req_arch },
	{ "kexec-tools", req_kexec_tool },
	{ "kexec allowed", req_kexec_allowed },
	{ "kernel lockdown", req_lockdown },
	{ "Secure Boot", req_secureboot },
	{ "board kernel config", req_config },
	{ "kexec in the config", req_kconfig_kexec },
	{ "EFI", req_efi },
	{ "device tree", req_fdt },
	{ "tools", req_tools },
	{ "directory of ours", req_dir },
	{ "sysrq", req_sysrq },
	{ "memory and CPUs", req_memory },
};

size_t target_judge(const struct board_facts *f, struct req_result *out, size_t max,
		    int *missing)
{
	size_t n = 0;

	*missing = 0;
	for (size_t i = 0; i < ARRAY_SIZE(requirements) && n < max; i++, n++) {
		out[n].name = requirements[i].name;
		requirements[i].judge(f, &out[n]);
		*missing += out[n].verdict == REQ_MISSING;
	}
	return n;
}

void target_print(FILE *out, const struct req_result *r, size_t n)
{
	static const char *const words[] = { "ok", "MISSING", "warn", "info" };

	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-8s %-20s %s\n", words[r[i].verdict], r[i].name, r[i].detail);
}

json_object *board_identity(const struct board_facts *f)
{
	static const char *const keys[] = { "model", "cpu_model", "machine", "release", "cpus",
					    "memtotal_kib" };
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = board_fact(f, keys[i]);

		if (v)
			json_object_object_add(o, keys[i], json_object_new_string(v));
	}
	return o;
}

int target_probe(const struct target *t, struct board_facts *f, struct strbuf *errs)
{
	char *script = target_probe_script(t->dir);
	struct ssh_result r;
	int rc = ssh_run(t, script, 60, &r);

	free(script);
	memset(f, 0, sizeof(*f));
	if (rc || !strstr(r.out, "uid=")) {
		char *name = target_name(t);

		sb_addf(errs, "%s: %s%s", name, r.timed_out ? "no answer within 60 s; " : "",
			r.out && *r.out ? rtrim(r.out) : "ssh failed");
		free(name);
		free(r.out);
		return -1;
	}
	board_facts_parse(r.out, f);
	free(r.out);
	return 0;
}
