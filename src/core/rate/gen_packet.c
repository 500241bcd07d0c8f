/* SPDX-License-Identifier: BSD-2-Clause */
/* The `packet` engine: whole Ethernet/IPv4/UDP or Ethernet/IPv6/UDP frames written into an
 * AF_PACKET TX ring (TPACKET_V2) and flushed with one send() per batch; PACKET_QDISC_BYPASS skips
 * the qdisc as trafgen does. The next hop's MAC comes from the neighbour table. Needs CAP_NET_RAW.
 */
/* libc's <net/ethernet.h> before the kernel's headers: musl's then tells them (__UAPI_DEF_ETHHDR)
 * that struct ethhdr is already defined. */
#include <net/ethernet.h>

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/compat.h"
#include "core/base/net.h"
#include "core/base/netpath.h"
#include "core/rate/flows.h"
#include "core/rate/frame.h"
#include "core/rate/gen.h"
#include "core/base/timeutil.h"

/* 4096 slots: enough to keep the device busy between flushes, few enough that a frame does not
 * wait long in the ring after its timestamp was written. */
#define RING_SLOTS  4096u
#define VNET_BYTES  ((uint32_t)sizeof(struct virtio_net_hdr))
#define RING_BLOCKS 8u

struct packet_state {
	int fd;
	uint8_t *ring;
	size_t ring_bytes;
	uint32_t frame_slot_bytes, slots, head;
	uint32_t flows, flow_base, frame_len;
	uint16_t trial;
	uint32_t probe_every;
	bool bypass, vnet;
	struct nb_path path;
	int family;
	struct nb_frame_ip4 hdr;
	struct nb_frame_ip6 hdr6;
	bool src_spread, sport_fixed; /* flows by source address; one source port for all */
	bool dst_spread;	      /* flows by destination address, from the receiver's */
	bool dport_spread;	      /* flows by destination port, from the receiver's */
	struct sockaddr_storage src_first, dst_first;
	uint8_t *tmpl; /* one built frame per flow */
	size_t tmpl_stride;
};

static void packet_close(void *p)
{
	struct packet_state *s = p;
	if (!s)
		return;
	if (s->ring && s->ring != MAP_FAILED)
		munmap(s->ring, s->ring_bytes);
	if (s->fd >= 0)
		close(s->fd);
	free(s->tmpl);
	free(s);
}

static uint32_t pow2_at_least(uint32_t v)
{
	uint32_t p = 64;
	while (p < v)
		p <<= 1;
	return p;
}

/* Flows by destination address share one next hop (its MAC is in every template): the range
 * must be routed through a gateway, the same for its first and last address, not on the
 * link, where each address would be a neighbour of its own. */
static int same_next_hop(const struct nb_gen_cfg *cfg, const struct nb_path *first, char *err,
			 size_t errlen)
{
	struct sockaddr_storage last = cfg->dst;
	struct nb_path lp;
	char a[64], b[64];

	nb_flow_addr_add(&last, cfg->flow_base + (cfg->flows ? cfg->flows : 1) - 1);
	nb_net_addr_str((const struct sockaddr *)&cfg->dst, false, a, sizeof(a));
	nb_net_addr_str((const struct sockaddr *)&last, false, b, sizeof(b));
	if (nb_path_route((const struct sockaddr *)&last, &lp) || lp.ifindex != first->ifindex ||
	    !nb_net_same_host((const struct sockaddr *)&lp.nexthop,
			      (const struct sockaddr *)&first->nexthop) ||
	    nb_net_same_host((const struct sockaddr *)&first->nexthop,
			     (const struct sockaddr *)&cfg->dst)) {
		snprintf(err, errlen,
			 "packet engine: destinations %s to %s are not routed through one "
			 "gateway (route the range via the receiver, as the lab does: "
			 "docs/lab.md)",
			 a, b);
		return -EINVAL;
	}
	return 0;
}

/* The route to the destination and its next hop's MAC address. */
static int path_find(const struct nb_gen_cfg *cfg, struct packet_state *s, char *err, size_t errlen)
{
	char nh[INET6_ADDRSTRLEN] = "?";
	int ret;

	ret = nb_path_route((const struct sockaddr *)&cfg->dst, &s->path);
	if (ret) {
		snprintf(err, errlen, "packet engine: no route to the destination: %s",
			 strerror(-ret));
		return ret;
	}
	inet_ntop(s->family,
		  s->family == AF_INET6
		      ? (void *)&((struct sockaddr_in6 *)&s->path.nexthop)->sin6_addr
		      : (void *)&((struct sockaddr_in *)&s->path.nexthop)->sin_addr,
		  nh, sizeof(nh));
	ret = nb_path_resolve_mac(&s->path, cfg->neigh_wait_ms ? cfg->neigh_wait_ms : 1000);
	if (ret) {
		snprintf(err, errlen,
			 "packet engine: no neighbour entry for next hop %s on %s "
			 "(no %s answer within %d ms)",
			 nh, s->path.ifname, s->family == AF_INET6 ? "neighbour discovery" : "ARP",
			 cfg->neigh_wait_ms ? cfg->neigh_wait_ms : 1000);
		return ret;
	}
	return 0;
}

