/*
 * One run on a board (board.h): what goes over, the kexec into the kernel
 * under test, the plan under our init in a chroot, what comes back, and
 * the reboot into the board's own kernel.
 */
#include "config.h"
#include "run/board.h"
#include "run/console.h"
#include "run/dtb.h"
#include "run/watchdog.h"
#include "lib/signals.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The board side of a run: our init in the chroot, the scratch directory
 * bound in, every mount it made undone. $0 is in the directory of ours. */
static const char run_sh[] =
	"#!/bin/sh\n"
	"D=$(cd \"$(dirname \"$0\")\" && pwd)\n"
	"R=$D/root\n"
	"mkdir -p \"$R/mnt/scratch\" && mount --bind \"$D/scratch\" \"$R/mnt/scratch\" || exit 1\n"
	"chroot \"$R\" /bin/sh -c 'CMB_BOARD=1 exec /sbin/init'\n"
	"rc=$?\n"
	"for m in mnt/scratch sys/kernel/tracing sys/kernel/debug sys dev tmp proc; do\n"
	"	umount \"$R/$m\" 2>/dev/null\n"
	"done\n"
	"exit $rc\n";

/* A progress line: what the run does now, seconds since it began. */
static void say(const char *label, const char *what, double t0)
{
	printf("[%s] %s (%.0f s)\n", label, what, now_ns() / 1e9 - t0);
	fflush(stdout);
}

/* A command on the board; its failure named in res->problem. */
static int remote(struct board *b, const char *cmd, double timeout_s, struct vm_result *res,
		  const char *what)
{
	struct ssh_result r;
	int rc = ssh_run(&b->t, cmd, timeout_s, &r);

	if (rc)
		snprintf(res->problem, sizeof(res->problem), "%s: %s%s", what,
			 r.timed_out ? "timed out; " : "", r.out ? rtrim(r.out) : "");
	free(r.out);
	return rc;
}

/* A local file to path on the board. */
static int send_file(struct board *b, const char *local, const char *path, struct vm_result *res)
{
	struct strbuf errs = { 0 };
	int rc = ssh_put(&b->t, local, path, 1800, &errs);

	if (rc)
		snprintf(res->problem, sizeof(res->problem), "copying %s to the board: %s", local,
			 errs.buf ? errs.buf : "");
	sb_free(&errs);
	return rc;
}

/* The userland and run.sh, once for all runs. */
static int send_userland(struct board *b, const char *tmp, struct vm_result *res)
{
	char *tar = xasprintf("%s/userland.tar", b->dir), *sh = xasprintf("%s/run.sh", b->dir);
	char *cmd = xasprintf("cd %s && rm -rf root && mkdir root && tar -C root -xf userland.tar "
			      "&& rm userland.tar", b->dir);
	int rc = write_file(tmp, run_sh, strlen(run_sh)) || send_file(b, tmp, sh, res) ||
		 send_file(b, b->userland, tar, res) ||
		 remote(b, cmd, 600, res, "unpacking the userland");

	b->userland_sent = !rc;
	unlink(tmp);
	free(tar);
	free(sh);
	free(cmd);
	return rc ? -1 : 0;
}

/* The run's plan into an empty results directory, and an empty scratch. */
static int send_plan(struct board *b, const struct board_run *br, struct vm_result *res)
{
	char *ptar = xasprintf("%s.plan.tar", br->dir), *plan = xasprintf("%s/plan.tar", b->dir);
	char *pack[] = { "tar", "-C", (char *)br->dir, "-cf", ptar, "plan", NULL };
	char *cmd = xasprintf("cd %s && rm -rf root/results scratch && mkdir -p root/results "
			      "scratch && tar -C root/results -xf plan.tar && rm plan.tar", b->dir);
	int rc = run_cmd(pack, NULL, NULL, NULL, NULL) || send_file(b, ptar, plan, res) ||
		 remote(b, cmd, 120, res, "unpacking the plan");

	unlink(ptar);
	free(ptar);
	free(plan);
	free(cmd);
	return rc ? -1 : 0;
}

