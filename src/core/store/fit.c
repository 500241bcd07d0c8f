/* SPDX-License-Identifier: BSD-2-Clause */
/* Ordinary least squares on logarithms, by the normal equations solved with Gauss-Jordan
 * elimination with partial pivoting: at most 5 unknowns, so nothing more is needed. */
#include "core/store/fit.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define N (NB_FIT_MAX_FACTORS + 1)

/* Inverts a (n x n, row stride N) in place; -EINVAL when singular. */
static int invert(double a[N][N], size_t n)
{
	double inv[N][N] = {{0}};
	for (size_t i = 0; i < n; i++)
		inv[i][i] = 1;
	for (size_t c = 0; c < n; c++) {
		size_t p = c;
		for (size_t r = c + 1; r < n; r++)
			if (fabs(a[r][c]) > fabs(a[p][c]))
				p = r;
		if (fabs(a[p][c]) < 1e-12)
			return -EINVAL;
		for (size_t k = 0; k < n; k++) {
			double t = a[c][k];
			a[c][k] = a[p][k];
			a[p][k] = t;
			t = inv[c][k];
			inv[c][k] = inv[p][k];
			inv[p][k] = t;
		}
		double d = a[c][c];
		for (size_t k = 0; k < n; k++) {
			a[c][k] /= d;
			inv[c][k] /= d;
		}
		for (size_t r = 0; r < n; r++) {
			if (r == c)
				continue;
			double m = a[r][c];
			for (size_t k = 0; k < n; k++) {
				a[r][k] -= m * a[c][k];
				inv[r][k] -= m * inv[c][k];
			}
		}
	}
	memcpy(a, inv, sizeof(inv));
	return 0;
}

