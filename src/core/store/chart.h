/* SPDX-License-Identifier: BSD-2-Clause */
/* A small SVG line chart: linear or logarithmic axes with round ticks, series as polylines with
 * point markers and 95 % error bars, dashed model curves, vertical marks whose labels never
 * overlap, a legend. Scaling is separate from drawing so that tests can check the axes' numbers. */
#ifndef NB_CHART_H
#define NB_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define NB_AXIS_MAX_TICKS 24
/* The largest magnitude an axis takes (and on a log axis the smallest positive value is its
 * inverse): beyond it ranges and tick steps overflow or underflow. */
#define NB_AXIS_MAX_ABS 1e300

struct nb_axis {
	bool log, bytes; /* bytes: log axes step in powers of two, labels "1k", "4M" */
	double lo, hi;	 /* the drawn range; for log axes lo > 0 */
	size_t nticks;
	double tick[NB_AXIS_MAX_TICKS];
	char label[NB_AXIS_MAX_TICKS][16];
};

/* Fits the axis to the values (non-finite ones, and on a log axis those <= 0, are ignored).
 * from_zero: a linear axis starts at 0 when every value is positive. No values: [0, 1] linear
 * or [1, 10] log. One value, or values too close to tell apart at a chart's resolution (a
 * millionth of their magnitude): a range with the value in its middle. Ticks are computed by
 * index from a round step, at most NB_AXIS_MAX_TICKS of them. Returns 0, or -ERANGE when a
 * value's magnitude exceeds NB_AXIS_MAX_ABS (on a log axis: is below 1/NB_AXIS_MAX_ABS); the
 * axis is then [0, 1] or [1, 10]. */
int nb_axis_fit(struct nb_axis *a, const double *v, size_t n, bool is_log, bool bytes,
		bool from_zero);
/* Position of v between px0 (at lo) and px1 (at hi). */
double nb_axis_map(const struct nb_axis *a, double v, double px0, double px1);
/* A tick label: "%g" with k/M/G for large numbers ("%.3g" beyond 1e12), or bytes with binary
 * suffixes. */
void nb_axis_label(double v, bool bytes, char *buf, size_t len);

struct nb_chart_series {
	const char *name;
	const double *x, *y;
	size_t n;
	bool dashed;
	const double *lo,
	    *hi;	  /* NULL, or per point the 95 % interval: an error bar where lo < hi */
	const bool *flag; /* NULL, or per point: drawn hollow (a polluted CPU window) */
	int colour;	  /* 0: by the series' index; else 1 + an index into the palette */
	bool no_legend;	  /* drawn, not listed: another run's copy of a listed curve */
};

struct nb_chart_mark {
	double x;
	const char *text;
};

struct nb_chart {
	const char *title;
	const char *x_label, *y_label; /* with units: "block (bytes)" */
	bool x_log, y_log, x_bytes;
	bool y_plain; /* y ticks without k/M/G: the unit has its own prefix ("Mbit/s") */
	const struct nb_chart_series *s;
	size_t ns;
	const struct nb_chart_mark *marks;
	size_t nmarks;
	int width_px, height_px; /* 0: 640 x 360 */
	/* Named x values (a tag's values in order: kernel 5.10, 6.1, ...): a series' x is an index
	 * into them, the axis runs from -0.5 to nx_names - 0.5 with one tick per name. */
	const char *const *x_names;
	size_t nx_names;
};

/* Writes one <svg> element (class "chart", data-series = the number of series). Returns 0, or
 * with nothing written -ENOMEM, or -ERANGE when a value is beyond what an axis takes (err then
 * names the axis and the value; err may be NULL). */
int nb_chart_svg_err(FILE *f, const struct nb_chart *c, char *err, size_t errlen);
static inline int nb_chart_svg(FILE *f, const struct nb_chart *c)
{
	return nb_chart_svg_err(f, c, NULL, 0);
}
/* Escapes &, <, >, " and ' for XML text and attributes. */
void nb_xml_text(FILE *f, const char *s);
/* A text's estimated width in a font of font_px (no fonts are measured in a page without
 * scripts), and the text written cut to max_px with "…" (for the other charts of the page). */
double nb_chart_text_px(const char *s, double font_px);
void nb_chart_text_fit(FILE *f, const char *s, double font_px, double max_px);
/* The parts every chart of the page shares: the <svg> element's opening (class cls, its
 * data-DATA attribute n), its title and background; the
 * y grid's lines; the y axis' ticks and label (" (log)" on a log axis); the plot's frame, with
 * "no data" when empty. */
void nb_chart_svg_head(FILE *f, const char *cls, const char *data, size_t n, int w, int h,
		       const char *title);
void nb_chart_grid_y(FILE *f, const struct nb_axis *ay, double l, double r, double t, double b);
void nb_chart_axis_y(FILE *f, const struct nb_axis *ay, double l, double t, double b,
		     const char *label, bool log);
void nb_chart_frame(FILE *f, double l, double r, double t, double b, bool empty);

#endif
