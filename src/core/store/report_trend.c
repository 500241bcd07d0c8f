/* SPDX-License-Identifier: BSD-2-Clause */
/* The report's trend: one metric across a tag's values (report --trend), from compare's tables
 * on chosen axes. Per table a section: charts with the column values in order on the x axis
 * and one line per row (a board), at most NB_TREND_LINES lines a chart so that colours stay
 * apart, each point the mean of its runs with the 95 % interval; then the table as text. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/chart.h"
#include "core/store/report.h"

#define NB_TREND_LINES 8

static int trend_chart(FILE *f, const struct nb_cmp_table *t, size_t r0, size_t r1, char *err,
		       size_t errlen)
{
	size_t nr = r1 - r0, nc = t->ncols;
	struct nb_chart_series *s = calloc(nr + 1, sizeof(*s));
	double *buf = calloc(4 * nr * nc + 1, sizeof(*buf));
	const char **names = calloc(nc + 1, sizeof(*names));
	char title[400], xl[96], yl[64];
	int ret = -ENOMEM;
	if (!s || !buf || !names)
		goto out;
	for (size_t c = 0; c < nc; c++)
		names[c] = t->col[c];
	for (size_t r = 0; r < nr; r++) {
		double *x = buf + 4 * r * nc, *y = x + nc, *lo = y + nc, *hi = lo + nc;
		size_t k = 0;
		for (size_t c = 0; c < nc; c++) {
			const struct nb_cmp_cell *cell = nb_cmp_at(t, r0 + r, c);
			if (!cell->has)
				continue;
			x[k] = (double)c;
			y[k] = cell->mean;
			lo[k] = isfinite(cell->spread) ? cell->mean - cell->spread : NAN;
			hi[k] = isfinite(cell->spread) ? cell->mean + cell->spread : NAN;
			k++;
		}
		s[r] = (struct nb_chart_series){
		    .name = t->row[r0 + r], .x = x, .y = y, .n = k, .lo = lo, .hi = hi};
	}
	if (r0 || r1 < t->nrows)
		snprintf(title, sizeof(title), "%s, rows %zu-%zu of %zu", t->title, r0 + 1, r1,
			 t->nrows);
	else
		snprintf(title, sizeof(title), "%s", t->title);
	/* The corner is "rows \ columns": the x axis is the columns' name. */
	const char *bs = strstr(t->corner, " \\ ");
	snprintf(xl, sizeof(xl), "%s", bs ? bs + 3 : t->corner);
	snprintf(yl, sizeof(yl), "%s", t->unit);
	struct nb_chart ch = {.title = title,
			      .x_label = xl,
			      .y_label = yl,
			      .s = s,
			      .ns = nr,
			      .x_names = names,
			      .nx_names = nc};
	fputs("<figure>", f);
	ret = nb_chart_svg_err(f, &ch, err, errlen);
	fputs("</figure>\n", f);
out:
	free(s);
	free(buf);
	free(names);
	return ret;
}

int nb_report_trend_html(FILE *f, struct nb_cmp_table *const *t, size_t nt, char *err,
			 size_t errlen)
{
	for (size_t k = 0; k < nt; k++) {
		int ret;
		fprintf(f, "<section class=\"trend\" id=\"trend-%zu\">\n<h3>", k + 1);
		nb_xml_text(f, t[k]->title);
		fputs("</h3>\n<div class=\"facets\">\n", f);
		for (size_t r0 = 0; r0 < t[k]->nrows; r0 += NB_TREND_LINES) {
			size_t r1 =
			    r0 + NB_TREND_LINES < t[k]->nrows ? r0 + NB_TREND_LINES : t[k]->nrows;
			if ((ret = trend_chart(f, t[k], r0, r1, err, errlen)))
				return ret;
		}
		fputs("</div>\n<pre class=\"trend\">", f);
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);
		if (!m)
			return -ENOMEM;
		nb_cmp_write_text(m, t[k]);
		fclose(m);
		nb_xml_text(f, text);
		free(text);
		fputs("</pre>\n</section>\n", f);
	}
	return 0;
}
