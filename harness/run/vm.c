#include "run/vm.h"
#include "lib/progress.h"
#include "lib/signals.h"
#include "run/console.h"
#include "run/hangdump.h"
#include "run/qmp.h"
#include "run/watchdog.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *vm_status_name(enum vm_status s)
{
	static const char *const names[] = {
		[VM_OK] = "ok", [VM_STEP_FAILED] = "step-failed", [VM_OOPS] = "oops",
		[VM_PANIC] = "panic", [VM_NO_INIT] = "no-init", [VM_TIMEOUT] = "timeout",
		[VM_HANG] = "hang",
		[VM_CRASHED] = "crashed", [VM_START_FAILED] = "start-failed",
		[VM_INTERRUPTED] = "interrupted",
	};

	return names[s];
}

/*
 * QEMU before 8.1 (commit c914d46d0a64, "tcg: Do not elide memory barriers
 * for !CF_PARALLEL in system mode") drops the guest's memory barriers when
 * the machine can have only one vCPU. virtio then loses interrupts: the
 * guest's store of used_event and its load of used->idx reorder on the host
 * against QEMU's completion thread (store buffering), each side misses the
 * other, and a 1-vCPU guest waits forever on a request QEMU has completed
 * (issue 42's hang, vanilla and gcma alike). maxcpus=2 makes QEMU keep
 * them; the guest still counts one CPU. -icount runs every vCPU in one
 * round-robin thread, which elides them whatever the count: not mended
 * here (docs/scenarios.md).
 */
bool tcg_barriers_need_smp(const struct vm_config *c)
{
	return strcmp(c->accel, "kvm") && !c->icount && c->cpus == 1;
}

void vm_argv(const struct vm_config *c, struct strlist *a)
{
	sl_add(a, c->qemu);
	if (c->machine) {
		sl_add(a, "-machine");
		sl_add(a, c->machine);
	}
	sl_add(a, "-accel");
	sl_add(a, c->accel);
	if (c->icount) {
		/* 1 ns of guest time per instruction; idle time follows the host */
		sl_add(a, "-icount");
		sl_add(a, "shift=0,sleep=on");
	}
	if (!strcmp(c->accel, "kvm")) {
		sl_add(a, "-cpu");
		sl_add(a, "host");
	} else if (c->cpu) {
		sl_add(a, "-cpu");
		sl_add(a, c->cpu);
	}
	sl_add(a, "-m");
	sl_addf(a, "%lu", c->mem_mib);
	sl_add(a, "-smp");
	if (tcg_barriers_need_smp(c))
		sl_addf(a, "%ld,maxcpus=2", c->cpus);
	else
		sl_addf(a, "%ld", c->cpus);
	sl_add(a, "-nodefaults");
	sl_add(a, "-display");
	sl_add(a, "none");
	sl_add(a, "-serial");
	sl_add(a, "stdio");
	sl_add(a, "-monitor");
	sl_add(a, "none");
	sl_add(a, "-no-reboot");
	sl_add(a, "-kernel");
	sl_add(a, c->kernel);
	if (c->dtb) {
		sl_add(a, "-dtb");
		sl_add(a, c->dtb);
	}
	sl_add(a, "-append");
	sl_add(a, c->cmdline);
	if (c->root_img) {
		sl_add(a, "-drive");
		sl_addf(a, "file=%s,format=raw,if=virtio,snapshot=on", c->root_img);
	}
	if (c->scratch_img) {
		sl_add(a, "-drive");
		/* id: QMP's name for it (block_set_io_throttle) */
		sl_addf(a, "file=%s,format=raw,if=virtio,id=scratch,cache=unsafe%s", c->scratch_img,
			c->scratch_opts ? c->scratch_opts : "");
	}
	if (c->share_dir) {
		sl_add(a, "-virtfs");
		sl_addf(a, "local,path=%s,mount_tag=results,security_model=none,id=results",
			c->share_dir);
	}
}

/*
 * QEMU in its own process group, its console (stdout and stderr) on a pipe;
 * with infd, the serial line's input (its stdin) on a socket of ours.
 */
static pid_t spawn(char *const argv[], int *outfd, int *infd)
{
	struct spawn_opts o = { .out_fd = -1, .pipe_rd = outfd, .stdin_sock = infd, .group = true };

	return spawn_cmd(argv, &o);
}

