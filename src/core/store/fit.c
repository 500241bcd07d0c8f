/* SPDX-License-Identifier: BSD-2-Clause */
/* The fits compare and report make (log-log or linear, on the least-squares engine of
 * src/core/base/stats.c), their sentences, and the --fit formula. */
#include "core/store/fit.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* linear: metric = c + b1 x f1 + ... on the values themselves (0 allowed); else on logarithms,
 * which need values above 0 and inside the engine's range (log of 1e-320 is finite, but such a
 * value is no measurement). */
static int fit(const double *y, const double *const *x, size_t factors, size_t runs,
	       const char *const *names, bool linear, struct nb_fit *out, char *why, size_t whylen)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (!factors || factors > NB_FIT_MAX_FACTORS) {
		snprintf(why, whylen, "a fit takes 1 to %d factors", NB_FIT_MAX_FACTORS);
		return -EINVAL;
	}
	if (runs < factors + 1)
		return nb_ols(y, NULL, runs, factors, names, &out->ols, why, whylen);
	for (size_t j = 0; j < factors; j++) {
		bool varies = false;
		for (size_t i = 1; i < runs; i++)
			varies |= x[j][i] != x[j][0];
		if (!varies) {
			snprintf(why, whylen,
				 "%s is %g in every run: it never varies, so nothing can be said "
				 "about it",
				 names[j], x[j][0]);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < runs && !linear; i++) {
		if (!(y[i] >= NB_OLS_MIN_ABS && y[i] <= NB_OLS_MAX_ABS)) {
			snprintf(why, whylen,
				 "run %zu: the metric is %g (a log-log fit needs values from %g "
				 "to %g: above 0)",
				 i + 1, y[i], NB_OLS_MIN_ABS, NB_OLS_MAX_ABS);
			return -EINVAL;
		}
		for (size_t j = 0; j < factors; j++)
			if (!(x[j][i] >= NB_OLS_MIN_ABS && x[j][i] <= NB_OLS_MAX_ABS)) {
				snprintf(why, whylen,
					 "run %zu: %s is %g (needs a value above 0: from %g to "
					 "%g)",
					 i + 1, names[j], x[j][i], NB_OLS_MIN_ABS, NB_OLS_MAX_ABS);
				return -EINVAL;
			}
	}
	double *ty = malloc(runs * sizeof(*ty)), *tx = malloc(runs * factors * sizeof(*tx));
	if (!ty || !tx) {
		free(ty);
		free(tx);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < runs; i++) {
		ty[i] = linear ? y[i] : log(y[i]);
		for (size_t j = 0; j < factors; j++)
			tx[i * factors + j] = linear ? x[j][i] : log(x[j][i]);
	}
	ret = nb_ols(ty, tx, runs, factors, names, &out->ols, why, whylen);
	free(ty);
	free(tx);
	if (ret)
		return ret;
	out->factors = factors;
	out->runs = runs;
	out->dof = out->ols.dof;
	out->linear = linear;
	out->log_constant = out->ols.coef[0];
	out->residual_rms = out->ols.residual_rms;
	out->r2 = out->ols.r2;
	for (size_t j = 0; j < factors; j++) {
		out->exponent[j] = out->ols.coef[j + 1];
		out->stderr_[j] = out->ols.se[j + 1];
		out->lo[j] = out->ols.lo[j + 1];
		out->hi[j] = out->ols.hi[j + 1];
	}
	return 0;
}

int nb_fit_loglog(const double *y, const double *const *x, size_t factors, size_t runs,
		  const char *const *names, struct nb_fit *out, char *why, size_t whylen)
{
	return fit(y, x, factors, runs, names, false, out, why, whylen);
}

int nb_fit_linear(const double *y, const double *const *x, size_t factors, size_t runs,
		  const char *const *names, struct nb_fit *out, char *why, size_t whylen)
{
	return fit(y, x, factors, runs, names, true, out, why, whylen);
}

/* Appends to a sentence; never writes past len. */
struct text {
	char *buf;
	size_t len, used;
};

__attribute__((format(printf, 2, 3))) static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	if (t->used >= t->len)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used = t->used + (size_t)n < t->len ? t->used + (size_t)n : t->len;
}

/* "%.2f" of an exponent, "%.4g" of a linear coefficient; -0.00 shown as 0.00. */
static void num(struct text *t, const struct nb_fit *f, double v)
{
	char b[32];
	snprintf(b, sizeof(b), f->linear ? "%.4g" : "%.2f", v);
	put(t, "%s", strcmp(b, "-0.00") && strcmp(b, "-0") ? b : b + 1);
}

static bool established(const struct nb_fit *f, size_t j)
{
	return nb_ols_excludes_zero(&f->ols, j + 1);
}

