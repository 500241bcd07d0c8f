/* SPDX-License-Identifier: BSD-2-Clause */
/* The rule-sweep fit: exact lines are recovered, noise shows in the residual, degenerate
 * input is refused. */
#include <errno.h>
#include <math.h>

#include "core/base/lab_fit.h"
#include "tap.h"

int main(void)
{
	struct nb_lab_fit fit;
	/* 500 ns + 2 ns per rule: 2.0 Mfps at 0 rules, 1.0 Mfps at 250, 0.4 Mfps at 1000. */
	double rules[] = {0, 250, 1000, 5000};
	double fps[] = {2e6, 1e6, 1e9 / 2500.0, 1e9 / 10500.0};
	double noisy[] = {1e9 / 510.0, 1e9 / 990.0, 1e9 / 2510.0, 1e9 / 10490.0};
	double same[] = {100, 100, 100};
	double bad[] = {2e6, 0, 1e6};

	CHECK(nb_lab_fit_cost(rules, fps, 4, &fit) == 0, "exact line fits");
	CHECK(fabs(fit.base_ns - 500) < 1e-6, "base 500 ns (got %g)", fit.base_ns);
	CHECK(fabs(fit.per_rule_ns - 2) < 1e-9, "2 ns per rule (got %g)", fit.per_rule_ns);
	CHECK(fit.residual_ns < 1e-6 && fit.points == 4, "no residual, 4 points");
	CHECK(nb_lab_fit_cost(rules, fps, 2, &fit) == 0 && fabs(fit.per_rule_ns - 2) < 1e-9 &&
		  fit.residual_ns < 1e-9,
	      "two points give the line through them");
	CHECK(nb_lab_fit_cost(rules, noisy, 4, &fit) == 0, "noisy points fit");
	CHECK(fabs(fit.per_rule_ns - 2) < 0.01 && fabs(fit.base_ns - 500) < 10,
	      "noisy: near 500 ns + 2 ns/rule (got %g + %g)", fit.base_ns, fit.per_rule_ns);
	CHECK(fit.residual_ns > 1 && fit.residual_ns < 20, "noisy: residual shows (got %g ns)",
	      fit.residual_ns);
	CHECK(nb_lab_fit_cost(rules, fps, 1, &fit) == -EINVAL, "one point refused");
	CHECK(nb_lab_fit_cost(same, fps, 3, &fit) == -EINVAL, "one rule count refused");
	CHECK(nb_lab_fit_cost(rules, bad, 3, &fit) == -EINVAL, "zero rate refused");
	return tap_done();
}
