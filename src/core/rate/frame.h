/* SPDX-License-Identifier: BSD-2-Clause */
/* Test frames of `netbench rate`: the payload every test frame carries (stream id, trial id,
 * sequence, transmit time; big-endian on the wire), the frame-size arithmetic of RFC 2544
 * (frame size counts the 4-byte FCS) and whole Ethernet/IPv4/UDP frames for the packet engine. */
#ifndef NB_FRAME_H
#define NB_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define NB_FRAME_MIN	 64u   /* RFC 2544's smallest frame, FCS included */
#define NB_FRAME_MAX	 9216u /* jumbo frames; the path MTU bounds it further */
#define NB_ETH_HDR	 14u
#define NB_ETH_FCS	 4u
#define NB_IP4_HDR	 20u
#define NB_IP6_HDR	 40u
#define NB_UDP_HDR	 8u
#define NB_PAYLOAD_MAGIC 0x4e42u /* "NB" */
/* magic(2) flow(2) trial(2) seq(4) tx_ns(8): exactly what a 64-byte IPv4 frame holds. */
#define NB_PAYLOAD_MIN 18u
/* A probe is a test frame that the receiver also reflects to the sender (round-trip latency):
 * the top bit of the flow id on the wire (an agent's flows stay below 1024; a run without probes,
 * as with a local receiver, uses all 16 bits for up to 65,536 flows). The reflected copy carries
 * NB_REFLECT_MAGIC instead of NB_PAYLOAD_MAGIC, so no counting receiver takes it for a test
 * frame. */
#define NB_PAYLOAD_PROBE 0x8000u
#define NB_REFLECT_MAGIC 0x4e52u /* "NR" */

struct nb_payload {
	uint16_t flow; /* without the probe bit */
	bool probe;
	uint16_t trial;
	uint32_t seq;
	uint64_t tx_ns; /* CLOCK_MONOTONIC of the sender */
};

/* UDP payload bytes of a frame of frame_bytes (FCS included) over IPv4 or IPv6 (family is
 * AF_INET or AF_INET6); 0 when the frame is too small to carry a test payload. */
size_t nb_frame_payload_bytes(int family, uint32_t frame_bytes);
/* The smallest frame that carries a test payload: 64 for IPv4, 84 for IPv6. */
uint32_t nb_frame_min_bytes(int family);
/* Largest frame for an interface MTU: MTU + Ethernet header + FCS. */
static inline uint32_t nb_frame_max_for_mtu(uint32_t mtu)
{
	return mtu + NB_ETH_HDR + NB_ETH_FCS;
}

/* Writes/reads the fixed part of the payload (NB_PAYLOAD_MIN bytes). Reading returns 0 or
 * -EBADMSG when the buffer is short or the magic is wrong. */
void nb_payload_put(uint8_t *p, const struct nb_payload *pl);
int nb_payload_get(const uint8_t *p, size_t len, struct nb_payload *pl);
/* Reads a reflected probe (NB_REFLECT_MAGIC); 0 or -EBADMSG. */
int nb_reflect_get(const uint8_t *p, size_t len, struct nb_payload *pl);
/* Whether frame seq of flow is a probe when one in every probe_every frames of flow 0 is
 * (probe_every 0: none). Sender and tests agree on the choice through this one rule. */
static inline bool nb_probe_due(uint32_t flow, uint32_t seq, uint32_t probe_every)
{
	return probe_every && flow == 0 && seq % probe_every == 0;
}
/* Rewrites only seq and tx_ns of a payload already written (the hot path). */
static inline void nb_payload_stamp(uint8_t *p, uint32_t seq, uint64_t tx_ns)
{
	p[6] = (uint8_t)(seq >> 24);
	p[7] = (uint8_t)(seq >> 16);
	p[8] = (uint8_t)(seq >> 8);
	p[9] = (uint8_t)seq;
	for (int i = 0; i < 8; i++)
		p[10 + i] = (uint8_t)(tx_ns >> (56 - 8 * i));
}

/* The Internet checksum (RFC 1071) of buf, folded into 16 bits, added to a partial sum. */
uint32_t nb_csum_add(uint32_t sum, const uint8_t *buf, size_t len);
uint16_t nb_csum_fold(uint32_t sum);

/* An Ethernet/IPv4/UDP frame template (without FCS: the NIC appends it). Addresses and ports in
 * network byte order as found in struct sockaddr_in; MACs as 6 bytes. */
struct nb_frame_ip4 {
	uint8_t dst_mac[6], src_mac[6];
	uint32_t src_ip, dst_ip; /* network byte order */
	uint16_t sport, dport;	 /* host byte order */
	uint8_t ttl;
	uint8_t tos;
};

/* Builds a frame of frame_bytes (FCS included, so frame_bytes - 4 are written) into buf with
 * the payload pl and correct IPv4 and UDP checksums. Returns the bytes written or -EINVAL
 * (frame too small or too large for buflen). */
int nb_frame_build_ip4(uint8_t *buf, size_t buflen, uint32_t frame_bytes,
		       const struct nb_frame_ip4 *f, const struct nb_payload *pl);
/* An Ethernet/IPv6/UDP frame template; addresses as in struct in6_addr. */
struct nb_frame_ip6 {
	uint8_t dst_mac[6], src_mac[6];
	uint8_t src_ip[16], dst_ip[16];
	uint16_t sport, dport; /* host byte order */
	uint8_t hop_limit;
	uint8_t tclass;
};

/* As nb_frame_build_ip4 for IPv6: the UDP checksum is mandatory there (never 0). Frames start
 * at 84 bytes (nb_frame_min_bytes). */
int nb_frame_build_ip6(uint8_t *buf, size_t buflen, uint32_t frame_bytes,
		       const struct nb_frame_ip6 *f, const struct nb_payload *pl);

/* Updates seq, tx_ns and the probe bit of a frame built by nb_frame_build_ip4 (family AF_INET)
 * or nb_frame_build_ip6 (AF_INET6) and fixes its UDP checksum incrementally from the old one
 * (RFC 1624), without touching the rest. */
void nb_frame_restamp(uint8_t *frame, int family, uint32_t seq, uint64_t tx_ns, bool probe);
/* As nb_frame_restamp without touching the flow field: where no frame is a probe, all 16 bits
 * of the flow id are the flow's (flows above 32768, local receivers). */
void nb_frame_restamp_seq(uint8_t *frame, int family, uint32_t seq, uint64_t tx_ns);
static inline void nb_frame_restamp_ip4(uint8_t *frame, uint32_t seq, uint64_t tx_ns, bool probe)
{
	nb_frame_restamp(frame, AF_INET, seq, tx_ns, probe);
}
/* Offset of the payload in such frames. */
#define NB_FRAME_IP4_PAYLOAD_OFF (NB_ETH_HDR + NB_IP4_HDR + NB_UDP_HDR)
#define NB_FRAME_IP6_PAYLOAD_OFF (NB_ETH_HDR + NB_IP6_HDR + NB_UDP_HDR)

#endif
