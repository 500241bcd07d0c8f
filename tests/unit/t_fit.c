/* SPDX-License-Identifier: BSD-2-Clause */
/* The log-log scaling fit: the seed's firewall (frames/s against core and bus clocks) gives the
 * seed's conclusion, a CPU-bound set scales exactly with the core, and fits the runs cannot
 * support are refused with the reason. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/store/fit.h"
#include "tap.h"

int main(void)
{
	const char *names[] = {"core_mhz", "bus_mhz"};
	/* MPC8313, 128-byte frames: 250/333/416 MHz core at a 166 MHz bus, then 400 at 200. */
	double core[] = {250, 333, 416, 400}, bus[] = {166, 166, 166, 200};
	double fps[] = {12500, 14500, 15500, 17500};
	const double *x[] = {core, bus};
	struct nb_fit f;
	char why[200] = "", s[300];

	CHECK(nb_fit_loglog(fps, x, 2, 4, names, &f, why, sizeof(why)) == 0, "seed fit (%s)", why);
	CHECK(f.exponent[0] > 0.2 && f.exponent[0] < 0.6, "core exponent well below 1 (%.3f)",
	      f.exponent[0]);
	CHECK(f.exponent[1] > f.exponent[0], "bus exponent larger than the core's (%.3f)",
	      f.exponent[1]);
	CHECK(isfinite(f.stderr_[0]) && f.stderr_[0] < 0.2 && f.runs == 4,
	      "an uncertainty from the residual (+-%.3f)", f.stderr_[0]);
	nb_fit_sentence(&f, "frames/s", names, s, sizeof(s));
	CHECK(!strncmp(s, "frames/s follows bus_mhz (exponent ", 35) && strstr(s, "more than core_mhz"),
	      "sentence: %s", s);

	/* CPU bound: fps exactly proportional to the core clock, the bus irrelevant. */
	double c2[] = {250, 333, 416, 400, 300}, b2[] = {166, 166, 166, 200, 200}, y2[5];
	for (int i = 0; i < 5; i++)
		y2[i] = 50.0 * c2[i];
	const double *x2[] = {c2, b2};
	CHECK(nb_fit_loglog(y2, x2, 2, 5, names, &f, why, sizeof(why)) == 0, "CPU-bound set fits");
	CHECK(fabs(f.exponent[0] - 1) < 0.01 && f.stderr_[0] < 0.01,
	      "a = 1.00 +- 0.01 (%.4f +- %.4f)", f.exponent[0], f.stderr_[0]);
	CHECK(fabs(f.exponent[1]) < 0.01, "b = 0 (%.4f)", f.exponent[1]);
	nb_fit_sentence(&f, "ops/s", names, s, sizeof(s));
	CHECK(strstr(s, "follows core_mhz") != NULL, "sentence: %s", s);

	/* One factor: the scaling exponent. */
	CHECK(nb_fit_loglog(y2, x2, 1, 5, names, &f, why, sizeof(why)) == 0 &&
		  fabs(f.exponent[0] - 1) < 1e-9,
	      "one factor: exponent 1");
	nb_fit_sentence(&f, "ops/s", names, s, sizeof(s));
	CHECK(strstr(s, "scales as core_mhz^e with e = 1.00") != NULL, "sentence: %s", s);

	/* Refusals. */
	CHECK(nb_fit_loglog(fps, x, 2, 2, names, &f, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "at least 3 runs"),
	      "too few runs: %s", why);
	double flat[] = {166, 166, 166, 166};
	const double *x3[] = {core, flat};
	CHECK(nb_fit_loglog(fps, x3, 2, 4, names, &f, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "bus_mhz is 166 in every run"),
	      "a factor that never varies: %s", why);
	double twice[] = {500, 666, 832, 800};
	const double *x4[] = {core, twice};
	CHECK(nb_fit_loglog(fps, x4, 2, 4, names, &f, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "vary together"),
	      "factors that vary together: %s", why);
	double zero[] = {0, 1, 2, 3};
	CHECK(nb_fit_loglog(zero, x, 2, 4, names, &f, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "above 0"),
	      "a zero metric: %s", why);
	const double *x5[] = {core + 1, bus + 1};
	CHECK(nb_fit_loglog(fps + 1, x5, 2, 3, names, &f, why, sizeof(why)) == 0 &&
		  isnan(f.stderr_[0]),
	      "exactly enough runs: no error estimate");
	nb_fit_sentence(&f, "fps", names, s, sizeof(s));
	CHECK(strstr(s, "no error estimate") != NULL, "and the sentence says so");

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
