/* SPDX-License-Identifier: BSD-2-Clause */
/* One view's section of the report: a chart per facet (a rule sweep: one per frame size) with
 * its caption written from what is drawn, or for a view of the parts of one whole (a kernel
 * profile's categories) a chart of stacked bars per result, the platform facts of every result
 * in it, and the notes (verdicts, crossovers, fits). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/chart.h"
#include "core/store/chart_bars.h"
#include "core/store/compare.h"
#include "core/store/report_sect.h"
#include "core/store/runs.h"

static void esc(FILE *f, const char *s)
{
	nb_xml_text(f, s && *s ? s : "-");
}

static void facts(FILE *f, const struct nb_report_item *it, size_t n, const char *view_id)
{
	fputs("<table class=\"facts\"><tr><th>result</th><th>runs</th><th>host</th><th>CPU</th>"
	      "<th>MHz</th><th>arch</th><th>kernel</th><th>driver</th><th>runs on</th></tr>\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		bool first;
		if (!nb_report_has_view(&it[i], view_id))
			continue;
		size_t runs = nb_report_group_runs(it, n, i, view_id, &first);
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
		if (nb_report_not_a_board(it[i].virt)) {
			fputs("</td><td class=\"emulated\">not a board: ", f);
			nb_xml_text(f, it[i].virt);
		} else {
			fprintf(f, "</td><td>%s",
				it[i].virt && !strcmp(it[i].virt, "none") ? "a board (none)"
									  : "unknown");
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* What the chart holds, in words: its labels and their runs, what the bars are, the marks. */
static void figcaption(FILE *f, const struct section *s, const struct line *l, size_t nl,
		       const struct nb_chart_mark *m, size_t nm, const struct nb_view *v0,
		       double facet, bool faceted)
{
	size_t flagged = 0, models = 0;
	bool bars = false;
	fputs("<figcaption>", f);
	if (faceted)
		fprintf(f, "%g-byte frames. ", facet);
	for (size_t i = 0; i < nl; i++) {
		bool first = true;
		flagged += l[i].flagged;
		models += l[i].model;
		bars |= l[i].maxruns > 1;
		for (size_t k = 0; k < i; k++)
			first &= strcmp(l[k].group, l[i].group) != 0;
		if (!first || l[i].model)
			continue;
		size_t runs = 0;
		for (size_t k = 0; k < s->n; k++)
			if (!strcmp(s->it[k].group, l[i].group) &&
			    nb_report_has_view(&s->it[k], v0->id))
				runs++;
		nb_xml_text(f, l[i].group);
		fprintf(f, ": %zu run%s. ", runs, runs == 1 ? "" : "s");
	}
	if (bars)
		fputs("Points are means; bars are 95 % intervals (Student's t) where a label has "
		      "repeated runs; a point without a bar is one run. ",
		      f);
	else
		fputs("Each point is one run (no interval: repeat runs to get one). ", f);
	if (models) {
		fputs("Dashed: computed (", f);
		size_t k = 0;
		for (size_t i = 0; i < nl; i++)
			if (l[i].model && !l[i].no_legend) {
				fputs(k++ ? "; " : "", f);
				nb_xml_text(f, l[i].name);
			}
		fputs("). ", f);
	}
	size_t marks = 0;
	for (size_t i = 0; i < nm; i++) {
		bool dup = false;
		for (size_t q = 0; q < i; q++)
			dup |= !strcmp(m[q].text, m[i].text);
		if (dup)
			continue;
		fputs(marks++ ? "; " : "Dotted verticals, from the runs' own results: ", f);
		nb_xml_text(f, m[i].text);
	}
	fputs(marks ? ". " : "", f);
	if (flagged)
		fprintf(f,
			"Hollow points (%zu): CPU windows polluted by other processes; their CPU "
			"figures are not the test's alone. ",
			flagged);
	if (s->scale != 1)
		fprintf(f, "Throughput in %s (stored as KByte/s, 1 KByte = 1024 bytes). ",
			s->y_unit);
	fputs("</figcaption>\n", f);
}

