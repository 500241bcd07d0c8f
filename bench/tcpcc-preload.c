/* SPDX-License-Identifier: BSD-2-Clause */
/* For bench/tput-vs-iperf3 CC_AT=socket: an LD_PRELOAD library that gives every TCP socket the
 * congestion control named by NB_TCPCC when the socket is created, before any connection or
 * listen, so that both tools start every connection with it (a socket switched after its
 * connection began keeps some of what the default set up). Built by the bench script; not part of
 * netbench. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

int socket(int domain, int type, int protocol)
{
	static int (*real)(int, int, int);
	const char *cc = getenv("NB_TCPCC");
	int fd;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "socket");
	fd = real(domain, type, protocol);
	if (fd >= 0 && cc && *cc && (domain == AF_INET || domain == AF_INET6) &&
	    (type & 0xff) == SOCK_STREAM)
		setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc));
	return fd;
}