/* The AF_PACKET socket with its TX ring mapped, bound to the route's interface. */
static int ring_open(const struct nb_gen_cfg *cfg, struct packet_state *s, char *err, size_t errlen)
{
	struct tpacket_req req;
	struct sockaddr_ll ll;
	int ret, v = TPACKET_V2, one = 1, sndbuf = 8 << 20;

	s->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (s->fd < 0) {
		ret = -errno;
		if (errno == EPERM || errno == EACCES)
			snprintf(err, errlen,
				 "packet engine needs CAP_NET_RAW (run as root, or "
				 "setcap cap_net_raw+ep on netbench; or use --engine udp)");
		else
			snprintf(err, errlen, "packet engine: AF_PACKET socket: %s",
				 strerror(errno));
		return ret;
	}
	if (setsockopt(s->fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "packet engine: TPACKET_V2: %s", strerror(errno));
		return ret;
	}
	/* With a virtio-net header whose hdr_len covers the whole frame, the kernel copies each
	 * frame into the skb's linear part instead of pinning the ring page as a fragment: on
	 * a veth or a forwarding path those fragments are copied again into a freshly allocated
	 * page per frame (skb_copy_ubufs), which costs more than the copy of a small frame. */
	s->vnet = setsockopt(s->fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)) == 0;
	/* Every frame in flight holds socket send-buffer memory until the device frees it; the
	 * default (about 200 KB) would throttle the ring long before it is full. */
	(void)setsockopt(s->fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	(void)setsockopt(s->fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf));
	/* Older kernels (before 3.14) lack the bypass: frames then pass the qdisc. */
	s->bypass = setsockopt(s->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)) == 0;
	s->frame_slot_bytes =
	    pow2_at_least(TPACKET2_HDRLEN + VNET_BYTES +
			  (cfg->frame_max_bytes ? cfg->frame_max_bytes : NB_FRAME_MAX));
	memset(&req, 0, sizeof(req));
	req.tp_block_size = s->frame_slot_bytes * (RING_SLOTS / RING_BLOCKS);
	if (req.tp_block_size < 4096)
		req.tp_block_size = 4096;
	req.tp_block_nr = RING_BLOCKS;
	req.tp_frame_size = s->frame_slot_bytes;
	req.tp_frame_nr = req.tp_block_size / req.tp_frame_size * req.tp_block_nr;
	if (setsockopt(s->fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "packet engine: PACKET_TX_RING: %s", strerror(errno));
		return ret;
	}
	s->slots = req.tp_frame_nr;
	s->ring_bytes = (size_t)req.tp_block_size * req.tp_block_nr;
	s->ring = mmap(NULL, s->ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (s->ring == MAP_FAILED) {
		ret = -errno;
		snprintf(err, errlen, "packet engine: mmap of the TX ring: %s", strerror(errno));
		return ret;
	}
	memset(&ll, 0, sizeof(ll));
	ll.sll_family = AF_PACKET;
	ll.sll_protocol = 0; /* transmit only: no copy of received traffic */
	ll.sll_ifindex = s->path.ifindex;
	if (bind(s->fd, (struct sockaddr *)&ll, sizeof(ll)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "packet engine: bind to %s: %s", s->path.ifname,
			 strerror(errno));
		return ret;
	}
	return 0;
}

