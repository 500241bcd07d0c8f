/* SPDX-License-Identifier: BSD-2-Clause */
/* A tput run checked whole against the agent's caps before the first step, with the decisions
 * the agent itself takes on each step's request (core/session/caps.h). */
#ifndef NB_TPUT_PLAN_H
#define NB_TPUT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/session/caps.h"
#include "core/tput/tput_run.h"

/* What the agent's caps see of its send in blocks of block bytes: packet payload and per-packet
 * overhead on the wire (a TCP block leaves in segments of at most an MSS). */
void nb_tput_wire_shape(enum nb_tput_proto proto, uint32_t block, bool v6, uint32_t *packet_bytes,
			uint32_t *overhead_bytes);
/* The agent's test length for one step of p (its senders stop on their own after this). */
uint64_t nb_tput_step_duration_ns(const struct nb_tput_params *p);
/* Every step of the run (one per size; agent_sends: the agent sends in some of them) against
 * caps: 0 (also when the caps are unknown), or -EPERM with err naming the option, the value
 * asked and the agent's cap. */
int nb_tput_check_plan(const struct nb_caps *caps, const struct nb_tput_params *p,
		       const uint64_t *sizes, size_t nsizes, bool agent_sends, bool v6, char *err,
		       size_t errlen);

/* The agent's data connections of one TCP test: exactly one per stream index and planned
 * direction. seen[0] and seen[1] are bit masks (bit i: stream i) of the connections accepted so
 * far for NB_TPUT_DIR_TX and NB_TPUT_DIR_RX; streams <= 32. Returns 0 and marks the
 * connection, or -EPERM with err naming the connection (stream index, direction) and the
 * plan, for a duplicate or a connection the plan did not ask for. */
int nb_tput_conn_admit(uint32_t streams, uint32_t plan_dir, uint64_t seen[2], uint32_t stream,
		       uint32_t dir, char *err, size_t errlen);

#endif
