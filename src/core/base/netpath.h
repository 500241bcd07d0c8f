/* SPDX-License-Identifier: BSD-2-Clause */
/* Where a destination is reached: the route the kernel would take (egress interface, gateway,
 * preferred source, MTU) from an rtnetlink query, and the next hop's MAC address from the
 * neighbour table, resolved first when it is not there yet. */
#ifndef NB_NETPATH_H
#define NB_NETPATH_H

#include <net/if.h>
#include <stdint.h>
#include <sys/socket.h>

struct nb_path {
	int family;
	int ifindex;
	char ifname[IF_NAMESIZE];
	uint32_t mtu;
	struct sockaddr_storage src;	 /* preferred source address (port 0) */
	struct sockaddr_storage nexthop; /* gateway, or the destination itself when on-link */
	uint8_t src_mac[6], nexthop_mac[6];
};

/* The kernel's answer to one RTM_GETROUTE for dst (what `ip route get` does) on the rtnetlink
 * socket nl, with sequence number seq: its RTM_NEWROUTE reply copied to the start of buf (len
 * bytes, 4096 is plenty), whose length it returns; or the kernel's error (-ENETUNREACH,
 * -EHOSTUNREACH: no route) or another negative errno. One socket may ask again and again. */
int nb_path_route_get(int nl, const struct sockaddr *dst, uint32_t seq, void *buf, size_t len);
/* Asks the kernel for the route to dst. Returns 0, -ENETUNREACH when there is none, or another
 * negative errno. */
int nb_path_route(const struct sockaddr *dst, struct nb_path *path);
/* Fills nexthop_mac from the IPv4 or IPv6 neighbour table, first provoking resolution with a
 * datagram to the next hop's discard port and waiting up to wait_ms. Returns 0, -EHOSTUNREACH
 * when the neighbour stays unresolved, or another negative errno. */
int nb_path_resolve_mac(struct nb_path *path, int wait_ms);

#endif
