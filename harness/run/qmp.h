/*
 * A minimal QMP client for a running guest: connect to the unix socket QEMU
 * listens on (-qmp unix:PATH,server=on,wait=off), then run HMP commands
 * through human-monitor-command (JSON replies: no terminal echo to strip).
 */
#ifndef CMB_QMP_H
#define CMB_QMP_H

struct qmp;

/* Connected and past capabilities negotiation, or NULL (errno). */
struct qmp *qmp_open(const char *sock_path, double timeout_s);
/*
 * The text an HMP command printed (caller frees), run on vCPU cpu (-1: the
 * monitor's current one), or NULL when QEMU did not answer in time.
 */
char *qmp_hmp(struct qmp *q, const char *command, int cpu);
void qmp_close(struct qmp *q);

#endif
