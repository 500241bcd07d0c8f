/* SPDX-License-Identifier: BSD-2-Clause */
/* The report's HTML. Each view's chart is drawn from compare's table of that view, so repeated
 * runs with one label become one line at their mean, as compare prints them. */
#include "core/store/report.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/chart.h"
#include "core/store/compare.h"

static const char *const order[] = {"rate.fps",	  "rate.rules",	  "tput.kbyte", "tput.cpu",
				    "stream.cpu", "crypto.mbyte", "mem.latency"};

static const char css[] =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}"
    "section.view{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}"
    "section.view figure{margin:0;flex:0 0 640px}section.view aside{flex:1 1 300px;min-width:300px}"
    "table.facts{border-collapse:collapse;font-size:12px}"
    "table.facts td,table.facts th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
    "ul.notes{font-size:13px}.meta{color:#666;font-size:12px}";

static void esc(FILE *f, const char *s)
{
	nb_xml_text(f, s && *s ? s : "-");
}

static void facts(FILE *f, const struct nb_report_item *it, size_t n, const char *view_id)
{
	fputs("<table class=\"facts\"><tr><th>result</th><th>runs</th><th>host</th><th>CPU</th>"
	      "<th>MHz</th><th>arch</th><th>kernel</th><th>driver</th></tr>\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		bool has = false, first = true;
		size_t runs = 0;
		for (size_t v = 0; v < it[i].nviews; v++)
			has |= !strcmp(it[i].views[v].id, view_id);
		if (!has)
			continue;
		for (size_t k = 0; k < n; k++) {
			bool kh = false;
			for (size_t v = 0; v < it[k].nviews; v++)
				kh |= !strcmp(it[k].views[v].id, view_id);
			if (kh && !strcmp(it[k].group, it[i].group)) {
				runs++;
				if (k < i)
					first = false;
			}
		}
		if (!first)
			continue;
		fputs("<tr><td>", f);
		esc(f, it[i].group);
		fprintf(f, "</td><td>%zu</td><td>", runs);
		esc(f, it[i].host);
		fputs("</td><td>", f);
		esc(f, it[i].cpu_model);
		fputs("</td><td>", f);
		if (isfinite(it[i].cpu_mhz))
			fprintf(f, "%.0f", it[i].cpu_mhz);
		else
			fputs("-", f);
		fputs("</td><td>", f);
		esc(f, it[i].arch);
		fputs("</td><td>", f);
		esc(f, it[i].kernel);
		fputs("</td><td>", f);
		esc(f, it[i].driver);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* One chart: a line per table column (or row, by result), plus each group's model curves. */
static int section(FILE *f, const struct nb_report_item *it, size_t n, const char *view_id)
{
	struct nb_cmp_entry *e = calloc(n, sizeof(*e));
	struct nb_cmp_table *t = NULL;
	struct nb_chart_series *s = NULL;
	struct nb_chart_mark *m = NULL;
	double *ys = NULL;
	size_t ne = 0, ns = 0, nm = 0, maxs, maxm = 0;
	char(*names)[160] = NULL;
	int ret = -ENOMEM;

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t v = 0; v < it[i].nviews; v++)
			if (!strcmp(it[i].views[v].id, view_id)) {
				e[ne].group = it[i].group;
				e[ne++].view = &it[i].views[v];
				maxm += it[i].views[v].nmarks;
			}
	if (!ne) {
		free(e);
		return 0;
	}
	if ((ret = nb_cmp_build(e, ne, NULL, &t)))
		goto out;
	ret = -ENOMEM;
	maxs = (t->by_result ? t->nrows : t->ncols) + ne * NB_VIEW_MAX_SERIES;
	s = calloc(maxs, sizeof(*s));
	names = calloc(maxs, sizeof(*names));
	m = calloc(maxm + 1, sizeof(*m));
	ys = calloc((t->nrows + 1) * (t->ncols + 1) * 2, sizeof(*ys));
	if (!s || !names || !m || !ys)
		goto out;
	/* Data lines from the table: x and y interleaved per line in ys. */
	size_t lines = t->by_result ? t->nrows : t->ncols, pts = t->by_result ? t->ncols : t->nrows;
	double *xb = ys, *yb = ys + (t->nrows + 1) * (t->ncols + 1);
	for (size_t l = 0; l < lines; l++) {
		double *x = xb + l * (pts + 1), *y = yb + l * (pts + 1);
		size_t k = 0;
		for (size_t p = 0; p < pts; p++) {
			const struct nb_cmp_cell *c =
			    t->by_result ? nb_cmp_at(t, l, p) : nb_cmp_at(t, p, l);
			if (!c->has)
				continue;
			x[k] = t->xval[p];
			y[k++] = c->mean;
		}
		snprintf(names[ns], sizeof(names[0]), "%s", t->by_result ? t->row[l] : t->col[l]);
		s[ns] = (struct nb_chart_series){.name = names[ns], .x = x, .y = y, .n = k};
		ns++;
	}
	/* Model curves and marks: once per group. */
	bool many = false;
	for (size_t i = 1; i < ne; i++)
		many |= strcmp(e[i].group, e[0].group) != 0;
	for (size_t i = 0; i < ne; i++) {
		bool seen = false;
		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(e[k].group, e[i].group);
		if (seen)
			continue;
		for (size_t q = 0; q < e[i].view->nseries && ns < maxs; q++) {
			const struct nb_series *se = &e[i].view->s[q];
			if (!se->model)
				continue;
			if (many)
				snprintf(names[ns], sizeof(names[0]), "%s: %s", e[i].group,
					 se->name);
			else
				snprintf(names[ns], sizeof(names[0]), "%s", se->name);
			s[ns] = (struct nb_chart_series){
			    .name = names[ns], .x = se->x, .y = se->y, .n = se->n, .dashed = true};
			ns++;
		}
		for (size_t q = 0; q < e[i].view->nmarks; q++)
			m[nm++] = (struct nb_chart_mark){.x = e[i].view->marks[q].x,
							 .text = e[i].view->marks[q].text};
	}
	const struct nb_view *v0 = e[0].view;
	char xl[64], yl[80];
	snprintf(xl, sizeof(xl), "%s%s%s%s", v0->x_name, *v0->x_unit ? " (" : "", v0->x_unit,
		 *v0->x_unit ? ")" : "");
	snprintf(yl, sizeof(yl), "%s (%s)", v0->y_name, v0->y_unit);
	struct nb_chart ch = {.title = v0->title,
			      .x_label = xl,
			      .y_label = yl,
			      .x_log = v0->x_log,
			      .y_log = v0->y_log,
			      .x_bytes = v0->x_fmt == NB_XFMT_BYTES,
			      .s = s,
			      .ns = ns,
			      .marks = m,
			      .nmarks = nm};
	fprintf(f, "<section class=\"view\" id=\"%s\" data-view=\"%s\">\n<figure>\n", view_id,
		view_id);
	if ((ret = nb_chart_svg(f, &ch)))
		goto out;
	fputs("</figure>\n<aside>\n", f);
	facts(f, it, n, view_id);
	if (t->nnotes) {
		fputs("<ul class=\"notes\">\n", f);
		for (size_t i = 0; i < t->nnotes; i++) {
			fputs("<li>", f);
			nb_xml_text(f, t->notes[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("</aside>\n</section>\n", f);
	ret = 0;
out:
	nb_cmp_table_free(t);
	free(e);
	free(s);
	free(names);
	free(m);
	free(ys);
	return ret;
}

int nb_report_html(FILE *f, const struct nb_report_item *it, size_t n, const char *title,
		   const char *generated, const char *extra_html)
{
	const char *last_test = "";
	int ret;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	nb_xml_text(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
	nb_xml_text(f, title);
	fprintf(f, "</h1>\n<p class=\"meta\">%zu result%s. ", n, n == 1 ? "" : "s");
	nb_xml_text(f, generated);
	fputs(" Lines join the mean of the runs sharing a label; dashed lines are computed "
	      "curves (line rate, fitted rule cost); dotted verticals mark cache steps and crypto "
	      "crossovers.</p>\n",
	      f);
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		bool any = false;
		for (size_t i = 0; i < n && !any; i++)
			for (size_t v = 0; v < it[i].nviews; v++)
				any |= !strcmp(it[i].views[v].id, order[o]);
		if (!any)
			continue;
		size_t tl = strcspn(order[o], ".");
		if (strncmp(last_test, order[o], tl) || last_test[tl] != '.') {
			fprintf(f, "<h2 id=\"test-%.*s\">%.*s</h2>\n", (int)tl, order[o], (int)tl,
				order[o]);
			last_test = order[o];
		}
		if ((ret = section(f, it, n, order[o])))
			return ret;
	}
	if (!n)
		fputs("<p>No results matched.</p>\n", f);
	if (extra_html)
		fputs(extra_html, f);
	fputs("</body>\n</html>\n", f);
	return 0;
}
