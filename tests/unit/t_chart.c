/* SPDX-License-Identifier: BSD-2-Clause */
/* Chart scaling: round linear ticks from zero, decades and powers of two on log axes, the
 * empty and single-point cases, values closer than their precision (the report that never
 * finished), values no axis takes, and the SVG's structure (series count, axis labels, escaping,
 * error bars, polluted points, a lone point, mark labels that do not overlap). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
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
	      "1k..256M thinned to %zu ticks ending at 256M (%s)", a.nticks, a.label[a.nticks - 1]);
	CHECK(!strcmp(a.label[1], "4k"), "thinned by even powers: 1k, 4k, ... (%s)", a.label[1]);

	double lat[] = {1.17, 4.6, 380.07, 0, -1, NAN};
	nb_axis_fit(&a, lat, 6, true, false, false);
	CHECK(a.lo == 1 && a.hi == 1000 && a.nticks == 4,
	      "log10: decades 1..1000, zero, "
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
	CHECK(a.lo == 512 && a.hi == 2048, "single power of two in the middle: 512..2k (%g..%g)",
	      a.lo, a.hi);
	double one_x[] = {1000};
	nb_axis_fit(&a, one_x, 1, false, false, false);
	CHECK(a.lo == 0 && a.hi == 2000 && nb_axis_map(&a, 1000, 0, 100) == 50,
	      "one rule count: 0..2000 with the point in the middle, not 900..1100 (%g..%g)", a.lo,
	      a.hi);

	/* Issue: 1e17 and 1e17 + 16 differ by one ulp; the old tick loop added a step below the
	 * precision and never ended. */
	double ulp[] = {1e17, 100000000000000016.0};
	CHECK(nb_axis_fit(&a, ulp, 2, false, false, false) == 0, "1e17 and 1e17+16: fitted");
	CHECK(a.nticks >= 2 && a.nticks <= NB_AXIS_MAX_TICKS && a.lo < 1e17 && a.hi > 1e17,
	      "drawn as one point inside a bounded axis (%g..%g, %zu ticks)", a.lo, a.hi, a.nticks);
	CHECK(fabs(nb_axis_map(&a, 1e17, 0, 100) - 50) < 1, "the point in the middle (%g)",
	      nb_axis_map(&a, 1e17, 0, 100));
	double nulp[] = {-1e17, -99999999999999984.0};
	nb_axis_fit(&a, nulp, 2, false, false, true);
	CHECK(a.nticks >= 2 && a.nticks <= NB_AXIS_MAX_TICKS && a.lo < -1e17 && a.hi >= -1e17,
	      "-1e17 and -99999999999999984: bounded (%g..%g)", a.lo, a.hi);
	/* Issue: fps 5e-324 and 1e-323 (subnormals) underflowed the tick step to 0, and the tick
	 * loop doubled 0 for ever. */
	double sub[][2] = {{5e-324, 1e-323}, {-1e-323, 5e-324}, {0, 4e-320}, {2.3e-308, 4.6e-308}};
	for (size_t k = 0; k < sizeof(sub) / sizeof(sub[0]); k++) {
		CHECK(nb_axis_fit(&a, sub[k], 2, false, false, k % 2) == 0 && a.nticks >= 2 &&
			  a.nticks <= NB_AXIS_MAX_TICKS && a.lo <= sub[k][0] && a.hi >= sub[k][1] &&
			  a.lo < a.hi,
		      "%g and %g: a bounded axis around them (%g..%g, %zu ticks)", sub[k][0],
		      sub[k][1], a.lo, a.hi, a.nticks);
	}
	bool bounded = true, inside = true;
	for (int i = 0; i < 4000; i++) { /* ranges from one ulp to many decades */
		double lo = ldexp(1 + (i % 97) / 97.0, (i % 200) - 100) * (i % 3 ? 1 : -1);
		double hi = lo + fabs(lo) * ldexp(1, -(i % 60));
		double v[] = {lo, hi};
		nb_axis_fit(&a, v, 2, false, false, i % 2);
		bounded &= a.nticks >= 2 && a.nticks <= NB_AXIS_MAX_TICKS;
		inside &= a.lo <= lo && a.hi >= hi && a.lo < a.hi;
	}
	CHECK(bounded && inside, "4000 ranges: 2..%d ticks, the values inside", NB_AXIS_MAX_TICKS);
	double huge[] = {1, 1e308};
	CHECK(nb_axis_fit(&a, huge, 2, false, false, false) == -ERANGE && a.hi == 1,
	      "1e308 refused (-ERANGE), axis left at 0..1");
	double tiny[] = {1e-320, 1};
	CHECK(nb_axis_fit(&a, tiny, 2, true, false, false) == -ERANGE,
	      "1e-320 on a log axis refused");
	CHECK(nb_axis_fit(&a, tiny, 2, false, false, false) == 0,
	      "1e-320 on a linear axis is just about 0");

	char buf[16];
	nb_axis_label(1048576, true, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1M"), "1 MiB labelled 1M");
	nb_axis_label(1500, false, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1500"), "1500 stays 1500");
	nb_axis_label(2.5e6, false, buf, sizeof(buf));
	CHECK(!strcmp(buf, "2.5M"), "2.5e6 labelled 2.5M");

	/* The SVG. */
	double x[] = {1024, 8192}, y1[] = {100, 200}, y2[] = {50, 60};
	struct nb_chart_series s[] = {{.name = "Tx <a&b>", .x = x, .y = y1, .n = 2},
				      {.name = "Rx", .x = x, .y = y2, .n = 2},
				      {.name = "model", .x = x, .y = y1, .n = 2, .dashed = true}};
	struct nb_chart_mark m[] = {{4096, "step"}};
	struct nb_chart c = {.title = "T",
			     .x_label = "block (bytes)",
			     .y_label = "KByte/s",
			     .x_log = true,
			     .x_bytes = true,
			     .s = s,
			     .ns = 3,
			     .marks = m,
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

	/* Error bars where lo < hi, hollow polluted points, a lone point without a line. */
	double lo[] = {90, 60}, hi[] = {110, 60}, one1[] = {4096}, one2[] = {70};
	bool fl[] = {false, true};
	struct nb_chart_series s2[] = {
	    {.name = "bars", .x = x, .y = y1, .n = 2, .lo = lo, .hi = hi, .flag = fl},
	    {.name = "lone", .x = one1, .y = one2, .n = 1}};
	struct nb_chart_mark close[] = {{4096, "step at 4k"},
					{4300, "step at 4.2k"},
					{4400, "step at 4.3k"},
					{4096, "step at 4k"}};
	struct nb_chart c2 = {.title = "bars",
			      .x_label = "x",
			      .y_label = "y",
			      .x_log = true,
			      .x_bytes = true,
			      .s = s2,
			      .ns = 2,
			      .marks = close,
			      .nmarks = 4};
	out = NULL;
	f = open_memstream(&out, &len);
	CHECK(nb_chart_svg(f, &c2) == 0, "chart with bars drawn");
	fclose(f);
	CHECK(count(out, "class=\"errbar\"") == 1, "one error bar: where lo < hi only (%zu)",
	      count(out, "class=\"errbar\""));
	CHECK(count(out, "class=\"polluted\"") == 1, "the polluted point is hollow");
	CHECK(count(out, "<polyline") == 1, "the lone point has no line (%zu polylines)",
	      count(out, "<polyline"));
	CHECK(count(out, "r=\"4.5\"") == 1, "the lone point is drawn larger");
	CHECK(count(out, "class=\"mark\"") == 3, "duplicate marks drawn once (%zu)",
	      count(out, "class=\"mark\""));
	/* Mark labels: three close lines, each label in its own row (y differs). */
	{
		double ys[8];
		size_t nys = 0;
		for (const char *p = out; (p = strstr(p, "class=\"mark-label\"")) && nys < 8; p++) {
			const char *q = strstr(p, " y=\"");
			ys[nys++] = atof(q + 4);
		}
		CHECK(nys == 3 && ys[0] != ys[1] && ys[1] != ys[2] && ys[0] != ys[2],
		      "close mark labels in different rows (%zu labels)", nys);
	}
	free(out);

	/* Two runs 10 and 100: the interval reaches below 0; the axis stays at 0 and the bar is
	 * cut there, without its lower cap. */
	double cx[] = {1, 2}, cy[] = {55, 50}, clo[] = {-517, 40}, chi[] = {627, 60};
	struct nb_chart_series s4[] = {
	    {.name = "cut", .x = cx, .y = cy, .n = 2, .lo = clo, .hi = chi}};
	struct nb_chart c4 = {.title = "t", .x_label = "x", .y_label = "y", .s = s4, .ns = 1};
	out = NULL;
	f = open_memstream(&out, &len);
	nb_chart_svg(f, &c4);
	fclose(f);
	CHECK(count(out, "class=\"errbar\" data-cut=\"below\"") == 1 &&
		  count(out, "class=\"errbar\"") == 2,
	      "the bar reaching below 0 is cut, the other is whole");
	CHECK(strstr(out, ">0</text>") && !strstr(out, ">-"), "the y axis starts at 0, no "
							      "negative tick");
	free(out);
	/* On a log axis a bar reaching below a tenth of its point is cut: the axis keeps to the
	 * data's decades. */
	double llo[] = {0.01, 45}, lhi[] = {110, 56};
	struct nb_chart_series s6[] = {
	    {.name = "log", .x = cx, .y = cy, .n = 2, .lo = llo, .hi = lhi}};
	struct nb_chart c6 = {
	    .title = "t", .x_label = "x", .y_label = "y", .y_log = true, .s = s6, .ns = 1};
	out = NULL;
	f = open_memstream(&out, &len);
	nb_chart_svg(f, &c6);
	fclose(f);
	CHECK(count(out, "data-cut=\"below\"") == 1 && !strstr(out, ">0.01</text>") &&
		  strstr(out, ">10</text>"),
	      "log axis: the bar to 0.01 is cut, the axis starts at 10");
	free(out);

	/* A legend entry too long for its column is cut with an ellipsis, whole in its tooltip. */
	const char *longname = "a label of a board that is far too long for a narrow chart: Tx";
	struct nb_chart_series s5[] = {{.name = longname, .x = cx, .y = cy, .n = 2}};
	struct nb_chart c5 = {
	    .title = "t", .x_label = "x", .y_label = "y", .s = s5, .ns = 1, .width_px = 370};
	out = NULL;
	f = open_memstream(&out, &len);
	nb_chart_svg(f, &c5);
	fclose(f);
	{
		const char *p = strstr(out, "class=\"legend-item\"");
		const char *gt = p ? strchr(p, '>') : NULL,
			   *end = gt ? strstr(gt, "<title>") : NULL;
		CHECK(end && strstr(gt, "\xe2\x80\xa6<title>") == end - 3 &&
			  (double)(end - gt - 1) * 12 * 0.62 <= 370 - 30 - 12 + 12 * 0.62 * 3,
		      "the long legend entry is cut to its column, with an ellipsis");
		CHECK(end && !strncmp(end + 7, longname, strlen(longname)),
		      "and is whole in its tooltip");
	}
	free(out);

	double big[] = {1, 1e308};
	struct nb_chart_series s3[] = {{.name = "huge", .x = big, .y = big, .n = 2}};
	struct nb_chart c3 = {.title = "t", .x_label = "x", .y_label = "y", .s = s3, .ns = 1};
	char why[200] = "";
	out = NULL;
	f = open_memstream(&out, &len);
	CHECK(nb_chart_svg_err(f, &c3, why, sizeof(why)) == -ERANGE, "1e308 refused");
	fclose(f);
	CHECK(len == 0, "nothing written for a refused chart");
	CHECK(strstr(why, "x axis cannot take 1e+308") != NULL, "it names the axis and value: %s",
	      why);
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
