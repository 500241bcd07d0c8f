/* SPDX-License-Identifier: BSD-2-Clause */
/* Test frames: RFC 2544 size arithmetic, payload byte order, IPv4/UDP checksums (full and
 * incremental) checked by recomputation over the finished frame. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "core/rate/frame.h"
#include "core/base/wire.h"
#include "tap.h"

static int ip_ok(const uint8_t *frame)
{
	return nb_csum_fold(nb_csum_add(0, frame + NB_ETH_HDR, NB_IP4_HDR)) == 0;
}

static int udp_ok(const uint8_t *frame)
{
	const uint8_t *ip = frame + NB_ETH_HDR, *udp = ip + NB_IP4_HDR;
	uint16_t ulen = nb_get_be16(udp + 4);
	uint32_t sum = nb_csum_add(0, ip + 12, 8) + 17 + ulen;
	return nb_csum_fold(nb_csum_add(sum, udp, ulen)) == 0;
}

static int udp6_ok(const uint8_t *frame)
{
	const uint8_t *ip = frame + NB_ETH_HDR, *udp = ip + NB_IP6_HDR;
	uint16_t ulen = nb_get_be16(udp + 4);
	uint32_t sum = nb_csum_add(0, ip + 8, 32) + 17 + ulen;
	return nb_get_be16(udp + 6) != 0 && nb_csum_fold(nb_csum_add(sum, udp, ulen)) == 0;
}

/* IPv6 frames: layout, mandatory checksum, incremental restamp equal to a fresh build. */
static void test_ip6(const struct nb_payload *pl)
{
	static uint8_t buf[2048], ref[2048];
	static const uint32_t sizes[] = {84, 85, 128, 1518};
	struct nb_frame_ip6 f = {.dst_mac = {2, 0, 0, 0, 0, 1},
				 .src_mac = {2, 0, 0, 0, 0, 2},
				 .sport = 40000,
				 .dport = 5302};
	int n, same = 1;

	inet_pton(AF_INET6, "2001:db8:36::1", f.src_ip);
	inet_pton(AF_INET6, "2001:db8:37::ffff:fffe", f.dst_ip);
	CHECK(nb_frame_build_ip6(buf, sizeof(buf), 83, &f, pl) == -EINVAL,
	      "IPv6: 83 bytes rejected (84 is the smallest)");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		n = nb_frame_build_ip6(buf, sizeof(buf), sizes[i], &f, pl);
		CHECK(n == (int)sizes[i] - 4 && udp6_ok(buf),
		      "IPv6 %u-byte frame: %d bytes, UDP checksum verifies", sizes[i], n);
		CHECK(nb_get_be16(buf + 12) == 0x86dd && buf[NB_ETH_HDR] >> 4 == 6 &&
			  buf[NB_ETH_HDR + 6] == 17 &&
			  nb_get_be16(buf + NB_ETH_HDR + 4) == sizes[i] - 4 - 14 - 40,
		      "IPv6 %u-byte frame: ethertype, version, next header, payload length",
		      sizes[i]);
	}
	nb_frame_build_ip6(buf, sizeof(buf), 84, &f, pl);
	for (uint32_t k = 0; k < 100000; k++) {
		struct nb_payload p2 = *pl;
		p2.seq = k * 2654435761u;
		p2.tx_ns = (uint64_t)k * 0x9e3779b97f4a7c15ULL;
		p2.probe = nb_probe_due(pl->flow, p2.seq, 5);
		nb_frame_restamp(buf, AF_INET6, p2.seq, p2.tx_ns, p2.probe);
		nb_frame_build_ip6(ref, sizeof(ref), 84, &f, &p2);
		/* Bytes 60-61 are the UDP checksum: 0x0000 and 0xffff are both zero there. */
		if (!udp6_ok(buf) || memcmp(buf, ref, 60) != 0 || memcmp(buf + 62, ref + 62, 18)) {
			same = 0;
			break;
		}
	}
	CHECK(same, "IPv6: incremental restamp keeps a valid, non-zero UDP checksum (100000)");
}

