/* SPDX-License-Identifier: BSD-2-Clause */
/* Test-frame layout and building: payload encoding with explicit byte order, RFC 2544 frame
 * sizes, and Ethernet/IPv4/UDP frames with checksums for engines that bypass the IP stack. */
#include "core/rate/frame.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "core/base/wire.h"

size_t nb_frame_payload_bytes(int family, uint32_t frame_bytes)
{
	uint32_t ip = family == AF_INET6 ? NB_IP6_HDR : NB_IP4_HDR;
	uint32_t over = NB_ETH_HDR + NB_ETH_FCS + ip + NB_UDP_HDR;

	if (frame_bytes < over + NB_PAYLOAD_MIN)
		return 0;
	return frame_bytes - over;
}

uint32_t nb_frame_min_bytes(int family)
{
	uint32_t ip = family == AF_INET6 ? NB_IP6_HDR : NB_IP4_HDR;
	uint32_t min = NB_ETH_HDR + NB_ETH_FCS + ip + NB_UDP_HDR + NB_PAYLOAD_MIN;
	return min < NB_FRAME_MIN ? NB_FRAME_MIN : min;
}

void nb_payload_put(uint8_t *p, const struct nb_payload *pl)
{
	nb_put_be16(p, NB_PAYLOAD_MAGIC);
	nb_put_be16(p + 2, (uint16_t)(pl->flow | (pl->probe ? NB_PAYLOAD_PROBE : 0)));
	nb_put_be16(p + 4, pl->trial);
	nb_put_be32(p + 6, pl->seq);
	nb_put_be64(p + 10, pl->tx_ns);
}

int nb_payload_get(const uint8_t *p, size_t len, struct nb_payload *pl)
{
	uint16_t flow;

	if (len < NB_PAYLOAD_MIN || nb_get_be16(p) != NB_PAYLOAD_MAGIC)
		return -EBADMSG;
	flow = nb_get_be16(p + 2);
	pl->flow = flow & (uint16_t)~NB_PAYLOAD_PROBE;
	pl->probe = (flow & NB_PAYLOAD_PROBE) != 0;
	pl->trial = nb_get_be16(p + 4);
	pl->seq = nb_get_be32(p + 6);
	pl->tx_ns = nb_get_be64(p + 10);
	return 0;
}

int nb_reflect_get(const uint8_t *p, size_t len, struct nb_payload *pl)
{
	uint8_t tmp[NB_PAYLOAD_MIN];

	if (len < NB_PAYLOAD_MIN || nb_get_be16(p) != NB_REFLECT_MAGIC)
		return -EBADMSG;
	memcpy(tmp, p, sizeof(tmp));
	nb_put_be16(tmp, NB_PAYLOAD_MAGIC);
	return nb_payload_get(tmp, sizeof(tmp), pl);
}

uint32_t nb_csum_add(uint32_t sum, const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2) {
		sum += (uint32_t)(buf[i] << 8 | buf[i + 1]);
		/* Fold early so that long buffers cannot overflow 32 bits. */
		if (sum & 0x80000000u)
			sum = (sum & 0xffff) + (sum >> 16);
	}
	if (i < len)
		sum += (uint32_t)buf[i] << 8;
	return sum;
}

uint16_t nb_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

int nb_frame_build_ip4(uint8_t *buf, size_t buflen, uint32_t frame_bytes,
		       const struct nb_frame_ip4 *f, const struct nb_payload *pl)
{
	size_t payload = nb_frame_payload_bytes(AF_INET, frame_bytes);
	size_t len = frame_bytes - NB_ETH_FCS;
	uint8_t *ip = buf + NB_ETH_HDR, *udp = ip + NB_IP4_HDR;
	uint32_t sum;
	uint16_t csum;

	if (!payload || len > buflen || len - NB_ETH_HDR > 0xffff)
		return -EINVAL;
	memset(buf, 0, len);
	memcpy(buf, f->dst_mac, 6);
	memcpy(buf + 6, f->src_mac, 6);
	nb_put_be16(buf + 12, 0x0800);

	ip[0] = 0x45;
	ip[1] = f->tos;
	nb_put_be16(ip + 2, (uint16_t)(len - NB_ETH_HDR));
	nb_put_be16(ip + 4, 0);	     /* id: unused with DF set (RFC 6864) */
	nb_put_be16(ip + 6, 0x4000); /* DF */
	ip[8] = f->ttl ? f->ttl : 64;
	ip[9] = 17; /* UDP */
	memcpy(ip + 12, &f->src_ip, 4);
	memcpy(ip + 16, &f->dst_ip, 4);
	nb_put_be16(ip + 10, nb_csum_fold(nb_csum_add(0, ip, NB_IP4_HDR)));

	nb_put_be16(udp, f->sport);
	nb_put_be16(udp + 2, f->dport);
	nb_put_be16(udp + 4, (uint16_t)(NB_UDP_HDR + payload));
	nb_payload_put(udp + NB_UDP_HDR, pl);
	/* Pseudo header: addresses, protocol, UDP length. */
	sum = nb_csum_add(0, ip + 12, 8);
	sum += 17 + (uint32_t)(NB_UDP_HDR + payload);
	sum = nb_csum_add(sum, udp, NB_UDP_HDR + payload);
	csum = nb_csum_fold(sum);
	nb_put_be16(udp + 6, csum ? csum : 0xffff); /* 0 means "no checksum" in UDP/IPv4 */
	return (int)len;
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), over 16-bit words. */
static uint32_t csum_replace(uint32_t sum, const uint8_t *old, const uint8_t *new, size_t len)
{
	for (size_t i = 0; i < len; i += 2) {
		sum += (uint16_t) ~(old[i] << 8 | old[i + 1]);
		sum += (uint32_t)(new[i] << 8 | new[i + 1]);
	}
	return sum;
}

