/* SPDX-License-Identifier: BSD-2-Clause */
/* The fits compare and report print, each pinned to its exact sentence: the seed's firewall
 * (frames/s against core and bus clocks: one residual dof, no ordering), exactly core-bound and
 * exactly bus-bound runs, noisy runs that cannot order the two clocks, flat runs, and the runs and
 * values a fit must refuse, with the reason. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/base/lab_fit.h"
#include "core/store/fit.h"
#include "tap.h"

static const char *names[] = {"core_mhz", "bus_mhz"};

/* Fits and renders; "ERR: why" when refused. */
static const char *said(const double *y, const double *const *x, size_t k, size_t n, bool linear,
			const char *metric, const char *const *nm)
{
	static char s[1200];
	char why[300];
	struct nb_fit f;
	int ret = linear ? nb_fit_linear(y, x, k, n, nm, &f, why, sizeof(why))
			 : nb_fit_loglog(y, x, k, n, nm, &f, why, sizeof(why));
	if (ret)
		snprintf(s, sizeof(s), "ERR: %s", why);
	else
		nb_fit_sentence(&f, metric, nm, s, sizeof(s));
	return s;
}

/* The exact sentence; on a mismatch the output shows what was said. */
#define SAYS(expect, ...)                                                                          \
	do {                                                                                       \
		const char *got_ = said(__VA_ARGS__);                                              \
		CHECK(!strcmp(got_, expect), "says: %s", got_);                                    \
	} while (0)

