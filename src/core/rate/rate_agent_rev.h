/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's reverse direction of `rate --bidir`: a generator thread of the udp (or packet) engine
 * that sends the trial's frames to the controller (only to its address, by the target rule) from
 * START for the trial's length, at the rate the caps allowed for both directions together;
 * its frame counts go back in FINAL. */
#ifndef NB_RATE_AGENT_REV_H
#define NB_RATE_AGENT_REV_H

#include <stdbool.h>
#include <stdint.h>

#include "core/session/agent.h"
#include "core/session/proto.h"

struct nb_rate_rev;

/* Most flows of the reverse direction: its per-flow counts (8 bytes each) fit FINAL. */
#define NB_RATE_REV_MAX_FLOWS 1024u

/* From a TEST_REQ: NULL in *rev and 0 when the request asks for no reverse direction; else the
 * generator opened (not yet sending), or -EPERM / -EINVAL with the rule in err. trial: the
 * trial id its frames carry; fwd_frame_bps: the forward direction's frame bits per second. */
int nb_rate_rev_setup(const struct nb_agent_ctx *ctx, const struct nb_msg *req, uint16_t trial,
		      uint64_t duration_ns, uint64_t fwd_frame_bps, struct nb_rate_rev **rev,
		      char *err, size_t errlen);
/* The reverse sends the mix the request named (NB_T_RATE_REV_MIX). */
bool nb_rate_rev_has_mix(const struct nb_rate_rev *rev);
/* The engines the reverse sends with (NB_T_RATE_REV_ENGINE). */
#define NB_RATE_REV_UDP	   1u
#define NB_RATE_REV_PACKET 2u
uint32_t nb_rate_rev_engine(const struct nb_rate_rev *rev);
/* The reverse sends a burst of the frames the request named (NB_T_RATE_REV_FRAMES). */
bool nb_rate_rev_has_frames(const struct nb_rate_rev *rev);
/* Starts sending (at START). */
int nb_rate_rev_start(struct nb_rate_rev *rev, char *err, size_t errlen);
/* Stops the sender if it still runs, waits for it, and puts its counts into FINAL. */
int nb_rate_rev_finish(struct nb_rate_rev *rev, struct nb_msg *final);
/* Frames sent so far (after finish: all of them), for the agent's log. */
uint64_t nb_rate_rev_sent(const struct nb_rate_rev *rev);
/* Stops and frees; accepts NULL. */
void nb_rate_rev_free(struct nb_rate_rev *rev);

/* What came back in FINAL, on the controller. */
struct nb_rate_rev_counts {
	uint64_t window_ns, slipped;
	uint32_t flows;
	uint64_t tx_flow[NB_RATE_REV_MAX_FLOWS];
	uint64_t tx;
};
/* 0, or -EBADMSG when absent or malformed. */
int nb_rate_rev_get(const struct nb_msg *final, struct nb_rate_rev_counts *c);

#endif
