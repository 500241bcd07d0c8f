/* SPDX-License-Identifier: BSD-2-Clause */
/* The two ends of `netbench rate`'s traffic: generator engines (one file each, a const table of
 * callbacks) that put frames of one flow on the wire, the pacer that calls them at a steady
 * rate, in bursts, or as fast as they go; and beside them the receiver table (rx.c: local,
 * agent, none) that counts what arrived. */
#ifndef NB_GEN_H
#define NB_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/base/cancel.h"
#include "core/base/pacer.h"
#include "core/session/ctl.h"

#define NB_GEN_MAX_FLOWS 65536 /* a run's; a receiver counts NB_RX_FLOWS unless told more */
#define NB_GEN_MAX_BATCH 1024  /* sendmmsg takes at most UIO_MAXIOV (1024) messages */

struct nb_gen_cfg {
	struct sockaddr_storage dst; /* address and port of the receiver */
	socklen_t dst_len;
	uint16_t sport_base; /* flow f uses sport_base + f; 0: ports the kernel picks */
	uint32_t flows;
	uint32_t flow_base; /* this engine's flow f is flow flow_base + f of the trial (threads) */
	uint32_t batch;	    /* most frames per system call */
	uint32_t frame_max_bytes; /* the largest frame any trial will use */
	bool no_mmsg;		  /* udp: use sendmsg even where sendmmsg works */
	/* packet: flows differ by source address (flow f of the trial from src_first + f) and
	 * by source port unless sport_fixed (flows.h, --flow-fields) */
	bool src_spread, sport_fixed;
	struct sockaddr_storage src_first;
	/* flows differ by destination address: flow f of the trial goes to dst + f (flows.h,
	 * --flow-fields dst-ip), the receiver's own range */
	bool dst_spread;
	/* flows differ by destination port: flow f of the trial to the receiver's port + f */
	bool dport_spread;
	int neigh_wait_ms; /* packet: how long to wait for ARP */
};

struct nb_mix;

struct nb_gen_engine {
	const char *name;
	/* Opens sockets and resolves what the engine needs; a failure explains itself in err. */
	int (*open)(const struct nb_gen_cfg *cfg, void **state, char *err, size_t errlen);
	/* Prepares frames of frame_bytes (FCS included) for a trial; -EMSGSIZE when too large.
	 * probe_every: mark one frame in that many of flow 0 as a probe (nb_probe_due); 0: none. */
	int (*prepare)(void *state, uint32_t frame_bytes, uint16_t trial, uint32_t probe_every);
	/* Sends up to n frames of one flow, sequence numbers first_seq...; returns the number
	 * handed to the kernel (0 when it pushed back) or a negative errno. */
	int (*send)(void *state, uint32_t flow, uint32_t first_seq, uint32_t n);
	/* Frames of a mix (mix.h) from the next prepare on: frame k of a flow has the size at
	 * pattern position k % length; NULL mix: one size again. NULL where the engine sends
	 * one size only. */
	int (*set_mix)(void *state, const struct nb_mix *mix);
	/* Waits until every frame handed over has left (the packet engine's ring). */
	int (*drain)(void *state);
	/* One line on how the engine runs ("sendmmsg, 32 frames per call"). */
	void (*describe)(void *state, char *buf, size_t len);
	void (*close)(void *state);
};

extern const struct nb_gen_engine nb_gen_udp, nb_gen_packet;
/* NULL-terminated table of all engines. */
extern const struct nb_gen_engine *const nb_gen_engines[];
const struct nb_gen_engine *nb_gen_find(const char *name);

/* Where and how the receiver of a run listens. */
struct nb_rx_cfg {
	struct sockaddr_storage dst; /* local: address to bind; none: where frames go */
	socklen_t dst_len;
	const char *netns;	    /* local: network namespace to receive in (NULL: ours) */
	struct nb_ctl_target agent; /* agent: where it is, and its key */
	const char *dst_addr;	    /* agent: frames go there (NULL: the agent's control address) */
	uint16_t port;		    /* UDP port frames go to */
	bool no_mmsg;
	uint64_t rcvbuf;  /* local: the socket's receive buffer (0: as large as allowed) */
	uint32_t sockets; /* local: receiving sockets and threads, one SO_REUSEPORT group (0: 1) */
	/* Flows by destination address: frames go to dst + 0 ... dst + dst_count - 1, which must
	 * all be the receiver's own (checked where it runs); 0 or 1: dst alone. */
	uint32_t dst_count;
	/* Flows by destination port: frames go to port ... port + port_count - 1, one socket
	 * each at the receiver; 0 or 1: port alone. */
	uint32_t port_count;
	uint32_t
	    flows; /* flows to count (past NB_RX_FLOWS: 128 B each; an agent must say it can) */
};

