/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's side of `netbench rate -c AGENT`: the counting receiver runs on the agent
 * (test kind NB_TEST_RATE), one agent test per trial, so that the agent's policy judges every
 * trial's duration and rate; the trial's counters come back in the FINAL message. */
#ifndef NB_RATE_REMOTE_H
#define NB_RATE_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/base/cpu.h"
#include "core/rate/raterx.h"
#include "core/base/sysinfo.h"
#include "core/rate/mix.h"
#include "core/rate/rate_agent_rev.h"
#include "core/session/ctl.h"

struct nb_rate_remote;

struct nb_rate_remote_cfg {
	struct nb_ctl_target agent; /* where it is, and its key */
	const char *dst_addr;	    /* NULL: frames go to the agent's control address */
	uint16_t port;		    /* UDP port the agent receives on */
	uint32_t dst_count;  /* flows by destination address: the agent's dst ... + count - 1 */
	uint32_t port_count; /* flows by destination port: port ... port + count - 1 */
	uint32_t flows;	     /* flows the agent is to count (past 1024: it must say it can) */
	bool no_mmsg;
};

/* Connects, runs a first empty trial (which proves the agent can receive on the port) and fills
 * dst with where frames go. same_clock: the agent runs on this kernel (same boot id), so its
 * CLOCK_MONOTONIC is ours and one-way latency holds. */
int nb_rate_remote_open(struct nb_rate_remote **rr, const struct nb_rate_remote_cfg *cfg,
			struct sockaddr_storage *dst, socklen_t *dst_len, struct nb_sysinfo *remote,
			bool *same_clock, char *err, size_t errlen);
/* Before a trial: the agent's receiver for it, checked against the agent's caps (rate_bps 0:
 * as fast as the generator goes), counting only frames of trial id `trial` (0: the first id to
 * arrive, as older agents do). */
int nb_rate_remote_begin(struct nb_rate_remote *rr, uint16_t trial, uint64_t duration_ns,
			 uint64_t rate_bps, char *err, size_t errlen);
/* After the trial drained: the receiver's counters, and the agent's CPU load from just after the
 * trial started to now (cpu->valid false when the agent's samples were unusable). */
int nb_rate_remote_end(struct nb_rate_remote *rr, struct nb_rx_snap *snap, struct nb_cpu_load *cpu,
		       char *err, size_t errlen);
/* From the next trial on, the agent reflects probe frames to port at addr (NULL: this end of
 * the control connection), at most max_pps per second. */
void nb_rate_remote_reflect(struct nb_rate_remote *rr, const struct sockaddr *addr, uint16_t port,
			    uint32_t max_pps);
/* --bidir: from the next trial on, the agent also sends the trial's frames to port at addr (a
 * socket of ours), flows of them, with this pacing; each trial's rate, frame size and length
 * from nb_rate_remote_rev_trial, which arms the next begin only (learning rounds send one way);
 * frames: a burst of that many (-m b2b, confirmed by the agent as a mix is), 0 for trial_ns.
 * An agent that does not answer that it does (older than
 * --bidir) fails the trial's begin with a sentence naming it. mix (--imix, or NULL): the
 * reverse sends that mix, which the agent must confirm likewise; engine: NB_RATE_REV_UDP or
 * NB_RATE_REV_PACKET (the agent's packet engine, confirmed likewise). */
void nb_rate_remote_rev(struct nb_rate_remote *rr, const struct sockaddr *addr, uint16_t port,
			uint32_t flows, uint32_t pacing, uint32_t burst, const struct nb_mix *mix,
			uint32_t engine);
void nb_rate_remote_rev_trial(struct nb_rate_remote *rr, uint64_t fps, uint32_t frame_bytes,
			      uint64_t trial_ns, uint64_t frames);
/* After nb_rate_remote_end: what the agent sent in the reverse direction (rate_agent_rev.h). */
const struct nb_rate_rev_counts *nb_rate_remote_rev_counts(const struct nb_rate_remote *rr);
/* Our end of the control connection. */
const struct sockaddr *nb_rate_remote_local(const struct nb_rate_remote *rr);
void nb_rate_remote_free(struct nb_rate_remote *rr);

#endif
