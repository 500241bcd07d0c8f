/* SPDX-License-Identifier: BSD-2-Clause */
/* SVG line charts for the report. Ticks: linear axes step by 1, 2 or 5 times a power of ten;
 * log axes by decades (with 2 and 5 inside a range of one decade), or by powers of two for
 * byte sizes, thinned so that at most about ten labels show. Every tick is computed from its
 * index, never by adding steps: a step below the values' precision cannot loop forever. */
#include "core/store/chart.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xmltext.h"

void nb_xml_text(FILE *f, const char *s)
{
	nb_xml_write(f, s);
}

void nb_axis_label(double v, bool bytes, char *buf, size_t len)
{
	double a = fabs(v);
	if (bytes && a >= 1024) {
		if (a >= 1099511627776.0)
			snprintf(buf, len, "%.3gT", v / 1099511627776.0);
		else if (a >= 1073741824.0)
			snprintf(buf, len, "%gG", v / 1073741824.0);
		else if (a >= 1048576)
			snprintf(buf, len, "%gM", v / 1048576);
		else
			snprintf(buf, len, "%gk", v / 1024);
	} else if (!bytes && a >= 1e12) {
		snprintf(buf, len, "%.3g", v);
	} else if (!bytes && a >= 1e9) {
		snprintf(buf, len, "%gG", v / 1e9);
	} else if (!bytes && a >= 1e6) {
		snprintf(buf, len, "%gM", v / 1e6);
	} else if (!bytes && a >= 1e4) {
		snprintf(buf, len, "%gk", v / 1e3);
	} else {
		snprintf(buf, len, "%.4g", v);
	}
}

static void add_tick(struct nb_axis *a, double v)
{
	if (a->nticks < NB_AXIS_MAX_TICKS) {
		a->tick[a->nticks] = v;
		nb_axis_label(v, a->bytes, a->label[a->nticks], sizeof(a->label[0]));
		a->nticks++;
	}
}

static double nice_step(double range, int target)
{
	double raw = range / target, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* A value an axis cannot take, or NAN when all can. */
static double beyond(const double *v, size_t n, bool is_log)
{
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (fabs(v[i]) > NB_AXIS_MAX_ABS ||
		    (is_log && v[i] > 0 && v[i] < 1 / NB_AXIS_MAX_ABS))
			return v[i];
	}
	return NAN;
}

static void fit_log(struct nb_axis *a, double lo, double hi)
{
	double base = a->bytes ? 2 : 10;
	if (!(lo <= hi)) {
		lo = 1;
		hi = 10;
	}
	double e0 = floor(log(lo) / log(base) + 1e-9), e1 = ceil(log(hi) / log(base) - 1e-9);
	if (e1 <= e0) { /* one value, a power of the base: put it in the middle */
		e0 -= 1;
		e1 = e0 + 2;
	}
	a->lo = pow(base, e0);
	a->hi = pow(base, e1);
	double stride = ceil((e1 - e0) / 10);
	if (stride < 1)
		stride = 1;
	if (a->bytes && stride > 1 && fmod(stride, 2) != 0)
		stride += 1; /* 1k, 4k, 16k rather than 1k, 8k, 64k */
	/* By index: e0 and the stride are small integers (|e| < 1000 within NB_AXIS_MAX_ABS). */
	for (size_t i = 0; e0 + (double)i * stride <= e1 + 1e-9 && i < NB_AXIS_MAX_TICKS; i++)
		add_tick(a, pow(base, e0 + (double)i * stride));
	if (!a->bytes && e1 - e0 == 1) {
		/* One decade: 1, 2, 5, 10 times the decade's start. */
		a->nticks = 0;
		add_tick(a, a->lo);
		add_tick(a, 2 * a->lo);
		add_tick(a, 5 * a->lo);
		add_tick(a, a->hi);
	}
}