/* The board's tree with the run's area: kept with the results, sent as <dir>/run.dtb. */
static int send_dtb(struct board *b, const struct board_run *br, struct vm_result *res)
{
	const struct run_spec *s = br->r->spec;
	struct strbuf notes = { 0 }, errs = { 0 };
	char *dtb = xasprintf("%s.dtb", br->dir), *dts = path_join(br->dir, DTB_SOURCE_NAME);
	char *path = xasprintf("%s/run.dtb", b->dir);
	int rc = dtb_edit_file(b->env, b->fdt, s->setup, s->area, br->area_default, dtb, dts,
			       &notes, &errs);

	if (rc)
		snprintf(res->problem, sizeof(res->problem), "the board's device tree: %s",
			 rtrim(errs.buf));
	else
		rc = send_file(b, dtb, path, res);
	if (!rc) {
		json_object_object_add(br->m, "devicetree", json_object_new_string(DTB_SOURCE_NAME));
		if (notes.len) {
			printf("[%s] device tree: %s", br->label, notes.buf);
			json_object_object_add(br->m, "devicetree_changes",
					       json_object_new_string(rtrim(notes.buf)));
		}
	}
	unlink(dtb);
	sb_free(&notes);
	sb_free(&errs);
	free(dtb);
	free(dts);
	free(path);
	return rc ? -1 : 0;
}

/* The userland (once), the kernel (once per build), the run's plan (and tree). */
static int send_run(struct board *b, const struct board_run *br, struct vm_result *res)
{
	char *tmp = xasprintf("%s.run.sh", br->dir);
	char *kernel = xasprintf("%s/kernels/%.16s", b->dir, br->k->key);
	char *cmd = xasprintf("mkdir -p %s/kernels %s/scratch", b->dir, b->dir);
	int rc = remote(b, cmd, 60, res, "making the directory of ours");

	if (!rc && !b->userland_sent)
		rc = send_userland(b, tmp, res);
	if (!rc && !sl_has(&b->kernels_sent, kernel)) {
		rc = send_file(b, br->k->bzimage, kernel, res);
		if (!rc)
			sl_add(&b->kernels_sent, kernel);
	}
	rc = rc || send_plan(b, br, res);
	if (!rc && b->fdt)
		rc = send_dtb(b, br, res);
	free(tmp);
	free(kernel);
	free(cmd);
	return rc ? -1 : 0;
}

/* The kernel under test's command line: the board's own, its memory and
 * CPUs, the marker that says it booted, then the run's own words (area,
 * appends: a scenario's panic= or init= wins) without QEMU's boot words. */
static char *run_cmdline(const struct board *b, const struct run *r)
{
	static const char *const qemu_only[] = { "root=/dev/vda", "rw", "rootfstype=ext4",
						 "init=/sbin/init", "panic=-1" };
	char *copy = xstrdup(r->cmdline), *save = NULL;
	struct strbuf sb = { 0 };

	/* a kernel that panics reboots the board into its own after 10 s */
	sb_addf(&sb, "%s mem=%luM maxcpus=%ld panic=10 cmabench.run=%s", b->own_cmdline,
		r->mem_mib, r->spec->cpus, r->name);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		bool skip = !strncmp(w, "console=", 8);

		for (size_t i = 0; i < ARRAY_SIZE(qemu_only); i++)
			skip |= !strcmp(w, qemu_only[i]);
		if (!skip)
			sb_addf(&sb, " %s", w);
	}
	free(copy);
	return sb_detach(&sb);
}

