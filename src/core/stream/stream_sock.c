/* SPDX-License-Identifier: BSD-2-Clause */
/* Socket set-up for streams: every rejection is decided here, once, with a reason a user can act
 * on, before traffic starts. */
#include "core/stream/stream_sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/compat.h"

static int resolve(const char *host, uint16_t port, int family, int flags,
		   struct sockaddr_storage *ss, socklen_t *len, char *err, size_t errlen);

int nb_stream_resolve(const char *host, uint16_t port, int family, struct sockaddr_storage *ss,
		      socklen_t *len, char *err, size_t errlen)
{
	return resolve(host, port, family, 0, ss, len, err, errlen);
}

int nb_stream_resolve_numeric(const char *host, uint16_t port, struct sockaddr_storage *ss,
			      char *err, size_t errlen)
{
	socklen_t len;
	return resolve(host, port, AF_UNSPEC, AI_NUMERICHOST, ss, &len, err, errlen);
}

/* The address of an option set: the checked one when given, else addr looked up (numerically
 * only on the agent). */
static int opts_addr(const struct nb_stream_sock_opts *o, const char *host, uint16_t port,
		     int family, struct sockaddr_storage *ss, socklen_t *len, char *err,
		     size_t errlen)
{
	if (o->dst && host == o->addr) {
		memcpy(ss, o->dst, sizeof(*ss));
		*len = o->dst->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
						     : sizeof(struct sockaddr_in);
		return 0;
	}
	return resolve(host, port, family, o->numeric_only ? AI_NUMERICHOST : 0, ss, len, err,
		       errlen);
}

static int resolve(const char *host, uint16_t port, int family, int flags,
		   struct sockaddr_storage *ss, socklen_t *len, char *err, size_t errlen)
{
	struct addrinfo hints, *res = NULL;
	char service[8];
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_flags = AI_NUMERICSERV | flags;
	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc != 0 || !res) {
		if (flags & AI_NUMERICHOST)
			snprintf(err, errlen,
				 "'%s' is not a numeric address (the agent looks up no names)",
				 host);
		else
			snprintf(err, errlen,
				 "'%s' is not an address or a host name this host can resolve",
				 host);
		if (res)
			freeaddrinfo(res);
		return -EINVAL;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = (socklen_t)res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

bool nb_addr_is_multicast(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET) {
		uint32_t a = ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr);
		return (a >> 28) == 0xe;
	}
	if (sa->sa_family == AF_INET6)
		return IN6_IS_ADDR_MULTICAST(&((const struct sockaddr_in6 *)sa)->sin6_addr);
	return false;
}

size_t nb_udp_max_payload(int family)
{
	return family == AF_INET6 ? 65527u : 65507u;
}

/* 240.0.0.0/4 (reserved) and the limited broadcast address can be neither group nor peer. */
static bool v4_reserved(const struct sockaddr *sa)
{
	uint32_t a = ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr);
	return sa->sa_family == AF_INET && (a >> 28) == 0xf;
}

static bool is_any(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_addr.s_addr == htonl(INADDR_ANY);
	return IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

/* Finds an address of family on the interface: 0, or -EADDRNOTAVAIL. */
static int iface_addr(const char *iface, int family, struct sockaddr_storage *out)
{
	struct ifaddrs *ifa = NULL, *i;
	int ret = -EADDRNOTAVAIL;

	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == family &&
		    !strcmp(i->ifa_name, iface)) {
			if (out)
				memcpy(out, i->ifa_addr,
				       family == AF_INET ? sizeof(struct sockaddr_in)
							 : sizeof(struct sockaddr_in6));
			ret = 0;
			break;
		}
	freeifaddrs(ifa);
	return ret;
}

static const char *fam_name(int family)
{
	return family == AF_INET6 ? "IPv6" : "IPv4";
}

int nb_stream_sock_check(const struct nb_stream_sock_opts *o, bool sending, char *err,
			 size_t errlen)
{
	struct sockaddr_storage ss, src;
	socklen_t len, srclen;
	const struct sockaddr *sa = (const struct sockaddr *)&ss;
	bool mc;
	int ret;

	ret = opts_addr(o, o->addr, o->port, o->family, &ss, &len, err, errlen);
	if (ret < 0)
		return ret;
	mc = nb_addr_is_multicast(sa);
	if (v4_reserved(sa)) {
		snprintf(err, errlen,
			 "-a %s is neither a unicast address nor a multicast group in 224.0.0.0/4",
			 o->addr);
		return -EINVAL;
	}
	if (!mc) {
		const char *opt = o->source	? "--source"
				  : o->ttl >= 0 ? "--ttl"
				  : o->loop	? "--loop"
						: NULL;
		if (opt) {
			snprintf(err, errlen,
				 "%s applies to multicast only, and -a %s is not a multicast group "
				 "(224.0.0.0/4 or ff00::/8)",
				 opt, o->addr);
			return -EINVAL;
		}
		if (sending && is_any(sa)) {
			snprintf(err, errlen, "-a %s: cannot send to the unspecified address",
				 o->addr);
			return -EINVAL;
		}
	}
	if (o->source) {
		ret = opts_addr(o, o->source, 0, ss.ss_family, &src, &srclen, err, errlen);
		if (ret < 0) {
			snprintf(err, errlen, "--source %s is not an %s address", o->source,
				 fam_name(ss.ss_family));
			return ret;
		}
		if (nb_addr_is_multicast((struct sockaddr *)&src) ||
		    is_any((struct sockaddr *)&src)) {
			snprintf(err, errlen, "--source %s must be a unicast sender address",
				 o->source);
			return -EINVAL;
		}
		if (sending) {
			snprintf(err, errlen, "--source is for receivers (a source-specific join)");
			return -EINVAL;
		}
	}
	if (o->iface) {
		if (!if_nametoindex(o->iface)) {
			snprintf(err, errlen, "--iface %s: no such network interface", o->iface);
			return -ENODEV;
		}
		if (iface_addr(o->iface, ss.ss_family, NULL) < 0) {
			snprintf(err, errlen, "--iface %s has no %s address", o->iface,
				 fam_name(ss.ss_family));
			return -EADDRNOTAVAIL;
		}
	}
	return 0;
}

