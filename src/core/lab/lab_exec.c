/* SPDX-License-Identifier: BSD-2-Clause */
/* fork/exec with captured stdout and stderr, for the lab's calls to iproute2 and nftables.
 * Arguments travel as argv arrays so that no user input is ever parsed by a shell. An extra
 * close-on-exec pipe carries exec's errno back, so "not installed" is told apart from a tool
 * that ran and failed. */
#include "core/lab/lab_exec.h"
#include "core/base/netns.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define CAPTURE_MAX (64u << 20)

struct nb_lab_run *nb_lab_run_new(void)
{
	return calloc(1, sizeof(struct nb_lab_run));
}

void nb_lab_run_free(struct nb_lab_run *r)
{
	if (!r)
		return;
	free(r->out);
	free(r->err);
	free(r);
}

static int append(char **buf, size_t *len, size_t *cap, const char *data, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t ncap = *cap ? *cap : 4096;
		char *nb;
		while (ncap < *len + n + 1)
			ncap *= 2;
		nb = realloc(*buf, ncap);
		if (!nb)
			return -ENOMEM;
		*buf = nb;
		*cap = ncap;
	}
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* In the child: in, out and err as its standard streams, then argv; when the exec fails, its
 * errno goes to the parent through ex (close-on-exec, so a successful exec closes it). */
static noreturn void exec_child(char *const argv[], int in, int out, int err, int ex)
{
	int e;

	dup2(in, 0);
	dup2(out, 1);
	dup2(err, 2);
	execvp(argv[0], argv);
	e = errno;
	if (write(ex, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Writes our stdin and drains both outputs in one loop: a tool that prints much before it
 * reads (or the reverse) must not deadlock against a full pipe. Each fd is closed (-1) at its
 * end. */
static int pump(int *outfd, int *errfd, int *infd, const char *input, size_t in_len,
		struct nb_lab_run *r)
{
	size_t out_cap = 0, err_cap = 0, in_off = 0;
	char buf[8192];
	int ret;

	while (*outfd >= 0 || *errfd >= 0 || *infd >= 0) {
		struct pollfd p[3] = {
		    {*outfd, POLLIN, 0}, {*errfd, POLLIN, 0}, {*infd, POLLOUT, 0}};
		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (int i = 0; i < 2; i++) {
			int *fd = i ? errfd : outfd;
			ssize_t n;
			if (*fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(*fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close_fd(fd);
				continue;
			}
			if ((i ? r->err_len : r->out_len) + (size_t)n > CAPTURE_MAX)
				continue;
			ret = i ? append(&r->err, &r->err_len, &err_cap, buf, (size_t)n)
				: append(&r->out, &r->out_len, &out_cap, buf, (size_t)n);
			if (ret)
				return ret;
		}
		if (*infd >= 0 && (p[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t n = write(*infd, input + in_off, in_len - in_off);
			if (n > 0)
				in_off += (size_t)n;
			if ((n < 0 && errno != EAGAIN && errno != EINTR) || in_off == in_len)
				close_fd(infd);
		}
	}
	return 0;
}

int nb_lab_exec(char *const argv[], const char *input, struct nb_lab_run *r)
{
	int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, ex[2] = {-1, -1};
	size_t in_len = input ? strlen(input) : 0;
	int ret = 0, child_errno = 0, wstatus = 0;
	pid_t pid = -1;

	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) ||
	    pipe2(ex, O_CLOEXEC) || (pid = fork()) < 0) {
		ret = -errno;
		goto out;
	}
	if (pid == 0)
		exec_child(argv, in[0], out[1], err[1], ex[1]);
	close_fd(&in[0]);
	close_fd(&out[1]);
	close_fd(&err[1]);
	close_fd(&ex[1]);
	if (read(ex[0], &child_errno, sizeof(child_errno)) == (ssize_t)sizeof(child_errno)) {
		waitpid(pid, &wstatus, 0);
		ret = -child_errno;
		goto out;
	}
	if (!in_len)
		close_fd(&in[1]);
	else
		fcntl(in[1], F_SETFL, O_NONBLOCK);
	if ((ret = pump(&out[0], &err[0], &in[1], input, in_len, r)))
		goto out;
	while (waitpid(pid, &wstatus, 0) < 0) {
		if (errno != EINTR) {
			ret = -errno;
			goto out;
		}
	}
	pid = -1;
	r->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	ret = 0;
out:
	if (ret && pid > 0 && !child_errno) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	for (int i = 0; i < 2; i++) {
		close_fd(&in[i]);
		close_fd(&out[i]);
		close_fd(&err[i]);
		close_fd(&ex[i]);
	}
	if (!r->out)
		r->out = calloc(1, 1);
	if (!r->err)
		r->err = calloc(1, 1);
	if (!ret && (!r->out || !r->err))
		ret = -ENOMEM;
	return ret;
}

int nb_lab_exec_logged(char *const argv[], const char *log_path, int *status)
{
	int ex[2] = {-1, -1}, fd = -1, child_errno = 0, wstatus = 0, ret = 0;
	pid_t pid;

	fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0 || pipe2(ex, O_CLOEXEC) || (pid = fork()) < 0) {
		ret = -errno;
		goto out;
	}
	if (pid == 0)
		exec_child(argv, open("/dev/null", O_RDONLY), fd, fd, ex[1]);
	close(ex[1]);
	ex[1] = -1;
	if (read(ex[0], &child_errno, sizeof(child_errno)) == (ssize_t)sizeof(child_errno))
		ret = -child_errno;
	while (waitpid(pid, &wstatus, 0) < 0)
		if (errno != EINTR) {
			ret = -errno;
			goto out;
		}
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
out:
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < 2; i++)
		if (ex[i] >= 0)
			close(ex[i]);
	return ret;
}

/* In a child: join the namespace (a process may switch network namespace only while it has
 * one thread, which a fresh fork has), connect with a deadline, report by exit status. */
static int probe_child(const char *netns, const char *addr, uint16_t port, unsigned timeout_ms)
{
	char err[300];
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(port)};
	struct pollfd p;
	int fd, soerr = 0;
	socklen_t sl = sizeof(soerr);

	if (nb_netns_enter(netns, NULL, err, sizeof(err)))
		return 2;
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		return 2;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 2;
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 && errno != EINPROGRESS)
		return 1;
	p.fd = fd;
	p.events = POLLOUT;
	if (poll(&p, 1, (int)timeout_ms) != 1)
		return 1;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0 || soerr)
		return 1;
	close(fd);
	return 0;
}

int nb_lab_port_answers(const char *netns, const char *addr, uint16_t port, unsigned timeout_ms)
{
	int wstatus = 0;
	pid_t pid = fork();

	if (pid < 0)
		return 0;
	if (pid == 0)
		_exit(probe_child(netns, addr, port, timeout_ms));
	while (waitpid(pid, &wstatus, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
}
