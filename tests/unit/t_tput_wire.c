/* SPDX-License-Identifier: BSD-2-Clause */
/* tput's wire codec pinned to bytes: the vectors below were written by the encoder before it
 * moved onto the cursor (the protocol must not change), then every decoder refuses truncated,
 * overlong and malformed input. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/base/pacer.h"
#include "core/session/proto.h"
#include "core/tput/tput.h"
#include "core/tput/tput_wire.h"
#include "tap.h"

/* The agent's receive counters (tag 110): 7 big-endian u64, in struct order. */
static const uint8_t counters_rx[60] = {
    0x00, 0x6e, 0x00, 0x38, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x11, 0x12, 0x13,
    0x14, 0x15, 0x16, 0x17, 0x18, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x31, 0x32,
    0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x00, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x51, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10};
/* Its senders' pacing figures (tag 112): CPU ns, wake-ups. */
static const uint8_t pacing[20] = {0x00, 0x70, 0x00, 0x10, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86,
				   0x87, 0x88, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98};
/* Tag 113, 16 bytes: 12345 segments sent, 456 retransmitted. */
static const uint8_t tcp_segs[20] = {0x00, 0x71, 0x00, 0x10, 0, 0, 0, 0, 0,    0,
				     0x30, 0x39, 0,    0,    0, 0, 0, 0, 0x01, 0xc8};
