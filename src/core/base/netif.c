/* SPDX-License-Identifier: BSD-2-Clause */
/* Which network interface owns an address (see netif.h), from getifaddrs(3). */
#include "core/base/netif.h"

#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int nb_net_iface_of(const struct sockaddr *addr, char *name, size_t len)
{
	struct ifaddrs *all, *i;
	struct sockaddr_in v4;
	const struct sockaddr_in6 *a6 = NULL;
	int ret = -ENOENT;

	memset(&v4, 0, sizeof(v4));
	if (addr->sa_family == AF_INET) {
		memcpy(&v4, addr, sizeof(v4));
	} else if (addr->sa_family == AF_INET6) {
		a6 = (const struct sockaddr_in6 *)addr;
		if (IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr)) {
			v4.sin_family = AF_INET;
			memcpy(&v4.sin_addr, a6->sin6_addr.s6_addr + 12, 4);
			a6 = NULL;
		}
	} else {
		return -EAFNOSUPPORT;
	}
	if (getifaddrs(&all) < 0)
		return -errno;
	for (i = all; i; i = i->ifa_next) {
		bool match = false;
		if (!i->ifa_addr || !i->ifa_name)
			continue;
		if (!a6 && i->ifa_addr->sa_family == AF_INET) {
			const struct sockaddr_in *x = (const struct sockaddr_in *)i->ifa_addr;
			match = x->sin_addr.s_addr == v4.sin_addr.s_addr;
		} else if (a6 && i->ifa_addr->sa_family == AF_INET6) {
			const struct sockaddr_in6 *x = (const struct sockaddr_in6 *)i->ifa_addr;
			match = !memcmp(&x->sin6_addr, &a6->sin6_addr, sizeof(x->sin6_addr));
			/* fe80::1 may be on every link: the scope says which. */
			if (match && IN6_IS_ADDR_LINKLOCAL(&a6->sin6_addr) && a6->sin6_scope_id)
				match = if_nametoindex(i->ifa_name) == a6->sin6_scope_id;
		}
		if (match) {
			ret = (size_t)snprintf(name, len, "%s", i->ifa_name) < len ? 0
										   : -ENAMETOOLONG;
			break;
		}
	}
	freeifaddrs(all);
	return ret;
}
