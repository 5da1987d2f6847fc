#include "lib/signals.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

void signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

bool interrupted(void)
{
	return got_signal != 0;
}

int stop_child(pid_t pid, int grace_ms)
{
	int status = 0;
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	if (pid <= 0)
		return -1;
	kill(-pid, SIGTERM);
	kill(pid, SIGTERM);
	for (int waited = 0; waited < grace_ms; waited += 50) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid || (r < 0 && errno == ECHILD))
			return status;
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}