/* A log-log exponent known to lie within +-0.1: whatever it is, the metric hardly follows the
 * factor (a tenfold factor moves it by less than 26 %), so more runs would not change the
 * conclusion. A linear slope has units: no such bound. */
static bool negligible(const struct nb_fit *f, size_t j)
{
	return !f->linear && f->dof && f->lo[j] >= -0.1 && f->hi[j] <= 0.1;
}

/* Something more runs would decide: no residual dof, or a coefficient not established whose
 * interval is wide. */
static bool undecided(const struct nb_fit *f)
{
	if (!f->dof)
		return true;
	for (size_t j = 0; j < f->factors; j++)
		if (!established(f, j) && !negligible(f, j))
			return true;
	return false;
}

/* "core_mhz exponent 0.43 (95 % interval -0.36 to 1.21): not established, rests on run 4 alone" */
static void term(struct text *t, const struct nb_fit *f, size_t j, const char *name)
{
	if (f->linear || f->factors > 1)
		put(t, "%s %s ", name, f->linear ? "slope" : "exponent");
	else
		put(t, "%s = ", name);
	num(t, f, f->exponent[j]);
	if (!f->dof) {
		put(t, " (no interval: as many runs as unknowns)");
		return;
	}
	put(t, " (95 %% interval ");
	num(t, f, f->lo[j]);
	put(t, " to ");
	num(t, f, f->hi[j]);
	put(t, ")");
	bool ok = established(f, j), one = f->ols.pinned_runs[j + 1] == 1;
	if (!ok || one)
		put(t, ": %s%s%s", ok ? "" : "not established",
		    !ok && negligible(f, j) ? " (the interval rules out an exponent beyond +-0.10)"
					    : "",
		    !ok && one ? ", " : "");
	if (one)
		put(t, "rests on run %zu alone (its residual is 0 whatever it measured)",
		    f->ols.pinned_run[j + 1] + 1);
}

/* The factor that decides least: one resting on a single run, else the smallest |t|. */
static size_t weakest(const struct nb_fit *f)
{
	size_t w = 0;
	double tw = INFINITY;
	for (size_t j = 0; j < f->factors; j++) {
		if (f->ols.pinned_runs[j + 1] == 1)
			return j;
		double tj = negligible(f, j) ? INFINITY : fabs(f->exponent[j]) / f->stderr_[j];
		if (!(tj >= tw)) {
			tw = tj;
			w = j;
		}
	}
	return w;
}

/* "To decide: measure at two more bus_mhz values with core_mhz fixed." */
static void advice(struct text *t, const struct nb_fit *f, const char *const *names)
{
	size_t w = weakest(f);
	if (f->dof <= 1)
		put(t, ". To decide: measure at two more %s values", names[w]);
	else
		put(t, ". To decide: repeat the runs or measure over a wider range of %s",
		    names[w]);
	for (size_t j = 0, n = 0; j < f->factors; j++)
		if (j != w)
			put(t, "%s%s", n++ ? " and " : " with ", names[j]);
	put(t, "%s", f->factors > 1 ? " fixed" : "");
}

static void tail(struct text *t, const struct nb_fit *f)
{
	put(t, "; %zu runs, %zu residual dof", f->runs, f->dof);
	if (f->dof && isfinite(f->r2))
		put(t, ", R^2 %.2f", f->r2);
}

/* Exactly flat: the same value in every run follows nothing. */
static void flat_sentence(struct text *t, const struct nb_fit *f, const char *metric,
			  const char *const *names)
{
	put(t, "%s is the same in every run: it follows %s", metric,
	    f->factors > 1 ? "none of " : "");
	for (size_t j = 0; j < f->factors; j++)
		put(t, "%s%s", j ? ", " : "", names[j]);
	/* A factor only one run varies: the claim about it is that run's alone. */
	for (size_t j = 0; j < f->factors; j++)
		if (f->ols.pinned_runs[j + 1] == 1)
			put(t, " (that it does not follow %s rests on run %zu alone)", names[j],
			    f->ols.pinned_run[j + 1] + 1);
	tail(t, f);
}

/* A linear fit: the equation, then each term. */
static void linear_sentence(struct text *t, const struct nb_fit *f, const char *metric,
			    const char *const *names)
{
	put(t, "%s = ", metric);
	num(t, f, f->log_constant);
	for (size_t j = 0; j < f->factors; j++) {
		put(t, " + ");
		num(t, f, f->exponent[j]);
		put(t, " x %s", names[j]);
	}
	for (size_t j = 0; j < f->factors; j++) {
		put(t, j ? "; " : ": ");
		term(t, f, j, names[j]);
	}
	tail(t, f);
	if (undecided(f))
		advice(t, f, names);
}