/* The frames' headers (addresses, ports, TTL) and how the flows spread. */
static int headers_set(const struct nb_gen_cfg *cfg, struct packet_state *s, char *err,
		       size_t errlen)
{
	int ret;

	memcpy(s->hdr.dst_mac, s->path.nexthop_mac, 6);
	memcpy(s->hdr.src_mac, s->path.src_mac, 6);
	s->src_spread = cfg->src_spread;
	s->sport_fixed = cfg->sport_fixed;
	s->src_first = cfg->src_first;
	s->dst_spread = cfg->dst_spread;
	s->dport_spread = cfg->dport_spread;
	s->dst_first = cfg->dst;
	if (s->dst_spread && s->flows > 1 && (ret = same_next_hop(cfg, &s->path, err, errlen)))
		return ret;
	if (!s->sport_fixed &&
	    (cfg->sport_base ? cfg->sport_base : 40000u) + cfg->flow_base + s->flows - 1 > 65535) {
		ret = -ERANGE;
		snprintf(err, errlen, "packet engine: source ports run past 65535");
		return ret;
	}
	s->hdr.sport = (uint16_t)((cfg->sport_base ? cfg->sport_base : 40000u) + cfg->flow_base);
	s->hdr.ttl = 64;
	if (s->family == AF_INET6) {
		memcpy(s->hdr6.dst_mac, s->path.nexthop_mac, 6);
		memcpy(s->hdr6.src_mac, s->path.src_mac, 6);
		memcpy(s->hdr6.src_ip, &((struct sockaddr_in6 *)&s->path.src)->sin6_addr, 16);
		memcpy(s->hdr6.dst_ip, &((struct sockaddr_in6 *)&cfg->dst)->sin6_addr, 16);
		s->hdr6.dport = ntohs(((struct sockaddr_in6 *)&cfg->dst)->sin6_port);
		s->hdr6.sport = s->hdr.sport;
		s->hdr6.hop_limit = 64;
	} else {
		memcpy(&s->hdr.src_ip, &((struct sockaddr_in *)&s->path.src)->sin_addr, 4);
		memcpy(&s->hdr.dst_ip, &((struct sockaddr_in *)&cfg->dst)->sin_addr, 4);
		s->hdr.dport = ntohs(((struct sockaddr_in *)&cfg->dst)->sin_port);
	}
	return 0;
}

static int packet_open(const struct nb_gen_cfg *cfg, void **state, char *err, size_t errlen)
{
	struct packet_state *s = calloc(1, sizeof(*s));
	int ret;

	if (!s) {
		snprintf(err, errlen, "packet engine: out of memory");
		return -ENOMEM;
	}
	s->fd = -1;
	s->flows = cfg->flows ? cfg->flows : 1;
	s->flow_base = cfg->flow_base;
	s->family = cfg->dst.ss_family;
	if (s->family != AF_INET && s->family != AF_INET6) {
		ret = -EAFNOSUPPORT;
		snprintf(err, errlen, "packet engine: IPv4 or IPv6 destinations only");
		goto fail;
	}
	if ((ret = path_find(cfg, s, err, errlen)) || (ret = ring_open(cfg, s, err, errlen)) ||
	    (ret = headers_set(cfg, s, err, errlen)))
		goto fail;
	*state = s;
	return 0;
fail:
	packet_close(s);
	return ret;
}

static int packet_prepare(void *p, uint32_t frame_bytes, uint16_t trial, uint32_t probe_every)
{
	struct packet_state *s = p;
	struct nb_payload pl = {.trial = trial};
	int n;

	if (frame_bytes - NB_ETH_FCS + TPACKET2_HDRLEN + VNET_BYTES > s->frame_slot_bytes ||
	    frame_bytes > nb_frame_max_for_mtu(s->path.mtu))
		return -EMSGSIZE;
	s->tmpl_stride = frame_bytes;
	free(s->tmpl);
	s->tmpl = malloc((size_t)s->flows * s->tmpl_stride);
	if (!s->tmpl)
		return -ENOMEM;
	for (uint32_t f = 0; f < s->flows; f++) {
		uint8_t *t = s->tmpl + (size_t)f * s->tmpl_stride;
		uint32_t port_off = s->sport_fixed ? 0 : f;
		uint32_t dport_off = s->dport_spread ? s->flow_base + f : 0;
		struct sockaddr_storage src = s->src_first, dst = s->dst_first;
		pl.flow = (uint16_t)(s->flow_base + f);
		/* Each flow's own template: its source address and port are built in, so the
		 * send path does nothing more per frame for spread flows. */
		if (s->src_spread)
			nb_flow_addr_add(&src, s->flow_base + f);
		if (s->dst_spread)
			nb_flow_addr_add(&dst, s->flow_base + f);
		if (s->family == AF_INET6) {
			struct nb_frame_ip6 h = s->hdr6;
			h.sport = (uint16_t)(s->hdr6.sport + port_off);
			h.dport = (uint16_t)(s->hdr6.dport + dport_off);
			if (s->src_spread)
				memcpy(h.src_ip, &((struct sockaddr_in6 *)&src)->sin6_addr, 16);
			if (s->dst_spread)
				memcpy(h.dst_ip, &((struct sockaddr_in6 *)&dst)->sin6_addr, 16);
			n = nb_frame_build_ip6(t, s->tmpl_stride, frame_bytes, &h, &pl);
		} else {
			struct nb_frame_ip4 h = s->hdr;
			h.sport = (uint16_t)(s->hdr.sport + port_off);
			h.dport = (uint16_t)(s->hdr.dport + dport_off);
			if (s->src_spread)
				memcpy(&h.src_ip, &((struct sockaddr_in *)&src)->sin_addr, 4);
			if (s->dst_spread)
				memcpy(&h.dst_ip, &((struct sockaddr_in *)&dst)->sin_addr, 4);
			n = nb_frame_build_ip4(t, s->tmpl_stride, frame_bytes, &h, &pl);
		}
		if (n < 0)
			return n;
		s->frame_len = (uint32_t)n;
	}
	s->trial = trial;
	s->probe_every = probe_every;
	return 0;
}