/* Polls until the board answers (up) or stops answering (!up), at most timeout_s. */
static bool wait_board(struct board *b, bool up, double timeout_s, const char *label)
{
	double t0 = now_ns() / 1e9, last = t0;

	for (;;) {
		bool answers = ssh_answers(&b->t, 5);
		double now = now_ns() / 1e9;

		if (answers == up)
			return true;
		if (now - t0 > timeout_s || (interrupted() && !b->t.finishing))
			return false;
		if (now - last >= 15) {
			printf("[%s] waiting for the board to %s: %.0f s of at most %.0f\n", label,
			       up ? "answer" : "go down", now - t0, timeout_s);
			fflush(stdout);
			last = now;
		}
		if (!answers)
			sleep_ms(1000);
	}
}

/* kexec into the run's kernel; the board back under it. */
static const char *boot_kernel(struct board *b, const struct board_run *br, struct vm_result *res)
{
	char *cmdline = run_cmdline(b, br->r), *q = sh_quote(cmdline);
	char *dtb = b->fdt ? xasprintf(" --dtb=%s/run.dtb", b->dir) : xstrdup("");
	/* arm64: the board's own tree with the run's area (kexec puts the command line in it) */
	char *cmd = xasprintf("kexec -l %s/kernels/%.16s%s --command-line=%s && sync && "
			      "(nohup sh -c 'sleep 1; kexec -e' > /dev/null 2>&1 &)",
			      b->dir, br->k->key, dtb, q);
	char *marker = xasprintf("cmabench.run=%s", br->r->name);
	struct ssh_result r = { 0 };
	const char *status = NULL;

	json_object_object_add(br->m, "board_cmdline", json_object_new_string(cmdline));
	if (remote(b, cmd, 120, res, "kexec -l"))
		status = "board-no-boot";
	else if (!wait_board(b, false, 60, br->label)) {
		snprintf(res->problem, sizeof(res->problem), "kexec -e: the board still answers "
			 "after 60 s");
		status = "board-no-boot";
	} else if (!wait_board(b, true, b->boot_timeout_s, br->label)) {
		snprintf(res->problem, sizeof(res->problem), "the kernel under test: no ssh "
			 "answer within %.0f s of kexec -e", b->boot_timeout_s);
		b->lost = !interrupted();
		status = interrupted() ? "interrupted" : "board-lost";
	} else if (ssh_run(&b->t, "cat /proc/cmdline; uname -r", 30, &r) || !strstr(r.out, marker)) {
		/* a panic (panic=10) or a failed kexec brought back the board's own */
		snprintf(res->problem, sizeof(res->problem), "the board answered in another "
			 "kernel: %s", r.out ? rtrim(r.out) : "");
		status = "board-no-boot";
	}
	free(r.out);
	free(marker);
	free(cmd);
	free(dtb);
	free(q);
	free(cmdline);
	return status;
}

/* What the session said: its lines into the console log, judged. */
struct session {
	FILE *console;
	struct watchdog wd;
	bool done, failed_steps, init_seen;
	char part[4096];
	size_t partlen;
};

static void session_line(struct session *s, const char *line)
{
	enum console_event e = console_classify(line);

	fprintf(s->console, "%s\n", line);
	s->init_seen |= e == CON_INIT_START;
	s->done |= e == CON_DONE_OK || e == CON_DONE_FAILED;
	s->failed_steps |= e == CON_DONE_FAILED;
	wd_line(&s->wd, line, now_ns());
}

static void session_feed(struct session *s, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n' || s->partlen == sizeof(s->part) - 1) {
			s->part[s->partlen] = '\0';
			session_line(s, s->part);
			s->partlen = 0;
		} else if (buf[i] != '\r') {
			s->part[s->partlen++] = buf[i];
		}
	}
}

/* A silent board asked for its tasks' stacks (sysrq t and w into its log)
 * and whether its clock runs; what it said goes into watchdog.txt. */
