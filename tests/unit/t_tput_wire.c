/* SPDX-License-Identifier: BSD-2-Clause */
/* tput's wire codec pinned to bytes: the vectors below were written by the encoder before it
 * moved onto the cursor (the protocol must not change), then every decoder refuses truncated,
 * overlong and malformed input. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/session/proto.h"
#include "core/tput/tput.h"
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
/* A UDP test datagram's header: "NBUD", stream, sequence, send time. */
static const uint8_t udp_hdr[24] = {0x4e, 0x42, 0x55, 0x44, 0x0a, 0x0b, 0x0c, 0x0d,
				    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
				    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};

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
	uint8_t buf[64];
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
	nb_msg_free(m);
	return tap_done();
}