static void section_ids(const struct section *s, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < s->ne && o + 24 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%lld", i ? ", " : "",
				      (long long)s->it[s->e[i].item].id);
}

/* The chart's series, one per line, and its marks, every view's. */
static void series_fill(const struct section *s, const struct line *l, size_t nl,
			struct nb_chart_series *cs, struct nb_chart_mark *m, size_t *nm)
{
	for (size_t i = 0; i < nl; i++)
		cs[i] = (struct nb_chart_series){.name = l[i].name,
						 .x = l[i].x,
						 .y = l[i].y,
						 .n = l[i].np,
						 .dashed = l[i].model,
						 .lo = l[i].model ? NULL : l[i].lo,
						 .hi = l[i].model ? NULL : l[i].hi,
						 .flag = l[i].model ? NULL : l[i].flag,
						 .colour = l[i].colour,
						 .no_legend = l[i].no_legend};
	for (size_t i = 0; i < s->ne; i++)
		for (size_t q = 0; q < s->e[i].view->nmarks; q++)
			m[(*nm)++] = (struct nb_chart_mark){.x = s->e[i].view->marks[q].x,
							    .text = s->e[i].view->marks[q].text};
}

static int chart(FILE *f, struct section *s, bool faceted, double facet, char *err, size_t errlen)
{
	const struct nb_view *v0 = s->e[0].view;
	struct line *l = NULL;
	size_t nl = 0;
	int ret = nb_report_build_lines(s, faceted, facet, &l, &nl);
	if (ret)
		return ret;
	struct nb_chart_series *cs = calloc(nl + 1, sizeof(*cs));
	struct nb_chart_mark *m = NULL;
	size_t nm = 0, maxm = 0;
	for (size_t i = 0; i < s->ne; i++)
		maxm += s->e[i].view->nmarks;
	m = calloc(maxm + 1, sizeof(*m));
	if (!cs || !m) {
		ret = -ENOMEM;
		goto out;
	}
	series_fill(s, l, nl, cs, m, &nm);
	char xl[64], yl[80], title[128];
	snprintf(xl, sizeof(xl), "%s%s%s%s", v0->x_name, *v0->x_unit ? " (" : "", v0->x_unit,
		 *v0->x_unit ? ")" : "");
	snprintf(yl, sizeof(yl), "%s (%s)", v0->y_name, s->y_unit);
	if (faceted)
		snprintf(title, sizeof(title), "%g-byte frames: frames/s by rule count", facet);
	else
		snprintf(title, sizeof(title), "%s", v0->title);
	struct nb_chart ch = {.title = title,
			      .x_label = xl,
			      .y_label = yl,
			      .x_log = v0->x_log,
			      .y_log = v0->y_log,
			      .x_bytes = v0->x_fmt == NB_XFMT_BYTES,
			      .y_plain = s->y_unit[0] && strchr("kKMG", s->y_unit[0]),
			      .s = cs,
			      .ns = nl,
			      .marks = m,
			      .nmarks = nm,
			      .width_px = s->nfacets > 1 ? 370 : 0};
	char why[200];
	size_t listed = 0;
	for (size_t i = 0; i < nl; i++)
		listed += !l[i].no_legend && !l[i].model;
	if (listed > NB_REPORT_LINES_READABLE)
		fprintf(f,
			"<p class=\"crowded\">%zu lines in one chart are more than a reader tells "
			"apart: choose fewer results (--where KEY=VALUE, e.g. --where kernel=6.1) "
			"or draw one metric across a tag's values (--trend KEY, e.g. --trend "
			"kernel).</p>\n",
			listed);
	if (faceted)
		fprintf(f, "<figure class=\"facet\" data-facet=\"%g\">\n", facet);
	else
		fputs("<figure>\n", f);
	ret = nb_chart_svg_err(f, &ch, why, sizeof(why));
	if (ret == -ERANGE) {
		char ids[160];
		section_ids(s, ids, sizeof(ids));
		snprintf(err, errlen, "view %s (result%s %s): %s", v0->id, s->ne == 1 ? "" : "s",
			 ids, why);
	}
	if (ret)
		goto out;
	figcaption(f, s, l, nl, m, nm, v0, facet, faceted);
	fputs("</figure>\n", f);
out:
	free(cs);
	free(m);
	nb_report_lines_free(l, nl);
	return ret;
}

