/* SPDX-License-Identifier: BSD-2-Clause */
/* The one least-squares engine behind every fit netbench prints (compare --fit, lab fit, rule
 * sweeps, clock fits): y = b0 + b1 x1 + ... with residual degrees of freedom, standard errors,
 * 95 % intervals from Student's t, R^2, and which runs decide each coefficient. Pure, libc only. */
#ifndef NB_STATS_H
#define NB_STATS_H

#include <stdbool.h>
#include <stddef.h>

#define NB_OLS_MAX_FACTORS 4
#define NB_OLS_MAX_COEF	   (NB_OLS_MAX_FACTORS + 1) /* the constant, then each factor */

/* Inputs are refused outside this magnitude (0 itself is accepted): beyond it squares and
 * products overflow or lose every digit, and a subnormal is not a measurement. */
#define NB_OLS_MIN_ABS 1e-100
#define NB_OLS_MAX_ABS 1e100

struct nb_ols {
	size_t runs, factors, dof; /* dof = runs - factors - 1, the residual degrees of freedom */
	/* Index 0 is the constant, j + 1 factor j. se, lo, hi are NAN when dof is 0. */
	double coef[NB_OLS_MAX_COEF];
	double se[NB_OLS_MAX_COEF];
	double lo[NB_OLS_MAX_COEF], hi[NB_OLS_MAX_COEF]; /* 95 % interval */
	double cov[NB_OLS_MAX_COEF][NB_OLS_MAX_COEF];	 /* covariance of the coefficients */
	double t95;					 /* Student's t 0.975 quantile at dof */
	double rss;					 /* residual sum of squares */
	double residual_rms; /* sqrt(rss / runs): the typical miss of the fitted line */
	double r2;	     /* 1 - rss / total; NAN when y is the same in every run */
	/* The runs a coefficient rests on alone: a run of leverage 1 (the fit passes through it
	 * whatever it measured, its residual is 0) whose weight in the coefficient is not 0. How
	 * many such runs, and the last one (runs count from 0). */
	size_t pinned_runs[NB_OLS_MAX_COEF];
	size_t pinned_run[NB_OLS_MAX_COEF];
};

/* y[i] for run i, x[i * factors + j] factor j of run i. Returns 0, or -EINVAL with why filled
 * (naming the run and factor, names[j] or "factor N" when names is NULL): fewer runs than
 * coefficients, a value that is not finite or outside NB_OLS_MIN_ABS..NB_OLS_MAX_ABS, a factor
 * that never varies, a factor that varies together with the ones before it. */
int nb_ols(const double *y, const double *x, size_t runs, size_t factors, const char *const *names,
	   struct nb_ols *out, char *why, size_t whylen);

/* Coefficient a minus coefficient b with its 95 % interval, from the covariance (NAN bounds
 * when dof is 0). */
void nb_ols_diff(const struct nb_ols *f, size_t a, size_t b, double *d, double *lo, double *hi);

/* sa x coef[a] + sb x coef[b] with its 95 % interval, from the covariance (NAN bounds when dof
 * is 0): with signs +-1, the difference of two coefficients' magnitudes. */
void nb_ols_contrast(const struct nb_ols *f, size_t a, double sa, size_t b, double sb, double *d,
		     double *lo, double *hi);

/* The interval of coefficient c lies wholly above or wholly below 0 (false when dof is 0). */
bool nb_ols_excludes_zero(const struct nb_ols *f, size_t c);

/* Student's t distribution: P(T <= t) for dof degrees of freedom, and its inverse. Exact (to
 * double rounding) for every dof >= 1, by the regularised incomplete beta function; no table. */
double nb_student_t_cdf(double t, double dof);
double nb_student_t_quantile(double p, double dof);

/* The 0.975 quantile: a 95 % two-sided interval is estimate +- t95 x standard error. NAN for 0. */
double nb_student_t95(size_t dof);

#endif