struct nb_rx_snap;
struct nb_cpu_load;
struct nb_sysinfo;

struct nb_rx_engine {
	const char *name; /* "local", "agent", "none": what the JSON calls the receiver */
	bool counts;	  /* counts frames (false: send only, nothing is reconciled) */
	bool remote;	  /* on an agent: its platform and CPU load come back */
	/* Opens the receiver; fills where frames go, and same_clock when the receiver reads this
	 * host's CLOCK_MONOTONIC (one-way latency holds); remote: the agent's platform. */
	int (*open)(const struct nb_rx_cfg *cfg, void **state, struct sockaddr_storage *dst,
		    socklen_t *dst_len, bool *same_clock, struct nb_sysinfo *remote, char *err,
		    size_t errlen);
	/* Before a trial lasting up to duration_ns at rate_bps (0: flat out) whose frames carry
	 * trial id `trial`: the receiver counts only those (others are late), from zero unless
	 * it already counted that id. */
	int (*begin)(void *state, uint16_t trial, uint64_t duration_ns, uint64_t rate_bps,
		     char *err, size_t errlen);
	/* After the trial drained: the receiver's counters, and (remote) the agent's CPU load. */
	int (*end)(void *state, struct nb_rx_snap *snap, struct nb_cpu_load *cpu, char *err,
		   size_t errlen);
	/* Reflect probe frames to port at addr (NULL: this end of the control connection);
	 * NULL where the receiver cannot. */
	void (*reflect)(void *state, const struct sockaddr *addr, uint16_t port, uint32_t max_pps);
	/* Threads counting frames (NULL: one when it counts, else none). */
	uint32_t (*threads)(void *state);
	void (*close)(void *state); /* accepts NULL */
};

extern const struct nb_rx_engine nb_rx_local, nb_rx_agent, nb_rx_none;

/* One trial: rate_fps frames per second (0: as fast as the engine goes) for duration_ns, or
 * exactly frames frames when frames is not 0, paced by an nb_pacer (pacer.h) in mode pacing:
 * burst (auto is burst: the CPU sleeps between groups of about 1 ms of frames, or of burst
 * frames, sent back to back) or spin (every frame on its own deadline, several per system call
 * only at rates above 20 k frames/s or when behind). */
struct nb_gen_trial {
	uint64_t rate_fps;
	uint64_t duration_ns;
	uint64_t frames;
	enum nb_pacing_mode pacing; /* spin or burst (auto: burst; txtime is not supported) */
	uint32_t burst;		    /* frames per wake-up in burst mode, 0: about 1 ms worth */
	uint32_t flows;
	uint32_t batch;
	const nb_cancel_t *stop; /* may be NULL */
	/* Per flow of the trial: the first sequence number to send (NULL: 0). Learning rounds
	 * continue one sequence so that a receiver counts them as one stream. */
	const uint64_t *seq_base;
};

struct nb_gen_stats {
	uint64_t tx_frames;
	uint64_t tx_flow[NB_GEN_MAX_FLOWS];
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC of the first and after the last send */
	uint64_t pushback;	   /* calls that sent nothing because the kernel pushed back */
	/* Frames the schedule had due by the trial's end (a time-limited trial at a rate) that
	 * were not sent: the sender was held up, or the kernel pushed back. */
	uint64_t slipped_frames;
	uint64_t pacing_cpu_ns;	 /* thread CPU time the pacer spent sleeping and spinning */
	uint64_t pacing_wakeups; /* its waits that slept or spun */
	uint32_t pacing_burst;	 /* frames per wake-up it used (1 in spin mode; 0: unpaced) */
};

/* Runs one trial on an opened and prepared engine. Returns 0 or the engine's negative errno. */
int nb_gen_run(const struct nb_gen_engine *e, void *state, const struct nb_gen_trial *t,
	       struct nb_gen_stats *s);

#endif
