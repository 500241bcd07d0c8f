/* SPDX-License-Identifier: BSD-2-Clause */
/* Estimated time left in a run of equal steps, for the front end's progress line: taken from
 * the plan (steps x planned seconds per step) until a step has finished, then from the time the
 * finished steps really took. A pure function, so a unit test can drive it. */
#ifndef NB_ETA_H
#define NB_ETA_H

#include <stddef.h>

/* nsteps planned; step (0-based) is the one running, begun step_start_s after the run began;
 * now_s since the run began; plan_step_s the planned seconds per step (0: unknown). Returns
 * the seconds left (>= 0), or a negative value when there is nothing to estimate from (no plan
 * and no finished step). The running step is counted as done when it overruns its estimate. */
double nb_eta_s(size_t nsteps, size_t step, double plan_step_s, double step_start_s, double now_s);

/* Steps of unequal cost that grows with a size (mem's latency points: fixed trials, plus laying
 * and faulting a working set): the seconds the steps of sizes x_left will take, on the line
 * t = a + b x through the finished steps (x_done, t_done) of the smallest and the largest
 * size, a and b held at 0 or above (no growth seen, or one finished step: their mean time for
 * each). Negative when there is nothing to estimate from (no finished step). */
double nb_eta_linear_s(const double *x_done, const double *t_done, size_t n_done,
		       const double *x_left, size_t n_left);

#endif