struct watch {
	const struct vm_config *c;
	struct vm_result *r;
	struct progress prog;
	uint64_t start;
	uint64_t deadline;          /* 0: none */
	char detail[96];
	bool done, panicked, oopsed, no_init, failed_steps;
	struct watchdog wd;
	struct console_expected expected;   /* reports a KUnit case announced */
	uint64_t last_output;       /* when the console last printed anything */
	struct wd_guest g;          /* how the watchdog and the fault reach QEMU */
	bool stalled;
	int logfd;
	char line[4096];
	size_t linelen;
};

/* The fault scratch-stall asks for: the scratch disk at 1 byte/s, a read that never completes. */
static void stall_scratch(struct watch *w)
{
	struct qmp *q = w->g.qmp_sock ? qmp_open(w->g.qmp_sock, 3.0) : NULL;
	char *ack = q ? qmp_hmp(q, "block_set_io_throttle scratch 1 0 0 0 0 0", -1) : NULL;

	w->stalled = true;
	if (!ack || ack[0])
		fprintf(stderr, "cmabench: %s: the scratch disk could not be stalled: %s\n",
			w->c->label, ack ? ack : "QEMU's monitor did not answer");
	free(ack);
	qmp_close(q);
}

/* The total size of the rows the guest writes on the share: progress when it grows. */
static long long share_rows_size(const char *share_dir)
{
	static const char *const files[] = { "alloc.csv", "guest.log", "steps.csv" };
	long long sum = 0;

	for (size_t i = 0; share_dir && i < sizeof(files) / sizeof(files[0]); i++) {
		char *p = path_join(share_dir, files[i]);
		struct stat st;

		if (!stat(p, &st))
			sum += st.st_size;
		free(p);
	}
	return sum;
}

static void on_line(struct watch *w, const char *line)
{
	enum console_event e = console_classify(line);
	double t = (now_ns() - w->start) / 1e9;

	/* a report a test announced (expect-splat) is the test's, not the run's */
	if (console_expect_add(&w->expected, line) ||
	    ((e == CON_OOPS || e == CON_WARNING) && console_expect_take(&w->expected, line)))
		e = CON_NONE;

	switch (e) {
	case CON_KERNEL_START:
		if (w->r->kernel_seconds < 0)
			w->r->kernel_seconds = t;
		snprintf(w->detail, sizeof(w->detail), "kernel booting");
		break;
	case CON_INIT_START:
		w->r->init_seconds = t;
		snprintf(w->detail, sizeof(w->detail), "init");
		break;
	case CON_STEP: {
		const char *s = strstr(line, "cmabench-step: ") + 15;

		snprintf(w->detail, sizeof(w->detail), "%.80s", s);
		break;
	}
	case CON_DONE_OK:
	case CON_DONE_FAILED:
		w->done = true;
		w->failed_steps = e == CON_DONE_FAILED;
		/* Give poweroff a little time, then stop it ourselves. */
		w->deadline = now_ns() + 20ull * 1000000000ull;
		break;
	case CON_WARNING:
		w->r->warnings++;
		break;
	case CON_OOPS:
	case CON_PANIC:
	case CON_NO_INIT:
		if (!w->r->problem[0])
			snprintf(w->r->problem, sizeof(w->r->problem), "%s", line);
		if (e == CON_OOPS) {
			w->oopsed = true;
		} else {
			w->panicked = e == CON_PANIC;
			w->no_init = e == CON_NO_INIT;
			/* Keep reading a few seconds for the backtrace. */
			w->deadline = now_ns() + 3ull * 1000000000ull;
		}
		break;
	case CON_STACK:         /* part of a report counted by its banner */
	case CON_NONE:
		break;
	}
	wd_line(&w->wd, line, now_ns());
	if (w->c->scratch_stall && !w->stalled && strstr(line, w->c->scratch_stall))
		stall_scratch(w);
	if (w->c->line_hook)
		w->c->line_hook(w->c->line_hook_arg, line);
}

static void feed(struct watch *w, const char *buf, size_t n)
{
	w->last_output = now_ns();
	if (w->logfd >= 0 && write(w->logfd, buf, n) != (ssize_t)n)
		w->logfd = -1;
	for (size_t i = 0; i < n; i++) {
		char ch = buf[i];

		if (ch == '\r')
			continue;
		if (ch == '\n' || w->linelen == sizeof(w->line) - 1) {
			w->line[w->linelen] = '\0';
			on_line(w, w->line);
			w->linelen = 0;
			if (ch == '\n')
				continue;
		}
		w->line[w->linelen++] = ch;
	}
}

