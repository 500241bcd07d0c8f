/* SPDX-License-Identifier: BSD-2-Clause */
/* nb_path_route_get and nb_path_route on loopback, which every host has: the kernel's own
 * answer (a local route), two questions on one socket, and the path to 127.0.0.1 (lo, no
 * gateway). */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/netpath.h"
#include "tap.h"

static struct sockaddr_in v4(const char *a)
{
	struct sockaddr_in s = {.sin_family = AF_INET};
	inet_pton(AF_INET, a, &s.sin_addr);
	return s;
}

int main(void)
{
	char buf[4096];
	struct sockaddr_in a = v4("127.0.0.1"), b = v4("127.0.0.2");
	int nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	CHECK(nl >= 0, "an rtnetlink socket: %s", nl < 0 ? strerror(errno) : "ok");
	int ret = nb_path_route_get(nl, (struct sockaddr *)&a, 1, buf, sizeof(buf));
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	CHECK(ret > 0 && nh->nlmsg_type == RTM_NEWROUTE && nh->nlmsg_seq == 1 &&
		  ((struct rtmsg *)NLMSG_DATA(nh))->rtm_type == RTN_LOCAL,
	      "127.0.0.1: a local route (ret %d)", ret);
	/* The same socket asked again: the answer with the new sequence number. */
	ret = nb_path_route_get(nl, (struct sockaddr *)&b, 7, buf, sizeof(buf));
	CHECK(ret > 0 && nh->nlmsg_seq == 7 &&
		  ((struct rtmsg *)NLMSG_DATA(nh))->rtm_type == RTN_LOCAL,
	      "127.0.0.2 on the same socket: local too (ret %d)", ret);
	close(nl);

	struct nb_path p;
	ret = nb_path_route((struct sockaddr *)&a, &p);
	CHECK(ret == 0 && !strcmp(p.ifname, "lo") && p.ifindex > 0,
	      "route to 127.0.0.1: lo (%s, ret %d)", p.ifname, ret);
	CHECK(p.nexthop.ss_family == AF_INET &&
		  ((struct sockaddr_in *)&p.nexthop)->sin_addr.s_addr == a.sin_addr.s_addr,
	      "no gateway: the next hop is the destination itself");
	return tap_done();
}