int main(void)
{
	/* Seed 000, MPC8313, 128-byte frames: 250/333/416 MHz core at a 166 MHz bus, then
	 * 400 at 200. Four runs, three unknowns: one residual dof, and the bus exponent
	 * rests on the one run at 200 MHz. Nothing is established, no ordering is claimed.
	 */
	double core[] = {250, 333, 416, 400}, bus[] = {166, 166, 166, 200};
	double fps[] = {12500, 14500, 15500, 17500};
	const double *x[] = {core, bus};
	struct nb_fit f;
	char why[300] = "";

	CHECK(nb_fit_loglog(fps, x, 2, 4, names, &f, why, sizeof(why)) == 0 && f.dof == 1,
	      "seed fit: one residual dof (%s)", why);
	static const char seed[] =
	    "frames/s: no ordering of bus_mhz and core_mhz (the difference of their "
	    "exponents' magnitudes, "
	    "0.26, has a 95 % interval -2.87 to 2.87 that includes 0); core_mhz exponent "
	    "0.43 (95 "
	    "% "
	    "interval -0.36 to 1.21): not established; bus_mhz exponent 0.69 (95 % "
	    "interval -1.26 "
	    "to "
	    "2.64): not established, rests on run 4 alone (its residual is 0 whatever it "
	    "measured); "
	    "4 runs, 1 residual dof, R^2 0.99. To decide: measure at two more bus_mhz "
	    "values with "
	    "core_mhz fixed";
	SAYS(seed, fps, x, 2, 4, false, "frames/s", names);

	/* Exactly core-bound: fps = 50 x core whatever the bus; the ordering is established
	 * and the bus exponent is known to be negligible. Exactly bus-bound: the mirror
	 * image. */
	double c5[] = {250, 333, 416, 400, 300}, b5[] = {166, 166, 166, 200, 200}, yc[5], yb[5];
	for (int i = 0; i < 5; i++) {
		yc[i] = 50.0 * c5[i];
		yb[i] = 40.0 * b5[i];
	}
	const double *x5[] = {c5, b5};
	SAYS("frames/s follows core_mhz more than bus_mhz (difference of exponents 1.00, "
	     "95 % "
	     "interval 1.00 to 1.00); core_mhz exponent 1.00 (95 % interval 1.00 to 1.00); "
	     "bus_mhz "
	     "exponent 0.00 (95 % interval 0.00 to 0.00): not established (the interval "
	     "rules out "
	     "an exponent beyond +-0.10); 5 runs, 2 residual dof, R^2 1.00",
	     yc, x5, 2, 5, false, "frames/s", names);
	SAYS("frames/s follows bus_mhz more than core_mhz (difference of exponents 1.00, "
	     "95 % "
	     "interval 1.00 to 1.00); core_mhz exponent 0.00 (95 % interval 0.00 to 0.00): "
	     "not "
	     "established (the interval rules out an exponent beyond +-0.10); bus_mhz "
	     "exponent 1.00 "
	     "(95 % interval 1.00 to 1.00); 5 runs, 2 residual dof, R^2 1.00",
	     yb, x5, 2, 5, false, "frames/s", names);

	/* Noisy: both clocks matter about equally (0.5 each, +-3 % noise); each exponent is
	 * established, their order is not. */
	double c6[] = {250, 333, 416, 250, 333, 416}, b6[] = {133, 166, 200, 200, 133, 166}, yn[6];
	double noise[] = {1.03, 0.97, 1.01, 0.98, 1.02, 0.99};
	for (int i = 0; i < 6; i++)
		yn[i] = 30 * sqrt(c6[i]) * sqrt(b6[i]) * noise[i];
	const double *x6[] = {c6, b6};
	SAYS("frames/s: no ordering of core_mhz and bus_mhz (the difference of their "
	     "exponents, "
	     "0.08, has a 95 % interval -0.20 to 0.36 that includes 0); core_mhz exponent "
	     "0.50 (95 "
	     "% "
	     "interval 0.35 to 0.66); bus_mhz exponent 0.42 (95 % interval 0.22 to 0.62); "
	     "6 runs, 3 "
	     "residual dof, R^2 0.98. To decide: repeat the runs or measure over a wider "
	     "range of "
	     "bus_mhz with core_mhz fixed",
	     yn, x6, 2, 6, false, "frames/s", names);

	/* A metric that falls as the clocks rise: ns per frame of fps ~ core^0.3 x bus^0.9 has
	 * exponents -0.3 and -0.9; the bus moves it three times more, and the ordering says
	 * so by magnitude, whatever the sign. Then mixed signs: a metric that rises with the
	 * core (0.3) and falls with the bus (-0.9) still follows the bus more. */
	double nspf[6], mixed[6];
	for (int i = 0; i < 6; i++) {
		nspf[i] = 1e9 / (40 * pow(c6[i], 0.3) * pow(b6[i], 0.9)) * noise[i];
		mixed[i] = 1e3 * pow(c6[i], 0.3) / pow(b6[i], 0.9) * noise[i];
	}
	SAYS("ns per frame follows bus_mhz more than core_mhz (difference of the exponents' "
	     "magnitudes 0.68, 95 % interval 0.40 to 0.96); core_mhz exponent -0.30 (95 % "
	     "interval -0.45 to -0.14); bus_mhz exponent -0.98 (95 % interval -1.18 to -0.78); 6 "
	     "runs, 3 residual dof, R^2 0.99",
	     nspf, x6, 2, 6, false, "ns per frame", names);
	SAYS("ratio follows bus_mhz more than core_mhz (difference of the exponents' magnitudes "
	     "0.67, 95 % interval 0.45 to 0.89); core_mhz exponent 0.30 (95 % interval 0.15 to "
	     "0.46); bus_mhz exponent -0.98 (95 % interval -1.18 to -0.78); 6 runs, 3 residual "
	     "dof, R^2 0.99",
	     mixed, x6, 2, 6, false, "ratio", names);

	/* Flat: the same latency in every run; no exponent, no ordering. Only run 4 varies the
	 * bus: that the latency does not follow it is run 4's alone, said where compare names
	 * the result behind run 4. */
	double flat[] = {80, 80, 80, 80};
	SAYS("latency is the same in every run: it follows none of core_mhz, bus_mhz (that it "
	     "does not follow bus_mhz rests on run 4 alone); 4 runs, 1 residual dof",
	     flat, x, 2, 4, false, "latency", names);

	/* Nearly flat: latency moves by a fraction of a per cent; both exponents are tiny and no
	 * ordering is claimed, however tight the intervals. */
	double lat[] = {80.0, 80.1, 79.9, 80.05, 79.95};
	SAYS(
	    "latency hardly follows core_mhz or bus_mhz (every exponent's 95 % interval lies "
	    "within +-0.10); core_mhz exponent 0.00 (95 % interval -0.01 to 0.01): not established "
	    "(the interval rules out an exponent beyond +-0.10); bus_mhz exponent 0.00 (95 % "
	    "interval -0.03 to 0.03): not established (the interval rules out an exponent beyond "
	    "+-0.10); 5 runs, 2 residual dof, R^2 0.01",
	    lat, x5, 2, 5, false, "latency", names);

	/* Collinear: the bus clock always twice the core's. */
	double twice[] = {500, 666, 832, 800};
	const double *xc[] = {core, twice};
	SAYS("ERR: core_mhz and bus_mhz vary together in these runs: their effects cannot "
	     "be told "
	     "apart (vary one with the other fixed)",
	     fps, xc, 2, 4, false, "frames/s", names);

	/* One factor, not established. */
	SAYS("frames/s scales as core_mhz^e (1 = in proportion, 0 = not at all): e = 0.55 "
	     "(95 % "
	     "interval -0.22 to 1.32): not established; 4 runs, 2 residual dof, R^2 0.82. "
	     "To "
	     "decide: repeat the runs or measure over a wider range of core_mhz",
	     fps, x, 1, 4, false, "frames/s", names);

	/* Exactly as many runs as unknowns: no interval, and what to measure. */
	const double *x3[] = {core + 1, bus + 1};
	SAYS("frames/s: no ordering of bus_mhz and core_mhz (no residual left to judge it); "
	     "core_mhz exponent 0.30 (no interval: as many runs as unknowns); bus_mhz "
	     "exponent 0.71 "
	     "(no interval: as many runs as unknowns); 3 runs, 0 residual dof. To decide: "
	     "measure "
	     "at two more bus_mhz values with core_mhz fixed",
	     fps + 1, x3, 2, 3, false, "frames/s", names);

	/* Refusals, each naming the run and the factor. */
	SAYS("ERR: 2 runs cannot support 2 factors: at least 3 runs are needed", fps, x, 2, 2,
	     false, "fps", names);
	double fl[] = {166, 166, 166, 166};
	const double *xf[] = {core, fl};
	SAYS("ERR: bus_mhz is 166 in every run: it never varies, so nothing can be said "
	     "about it",
	     fps, xf, 2, 4, false, "fps", names);
	double zero[] = {0, 1, 2, 3};
	SAYS("ERR: run 1: the metric is 0 (a log-log fit needs values from 1e-100 to "
	     "1e+100: above "
	     "0)",
	     zero, x, 2, 4, false, "fps", names);
	double tiny[] = {250, 1e-320, 416, 400, 300}, huge[] = {250, 333, 1e308, 400, 300};
	double neg[] = {250, 333, 416, -5, 300};
	const double *xt[] = {tiny, b5}, *xh[] = {huge, b5}, *xn[] = {neg, b5};
	CHECK(nb_fit_loglog(yc, xt, 2, 5, names, &f, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "run 2: core_mhz is ") && strstr(why, "from 1e-100 to 1e+100"),
	      "log-log: a subnormal tag is refused: %s", why);
	CHECK(nb_fit_linear(yc, xt, 2, 5, names, &f, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "run 2: core_mhz is "),
	      "linear: a subnormal tag is refused: %s", why);
	CHECK(nb_fit_loglog(yc, xh, 2, 5, names, &f, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "run 3: core_mhz is 1e+308"),
	      "log-log: 1e308 refused: %s", why);
	CHECK(nb_fit_linear(yc, xh, 2, 5, names, &f, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "run 3: core_mhz is 1e+308"),
	      "linear: 1e308 refused: %s", why);
	CHECK(nb_fit_loglog(yc, xn, 2, 5, names, &f, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "run 4: core_mhz is -5 (needs a value above 0"),
	      "log-log: -5 refused: %s", why);
	double nanv[] = {250, 333, NAN, 400, 300};
	const double *xnan[] = {nanv, b5};
	CHECK(nb_fit_linear(yc, xnan, 2, 5, names, &f, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "run 3: core_mhz is nan"),
	      "linear: NaN refused: %s", why);

	/* The linear form is the lab's model: ns per frame = base + cost x rules, 0 rules
	 * allowed; on docs/lab.md's sweep it gives lab fit's numbers. */
	const char *rn[] = {"rules"};
	double rules[] = {0, 100, 1000}, rfps[] = {176735, 117749, 29878}, ns[3];
	for (int i = 0; i < 3; i++)
		ns[i] = 1e9 / rfps[i];
	const double *xr[] = {rules};
	struct nb_lab_fit lf;
	CHECK(nb_fit_linear(ns, xr, 1, 3, rn, &f, why, sizeof(why)) == 0 &&
		  nb_lab_fit_cost(rules, rfps, 3, &lf) == 0,
	      "linear fit with rules = 0 (%s)", why);
	CHECK(fabs(f.exponent[0] - lf.per_rule_ns) < 1e-6 &&
		  fabs(f.log_constant - lf.base_ns) < 1e-6 &&
		  fabs(f.lo[0] - lf.per_rule_lo_ns) < 1e-6,
	      "per-rule cost and interval as lab fit's: %.3f ns (lab fit %.3f)", f.exponent[0],
	      lf.per_rule_ns);
	SAYS("ns per frame = 5685 + 27.79 x rules: rules slope 27.79 (95 % interval 27.14 "
	     "to "
	     "28.43); "
	     "3 runs, 1 residual dof, R^2 1.00",
	     ns, xr, 1, 3, true, "ns per frame", rn);
	SAYS("ns per frame = 5658 + 28.34 x rules: rules slope 28.34 (no interval: as many "
	     "runs as "
	     "unknowns); 2 runs, 0 residual dof. To decide: measure at two more rules "
	     "values",
	     ns, xr, 1, 2, true, "ns per frame", rn);
	/* Noise around a flat cost (the demo's 0-rule "linear" and "set" differ by 20 %).
	 */
	double nfps[] = {132000, 110000, 128000, 112000}, nr[] = {0, 100, 500, 1000}, nn[4];
	for (int i = 0; i < 4; i++)
		nn[i] = 1e9 / nfps[i];
	const double *xnr[] = {nr};
	SAYS("ns per frame = 8106 + 0.6142 x rules: rules slope 0.6142 (95 % interval "
	     "-4.178 to "
	     "5.406): not established; 4 runs, 2 residual dof, R^2 0.13. To decide: repeat "
	     "the runs "
	     "or measure over a wider range of rules",
	     nn, xnr, 1, 4, true, "ns per frame", rn);
	double line[3];
	for (int i = 0; i < 3; i++)
		line[i] = 1000 + 2.5 * rules[i];
	CHECK(nb_fit_linear(line, xr, 1, 3, rn, &f, why, sizeof(why)) == 0 &&
		  fabs(f.exponent[0] - 2.5) < 1e-9 && f.stderr_[0] < 1e-6,
	      "an exact line: b = 2.5 +- 0");
	SAYS("ERR: run 1: rules is 0 (needs a value above 0: from 1e-100 to 1e+100)", ns, xr, 1, 3,
	     false, "ns", rn);

	char m[NB_FIT_NAME_MAX], fac[NB_FIT_MAX_FACTORS][NB_FIT_NAME_MAX];
	CHECK(nb_fit_formula("fps ~ core_mhz + bus_mhz", m, fac, why, sizeof(why)) == 2 &&
		  !strcmp(m, "fps") && !strcmp(fac[1], "bus_mhz"),
	      "formula parses");
	CHECK(nb_fit_formula("fps~rules", m, fac, why, sizeof(why)) == 1, "without spaces");
	CHECK(nb_fit_formula("fps core", m, fac, why, sizeof(why)) == -EINVAL, "no ~: %s", why);
	CHECK(nb_fit_formula("fps ~ a +", m, fac, why, sizeof(why)) == -EINVAL, "dangling +");
	CHECK(nb_fit_formula("fps ~ a * b", m, fac, why, sizeof(why)) == -EINVAL, "not +: %s", why);
	CHECK(nb_fit_formula("fps ~ a + a", m, fac, why, sizeof(why)) == -EINVAL, "twice: %s", why);
	CHECK(nb_fit_formula("fps ~ a+b+c+d+e", m, fac, why, sizeof(why)) == -EINVAL, "5 factors");
	return tap_done();
}
