/* SPDX-License-Identifier: BSD-2-Clause */
/* Route and neighbour look-ups for the test-frame engines. The route comes from one
 * RTM_GETROUTE request (what `ip route get` does); the neighbour from /proc/net/arp (IPv4, which
 * every kernel has) or an RTM_GETNEIGH dump (IPv6), after a datagram to the next hop made the
 * kernel resolve it. */
#include "core/base/netpath.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <linux/netlink.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "core/base/nldump.h"
#include "core/base/timeutil.h"

static int addr_len(int family)
{
	return family == AF_INET6 ? 16 : 4;
}

static void set_addr(struct sockaddr_storage *ss, int family, const void *a)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
		s6->sin6_family = AF_INET6;
		memcpy(&s6->sin6_addr, a, 16);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
		s4->sin_family = AF_INET;
		memcpy(&s4->sin_addr, a, 4);
	}
}

static const void *raw_addr(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET6)
		return &((const struct sockaddr_in6 *)sa)->sin6_addr;
	return &((const struct sockaddr_in *)sa)->sin_addr;
}

static int iface_facts(struct nb_path *p)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	if (!if_indextoname((unsigned)p->ifindex, p->ifname)) {
		ret = -errno;
		goto out;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->ifname);
	if (ioctl(fd, SIOCGIFMTU, &ifr) == 0)
		p->mtu = (uint32_t)ifr.ifr_mtu;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) == 0)
		memcpy(p->src_mac, ifr.ifr_hwaddr.sa_data, 6);
out:
	close(fd);
	return ret;
}

int nb_path_route_get(int nl, const struct sockaddr *dst, uint32_t seq, void *buf, size_t len)
{
	struct {
		struct nlmsghdr nh;
		struct rtmsg rt;
		char attrs[64];
	} req;
	struct rtattr *rta;
	int alen = addr_len(dst->sa_family);
	ssize_t n;

	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.nh.nlmsg_type = RTM_GETROUTE;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.nh.nlmsg_seq = seq;
	req.rt.rtm_family = (unsigned char)dst->sa_family;
	req.rt.rtm_dst_len = (unsigned char)(alen * 8);
	rta = (struct rtattr *)((char *)&req + NLMSG_ALIGN(req.nh.nlmsg_len));
	rta->rta_type = RTA_DST;
	rta->rta_len = (unsigned short)RTA_LENGTH(alen);
	memcpy(RTA_DATA(rta), raw_addr(dst), (size_t)alen);
	req.nh.nlmsg_len = NLMSG_ALIGN(req.nh.nlmsg_len) + RTA_ALIGN(rta->rta_len);
	if (send(nl, &req, req.nh.nlmsg_len, 0) < 0)
		return -errno;
	/* Replies to earlier requests on the same socket are passed over by their sequence. */
	for (;;) {
		n = recv(nl, buf, len, 0);
		if (n < 0)
			return -errno;
		for (struct nlmsghdr *nh = buf; NLMSG_OK(nh, (unsigned)n); nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_seq != seq)
				continue;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nh);
				return e->error ? e->error : -EIO;
			}
			if (nh->nlmsg_type == RTM_NEWROUTE) {
				if ((void *)nh != buf)
					memmove(buf, nh, nh->nlmsg_len);
				return (int)nh->nlmsg_len;
			}
		}
	}
}

int nb_path_route(const struct sockaddr *dst, struct nb_path *path)
{
	char buf[4096];
	struct rtattr *rta;
	int fd, ret, family = dst->sa_family;
	bool have_gw = false;

	memset(path, 0, sizeof(*path));
	path->family = family;
	fd = nb_nl_socket();
	if (fd < 0)
		return fd;
	ret = nb_path_route_get(fd, dst, 1, buf, sizeof(buf));
	close(fd);
	if (ret < 0)
		return ret;
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct rtmsg *rt = NLMSG_DATA(nh);
	int len = (int)RTM_PAYLOAD(nh);
	if (rt->rtm_type == RTN_UNREACHABLE || rt->rtm_type == RTN_BLACKHOLE ||
	    rt->rtm_type == RTN_PROHIBIT)
		return -ENETUNREACH;
	for (rta = RTM_RTA(rt); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type == RTA_OIF)
			memcpy(&path->ifindex, RTA_DATA(rta), sizeof(int));
		else if (rta->rta_type == RTA_PREFSRC)
			set_addr(&path->src, family, RTA_DATA(rta));
		else if (rta->rta_type == RTA_GATEWAY) {
			set_addr(&path->nexthop, family, RTA_DATA(rta));
			have_gw = true;
		}
	}
	if (!path->ifindex)
		return -ENETUNREACH;
	if (!have_gw)
		set_addr(&path->nexthop, family, raw_addr(dst));
	return iface_facts(path);
}

