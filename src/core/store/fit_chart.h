/* SPDX-License-Identifier: BSD-2-Clause */
/* One fit drawn against one factor: the runs, the fitted line and the reference probe's slope,
 * on log-log axes (linear axes for a linear fit). */
#ifndef NB_FIT_CHART_H
#define NB_FIT_CHART_H

#include <stdio.h>

#include "core/store/fit.h"

struct nb_fit_chart {
	const char *title, *metric, *factor; /* axis labels */
	const double *x, *y;		     /* factor j and the metric, per run */
	size_t runs, j;
	const struct nb_fit *fit;
	const double *at; /* the other factors' values for the line (their geometric means) */
	const struct nb_fit *ref; /* NULL, or the CPU-bound probe's fit: its exponent on factor j
				   * drawn through the runs' centre */
	const char *ref_name;
};

/* The series' endpoints: the fitted line and the reference line at the smallest and largest x
 * (ref_y untouched without a reference). Returns 0, or -EINVAL with fewer than 1 run. */
int nb_fit_chart_lines(const struct nb_fit_chart *c, double x[2], double fit_y[2], double ref_y[2]);
/* Writes one <svg class="chart"> (series: runs, fit, and the reference when given). */
int nb_fit_chart_svg(FILE *f, const struct nb_fit_chart *c);

#endif
