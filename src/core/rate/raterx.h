/* SPDX-License-Identifier: BSD-2-Clause */
/* The counting receiver of `netbench rate`: a thread that reads test frames in recvmmsg batches
 * from a bound UDP socket and keeps, for the current trial, per-flow received, duplicated,
 * reordered and late counts and a latency histogram, in memory fixed at start. */
#ifndef NB_RATERX_H
#define NB_RATERX_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/rate/gen.h"
#include "core/base/hist.h"

#define NB_RX_WINDOW 1024u
/* Flows a receiver counts unless nb_rx_set_flows says more; the most ports, destination
 * addresses at an agent, and flows whose counts an agent sends as plain arrays (past it, as
 * runs: rate_wire.c). */
#define NB_RX_FLOWS 1024u
#define NB_RX_LENS                                                                                 \
	8u /* payload lengths counted apart (an IMIX has up to 8 sizes) */ /* sequence numbers     \
									      remembered per flow, \
									      to tell dup from     \
									      reorder */

/* Counters of one trial as the receiver saw them. The trial is the one nb_rx_expect named; before
 * any was named, a trial begins when its first frame arrives (trial ids increase). Frames of
 * another trial are "late" and counted in the current one, never as its frames. */
struct nb_rx_snap {
	uint16_t trial;
	bool any;	    /* a frame of this trial arrived */
	uint64_t rx;	    /* distinct frames received */
	uint64_t dup;	    /* copies of frames already received */
	uint64_t reordered; /* frames arriving after a higher sequence number of their flow */
	uint64_t late;	    /* frames of an earlier trial, or too old to place in the window */
	uint64_t foreign;   /* datagrams without a test payload */
	uint32_t flows;	    /* highest flow id seen + 1 */
	uint64_t rx_flow[NB_GEN_MAX_FLOWS];
	uint64_t seq_end[NB_GEN_MAX_FLOWS]; /* highest sequence number seen + 1 */
	struct nb_hist lat;		    /* rx CLOCK_MONOTONIC - tx stamp, ns */
	bool mmsg;			    /* recvmmsg in use (false: recvmsg fallback) */
	uint64_t probes;		    /* probe frames among rx (counted as test frames) */
	uint64_t reflected;		    /* probes sent back (not test traffic) */
	/* Datagrams the kernel dropped at the receiving sockets (mostly because they were full:
	 * the receiver, not the path, lost them) since the trial began, from the sockets'
	 * counters (SO_MEMINFO) read at the snapshot. */
	uint64_t sock_drops;
	bool drops_known; /* the kernel reports them (SO_MEMINFO, Linux 4.12+) */
	/* Received frames (counted in rx) by UDP payload length: the first NB_RX_LENS lengths
	 * seen, the rest in len_other (--imix reconciles each size with these). */
	uint32_t nlens;
	uint32_t len_bytes[NB_RX_LENS];
	uint64_t len_rx[NB_RX_LENS];
	uint64_t len_other;
	bool lens_known; /* false: an agent that does not count by length */
};

/* Reflection never exceeds this many probes per second, whatever the sender marks: the
 * returning copies must not load the path the trial measures. */
#define NB_RX_REFLECT_MAX_PPS 2000u
/* The bucket's depth (a quarter second's worth): when the receiving thread was held up, the
 * probes that queued meanwhile all deserve reflecting (the round trip then shows the hold-up). */
#define NB_RX_REFLECT_BURST 500u

struct nb_rx;

#define NB_RX_MAX_SOCKETS 64u

/* Takes ownership of fd, a bound UDP socket. */
int nb_rx_new(struct nb_rx **rx, int fd, bool no_mmsg);
/* Takes ownership of n (1 to NB_RX_MAX_SOCKETS) bound UDP sockets, usually one SO_REUSEPORT
 * group: one receiving thread each, their counters summed by nb_rx_snapshot. */