/* Looks the next hop up in /proc/net/arp: complete entries only (flags 0x2). */
static int arp_lookup(const struct nb_path *p, uint8_t mac[6])
{
	char line[256], ip[64], hw[64], dev[64], want[INET_ADDRSTRLEN];
	unsigned type, flags, m[6];
	FILE *f = fopen("/proc/net/arp", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	inet_ntop(AF_INET, raw_addr((const struct sockaddr *)&p->nexthop), want, sizeof(want));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s 0x%x 0x%x %63s %*s %63s", ip, &type, &flags, hw, dev) != 5)
			continue;
		if (strcmp(ip, want) || strcmp(dev, p->ifname) || !(flags & 0x2))
			continue;
		if (sscanf(hw, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]) != 6)
			continue;
		for (int i = 0; i < 6; i++)
			mac[i] = (uint8_t)m[i];
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/* IPv6 has no /proc table: one RTM_GETNEIGH dump (nldump.c) of the interface's IPv6
 * neighbours, taking the next hop's entry when it holds a usable link-layer address (not
 * INCOMPLETE or FAILED). */
struct ndisc {
	const struct nb_path *p;
	const uint8_t *want;
	uint8_t *mac;
	bool found;
};

static int ndisc_msg(void *arg, const void *hdr, const void *attrs, size_t alen)
{
	const struct ndmsg *nd = hdr;
	struct ndisc *q = arg;
	const uint8_t *dst = NULL, *ll = NULL;

	if (q->found || nd->ndm_ifindex != q->p->ifindex ||
	    nd->ndm_state & (NUD_INCOMPLETE | NUD_FAILED | NUD_NONE))
		return 0;
	for (const struct rtattr *a = attrs; RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
		if (a->rta_type == NDA_DST && RTA_PAYLOAD(a) == 16)
			dst = RTA_DATA(a);
		else if (a->rta_type == NDA_LLADDR && RTA_PAYLOAD(a) == 6)
			ll = RTA_DATA(a);
	}
	if (dst && ll && !memcmp(dst, q->want, 16)) {
		memcpy(q->mac, ll, 6);
		q->found = true;
	}
	return 0;
}

static int ndisc_chunk(void *arg, const void *buf, size_t len)
{
	return nb_nl_walk(buf, len, RTM_NEWNEIGH, sizeof(struct ndmsg), ndisc_msg, arg);
}

static int ndisc_lookup(const struct nb_path *p, uint8_t mac[6])
{
	struct ndmsg nd = {.ndm_family = AF_INET6};
	struct ndisc q = {p, raw_addr((const struct sockaddr *)&p->nexthop), mac, false};
	int ret = nb_nl_dump(RTM_GETNEIGH, &nd, sizeof(nd), ndisc_chunk, &q);

	return q.found ? 0 : ret ? ret : -ENOENT;
}

static int neigh_lookup(const struct nb_path *p, uint8_t mac[6])
{
	return p->family == AF_INET6 ? ndisc_lookup(p, mac) : arp_lookup(p, mac);
}

int nb_path_resolve_mac(struct nb_path *path, int wait_ms)
{
	struct sockaddr_storage to;
	uint64_t deadline = nb_mono_ns() + (uint64_t)wait_ms * NB_NS_PER_MS;
	int fd, ret;

	if (path->family != AF_INET && path->family != AF_INET6)
		return -EAFNOSUPPORT;
	ret = neigh_lookup(path, path->nexthop_mac);
	if (ret == 0)
		return 0;
	/* A datagram to the next hop's discard port makes the kernel send an ARP request or a
	 * neighbour solicitation; what the datagram itself meets does not matter. */
	memcpy(&to, &path->nexthop, sizeof(to));
	if (path->family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&to;
		s6->sin6_port = htons(9);
		/* A link-local gateway is reachable only through its interface. */
		s6->sin6_scope_id = (uint32_t)path->ifindex;
	} else {
		((struct sockaddr_in *)&to)->sin_port = htons(9);
	}
	fd = socket(path->family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	do {
		(void)sendto(fd, "", 0, MSG_DONTWAIT, (struct sockaddr *)&to,
			     path->family == AF_INET6 ? sizeof(struct sockaddr_in6)
						      : sizeof(struct sockaddr_in));
		for (int i = 0; i < 10; i++) {
			struct timespec ts = {0, 10 * 1000 * 1000};
			nanosleep(&ts, NULL);
			if (neigh_lookup(path, path->nexthop_mac) == 0) {
				ret = 0;
				goto out;
			}
		}
	} while (nb_mono_ns() < deadline);
	ret = -EHOSTUNREACH;
out:
	close(fd);
	return ret;
}
