/* SPDX-License-Identifier: BSD-2-Clause */
/* The firewall's cost in two numbers: a least-squares fit of per-frame cost against rule
 * count, cost_ns = base_ns + per_rule_ns * N, from (N, frames/s) points of a rule sweep. */
#ifndef NB_LAB_FIT_H
#define NB_LAB_FIT_H

#include <stddef.h>

struct nb_lab_fit {
	double base_ns;	    /* per-frame cost with no rules */
	double per_rule_ns; /* added per-frame cost of each rule */
	double residual_ns; /* root mean square of (measured - fitted) per-frame cost */
	size_t points;
};

/* Fits rules[i] -> 1e9 / rate_fps[i]. Needs at least two distinct rule counts and positive,
 * finite rates; returns 0 or -EINVAL. */
int nb_lab_fit_cost(const double *rules, const double *rate_fps, size_t n, struct nb_lab_fit *fit);

#endif
