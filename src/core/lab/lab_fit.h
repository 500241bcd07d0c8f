/* SPDX-License-Identifier: BSD-2-Clause */
/* The firewall's cost in two numbers: a least-squares fit of per-frame cost against rule
 * count, cost_ns = base_ns + per_rule_ns * N, from (N, frames/s) points of a rule sweep, each
 * with its standard error and 95 % interval (Student's t on the residual degrees of freedom). */
#ifndef NB_LAB_FIT_H
#define NB_LAB_FIT_H

#include <stdbool.h>
#include <stddef.h>

struct nb_lab_fit {
	double base_ns;	    /* per-frame cost with no rules */
	double per_rule_ns; /* added per-frame cost of each rule */
	double residual_ns; /* root mean square of (measured - fitted) per-frame cost */
	size_t points;
	size_t dof; /* residual degrees of freedom: points - 2 */
	/* Standard error and 95 % interval of the slope, 95 % interval of the base: NAN when
	 * dof is 0 (two points leave nothing to judge the line by). */
	double per_rule_se_ns, per_rule_lo_ns, per_rule_hi_ns;
	double base_lo_ns, base_hi_ns;
	double r2; /* share of the cost's variation the line explains; NAN when the cost is flat */
};

/* Fits rules[i] -> 1e9 / rate_fps[i]. Needs at least two distinct rule counts and positive,
 * finite rates; returns 0 or -EINVAL. */
int nb_lab_fit_cost(const double *rules, const double *rate_fps, size_t n, struct nb_lab_fit *fit);

/* The slope is established: its 95 % interval excludes 0 (never with dof 0). */
bool nb_lab_fit_slope_established(const struct nb_lab_fit *fit);

/* "27.79 ns per rule (95 % interval 27.1 to 28.5; 3 points, 1 residual dof)", or with the words
 * "not established" when the interval includes 0, or "no interval: 2 points" when dof is 0. */
void nb_lab_fit_slope_text(const struct nb_lab_fit *fit, char *buf, size_t len);

#endif
