/* SPDX-License-Identifier: BSD-2-Clause */
/* What a metric follows: a log-log least-squares fit of a metric against numeric factors,
 * metric = C x f1^a1 x f2^a2 ..., giving each factor's elasticity (the exponent: 1 scales with
 * the factor, 0 ignores it) with its 95 % interval from the residuals (src/core/base/stats.c).
 * Pure: runs in, fit and sentence out. */
#ifndef NB_FIT_H
#define NB_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/stats.h"

#define NB_FIT_MAX_FACTORS NB_OLS_MAX_FACTORS

struct nb_fit {
	size_t factors, runs, dof; /* dof: runs - factors - 1, the residual degrees of freedom */
	double exponent[NB_FIT_MAX_FACTORS];
	double stderr_[NB_FIT_MAX_FACTORS]; /* NAN when dof is 0 (no residual left) */
	double lo[NB_FIT_MAX_FACTORS], hi[NB_FIT_MAX_FACTORS]; /* 95 % interval; NAN at dof 0 */
	double log_constant; /* ln C; a linear fit: the constant c itself */
	double residual_rms; /* of ln(metric); a linear fit: of the metric */
	double r2;	     /* NAN when the metric is the same in every run */
	bool linear;
	struct nb_ols ols; /* the whole least-squares result (covariance, runs each rests on) */
};

/* y[i] for run i; x[j][i] factor j of run i. Returns 0, or -EINVAL with why filled naming the
 * run and factor: fewer runs than factors + 1, a factor that never varies, factors that vary
 * together, a value <= 0, not finite or outside 1e-100..1e100. */
int nb_fit_loglog(const double *y, const double *const *x, size_t factors, size_t runs,
		  const char *const *names, struct nb_fit *out, char *why, size_t whylen);

/* The linear model metric = c + b1 x f1 + b2 x f2 ... on the values themselves (a factor may be
 * 0, e.g. a rule count): exponent[j] is b_j, in metric units per factor unit, with its standard
 * error; log_constant is c. The lab's model of a firewall: ns per frame = base + cost x rules.
 * Same refusals as the log-log fit, without the need for values above 0. */
int nb_fit_linear(const double *y, const double *const *x, size_t factors, size_t runs,
		  const char *const *names, struct nb_fit *out, char *why, size_t whylen);

/* The fit in one sentence that claims no more than the runs support (docs/results.md): runs,
 * residual dof, each coefficient with its 95 % interval; "not established" for an exponent (a
 * slope) whose interval includes 0; "M follows A more than B" only when the interval of the
 * difference of the two exponents' magnitudes excludes 0 (the larger effect, either sign); a
 * coefficient that rests on one run says so; with 0 or 1 residual dof, or anything undecided,
 * what to measure next. */
void nb_fit_sentence(const struct nb_fit *f, const char *metric, const char *const *names,
		     char *buf, size_t len);

/* The fitted line against factor j with the other factors held at at[] (at[j] is ignored):
 * y[i] for x[i], i = 0, 1 (a chart's two endpoints). */
void nb_fit_line(const struct nb_fit *f, size_t j, const double *at, const double x[2],
		 double y[2]);

#define NB_FIT_NAME_MAX 32

/* Parses "metric ~ factor + factor ...": names of letters, digits, _ and . Returns the factor
 * count, or -EINVAL with why filled. */
int nb_fit_formula(const char *text, char metric[NB_FIT_NAME_MAX],
		   char factors[NB_FIT_MAX_FACTORS][NB_FIT_NAME_MAX], char *why, size_t whylen);

#endif
