/* SPDX-License-Identifier: BSD-2-Clause */
/* Chart scaling: round linear ticks from zero, decades and powers of two on log axes, the
 * empty and single-point cases, and the SVG's structure (series count, axis labels, escaping). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/chart.h"
#include "tap.h"

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

int main(void)
{
	struct nb_axis a;
	double tput[] = {194188.13, 282560.0, 640000.5, 668000};
	nb_axis_fit(&a, tput, 4, false, false, true);
	CHECK(a.lo == 0 && a.hi == 800000, "linear from zero: 0..800k (got %g..%g)", a.lo, a.hi);
	CHECK(a.nticks == 5 && a.tick[1] == 200000 && !strcmp(a.label[1], "200k"),
	      "ticks every 200k, labelled 200k (%zu ticks, %s)", a.nticks, a.label[1]);
	CHECK(nb_axis_map(&a, 400000, 100, 300) == 200, "maps the middle to the middle");

	double neg[] = {-3.2, 7.9};
	nb_axis_fit(&a, neg, 2, false, false, true);
	CHECK(a.lo == -5 && a.hi == 10 && a.tick[1] == 0, "negative values: -5..10 step 5 (%g..%g)",
	      a.lo, a.hi);

	double bytes[] = {1024, 2048, 32768, 1420};
	nb_axis_fit(&a, bytes, 4, true, true, false);
	CHECK(a.lo == 1024 && a.hi == 32768, "log bytes: 1k..32k (got %g..%g)", a.lo, a.hi);
	CHECK(a.nticks == 6 && !strcmp(a.label[0], "1k") && !strcmp(a.label[5], "32k"),
	      "a tick per power of two, 1k..32k (%zu)", a.nticks);
	CHECK(fabs(nb_axis_map(&a, 4096, 0, 500) - 200) < 1e-9, "4k two fifths along (got %g)",
	      nb_axis_map(&a, 4096, 0, 500));

	double wide[] = {1024, 268435456};
	nb_axis_fit(&a, wide, 2, true, true, false);
	CHECK(a.nticks <= 11 && a.nticks >= 5 && !strcmp(a.label[a.nticks - 1], "256M"),
	      "1k..256M thinned to %zu ticks ending at 256M (%s)", a.nticks,
	      a.label[a.nticks - 1]);
	CHECK(!strcmp(a.label[1], "4k"), "thinned by even powers: 1k, 4k, ... (%s)", a.label[1]);

	double lat[] = {1.17, 4.6, 380.07, 0, -1, NAN};
	nb_axis_fit(&a, lat, 6, true, false, false);
	CHECK(a.lo == 1 && a.hi == 1000 && a.nticks == 4, "log10: decades 1..1000, zero, "
							 "negative and NAN ignored (%g..%g, %zu)",
	      a.lo, a.hi, a.nticks);

	double dec[] = {12500, 17500};
	nb_axis_fit(&a, dec, 2, true, false, false);
	CHECK(a.lo == 10000 && a.hi == 100000 && a.nticks == 4 && a.tick[1] == 20000,
	      "within one decade: 10k, 20k, 50k, 100k");

	nb_axis_fit(&a, NULL, 0, false, false, true);
	CHECK(a.lo == 0 && a.hi == 1 && a.nticks >= 2, "empty linear: 0..1");
	nb_axis_fit(&a, NULL, 0, true, false, false);
	CHECK(a.lo == 1 && a.hi == 10, "empty log: 1..10");
	double one[] = {42};
	nb_axis_fit(&a, one, 1, false, false, false);
	CHECK(a.lo < 42 && a.hi > 42, "single point inside a range (%g..%g)", a.lo, a.hi);
	nb_axis_fit(&a, one, 1, true, false, false);
	CHECK(a.lo <= 42 && a.hi > 42 && a.lo > 0, "single point on log (%g..%g)", a.lo, a.hi);
	double pw[] = {1024};
	nb_axis_fit(&a, pw, 1, true, true, false);
	CHECK(a.lo == 1024 && a.hi == 2048, "single power of two: 1k..2k (%g..%g)", a.lo, a.hi);

	char buf[16];
	nb_axis_label(1048576, true, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1M"), "1 MiB labelled 1M");
	nb_axis_label(1500, false, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1500"), "1500 stays 1500");
	nb_axis_label(2.5e6, false, buf, sizeof(buf));
	CHECK(!strcmp(buf, "2.5M"), "2.5e6 labelled 2.5M");

	/* The SVG. */
	double x[] = {1024, 8192}, y1[] = {100, 200}, y2[] = {50, 60};
	struct nb_chart_series s[] = {{"Tx <a&b>", x, y1, 2, false},
				      {"Rx", x, y2, 2, false},
				      {"model", x, y1, 2, true}};
	struct nb_chart_mark m[] = {{4096, "step"}};
	struct nb_chart c = {.title = "T", .x_label = "block (bytes)", .y_label = "KByte/s",
			     .x_log = true, .x_bytes = true, .s = s, .ns = 3, .marks = m,
			     .nmarks = 1};
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	nb_chart_svg(f, &c);
	fclose(f);
	CHECK(strstr(out, "data-series=\"3\"") != NULL, "data-series counts 3 series");
	CHECK(count(out, "<polyline") == 3, "3 polylines");
	CHECK(count(out, "class=\"series model\"") == 1, "one dashed model series");
	CHECK(strstr(out, "block (bytes) (log)</text>") && strstr(out, ">KByte/s</text>"),
	      "axis labels with units, log marked");
	CHECK(strstr(out, "Tx &lt;a&amp;b&gt;") && !strstr(out, "<a&b>"), "names escaped");
	CHECK(count(out, "class=\"mark\"") == 1, "the mark is drawn");
	CHECK(count(out, "<svg") == 1 && strstr(out, "</svg>"), "one svg element");
	free(out);

	struct nb_chart empty = {.title = "none", .x_label = "x", .y_label = "y"};
	out = NULL;
	f = open_memstream(&out, &len);
	nb_chart_svg(f, &empty);
	fclose(f);
	CHECK(strstr(out, "data-series=\"0\"") && strstr(out, "no data"), "empty chart says so");
	free(out);
	return tap_done();
}