#define BARS_PARTS  64
#define BARS_CHARTS 12 /* charts of bars in one section: more are not read */

/* A series name's receiver ("agent: cat": "agent"; "" when it names none) and its part. */
static const char *split_part(const char *name, char *prefix, size_t len)
{
	const char *c = strstr(name, ": ");
	size_t n = c ? (size_t)(c - name) : 0;
	snprintf(prefix, len, "%.*s", (int)n, name);
	return c ? c + 2 : name;
}

static int part_index(const char **parts, size_t *np, const char *name)
{
	for (size_t i = 0; i < *np; i++)
		if (!strcmp(parts[i], name))
			return (int)i;
	if (*np >= BARS_PARTS)
		return -1;
	parts[*np] = name;
	return (int)(*np)++;
}

/* One result's (and receiver's) bars: its steps in order, each stacked with its parts, on a y
 * axis reaching at least *top; f NULL: only *top raised to its tallest bar. */
static int bars_one(FILE *f, const struct section *s, size_t e, const char *prefix,
		    const char **parts, size_t np, const int *colour, double *top)
{
	const struct nb_view *v = s->e[e].view;
	const struct nb_report_item *it = &s->it[s->e[e].item];
	double x[NB_BARS_MAX];
	size_t nx = 0;
	char pre[NB_SERIES_NAME_MAX], title[200], xl[64];
	int ret;
	for (size_t q = 0; q < v->nseries; q++) {
		split_part(v->s[q].name, pre, sizeof(pre));
		if (strcmp(pre, prefix) || v->s[q].model)
			continue;
		for (size_t j = 0; j < v->s[q].n; j++) {
			bool have = false;
			for (size_t k = 0; k < nx && !have; k++)
				have = x[k] == v->s[q].x[j];
			if (!have && nx < NB_BARS_MAX && isfinite(v->s[q].x[j]))
				x[nx++] = v->s[q].x[j];
		}
	}
	qsort(x, nx, sizeof(*x), nb_report_cmp_double);
	double *val = calloc(nx * np + 1, sizeof(*val));
	if (!val)
		return -ENOMEM;
	for (size_t q = 0; q < v->nseries; q++) {
		const char *name = split_part(v->s[q].name, pre, sizeof(pre));
		if (strcmp(pre, prefix) || v->s[q].model)
			continue;
		size_t p = 0;
		while (p < np && strcmp(parts[p], name))
			p++;
		for (size_t j = 0; j < v->s[q].n && p < np; j++)
			for (size_t k = 0; k < nx; k++)
				if (x[k] == v->s[q].x[j])
					val[k * np + p] = v->s[q].y[j];
	}
	for (size_t k = 0; k < nx; k++) {
		double sum = 0;
		for (size_t p = 0; p < np; p++)
			sum +=
			    isfinite(val[k * np + p]) && val[k * np + p] > 0 ? val[k * np + p] : 0;
		*top = fmax(*top, sum);
	}
	if (!f) {
		free(val);
		return 0;
	}
	snprintf(title, sizeof(title), "%s%s%s (result %lld)", it->group, *prefix ? ", " : "",
		 prefix, (long long)it->id);
	snprintf(xl, sizeof(xl), "%s%s%s%s", v->x_name, *v->x_unit ? " (" : "", v->x_unit,
		 *v->x_unit ? ")" : "");
	struct nb_bars b = {.title = title,
			    .x_label = xl,
			    .y_label = v->y_unit,
			    .x_bytes = v->x_fmt == NB_XFMT_BYTES,
			    .nbars = nx,
			    .x = x,
			    .nparts = np,
			    .part = parts,
			    .colour = colour,
			    .v = val,
			    .y_top = *top};
	fputs("<figure class=\"bars\" data-result=\"", f);
	fprintf(f, "%lld\">\n", (long long)it->id);
	ret = nb_bars_svg(f, &b);
	if (!ret) {
		fputs("<figcaption>", f);
		nb_xml_text(f, it->group);
		fprintf(f,
			": a bar per %s, stacked with the kernel profile's categories whose share "
			"is established, each in %s (the categories not established are left "
			"out: the bar is at most the busy CPU time per unit); every chart here on "
			"one scale.</figcaption>\n",
			v->x_name, v->y_unit);
	}
	fputs("</figure>\n", f);
	free(val);
	return ret;
}

