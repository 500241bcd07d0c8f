/* SPDX-License-Identifier: BSD-2-Clause */
/* A small SVG stacked bar chart: one bar per step (a frame size, a bitrate), its parts the
 * shares of one whole (a kernel profile's categories in ns per frame), stacked from the axis in
 * the order given, a legend naming every part drawn. Heights are linear from zero, so a part's
 * height is its value: the browser test measures them against the data. */
#ifndef NB_CHART_BARS_H
#define NB_CHART_BARS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define NB_BARS_MAX 64 /* bars in one chart */

struct nb_bars {
	const char *title;
	const char *x_label, *y_label; /* with units: "frame (bytes)", "ns per frame" */
	bool x_bytes;		       /* bar labels as bytes ("1.5k") */
	size_t nbars;
	const double *x; /* per bar: its step */
	size_t nparts;
	const char *const *part; /* the parts' names, in stacking order (bottom first) */
	const int *colour;	 /* per part: an index into the palette (the same part, the
				    same colour in every chart of a section) */
	const double *v;	 /* nbars x nparts, row-major; NaN or <= 0: no such part */
	int width_px;		 /* 0: as the bars need, 360 to 640 */
	double y_top; /* the y axis reaches at least this (charts side by side share a scale) */
};

/* Writes one <svg class="chart bars"> (data-bars = the number of bars); each part a <rect
 * class="seg"> with data-part, data-value and data-bar. Returns 0, -EINVAL for more than
 * NB_BARS_MAX bars, or -ERANGE for a total no axis takes (nothing written then). */
int nb_bars_svg(FILE *f, const struct nb_bars *b);

#endif
