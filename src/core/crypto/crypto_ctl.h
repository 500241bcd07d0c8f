/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's driver of a crypto run: here (nb_crypto_run) or on an agent (request, start,
 * marks that collect each algorithm as the agent completes it, stop), with the same callbacks and
 * the same result either way, so that the front end only prints. */
#ifndef NB_CRYPTO_CTL_H
#define NB_CRYPTO_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "core/crypto/crypto_run.h"
#include "core/session/ctl.h"

struct nb_crypto_ctl_cb {
	/* The session is up (remote runs only), before the request: for the header. */
	void (*connected)(void *arg, const struct nb_ctl *ctl);
	/* Each algorithm as it completes, in order, here or on the agent. */
	nb_crypto_progress_fn algo_done;
	void *arg;
};

/* What a crypto run runs: p, here (target.host NULL) or on the agent target names. The params
 * cross the wire to the agent (their stop is each end's own: the front end's Ctrl-C here, the
 * session's end there); the target is the controller's alone, so it is kept out of them. */
struct nb_crypto_ctl_req {
	const struct nb_crypto_params *p; /* p->stop: Ctrl-C; may be NULL */
	struct nb_ctl_target target;
};

/* Runs req, with cb's callbacks (may be NULL). p->stop set cuts the run short: the agent is told
 * to stop and the result says interrupted. Returns 0 with *out, its session in (*out)->ctl for
 * the document's agent and env.remote (NULL for a run here), or a negative errno with the reason
 * in err (and *out, for what was opened, or NULL); free *out with nb_crypto_result_free in
 * either case. */
int nb_crypto_ctl_run(const struct nb_crypto_ctl_req *req, const struct nb_crypto_ctl_cb *cb,
		      struct nb_crypto_result **out, char *err, size_t errlen);

#endif
