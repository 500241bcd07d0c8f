/* SPDX-License-Identifier: BSD-2-Clause */
/* The 95 % confidence interval of a mean from repeated runs, with Student's t: what the report's
 * error bars show. */
#ifndef NB_CI95_H
#define NB_CI95_H

#include <stddef.h>

/* The two-sided 95 % quantile of Student's t with df degrees of freedom (df >= 1): exact to
 * three decimals from a table up to 30, a series expansion beyond. NAN for df < 1. */
double nb_t975(size_t df);
/* The half-width t x sd / sqrt(n) of the interval of a mean of n runs with standard deviation
 * sd; NAN for fewer than two runs. */
double nb_ci95_half(size_t n, double sd);
/* Mean of n values and the half-width of its 95 % interval (t x s / sqrt(n)); with one value the
 * half-width is NAN (one run has no interval). Returns 0, or -EINVAL with no value or a
 * non-finite one. */
int nb_ci95(const double *v, size_t n, double *mean, double *half);

#endif
