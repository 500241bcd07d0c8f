/* SPDX-License-Identifier: BSD-2-Clause */
/* The stacked bar chart: one bar per step, its parts stacked from the axis with heights in
 * proportion to their values, parts without a value left out of the bar and of the legend,
 * names escaped, and the bounds (too many bars, a total no axis takes). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/chart_bars.h"
#include "tap.h"

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* The k-th segment's y and height. */
static bool seg(const char *svg, size_t k, double *y, double *h)
{
	const char *p = svg;
	for (size_t i = 0; i <= k; i++)
		if (!(p = strstr(p, "<rect class=\"seg\"")))
			return false;
		else if (i < k)
			p++;
	return sscanf(strstr(p, " y=\""), " y=\"%lf\"", y) == 1 &&
	       sscanf(strstr(p, " height=\""), " height=\"%lf\"", h) == 1;
}

int main(void)
{
	const char *parts[] = {"netfilter", "driver", "<ip>", "sched"};
	const double x[] = {64, 1518};
	/* 64: 300, 100, 50, none; 1518: 300, 250, none, NaN */
	const double v[] = {300, 100, 50, 0, 300, 250, NAN, NAN};
	struct nb_bars b = {.title = "t",
			    .x_label = "frame (bytes)",
			    .y_label = "ns per frame",
			    .x_bytes = true,
			    .nbars = 2,
			    .x = x,
			    .nparts = 4,
			    .part = parts,
			    .v = v};
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	CHECK(nb_bars_svg(f, &b) == 0, "a chart of two bars");
	fclose(f);
	CHECK(count(out, "<g class=\"bar\"") == 2 && count(out, "<rect class=\"seg\"") == 5,
	      "two bars, five parts with a value (none and NaN left out)");
	CHECK(count(out, "class=\"legend-item\"") == 3 && !strstr(out, "sched") &&
		  strstr(out, "&lt;ip&gt;") && !strstr(out, "<ip>"),
	      "the legend names the three parts drawn, escaped; sched (no value) is not listed");
	CHECK(strstr(out, ">64<") && strstr(out, ">1518<"), "bars labelled with the frame size");
	double y[5], h[5];
	bool all = true;
	for (size_t k = 0; k < 5; k++)
		all = all && seg(out, k, &y[k], &h[k]);
	CHECK(all, "five segments read back");
	const double want[5] = {300, 100, 50, 300, 250};
	double r0 = h[0] / want[0];
	bool prop = true;
	for (size_t k = 1; k < 5; k++)
		prop = prop && fabs(h[k] / want[k] - r0) < 0.01 * r0;
	CHECK(all && prop && r0 > 0, "heights in proportion to the values");
	CHECK(all && fabs(y[0] - (y[1] + h[1])) < 0.02 && fabs(y[1] - (y[2] + h[2])) < 0.02 &&
		  fabs(y[3] - (y[4] + h[4])) < 0.02 && fabs((y[0] + h[0]) - (y[3] + h[3])) < 0.02,
	      "stacked: each part on the one below, both bars on the axis");
	CHECK(strstr(out, "data-total=\"450\"") && strstr(out, "data-total=\"550\""),
	      "each bar's total");
	free(out);

	double many_x[NB_BARS_MAX + 1] = {0}, many_v[NB_BARS_MAX + 1] = {0};
	b.nbars = NB_BARS_MAX + 1;
	b.x = many_x;
	b.nparts = 1;
	b.v = many_v;
	f = open_memstream(&out, &len);
	CHECK(nb_bars_svg(f, &b) == -EINVAL, "more than %u bars refused", NB_BARS_MAX);
	fclose(f);
	CHECK(len == 0, "... with nothing written");
	free(out);
	const double huge[1] = {1e301}, one_x[1] = {64};
	b.nbars = 1;
	b.x = one_x;
	b.v = huge;
	f = open_memstream(&out, &len);
	CHECK(nb_bars_svg(f, &b) == -ERANGE, "a total no axis takes refused");
	fclose(f);
	CHECK(len == 0, "... with nothing written");
	free(out);
	return tap_done();
}
