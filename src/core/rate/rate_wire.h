/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate on the wire (docs/protocol.md): the control protocol's tags of the rate test
 * (200-299) and the receiver's snapshot of a trial as the agent sends it in its FINAL and the
 * controller reads it (rate_wire.c, with a fuzz harness). */
#ifndef NB_RATE_WIRE_H
#define NB_RATE_WIRE_H

#include <stddef.h>

#include "core/session/proto.h"
#include "core/rate/raterx.h"

enum nb_rate_tag {
	NB_T_RATE_NO_MMSG = 200,      /* u32: receive with recvmsg */
	NB_T_RATE_ADDR = 201,	      /* bytes: IPv4 (4) or IPv6 (16) address to receive on */
	NB_T_RATE_BOOT_ID = 202,      /* str: the agent's kernel boot id (same host, same clock) */
	NB_T_RATE_REFLECT_PORT = 203, /* u32: reflect probes to this UDP port of the controller */
	NB_T_RATE_REFLECT_ADDR = 204, /* bytes: at this address (4 or 16; default: the peer's) */
	NB_T_RATE_REFLECT_PPS = 205,  /* u32: at most this many per second */
	NB_T_RATE_TRIAL = 210,	      /* u32: in a request, the only trial id that counts */
	NB_T_RATE_ANY = 211,	      /* u32 */
	NB_T_RATE_RX = 212,	      /* u64 */
	NB_T_RATE_DUP = 213,	      /* u64 */
	NB_T_RATE_REORD = 214,	      /* u64 */
	NB_T_RATE_LATE = 215,	      /* u64 */
	NB_T_RATE_FOREIGN = 216,      /* u64 */
	NB_T_RATE_FLOWS = 217,	      /* u32 */
	NB_T_RATE_RX_FLOW = 218,      /* bytes: flows x be64 */
	NB_T_RATE_SEQ_END = 219,      /* bytes: flows x be64 */
	NB_T_RATE_LAT_SUM = 220,      /* bytes: count, min, max, sum as be64 */
	NB_T_RATE_LAT_BKT = 221,    /* bytes: (be16 index, be64 count) for each non-empty bucket */
	NB_T_RATE_MMSG = 222,	    /* u32: recvmmsg in use */
	NB_T_RATE_PROBES = 223,	    /* u64: probe frames received */
	NB_T_RATE_REFLECTED = 224,  /* u64: probes reflected */
	NB_T_RATE_SOCK_DROPS = 225, /* u64: dropped at full sockets (absent: unknown) */
	NB_T_RATE_LENS = 226,	    /* bytes: (be32 payload length, be64 frames) per length */
	NB_T_RATE_LEN_OTHER = 227,  /* u64: frames of further lengths */
	/* --bidir: the agent also sends the trial's frames back to the controller. */
	NB_T_RATE_REV_PORT = 206,      /* u32: the controller's UDP port (present: --bidir) */
	NB_T_RATE_REV_ADDR = 207,      /* bytes: the controller's address (default: the peer's) */
	NB_T_RATE_REV_FPS = 208,       /* u64: frames per second (0: flat out) */
	NB_T_RATE_REV_BYTES = 209,     /* u32: frame size, FCS included */
	NB_T_RATE_REV_NS = 228,	       /* u64: how long to send */
	NB_T_RATE_REV_FLOWS = 229,     /* u32: flows (default 1) */
	NB_T_RATE_REV_BURST = 230,     /* u32: frames per wake-up (0: about 1 ms worth) */
	NB_T_RATE_REV_PACING = 231,    /* u32: 1 spin, 2 burst (default) */
	NB_T_RATE_REV_OK = 232,	       /* u32 in TEST_ACK: the reverse direction is set up */
	NB_T_RATE_REV_TX = 233,	       /* bytes in FINAL: frames sent per flow, flows x be64 */
	NB_T_RATE_REV_WINDOW_NS = 234, /* u64 in FINAL: first to last send */
	NB_T_RATE_REV_SLIPPED = 235,   /* u64 in FINAL: frames due but not sent */
	NB_T_RATE_REV_MIX = 236,       /* str: --imix, the reverse's mix as SIZE:WEIGHT,... */
	NB_T_RATE_REV_MIX_OK = 237,    /* u32 in TEST_ACK: the reverse sends that mix */
	NB_T_RATE_REV_FRAMES = 238,    /* u64: -m b2b, a burst of this many frames (1 or more) */
	NB_T_RATE_REV_FRAMES_OK = 239, /* u32 in TEST_ACK: the reverse sends that burst */
	NB_T_RATE_REV_ENGINE = 240,    /* u32: 1 udp (default), 2 packet (needs CAP_NET_RAW) */
	NB_T_RATE_REV_ENGINE_OK = 241, /* u32 in TEST_ACK: the engine the reverse sends with */
	/* u32: in a request, receive on NB_T_RATE_ADDR and the count - 1 addresses after it (flows
	 * by destination address); in the ACK, the count the agent receives on (absent from an
	 * agent that receives on one address only) */
	NB_T_RATE_ADDR_COUNT = 250,
	/* u32: in a request, receive on PORT and the count - 1 ports after it (flows by
	 * destination port); in the ACK, the count the agent receives on */
	NB_T_RATE_PORT_COUNT = 251,
	/* u32: in a request, the flows the controller sends (1025 to 65536; absent: up to
	 * 1024), which the agent counts and returns in its ACK */
	NB_T_RATE_FLOWS_MAX = 252,
	/* bytes: past 1024 flows, their counts as runs (varint received, varint sequence end,
	 * varint flows in the run) instead of 218 and 219 */
	NB_T_RATE_FLOW_RUNS = 253,
};

/* Snapshot encoding shared by both ends. get returns 0 or -EBADMSG. */
int nb_rate_snap_put(struct nb_msg *m, const struct nb_rx_snap *s);
int nb_rate_snap_get(const struct nb_msg *m, struct nb_rx_snap *s);
/* This kernel's boot id (36 characters) or "" when unknown. */
void nb_rate_boot_id(char *buf, size_t len);

#endif
