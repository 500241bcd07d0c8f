/* SPDX-License-Identifier: BSD-2-Clause */
/* The fit's chart: the fitted line's endpoints at the smallest and largest factor value (other
 * factors held), the reference line's slope through the runs' centre, log-log axes for the
 * log-log fit and linear ones for the linear fit, and the series drawn. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/fit_chart.h"
#include "tap.h"

static char *svg(const struct nb_fit_chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f || nb_fit_chart_svg(f, c))
		return NULL;
	fclose(f);
	return buf;
}

int main(void)
{
	const char *names[] = {"core_mhz", "bus_mhz"};
	double core[] = {250, 333, 416, 400}, bus[] = {166, 166, 166, 200};
	double fps[] = {12500, 14500, 15500, 17500};
	const double *x[] = {core, bus};
	struct nb_fit f, ref;
	char why[200] = "";

	CHECK(nb_fit_loglog(fps, x, 2, 4, names, &f, why, sizeof(why)) == 0, "seed fit (%s)", why);
	double at[] = {0, 170}, ends[2], fy[2], ry[2];
	struct nb_fit_chart c = {.title = "t",
				 .metric = "frames/s",
				 .factor = "core_mhz",
				 .x = core,
				 .y = fps,
				 .runs = 4,
				 .j = 0,
				 .fit = &f,
				 .at = at};
	CHECK(nb_fit_chart_lines(&c, ends, fy, ry) == 0 && ends[0] == 250 && ends[1] == 416,
	      "the line spans the runs: %g to %g MHz", ends[0], ends[1]);
	double want0 = exp(f.log_constant + f.exponent[0] * log(250) + f.exponent[1] * log(170));
	double want1 = exp(f.log_constant + f.exponent[0] * log(416) + f.exponent[1] * log(170));
	CHECK(fabs(fy[0] - want0) < 1e-6 && fabs(fy[1] - want1) < 1e-6,
	      "fitted endpoints C x core^a x 170^b: %.1f, %.1f", fy[0], fy[1]);
	CHECK(fabs(log(fy[1] / fy[0]) / log(416.0 / 250) - f.exponent[0]) < 1e-9,
	      "its log-log slope is the exponent (%.3f)", f.exponent[0]);

	/* A reference scaling exactly with the core: slope 1 through the runs' geometric centre. */
	double one[] = {1, 1, 1, 1}, cpu[4];
	for (int i = 0; i < 4; i++)
		cpu[i] = 0.2 * core[i] * one[i];
	CHECK(nb_fit_loglog(cpu, x, 2, 4, names, &ref, why, sizeof(why)) == 0, "reference fit");
	c.ref = &ref;
	c.ref_name = "software crypto MB/s";
	nb_fit_chart_lines(&c, ends, fy, ry);
	double gx = exp((log(250) + log(333) + log(416) + log(400)) / 4);
	double gy = exp((log(12500) + log(14500) + log(15500) + log(17500)) / 4);
	CHECK(fabs(ry[1] / ry[0] - 416.0 / 250) < 1e-6, "reference slope 1 (ratio %.4f)",
	      ry[1] / ry[0]);
	CHECK(fabs(ry[0] - gy * 250 / gx) < 1e-6, "through the runs' centre (%.1f)", ry[0]);

	char *s = svg(&c);
	CHECK(s && strstr(s, "data-series=\"3\""), "three series: runs, fit, reference");
	CHECK(s && strstr(s, ">core_mhz (log)<") && strstr(s, ">frames/s (log)<"),
	      "log-log axes, labelled");
	CHECK(s && strstr(s, ">reference: software crypto MB/s<") && strstr(s, ">fit<"),
	      "legend names the lines");
	free(s);

	/* Linear: rules from 0, linear axes, no reference line. */
	const char *rn[] = {"rules"};
	double rules[] = {0, 300, 1000}, ns[] = {7500, 13600, 41700};
	const double *xr[] = {rules};
	CHECK(nb_fit_linear(ns, xr, 1, 3, rn, &f, why, sizeof(why)) == 0, "linear fit");
	struct nb_fit_chart l = {.title = "t",
				 .metric = "ns per frame",
				 .factor = "rules",
				 .x = rules,
				 .y = ns,
				 .runs = 3,
				 .j = 0,
				 .fit = &f,
				 .at = at,
				 .ref = &ref};
	nb_fit_chart_lines(&l, ends, fy, ry);
	CHECK(ends[0] == 0 && fabs(fy[0] - f.log_constant) < 1e-9 &&
		  fabs(fy[1] - (f.log_constant + 1000 * f.exponent[0])) < 1e-9,
	      "linear endpoints: base %.1f at 0 rules, %.1f at 1000", fy[0], fy[1]);
	s = svg(&l);
	CHECK(s && strstr(s, "data-series=\"2\"") && strstr(s, ">rules<") && !strstr(s, "(log)"),
	      "linear axes, runs and fit only");
	free(s);
	l.runs = 0;
	CHECK(nb_fit_chart_lines(&l, ends, fy, ry) != 0, "no runs: refused");
	return tap_done();
}