static void ask_stacks(struct board *b, const char *dir, struct session *s)
{
	static const char probe[] = "cat /proc/uptime; echo 1 > /proc/sys/kernel/sysrq; "
				    "echo t > /proc/sysrq-trigger; sleep 2; "
				    "echo w > /proc/sysrq-trigger; sleep 2; cat /proc/uptime";
	char *path = path_join(dir, "watchdog.txt"), summary[320];
	struct ssh_result r;
	double t0 = now_ns() / 1e9;
	int rc = ssh_run(&b->t, probe, 60, &r);
	double took = now_ns() / 1e9 - t0, up0, up1;
	char *text;

	if (!rc && sscanf(r.out, "%lf", &up0) == 1 && strrchr(rtrim(r.out), '\n') &&
	    sscanf(strrchr(r.out, '\n') + 1, "%lf", &up1) == 1)
		snprintf(s->wd.clock, sizeof(s->wd.clock), "uptime +%.1f s in %.1f s (timers %s)",
			 up1 - up0, took, up1 > up0 ? "running" : "stopped");
	wd_summary(&s->wd, summary, sizeof(summary));
	text = xasprintf("%s\nsysrq t and w over ssh (their stacks are in console.log's "
			 "dmesg): %s\nuptime before and after:\n%s\n", summary,
			 rc ? "the board did not answer" : "asked", r.out ? r.out : "");
	write_file(path, text, strlen(text));
	free(text);
	free(r.out);
	free(path);
}

struct session_watch {
	struct board *b;
	const char *dir;
	struct session *s;
};

static void session_data(void *arg, const char *buf, size_t n)
{
	session_feed(((struct session_watch *)arg)->s, buf, n);
}

/* A silent session: the board's stacks asked for before it is stopped. */
static bool session_silent(void *arg)
{
	struct session_watch *w = arg;

	if (!wd_silent(&w->s->wd, now_ns()))
		return false;
	ask_stacks(w->b, w->dir, w->s);
	return true;
}

/* Runs the plan; the session's end as a VM status. */
static enum vm_status run_session(struct board *b, const struct board_run *br,
				  struct vm_result *res)
{
	const struct run_spec *sp = br->r->spec;
	char *cmd = xasprintf("sh %s/run.sh", b->dir);
	struct session s = { 0 };
	struct session_watch w = { .b = b, .dir = br->dir, .s = &s };
	struct ssh_stream ops = { .data = session_data, .stop = session_silent, .arg = &w };
	struct ssh_result r;
	enum vm_status st;

	s.console = fopen(br->console, "a");
	if (!s.console) {
		free(cmd);
		return VM_START_FAILED;
	}
	setvbuf(s.console, NULL, _IOLBF, 0);
	wd_init(&s.wd, sp->hang_silence, now_ns());
	ssh_stream(&b->t, cmd, sp->timeout, &ops, &r);
	if (r.out)
		st = VM_START_FAILED;   /* ssh did not start */
	else if (r.interrupted || r.timed_out || r.stopped)
		st = r.interrupted ? VM_INTERRUPTED : r.timed_out ? VM_TIMEOUT : VM_HANG;
	else
		st = !s.done ? VM_CRASHED : s.failed_steps ? VM_STEP_FAILED : VM_OK;
	if (s.wd.silence_s > 0 && st == VM_HANG)
		wd_summary(&s.wd, res->silence, sizeof(res->silence));
	fclose(s.console);
	wd_free(&s.wd);
	free(r.out);
	free(cmd);
	return st;
}

/* The kernel's log into the console log (the splats the judge reads), then
 * the results directory back. */
