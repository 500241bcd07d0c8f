/* SPDX-License-Identifier: BSD-2-Clause */
/* Detaching a process from its terminal (netbench serve -D), in two halves so that the parent
 * returns only once the child is ready: errors up to then still reach the terminal. */
#ifndef NB_DAEMON_H
#define NB_DAEMON_H

#include <stdbool.h>

/* Forks. In the parent: waits until the child reports ready (nb_daemon_ready) or ends, and
 * returns 1 with *child_ready telling which; the caller then exits (0 when ready, else 1). In
 * the child: a new session, the working directory /, standard input and output on /dev/null;
 * returns 0 with *ready_fd, on which it reports readiness. -errno when the pipe, the fork or
 * the chdir fails (in the child for the chdir: the caller fails, and the parent sees it end). */
int nb_daemon_start(int *ready_fd, bool *child_ready);
/* In the child, once it is ready: standard error goes to /dev/null too (there is no terminal
 * from now on) and the parent is told. Returns 0 or -errno. */
int nb_daemon_ready(int ready_fd);

#endif
