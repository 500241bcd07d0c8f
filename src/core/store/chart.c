/* SPDX-License-Identifier: BSD-2-Clause */
/* SVG line charts for the report. Ticks: linear axes step by 1, 2 or 5 times a power of ten;
 * log axes by decades (with 2 and 5 inside a range of one decade), or by powers of two for
 * byte sizes, thinned so that at most about ten labels show. */
#include "core/store/chart.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void nb_xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
}

void nb_axis_label(double v, bool bytes, char *buf, size_t len)
{
	double a = fabs(v);
	if (bytes && a >= 1024) {
		if (a >= 1073741824.0)
			snprintf(buf, len, "%gG", v / 1073741824.0);
		else if (a >= 1048576)
			snprintf(buf, len, "%gM", v / 1048576);
		else
			snprintf(buf, len, "%gk", v / 1024);
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

void nb_axis_fit(struct nb_axis *a, const double *v, size_t n, bool is_log, bool bytes,
		 bool from_zero)
{
	double lo = INFINITY, hi = -INFINITY;
	memset(a, 0, sizeof(*a));
	a->log = is_log;
	a->bytes = bytes;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]) || (is_log && v[i] <= 0))
			continue;
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	if (is_log) {
		double base = bytes ? 2 : 10;
		if (!(lo <= hi)) {
			lo = 1;
			hi = 10;
		}
		double e0 = floor(log(lo) / log(base) + 1e-9),
		       e1 = ceil(log(hi) / log(base) - 1e-9);
		if (e1 <= e0)
			e1 = e0 + 1;
		a->lo = pow(base, e0);
		a->hi = pow(base, e1);
		double stride = ceil((e1 - e0) / 10);
		if (stride < 1)
			stride = 1;
		if (bytes && stride > 1 && fmod(stride, 2) != 0)
			stride += 1; /* 1k, 4k, 16k rather than 1k, 8k, 64k */
		for (double e = e0; e <= e1 + 1e-9; e += stride)
			add_tick(a, pow(base, e));
		if (!bytes && e1 - e0 == 1) {
			/* One decade: 1, 2, 5, 10 times the decade's start. */
			a->nticks = 0;
			add_tick(a, a->lo);
			add_tick(a, 2 * a->lo);
			add_tick(a, 5 * a->lo);
			add_tick(a, a->hi);
		}
		return;
	}
	if (!(lo <= hi)) {
		lo = 0;
		hi = 1;
	}
	if (from_zero && lo > 0)
		lo = 0;
	if (hi == lo) {
		double d = lo ? fabs(lo) / 10 : 1;
		lo -= d;
		hi += d;
	}
	double step = nice_step(hi - lo, 5);
	a->lo = floor(lo / step + 1e-9) * step;
	a->hi = ceil(hi / step - 1e-9) * step;
	for (double t = a->lo; t <= a->hi + step / 2; t += step)
		add_tick(a, fabs(t) < step / 1e6 ? 0 : t);
}

