/* SPDX-License-Identifier: BSD-2-Clause */
/* Student's t quantiles and the interval of a mean. The table is the standard one (t at
 * 0.975); past 30 degrees of freedom the Cornish-Fisher expansion around the normal quantile is
 * within 0.001 of it. */
#include "core/store/ci95.h"

#include <errno.h>
#include <math.h>

double nb_t975(size_t df)
{
	static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
				   2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
				   2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
				   2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
	if (df < 1)
		return NAN;
	if (df <= sizeof(t) / sizeof(t[0]))
		return t[df - 1];
	double z = 1.959963985, n = (double)df, z3 = z * z * z, z5 = z3 * z * z;
	return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n);
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
