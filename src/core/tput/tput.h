/* SPDX-License-Identifier: BSD-2-Clause */
/* The throughput data path: a "side" is the streams of one direction at one end (senders or
 * receivers, TCP or UDP), one thread per stream (one for all UDP receive streams). Threads keep
 * their own counters, published with relaxed atomic stores and summed at the window's edges
 * without locks. UDP datagrams carry a stream id and sequence number, from which the receiver
 * counts loss, reordering and duplicates. */
#ifndef NB_TPUT_H
#define NB_TPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/pacer.h"
#include "core/base/tcpcc.h"

#define NB_TPUT_MAX_STREAMS 64
#define NB_TPUT_UDP_HDR	    24
#define NB_TPUT_UDP_MAGIC   0x4e425544u /* "NBUD" */
#define NB_TPUT_UDP_MAX	    65507	/* largest UDP payload over IPv4 */
#define NB_TPUT_DUP_WINDOW  4096	/* sequence numbers remembered for duplicate detection */

enum nb_tput_proto { NB_TPUT_TCP = 0, NB_TPUT_UDP = 1 };
enum nb_tput_role { NB_TPUT_SEND = 0, NB_TPUT_RECV = 1 };

struct nb_tput_counters {
	uint64_t bytes;		 /* payload bytes sent or received */
	uint64_t datagrams;	 /* UDP datagrams (TCP: send/recv calls) */
	uint64_t expected;	 /* UDP receive: sum over streams of highest sequence + 1 */
	uint64_t unique;	 /* UDP receive: distinct datagrams */
	uint64_t reordered;	 /* UDP receive: arrived after a higher sequence number */
	uint64_t duplicates;	 /* UDP receive */
	uint64_t errors;	 /* send errors other than "try again" (ENOBUFS, ECONNREFUSED...) */
	uint64_t pacing_cpu_ns;	 /* paced senders: thread CPU time spent in the pacers' waits */
	uint64_t pacing_wakeups; /* paced senders: the pacers' waits */
	/* TCP senders: segments sent and retransmitted since connecting (TCP_INFO tcpi_segs_out,
	 * tcpi_total_retrans, all streams); tcp_known false when not read (UDP, a receiver, a
	 * kernel before 4.2, an older agent). */
	uint64_t tcp_segs_out, tcp_retrans;
	bool tcp_known;
	/* TCP senders: the first stream's congestion control (TCP_CONGESTION); "" when not
	 * known (UDP, a receiver, an older agent). */
	char tcp_cc[NB_TCPCC_NAME_MAX];
};

/* Sequence tracking of one UDP stream; exposed for unit tests. */
struct nb_seq_track {
	uint64_t highest_plus1, unique, reordered, duplicates;
	uint64_t seen[NB_TPUT_DUP_WINDOW / 64];
};
void nb_seq_track_add(struct nb_seq_track *t, uint64_t seq);

struct nb_tput_side;

/* rate_bps paces each sender stream (0 = as fast as the socket takes it); deadline_ns is a
 * monotonic instant after which senders stop on their own, whatever the peer says. */
struct nb_tput_side *nb_tput_side_new(enum nb_tput_proto proto, enum nb_tput_role role,
				      uint32_t block, uint64_t rate_bps, uint64_t deadline_ns);
/* Adds a stream on fd (taken over: closed by _free). TCP: one fd per stream; UDP send: a
 * connected socket per stream; UDP receive: one socket for all streams (add it once). */
int nb_tput_side_add(struct nb_tput_side *s, int fd, uint32_t stream_id);
/* Paced senders: spin or burst (auto and txtime: burst; a TCP or multi-stream sender has no
 * per-datagram transmit time here), burst datagrams per wake-up (0: about 1 ms worth). One pacer
 * per stream thread, each at the side's per-stream rate. Call before nb_tput_side_start. */
void nb_tput_side_pacing(struct nb_tput_side *s, enum nb_pacing_mode mode, uint32_t burst);
int nb_tput_side_start(struct nb_tput_side *s);
void nb_tput_side_read(const struct nb_tput_side *s, struct nb_tput_counters *c);
/* Senders: stop and (TCP) shut the write side so the peer sees the end. Receivers: wait until
 * every TCP stream ended or UDP has been quiet for a while, at most drain_ns. Returns 0, or
 * -ETIMEDOUT when receivers had to be cut off before their peer finished. */
int nb_tput_side_stop(struct nb_tput_side *s, uint64_t drain_ns);
/* The same, but receivers go on past drain_ns while bytes still arrive (none for drain_ns ends
 * it), up to max_ns: a slow receiver reading a full socket buffer. */
int nb_tput_side_stop_slow(struct nb_tput_side *s, uint64_t drain_ns, uint64_t max_ns);
/* TCP senders: bytes written that the peer has not acknowledged yet (SIOCOUTQ), all streams;
 * 0 for UDP and receivers. */
uint64_t nb_tput_side_unacked(const struct nb_tput_side *s);
/* Tells every stream to end now (senders stop, receivers stop receiving) without waiting:
 * safe from any thread, also while another one is in nb_tput_side_stop. */
void nb_tput_side_halt(struct nb_tput_side *s);
void nb_tput_side_free(struct nb_tput_side *s);
size_t nb_tput_side_streams(const struct nb_tput_side *s);

/* Their wire codec (tags, request, counters, the data-path headers): tput_wire.h. */
#define NB_TPUT_DIR_TX	  1u /* controller sends, agent receives (netio's "Tx") */
#define NB_TPUT_DIR_RX	  2u /* agent sends, controller receives (netio's "Rx") */
#define NB_TPUT_CONN_HDR  8  /* cookie u32, stream u16, direction u16 on each TCP data connection */
#define NB_TPUT_MAX_BLOCK (1u << 20)

#endif
