/* SPDX-License-Identifier: BSD-2-Clause */
/* `netbench rate` across the control protocol: the agent runs the counting receiver, one test
 * per trial (so the agent's policy checks each trial's duration and rate), and reports the
 * receiver's counters in its FINAL message; the tags (200-299) and the codec are in rate_wire.h. */
#ifndef NB_RATE_AGENT_H
#define NB_RATE_AGENT_H

#include "core/session/agent.h"
#include "core/rate/rate_wire.h"

extern const struct nb_test_ops nb_rate_ops;

#endif
