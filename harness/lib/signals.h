/*
 * Ctrl-C handling: handlers only set a flag; every loop that waits on a
 * child (make, QEMU) polls it, stops the child and returns, so nothing is
 * left behind.
 */
#ifndef CMB_SIGNALS_H
#define CMB_SIGNALS_H

#include <stdbool.h>
#include <sys/types.h>

void signals_install(void);
bool interrupted(void);
/* Sends SIGTERM to a child's process group, then SIGKILL after grace_ms; reaps it. */
int stop_child(pid_t pid, int grace_ms);

#endif
