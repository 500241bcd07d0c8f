/* SPDX-License-Identifier: BSD-2-Clause */
/* The least-squares engine against known answers: Student's t quantiles from the published
 * tables, the seed's four runs (one residual dof; the bus exponent rests on the one run at
 * 200 MHz), exact and flat lines, and the inputs it must refuse, each refusal naming its input. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/base/lab_fit.h"
#include "core/base/stats.h"
#include "core/observe/verdict.h"
#include "tap.h"

static bool near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

int main(void)
{
	/* t(0.975) for 1, 2, 3, 4, 5, 10, 30, 120 dof (any statistics table, 6 digits shown). */
	static const struct {
		size_t dof;
		double t;
	} tq[] = {{1, 12.7062047}, {2, 4.3026527},  {3, 3.1824463},  {4, 2.7764451},
		  {5, 2.5705818},  {10, 2.2281389}, {30, 2.0422725}, {120, 1.9799304}};
	for (size_t i = 0; i < sizeof(tq) / sizeof(tq[0]); i++)
		CHECK(near(nb_student_t95(tq[i].dof), tq[i].t, 1e-6), "t95(%zu) = %.7f (%.7f)",
		      tq[i].dof, nb_student_t95(tq[i].dof), tq[i].t);
	CHECK(isnan(nb_student_t95(0)), "t95(0) is NAN: no interval without a residual dof");
	CHECK(near(nb_student_t95(1000000), 1.959966, 1e-5), "large dof: the normal's 1.96");
	CHECK(near(nb_student_t_quantile(0.995, 7), 3.4994833, 1e-6), "t(0.995, 7) = 3.4995");
	CHECK(near(nb_student_t_quantile(0.025, 3), -3.1824463, 1e-6), "lower tail is symmetric");
	CHECK(near(nb_student_t_cdf(2.0, 5), 0.9490303, 1e-6), "cdf(2, 5) = 0.94903");

	/* Seed 000: ln fps = b0 + a ln core + b ln bus, 4 runs, 3 unknowns. */
	const char *names[] = {"core_mhz", "bus_mhz"};
	double core[] = {250, 333, 416, 400}, bus[] = {166, 166, 166, 200},
	       fps[] = {12500, 14500, 15500, 17500}, x[8], y[4];
	for (int i = 0; i < 4; i++) {
		x[2 * i] = log(core[i]);
		x[2 * i + 1] = log(bus[i]);
		y[i] = log(fps[i]);
	}
	struct nb_ols o;
	char why[200] = "";
	CHECK(nb_ols(y, x, 4, 2, names, &o, why, sizeof(why)) == 0, "seed fits (%s)", why);
	CHECK(o.dof == 1 && o.runs == 4, "one residual degree of freedom (%zu)", o.dof);
	CHECK(near(o.coef[1], 0.42691, 1e-5) && near(o.coef[2], 0.68645, 1e-5),
	      "exponents 0.43 and 0.69 (%.4f, %.4f)", o.coef[1], o.coef[2]);
	CHECK(near(o.lo[1], -0.36, 0.01) && near(o.hi[1], 1.21, 0.01),
	      "core -0.36..1.21 (%.3f..%.3f)", o.lo[1], o.hi[1]);
	CHECK(near(o.lo[2], -1.26, 0.01) && near(o.hi[2], 2.64, 0.01),
	      "bus -1.26..2.64 (%.3f..%.3f)", o.lo[2], o.hi[2]);
	CHECK(!nb_ols_excludes_zero(&o, 1) && !nb_ols_excludes_zero(&o, 2), "neither established");
	CHECK(o.pinned_runs[2] == 1 && o.pinned_run[2] == 3 && o.pinned_runs[1] == 0,
	      "bus rests on run 4 alone, core on none (%zu %zu %zu)", o.pinned_runs[2],
	      o.pinned_run[2], o.pinned_runs[1]);
	double d, dlo, dhi;
	nb_ols_diff(&o, 2, 1, &d, &dlo, &dhi);
	CHECK(near(d, o.coef[2] - o.coef[1], 1e-12) && dlo < 0 && dhi > 0,
	      "their difference %.2f (%.2f..%.2f) includes 0", d, dlo, dhi);

	/* An exact line: a zero-width interval around the slope, and the flat case's zero slope
	 * is not "established" by rounding. */
	double r[] = {0, 100, 1000, 500}, ns[4], flat[] = {7, 7, 7, 7};
	for (int i = 0; i < 4; i++)
		ns[i] = 1000 + 2.5 * r[i];
	CHECK(nb_ols(ns, r, 4, 1, NULL, &o, why, sizeof(why)) == 0 && near(o.coef[1], 2.5, 1e-12) &&
		  nb_ols_excludes_zero(&o, 1) && near(o.r2, 1, 1e-12),
	      "exact line: 2.5 established, R^2 1");
	CHECK(nb_ols(flat, r, 4, 1, NULL, &o, why, sizeof(why)) == 0 && fabs(o.coef[1]) < 1e-15 &&
		  !nb_ols_excludes_zero(&o, 1) && isnan(o.r2),
	      "flat: slope %.3g not established, R^2 undefined", o.coef[1]);
	CHECK(nb_ols(ns, r, 2, 1, NULL, &o, why, sizeof(why)) == 0 && o.dof == 0 &&
		  isnan(o.lo[1]) && !nb_ols_excludes_zero(&o, 1) && o.pinned_runs[1] == 2,
	      "two points: dof 0, no interval, both runs pin the slope");

	/* Refusals, each naming the input. */
	double bad[4] = {1, 2, 3, 4};
	bad[2] = 1e-320;
	CHECK(nb_ols(ns, bad, 4, 1, names, &o, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "run 3: core_mhz is"),
	      "subnormal refused: %s", why);
	bad[2] = 1e308;
	CHECK(nb_ols(ns, bad, 4, 1, names, &o, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "run 3: core_mhz is 1e+308"),
	      "1e308 refused: %s", why);
	bad[2] = NAN;
	CHECK(nb_ols(bad, r, 4, 1, names, &o, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "run 3: the metric is nan"),
	      "NaN refused: %s", why);
	double twice[8];
	for (int i = 0; i < 4; i++) {
		twice[2 * i] = r[i];
		twice[2 * i + 1] = 3 * r[i] + 1;
	}
	CHECK(nb_ols(ns, twice, 4, 2, names, &o, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "core_mhz and bus_mhz vary together"),
	      "collinear refused: %s", why);
	double big[] = {1e17, 1e17 + 16, 1e17, 1e17 + 16};
	CHECK(nb_ols(ns, big, 4, 1, names, &o, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "never varies"),
	      "a factor varying below rounding: %s", why);
	CHECK(nb_ols(ns, r, 1, 1, names, &o, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "at least 2 runs"),
	      "too few runs: %s", why);

	/* The lab's rule-cost fit carries the interval. */
	double rules[] = {0, 100, 1000}, rfps[] = {176735, 117749, 29878};
	struct nb_lab_fit lf;
	char s[300];
	CHECK(nb_lab_fit_cost(rules, rfps, 3, &lf) == 0 && lf.dof == 1 &&
		  lf.per_rule_lo_ns < lf.per_rule_ns && lf.per_rule_hi_ns > lf.per_rule_ns,
	      "lab fit: dof 1, interval around %.2f (%.2f..%.2f)", lf.per_rule_ns,
	      lf.per_rule_lo_ns, lf.per_rule_hi_ns);
	CHECK(nb_lab_fit_slope_established(&lf), "a 27.8 ns/rule slope is established");
	nb_lab_fit_text(&lf, s, sizeof(s));
	CHECK(!strcmp(s,
		      "per-frame cost = 5684.6 ns + 27.788 ns x rules (slope 95 % interval 27.143 "
		      "to 28.433 ns; 3 points, 1 residual dof, residual 22.8 ns rms)"),
	      "fit text: %s", s);
	double nfps[] = {110000, 132000, 120000};
	CHECK(nb_lab_fit_cost(rules, nfps, 3, &lf) == 0 && !nb_lab_fit_slope_established(&lf),
	      "noise: not established (%.2f, %.2f..%.2f)", lf.per_rule_ns, lf.per_rule_lo_ns,
	      lf.per_rule_hi_ns);
	nb_lab_fit_text(&lf, s, sizeof(s));
	CHECK(strstr(s, " ns: not established; 3 points, 1 residual dof") != NULL,
	      "and says so: %s", s);
	CHECK(nb_lab_fit_cost(rules, rfps, 2, &lf) == 0 && lf.dof == 0 &&
		  isnan(lf.per_rule_lo_ns) && !nb_lab_fit_slope_established(&lf),
	      "two points: no interval, not established");
	nb_lab_fit_text(&lf, s, sizeof(s));
	CHECK(strstr(s, "(no interval: 2 points fix a line exactly, measure a third rule count to "
			"judge it)") != NULL,
	      "and says what to measure: %s", s);

	/* The clock fit carries its exponent's interval: 3 clocks, 1 residual dof. */
	double mhz[] = {250, 333, 416}, cfps[] = {12500, 14500, 15500};
	struct nb_clock_fit cf;
	CHECK(nb_clock_fit(mhz, cfps, 3, &cf) == 0 && cf.dof == 1 && cf.lo < cf.exponent &&
		  cf.hi > cf.exponent && near(cf.exponent, 0.42691, 1e-4),
	      "clock fit: exponent %.3f, 95 %% interval %.3f to %.3f, dof %zu", cf.exponent, cf.lo,
	      cf.hi, cf.dof);
	CHECK(nb_clock_fit(mhz, cfps, 2, &cf) == 0 && cf.dof == 0 && isnan(cf.lo),
	      "two clocks: no interval");
	return tap_done();
}
