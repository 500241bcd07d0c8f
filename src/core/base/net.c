/* SPDX-License-Identifier: BSD-2-Clause */
/* Socket plumbing shared by the agent, the controller and every test's data path. */
#include "core/base/net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/base/compat.h"

static int gai_errno(int rc)
{
	if (rc == EAI_SYSTEM)
		return -errno;
	return rc == EAI_NONAME || rc == EAI_NODATA ? -ENOENT : -EINVAL;
}

int nb_net_listen(const char *bind_addr, uint16_t port, int type, int backlog)
{
	struct addrinfo hints = {.ai_flags = AI_PASSIVE | AI_NUMERICSERV, .ai_socktype = type};
	struct addrinfo *res = NULL, *ai;
	char portstr[8];
	int fd = -1, ret, one = 1, zero = 0;

	snprintf(portstr, sizeof(portstr), "%u", port);
	/* Without an address, prefer an IPv6 socket that also takes IPv4 (one port for both);
	 * a kernel without IPv6 gives EAFNOSUPPORT and we fall back to IPv4. */
	hints.ai_family = bind_addr ? AF_UNSPEC : AF_INET6;
	ret = getaddrinfo(bind_addr, portstr, &hints, &res);
	if (ret && !bind_addr) {
		hints.ai_family = AF_INET;
		ret = getaddrinfo(NULL, portstr, &hints, &res);
	}
	if (ret)
		return gai_errno(ret);
	ret = -EADDRNOTAVAIL;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0 && !bind_addr && ai->ai_family == AF_INET6 && errno == EAFNOSUPPORT) {
			freeaddrinfo(res);
			res = NULL;
			hints.ai_family = AF_INET;
			if (getaddrinfo(NULL, portstr, &hints, &res))
				return -EAFNOSUPPORT;
			ai = res;
			fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		}
		if (fd < 0) {
			ret = -errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6 && !bind_addr)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    (type != SOCK_STREAM || listen(fd, backlog) == 0)) {
			ret = fd;
			break;
		}
		ret = -errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return ret;
}

int nb_net_connect_fd(int fd, const struct sockaddr *sa, socklen_t len, int timeout_ms)
{
	struct pollfd pfd;
	socklen_t elen = sizeof(int);
	int flags, err = 0, r;

	flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	if (connect(fd, sa, len) < 0) {
		if (errno != EINPROGRESS)
			return -errno;
		pfd.fd = fd;
		pfd.events = POLLOUT;
		do
			r = poll(&pfd, 1, timeout_ms);
		while (r < 0 && errno == EINTR);
		if (r == 0)
			return -ETIMEDOUT;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0 || err)
			return err ? -err : -errno;
	}
	fcntl(fd, F_SETFL, flags);
	return 0;
}

int nb_net_connect_addr(const struct sockaddr *sa, socklen_t len, int type, int timeout_ms)
{
	int fd = socket(sa->sa_family, type | SOCK_CLOEXEC, 0), err;
	if (fd < 0)
		return -errno;
	if ((err = nb_net_connect_fd(fd, sa, len, timeout_ms))) {
		close(fd);
		return err;
	}
	return fd;
}

int nb_net_connect(const char *host, uint16_t port, int family, int type, int timeout_ms)
{
	struct addrinfo hints = {
	    .ai_family = family, .ai_socktype = type, .ai_flags = AI_NUMERICSERV};
	struct addrinfo *res, *ai;
	char portstr[8];
	int ret;

	snprintf(portstr, sizeof(portstr), "%u", port);
	ret = getaddrinfo(host, portstr, &hints, &res);
	if (ret)
		return gai_errno(ret);
	ret = -EHOSTUNREACH;
	for (ai = res; ai; ai = ai->ai_next) {
		ret = nb_net_connect_addr(ai->ai_addr, ai->ai_addrlen, type, timeout_ms);
		if (ret >= 0)
			break;
	}
	freeaddrinfo(res);
	return ret;
}

int nb_net_bind_like(const struct sockaddr *like, int type, uint16_t port)
{
	struct sockaddr_storage ss;
	socklen_t len = nb_net_sa_len(like);
	int fd = socket(like->sa_family, type | SOCK_CLOEXEC, 0), one = 1;

	if (fd < 0)
		return -errno;
	memcpy(&ss, like, len);
	nb_net_set_port((struct sockaddr *)&ss, port);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 64) < 0)) {
		int err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

socklen_t nb_net_sa_len(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

/* An IPv4 address, whether plain or mapped into IPv6 (::ffff:a.b.c.d); 0 if neither. */
static int v4_of(const struct sockaddr *sa, struct in_addr *out)
{
	if (sa->sa_family == AF_INET) {
		*out = ((const struct sockaddr_in *)sa)->sin_addr;
		return 1;
	}
	if (sa->sa_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		if (IN6_IS_ADDR_V4MAPPED(a)) {
			memcpy(out, a->s6_addr + 12, 4);
			return 1;
		}
	}
	return 0;
}

bool nb_net_same_host(const struct sockaddr *a, const struct sockaddr *b)
{
	struct in_addr x, y;
	if (v4_of(a, &x) && v4_of(b, &y))
		return x.s_addr == y.s_addr;
	if (a->sa_family == AF_INET6 && b->sa_family == AF_INET6) {
		const struct sockaddr_in6 *p = (const void *)a, *q = (const void *)b;
		if (memcmp(&p->sin6_addr, &q->sin6_addr, 16))
			return false;
		/* fe80::1 on one link is another host than fe80::1 on the next. */
		if (IN6_IS_ADDR_LINKLOCAL(&p->sin6_addr) || IN6_IS_ADDR_MC_LINKLOCAL(&p->sin6_addr))
			return p->sin6_scope_id == q->sin6_scope_id;
		return true;
	}
	return false;
}

uint16_t nb_net_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	if (sa->sa_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	return 0;
}

void nb_net_set_port(struct sockaddr *sa, uint16_t port)
{
	if (sa->sa_family == AF_INET)
		((struct sockaddr_in *)sa)->sin_port = htons(port);
	else if (sa->sa_family == AF_INET6)
		((struct sockaddr_in6 *)sa)->sin6_port = htons(port);
}

void nb_net_addr_str(const struct sockaddr *sa, bool with_port, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	struct in_addr v4;

	if (v4_of(sa, &v4))
		inet_ntop(AF_INET, &v4, host, sizeof(host));
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, host,
			  sizeof(host));
	if (!with_port)
		snprintf(buf, len, "%s", host);
	else if (sa->sa_family == AF_INET6 && !v4_of(sa, &v4))
		snprintf(buf, len, "[%s]:%u", host, nb_net_port(sa));
	else
		snprintf(buf, len, "%s:%u", host, nb_net_port(sa));
}

int nb_net_set_timeout_ms(int fd, int which, int ms)
{
	struct timeval tv = {.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};
	return setsockopt(fd, SOL_SOCKET, which, &tv, sizeof(tv)) < 0 ? -errno : 0;
}