static void draw_bars_head(FILE *f, const struct section *s)
{
	fputs("<p class=\"meta bars-title\"><b>", f);
	nb_xml_text(f, s->e[0].view->title);
	fputs("</b></p>\n<div class=\"facets\" data-bar-charts=\"1\">\n", f);
}

/* A view whose series are the parts of one whole (a profile's categories): a chart of stacked
 * bars per result and receiver, the same part in the same colour and one y scale in every
 * chart. */
static int bars(FILE *f, const struct section *s, char *err, size_t errlen)
{
	const char *parts[BARS_PARTS];
	int colour[BARS_PARTS];
	size_t np = 0, charts = 0, left = 0;
	char pre[NB_SERIES_NAME_MAX];
	double top = 0;
	int ret = 0;
	for (size_t e = 0; e < s->ne; e++)
		for (size_t q = 0; q < s->e[e].view->nseries; q++)
			part_index(parts, &np,
				   split_part(s->e[e].view->s[q].name, pre, sizeof(pre)));
	for (size_t p = 0; p < np; p++)
		colour[p] = (int)p;
	/* One scale for every chart of the section: bars side by side compare by height. */
	for (int pass = 0; pass < 2 && !ret; pass++) {
		charts = left = 0;
		if (pass)
			draw_bars_head(f, s);
		for (size_t e = 0; e < s->ne && !ret; e++) {
			const struct nb_view *v = s->e[e].view;
			for (size_t q = 0; q < v->nseries && !ret; q++) {
				char first[NB_SERIES_NAME_MAX];
				bool seen = false;
				split_part(v->s[q].name, first, sizeof(first));
				for (size_t k = 0; k < q && !seen; k++) {
					split_part(v->s[k].name, pre, sizeof(pre));
					seen = !strcmp(pre, first);
				}
				if (seen)
					continue;
				if (charts >= BARS_CHARTS) {
					left++;
					continue;
				}
				charts++;
				ret =
				    bars_one(pass ? f : NULL, s, e, first, parts, np, colour, &top);
			}
		}
	}
	if (!ret)
		fputs("</div>\n", f);
	if (left)
		fprintf(f,
			"<p class=\"crowded\">%zu more results are not drawn as bars: choose fewer "
			"(--where KEY=VALUE, --test).</p>\n",
			left);
	if (ret == -ERANGE)
		snprintf(err, errlen, "view %s: a bar's total no axis takes", s->e[0].view->id);
	return ret;
}

