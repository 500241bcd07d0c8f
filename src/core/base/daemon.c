/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench serve -D's detaching: fork, new session, /dev/null for the standard descriptors, and
 * a pipe on which the child tells the waiting parent it is ready. */
#include "core/base/daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* Points the standard descriptor std at /dev/null. */
static void to_null(int std)
{
	int nul = open("/dev/null", O_RDWR);
	if (nul < 0)
		return;
	if (nul != std) {
		dup2(nul, std);
		close(nul);
	}
}

int nb_daemon_start(int *ready_fd, bool *child_ready)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (pid > 0) {
		ssize_t n;
		close(p[1]);
		do
			n = read(p[0], &c, 1);
		while (n < 0 && errno == EINTR);
		close(p[0]);
		*child_ready = n == 1;
		return 1;
	}
	close(p[0]);
	*ready_fd = p[1];
	setsid();
	if (chdir("/") < 0)
		return -errno;
	to_null(STDIN_FILENO);
	to_null(STDOUT_FILENO);
	return 0;
}

int nb_daemon_ready(int ready_fd)
{
	int ret = 0;

	/* Errors up to here still reached the terminal; from now on there is none. */
	to_null(STDERR_FILENO);
	if (write(ready_fd, "r", 1) < 0)
		ret = -errno;
	close(ready_fd);
	return ret;
}
