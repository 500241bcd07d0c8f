/* SPDX-License-Identifier: BSD-2-Clause */
/* Sockets for netbench stream: address checks (unicast, or a multicast group in 224.0.0.0/4 or
 * ff00::/8), the receiving socket (bind, ASM join by interface index, SSM join with a source,
 * kernel receive timestamps) and the sending socket (outgoing interface, TTL/hops, loopback). */
#ifndef NB_STREAM_SOCK_H
#define NB_STREAM_SOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct nb_stream_sock_opts {
	const char *addr; /* group, unicast destination, or local address to receive on */
	uint16_t port;
	const char *iface;  /* NULL: the kernel's choice */
	const char *source; /* SSM source; NULL: any-source join */
	int ttl;	    /* multicast TTL / hop limit; -1: the kernel's default (1) */
	bool loop;	    /* deliver our own multicast to local receivers */
	bool reuse;	    /* SO_REUSEADDR: share the port with other receivers on this host */
	int family;	    /* AF_UNSPEC, AF_INET or AF_INET6 */
	/* The agent's side: addr (and source) must be numeric, and dst, when set, is the
	 * destination already resolved and checked: it is used as is, never looked up again. */
	bool numeric_only;
	const struct sockaddr_storage *dst;
};

/* Numeric or host name; the first address of the family. 0 or -EINVAL (err says why). */
int nb_stream_resolve(const char *host, uint16_t port, int family, struct sockaddr_storage *ss,
		      socklen_t *len, char *err, size_t errlen);
/* The agent's lookup: numeric addresses only (a scope such as fe80::1%eth0 is kept). */
int nb_stream_resolve_numeric(const char *host, uint16_t port, struct sockaddr_storage *ss,
			      char *err, size_t errlen);
bool nb_addr_is_multicast(const struct sockaddr *sa);
/* The largest UDP payload for the address family: 65507 (IPv4), 65527 (IPv6). */
size_t nb_udp_max_payload(int family);

/* Checks an option set before any socket is opened: multicast-only options (--ttl, --loop,
 * --source) with a unicast address, an address outside unicast and 224.0.0.0/4 / ff00::/8, an
 * interface that does not exist or has no address of the family. Returns 0, -EINVAL (the
 * options are wrong: a usage error) or -ENODEV / -EADDRNOTAVAIL (this host lacks the interface
 * or its address: a failure) with a one-line reason. sending selects the sender's rules. */
int nb_stream_sock_check(const struct nb_stream_sock_opts *o, bool sending, char *err,
			 size_t errlen);

/* Open, bind and join. -EADDRINUSE when the port is taken. *fd is the socket on success. Only
 * the check above (and a kernel refusing an option as invalid) gives -EINVAL; every other error
 * is the system's (no route, no interface for a join, a port or an address not here). */
int nb_stream_open_recv(const struct nb_stream_sock_opts *o, int *fd, char *err, size_t errlen);
/* Open and connect to addr:port with the multicast options applied. */
int nb_stream_open_send(const struct nb_stream_sock_opts *o, int *fd, char *err, size_t errlen);

#endif
