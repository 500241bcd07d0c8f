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

	/* Steps whose cost grows with a size: t = 0.05 + 0.01 x exactly. */
	const double xd[3] = {1, 2, 4}, td[3] = {0.06, 0.07, 0.09}, xl[2] = {8, 16};
	CHECK(near(nb_eta_linear_s(xd, td, 3, xl, 2), 0.13 + 0.21),
	      "a line through the finished steps: %g", nb_eta_linear_s(xd, td, 3, xl, 2));
	/* Noise among many small sets does not set the slope: the smallest and largest do. */
	const double xn[4] = {1, 2, 3, 100}, tn[4] = {0.010, 0.011, 0.0095, 0.020}, xnl[1] = {1000};
	double en = nb_eta_linear_s(xn, tn, 4, xnl, 1);
	double bn = (0.020 - 0.010) / 99;
	CHECK(fabs(en - (0.010 - bn + bn * 1000)) < 1e-9,
	      "slope from the smallest and the largest set: %g", en);
	CHECK(nb_eta_linear_s(xd, td, 0, xl, 2) < 0, "nothing finished: unknown");
	CHECK(near(nb_eta_linear_s(xd, td, 1, xl, 2), 0.12), "one finished step: its time each: %g",
	      nb_eta_linear_s(xd, td, 1, xl, 2));
	/* Falling times (noise) never give a negative estimate: their mean. */
	const double tf[3] = {0.09, 0.07, 0.06};
	double m = (0.09 + 0.07 + 0.06) / 3;
	CHECK(near(nb_eta_linear_s(xd, tf, 3, xl, 2), 2 * m), "falling times: the mean, %g",
	      nb_eta_linear_s(xd, tf, 3, xl, 2));
	/* A steep line (negative intercept) goes through the origin instead. */
	const double ts[2] = {1, 10}, xs[2] = {1, 10}, xsl[1] = {100};
	double eta = nb_eta_linear_s(xs, ts, 2, xsl, 1);
	CHECK(eta > 0 && near(eta, 100), "proportional to the size: %g", eta);
	CHECK(near(nb_eta_linear_s(xd, td, 3, xl, 0), 0), "nothing left: 0");
	return tap_done();
}
