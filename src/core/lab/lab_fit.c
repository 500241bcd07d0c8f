/* SPDX-License-Identifier: BSD-2-Clause */
/* Ordinary least squares on (rule count, ns per frame). Per-frame cost, not frames/s, is what
 * grows linearly with a linear rule list: each rule adds a fixed number of nanoseconds. */
#include "core/lab/lab_fit.h"

#include <errno.h>
#include <math.h>

int nb_lab_fit_cost(const double *rules, const double *rate_fps, size_t n, struct nb_lab_fit *fit)
{
	double mean_x = 0, mean_y = 0, sxx = 0, sxy = 0, ss = 0;
	size_t i;

	if (n < 2)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!isfinite(rules[i]) || rules[i] < 0 || !isfinite(rate_fps[i]) ||
		    rate_fps[i] <= 0)
			return -EINVAL;
		mean_x += rules[i];
		mean_y += 1e9 / rate_fps[i];
	}
	mean_x /= (double)n;
	mean_y /= (double)n;
	for (i = 0; i < n; i++) {
		double dx = rules[i] - mean_x;
		sxx += dx * dx;
		sxy += dx * (1e9 / rate_fps[i] - mean_y);
	}
	/* All points at one rule count: the slope is undefined, not zero. */
	if (!(sxx > 0))
		return -EINVAL;
	fit->per_rule_ns = sxy / sxx;
	fit->base_ns = mean_y - fit->per_rule_ns * mean_x;
	for (i = 0; i < n; i++) {
		double r = 1e9 / rate_fps[i] - (fit->base_ns + fit->per_rule_ns * rules[i]);
		ss += r * r;
	}
	fit->residual_ns = sqrt(ss / (double)n);
	fit->points = n;
	return 0;
}
