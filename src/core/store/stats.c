/* SPDX-License-Identifier: BSD-2-Clause */
/* Student's t from a table (df 1..30, then 40, 60, 120, infinity), interpolated in 1/df: exact
 * at the table's df, within 0.1 % beyond 30; between two small df (Welch's fractional df) the
 * quantile is convex in 1/df, so the line lies above it: the interval errs on the wide side. */
#include "core/store/stats.h"

#include <errno.h>
#include <math.h>

double nb_t975(double df)
{
	static const double t[] = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
				   2.2622,  2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199,
				   2.1098,  2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
				   2.0595,  2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
	static const double far_df[] = {30, 40, 60, 120},
			    far_t[] = {2.0423, 2.0211, 2.0003, 1.9799};
	if (!(df >= 1) || isnan(df))
		return NAN;
	if (isinf(df))
		return 1.95996;
	if (df <= 30) {
		int lo = (int)floor(df);
		if (lo == 30 || df == lo)
			return t[lo - 1];
		double a = 1 / (double)lo, b = 1 / (double)(lo + 1), w = (a - 1 / df) / (a - b);
		return t[lo - 1] + w * (t[lo] - t[lo - 1]);
	}
	for (int i = 0; i < 3; i++)
		if (df <= far_df[i + 1]) {
			double a = 1 / far_df[i], b = 1 / far_df[i + 1], w = (a - 1 / df) / (a - b);
			return far_t[i] + w * (far_t[i + 1] - far_t[i]);
		}
	double w = (1 / 120.0 - 1 / df) / (1 / 120.0);
	return far_t[3] + w * (1.95996 - far_t[3]);
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