static void fit_linear(struct nb_axis *a, double lo, double hi, bool from_zero)
{
	if (!(lo <= hi)) {
		lo = 0;
		hi = 1;
	}
	/* Values a millionth of their magnitude apart are one point on any chart; their
	 * difference may even be below the tick step's precision (1e17 and 1e17 + 16). */
	double mag = fmax(fabs(lo), fabs(hi));
	if (hi - lo <= mag * 1e-6) {
		double c = lo / 2 + hi / 2, d = c != 0 ? fabs(c) : 1;
		lo = c - d;
		hi = c + d;
	}
	if (from_zero && lo > 0)
		lo = 0;
	/* Bounded by construction: nice_step aims at 5 ticks, so a doubling or two brings any
	 * range under the cap; a step that is no number (a range that underflows to 0) or does
	 * not get there in 64 doublings draws the range as one interval. */
	double step = nice_step(hi - lo, 5), k0 = 0, k1 = 0;
	for (int doublings = 0;; doublings++, step *= 2) {
		if (doublings == 64 || !(step > 0) || !isfinite(step)) {
			a->lo = lo;
			a->hi = hi;
			add_tick(a, lo);
			add_tick(a, hi);
			return;
		}
		k0 = floor(lo / step + 1e-9);
		k1 = ceil(hi / step - 1e-9);
		if (k1 - k0 < NB_AXIS_MAX_TICKS)
			break;
	}
	if (k1 <= k0)
		k1 = k0 + 1;
	a->lo = k0 * step;
	a->hi = k1 * step;
	for (size_t i = 0; i <= (size_t)(k1 - k0) && i < NB_AXIS_MAX_TICKS; i++) {
		double t = (k0 + (double)i) * step;
		add_tick(a, fabs(t) < step / 1e6 ? 0 : t);
	}
}

int nb_axis_fit(struct nb_axis *a, const double *v, size_t n, bool is_log, bool bytes,
		bool from_zero)
{
	double lo = INFINITY, hi = -INFINITY;
	int ret = 0;
	memset(a, 0, sizeof(*a));
	a->log = is_log;
	a->bytes = bytes;
	if (isfinite(beyond(v, n, is_log))) {
		ret = -ERANGE;
		n = 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]) || (is_log && v[i] <= 0))
			continue;
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	if (is_log)
		fit_log(a, lo, hi);
	else
		fit_linear(a, lo, hi, from_zero);
	return ret;
}