static int sockopt(int fd, int level, int name, const void *v, socklen_t len, const char *what,
		   char *err, size_t errlen)
{
	if (setsockopt(fd, level, name, v, len) < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", what, strerror(e));
		return -e;
	}
	return 0;
}

static int join(int fd, const struct nb_stream_sock_opts *o, const struct sockaddr_storage *grp,
		unsigned ifindex, char *err, size_t errlen)
{
	struct sockaddr_storage src;
	socklen_t srclen;
	int ret;

	if (o->source) {
		ret = opts_addr(o, o->source, 0, grp->ss_family, &src, &srclen, err, errlen);
		if (ret < 0)
			return ret;
	}
	if (grp->ss_family == AF_INET) {
		const struct sockaddr_in *g = (const struct sockaddr_in *)grp;
		if (o->source) {
			/* ip_mreq_source names the interface by address, not index. */
			struct ip_mreq_source m;
			struct sockaddr_storage ifa;
			memset(&m, 0, sizeof(m));
			m.imr_multiaddr = g->sin_addr;
			m.imr_sourceaddr = ((struct sockaddr_in *)&src)->sin_addr;
			m.imr_interface.s_addr = htonl(INADDR_ANY);
			if (o->iface && iface_addr(o->iface, AF_INET, &ifa) == 0)
				m.imr_interface = ((struct sockaddr_in *)&ifa)->sin_addr;
			return sockopt(fd, IPPROTO_IP, IP_ADD_SOURCE_MEMBERSHIP, &m, sizeof(m),
				       "source-specific join (IP_ADD_SOURCE_MEMBERSHIP)", err,
				       errlen);
		} else {
			struct ip_mreqn m;
			memset(&m, 0, sizeof(m));
			m.imr_multiaddr = g->sin_addr;
			m.imr_ifindex = (int)ifindex;
			return sockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m, sizeof(m),
				       "join (IP_ADD_MEMBERSHIP)", err, errlen);
		}
	}
	if (o->source) {
		struct group_source_req r;
		memset(&r, 0, sizeof(r));
		r.gsr_interface = ifindex;
		memcpy(&r.gsr_group, grp, sizeof(struct sockaddr_in6));
		memcpy(&r.gsr_source, &src, sizeof(struct sockaddr_in6));
		return sockopt(fd, IPPROTO_IPV6, MCAST_JOIN_SOURCE_GROUP, &r, sizeof(r),
			       "source-specific join (MCAST_JOIN_SOURCE_GROUP)", err, errlen);
	} else {
		struct ipv6_mreq m;
		memset(&m, 0, sizeof(m));
		m.ipv6mr_multiaddr = ((const struct sockaddr_in6 *)grp)->sin6_addr;
		m.ipv6mr_interface = ifindex;
		return sockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &m, sizeof(m),
			       "join (IPV6_JOIN_GROUP)", err, errlen);
	}
}

/* What both ends do first: check the options, resolve the address, find the interface, open a
 * datagram socket (*fd, -1 on failure). */
static int open_udp(const struct nb_stream_sock_opts *o, bool sender, struct sockaddr_storage *ss,
		    socklen_t *len, unsigned *ifindex, int *fd, char *err, size_t errlen)
{
	int ret = nb_stream_sock_check(o, sender, err, errlen);
	if (ret < 0)
		return ret;
	ret = opts_addr(o, o->addr, o->port, o->family, ss, len, err, errlen);
	if (ret < 0)
		return ret;
	if (o->iface)
		*ifindex = if_nametoindex(o->iface);
	*fd = socket(ss->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (*fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return ret;
	}
	return 0;
}

static int bind_device(int fd, const char *iface, char *err, size_t errlen)
{
	return sockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, iface, (socklen_t)strlen(iface) + 1,
		       "SO_BINDTODEVICE", err, errlen);
}

/* A multicast sender's options, in either family: the interface, the TTL (hop limit), loopback.
 * A link-local IPv6 group gets the interface as its scope. */
