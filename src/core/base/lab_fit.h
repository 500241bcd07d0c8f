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
 * finite rates; returns 0, -EINVAL or -ENOMEM. */
int nb_lab_fit_cost(const double *rules, const double *rate_fps, size_t n, struct nb_lab_fit *fit);
/* The same line on per-frame costs measured directly (ns[i] >= 0, finite): a kernel profile's
 * ns per frame of one category against the rule count. */
int nb_lab_fit_ns(const double *rules, const double *ns, size_t n, struct nb_lab_fit *fit);

/* The slope is established: its 95 % interval excludes 0 (never with dof 0). */
bool nb_lab_fit_slope_established(const struct nb_lab_fit *fit);

/* The fit in one line, the same wherever it is printed (rate, lab fit, demo summary):
 * "per-frame cost = 5684.6 ns + 27.788 ns x rules (slope 95 % interval 27.143 to 28.433 ns;
 * 3 points, 1 residual dof, residual 22.8 ns rms)"; "not established" when the slope's interval
 * includes 0; with 2 points, no interval and what to measure. */
void nb_lab_fit_text(const struct nb_lab_fit *fit, char *buf, size_t len);

/* The fit's uncertainty as members of the open JSON object: dof, per_rule_se_ns,
 * per_rule_lo_ns, per_rule_hi_ns, base_lo_ns, base_hi_ns (null when dof is 0), r2 and
 * slope_established. */
struct nb_json;
void nb_lab_fit_json(struct nb_json *j, const struct nb_lab_fit *fit);

#endif
