/* SPDX-License-Identifier: BSD-2-Clause */
/* Running the lab's tools (ip, nft, sysctl) with fork/exec and argv arrays, never through a
 * shell, with their output captured for the caller to report; and entering a named network
 * namespace in a child to probe a TCP port there. */
#ifndef NB_LAB_EXEC_H
#define NB_LAB_EXEC_H

#include <stddef.h>
#include <stdint.h>

/* What a finished command left: exit code (128 + signal number when killed), its output. */
struct nb_lab_run {
	int status;
	char *out;
	size_t out_len;
	char *err;
	size_t err_len;
};

struct nb_lab_run *nb_lab_run_new(void);
void nb_lab_run_free(struct nb_lab_run *r);

/* Runs argv (argv[0] searched in PATH) with input on its stdin (NULL: empty) and fills r.
 * Output beyond 64 MiB per stream is discarded. Returns 0 when the command ran (whatever its
 * status), -ENOENT when argv[0] is not found, another negative errno when it could not start. */
int nb_lab_exec(char *const argv[], const char *input, struct nb_lab_run *r);

/* Runs argv with stdout and stderr appended to the file at log_path, for a command that leaves
 * a daemon behind: a daemon holding a pipe open would stall a capture until it exits. Returns
 * as nb_lab_exec, with the exit code in *status. */
int nb_lab_exec_logged(char *const argv[], const char *log_path, int *status);

/* True when something accepts a TCP connection on addr:port inside the named network
 * namespace, within timeout_ms. */
int nb_lab_port_answers(const char *netns, const char *addr, uint16_t port, unsigned timeout_ms);

#endif
