/* SPDX-License-Identifier: BSD-2-Clause */
/* The learning phase of `netbench rate` (RFC 2544 section 23): before the first trial of a run,
 * and after each change of the DUT's ruleset, rounds of learning frames on every flow until the
 * receiver has counted learning frames on each, so that neighbour resolution, bridge learning and
 * connection tracking are done before any trial is timed. */
#ifndef NB_LEARN_H
#define NB_LEARN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rate/gen.h"

/* p->learn_ns asking for the default timeout: 2 s over IPv4 (two ARP requests, a second
 * apart), 4 s over IPv6 (neighbour discovery's three solicitations a second apart, RFC 4861,
 * and a round beyond). */
#define NB_LEARN_AUTO	      UINT64_MAX
#define NB_LEARN_MAX	      64   /* learning phases a run records (one per ruleset) */
#define NB_LEARN_WAIT_MS      100u /* a round's wait for its frames (or the drain, if longer) */
#define NB_LEARN_ROUND_FRAMES 16u  /* frames per round at least (one per flow at least) */
#define NB_LEARN_ROUND_MS     20u  /* a round's frames are spread over this long */

/* One learning phase, as it ran (the JSON's "learning" array). */
struct nb_rate_learn {
	char when[64];	 /* "start", "ruleset linear 100", ... */
	bool confirmed;	 /* the receiver counted learning frames on every flow */
	bool counted;	 /* a receiver counts frames (false: send only, nothing to wait for) */
	uint16_t trial;	 /* the learning frames' trial id (every round shares it) */
	uint32_t size;	 /* frame bytes */
	uint32_t rounds; /* rounds sent */
	uint32_t flows;
	uint64_t tx, rx; /* learning frames sent; received (by the end of the phase) */
	double rate_fps; /* of each round */
	double took_s;	 /* from the first learning frame until frames had arrived on every flow */
	uint64_t tx_flow[NB_GEN_MAX_FLOWS], rx_flow[NB_GEN_MAX_FLOWS];
};

struct nb_rate_run;
struct nb_rate_params;

/* The learning timeout a run uses towards an address of family (AF_INET, AF_INET6); 0: none. */
uint64_t nb_rate_learn_timeout_ns(const struct nb_rate_params *p, int family);

/* Runs a learning phase at the start of r's procedure (when: what changed), recorded in
 * r->learn. Returns 0 (also when the timeout is 0: nothing is sent), -ETIMEDOUT with err
 * "no learning frames arrived in 2 s: check the path" (or which flow never got through),
 * -EINTR when stopped, or an engine's or agent's negative errno. */
int nb_rate_learn(struct nb_rate_run *r, const char *when, char *err, size_t errlen);

struct nb_json;
/* The "learning" array of the run's JSON document (learn_json.c). */
void nb_rate_json_learning(struct nb_json *j, const struct nb_rate_run *r);

#endif