/* Two factors or more: which the metric follows more, ordered by the size of the effect,
 * whichever way it goes (a metric that falls three times faster with the bus than with the
 * core follows the bus more). Returns whether the order (or that neither matters) is
 * decided. */
static bool order_sentence(struct text *t, const struct nb_fit *f, const char *metric,
			   const char *const *names)
{
	size_t hi = 0, lo = 0;
	bool decided;

	for (size_t j = 1; j < f->factors; j++) {
		if (fabs(f->exponent[j]) > fabs(f->exponent[hi]))
			hi = j;
		if (fabs(f->exponent[j]) < fabs(f->exponent[lo]))
			lo = j;
	}
	double d, dlo, dhi, d2, dlo2, dhi2;
	double shi = f->exponent[hi] < 0 ? -1 : 1, slo = f->exponent[lo] < 0 ? -1 : 1;
	bool signed_ = f->exponent[hi] < -0.005 || f->exponent[lo] < -0.005;
	nb_ols_contrast(&f->ols, hi + 1, shi, lo + 1, -slo, &d, &dlo, &dhi);
	/* An exponent whose sign the runs do not establish: the interval covers either sign. */
	for (int flip = 1; flip < 4 && f->dof; flip++) {
		if (((flip & 1) && nb_ols_excludes_zero(&f->ols, hi + 1)) ||
		    ((flip & 2) && nb_ols_excludes_zero(&f->ols, lo + 1)))
			continue;
		nb_ols_contrast(&f->ols, hi + 1, flip & 1 ? -shi : shi, lo + 1,
				flip & 2 ? slo : -slo, &d2, &dlo2, &dhi2);
		signed_ |= dlo2 < dlo - 0.005 || dhi2 > dhi + 0.005;
		dlo = fmin(dlo, dlo2);
		dhi = fmax(dhi, dhi2);
	}
	decided = f->dof && dlo > 0;
	bool small = true;
	for (size_t j = 0; j < f->factors; j++)
		small &= negligible(f, j);
	if (small) {
		/* Two exponents near 0 are not ordered, however tight: neither matters. */
		put(t, "%s hardly follows ", metric);
		for (size_t j = 0; j < f->factors; j++)
			put(t, "%s%s", j ? (j + 1 < f->factors ? ", " : " or ") : "", names[j]);
		put(t, " (every exponent's 95 %% interval lies within +-0.10)");
		decided = true;
	} else if (decided) {
		put(t, "%s follows %s more than %s (difference of %s ", metric, names[hi],
		    names[lo], signed_ ? "the exponents' magnitudes" : "exponents");
		num(t, f, d);
		put(t, ", 95 %% interval ");
		num(t, f, dlo);
		put(t, " to ");
		num(t, f, dhi);
		put(t, ")");
	} else {
		put(t, "%s: no ordering of %s and %s (", metric, names[hi], names[lo]);
		if (f->dof) {
			put(t, "the difference of their %s, ",
			    signed_ ? "exponents' magnitudes" : "exponents");
			num(t, f, d);
			put(t, ", has a 95 %% interval ");
			num(t, f, dlo);
			put(t, " to ");
			num(t, f, dhi);
			put(t, " that includes 0)");
		} else {
			put(t, "no residual left to judge it)");
		}
	}
	return decided;
}

void nb_fit_sentence(const struct nb_fit *f, const char *metric, const char *const *names,
		     char *buf, size_t len)
{
	struct text t = {buf, len, 0};
	bool decided;

	if (len)
		buf[0] = '\0';
	if (isnan(f->r2)) {
		flat_sentence(&t, f, metric, names);
		return;
	}
	if (f->linear) {
		linear_sentence(&t, f, metric, names);
		return;
	}
	if (f->factors == 1) {
		put(&t, "%s scales as %s^e (1 = in proportion, 0 = not at all): ", metric,
		    names[0]);
		term(&t, f, 0, "e");
		tail(&t, f);
		if (undecided(f))
			advice(&t, f, names);
		return;
	}
	decided = order_sentence(&t, f, metric, names);
	for (size_t j = 0; j < f->factors; j++) {
		put(&t, "; ");
		term(&t, f, j, names[j]);
	}
	tail(&t, f);
	if (undecided(f) || !decided)
		advice(&t, f, names);
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

void nb_fit_line(const struct nb_fit *f, size_t j, const double *at, const double x[2], double y[2])
{
	double rest = f->log_constant;
	for (size_t k = 0; k < f->factors; k++)
		if (k != j)
			rest += f->exponent[k] * (f->linear ? at[k] : log(at[k]));
	for (size_t i = 0; i < 2; i++)
		y[i] = f->linear ? rest + f->exponent[j] * x[i]
				 : exp(rest + f->exponent[j] * log(x[i]));
}
