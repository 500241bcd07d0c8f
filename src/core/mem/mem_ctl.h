/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's driver of a mem run: here (nb_mem_run) or on an agent (request, start, marks
 * until the agent's job is done, stop, decode), with the same result either way. */
#ifndef NB_MEM_CTL_H
#define NB_MEM_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "core/mem/mem.h"
#include "core/session/ctl.h"

/* What a mem run runs: p, here (target.host NULL) or on the agent target names. The params cross
 * the wire to the agent (their stop is each end's own: the front end's Ctrl-C here, the
 * session's end there); the target is the controller's alone, so it is kept out of them. */
struct nb_mem_ctl_req {
	const struct nb_mem_params *p; /* p->stop: Ctrl-C; may be NULL */
	struct nb_ctl_target target;
};

struct nb_mem_ctl_cb {
	/* Before each latency point and each bandwidth round of a run here (an agent reports
	 * none): the run's p->progress. May be NULL. */
	void (*progress)(void *arg, const struct nb_mem_progress *ev);
	void *arg;
};

/* Runs req, with cb's callbacks (may be NULL). p->stop set ends a run here at its next point
 * with what it measured (r->interrupted); on an agent it abandons the run (-EINTR: the agent
 * cancels it and keeps nothing). Returns 0 with *out, its session in (*out)->ctl for the
 * document (NULL for a run here), or a negative errno with the reason in err (and *out, for what
 * was opened: after a failure on an agent, the session alone; or NULL); free *out with
 * nb_mem_result_free in either case. */
int nb_mem_ctl_run(const struct nb_mem_ctl_req *req, const struct nb_mem_ctl_cb *cb,
		   struct nb_mem_result **out, char *err, size_t errlen);

#endif