double nb_axis_map(const struct nb_axis *a, double v, double px0, double px1)
{
	double f;
	if (a->log)
		f = (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
	else
		f = (v - a->lo) / (a->hi - a->lo);
	return isfinite(f) ? px0 + f * (px1 - px0) : px0;
}

static const char *const colour[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				     "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
#define NCOLOUR (sizeof(colour) / sizeof(colour[0]))

/* Text widths are estimated (no fonts are measured in a page without scripts): an average
 * sans-serif glyph is about 0.55 of the font size; 0.62 leaves room for wide ones. */
static double text_px(const char *s, double font_px)
{
	size_t chars = 0;
	for (; *s; s++)
		chars += ((unsigned char)*s & 0xc0) != 0x80; /* UTF-8: count code points */
	return (double)chars * font_px * 0.62;
}

/* Writes s cut to at most max_px wide, with "…" when cut (at a code point boundary). */
static void text_fit(FILE *f, const char *s, double font_px, double max_px)
{
	if (text_px(s, font_px) <= max_px) {
		nb_xml_text(f, s);
		return;
	}
	size_t keep = (size_t)(max_px / (font_px * 0.62));
	char buf[256];
	size_t o = 0, chars = 0;
	keep = keep > 1 ? keep - 1 : 0;
	for (const char *p = s; *p && o + 4 < sizeof(buf); p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && chars++ == keep)
			break;
		buf[o++] = *p;
	}
	buf[o] = '\0';
	nb_xml_text(f, buf);
	fputs("\xe2\x80\xa6", f);
}

double nb_chart_text_px(const char *s, double font_px)
{
	return text_px(s, font_px);
}

void nb_chart_text_fit(FILE *f, const char *s, double font_px, double max_px)
{
	text_fit(f, s, font_px, max_px);
}

static const char *series_colour(const struct nb_chart *c, size_t i)
{
	int k = c->s[i].colour;
	return colour[(k > 0 ? (size_t)(k - 1) : i) % NCOLOUR];
}

static bool drawable(const struct nb_axis *ax, const struct nb_axis *ay, double x, double y)
{
	return isfinite(x) && isfinite(y) && !(ax->log && x <= 0) && !(ay->log && y <= 0);
}

struct box {
	double x0, x1;
};

/* The marks' labels in rows from the top of the plot: each in the first row where it clears
 * the labels already there, flipped left of its line at the right edge; a label that fits no
 * row keeps its line and gives its text as the line's tooltip. */
static void draw_marks(FILE *f, const struct nb_chart *c, const struct nb_axis *ax, double l,
		       double r, double t, double b)
{
	size_t rows = (size_t)((b - t - 8) / 12);
	struct box *used = calloc(c->nmarks * (rows ? rows : 1) + 1, sizeof(*used));
	size_t *nused = calloc(rows + 1, sizeof(*nused)),
	       *order = calloc(c->nmarks + 1, sizeof(*order));
	size_t no = 0;
	if (!used || !nused || !order)
		goto out;
	for (size_t i = 0; i < c->nmarks; i++) { /* by x, duplicates dropped */
		bool dup = false;
		for (size_t k = 0; k < i; k++)
			dup |= c->marks[k].x == c->marks[i].x &&
			       !strcmp(c->marks[k].text, c->marks[i].text);
		if (dup)
			continue;
		size_t k = no++;
		while (k > 0 && c->marks[order[k - 1]].x > c->marks[i].x) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	for (size_t q = 0; q < no; q++) {
		const struct nb_chart_mark *m = &c->marks[order[q]];
		double x = nb_axis_map(ax, m->x, l, r), w = text_px(m->text, 10);
		if (!isfinite(x) || x < l - 0.5 || x > r + 0.5)
			continue;
		bool left = x + 3 + w > r;
		struct box bx = {left ? x - 3 - w : x + 3, left ? x - 3 : x + 3 + w};
		size_t row = rows;
		for (size_t k = 0; k < rows && row == rows; k++) {
			bool clear = bx.x0 >= l;
			for (size_t u = 0; u < nused[k] && clear; u++)
				clear = bx.x1 + 4 <= used[k * c->nmarks + u].x0 ||
					bx.x0 >= used[k * c->nmarks + u].x1 + 4;
			if (clear)
				row = k;
		}
		fprintf(f,
			"<g class=\"mark\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#888\" stroke-dasharray=\"2 3\">",
			x, t, x, b);
		if (row == rows) {
			fputs("<title>", f);
			nb_xml_text(f, m->text);
			fputs("</title></line></g>\n", f);
			continue;
		}
		used[row * c->nmarks + nused[row]++] = bx;
		fprintf(f,
			"</line><text class=\"mark-label\" x=\"%.1f\" y=\"%.1f\" fill=\"#555\" "
			"font-size=\"10\"%s>",
			left ? bx.x1 : bx.x0, t + 12 + 12.0 * (double)row,
			left ? " text-anchor=\"end\"" : "");
		nb_xml_text(f, m->text);
		fputs("</text></g>\n", f);
	}
out:
	free(used);
	free(nused);
	free(order);
}

static void draw_series(FILE *f, const struct nb_chart *c, size_t i, const struct nb_axis *ax,
			const struct nb_axis *ay, double l, double r, double t, double b)
{
	const struct nb_chart_series *s = &c->s[i];
	const char *col = series_colour(c, i);
	size_t drawn = 0;
	fprintf(f, "<g class=\"series%s\" data-name=\"", s->dashed ? " model" : "");
	nb_xml_text(f, s->name);
	fputs("\">", f);
	for (size_t j = 0; j < s->n; j++)
		drawn += drawable(ax, ay, s->x[j], s->y[j]);
	if (drawn > 1) { /* a line only between two points or more */
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
			col, s->dashed ? " stroke-dasharray=\"6 4\"" : "");
		for (size_t j = 0; j < s->n; j++)
			if (drawable(ax, ay, s->x[j], s->y[j]))
				fprintf(f, "%.1f,%.1f ", nb_axis_map(ax, s->x[j], l, r),
					nb_axis_map(ay, s->y[j], b, t));
		fputs("\"/>", f);
	}
	fputs("\n", f);
	for (size_t j = 0; j < s->n; j++) {
		if (!drawable(ax, ay, s->x[j], s->y[j]))
			continue;
		double px = nb_axis_map(ax, s->x[j], l, r), py = nb_axis_map(ay, s->y[j], b, t);
		if (s->lo && s->hi && isfinite(s->lo[j]) && drawable(ax, ay, s->x[j], s->hi[j]) &&
		    s->lo[j] < s->hi[j]) {
			/* An interval reaching below the axis (below 0 for a quantity that cannot
			 * be negative, or on a log axis) is cut at the axis, without its cap. */
			bool cut = s->lo[j] < ay->lo;
			double y0 = nb_axis_map(ay, cut ? ay->lo : s->lo[j], b, t),
			       y1 = nb_axis_map(ay, s->hi[j], b, t);
			fprintf(f,
				"<path class=\"errbar\"%s stroke=\"%s\" stroke-width=\"1.5\" "
				"d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1f",
				cut ? " data-cut=\"below\"" : "", col, px, y0, y1, px - 4, y1,
				px + 4);
			if (!cut)
				fprintf(f, "M%.1f %.1fH%.1f", px - 4, y0, px + 4);
			fputs("\"/>\n", f);
		}
		if (s->dashed && drawn > 1)
			continue;
		if (s->flag && s->flag[j])
			fprintf(f,
				"<circle class=\"polluted\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
				"fill=\"#fff\" stroke=\"%s\" stroke-width=\"2\"/>\n",
				px, py, col);
		else
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\"/>\n", px,
				py, drawn == 1 ? "4.5" : "3", col);
	}
	fputs("</g>\n", f);
}

