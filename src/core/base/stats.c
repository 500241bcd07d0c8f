/* SPDX-License-Identifier: BSD-2-Clause */
/* Ordinary least squares on centred, unit-length factors: the normal equations become the
 * factors' correlation matrix, whose Cholesky pivots tell exactly which factor adds nothing new
 * (collinear) whatever the units, and which is well conditioned enough for at most 4 factors. */
#include "core/base/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define K NB_OLS_MAX_FACTORS

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-16)
			break;
	}
	return h;
}

/* The regularised incomplete beta function I_x(a, b). */
static double ibeta(double a, double b, double x)
{
	if (!(x > 0))
		return 0;
	if (!(x < 1))
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double nb_student_t_cdf(double t, double dof)
{
	if (!(dof > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{dof / (dof + t^2)}(dof / 2, 1 / 2). */
	double tail = 0.5 * ibeta(dof / 2, 0.5, dof / (dof + t * t));
	return t >= 0 ? 1 - tail : tail;
}

double nb_student_t_quantile(double p, double dof)
{
	if (!(dof > 0) || !(p > 0) || !(p < 1))
		return NAN;
	if (p < 0.5)
		return -nb_student_t_quantile(1 - p, dof);
	/* dof 1 (Cauchy, tan(pi (p - 1/2))) goes through the bisection too: static glibc's tan()
	 * for 32-bit PowerPC uses an ISA 3.0 instruction a board's e300 core (and qemu-ppc) lacks.
	 */
	if (dof == 2)
		return (2 * p - 1) / sqrt(2 * p * (1 - p));
	double lo = 0, hi = 1;
	while (nb_student_t_cdf(hi, dof) < p && hi < 1e300)
		hi *= 2;
	/* Bisection to the last bit: the cdf is monotonic, so this cannot fail to converge. */
	for (int i = 0; i < 2000 && hi - lo > 1e-15 * hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (nb_student_t_cdf(mid, dof) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double nb_student_t95(size_t dof)
{
	return dof ? nb_student_t_quantile(0.975, (double)dof) : NAN;
}

static const char *fname(const char *const *names, size_t j, char buf[32])
{
	if (names && names[j])
		return names[j];
	snprintf(buf, 32, "factor %zu", j + 1);
	return buf;
}

static bool in_range(double v)
{
	return v == 0 || (isfinite(v) && fabs(v) >= NB_OLS_MIN_ABS && fabs(v) <= NB_OLS_MAX_ABS);
}

/* Checks every input is a usable number and every factor varies; names the first that is not. */
static int check_inputs(const double *y, const double *x, size_t n, size_t p,
			const char *const *names, char *why, size_t whylen)
{
	char b[32];
	for (size_t i = 0; i < n; i++) {
		if (!in_range(y[i])) {
			snprintf(why, whylen,
				 "run %zu: the metric is %g (accepted: 0 or a magnitude from %g "
				 "to %g)",
				 i + 1, y[i], NB_OLS_MIN_ABS, NB_OLS_MAX_ABS);
			return -EINVAL;
		}
		for (size_t j = 0; j < p; j++)
			if (!in_range(x[i * p + j])) {
				snprintf(why, whylen,
					 "run %zu: %s is %g (accepted: 0 or a magnitude from %g "
					 "to %g)",
					 i + 1, fname(names, j, b), x[i * p + j], NB_OLS_MIN_ABS,
					 NB_OLS_MAX_ABS);
				return -EINVAL;
			}
	}
	return 0;
}

/* Run x's leverage h and weight in each coefficient: w[j + 1] = (R^-1 z)_j / len_j for the
 * factors, w[0] = 1/n - sum mean_j w[j + 1] for the constant. */
static void weights(const double *x, size_t n, size_t p, const double *mean, const double *len,
		    double rinv[K][K], double *w, double *h)
{
	double z[K];
	for (size_t j = 0; j < p; j++)
		z[j] = (x[j] - mean[j]) / len[j];
	*h = 1 / (double)n;
	w[0] = 1 / (double)n;
	for (size_t j = 0; j < p; j++) {
		double rz = 0;
		for (size_t c = 0; c < p; c++)
			rz += rinv[j][c] * z[c];
		*h += z[j] * rz;
		w[j + 1] = rz / len[j];
		w[0] -= mean[j] * w[j + 1];
	}
}

/* The metric's mean, each factor's mean and its length after centring (len); fails naming a
 * factor that does not vary. */
static int centre(const double *y, const double *x, size_t n, size_t p, const char *const *names,
		  double *ymean, double *mean, double *len, char *why, size_t whylen)
{
	char b[32];

	*ymean = 0;
	for (size_t i = 0; i < n; i++) {
		*ymean += (y[i] - y[0]) / (double)n; /* exact when every run measured the same */
		for (size_t j = 0; j < p; j++)
			mean[j] += x[i * p + j] / (double)n;
	}
	*ymean += y[0];
	for (size_t j = 0; j < p; j++) {
		double big = 0;
		for (size_t i = 0; i < n; i++) {
			double d = x[i * p + j] - mean[j];
			len[j] += d * d;
			big = fmax(big, fabs(x[i * p + j]));
		}
		len[j] = sqrt(len[j]);
		/* Values that differ only in their last digits do not vary: what is left after
		 * centring would be rounding. */
		if (!(len[j] > 1e-9 * big * sqrt((double)n))) {
			snprintf(why, whylen,
				 "%s is %g in every run%s: it never varies, so nothing can be "
				 "said about it",
				 fname(names, j, b), x[j], len[j] > 0 ? " (within rounding)" : "");
			return -EINVAL;
		}
	}
	return 0;
}

/* The factors' correlation matrix R, from the centred and scaled factors. */
static void correlation(const double *x, size_t n, size_t p, const double *mean, const double *len,
			double r[K][K])
{
	for (size_t a = 0; a < p; a++)
		for (size_t c = 0; c < p; c++)
			for (size_t i = 0; i < n; i++)
				r[a][c] += (x[i * p + a] - mean[a]) / len[a] *
					   ((x[i * p + c] - mean[c]) / len[c]);
}

/* Cholesky in the factors' order: pivot j is 1 - R^2 of factor j on the ones before. Fails
 * naming a factor that varies with those before it. */
static int cholesky(double r[K][K], size_t p, const char *const *names, double l[K][K], char *why,
		    size_t whylen)
{
	char b[32], b2[32];

	for (size_t j = 0; j < p; j++) {
		double d = r[j][j];
		for (size_t m = 0; m < j; m++)
			d -= l[j][m] * l[j][m];
		if (!(d > 1e-9)) {
			if (j == 1)
				snprintf(why, whylen,
					 "%s and %s vary together in these runs: their effects "
					 "cannot be told apart (vary one with the other fixed)",
					 fname(names, 0, b), fname(names, 1, b2));
			else
				snprintf(why, whylen,
					 "%s varies together with the factors before it in these "
					 "runs: its effect cannot be told apart (vary it with the "
					 "others fixed)",
					 fname(names, j, b));
			return -EINVAL;
		}
		l[j][j] = sqrt(d);
		for (size_t i = j + 1; i < p; i++) {
			double s = r[i][j];
			for (size_t m = 0; m < j; m++)
				s -= l[i][m] * l[j][m];
			l[i][j] = s / l[j][j];
		}
	}
	return 0;
}

/* R^-1 column by column from L L^T. */
static void invert(double l[K][K], size_t p, double rinv[K][K])
{
	for (size_t c = 0; c < p; c++) {
		double z[K], w[K];
		for (size_t i = 0; i < p; i++) {
			z[i] = i == c;
			for (size_t m = 0; m < i; m++)
				z[i] -= l[i][m] * z[m];
			z[i] /= l[i][i];
		}
		for (size_t i = p; i-- > 0;) {
			w[i] = z[i];
			for (size_t m = i + 1; m < p; m++)
				w[i] -= l[m][i] * w[m];
			w[i] /= l[i][i];
		}
		for (size_t i = 0; i < p; i++)
			rinv[i][c] = w[i];
	}
}

/* The coefficients in the scaled factors (gam) and in the original units (out->coef); returns
 * the total sum of squares. */
static double coefficients(const double *y, const double *x, size_t n, size_t p, double ymean,
			   const double *mean, const double *len, double rinv[K][K], double *gam,
			   struct nb_ols *out)
{
	double g[K] = {0}, tss = 0;

	for (size_t i = 0; i < n; i++) {
		tss += (y[i] - ymean) * (y[i] - ymean);
		for (size_t j = 0; j < p; j++)
			g[j] += (x[i * p + j] - mean[j]) / len[j] * (y[i] - ymean);
	}
	for (size_t j = 0; j < p; j++)
		for (size_t c = 0; c < p; c++)
			gam[j] += rinv[j][c] * g[c];
	out->coef[0] = ymean;
	for (size_t j = 0; j < p; j++) {
		out->coef[j + 1] = gam[j] / len[j];
		out->coef[0] -= out->coef[j + 1] * mean[j];
	}
	return tss;
}

/* The residual sum of squares (returned) and the largest metric (ymax); and the runs the fit
 * is pinned to. */
static double residuals(const double *y, const double *x, size_t n, size_t p, double ymean,
			const double *mean, const double *len, double rinv[K][K], const double *gam,
			double *ymax, struct nb_ols *out)
{
	/* Each coefficient's largest weight (coef = sum of weight x y) to judge which weights
	 * are rounding. */
	double wmax[NB_OLS_MAX_COEF] = {0}, w[NB_OLS_MAX_COEF], h, rss = 0;
	size_t k = p + 1;

	for (size_t i = 0; i < n; i++) {
		double fit = ymean;
		weights(x + i * p, n, p, mean, len, rinv, w, &h);
		for (size_t j = 0; j < p; j++)
			fit += gam[j] * (x[i * p + j] - mean[j]) / len[j];
		rss += (y[i] - fit) * (y[i] - fit);
		*ymax = fmax(*ymax, fabs(y[i]));
		for (size_t c = 0; c < k; c++)
			wmax[c] = fmax(wmax[c], fabs(w[c]));
	}
	/* A run of leverage 1 (to rounding): the fit passes through it whatever it measured, and
	 * the coefficients it weighs in rest on it alone. */
	for (size_t i = 0; i < n; i++) {
		weights(x + i * p, n, p, mean, len, rinv, w, &h);
		if (h > 1 - 1e-9)
			for (size_t c = 0; c < k; c++)
				if (fabs(w[c]) > 1e-9 * wmax[c]) {
					out->pinned_runs[c]++;
					out->pinned_run[c] = i;
				}
	}
	return rss;
}

/* Covariance s^2 (X'X)^-1 in the original units. */
static void covariance(size_t n, size_t p, const double *mean, const double *len, double rinv[K][K],
		       double s2, struct nb_ols *out)
{
	double as[K][K], am[K] = {0};

	for (size_t a = 0; a < p; a++)
		for (size_t c = 0; c < p; c++)
			as[a][c] = rinv[a][c] / (len[a] * len[c]);
	for (size_t a = 0; a < p; a++)
		for (size_t c = 0; c < p; c++)
			am[a] += as[a][c] * mean[c];
	double a00 = 1 / (double)n;
	for (size_t a = 0; a < p; a++)
		a00 += mean[a] * am[a];
	out->cov[0][0] = s2 * a00;
	for (size_t a = 0; a < p; a++) {
		out->cov[0][a + 1] = out->cov[a + 1][0] = -s2 * am[a];
		for (size_t c = 0; c < p; c++)
			out->cov[a + 1][c + 1] = s2 * as[a][c];
	}
}

int nb_ols(const double *y, const double *x, size_t n, size_t p, const char *const *names,
	   struct nb_ols *out, char *why, size_t whylen)
{
	double mean[K] = {0}, len[K] = {0}, r[K][K] = {{0}}, l[K][K] = {{0}}, rinv[K][K] = {{0}};
	double ymean = 0, gam[K] = {0}, tss, rss, ymax = 0;
	size_t k = p + 1;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!p || p > K) {
		snprintf(why, whylen, "a fit takes 1 to %d factors", K);
		return -EINVAL;
	}
	if (n < k) {
		snprintf(why, whylen,
			 "%zu run%s cannot support %zu factor%s: at least %zu runs are needed", n,
			 n == 1 ? "" : "s", p, p == 1 ? "" : "s", k);
		return -EINVAL;
	}
	ret = check_inputs(y, x, n, p, names, why, whylen);
	if (!ret)
		ret = centre(y, x, n, p, names, &ymean, mean, len, why, whylen);
	if (ret)
		return ret;
	correlation(x, n, p, mean, len, r);
	ret = cholesky(r, p, names, l, why, whylen);
	if (ret)
		return ret;
	invert(l, p, rinv);
	tss = coefficients(y, x, n, p, ymean, mean, len, rinv, gam, out);
	rss = residuals(y, x, n, p, ymean, mean, len, rinv, gam, &ymax, out);
	out->runs = n;
	out->factors = p;
	out->dof = n - k;
	out->rss = rss;
	out->residual_rms = sqrt(rss / (double)n);
	out->r2 = tss > 0 ? 1 - rss / tss : NAN;
	out->t95 = nb_student_t95(out->dof);
	/* A residual below rounding is rounding: floor it at 1e-12 of the metric, so an exact fit's
	 * zero coefficient (1e-17 by rounding) is not "established" by a zero-width interval. */
	double tiny = 1e-12 * ymax;
	double s2 = out->dof ? fmax(rss, (double)n * tiny * tiny) / (double)out->dof : NAN;
	covariance(n, p, mean, len, rinv, s2, out);
	for (size_t c = 0; c < k; c++) {
		out->se[c] = sqrt(out->cov[c][c]);
		out->lo[c] = out->coef[c] - out->t95 * out->se[c];
		out->hi[c] = out->coef[c] + out->t95 * out->se[c];
		if (!isfinite(out->coef[c]) || (out->dof && !isfinite(out->se[c]))) {
			snprintf(why, whylen,
				 "the fit of these runs is not a finite number (the values span "
				 "too wide a range)");
			return -EINVAL;
		}
	}
	return 0;
}

void nb_ols_diff(const struct nb_ols *f, size_t a, size_t b, double *d, double *lo, double *hi)
{
	nb_ols_contrast(f, a, 1, b, -1, d, lo, hi);
}

void nb_ols_contrast(const struct nb_ols *f, size_t a, double sa, size_t b, double sb, double *d,
		     double *lo, double *hi)
{
	double var = sa * sa * f->cov[a][a] + sb * sb * f->cov[b][b] + 2 * sa * sb * f->cov[a][b];
	double se = sqrt(var > 0 ? var : 0);
	*d = sa * f->coef[a] + sb * f->coef[b];
	*lo = *d - f->t95 * se;
	*hi = *d + f->t95 * se;
}

bool nb_ols_excludes_zero(const struct nb_ols *f, size_t c)
{
	return f->dof > 0 && (f->lo[c] > 0 || f->hi[c] < 0);
}
