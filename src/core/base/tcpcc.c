/* SPDX-License-Identifier: BSD-2-Clause */
/* TCP congestion control of a data socket: the kernel's lists, and TCP_CONGESTION. */
#include "core/base/tcpcc.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

bool nb_tcpcc_name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n < 1 || n >= NB_TCPCC_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return false;
	}
	return true;
}

bool nb_tcpcc_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;
	if (!n)
		return false;
	while ((p = strstr(p, name))) {
		bool starts = p == list || p[-1] == ' ';
		bool ends = p[n] == '\0' || p[n] == ' ';
		if (starts && ends)
			return true;
		p += n;
	}
	return false;
}

int nb_tcpcc_read_list(enum nb_tcpcc_list which, char *buf, size_t len)
{
	const char *path = which == NB_TCPCC_ALLOWED
			       ? "/proc/sys/net/ipv4/tcp_allowed_congestion_control"
			       : "/proc/sys/net/ipv4/tcp_available_congestion_control";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int nb_tcpcc_set(int fd, const char *name)
{
	char avail[512];
	int ret;
	if (!nb_tcpcc_name_ok(name))
		return -EINVAL;
	if ((ret = nb_tcpcc_read_list(NB_TCPCC_AVAILABLE, avail, sizeof(avail))))
		return ret;
	if (!nb_tcpcc_in_list(avail, name))
		return -ENOENT;
	return setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, (socklen_t)strlen(name)) < 0
		   ? -errno
		   : 0;
}

int nb_tcpcc_get(int fd, char *buf, size_t len)
{
	char name[NB_TCPCC_NAME_MAX + 1], avail[512];
	socklen_t n = NB_TCPCC_NAME_MAX;
	memset(name, 0, sizeof(name));
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &n) < 0)
		return -errno;
	if (!nb_tcpcc_name_ok(name) || strlen(name) >= len)
		return -EBADMSG;
	/* What the socket holds is one of the loaded ones; a name that is not came through a
	 * layer that mangles it (qemu-user passes TCP_CONGESTION as a 4-byte int). */
	if (!nb_tcpcc_read_list(NB_TCPCC_AVAILABLE, avail, sizeof(avail)) &&
	    !nb_tcpcc_in_list(avail, name))
		return -EBADMSG;
	memcpy(buf, name, strlen(name) + 1);
	return 0;
}
