/* SPDX-License-Identifier: BSD-2-Clause */
/* The RFC 2544 procedures of `netbench rate` (throughput §26.1, latency §26.2, frame loss rate
 * §26.3, back-to-back §26.4, or one single trial) over any trial runner: the procedures decide
 * which trial comes next and what the answer is; a callback runs each trial. The parameters and
 * results are in rate.h; the real runner is in rate_run.h; a unit test passes a simulated device
 * under test instead. No I/O here. */
#ifndef NB_RFC2544_H
#define NB_RFC2544_H

#include <stddef.h>
#include <stdint.h>

#include "core/rate/rate.h"

/* What a procedure asks of one trial: frames of size at rate_fps (0: flat out) for the
 * configured trial time, or exactly frames frames when frames is not 0. */
struct nb_rate_trial_req {
	uint16_t id;
	uint32_t size;
	double rate_fps;
	uint64_t frames;
	uint64_t duration_ns; /* 0: the run's trial time */
	uint32_t burst;
	const char *purpose;
};
/* Runs one trial and fills rec (already zeroed, with the request's fields set). Returns 0 or a
 * negative errno with err filled; a trial whose counts do not reconcile is not an error (its
 * rec->c.valid is false). */
typedef int (*nb_rate_trial_fn)(void *ctx, const struct nb_rate_trial_req *q,
				struct nb_rate_trial *rec, char *err, size_t errlen);

struct nb_rate_proc {
	const struct nb_rate_params *p;
	nb_rate_trial_fn trial;
	void *ctx;
	/* Every trial run so far, in order. */
	struct nb_rate_trial *trials;
	size_t ntrials, cap;
	uint16_t next_id;
};

/* Runs the procedure of p->test at frame size s->size into s (first_trial and ntrials locate its
 * trials in pr->trials). Returns 0 or the first failing trial's negative errno. */
int nb_rate_procedure(struct nb_rate_proc *pr, struct nb_rate_size *s, char *err, size_t errlen);
void nb_rate_proc_free(struct nb_rate_proc *pr);

/* One sentence on a loss ratio's result at one size (ndrpdr): the rate, what it rests on
 * (searches, verified final trials of what length, the 95 % interval and its degrees of
 * freedom) or "not established" and what to run next. Into buf; returns buf. */
const char *nb_rate_ratio_wording(const struct nb_rate_params *p, const struct nb_rate_size *s,
				  uint32_t i, char *buf, size_t len);

#endif
