/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench crypto's result as JSON: the members of the document, the parts the agent sends one
 * algorithm at a time, and the whole document that -J, -o and --save take. */
#ifndef NB_CRYPTO_JSON_H
#define NB_CRYPTO_JSON_H

#include <stddef.h>

#include "core/base/json.h"
#include "core/base/result.h"
#include "core/crypto/crypto_run.h"

/* Writes the result's members (config, engines, results) into the open object j. */
void nb_crypto_result_json(struct nb_json *j, const struct nb_crypto_result *r);
/* Writes one algorithm's entries of "results" (one object per engine) into the open array j. */
void nb_crypto_algo_json(struct nb_json *j, const struct nb_crypto_result *r, size_t algo);
/* The result as one JSON object in a malloc'd string (free it): the whole result
 * (NB_CRYPTO_JSON_ALL), everything but "results" (NB_CRYPTO_JSON_HEAD), or
 * {"algo": ..., "results": [...]} for one algorithm (algo >= 0). A whole run with several kernel
 * engines exceeds one protocol message (64 KB); the head and one algorithm (about 1 KB per
 * point) each fit, so the agent can send each algorithm as the progress callback reports it. */
#define NB_CRYPTO_JSON_ALL  (-1)
#define NB_CRYPTO_JSON_HEAD (-2)
int nb_crypto_result_json_text(const struct nb_crypto_result *r, int algo, char **text,
			       size_t *len);
/* The whole document (schema netbench/1) as text ending in a newline, malloc'd (free it): the
 * frame, "agent" for a run on one (agent NULL for a run here), the result. 0 or -ENOMEM. */
int nb_crypto_doc_text(const struct nb_crypto_result *r, const struct nb_sysinfo *local,
		       const struct nb_result_agent *agent, char **text, size_t *len);

#endif