int nb_frame_build_ip6(uint8_t *buf, size_t buflen, uint32_t frame_bytes,
		       const struct nb_frame_ip6 *f, const struct nb_payload *pl)
{
	size_t payload = nb_frame_payload_bytes(AF_INET6, frame_bytes);
	size_t len = frame_bytes - NB_ETH_FCS;
	uint8_t *ip = buf + NB_ETH_HDR, *udp = ip + NB_IP6_HDR;
	uint32_t sum, ulen = (uint32_t)(NB_UDP_HDR + payload);
	uint16_t csum;

	if (!payload || len > buflen || ulen > 0xffff)
		return -EINVAL;
	memset(buf, 0, len);
	memcpy(buf, f->dst_mac, 6);
	memcpy(buf + 6, f->src_mac, 6);
	nb_put_be16(buf + 12, 0x86dd);

	/* Version 6, traffic class, flow label 0. */
	nb_put_be32(ip, 0x60000000u | (uint32_t)f->tclass << 20);
	nb_put_be16(ip + 4, (uint16_t)ulen);
	ip[6] = 17; /* UDP */
	ip[7] = f->hop_limit ? f->hop_limit : 64;
	memcpy(ip + 8, f->src_ip, 16);
	memcpy(ip + 24, f->dst_ip, 16);

	nb_put_be16(udp, f->sport);
	nb_put_be16(udp + 2, f->dport);
	nb_put_be16(udp + 4, (uint16_t)ulen);
	nb_payload_put(udp + NB_UDP_HDR, pl);
	/* Pseudo header (RFC 8200 8.1): addresses, upper-layer length, next header. */
	sum = nb_csum_add(0, ip + 8, 32);
	sum += ulen + 17;
	sum = nb_csum_add(sum, udp, ulen);
	csum = nb_csum_fold(sum);
	nb_put_be16(udp + 6, csum ? csum : 0xffff); /* a 0 checksum is invalid over IPv6 */
	return (int)len;
}

/* probe: 1 sets the probe bit, 0 clears it, -1 leaves the flow field as it is. */
static void restamp(uint8_t *frame, int family, uint32_t seq, uint64_t tx_ns, int probe)
{
	uint8_t *udp = frame + NB_ETH_HDR + (family == AF_INET6 ? NB_IP6_HDR : NB_IP4_HDR);
	uint8_t *p = udp + NB_UDP_HDR;
	uint8_t old[16];
	uint16_t hc = nb_get_be16(udp + 6);
	uint32_t sum;

	/* flow (with the probe bit), trial, seq and tx_ns sit at payload offsets 2..17: 16-bit
	 * aligned in the UDP datagram. */
	memcpy(old, p + 2, 16);
	if (probe > 0)
		p[2] |= (uint8_t)(NB_PAYLOAD_PROBE >> 8);
	else if (probe == 0)
		p[2] &= (uint8_t) ~(NB_PAYLOAD_PROBE >> 8);
	nb_payload_stamp(p, seq, tx_ns);
	sum = (uint16_t)~hc;
	sum = csum_replace(sum, old, p + 2, 16);
	hc = nb_csum_fold(sum);
	nb_put_be16(udp + 6, hc ? hc : 0xffff);
}

void nb_frame_restamp(uint8_t *frame, int family, uint32_t seq, uint64_t tx_ns, bool probe)
{
	restamp(frame, family, seq, tx_ns, probe ? 1 : 0);
}

void nb_frame_restamp_seq(uint8_t *frame, int family, uint32_t seq, uint64_t tx_ns)
{
	restamp(frame, family, seq, tx_ns, -1);
}
