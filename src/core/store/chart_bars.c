/* SPDX-License-Identifier: BSD-2-Clause */
/* The stacked bar chart (chart_bars.h): the y axis fitted from zero to the tallest bar, each
 * bar's parts stacked bottom up in the parts' order, a tooltip per part with its value, the
 * legend on the right naming each part drawn with its colour. */
#include "core/store/chart_bars.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/store/chart.h"

/* Sixteen colours told apart (as many as a profile has categories). */
static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22", "#aec7e8", "#ff9896", "#98df8a", "#ffbb78", "#c5b0d5", "#c49c94"};
#define NPAL (sizeof(palette) / sizeof(palette[0]))

/* A bar's step: a frame size as measured ("1518", not the byte axis' "1.48k"); a power of two
 * of 1k or more as the byte axis says it ("32k"). */
static void bar_label(const struct nb_bars *b, double x, char *buf, size_t len)
{
	double e = x >= 1024 ? log2(x) : 0.5;
	if (b->x_bytes && x >= 0 && x < 1e5 && x == floor(x) && e != floor(e))
		snprintf(buf, len, "%.0f", x);
	else
		nb_axis_label(x, b->x_bytes, buf, len);
}

static double part(const struct nb_bars *b, size_t bar, size_t p)
{
	double v = b->v[bar * b->nparts + p];
	return isfinite(v) && v > 0 ? v : 0;
}

/* Each bar's parts stacked bottom up, with a tooltip each. */
static void bars_draw(FILE *f, const struct nb_bars *b, const double *tot, const struct nb_axis *ay,
		      double l, double slot, double bw, double t, double bot)
{
	for (size_t i = 0; i < b->nbars; i++) {
		double x = l + slot * ((double)i + 0.5) - bw / 2, base = 0;
		char lab[24];
		bar_label(b, b->x[i], lab, sizeof(lab));
		fprintf(f, "<g class=\"bar\" data-bar=\"%zu\" data-x=\"%g\" data-total=\"%g\">\n",
			i, b->x[i], tot[i]);
		for (size_t p = 0; p < b->nparts; p++) {
			double v = part(b, i, p);
			if (v <= 0)
				continue;
			double y0 = nb_axis_map(ay, base, bot, t),
			       y1 = nb_axis_map(ay, base + v, bot, t);
			base += v;
			fputs("<rect class=\"seg\" data-part=\"", f);
			nb_xml_text(f, b->part[p]);
			fprintf(f,
				"\" data-value=\"%g\" data-bar=\"%zu\" x=\"%.1f\" y=\"%.2f\" "
				"width=\"%.1f\" height=\"%.2f\" fill=\"%s\"><title>",
				v, i, x, y1, bw, y0 - y1,
				palette[(size_t)(b->colour ? b->colour[p] : (int)p) % NPAL]);
			nb_xml_text(f, lab);
			fputs(": ", f);
			nb_xml_text(f, b->part[p]);
			fprintf(f, " %.4g</title></rect>\n", v);
		}
		fputs("</g>\n", f);
	}
}

/* Listed top down in the order stacked bottom up, so the legend reads as the bars do. */
static void legend(FILE *f, const struct nb_bars *b, const bool *shown, double r, double legend_w,
		   double t)
{
	fputs("<g class=\"legend\">\n", f);
	double ly = t + 12;
	for (size_t k = b->nparts; k-- > 0;) {
		if (!shown[k])
			continue;
		fprintf(f,
			"<rect class=\"swatch\" x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" "
			"fill=\"%s\"/><text class=\"legend-item\" data-part=\"",
			r + 12, ly - 10,
			palette[(size_t)(b->colour ? b->colour[k] : (int)k) % NPAL]);
		nb_xml_text(f, b->part[k]);
		fprintf(f, "\" x=\"%.1f\" y=\"%.1f\">", r + 30, ly);
		nb_chart_text_fit(f, b->part[k], 12, legend_w - 18);
		fputs("</text>\n", f);
		ly += 16;
	}
	fputs("</g>\n", f);
}

/* Each bar's total (tot), the tallest (returned), and the parts shown (shown, *nshown) with
 * the legend's widest name (*legend_w). */
static double totals(const struct nb_bars *b, double *tot, bool *shown, size_t *nshown,
		     double *legend_w)
{
	double top = 0;

	for (size_t i = 0; i < b->nbars; i++) {
		tot[i] = 0;
		for (size_t p = 0; p < b->nparts; p++) {
			double v = part(b, i, p);
			tot[i] += v;
			if (v > 0 && !shown[p]) {
				shown[p] = true;
				(*nshown)++;
				*legend_w = fmax(*legend_w, nb_chart_text_px(b->part[p], 12));
			}
		}
		top = fmax(top, tot[i]);
	}
	return top;
}

int nb_bars_svg(FILE *f, const struct nb_bars *b)
{
	double tot[NB_BARS_MAX], top, legend_w = 0;
	bool shown[64] = {false};
	size_t nshown = 0;
	struct nb_axis ay;
	if (b->nbars > NB_BARS_MAX || b->nparts > 64)
		return -EINVAL;
	top = totals(b, tot, shown, &nshown, &legend_w);
	if (!(top < 1e300))
		return -ERANGE;
	if (isfinite(b->y_top) && b->y_top < 1e300)
		top = fmax(top, b->y_top);
	double zero_top[2] = {0, top > 0 ? top : 1};
	nb_axis_fit(&ay, zero_top, 2, false, false, true);
	legend_w = fmin(legend_w, 140) + 30;
	double slot = 56;
	int w = b->width_px
		    ? b->width_px
		    : (int)fmin(640, fmax(360, 80 + slot * (double)b->nbars + legend_w + 16));
	int h = (int)fmax(300, 90 + 16.0 * (double)nshown);
	double l = 72, t = 34, bot = h - 52.0;
	for (size_t i = 0; i < ay.nticks; i++)
		l = fmax(l, nb_chart_text_px(ay.label[i], 12) + 8 + 28);
	double r = w - legend_w - 16;
	slot = b->nbars ? (r - l) / (double)b->nbars : r - l;
	double bw = fmin(40, slot * 0.7);

	nb_chart_svg_head(f, "chart bars", "bars", b->nbars, w, h, b->title);
	fputs("<g class=\"grid\" stroke=\"#ddd\">\n", f);
	nb_chart_grid_y(f, &ay, l, r, t, bot);
	fputs("</g>\n", f);
	nb_chart_axis_y(f, &ay, l, t, bot, b->y_label, false);
	fputs("<g class=\"axis x\" text-anchor=\"middle\">\n", f);
	for (size_t i = 0; i < b->nbars; i++) {
		char lab[24];
		bar_label(b, b->x[i], lab, sizeof(lab));
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">",
			l + slot * ((double)i + 0.5), bot + 18);
		nb_chart_text_fit(f, lab, 12, slot - 4);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text class=\"axis-label x\" x=\"%.1f\" y=\"%.1f\">", (l + r) / 2, bot + 36);
	nb_xml_text(f, b->x_label);
	fputs("</text>\n</g>\n", f);
	nb_chart_frame(f, l, r, t, bot, !nshown);
	bars_draw(f, b, tot, &ay, l, slot, bw, t, bot);
	legend(f, b, shown, r, legend_w, t);
	fputs("</svg>\n", f);
	return 0;
}
