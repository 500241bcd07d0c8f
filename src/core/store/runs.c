/* SPDX-License-Identifier: BSD-2-Clause */
/* Repeated runs (runs.h): mean, spread and the 95 % intervals compare and its gate print. The
 * t quantile is the statistics engine's (core/base/stats.c), exact also at Welch's fractional
 * degrees of freedom. */
#include "core/store/runs.h"

#include <errno.h>
#include <math.h>

#include "core/base/stats.h"

double nb_t975(double df)
{
	if (!(df >= 1))
		return NAN;
	if (isinf(df))
		return 1.959963984540054;
	return nb_student_t_quantile(0.975, df);
}

double nb_ci95_half(size_t n, double sd)
{
	return n > 1 ? nb_t975(n - 1) * sd / sqrt((double)n) : NAN;
}

int nb_ci95(const double *v, size_t n, double *mean, double *half)
{
	double m = 0, ss = 0;
	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			return -EINVAL;
		m += v[i];
	}
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*mean = m;
	*half = nb_ci95_half(n, n > 1 ? sqrt(ss / (double)(n - 1)) : NAN);
	return 0;
}

void nb_runs_add(struct nb_runs *r, double v)
{
	double d = v - r->mean;
	r->n++;
	r->mean += d / r->n;
	r->m2 += d * (v - r->mean);
}

double nb_runs_sd(const struct nb_runs *r)
{
	if (r->n < 2)
		return NAN;
	return sqrt(r->m2 > 0 ? r->m2 / (r->n - 1) : 0);
}

double nb_runs_ci95(const struct nb_runs *r)
{
	if (r->n < 2)
		return NAN;
	return nb_t975(r->n - 1) * nb_runs_sd(r) / sqrt(r->n);
}

int nb_ratio_ci95(const struct nb_runs *x, const struct nb_runs *b, double *lo, double *hi,
		  double *df)
{
	if (x->n < 2 || b->n < 2 || !(x->mean > 0) || !(b->mean > 0))
		return -EDOM;
	double sx = nb_runs_sd(x), sb = nb_runs_sd(b);
	/* Relative variance of each mean: the variance of its logarithm, to first order. */
	double vx = sx * sx / x->n / (x->mean * x->mean), vb = sb * sb / b->n / (b->mean * b->mean);
	double r = x->mean / b->mean;
	if (vx + vb == 0) {
		*lo = *hi = r;
		*df = INFINITY;
		return 0;
	}
	*df = (vx + vb) * (vx + vb) / (vx * vx / (x->n - 1) + vb * vb / (b->n - 1));
	double h = nb_t975(*df) * sqrt(vx + vb);
	*lo = r * exp(-h);
	*hi = r * exp(h);
	return 0;
}
