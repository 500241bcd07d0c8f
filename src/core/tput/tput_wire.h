/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench tput on the wire (docs/protocol.md): the request and its acknowledgement as TLV items
 * of the control protocol (tags 100-199), the counters and pacing figures the agent reports at
 * each mark and at the stop, the header each TCP data connection opens with, and the header of a
 * UDP test datagram. Fixed records go through the cursor (core/base/cursor.h), big-endian. */
#ifndef NB_TPUT_WIRE_H
#define NB_TPUT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "core/session/proto.h"
#include "core/tput/tput.h"

/* Control-protocol tags of the tput test (range 100-199). */
enum nb_tput_tag {
	NB_T_TPUT_PROTO = 100,
	NB_T_TPUT_BLOCK = 101,
	NB_T_TPUT_STREAMS = 102,
	NB_T_TPUT_DIR = 103,
	NB_T_TPUT_COOKIE = 104,
	NB_T_TPUT_UDP_PORT = 105,   /* the controller's UDP receive port (agent sends there) */
	NB_T_TPUT_PACING = 106,	    /* u32 enum nb_pacing_mode; absent: auto */
	NB_T_TPUT_BURST = 107,	    /* u32 datagrams per wake-up; absent: about 1 ms worth */
	NB_T_TPUT_CONGESTION = 108, /* TCP congestion control of both ends; absent: each default */
	NB_T_TPUT_PROFILE_HZ = 109, /* u32: the agent's kernel profile over the window at this
				       rate per CPU; absent: none. The profile (prof_wire.c's
				       items) comes back in the FINAL. */
	NB_T_TPUT_AGENT_RX = 110,   /* counters of what the agent received */
	NB_T_TPUT_AGENT_TX = 111,   /* counters of what the agent sent */
	NB_T_TPUT_AGENT_PACE = 112, /* be64 pacing CPU ns, be64 wake-ups of the agent's senders */
	NB_T_TPUT_AGENT_TCP = 113,  /* be64 segments sent, be64 retransmitted (TCP senders) */
	NB_T_TPUT_AGENT_CC = 114,   /* the agent's TCP senders' congestion control (a name) */
};

/* One step's request as the agent reads it. Values are as sent: the agent's setup judges their
 * range. pacing is NB_PACING_AUTO, burst and udp_port 0 when absent. */
struct nb_tput_request {
	uint32_t proto, block, streams, dir;
	uint64_t rate_bps, duration_ns;
	uint32_t pacing, burst, udp_port;
	char congestion[NB_TCPCC_NAME_MAX]; /* "": each end's default */
	uint32_t profile_hz;		    /* 0: no profile (the agent judges the range) */
};

/* Resets m to a TEST_REQ for one tput step: the test type, duration_ns (the agent's senders stop
 * on their own after it), rq's settings; pacing, burst, udp_port and profile_hz only when set.
 * Returns 0 or -EMSGSIZE. */
int nb_tput_put_request(struct nb_msg *m, const struct nb_tput_request *rq);
/* Reads one back: 0, or -EBADMSG when a required item is missing or any item is malformed. */
int nb_tput_get_request(const struct nb_msg *m, struct nb_tput_request *rq);

/* The agent's acknowledgement: its data port (0: none, a UDP test it only sends in) and the
 * cookie the data connections must present. get: 0, or -EBADMSG for a missing item or a port
 * above 65535. */
int nb_tput_put_ack(struct nb_msg *m, uint32_t port, uint32_t cookie);
int nb_tput_get_ack(const struct nb_msg *m, uint16_t *port, uint32_t *cookie);

/* Counters (tag NB_T_TPUT_AGENT_RX or _TX): get returns 0, -ENOENT when absent, -EBADMSG when
 * not exactly seven counters. */
int nb_tput_put_counters(struct nb_msg *m, uint16_t tag, const struct nb_tput_counters *c);
int nb_tput_get_counters(const struct nb_msg *m, uint16_t tag, struct nb_tput_counters *c);
/* The pacing figures of the agent's senders (NB_T_TPUT_AGENT_PACE); absent: left as they are
 * (an older agent), malformed: -EBADMSG. */
int nb_tput_put_pacing(struct nb_msg *m, const struct nb_tput_counters *c);
int nb_tput_get_pacing(const struct nb_msg *m, struct nb_tput_counters *c);

/* The TCP segment counts of the agent's senders (NB_T_TPUT_AGENT_TCP): put writes nothing when
 * c->tcp_known is false; get sets tcp_known only when present (absent: an older agent, a UDP
 * test or a kernel without them), malformed: -EBADMSG. */
int nb_tput_put_tcp(struct nb_msg *m, const struct nb_tput_counters *c);
int nb_tput_get_tcp(const struct nb_msg *m, struct nb_tput_counters *c);
/* The congestion control of the agent's TCP senders (NB_T_TPUT_AGENT_CC): put writes nothing
 * when c->tcp_cc is empty; get leaves it as it is when absent (an older agent, UDP), -EBADMSG
 * for anything but an algorithm's name. */
int nb_tput_put_cc(struct nb_msg *m, const struct nb_tput_counters *c);
int nb_tput_get_cc(const struct nb_msg *m, struct nb_tput_counters *c);

/* The first NB_TPUT_CONN_HDR bytes of a TCP data connection: cookie, stream, direction. */
void nb_tput_conn_hdr_put(uint8_t *p, uint32_t cookie, uint16_t stream, uint16_t dir);
/* 0, or -EBADMSG when len is not NB_TPUT_CONN_HDR. */
int nb_tput_conn_hdr_get(const uint8_t *p, size_t len, uint32_t *cookie, uint32_t *stream,
			 uint32_t *dir);

/* UDP test datagram header: magic, stream id, sequence, send time (monotonic ns). get: 0, or
 * -EBADMSG for a datagram shorter than the header or without the magic. */
void nb_tput_udp_hdr_put(uint8_t *p, uint32_t stream, uint64_t seq, uint64_t tx_ns);
int nb_tput_udp_hdr_get(const uint8_t *p, size_t len, uint32_t *stream, uint64_t *seq);

#endif
