/* SPDX-License-Identifier: BSD-2-Clause */
/* Time left in a run of steps: the plan first, then what the finished steps took. */
#include "core/base/eta.h"

double nb_eta_s(size_t nsteps, size_t step, double plan_step_s, double step_start_s, double now_s)
{
	double per_step, in_step, left;

	if (step >= nsteps)
		return 0;
	/* Finished steps measure what a step costs here (setup and drain included): that
	 * corrects the plan, which knows only the windows. */
	per_step = step > 0 && step_start_s > 0 ? step_start_s / (double)step : plan_step_s;
	if (!(per_step > 0))
		return -1;
	in_step = now_s - step_start_s;
	left = per_step - (in_step > 0 ? in_step : 0);
	if (left < 0)
		left = 0;
	return left + (double)(nsteps - step - 1) * per_step;
}

double nb_eta_linear_s(const double *x_done, const double *t_done, size_t n_done,
		       const double *x_left, size_t n_left)
{
	size_t lo = 0, hi = 0;
	double a = 0, b = 0, left = 0;

	if (!n_done)
		return -1;
	for (size_t i = 1; i < n_done; i++) {
		if (x_done[i] < x_done[lo])
			lo = i;
		if (x_done[i] > x_done[hi])
			hi = i;
	}
	/* The line through the smallest and the largest size measured: a fit of all the points
	 * lets the noise of many small, equal steps set a slope that the largest sizes multiply
	 * many times over. */
	if (x_done[hi] > x_done[lo])
		b = (t_done[hi] - t_done[lo]) / (x_done[hi] - x_done[lo]);
	if (!(b > 0)) { /* no growth seen: each step as long as the finished ones, on average */
		b = 0;
		for (size_t i = 0; i < n_done; i++)
			a += t_done[i];
		a /= (double)n_done;
	} else {
		a = t_done[lo] - b * x_done[lo];
		if (!(a > 0))
			a = 0;
	}
	for (size_t i = 0; i < n_left; i++)
		left += a + b * x_left[i];
	return left;
}