/* A linear axis of named values at 0, 1, ...: every name a tick while they fit, else every
 * k-th name. */
static void name_axis(struct nb_axis *a, const char *const *names, size_t n)
{
	size_t every = (n + NB_AXIS_MAX_TICKS - 1) / NB_AXIS_MAX_TICKS;
	a->log = a->bytes = false;
	a->lo = -0.5;
	a->hi = (double)n - 0.5;
	a->nticks = 0;
	for (size_t i = 0; i < n; i += every) {
		a->tick[a->nticks] = (double)i;
		snprintf(a->label[a->nticks], sizeof(a->label[0]), "%s", names[i]);
		a->nticks++;
	}
}

static void axis_error(char *err, size_t errlen, const char *which, double v)
{
	if (err && errlen)
		snprintf(err, errlen,
			 "the %s axis cannot take %g: an axis takes magnitudes from %g to %g",
			 which, v, 1 / NB_AXIS_MAX_ABS, NB_AXIS_MAX_ABS);
}

void nb_chart_svg_head(FILE *f, const char *cls, const char *data, size_t n, int w, int h,
		       const char *title)
{
	fprintf(f,
		"<svg class=\"%s\" data-%s=\"%zu\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n",
		cls, data, n, w, h, w, h);
	fputs("<title>", f);
	nb_xml_text(f, title);
	fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n", f);
	fprintf(f,
		"<text class=\"chart-title\" x=\"%d\" y=\"20\" text-anchor=\"middle\" "
		"font-size=\"14\" font-weight=\"bold\">",
		w / 2);
	text_fit(f, title, 14, w - 8);
	fputs("</text>\n", f);
}

