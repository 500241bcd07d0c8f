/* SPDX-License-Identifier: BSD-2-Clause */
/* What a metric follows: a log-log least-squares fit of a metric against numeric factors,
 * metric = C x f1^a1 x f2^a2 ..., giving each factor's elasticity (the exponent: 1 scales with
 * the factor, 0 ignores it) with its standard error from the residuals. Pure: runs in, fit out. */
#ifndef NB_FIT_H
#define NB_FIT_H

#include <stddef.h>

#define NB_FIT_MAX_FACTORS 4

struct nb_fit {
	size_t factors, runs;
	double exponent[NB_FIT_MAX_FACTORS];
	double stderr_[NB_FIT_MAX_FACTORS]; /* NAN when runs == factors + 1 (no residual left) */
	double log_constant;
	double residual_rms; /* of ln(metric) */
};

/* y[i] for run i; x[j][i] factor j of run i. Returns 0, or -EINVAL with why filled: fewer runs
 * than factors + 1, a factor that never varies, factors that vary together, a value <= 0. */
int nb_fit_loglog(const double *y, const double *const *x, size_t factors, size_t runs,
		  const char *const *names, struct nb_fit *out, char *why, size_t whylen);

/* One sentence: "fps follows bus_mhz (b = 0.86 +- 0.05) more than core_mhz (a = 0.45 +-
 * 0.02)", or for one factor "fps scales as core_mhz^0.45 +- 0.02". */
void nb_fit_sentence(const struct nb_fit *f, const char *metric, const char *const *names,
		     char *buf, size_t len);

#define NB_FIT_NAME_MAX 32

/* Parses "metric ~ factor + factor ...": names of letters, digits, _ and . Returns the factor
 * count, or -EINVAL with why filled. */
int nb_fit_formula(const char *text, char metric[NB_FIT_NAME_MAX],
		   char factors[NB_FIT_MAX_FACTORS][NB_FIT_NAME_MAX], char *why, size_t whylen);

#endif