/*
 * The watchdog's turn of the loop: the share's rows looked at every second,
 * and a silent guest probed (watchdog.h). True once the probe is done: the
 * guest is hung and has said what it could.
 */
static bool watch_progress(struct watch *w, uint64_t *files_at)
{
	uint64_t now = now_ns();

	if (w->wd.silence_s <= 0)
		return false;
	if (w->wd.phase == WD_WATCHING && now > *files_at + 1000000000ull) {
		*files_at = now;
		wd_files(&w->wd, share_rows_size(w->c->share_dir), now);
	}
	if (w->wd.phase == WD_WATCHING && !wd_silent(&w->wd, now))
		return false;
	if (w->wd.phase == WD_WATCHING)
		progress_update(&w->prog, "no progress: asking the guest for its tasks' stacks", -1);
	return wd_probe(&w->wd, &w->g, now, w->last_output);
}

/* A QMP socket, idle unless the timeout or the watchdog fires: not part of
 * the experiment. Its path, or NULL (*dir: the directory to remove). */
static char *qmp_add(const struct vm_config *c, struct strlist *argv, char **dir)
{
	char *sock;

	*dir = NULL;
	if (!c->hang_dump && !(c->silence_s > 0) && !c->scratch_stall)
		return NULL;
	*dir = xstrdup("/tmp/cmabench-qmp-XXXXXX");
	if (!mkdtemp(*dir))
		return NULL;
	sock = path_join(*dir, "qmp");
	sl_add(argv, "-qmp");
	sl_addf(argv, "unix:%s,server=on,wait=off", sock);
	return sock;
}

enum vm_end { END_EXITED, END_HUNG, END_STOPPED };

/* Reads the console until QEMU exits, the watchdog finds the guest hung,
 * the timeout (or the guest's own deadline) passes, or Ctrl-C; *status:
 * QEMU's wait status, *fd closed when the console ended first. */
static enum vm_end watch_guest(struct watch *w, pid_t pid, int *fd, uint64_t timeout_at,
			       int *status, bool *timed_out)
{
	const struct vm_config *c = w->c;
	struct vm_result *r = w->r;
	uint64_t files_at = 0;

	for (;;) {
		struct pollfd p = { .fd = *fd, .events = POLLIN };
		char buf[8192];

		if (*fd >= 0 && poll(&p, 1, 200) > 0) {
			ssize_t n = read(*fd, buf, sizeof(buf));

			if (n > 0)
				feed(w, buf, n);
			else if (n == 0) {
				close(*fd);
				*fd = -1;
			}
		} else if (*fd < 0) {
			poll(NULL, 0, 100);
		}
		if (waitpid(pid, status, WNOHANG) == pid)
			return END_EXITED;
		if (!w->done && !interrupted() && watch_progress(w, &files_at)) {
			progress_update(&w->prog, "hang: reading where the vCPUs are", -1);
			if (w->g.qmp_sock)
				hangdump_write(w->g.qmp_sock, c->sysmap, c->hang_dump, r->hang,
					       sizeof(r->hang));
			*status = stop_child(pid, 2000);
			return END_HUNG;
		}
		if (interrupted() || now_ns() > timeout_at || (w->deadline && now_ns() > w->deadline)) {
			*timed_out = now_ns() > timeout_at && !w->done;
			if (*timed_out && !interrupted() && w->g.qmp_sock) {
				progress_update(&w->prog, "timeout: reading where the vCPUs are", -1);
				hangdump_write(w->g.qmp_sock, c->sysmap, c->hang_dump, r->hang,
					       sizeof(r->hang));
			}
			*status = stop_child(pid, 2000);
			return END_STOPPED;
		}
		progress_update(&w->prog, w->detail, -1);
	}
}

/* Whatever QEMU printed last is still in the pipe, and a last line may
 * have no newline. */
static void drain(struct watch *w, int fd)
{
	if (fd >= 0) {
		char buf[8192];
		ssize_t n;

		fcntl(fd, F_SETFL, O_NONBLOCK);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			feed(w, buf, n);
		close(fd);
	}
	if (w->linelen) {
		w->line[w->linelen] = '\0';
		on_line(w, w->line);
	}
}

