/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's gate: one thread that accepts control connections and runs their handshakes side
 * by side, so that no client (idle, slow, or hostile) can hold the door shut. A connection has
 * a short deadline for its first byte and for the whole handshake; pending handshakes are
 * bounded in all and per source address, and shared fairly among sources (nb_gate_admit). While a
 * session is in progress every newcomer is told "busy" at once. A controller that completes the
 * handshake is handed to the session loop. */
#ifndef NB_GATE_H
#define NB_GATE_H

#include "core/session/agent_policy.h"

#define NB_GATE_MAX_PENDING    256  /* handshakes in progress, all sources */
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

/* One handshake in progress as the admission policy sees it. */
struct nb_gate_slot {
	int state;	      /* < 0: free; 0 HELLO expected, 1 AUTH expected, 2 proven, waiting */
	uint32_t source;      /* equal values: the same source address */
	uint64_t accepted_ns; /* when it was accepted */
	bool looked;	      /* the gate has polled it once since (it may be evicted) */
};
#define NB_GATE_ADMIT  (-1) /* a free slot takes the newcomer */
#define NB_GATE_REFUSE (-2) /* no room that fairness allows: the newcomer is closed */
/* Where a newcomer from source goes among n slots: NB_GATE_ADMIT, the index of the slot that
 * gives way, or NB_GATE_REFUSE. A source holding per_source slots makes room from its own.
 * When every slot is taken, the slot comes from the source that holds the most, counting the
 * newcomer's (ties: the newcomer's own source first), and never from a source holding fewer
 * than the newcomer's would: slots are shared fairly among sources. A slot the gate has not
 * yet looked at (whose first bytes may be a controller's HELLO) never gives way; within a
 * source the unproven go before the proven, the oldest first, whatever their step: a
 * connection that sent HELLO but not the proof does not outrank a fresh one. */
int nb_gate_admit(const struct nb_gate_slot *slots, size_t n, uint32_t source, size_t per_source);

#endif