static int send_multicast(int fd, const struct nb_stream_sock_opts *o, struct sockaddr_storage *ss,
			  unsigned ifindex, char *err, size_t errlen)
{
	bool v4 = ss->ss_family == AF_INET;
	int level = v4 ? IPPROTO_IP : IPPROTO_IPV6, idx = (int)ifindex, loop = o->loop ? 1 : 0;
	struct ip_mreqn m;
	int ret;

	memset(&m, 0, sizeof(m));
	m.imr_ifindex = idx;
	if (ifindex && (ret = v4 ? sockopt(fd, level, IP_MULTICAST_IF, &m, sizeof(m),
					   "IP_MULTICAST_IF", err, errlen)
				 : sockopt(fd, level, IPV6_MULTICAST_IF, &idx, sizeof(idx),
					   "IPV6_MULTICAST_IF", err, errlen)) < 0)
		return ret;
	if (o->ttl >= 0 &&
	    (ret = sockopt(fd, level, v4 ? IP_MULTICAST_TTL : IPV6_MULTICAST_HOPS, &o->ttl,
			   sizeof(int), v4 ? "IP_MULTICAST_TTL" : "IPV6_MULTICAST_HOPS", err,
			   errlen)) < 0)
		return ret;
	if (!v4 && IN6_IS_ADDR_MC_LINKLOCAL(&((struct sockaddr_in6 *)ss)->sin6_addr))
		((struct sockaddr_in6 *)ss)->sin6_scope_id = ifindex;
	return sockopt(fd, level, v4 ? IP_MULTICAST_LOOP : IPV6_MULTICAST_LOOP, &loop, sizeof(loop),
		       v4 ? "IP_MULTICAST_LOOP" : "IPV6_MULTICAST_LOOP", err, errlen);
}

/* The end of opening a socket: fd into *fd_out when ret is 0, else closed (when open) and ret
 * returned. */
static int keep_fd(int *fd_out, int fd, int ret)
{
	if (ret < 0) {
		if (fd >= 0)
			close(fd);
		return ret;
	}
	*fd_out = fd;
	return 0;
}

int nb_stream_open_recv(const struct nb_stream_sock_opts *o, int *fd_out, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	unsigned ifindex = 0;
	int fd = -1, one = 1, zero = 0, buf = 4 << 20, ret;
	bool mc;

	ret = open_udp(o, false, &ss, &len, &ifindex, &fd, err, errlen);
	if (ret < 0)
		goto out;
	mc = nb_addr_is_multicast((struct sockaddr *)&ss);
	if (o->reuse && (ret = sockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one),
				       "SO_REUSEADDR", err, errlen)) < 0)
		goto out;
	/* A large buffer absorbs scheduling delays of the receiving thread; SO_RCVBUFFORCE
	 * passes rmem_max when we may, otherwise the kernel clamps SO_RCVBUF. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	(void)setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	if (mc) {
		/* Without this, Linux delivers every group any socket on the host joined. */
		if (ss.ss_family == AF_INET)
			(void)setsockopt(fd, IPPROTO_IP, IP_MULTICAST_ALL, &zero, sizeof(zero));
		if (ss.ss_family == AF_INET6 &&
		    IN6_IS_ADDR_MC_LINKLOCAL(&((struct sockaddr_in6 *)&ss)->sin6_addr))
			((struct sockaddr_in6 *)&ss)->sin6_scope_id = ifindex;
	} else if (o->iface && (ret = bind_device(fd, o->iface, err, errlen)) < 0) {
		goto out;
	}
	/* Binding to the group itself receives only that group on the port. */
	if (bind(fd, (struct sockaddr *)&ss, len) < 0) {
		ret = -errno;
		if (ret == -EADDRINUSE)
			snprintf(err, errlen,
				 "-p %u: port in use on %s (another receiver holds it)", o->port,
				 o->addr);
		else if (ret == -EADDRNOTAVAIL)
			snprintf(err, errlen, "-a %s is not an address of this host", o->addr);
		else
			snprintf(err, errlen, "bind %s port %u: %s", o->addr, o->port,
				 strerror(-ret));
		goto out;
	}
	if (mc && (ret = join(fd, o, &ss, ifindex, err, errlen)) < 0)
		goto out;
	ret = 0;
out:
	return keep_fd(fd_out, fd, ret);
}

int nb_stream_open_send(const struct nb_stream_sock_opts *o, int *fd_out, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	unsigned ifindex = 0;
	int fd = -1, ret, buf = 1 << 20;

	ret = open_udp(o, true, &ss, &len, &ifindex, &fd, err, errlen);
	if (ret < 0)
		goto out;
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	if (nb_addr_is_multicast((struct sockaddr *)&ss)) {
		ret = send_multicast(fd, o, &ss, ifindex, err, errlen);
		if (ret < 0)
			goto out;
	} else if (o->iface && (ret = bind_device(fd, o->iface, err, errlen)) < 0) {
		goto out;
	}
	if (connect(fd, (struct sockaddr *)&ss, len) < 0) {
		ret = -errno;
		snprintf(err, errlen, "no route to %s: %s", o->addr, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	return keep_fd(fd_out, fd, ret);
}
