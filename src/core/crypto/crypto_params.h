/* SPDX-License-Identifier: BSD-2-Clause */
/* A crypto run's parameters: algorithms, request sizes, engines (afalg:DRIVER bound to one kernel
 * driver), window, requests in flight, and the flag that ends the run early; with their defaults
 * and the selection from the user's lists. */
#ifndef NB_CRYPTO_PARAMS_H
#define NB_CRYPTO_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/crypto/crypto_algo.h"
#include "core/session/job.h"

#define NB_CRYPTO_MAX_REPEAT 20

/* The kernel profile of each point (--profile). The agent-only build (make AGENT=1) leaves it out
 * to fit its flash budget (tests/size-budget): its agent refuses a profile, naming the build. */
#ifdef NB_AGENT_ONLY
#define NB_CRYPTO_PROFILE 0
#else
#define NB_CRYPTO_PROFILE 1
#endif

struct nb_crypto_params {
	const struct nb_crypto_algo *algos[NB_CRYPTO_MAX_ALGOS];
	size_t nalgos;
	uint32_t sizes[NB_CRYPTO_MAX_SIZES];
	size_t nsizes;
	const struct nb_crypto_engine *engines[NB_CRYPTO_MAX_ENGINES];
	size_t nengines;
	uint64_t time_ns;   /* measurement window per point */
	uint64_t warmup_ns; /* excluded before each window */
	uint32_t inflight;  /* threads, each with one request in flight */
	uint32_t aad_len;   /* AEAD associated data per request (ESP: 8) */
	/* Consecutive windows each point's window is cut into (--repeat): their spread gives
	 * the point's 95 % interval. 1 for a request without it (an older controller). */
	uint32_t repeat;
	/* --profile: the kernel profile of each point's window at this rate per CPU (0: none),
	 * with its folded stacks when profile_folded (--profile-folded). */
	uint32_t profile_hz;
	bool profile_folded;
	/* Ends the run early: the front end's stop flag, or the agent's job cancel flag; may be
	 * NULL. */
	const nb_cancel_t *stop;
	/* Storage of the afalg:DRIVER engines that engines[] points at (nb_crypto_select_engines
	 * fills it; copy opts with nb_crypto_params_copy, which keeps the pointers inside). */
	struct nb_crypto_engine drv_engines[NB_CRYPTO_MAX_ENGINES];
	char drv_names[NB_CRYPTO_MAX_ENGINES][2][80]; /* "afalg:DRIVER", "DRIVER" */
	size_t ndrv;
};

/* Copies src into dst with the afalg:DRIVER engines pointing into dst's own storage. */
void nb_crypto_params_copy(struct nb_crypto_params *dst, const struct nb_crypto_params *src);
/* Every algorithm, the default sizes, every engine, 0.5 s windows in 3 parts, one in flight, 8
 * AAD bytes. */
void nb_crypto_params_default(struct nb_crypto_params *o);
/* Fills o->engines from a comma-separated list ("all" for every engine; "afalg:DRIVER" for
 * one kernel driver; "afalg:all" for every driver of the selected algorithms, so select the
 * algorithms first). Commas inside parentheses belong to a driver name
 * (afalg:authenc(hmac(sha1-generic),cbc(aes-generic)) is one engine). Returns 0, -ENOENT with
 * the unknown name in bad, -EINVAL with the rest of the list in bad when its parentheses do not
 * match, -E2BIG for too many. */
int nb_crypto_select_engines(struct nb_crypto_params *o, const char *list, char *bad, size_t len);
int nb_crypto_select_algos(struct nb_crypto_params *o, const char *list, char *bad, size_t len);

#endif
