/* SPDX-License-Identifier: BSD-2-Clause */
/* A small SVG line chart: linear or logarithmic axes with round ticks, series as polylines with
 * point markers, dashed model curves, vertical marks, a legend. Scaling is separate from drawing
 * so that tests can check the axes' numbers. */
#ifndef NB_CHART_H
#define NB_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define NB_AXIS_MAX_TICKS 24

struct nb_axis {
	bool log, bytes; /* bytes: log axes step in powers of two, labels "1k", "4M" */
	double lo, hi;	 /* the drawn range; for log axes lo > 0 */
	size_t nticks;
	double tick[NB_AXIS_MAX_TICKS];
	char label[NB_AXIS_MAX_TICKS][16];
};

/* Fits the axis to the values (non-finite ones, and on a log axis those <= 0, are ignored).
 * from_zero: a linear axis starts at 0 when every value is positive. No values: [0, 1] linear
 * or [1, 10] log. One value or equal values: a range around it. */
void nb_axis_fit(struct nb_axis *a, const double *v, size_t n, bool is_log, bool bytes,
		 bool from_zero);
/* Position of v between px0 (at lo) and px1 (at hi). */
double nb_axis_map(const struct nb_axis *a, double v, double px0, double px1);
/* A tick label: "%g" with k/M/G for large numbers, or bytes with binary suffixes. */
void nb_axis_label(double v, bool bytes, char *buf, size_t len);

struct nb_chart_series {
	const char *name;
	const double *x, *y;
	size_t n;
	bool dashed;
};

struct nb_chart_mark {
	double x;
	const char *text;
};

struct nb_chart {
	const char *title;
	const char *x_label, *y_label; /* with units: "block (bytes)" */
	bool x_log, y_log, x_bytes;
	const struct nb_chart_series *s;
	size_t ns;
	const struct nb_chart_mark *marks;
	size_t nmarks;
	int width_px, height_px; /* 0: 640 x 360 */
};

/* Writes one <svg> element (class "chart", data-series = the number of series). Returns 0, or
 * -ENOMEM with nothing written. */
int nb_chart_svg(FILE *f, const struct nb_chart *c);
/* Escapes &, <, >, " and ' for XML text and attributes. */
void nb_xml_text(FILE *f, const char *s);

#endif
