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