static void notes(FILE *f, const struct section *s)
{
	bool open = false;
	const char **gn = calloc(s->ne + 1, sizeof(*gn));
	/* A group whose runs disagree says so first (compare says the same). */
	for (size_t i = 0; i < s->ne && gn; i++) {
		const char *group = s->it[s->e[i].item].group;
		bool first = true;
		size_t k = 0;
		char what[400];
		for (size_t q = 0; q < i && first; q++)
			first = strcmp(s->it[s->e[q].item].group, group) != 0;
		for (size_t q = 0; q < s->ne && first; q++)
			if (!strcmp(s->it[s->e[q].item].group, group))
				gn[k++] = s->e[q].view->note;
		if (!first || nb_cmp_disagreement(gn, k, what, sizeof(what)) < 2)
			continue;
		if (!open)
			fputs("<ul class=\"notes\">\n", f);
		open = true;
		fputs("<li class=\"disagree\">", f);
		nb_xml_text(f, group);
		fputs(": ", f);
		nb_xml_text(f, what);
		fputs("</li>\n", f);
	}
	free(gn);
	for (size_t i = 0; i < s->ne; i++) {
		const struct nb_report_item *it = &s->it[s->e[i].item];
		const char *note = s->e[i].view->note;
		bool dup = false;
		for (size_t k = 0; k < i && !dup; k++)
			dup = !strcmp(s->it[s->e[k].item].group, it->group) &&
			      !strcmp(s->e[k].view->note, note);
		if (!*note || dup)
			continue;
		if (!open)
			fputs("<ul class=\"notes\">\n", f);
		open = true;
		fputs("<li>", f);
		nb_xml_text(f, it->group);
		fputs(": ", f);
		nb_xml_text(f, note);
		fputs("</li>\n", f);
	}
	for (size_t i = 0; i < s->ne; i++) {
		const struct nb_report_item *it = &s->it[s->e[i].item];
		bool first = true;
		for (size_t k = 0; k < i; k++)
			first &= strcmp(s->it[s->e[k].item].group, it->group) != 0;
		if (!first || !nb_report_not_a_board(it->virt))
			continue;
		if (!open)
			fputs("<ul class=\"notes\">\n", f);
		open = true;
		fputs("<li class=\"emulated\">", f);
		nb_xml_text(f, it->group);
		fputs(" ran under ", f);
		nb_xml_text(f, it->virt);
		fputs(": not a board. Its CPU figures are those of the host that runs it (an "
		      "emulator's "
		      "translation cost, a shared host kernel), not the board's.</li>\n",
		      f);
	}
	if (open)
		fputs("</ul>\n", f);
}

int nb_report_section(FILE *f, const struct nb_report_item *it, size_t n, const char *view_id,
		      char *err, size_t errlen)
{
	struct section *s = calloc(1, sizeof(*s));
	double *facets = NULL;
	size_t nf = 0;
	int ret = -ENOMEM;

	if (!s || !(s->e = calloc(n + 1, sizeof(*s->e))))
		goto out;
	s->it = it;
	s->n = n;
	for (size_t i = 0; i < n; i++)
		for (size_t v = 0; v < it[i].nviews; v++)
			if (!strcmp(it[i].views[v].id, view_id))
				s->e[s->ne++] = (struct entry){i, &it[i].views[v]};
	if (!s->ne) {
		ret = 0;
		goto out;
	}
	const struct nb_view *v0 = s->e[0].view;
	s->scale = 1;
	s->y_unit = v0->y_unit;
	if (!strcmp(v0->y_unit, "KByte/s")) { /* bits per second is what links are sold in */
		s->scale = 1024.0 * 8 / 1e6;
		s->y_unit = "Mbit/s";
	}
	facets = calloc(s->ne * NB_VIEW_MAX_SERIES + 1, sizeof(*facets));
	if (!facets)
		goto out;
	for (size_t i = 0; i < s->ne; i++)
		for (size_t q = 0; q < s->e[i].view->nseries; q++) {
			double fv = s->e[i].view->s[q].facet;
			bool have = false;
			for (size_t k = 0; k < nf && !have; k++)
				have = facets[k] == fv;
			if (fv != 0 && !have)
				facets[nf++] = fv;
		}
	qsort(facets, nf, sizeof(*facets), nb_report_cmp_double);
	s->nfacets = nf;
	fprintf(f, "<section class=\"view\" id=\"%s\" data-view=\"%s\">\n", view_id, view_id);
	if (nf) {
		fprintf(f, "<div class=\"facets%s\" data-facets=\"%zu\">\n", nf == 1 ? " one" : "",
			nf);
		for (size_t k = 0; k < nf; k++)
			if ((ret = chart(f, s, true, facets[k], err, errlen)))
				goto out;
		fputs("</div>\n", f);
	} else if (v0->stacked) {
		if ((ret = bars(f, s, err, errlen)))
			goto out;
	} else if ((ret = chart(f, s, false, 0, err, errlen))) {
		goto out;
	}
	fputs("<aside>\n", f);
	facts(f, it, n, view_id);
	notes(f, s);
	fputs("</aside>\n</section>\n", f);
	ret = 0;
out:
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "out of memory");
	free(facets);
	if (s)
		free(s->e);
	free(s);
	return ret;
}