static enum vm_status end_status(const struct watch *w, bool hung, bool timed_out)
{
	if (interrupted())
		return VM_INTERRUPTED;
	if (w->panicked)
		return VM_PANIC;
	if (w->no_init)
		return VM_NO_INIT;
	if (w->oopsed)
		return VM_OOPS;
	if (hung)
		return VM_HANG;
	if (timed_out)
		return VM_TIMEOUT;
	if (!w->done)
		return VM_CRASHED;
	return w->failed_steps ? VM_STEP_FAILED : VM_OK;
}

int vm_run(const struct vm_config *c, struct vm_result *r)
{
	struct strlist argv = { 0 };
	struct watch w = { .c = c, .r = r, .g = { .serial_in = -1, .serial_id = "serial0" } };
	int fd = -1, infd = -1, status = 0;
	bool timed_out = false, hung;
	char *qmp_dir, *qmp_sock;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->kernel_seconds = r->init_seconds = -1;
	w.logfd = open(c->console_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	vm_argv(c, &argv);
	qmp_sock = qmp_add(c, &argv, &qmp_dir);
	snprintf(w.detail, sizeof(w.detail), "starting");
	progress_begin(&w.prog, c->label, c->estimate_s);
	w.start = w.last_output = now_ns();
	w.g.qmp_sock = qmp_sock;
	wd_init(&w.wd, qmp_sock ? c->silence_s : 0, w.start);
	w.g.jiffies_addr = c->silence_s > 0 ? sysmap_symbol(c->sysmap, "jiffies_64") : 0;
	pid = spawn(argv.v, &fd, c->silence_s > 0 ? &infd : NULL);
	w.g.serial_in = infd;
	sl_free(&argv);
	if (pid < 0) {
		r->status = VM_START_FAILED;
		snprintf(r->problem, sizeof(r->problem), "cannot start %s: %s", c->qemu, strerror(errno));
		progress_end(&w.prog, "could not start QEMU");
	} else {
		hung = watch_guest(&w, pid, &fd, w.start + (uint64_t)(c->timeout_s * 1e9), &status,
				   &timed_out) == END_HUNG;
		drain(&w, fd);
		if (hung) {
			wd_summary(&w.wd, r->silence, sizeof(r->silence));
			sb_addf(&w.wd.log, "# summary: %s\n# vCPUs (hang.txt): %s\n", r->silence,
				r->hang[0] ? r->hang : "not read");
			if (c->watchdog_log)
				write_file(c->watchdog_log, w.wd.log.buf, w.wd.log.len);
		}
		r->seconds = (now_ns() - w.start) / 1e9;
		r->qemu_exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		r->status = end_status(&w, hung, timed_out);
		progress_end(&w.prog, vm_status_name(r->status));
	}
	if (w.logfd >= 0)
		close(w.logfd);
	if (infd >= 0)
		close(infd);
	wd_free(&w.wd);
	if (qmp_dir)
		rm_rf(qmp_dir);
	free(qmp_dir);
	free(qmp_sock);
	return r->status == VM_OK ? 0 : -1;
}

bool vm_probe_kvm(const char *qemu, const struct cmb_arch *arch, const char *kernel,
		  double timeout_s)
{
	char *cmdline = xasprintf("console=%s panic=-1", arch->console);
	struct vm_config c = {
		.qemu = qemu, .accel = "kvm", .machine = arch->machine, .mem_mib = 128, .cpus = 1,
		.kernel = kernel, .cmdline = cmdline,
	};
	struct strlist argv = { 0 };
	uint64_t end = now_ns() + (uint64_t)(timeout_s * 1e9);
	bool ok = false;
	int fd = -1;
	pid_t pid;
	char line[4096];
	size_t len = 0;

	if (access("/dev/kvm", R_OK | W_OK)) {
		free(cmdline);
		return false;
	}
	vm_argv(&c, &argv);
	pid = spawn(argv.v, &fd, NULL);
	sl_free(&argv);
	free(cmdline);
	if (pid < 0)
		return false;
	while (!ok && now_ns() < end && !interrupted()) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char buf[4096];
		ssize_t n;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n && !ok; i++) {
			if (buf[i] == '\n' || len == sizeof(line) - 1) {
				line[len] = '\0';
				ok = console_classify(line) == CON_KERNEL_START;
				len = 0;
			} else if (buf[i] != '\r') {
				line[len++] = buf[i];
			}
		}
	}
	close(fd);
	stop_child(pid, 1000);
	return ok;
}