int main(void)
{
	uint8_t buf[2048], ref[2048], raw[NB_PAYLOAD_MIN];
	struct nb_payload pl = {.flow = 0x0102,
				.trial = 0x0304,
				.seq = 0x05060708,
				.tx_ns = 0x090a0b0c0d0e0f10ULL},
			  back;
	struct nb_frame_ip4 f = {.dst_mac = {2, 0, 0, 0, 0, 1},
				 .src_mac = {2, 0, 0, 0, 0, 2},
				 .sport = 40000,
				 .dport = 5302,
				 .ttl = 64};
	static const uint32_t sizes[] = {64, 65, 128, 256, 512, 1024, 1280, 1518, 9000};
	int n;

	CHECK(nb_frame_payload_bytes(AF_INET, 64) == 18, "64-byte frame carries 18 bytes of UDP");
	CHECK(nb_frame_payload_bytes(AF_INET, 1518) == 1472, "1518-byte frame carries 1472");
	CHECK(nb_frame_payload_bytes(AF_INET, 63) == 0, "63-byte frame cannot carry a payload");
	CHECK(nb_frame_payload_bytes(AF_INET6, 84) == 18, "IPv6: 84-byte frame carries 18");
	CHECK(nb_frame_min_bytes(AF_INET) == 64 && nb_frame_min_bytes(AF_INET6) == 84,
	      "smallest frames: 64 (IPv4), 84 (IPv6)");
	CHECK(nb_frame_max_for_mtu(1500) == 1518, "MTU 1500 allows 1518-byte frames");

	nb_payload_put(raw, &pl);
	CHECK(raw[0] == 0x4e && raw[1] == 0x42 && raw[2] == 1 && raw[3] == 2 && raw[4] == 3 &&
		  raw[6] == 5 && raw[9] == 8 && raw[10] == 9 && raw[17] == 0x10,
	      "payload is big-endian: magic, flow, trial, seq, tx_ns");
	CHECK(nb_payload_get(raw, sizeof(raw), &back) == 0 && back.flow == pl.flow &&
		  back.trial == pl.trial && back.seq == pl.seq && back.tx_ns == pl.tx_ns,
	      "payload round trip");
	CHECK(nb_payload_get(raw, 17, &back) < 0, "short payload rejected");
	raw[0] = 0;
	CHECK(nb_payload_get(raw, sizeof(raw), &back) < 0, "wrong magic rejected");

	inet_pton(AF_INET, "198.18.0.1", &f.src_ip);
	inet_pton(AF_INET, "198.19.0.1", &f.dst_ip);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		n = nb_frame_build_ip4(buf, sizeof(buf), sizes[i], &f, &pl);
		if (sizes[i] > sizeof(buf) + NB_ETH_FCS) {
			CHECK(n == -EINVAL, "%u-byte frame does not fit the buffer", sizes[i]);
			continue;
		}
		CHECK(n == (int)sizes[i] - 4, "%u-byte frame: %d bytes written (no FCS)", sizes[i],
		      n);
		CHECK(ip_ok(buf) && udp_ok(buf), "%u-byte frame: IPv4 and UDP checksums verify",
		      sizes[i]);
		CHECK(nb_get_be16(buf + 12) == 0x0800 && buf[NB_ETH_HDR + 9] == 17 &&
			  nb_get_be16(buf + NB_ETH_HDR + 2) == sizes[i] - 18,
		      "%u-byte frame: ethertype, protocol, IP length", sizes[i]);
	}
	CHECK(nb_frame_build_ip4(buf, sizeof(buf), 63, &f, &pl) == -EINVAL, "63 bytes rejected");

	/* Incremental restamp equals a fresh build for many values, including carries. */
	int same = 1;
	nb_frame_build_ip4(buf, sizeof(buf), 64, &f, &pl);
	for (uint32_t k = 0; k < 200000; k++) {
		uint32_t seq = k * 2654435761u;
		uint64_t ts = (uint64_t)k * 0x9e3779b97f4a7c15ULL;
		struct nb_payload p2 = pl;
		p2.seq = seq;
		p2.tx_ns = ts;
		p2.probe = nb_probe_due(pl.flow, seq, 7);
		nb_frame_restamp_ip4(buf, seq, ts, p2.probe);
		nb_frame_build_ip4(ref, sizeof(ref), 64, &f, &p2);
		/* Bytes 40-41 are the UDP checksum: 0x0000 and 0xffff are both zero there. */
		if (!udp_ok(buf) || memcmp(buf, ref, 40) != 0 || memcmp(buf + 42, ref + 42, 18)) {
			same = 0;
			break;
		}
	}
	CHECK(same, "incremental restamp keeps a valid UDP checksum (200000 values)");

	/* Probe marking: the rule, the bit on the wire, and the receiver's reading of it. */
	CHECK(nb_probe_due(0, 0, 100) && nb_probe_due(0, 300, 100) && !nb_probe_due(0, 301, 100),
	      "flow 0: every 100th sequence number is a probe");
	CHECK(!nb_probe_due(1, 0, 100) && !nb_probe_due(0, 0, 0),
	      "no probes on other flows, none when off");
	{
		struct nb_payload q = {.flow = 3, .probe = true, .trial = 9, .seq = 42, .tx_ns = 7};
		struct nb_payload g;
		uint8_t raw2[NB_PAYLOAD_MIN];
		nb_payload_put(raw2, &q);
		CHECK(raw2[2] == 0x80 && raw2[3] == 3, "probe bit is the flow id's top bit");
		CHECK(nb_payload_get(raw2, sizeof(raw2), &g) == 0 && g.probe && g.flow == 3 &&
			  g.seq == 42,
		      "probe read back: flow without the bit");
		CHECK(nb_reflect_get(raw2, sizeof(raw2), &g) < 0,
		      "a test frame is not a reflected probe");
		raw2[0] = NB_REFLECT_MAGIC >> 8;
		raw2[1] = NB_REFLECT_MAGIC & 0xff;
		CHECK(nb_payload_get(raw2, sizeof(raw2), &g) < 0,
		      "a reflected probe is not a test frame");
		CHECK(nb_reflect_get(raw2, sizeof(raw2), &g) == 0 && g.probe && g.trial == 9 &&
			  g.tx_ns == 7,
		      "reflected probe read back");
	}
	/* Restamp toggles the bit both ways with a valid checksum. */
	nb_frame_restamp_ip4(buf, 1, 2, true);
	CHECK(udp_ok(buf) && (buf[NB_FRAME_IP4_PAYLOAD_OFF + 2] & 0x80), "restamp sets probe bit");
	nb_frame_restamp_ip4(buf, 2, 3, false);
	CHECK(udp_ok(buf) && !(buf[NB_FRAME_IP4_PAYLOAD_OFF + 2] & 0x80),
	      "restamp clears probe bit");
	/* Without probes the flow id keeps all 16 bits (flows past 32768, a local receiver). */
	{
		struct nb_payload wide = {.flow = 40000, .trial = 3, .seq = 0, .tx_ns = 1};
		int built = nb_frame_build_ip4(buf, sizeof(buf), 64, &f, &wide);
		const uint8_t *w = buf + NB_FRAME_IP4_PAYLOAD_OFF;
		nb_frame_restamp_seq(buf, AF_INET, 7, 8);
		CHECK(built > 0 && udp_ok(buf) && (w[2] << 8 | w[3]) == 40000 && w[9] == 7,
		      "restamp_seq keeps flow 40000 whole, writes the sequence, checksum valid");
	}
	test_ip6(&pl);
	return tap_done();
}
