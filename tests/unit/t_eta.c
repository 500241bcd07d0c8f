/* SPDX-License-Identifier: BSD-2-Clause */
/* nb_eta_s: the plan until a step has finished, then the measured pace; never negative time. */
#include <math.h>

#include "core/base/eta.h"
#include "tap.h"

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

int main(void)
{
	/* From the plan: 4 steps of 3 s, at the start: 12 s; 1 s into the first: 11 s. */
	CHECK(near(nb_eta_s(4, 0, 3, 0, 0), 12), "plan at the start: %g", nb_eta_s(4, 0, 3, 0, 0));
	CHECK(near(nb_eta_s(4, 0, 3, 0, 1), 11), "plan, 1 s in: %g", nb_eta_s(4, 0, 3, 0, 1));
	/* The first step overran (5 s): the pace, not the plan, from then on: 3 steps x 5 s. */
	CHECK(near(nb_eta_s(4, 1, 3, 5, 5), 15), "pace after one step: %g",
	      nb_eta_s(4, 1, 3, 5, 5));
	CHECK(near(nb_eta_s(4, 1, 3, 5, 7), 13), "pace, 2 s into step 2: %g",
	      nb_eta_s(4, 1, 3, 5, 7));
	/* A step running past its estimate counts as done, not as negative time. */
	CHECK(near(nb_eta_s(4, 3, 3, 9, 20), 0), "last step overrunning: %g",
	      nb_eta_s(4, 3, 3, 9, 20));
	CHECK(near(nb_eta_s(4, 2, 3, 6, 30), 3), "overrun with one more step: %g",
	      nb_eta_s(4, 2, 3, 6, 30));
	/* Nothing to estimate from: no plan, no finished step. */
	CHECK(nb_eta_s(4, 0, 0, 0, 2) < 0, "no plan, no pace: unknown");
	/* With no plan, the pace of the finished steps alone. */
	CHECK(near(nb_eta_s(3, 1, 0, 2, 2), 4), "no plan, pace 2 s: %g", nb_eta_s(3, 1, 0, 2, 2));
	/* Past the end: nothing left. */
	CHECK(near(nb_eta_s(2, 2, 3, 6, 6), 0), "done: 0");
	CHECK(near(nb_eta_s(0, 0, 3, 0, 0), 0), "no steps: 0");
	return tap_done();
}
