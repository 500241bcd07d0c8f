/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's wait for a job the agent runs in a thread (crypto, mem): a MARK every few
 * hundred milliseconds keeps the session live and collects what the job has finished, until the
 * test's snapshot says it is over, the run outlasts its bound, or the user's stop flag is set. */
#ifndef NB_CTL_POLL_H
#define NB_CTL_POLL_H

#include <stddef.h>
#include <stdint.h>

#include "core/session/ctl.h"
#include "core/session/job.h"
#include "core/session/proto.h"

/* What a test makes of one SNAP: takes what it carries, then returns NB_POLL_DONE when the run
 * is over, NB_POLL_WAIT to mark again after the interval, NB_POLL_MORE to mark again at once
 * (the agent has more ready than one reply held), or a negative errno with the reason in err. */
enum { NB_POLL_WAIT = 0, NB_POLL_DONE = 1, NB_POLL_MORE = 2 };
typedef int (*nb_ctl_snap_fn)(void *arg, const struct nb_msg *snap, char *err, size_t errlen);

struct nb_ctl_poll {
	uint64_t every_ns; /* between marks */
	uint64_t bound_ns; /* the run's own bound: past it (plus late_ns) the agent is stalled */
	uint64_t late_ns;
	const nb_cancel_t *stop; /* may be NULL */
	const char *what;	 /* the timeout's words: "the run on the agent" */
	nb_ctl_snap_fn snap;
	void *arg;
};

/* Marks until p->snap says done (0), the stop flag is set (-EINTR, err empty: the caller
 * decides what an interrupted run keeps), the bound passes (-ETIMEDOUT) or the session fails.
 * snap is the reply buffer. Call it right after nb_ctl_start. */
int nb_ctl_poll(struct nb_ctl *ctl, const struct nb_ctl_poll *p, struct nb_msg *snap, char *err,
		size_t errlen);

#endif
