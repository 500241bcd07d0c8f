/* SPDX-License-Identifier: BSD-2-Clause */
/* Small statistics for compare and its gate: mean, standard deviation and the 95 % interval of
 * repeated runs (Student's t), and the 95 % interval of the ratio of two such means. Pure. */
#ifndef NB_RUNS_H
#define NB_RUNS_H

#include <stddef.h>

/* Student's t two-sided 95 % quantile (the 0.975 point) for df degrees of freedom; df may be
 * fractional (Welch); infinite df is the normal's. NAN for df < 1. The quantile is
 * core/base/stats.c's, exact. */
double nb_t975(double df);

/* The half-width t x sd / sqrt(n) of the interval of a mean of n runs with standard deviation
 * sd; NAN for fewer than two runs. */
double nb_ci95_half(size_t n, double sd);
/* Mean of n values and the half-width of its 95 % interval (t x s / sqrt(n)); with one value the
 * half-width is NAN (one run has no interval). Returns 0, or -EINVAL with no value or a
 * non-finite one. The report's error bars. */
int nb_ci95(const double *v, size_t n, double *mean, double *half);

/* Running mean and variance (Welford): add values one by one. */
struct nb_runs {
	unsigned n;
	double mean, m2;
};
void nb_runs_add(struct nb_runs *r, double v);
/* Sample standard deviation; NAN with fewer than two runs. */
double nb_runs_sd(const struct nb_runs *r);
/* Half-width of the 95 % interval of the mean (t(n-1) x sd / sqrt(n)); NAN below two runs. */
double nb_runs_ci95(const struct nb_runs *r);

/* The 95 % interval of x / b, the ratio of two means of repeated runs (means above 0), on the
 * log scale (delta method) with Welch's degrees of freedom. Returns 0, or -EDOM when a side has
 * fewer than two runs or a mean is not above 0. */
int nb_ratio_ci95(const struct nb_runs *x, const struct nb_runs *b, double *lo, double *hi,
		  double *df);

#endif