/* A UDP test datagram's header: "NBUD", stream, sequence, send time. */
static const uint8_t udp_hdr[24] = {0x4e, 0x42, 0x55, 0x44, 0x0a, 0x0b, 0x0c, 0x0d,
				    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
				    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
/* A UDP step's request, both directions, spin pacing, 4 per wake-up, the controller's UDP
 * receive port 40000 (type TEST_REQ). */
static const uint8_t request_udp[88] = {
    0x00, 0x08, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x09, 0x00, 0x08, 0x00, 0x00, 0x00,
    0x01, 0xa1, 0x3b, 0x86, 0x00, 0x00, 0x64, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x65,
    0x00, 0x04, 0x00, 0x00, 0x05, 0xc0, 0x00, 0x66, 0x00, 0x04, 0x00, 0x00, 0x00, 0x02, 0x00,
    0x67, 0x00, 0x04, 0x00, 0x00, 0x00, 0x03, 0x00, 0x0d, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00,
    0x05, 0xf5, 0xe1, 0x00, 0x00, 0x6a, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x6b, 0x00,
    0x04, 0x00, 0x00, 0x00, 0x04, 0x00, 0x69, 0x00, 0x04, 0x00, 0x00, 0x9c, 0x40};
/* A TCP Tx step's request: no pacing, burst or UDP port items. */
static const uint8_t request_tcp[64] = {
    0x00, 0x08, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x09, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00,
    0xb2, 0xd0, 0x5e, 0x00, 0x00, 0x64, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x65, 0x00, 0x04,
    0x00, 0x01, 0x00, 0x00, 0x00, 0x66, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x67, 0x00, 0x04,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x0d, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
/* The acknowledgement: data port 5201, cookie 0xdeadbeef. */
static const uint8_t ack[16] = {0x00, 0x0e, 0x00, 0x04, 0x00, 0x00, 0x14, 0x51,
				0x00, 0x68, 0x00, 0x04, 0xde, 0xad, 0xbe, 0xef};
/* A TCP data connection's first bytes: cookie, stream 3, direction 2. */
static const uint8_t conn_hdr[8] = {0xde, 0xad, 0xbe, 0xef, 0x00, 0x03, 0x00, 0x02};

static const struct nb_tput_request RQ_UDP = {.proto = NB_TPUT_UDP,
					      .block = 1472,
					      .streams = 2,
					      .dir = 3,
					      .rate_bps = 100000000,
					      .duration_ns = 7000000000ULL,
					      .pacing = NB_PACING_SPIN,
					      .burst = 4,
					      .udp_port = 40000};
static const struct nb_tput_request RQ_TCP = {
    .proto = NB_TPUT_TCP, .block = 65536, .streams = 1, .dir = 1, .duration_ns = 3000000000ULL};

static const struct nb_tput_counters C = {.bytes = 0x0102030405060708ULL,
					  .datagrams = 0x1112131415161718ULL,
					  .expected = 0x2122232425262728ULL,
					  .unique = 0x3132333435363738ULL,
					  .reordered = 0x41424344454647ULL,
					  .duplicates = 0x51,
					  .errors = 0xfedcba9876543210ULL,
					  .pacing_cpu_ns = 0x8182838485868788ULL,
					  .pacing_wakeups = 0x9192939495969798ULL};

static bool same(const struct nb_msg *m, const uint8_t *b, size_t n)
{
	return m->len == n && !memcmp(m->data, b, n);
}

static void load(struct nb_msg *m, uint16_t type, const uint8_t *b, size_t n)
{
	nb_msg_reset(m, type);
	memcpy(m->data, b, n);
	m->len = (uint32_t)n;
}

int main(void)
{
	struct nb_msg *m = nb_msg_new(NB_MSG_FINAL);
	struct nb_tput_counters d;
	uint8_t buf[128];
	uint32_t id;
	uint64_t seq;

	/* Encoders: the same bytes as before. */
	CHECK(nb_tput_put_counters(m, NB_T_TPUT_AGENT_RX, &C) == 0 &&
		  same(m, counters_rx, sizeof(counters_rx)),
	      "counters encode to the captured bytes");
	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(nb_tput_put_pacing(m, &C) == 0 && same(m, pacing, sizeof(pacing)),
	      "pacing encodes to the captured bytes");
	nb_tput_udp_hdr_put(buf, 0x0a0b0c0d, 0x0102030405060708ULL, 0x1122334455667788ULL);
	CHECK(!memcmp(buf, udp_hdr, sizeof(udp_hdr)),
	      "datagram header encodes to the captured bytes");

	/* Decoders: the captured bytes read back. */
	load(m, NB_MSG_FINAL, counters_rx, sizeof(counters_rx));
	memset(&d, 0, sizeof(d));
	CHECK(nb_tput_get_counters(m, NB_T_TPUT_AGENT_RX, &d) == 0 && d.bytes == C.bytes &&
		  d.datagrams == C.datagrams && d.expected == C.expected && d.unique == C.unique &&
		  d.reordered == C.reordered && d.duplicates == C.duplicates &&
		  d.errors == C.errors,
	      "captured counters decode");
	CHECK(nb_tput_get_counters(m, NB_T_TPUT_AGENT_TX, &d) == -ENOENT,
	      "counters of the other direction absent: -ENOENT");
	d.pacing_cpu_ns = 5;
	d.pacing_wakeups = 6;
	CHECK(nb_tput_get_counters(m, NB_T_TPUT_AGENT_RX, &d) == 0 && d.pacing_cpu_ns == 5 &&
		  d.pacing_wakeups == 6,
	      "the counters record leaves the pacing figures (a record of their own) as they were");
	CHECK(nb_tput_get_pacing(m, &d) == 0 && d.pacing_cpu_ns == 5 && d.pacing_wakeups == 6,
	      "no pacing record (an older agent): the pacing figures stay as they were");
	load(m, NB_MSG_FINAL, pacing, sizeof(pacing));
	CHECK(nb_tput_get_pacing(m, &d) == 0 && d.pacing_cpu_ns == C.pacing_cpu_ns &&
		  d.pacing_wakeups == C.pacing_wakeups,
	      "captured pacing decodes");
	CHECK(nb_tput_udp_hdr_get(udp_hdr, sizeof(udp_hdr), &id, &seq) == 0 && id == 0x0a0b0c0d &&
		  seq == 0x0102030405060708ULL,
	      "captured datagram header decodes");

	/* Truncated and overlong records refused. */
	memcpy(buf, counters_rx, sizeof(counters_rx));
	buf[3] = 0x30; /* 48 bytes: six counters */
	load(m, NB_MSG_FINAL, buf, sizeof(counters_rx) - 8);
	CHECK(nb_tput_get_counters(m, NB_T_TPUT_AGENT_RX, &d) == -EBADMSG,
	      "six counters instead of seven refused");
	buf[3] = 0x3c; /* 60 bytes: seven counters and 4 bytes more */
	memset(buf + sizeof(counters_rx), 0, 4);
	load(m, NB_MSG_FINAL, buf, sizeof(counters_rx) + 4);
	CHECK(nb_tput_get_counters(m, NB_T_TPUT_AGENT_RX, &d) == -EBADMSG,
	      "counters with trailing bytes refused");
	memcpy(buf, pacing, sizeof(pacing));
	buf[3] = 0x08;
	load(m, NB_MSG_FINAL, buf, 12);
	CHECK(nb_tput_get_pacing(m, &d) == -EBADMSG, "pacing of 8 bytes instead of 16 refused");
	bool refused = true;
	for (size_t n = 0; n < sizeof(udp_hdr); n++)
		refused = refused && nb_tput_udp_hdr_get(udp_hdr, n, &id, &seq) == -EBADMSG;
	CHECK(refused, "datagram headers truncated to 0..23 bytes refused");
	memcpy(buf, udp_hdr, sizeof(udp_hdr));
	buf[3] = 'X';
	CHECK(nb_tput_udp_hdr_get(buf, sizeof(udp_hdr), &id, &seq) == -EBADMSG,
	      "a datagram without the magic refused");

	/* The request. */
	struct nb_tput_request rq;
	CHECK(nb_tput_put_request(m, &RQ_UDP) == 0 && m->type == NB_MSG_TEST_REQ &&
		  same(m, request_udp, sizeof(request_udp)),
	      "a UDP request encodes to the captured bytes");
	CHECK(nb_tput_put_request(m, &RQ_TCP) == 0 && same(m, request_tcp, sizeof(request_tcp)),
	      "a TCP request without the optional items encodes to the captured bytes");
	load(m, NB_MSG_TEST_REQ, request_udp, sizeof(request_udp));
	CHECK(nb_tput_get_request(m, &rq) == 0 && !memcmp(&rq, &RQ_UDP, sizeof(rq)),
	      "the captured UDP request decodes");
	load(m, NB_MSG_TEST_REQ, request_tcp, sizeof(request_tcp));
	CHECK(nb_tput_get_request(m, &rq) == 0 && !memcmp(&rq, &RQ_TCP, sizeof(rq)) &&
		  rq.pacing == NB_PACING_AUTO,
	      "the captured TCP request decodes, absent items as their defaults");
	/* Each required item cut out in turn (the first, the test type, is the session's). */
	size_t at = 0, item = 0, kept = 0;
	bool all = true;
	while (at < sizeof(request_tcp)) {
		size_t len = 4 + (size_t)(request_tcp[at + 2] << 8 | request_tcp[at + 3]);
		if (item++ > 0) {
			memcpy(buf, request_tcp, at);
			memcpy(buf + at, request_tcp + at + len, sizeof(request_tcp) - at - len);
			load(m, NB_MSG_TEST_REQ, buf, sizeof(request_tcp) - len);
			all = all && nb_tput_get_request(m, &rq) == -EBADMSG;
			kept++;
		}
		at += len;
	}
	CHECK(all && kept == 6, "a request missing any of its 6 required items refused");
	memcpy(buf, request_udp, sizeof(request_udp));
	load(m, NB_MSG_TEST_REQ, buf, sizeof(request_udp) - 8); /* without the UDP port */
	m->data[m->len - 5] = 0x03;				/* the burst item: 3 bytes */
	m->len -= 1;
	CHECK(nb_tput_get_request(m, &rq) == -EBADMSG, "a malformed optional item refused");

	/* The acknowledgement. */
	uint16_t port;
	uint32_t cookie, stream, dir;
	nb_msg_reset(m, NB_MSG_TEST_ACK);
	CHECK(nb_tput_put_ack(m, 5201, 0xdeadbeef) == 0 && same(m, ack, sizeof(ack)),
	      "the acknowledgement encodes to the captured bytes");
	CHECK(nb_tput_get_ack(m, &port, &cookie) == 0 && port == 5201 && cookie == 0xdeadbeef,
	      "the captured acknowledgement decodes");
	nb_msg_reset(m, NB_MSG_TEST_ACK);
	nb_tput_put_ack(m, 65536, 1);
	CHECK(nb_tput_get_ack(m, &port, &cookie) == -EBADMSG, "a port above 65535 refused");
	load(m, NB_MSG_TEST_ACK, ack, 8);
	CHECK(nb_tput_get_ack(m, &port, &cookie) == -EBADMSG,
	      "an acknowledgement without cookie refused");

	/* The TCP senders' segment counts: a record of their own, absent from an older agent. */
	struct nb_tput_counters t = {.tcp_segs_out = 12345, .tcp_retrans = 456, .tcp_known = true};
	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(nb_tput_put_tcp(m, &t) == 0 && same(m, tcp_segs, sizeof(tcp_segs)),
	      "TCP segment counts encode to the known bytes");
	memset(&d, 0, sizeof(d));
	CHECK(nb_tput_get_tcp(m, &d) == 0 && d.tcp_known && d.tcp_segs_out == 12345 &&
		  d.tcp_retrans == 456,
	      "TCP segment counts decode");
	t.tcp_known = false;
	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(nb_tput_put_tcp(m, &t) == 0 && m->len == 0, "unknown TCP counts are not sent");
	memset(&d, 0, sizeof(d));
	CHECK(nb_tput_get_tcp(m, &d) == 0 && !d.tcp_known,
	      "no TCP counts (an older agent, UDP): not known, not an error");
	load(m, NB_MSG_FINAL, tcp_segs, 12);
	((uint8_t *)m->data)[3] = 8;
	CHECK(nb_tput_get_tcp(m, &d) == -EBADMSG && !d.tcp_known, "a record cut short refused");
	{
		uint8_t more[20];
		memcpy(more, tcp_segs, sizeof(more));
		more[11] = 0x01; /* 1 sent, 456 retransmitted */
		more[10] = 0;
		load(m, NB_MSG_FINAL, more, sizeof(more));
		CHECK(nb_tput_get_tcp(m, &d) == -EBADMSG && !d.tcp_known,
		      "more retransmitted than sent refused");
	}
	/* The congestion control: asked in the request (tag 108) and used by the agent's senders
	 * (tag 114), each a string item holding an algorithm's name, anything else refused. */
	static const uint8_t cc_req[8] = {0x00, 0x6c, 0x00, 0x04, 'r', 'e', 'n', 'o'};
	static const uint8_t cc_agent[9] = {0x00, 0x72, 0x00, 0x05, 'c', 'u', 'b', 'i', 'c'};
	struct nb_tput_request rqc = RQ_TCP;
	memcpy(rqc.congestion, "reno", 5);
	CHECK(nb_tput_put_request(m, &rqc) == 0 && m->len == sizeof(request_tcp) + 8 &&
		  !memcmp(m->data, request_tcp, sizeof(request_tcp)) &&
		  !memcmp(m->data + sizeof(request_tcp), cc_req, 8),
	      "a request's congestion control: one string item after the others");
	CHECK(nb_tput_get_request(m, &rq) == 0 && !strcmp(rq.congestion, "reno") &&
		  rq.block == RQ_TCP.block,
	      "it decodes with the rest");
	{
		static const char *bad[] = {"Reno", "re no", "../x", "", "aaaaaaaaaaaaaaaa"};
		bool all_bad = true;
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			load(m, NB_MSG_TEST_REQ, request_tcp, sizeof(request_tcp));
			nb_msg_put_str(m, NB_T_TPUT_CONGESTION, bad[i]);
			all_bad = all_bad && nb_tput_get_request(m, &rq) == -EBADMSG;
		}
		CHECK(all_bad, "a request's congestion control that is no algorithm's name refused "
			       "(capitals, a space, a path, empty, 16 characters)");
	}
	/* The kernel profile's rate (tag 109, u32): only when asked, after the other items. */
	static const uint8_t prof_req[8] = {0x00, 0x6d, 0x00, 0x04, 0x00, 0x00, 0x03, 0xe5};
	struct nb_tput_request rqp = RQ_TCP;
	rqp.profile_hz = 997;
	CHECK(nb_tput_put_request(m, &rqp) == 0 && m->len == sizeof(request_tcp) + 8 &&
		  !memcmp(m->data, request_tcp, sizeof(request_tcp)) &&
		  !memcmp(m->data + sizeof(request_tcp), prof_req, 8),
	      "a request's profile rate: one u32 item after the others (997 Hz)");
	CHECK(nb_tput_get_request(m, &rq) == 0 && rq.profile_hz == 997, "it decodes");
	load(m, NB_MSG_TEST_REQ, request_tcp, sizeof(request_tcp));
	nb_msg_put_str(m, NB_T_TPUT_PROFILE_HZ, "x");
	CHECK(nb_tput_get_request(m, &rq) == -EBADMSG, "a profile rate that is no u32 refused");
	struct nb_tput_counters cc = {.tcp_cc = "cubic"};
	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(nb_tput_put_cc(m, &cc) == 0 && same(m, cc_agent, sizeof(cc_agent)),
	      "the agent's congestion control encodes to the known bytes");
	memset(&d, 0, sizeof(d));
	CHECK(nb_tput_get_cc(m, &d) == 0 && !strcmp(d.tcp_cc, "cubic"), "and decodes");
	cc.tcp_cc[0] = '\0';
	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(nb_tput_put_cc(m, &cc) == 0 && m->len == 0, "an unknown one is not sent");
	memcpy(d.tcp_cc, "bbr", 4);
	CHECK(nb_tput_get_cc(m, &d) == 0 && !strcmp(d.tcp_cc, "bbr"),
	      "none sent (an older agent, UDP): left as it was");
	nb_msg_put_str(m, NB_T_TPUT_AGENT_CC, "cu\tbic");
	CHECK(nb_tput_get_cc(m, &d) == -EBADMSG && !strcmp(d.tcp_cc, "bbr"),
	      "a control character refused, nothing written");
	/* The decoder writes the seven counters and reads nothing of c: under UBSan a garbage
	 * bool there (a caller's uninitialized struct, as a fuzzer found) would be reported. */
	memset(&d, 0xa5, sizeof(d));
	load(m, NB_MSG_FINAL, counters_rx, sizeof(counters_rx));
	CHECK(nb_tput_get_counters(m, NB_T_TPUT_AGENT_RX, &d) == 0 && d.bytes == C.bytes &&
		  d.errors == C.errors,
	      "counters decode into a struct whose other members were never set");
	/* The seven counters leave the TCP counts as they were. */
	d.tcp_known = true;
	d.tcp_segs_out = 7;
	load(m, NB_MSG_FINAL, counters_rx, sizeof(counters_rx));
	CHECK(nb_tput_get_counters(m, NB_T_TPUT_AGENT_RX, &d) == 0 && d.tcp_known &&
		  d.tcp_segs_out == 7,
	      "the counters record keeps the TCP counts");

	/* A data connection's header. */
	nb_tput_conn_hdr_put(buf, 0xdeadbeef, 3, 2);
	CHECK(!memcmp(buf, conn_hdr, sizeof(conn_hdr)),
	      "a connection header encodes to the captured bytes");
	CHECK(nb_tput_conn_hdr_get(conn_hdr, sizeof(conn_hdr), &cookie, &stream, &dir) == 0 &&
		  cookie == 0xdeadbeef && stream == 3 && dir == 2,
	      "the captured connection header decodes");
	CHECK(nb_tput_conn_hdr_get(conn_hdr, 7, &cookie, &stream, &dir) == -EBADMSG &&
		  nb_tput_conn_hdr_get(conn_hdr, 0, &cookie, &stream, &dir) == -EBADMSG,
	      "a connection header cut short refused");
	nb_msg_free(m);
	return tap_done();
}
