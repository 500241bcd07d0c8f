/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's gate: one thread that accepts control connections and runs their handshakes side
 * by side, so that no client (idle, slow, or hostile) can hold the door shut. A connection has
 * a short deadline for its first byte and for the whole handshake; pending handshakes are
 * bounded in all and per source address, the oldest least advanced one making room for a new
 * one. While a session is in progress every newcomer is told "busy" at once. A controller that
 * completes the handshake is handed to the session loop. */
#ifndef NB_GATE_H
#define NB_GATE_H

#include "core/session/agent.h"

#define NB_GATE_MAX_PENDING    64   /* handshakes in progress, all sources */
#define NB_GATE_MAX_PER_SOURCE 16   /* handshakes in progress from one address */
#define NB_GATE_FIRST_BYTE_MS  2000 /* from accept to the first byte of HELLO */
#define NB_GATE_HANDSHAKE_MS   5000 /* from accept to the end of the handshake */
#define NB_GATE_MAX_HS_PAYLOAD 1024 /* HELLO and AUTH are far smaller */

struct nb_gate;

/* Starts the gate's thread on listen_fd. 0 or a negative errno. */
int nb_gate_new(struct nb_gate **out, int listen_fd, const struct nb_agent_opts *opts);
/* Waits up to timeout_ms for a controller that proved itself; returns its connected fd, or
 * -EAGAIN. From then on the agent is busy until nb_gate_release. */
int nb_gate_next(struct nb_gate *g, int timeout_ms);
void nb_gate_release(struct nb_gate *g);
/* The session says whether a test is set up: newcomers are then turned away at once, otherwise
 * a proven one waits up to 3 s for the session to end. */
void nb_gate_set_testing(struct nb_gate *g, bool testing);
void nb_gate_free(struct nb_gate *g);

/* Which pending slot gives way to a newcomer: the least advanced (lowest state), then the
 * oldest. states[i] < 0 marks a free slot. Returns an index, or -1 when every slot is free. */
int nb_gate_pick_victim(const int *states, const uint64_t *accepted_ns, const bool *same_src,
			size_t n);

#endif
