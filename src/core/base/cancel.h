/* SPDX-License-Identifier: BSD-2-Clause */
/* What ends a run early, set from a signal handler (the front end's stop flag) or by the agent's
 * job runner (session/job.h): the one cancellation type every test's run, the lab and the agent
 * loop take, always as `const nb_cancel_t *` (read, never written, by who is cancelled). NULL
 * means never. */
#ifndef NB_CANCEL_H
#define NB_CANCEL_H

#include <signal.h>
#include <stdbool.h>

typedef volatile sig_atomic_t nb_cancel_t;

static inline bool nb_cancelled(const nb_cancel_t *c)
{
	return c && *c;
}

#endif