double nb_axis_map(const struct nb_axis *a, double v, double px0, double px1)
{
	double f;
	if (a->log)
		f = (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
	else
		f = (v - a->lo) / (a->hi - a->lo);
	return px0 + f * (px1 - px0);
}

static const char *const colour[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
				     "#9467bd", "#8c564b", "#e377c2", "#17becf"};

int nb_chart_svg(FILE *f, const struct nb_chart *c)
{
	int w = c->width_px ? c->width_px : 640, h = c->height_px ? c->height_px : 360;
	double l = 72, r = w - 16, t = 34, b = h - 52 - 16.0 * (double)((c->ns + 1) / 2);
	struct nb_axis ax, ay;
	size_t total = 0, k = 0;

	for (size_t i = 0; i < c->ns; i++)
		total += c->s[i].n;
	double *xs = malloc((total + c->nmarks + 1) * sizeof(*xs));
	double *ys = malloc((total + 1) * sizeof(*ys));
	if (!xs || !ys) {
		free(xs);
		free(ys);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->ns; i++)
		for (size_t j = 0; j < c->s[i].n; j++, k++) {
			xs[k] = c->s[i].x[j];
			ys[k] = c->s[i].y[j];
		}
	for (size_t i = 0; i < c->nmarks; i++)
		xs[total + i] = c->marks[i].x;
	nb_axis_fit(&ax, xs, total + c->nmarks, c->x_log, c->x_bytes, false);
	nb_axis_fit(&ay, ys, total, c->y_log, false, true);
	free(xs);
	free(ys);

	fprintf(f,
		"<svg class=\"chart\" data-series=\"%zu\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n",
		c->ns, w, h, w, h);
	fputs("<title>", f);
	nb_xml_text(f, c->title);
	fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n", f);
	fprintf(f,
		"<text class=\"chart-title\" x=\"%d\" y=\"20\" text-anchor=\"middle\" "
		"font-size=\"14\" font-weight=\"bold\">",
		w / 2);
	nb_xml_text(f, c->title);
	fputs("</text>\n<g class=\"grid\" stroke=\"#ddd\">\n", f);
	for (size_t i = 0; i < ax.nticks; i++) {
		double x = nb_axis_map(&ax, ax.tick[i], l, r);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, t, x, b);
	}
	for (size_t i = 0; i < ay.nticks; i++) {
		double y = nb_axis_map(&ay, ay.tick[i], b, t);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", l, y, r, y);
	}
	fputs("</g>\n<g class=\"axis x\" text-anchor=\"middle\">\n", f);
	for (size_t i = 0; i < ax.nticks; i++)
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			nb_axis_map(&ax, ax.tick[i], l, r), b + 16, ax.label[i]);
	fprintf(f, "<text class=\"axis-label x\" x=\"%.1f\" y=\"%.1f\">", (l + r) / 2, b + 34);
	nb_xml_text(f, c->x_label);
	fprintf(f, "%s</text>\n</g>\n<g class=\"axis y\" text-anchor=\"end\">\n",
		c->x_log ? " (log)" : "");
	for (size_t i = 0; i < ay.nticks; i++)
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", l - 6,
			nb_axis_map(&ay, ay.tick[i], b, t) + 4, ay.label[i]);
	fprintf(f,
		"<text class=\"axis-label y\" text-anchor=\"middle\" "
		"transform=\"translate(16 %.1f) rotate(-90)\">",
		(t + b) / 2);
	nb_xml_text(f, c->y_label);
	fprintf(f, "%s</text>\n</g>\n", c->y_log ? " (log)" : "");
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#444\"/>\n",
		l, t, r - l, b - t);
	if (!total)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#888\">no "
			"data</text>\n",
			(l + r) / 2, (t + b) / 2);
	for (size_t i = 0; i < c->nmarks; i++) {
		double x = nb_axis_map(&ax, c->marks[i].x, l, r);
		if (!isfinite(x) || x < l - 0.5 || x > r + 0.5)
			continue;
		fprintf(f,
			"<g class=\"mark\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#888\" stroke-dasharray=\"2 3\"/><text x=\"%.1f\" y=\"%.1f\" "
			"fill=\"#555\" font-size=\"10\">",
			x, t, x, b, x + 3, t + 12 + 12.0 * (double)(i % 3));
		nb_xml_text(f, c->marks[i].text);
		fputs("</text></g>\n", f);
	}
	for (size_t i = 0; i < c->ns; i++) {
		const struct nb_chart_series *s = &c->s[i];
		const char *col = colour[i % (sizeof(colour) / sizeof(colour[0]))];
		fprintf(f, "<g class=\"series%s\" data-name=\"", s->dashed ? " model" : "");
		nb_xml_text(f, s->name);
		fprintf(f,
			"\"><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
			col, s->dashed ? " stroke-dasharray=\"6 4\"" : "");
		for (size_t j = 0; j < s->n; j++) {
			if (!isfinite(s->x[j]) || !isfinite(s->y[j]) || (ax.log && s->x[j] <= 0) ||
			    (ay.log && s->y[j] <= 0))
				continue;
			fprintf(f, "%.1f,%.1f ", nb_axis_map(&ax, s->x[j], l, r),
				nb_axis_map(&ay, s->y[j], b, t));
		}
		fputs("\"/>\n", f);
		for (size_t j = 0; j < s->n && !s->dashed; j++) {
			if (!isfinite(s->x[j]) || !isfinite(s->y[j]) || (ax.log && s->x[j] <= 0) ||
			    (ay.log && s->y[j] <= 0))
				continue;
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				nb_axis_map(&ax, s->x[j], l, r), nb_axis_map(&ay, s->y[j], b, t),
				col);
		}
		fputs("</g>\n", f);
	}
	fputs("<g class=\"legend\">\n", f);
	for (size_t i = 0; i < c->ns; i++) {
		double x = 20 + (double)(i % 2) * (w / 2.0), y = b + 50 + 16.0 * (double)(i / 2);
		const char *col = colour[i % (sizeof(colour) / sizeof(colour[0]))];
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"2\"%s/><text class=\"legend-item\" x=\"%.1f\" y=\"%.1f\">",
			x, y - 4, x + 24, y - 4, col,
			c->s[i].dashed ? " stroke-dasharray=\"6 4\"" : "", x + 30, y);
		nb_xml_text(f, c->s[i].name);
		fputs("</text>\n", f);
	}
	fputs("</g>\n</svg>\n", f);
	return 0;
}
