/* SPDX-License-Identifier: BSD-2-Clause */
/* The destination side of spread flows (--flow-fields dst-ip): whether every address of the
 * range is this host's own, checked where the receiver runs (its namespace, or the agent's
 * host) before it counts anything, so a receiver never takes frames meant for another host and
 * a generator never sends outside what the receiver owns. */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/net.h"
#include "core/base/nldump.h"
#include "core/base/netpath.h"
#include "core/rate/flows.h"

/* The kernel's route type for a (nb_path_route_get): RTN_LOCAL for an address of this host (an
 * interface's, or one a local route gives it); or -errno. */
static int route_type(int nl, const struct sockaddr_storage *a, uint32_t seq)
{
	char buf[4096];
	int ret = nb_path_route_get(nl, (const struct sockaddr *)a, seq, buf, sizeof(buf));

	if (ret == -ENETUNREACH || ret == -EHOSTUNREACH)
		return RTN_UNREACHABLE; /* no route at all: not this host's either */
	if (ret < 0)
		return ret;
	return ((struct rtmsg *)NLMSG_DATA((struct nlmsghdr *)buf))->rtm_type;
}

int nb_flow_dst_owned(const struct sockaddr_storage *first, uint32_t n, char *err, size_t errlen)
{
	struct sockaddr_storage a = *first;
	char s[64];
	int nl, ret = 0;

	if (first->ss_family != AF_INET && first->ss_family != AF_INET6)
		return -EAFNOSUPPORT;
	if (nb_flow_range_wraps(first, n)) {
		nb_net_addr_str((const struct sockaddr *)first, false, s, sizeof(s));
		snprintf(err, errlen, "%u destination addresses from %s run past the address space",
			 n, s);
		return -ERANGE;
	}
	nl = nb_nl_socket();
	if (nl < 0) {
		snprintf(err, errlen, "destination check: netlink socket: %s", strerror(-nl));
		return nl;
	}
	/* The kernel's own answer for each address: local (delivered to this host), or not
	 * (forwarded, a broadcast, a group, unreachable). */
	for (uint32_t k = 0; k < n && !ret; k++, nb_flow_addr_add(&a, 1)) {
		int t = route_type(nl, &a, k + 1);
		if (t < 0) {
			ret = t;
			snprintf(err, errlen, "destination check: route look-up: %s", strerror(-t));
		} else if (t != RTN_LOCAL) {
			nb_net_addr_str((struct sockaddr *)&a, false, s, sizeof(s));
			snprintf(err, errlen,
				 "refused by rule bind: destination %s (flow %u) is not an address "
				 "of the receiving host",
				 s, k);
			ret = -EADDRNOTAVAIL;
		}
	}
	close(nl);
	return ret;
}

bool nb_flow_range_wraps(const struct sockaddr_storage *first, uint32_t n)
{
	const uint8_t *p = first->ss_family == AF_INET6
			       ? ((const struct sockaddr_in6 *)first)->sin6_addr.s6_addr + 12
			       : (const uint8_t *)&((const struct sockaddr_in *)first)->sin_addr;
	uint64_t lo = (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3];
	return n && lo + n - 1 > 0xffffffffu;
}

void nb_flow_dst_any(struct sockaddr_storage *addr)
{
	if (addr->ss_family == AF_INET6)
		memset(&((struct sockaddr_in6 *)addr)->sin6_addr, 0, 16);
	else
		((struct sockaddr_in *)addr)->sin_addr.s_addr = htonl(INADDR_ANY);
}
