/* SPDX-License-Identifier: BSD-2-Clause */
/* The sockets of a receiver that counts a range of destination ports (rate --flow-fields
 * dport): one UDP socket a port, none shared, and descriptors enough for them. The receiving
 * threads that read them are raterx.c's. */
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/net.h"
#include "core/rate/raterx.h"

int nb_rx_bind_ports(const struct sockaddr *addr, uint32_t n, int *fds)
{
	struct sockaddr_storage a;
	struct rlimit rl;
	uint32_t opened = 0, port;
	int ret = 0, one = 1;

	memcpy(&a, addr, nb_net_sa_len(addr));
	port = ntohs(addr->sa_family == AF_INET6 ? ((const struct sockaddr_in6 *)addr)->sin6_port
						 : ((const struct sockaddr_in *)addr)->sin_port);
	if (!n || n > NB_RX_FLOWS || !port || port + n - 1 > 65535)
		return -EINVAL;
	/* One descriptor a port: a range of 1024 needs more than the usual soft limit. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)n + 256) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (rlim_t)n + 256
				  ? (rlim_t)n + 256
				  : rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (; opened < n; opened++) {
		int fd = socket(addr->sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		if (addr->sa_family == AF_INET6) {
			((struct sockaddr_in6 *)&a)->sin6_port = htons((uint16_t)(port + opened));
			if (IN6_IS_ADDR_UNSPECIFIED(&((struct sockaddr_in6 *)&a)->sin6_addr))
				(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		} else {
			((struct sockaddr_in *)&a)->sin_port = htons((uint16_t)(port + opened));
		}
		/* No SO_REUSEADDR: no port of the range is shared with another socket. */
		if (bind(fd, (struct sockaddr *)&a, nb_net_sa_len((struct sockaddr *)&a)) < 0) {
			ret = -errno;
			close(fd);
			break;
		}
		fds[opened] = fd;
	}
	if (ret) {
		while (opened)
			close(fds[--opened]);
		return ret;
	}
	return (int)n;
}