int nb_rx_new_group(struct nb_rx **rx, const int *fds, uint32_t n, bool no_mmsg);
/* Takes ownership of n (1 to NB_RX_FLOWS) sockets bound to a range of ports (flows by
 * destination port): workers threads (at most NB_RX_MAX_SOCKETS and n), socket i read by
 * thread i % workers through epoll; each socket's receive buffer is 8 MB / its thread's share
 * (at least 256 KB). */
int nb_rx_new_ports(struct nb_rx **rx, const int *fds, uint32_t n, uint32_t workers, bool no_mmsg);
/* Opens n UDP sockets bound to addr's address at its port, port + 1, ... (without
 * SO_REUSEADDR: no port is shared), raising the soft RLIMIT_NOFILE where it is too low for
 * them. Returns n, or a negative errno (-EINVAL for more than NB_RX_FLOWS or a range past
 * 65535; -EMFILE where the hard limit is too low; bind's) with nothing left open. */
int nb_rx_bind_ports(const struct sockaddr *addr, uint32_t n, int *fds);
uint32_t nb_rx_sockets(const struct nb_rx *rx);
/* Opens n UDP sockets bound to addr, with SO_REUSEPORT when n > 1, into fds. Returns how many
 * were opened: 1 where the kernel lacks SO_REUSEPORT (before 3.9: ENOPROTOOPT), or a negative
 * errno (bind's) with nothing left open. */
int nb_rx_bind_group(const struct sockaddr *addr, socklen_t len, uint32_t n, int *fds);
int nb_rx_start(struct nb_rx *rx);
/* Before start: send each probe frame back to `to` (18 bytes, NB_REFLECT_MAGIC) from the
 * receiving socket, at most max_pps per second (capped at NB_RX_REFLECT_MAX_PPS). */
void nb_rx_reflect(struct nb_rx *rx, const struct sockaddr *to, uint32_t max_pps);
/* Before start: frames of flows 0 .. flows - 1 count (the rest are foreign; NB_RX_FLOWS until
 * told), each flow's sequence window 128 bytes; wide: the flow id's top bit is the flow's (no
 * probes: a receiver that reflects nothing), which flows past 32768 need. -EINVAL past
 * NB_GEN_MAX_FLOWS (32768 unless wide), -ENOMEM. */
int nb_rx_set_flows(struct nb_rx *rx, uint32_t flows, bool wide);
/* Sets every socket's receive buffer (SO_RCVBUF; the kernel doubles it and keeps a floor)
 * instead of the large one nb_rx_new asks for: a sink that cannot keep up, on purpose. */
int nb_rx_set_rcvbuf(struct nb_rx *rx, int bytes);
/* Names the trial whose frames come next: from now on only frames with that id count (the
 * others are late), from zero unless that id was already expected (learning rounds add up). */
void nb_rx_expect(struct nb_rx *rx, uint16_t trial);
/* Copies the current trial's counters (summed over the sockets). */
void nb_rx_snapshot(struct nb_rx *rx, struct nb_rx_snap *snap);
/* Adds one socket's counters to a sum: the newest trial wins, counters of one trial add up,
 * per-flow sequence ends take the highest. */
void nb_rx_snap_merge(struct nb_rx_snap *into, const struct nb_rx_snap *from);
/* Stops the thread and frees everything; accepts NULL. */
void nb_rx_free(struct nb_rx *rx);

/* What a trial adds up to, from the sender's per-flow counts and the receiver's snapshot. */
struct nb_trial_counts {
	uint64_t tx, rx, lost, dup, reordered, late;
	bool valid;
	char why[128]; /* when not valid */
};

/* Reconciles: every flow received at most what was sent to it and no sequence number beyond
 * it; loss is what remains. A snapshot of another trial means nothing arrived. */
void nb_rx_reconcile(const uint64_t *tx_flow, uint32_t flows, uint16_t trial,
		     const struct nb_rx_snap *snap, struct nb_trial_counts *c);

#endif