void nb_chart_grid_y(FILE *f, const struct nb_axis *ay, double l, double r, double t, double b)
{
	for (size_t i = 0; i < ay->nticks; i++) {
		double y = nb_axis_map(ay, ay->tick[i], b, t);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", l, y, r, y);
	}
}

void nb_chart_axis_y(FILE *f, const struct nb_axis *ay, double l, double t, double b,
		     const char *label, bool log)
{
	fputs("<g class=\"axis y\" text-anchor=\"end\">\n", f);
	for (size_t i = 0; i < ay->nticks; i++)
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", l - 8,
			nb_axis_map(ay, ay->tick[i], b, t) + 4, ay->label[i]);
	fprintf(f,
		"<text class=\"axis-label y\" text-anchor=\"middle\" "
		"transform=\"translate(16 %.1f) rotate(-90)\">",
		(t + b) / 2);
	nb_xml_text(f, label);
	fprintf(f, "%s</text>\n</g>\n", log ? " (log)" : "");
}

void nb_chart_frame(FILE *f, double l, double r, double t, double b, bool empty)
{
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#444\"/>\n",
		l, t, r - l, b - t);
	if (empty)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#888\">no "
			"data</text>\n",
			(l + r) / 2, (t + b) / 2);
}

/* The x and y values an axis must hold: every point, the error bars' ends (those cut at the
 * axis aside) and the marks. Fits the axes, or returns -ERANGE with err naming the axis and the
 * value beyond what it takes; -ENOMEM. */
static int axes_fit(const struct nb_chart *c, size_t total, struct nb_axis *ax, struct nb_axis *ay,
		    char *err, size_t errlen)
{
	size_t k = 0, ky = 0;
	double *xs = malloc((total + c->nmarks + 1) * sizeof(*xs));
	double *ys = malloc((3 * total + 1) * sizeof(*ys));
	if (!xs || !ys) {
		free(xs);
		free(ys);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->ns; i++)
		for (size_t j = 0; j < c->s[i].n; j++, k++) {
			xs[k] = c->s[i].x[j];
			ys[ky++] = c->s[i].y[j];
			if (c->s[i].lo && c->s[i].hi) {
				ys[ky++] = c->s[i].hi[j];
				/* The lower ends below 0 of non-negative data do not stretch the
				 * axis below 0, nor on a log axis below a tenth of the point: their
				 * bars are cut at the axis. */
				double y = c->s[i].y[j], lo = c->s[i].lo[j];
				if (!(y >= 0 && lo < 0) && !(c->y_log && lo < y / 10))
					ys[ky++] = lo;
			}
		}
	for (size_t i = 0; i < c->nmarks; i++)
		xs[total + i] = c->marks[i].x;
	double bx = beyond(xs, total + c->nmarks, c->x_log), by = beyond(ys, ky, c->y_log);
	if (isfinite(bx))
		axis_error(err, errlen, "x", bx);
	else if (isfinite(by))
		axis_error(err, errlen, "y", by);
	else {
		nb_axis_fit(ax, xs, total + c->nmarks, c->x_log, c->x_bytes, false);
		nb_axis_fit(ay, ys, ky, c->y_log, false, true);
		if (c->nx_names)
			name_axis(ax, c->x_names, c->nx_names);
		for (size_t i = 0; c->y_plain && i < ay->nticks; i++) /* "20000 Mbit/s" */
			snprintf(ay->label[i], sizeof(ay->label[0]), "%.6g", ay->tick[i]);
	}
	free(xs);
	free(ys);
	return isfinite(bx) || isfinite(by) ? -ERANGE : 0;
}

/* The x axis: its tick labels, every one or every second... when they would touch, and its
 * label. */
