/* SPDX-License-Identifier: BSD-2-Clause */
/* Observing a box in the path of a stream sweep: the sender reports each step's window edges
 * (the first datagram after the warm-up, the step's last datagram) and a thread of this file
 * opens and closes the observers' window there, so the paced sender never waits on an
 * observer's round trip. Returns -errno with the reason in err; never prints or exits. */
#ifndef NB_STREAM_OBS_H
#define NB_STREAM_OBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/observe/obs_set.h"

struct nb_stream_obs;

/* Starts the thread for nsteps steps of at most step_ns each (the observers' window limit). */
int nb_stream_obs_start(struct nb_stream_obs **o, struct nb_obs_set *set, size_t nsteps,
			uint64_t step_ns);
/* The sender's edge of step i (open: its window begins; else it ends). Never blocks on the
 * network: an nb_stream_send_opts on_edge callback, arg the nb_stream_obs. */
void nb_stream_obs_edge(void *arg, size_t i, bool open);
/* Waits for the edges reported so far to be handled, stops the thread and hands over one trial
 * per step into trials (nsteps of them, zeroed where a step was not observed) and, into lag_ns
 * (2 per step: open, close; may be NULL), how long after the sender's edge each observer's
 * answer came: its counters were read within that time. Frees o. */
int nb_stream_obs_finish(struct nb_stream_obs *o, struct nb_obs_trial *trials, uint64_t *lag_ns,
			 char *err, size_t errlen);

#endif