static void collect(struct board *b, const struct board_run *br, struct vm_result *res)
{
	struct ssh_result r;
	struct strbuf errs = { 0 };
	char *from = xasprintf("%s/root/results", b->dir);
	FILE *f = fopen(br->console, "a");

	if (!ssh_run(&b->t, "dmesg", 120, &r) && f) {
		fprintf(f, "cmabench-board: the kernel's log (dmesg) follows\n");
		for (char *line = r.out, *nl; line && *line; line = nl ? nl + 1 : NULL) {
			enum console_event e;

			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			fprintf(f, "%s\n", line);
			e = console_classify(line);
			res->warnings += e == CON_WARNING;
			if ((e == CON_OOPS || e == CON_PANIC) && !res->problem[0])
				snprintf(res->problem, sizeof(res->problem), "%s", line);
			if (e == CON_OOPS && res->status == VM_OK)
				res->status = VM_OOPS;
			if (!nl)
				break;
		}
	}
	if (f)
		fclose(f);
	free(r.out);
	if (ssh_get_dir(&b->t, from, br->dir, 600, &errs))
		snprintf(res->problem, sizeof(res->problem), "copying the results back: %s",
			 errs.buf ? errs.buf : "");
	sb_free(&errs);
	free(from);
}

/* reboot: the board's bootloader brings its own kernel back. */
static void return_board(struct board *b, const struct board_run *br)
{
	struct ssh_result r = { 0 };
	char *marker = xasprintf("cmabench.run=%s", br->r->name);
	bool finishing = b->t.finishing;

	b->t.finishing = true;      /* even after Ctrl-C */
	printf("[%s] rebooting the board into its own kernel\n", br->label);
	/* a Ctrl-C during the kexec: the kernel under test may still be booting */
	if (!wait_board(b, true, b->boot_timeout_s, br->label) ||
	    ssh_run(&b->t, "sync; (nohup sh -c 'sleep 1; reboot' > /dev/null 2>&1 &)", 30, &r) ||
	    !wait_board(b, false, 120, br->label) ||
	    !wait_board(b, true, b->boot_timeout_s, br->label)) {
		err_msg("%s: the board did not come back from its reboot within %.0f s", br->label,
			b->boot_timeout_s);
		b->lost = true;
	} else {
		free(r.out);
		r.out = NULL;
		/* its release and build: a board kernel of the same release is told apart */
		if (!ssh_run(&b->t, "uname -rv; cat /proc/cmdline", 30, &r) && !strstr(r.out, marker)) {
			r.out[strcspn(r.out, "\n")] = '\0';
			json_object_object_add(br->m, "board_returned_to",
					       json_object_new_string(r.out));
		} else {
			err_msg("%s: after its reboot the board is not in its own kernel", br->label);
			b->lost = true;
		}
	}
	free(r.out);
	free(marker);
	b->t.finishing = finishing;
}

const char *board_run(struct board *b, const struct board_run *br, struct vm_result *res)
{
	double t0 = now_ns() / 1e9;
	const char *status;

	json_object_object_add(br->m, "target", json_object_new_string(b->t.url));
	json_object_object_add(br->m, "board", board_identity(&b->facts));
	if (b->lost) {
		snprintf(res->problem, sizeof(res->problem), "the board did not come back from "
			 "an earlier run");
		res->status = VM_START_FAILED;
		return "board-lost";
	}
	say(br->label, "sending the userland, kernel and plan", t0);
	if (send_run(b, br, res)) {
		res->status = VM_START_FAILED;
		return "setup-failed";
	}
	say(br->label, "kexec into the kernel under test", t0);
	status = boot_kernel(b, br, res);
	res->kernel_seconds = now_ns() / 1e9 - t0;
	if (status) {
		res->status = interrupted() ? VM_INTERRUPTED : VM_START_FAILED;
		res->seconds = now_ns() / 1e9 - t0;
		if (!b->lost)
			return_board(b, br);
		return status;
	}
	say(br->label, "running the plan", t0);
	res->status = run_session(b, br, res);
	if (res->status != VM_INTERRUPTED && ssh_answers(&b->t, 30))
		collect(b, br, res);
	else
		b->t.finishing = true;
	res->seconds = now_ns() / 1e9 - t0;
	return_board(b, br);
	return vm_status_name(res->status);
}
