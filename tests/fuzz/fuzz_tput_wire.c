/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the tput test's codec (core/tput/tput_wire.c): the bytes are a message
 * payload read every way a peer's bytes are read (a FINAL's counters and pacing figures and a
 * TEST_ACK as the controller reads them, a TEST_REQ as the agent does), a TCP data connection's
 * header, and a UDP test datagram whose header feeds the receiver's sequence tracking (loss,
 * reordering, duplicates). What decodes must encode back to the same items. Built with
 * -DFUZZ_SEED it writes a valid FINAL payload with a request's items to stdout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/session/proto.h"
#include "core/tput/tput.h"
#include "core/tput/tput_wire.h"

#ifdef FUZZ_SEED
int main(void)
{
	struct nb_msg *m = nb_msg_new(NB_MSG_FINAL);
	struct nb_tput_counters c = {.bytes = 1 << 20,
				     .datagrams = 1024,
				     .expected = 1030,
				     .unique = 1020,
				     .reordered = 3,
				     .duplicates = 1,
				     .pacing_cpu_ns = 5000,
				     .pacing_wakeups = 40},
				back;
	struct nb_tput_request rq = {.proto = NB_TPUT_UDP,
				     .block = 1472,
				     .streams = 2,
				     .dir = 3,
				     .rate_bps = 1000000,
				     .duration_ns = 2000000000,
				     .pacing = 1,
				     .burst = 4,
				     .udp_port = 5000};
	if (!m || nb_tput_put_request(m, &rq) || nb_tput_put_ack(m, 5001, 7))
		return 1;
	m->type = NB_MSG_FINAL;
	if (nb_tput_put_counters(m, NB_T_TPUT_AGENT_RX, &c) ||
	    nb_tput_put_counters(m, NB_T_TPUT_AGENT_TX, &c) || nb_tput_put_pacing(m, &c) ||
	    nb_tput_get_counters(m, NB_T_TPUT_AGENT_RX, &back) || nb_tput_get_pacing(m, &back))
		return 1; /* a seed the decoder refuses would fuzz nothing */
	fwrite(m->data, 1, m->len, stdout);
	nb_msg_free(m);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_msg m;
	static struct nb_seq_track track;
	static uint64_t datagrams;
	struct nb_tput_counters rx, tx;
	struct nb_tput_request rq;
	uint32_t stream, cookie, dir;
	uint16_t port;
	uint64_t seq;

	if (nb_tput_udp_hdr_get(data, size, &stream, &seq) == 0) {
		nb_seq_track_add(&track, seq);
		/* Each datagram is either new to the receiver or a duplicate, never both nor
		 * neither. (One older than the window counts as new: the reconciliation with the
		 * sender's count is what catches a peer that replays old ones.) */
		if (track.unique + track.duplicates != ++datagrams ||
		    track.reordered > track.unique)
			abort();
	}
	if (size > NB_MSG_MAX)
		return 0;
	m.type = NB_MSG_FINAL;
	m.len = (uint32_t)size;
	memcpy(m.data, data, size);
	if (nb_msg_validate(&m))
		return 0;
	memset(&rx, 0, sizeof(rx));
	memset(&tx, 0, sizeof(tx));
	if (nb_tput_conn_hdr_get(data, size, &cookie, &stream, &dir) == 0) {
		uint8_t back[NB_TPUT_CONN_HDR];
		nb_tput_conn_hdr_put(back, cookie, (uint16_t)stream, (uint16_t)dir);
		if (size != sizeof(back) || memcmp(back, data, size))
			abort();
	}
	(void)nb_tput_get_counters(&m, NB_T_TPUT_AGENT_RX, &rx);
	(void)nb_tput_get_counters(&m, NB_T_TPUT_AGENT_TX, &tx);
	(void)nb_tput_get_pacing(&m, &tx);
	(void)nb_tput_get_tcp(&m, &tx);
	/* A congestion control that decodes is an algorithm's name. */
	if (nb_tput_get_cc(&m, &tx) == 0 && tx.tcp_cc[0] && !nb_tcpcc_name_ok(tx.tcp_cc))
		abort();
	(void)nb_tput_get_ack(&m, &port, &cookie);
	/* A request that decodes encodes back to one that decodes the same. */
	if (nb_tput_get_request(&m, &rq) == 0) {
		static struct nb_msg again;
		if (rq.congestion[0] && !nb_tcpcc_name_ok(rq.congestion))
			abort();
		struct nb_tput_request rq2;
		if (nb_tput_put_request(&again, &rq) || nb_tput_get_request(&again, &rq2) ||
		    memcmp(&rq, &rq2, sizeof(rq)))
			abort();
	}
	return 0;
}
#endif