static void axis_x(FILE *f, const struct nb_chart *c, const struct nb_axis *ax, double l, double r,
		   double b)
{
	double widest = 0;
	size_t every = 1;

	fputs("<g class=\"axis x\" text-anchor=\"middle\">\n", f);
	for (size_t i = 0; i < ax->nticks; i++)
		widest = fmax(widest, text_px(ax->label[i], 12));
	while (ax->nticks > 1 && every < ax->nticks &&
	       (widest + 6) * (double)((ax->nticks + every - 1) / every) > r - l + widest)
		every++;
	for (size_t i = 0; i < ax->nticks; i += every)
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			nb_axis_map(ax, ax->tick[i], l, r), b + 18, ax->label[i]);
	fprintf(f, "<text class=\"axis-label x\" x=\"%.1f\" y=\"%.1f\">", (l + r) / 2, b + 36);
	nb_xml_text(f, c->x_label);
	fprintf(f, "%s</text>\n</g>\n", c->x_log ? " (log)" : "");
}

/* The legend below the plot, in cols columns, of the series that have a line in it. */
static void legend(FILE *f, const struct nb_chart *c, int w, size_t cols, double b)
{
	fputs("<g class=\"legend\">\n", f);
	for (size_t i = 0, row = 0; i < c->ns; i++) {
		if (c->s[i].no_legend)
			continue;
		double x = 20 + (double)(row % cols) * (w / (double)cols),
		       y = b + 50 + 16.0 * (double)(row / cols);
		row++;
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"2\"%s/><text class=\"legend-item\" x=\"%.1f\" y=\"%.1f\">",
			x, y - 4, x + 24, y - 4, series_colour(c, i),
			c->s[i].dashed ? " stroke-dasharray=\"6 4\"" : "", x + 30, y);
		text_fit(f, c->s[i].name, 12, w / (double)cols - 30 - 12);
		fputs("<title>", f);
		nb_xml_text(f, c->s[i].name);
		fputs("</title></text>\n", f);
	}
	fputs("</g>\n", f);
}

int nb_chart_svg_err(FILE *f, const struct nb_chart *c, char *err, size_t errlen)
{
	size_t listed = 0;
	for (size_t i = 0; i < c->ns; i++)
		listed += !c->s[i].no_legend;
	int w = c->width_px ? c->width_px : 640;
	size_t cols = w >= 560 ? 2 : 1; /* a narrow chart lists its legend in one column */
	size_t legend_rows = (listed + cols - 1) / cols;
	int h = c->height_px ? c->height_px : 336 + 16 * (int)legend_rows;
	double l = 72, r = w - 16, t = 34, b = h - 52 - 16.0 * (double)legend_rows;
	struct nb_axis ax, ay;
	size_t total = 0;
	int ret;

	for (size_t i = 0; i < c->ns; i++)
		total += c->s[i].n;
	ret = axes_fit(c, total, &ax, &ay, err, errlen);
	if (ret)
		return ret;
	/* Room on the left for the widest y tick label and, beside it, the rotated axis label. */
	for (size_t i = 0; i < ay.nticks; i++)
		l = fmax(l, text_px(ay.label[i], 12) + 8 + 28);

	nb_chart_svg_head(f, "chart", "series", c->ns, w, h, c->title);
	fputs("<g class=\"grid\" stroke=\"#ddd\">\n", f);
	for (size_t i = 0; i < ax.nticks; i++) {
		double x = nb_axis_map(&ax, ax.tick[i], l, r);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, t, x, b);
	}
	nb_chart_grid_y(f, &ay, l, r, t, b);
	fputs("</g>\n", f);
	axis_x(f, c, &ax, l, r, b);
	nb_chart_axis_y(f, &ay, l, t, b, c->y_label, c->y_log);
	nb_chart_frame(f, l, r, t, b, !total);
	draw_marks(f, c, &ax, l, r, t, b);
	for (size_t i = 0; i < c->ns; i++)
		draw_series(f, c, i, &ax, &ay, l, r, t, b);
	legend(f, c, w, cols, b);
	fputs("</svg>\n", f);
	return 0;
}