int nb_fit_loglog(const double *y, const double *const *x, size_t factors, size_t runs,
		  const char *const *names, struct nb_fit *out, char *why, size_t whylen)
{
	double xtx[N][N] = {{0}}, xty[N] = {0}, row[N];
	size_t k = factors + 1;

	memset(out, 0, sizeof(*out));
	if (!factors || factors > NB_FIT_MAX_FACTORS) {
		snprintf(why, whylen, "a fit takes 1 to %d factors", NB_FIT_MAX_FACTORS);
		return -EINVAL;
	}
	if (runs < k) {
		snprintf(why, whylen,
			 "%zu run%s cannot support %zu factor%s: at least %zu runs are needed", runs,
			 runs == 1 ? "" : "s", factors, factors == 1 ? "" : "s", k);
		return -EINVAL;
	}
	for (size_t i = 0; i < runs; i++) {
		if (!(y[i] > 0) || !isfinite(y[i])) {
			snprintf(why, whylen, "run %zu: the metric is %g (a log-log fit needs values "
					      "above 0)",
				 i + 1, y[i]);
			return -EINVAL;
		}
		for (size_t j = 0; j < factors; j++)
			if (!(x[j][i] > 0) || !isfinite(x[j][i])) {
				snprintf(why, whylen, "run %zu: %s is %g (needs a value above 0)",
					 i + 1, names[j], x[j][i]);
				return -EINVAL;
			}
	}
	for (size_t j = 0; j < factors; j++) {
		bool varies = false;
		for (size_t i = 1; i < runs; i++)
			varies |= x[j][i] != x[j][0];
		if (!varies) {
			snprintf(why, whylen, "%s is %g in every run: it never varies, so nothing "
					      "can be said about it",
				 names[j], x[j][0]);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < runs; i++) {
		row[0] = 1;
		for (size_t j = 0; j < factors; j++)
			row[j + 1] = log(x[j][i]);
		for (size_t a = 0; a < k; a++) {
			for (size_t b = 0; b < k; b++)
				xtx[a][b] += row[a] * row[b];
			xty[a] += row[a] * log(y[i]);
		}
	}
	if (invert(xtx, k)) {
		snprintf(why, whylen, "the factors vary together in these runs: their effects cannot "
				      "be told apart (vary one at a time)");
		return -EINVAL;
	}
	double beta[N] = {0}, rss = 0;
	for (size_t a = 0; a < k; a++)
		for (size_t b = 0; b < k; b++)
			beta[a] += xtx[a][b] * xty[b];
	for (size_t i = 0; i < runs; i++) {
		double fit = beta[0];
		for (size_t j = 0; j < factors; j++)
			fit += beta[j + 1] * log(x[j][i]);
		rss += (log(y[i]) - fit) * (log(y[i]) - fit);
	}
	size_t dof = runs - k;
	double s2 = dof ? rss / (double)dof : NAN;
	out->factors = factors;
	out->runs = runs;
	out->log_constant = beta[0];
	out->residual_rms = sqrt(rss / (double)runs);
	for (size_t j = 0; j < factors; j++) {
		out->exponent[j] = beta[j + 1];
		out->stderr_[j] = sqrt(s2 * xtx[j + 1][j + 1]);
	}
	return 0;
}

static void term(const struct nb_fit *f, size_t j, char *buf, size_t len)
{
	if (isfinite(f->stderr_[j]))
		snprintf(buf, len, "%.2f +- %.2f", f->exponent[j], f->stderr_[j]);
	else
		snprintf(buf, len, "%.2f, no error estimate: as many runs as unknowns",
			 f->exponent[j]);
}

void nb_fit_sentence(const struct nb_fit *f, const char *metric, const char *const *names,
		     char *buf, size_t len)
{
	char t1[80], t2[80];
	size_t hi = 0, lo = 0;
	if (f->factors == 1) {
		term(f, 0, t1, sizeof(t1));
		snprintf(buf, len, "%s scales as %s^e with e = %s (1 = in proportion, 0 = not at all)",
			 metric, names[0], t1);
		return;
	}
	for (size_t j = 1; j < f->factors; j++) {
		if (f->exponent[j] > f->exponent[hi])
			hi = j;
		if (f->exponent[j] < f->exponent[lo])
			lo = j;
	}
	term(f, hi, t1, sizeof(t1));
	term(f, lo, t2, sizeof(t2));
	snprintf(buf, len, "%s follows %s (exponent %s) more than %s (exponent %s)", metric,
		 names[hi], t1, names[lo], t2);
}

static const char *name(const char *p, char out[NB_FIT_NAME_MAX], bool *ok)
{
	size_t n = 0;
	while (*p == ' ')
		p++;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
	       *p == '_' || *p == '.') {
		if (n + 1 >= NB_FIT_NAME_MAX) {
			*ok = false;
			return p;
		}
		out[n++] = *p++;
	}
	out[n] = '\0';
	*ok = n > 0;
	while (*p == ' ')
		p++;
	return p;
}

int nb_fit_formula(const char *text, char metric[NB_FIT_NAME_MAX],
		   char factors[NB_FIT_MAX_FACTORS][NB_FIT_NAME_MAX], char *why, size_t whylen)
{
	bool ok;
	int n = 0;
	const char *p = name(text, metric, &ok);
	if (!ok || *p != '~') {
		snprintf(why, whylen, "'%s' is not 'METRIC ~ FACTOR [+ FACTOR...]'", text);
		return -EINVAL;
	}
	p++;
	for (;;) {
		if (n == NB_FIT_MAX_FACTORS) {
			snprintf(why, whylen, "at most %d factors", NB_FIT_MAX_FACTORS);
			return -EINVAL;
		}
		p = name(p, factors[n], &ok);
		if (!ok) {
			snprintf(why, whylen, "'%s': a factor name is missing or too long", text);
			return -EINVAL;
		}
		for (int i = 0; i < n; i++)
			if (!strcmp(factors[i], factors[n])) {
				snprintf(why, whylen, "%s is given twice", factors[n]);
				return -EINVAL;
			}
		n++;
		if (!*p)
			return n;
		if (*p != '+') {
			snprintf(why, whylen, "'%s': factors are joined with '+'", text);
			return -EINVAL;
		}
		p++;
	}
}