static struct tpacket2_hdr *slot(struct packet_state *s, uint32_t i)
{
	return (struct tpacket2_hdr *)(s->ring + (size_t)i * s->frame_slot_bytes);
}

static int flush(struct packet_state *s)
{
	if (send(s->fd, NULL, 0, MSG_DONTWAIT) < 0 && errno != EAGAIN && errno != ENOBUFS)
		return -errno;
	return 0;
}

static int packet_send(void *p, uint32_t flow, uint32_t first_seq, uint32_t n)
{
	struct packet_state *s = p;
	const uint8_t *t = s->tmpl + (size_t)flow * s->tmpl_stride;
	uint64_t now = nb_mono_ns();
	uint32_t done = 0;
	int ret;

	while (done < n) {
		struct tpacket2_hdr *h = slot(s, s->head);
		uint32_t st = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
		uint8_t *data;

		if (st == TP_STATUS_WRONG_FORMAT)
			return -EMSGSIZE;
		if (st != TP_STATUS_AVAILABLE)
			break; /* ring full: push what we have */
		data = (uint8_t *)h + TPACKET2_HDRLEN - sizeof(struct sockaddr_ll);
		if (s->vnet) {
			/* No offloads; the whole frame is "header", hence linear. Native byte
			 * order: that is how a legacy virtio header is read on this host. */
			struct virtio_net_hdr vh = {.gso_type = VIRTIO_NET_HDR_GSO_NONE,
						    .hdr_len = (uint16_t)s->frame_len};
			memcpy(data, &vh, sizeof(vh));
			data += sizeof(vh);
		}
		memcpy(data, t, s->frame_len);
		if (s->probe_every)
			nb_frame_restamp(
			    data, s->family, first_seq + done, now,
			    nb_probe_due(s->flow_base + flow, first_seq + done, s->probe_every));
		else /* no probes: the flow id keeps all 16 bits */
			nb_frame_restamp_seq(data, s->family, first_seq + done, now);
		h->tp_len = s->frame_len + (s->vnet ? (uint32_t)sizeof(struct virtio_net_hdr) : 0);
		__atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
		if (++s->head == s->slots)
			s->head = 0;
		done++;
	}
	ret = flush(s);
	if (ret)
		return ret;
	if (!done) {
		/* Ring full: a slot comes back when its skb is freed, which on a veth or a
		 * forwarding path happens in softirq work that may be queued behind us on
		 * this CPU (ksoftirqd). Yield rather than sleep: poll() is not woken for it. */
		sched_yield();
	}
	return (int)done;
}

static int packet_drain(void *p)
{
	struct packet_state *s = p;
	uint64_t deadline = nb_mono_ns() + NB_NS_PER_S;

	/* Every slot back to AVAILABLE means every frame has left (or failed). */
	for (;;) {
		bool busy = false;
		int ret = flush(s);
		if (ret)
			return ret;
		for (uint32_t i = 0; i < s->slots && !busy; i++) {
			uint32_t st = __atomic_load_n(&slot(s, i)->tp_status, __ATOMIC_ACQUIRE);
			if (st == TP_STATUS_WRONG_FORMAT)
				return -EMSGSIZE;
			busy = st != TP_STATUS_AVAILABLE;
		}
		if (!busy)
			return 0;
		if (nb_mono_ns() > deadline)
			return -ETIMEDOUT;
		struct pollfd pfd = {.fd = s->fd, .events = POLLOUT};
		(void)poll(&pfd, 1, 1);
	}
}

static void packet_describe(void *p, char *buf, size_t len)
{
	struct packet_state *s = p;
	snprintf(buf, len, "AF_PACKET TX ring on %s, %u slots, qdisc bypass %s, %s", s->path.ifname,
		 s->slots, s->bypass ? "on" : "unavailable (kernel older than 3.14)",
		 s->vnet ? "frames copied linear" : "frames as page fragments");
}

const struct nb_gen_engine nb_gen_packet = {
    .name = "packet",
    .open = packet_open,
    .prepare = packet_prepare,
    .send = packet_send,
    .drain = packet_drain,
    .describe = packet_describe,
    .close = packet_close,
};
