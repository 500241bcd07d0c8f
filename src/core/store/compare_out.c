/* SPDX-License-Identifier: BSD-2-Clause */
/* compare's three outputs: an aligned text table, CSV with one line per cell, and JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/compare.h"

static void cell_text(const struct nb_cmp_table *t, const struct nb_cmp_cell *c, char *buf,
		      size_t len)
{
	if (!c->has) {
		snprintf(buf, len, "-");
	} else if (t->has_baseline && isfinite(c->ratio) && !c->is_base) {
		snprintf(buf, len, "%.2fx%s", c->ratio, c->differs ? "*" : " ");
	} else if (c->runs > 1) {
		snprintf(buf, len, "%.4g ±%.2g", c->mean, c->spread);
	} else {
		snprintf(buf, len, "%.4g", c->mean);
	}
}

/* Display width of a UTF-8 string (each code point one column). */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *f, const char *s, size_t w, bool right)
{
	size_t n = width(s);
	if (right)
		for (; n < w; n++)
			fputc(' ', f);
	fputs(s, f);
	if (!right)
		for (; n < w; n++)
			fputc(' ', f);
}

void nb_cmp_write_text(FILE *f, const struct nb_cmp_table *t)
{
	char buf[64];
	size_t w0 = width(t->corner);
	bool spread = false;

	fprintf(f, "%s (%s)", t->title, t->unit);
	if (t->has_baseline)
		fprintf(f, ", as ratios to %s", t->baseline);
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++)
		if (width(t->row[r]) > w0)
			w0 = width(t->row[r]);
	pad(f, t->corner, w0, false);
	size_t *cw = calloc(t->ncols + 1, sizeof(*cw));
	if (!cw)
		return;
	for (size_t c = 0; c < t->ncols; c++) {
		cw[c] = width(t->col[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			cell_text(t, nb_cmp_at(t, r, c), buf, sizeof(buf));
			if (width(buf) > cw[c])
				cw[c] = width(buf);
			spread |= nb_cmp_at(t, r, c)->runs > 1;
		}
		fputs("  ", f);
		pad(f, t->col[c], cw[c], true);
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++) {
		pad(f, t->row[r], w0, false);
		for (size_t c = 0; c < t->ncols; c++) {
			cell_text(t, nb_cmp_at(t, r, c), buf, sizeof(buf));
			fputs("  ", f);
			pad(f, buf, cw[c], true);
		}
		fputc('\n', f);
	}
	free(cw);
	if (t->has_baseline)
		fprintf(f,
			"* differs from %s by more than both results' spread over repeated runs "
			"(one run has no spread: any difference counts)\n",
			t->baseline);
	else if (spread)
		fprintf(f, "± half the range over repeated runs with the same label\n");
	for (size_t i = 0; i < t->nnotes; i++)
		fprintf(f, "  %s\n", t->notes[i]);
}

void nb_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
}

void nb_cmp_write_csv(FILE *f, const struct nb_cmp_table *t, bool header)
{
	if (header)
		fputs("view,row,column,unit,mean,spread,runs,ratio,differs\n", f);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			const struct nb_cmp_cell *x = nb_cmp_at(t, r, c);
			if (!x->has)
				continue;
			nb_csv_field(f, t->id);
			fputc(',', f);
			nb_csv_field(f, t->row[r]);
			fputc(',', f);
			nb_csv_field(f, t->col[c]);
			fputc(',', f);
			nb_csv_field(f, t->unit);
			fputc(',', f);
			csv_num(f, x->mean);
			fputc(',', f);
			csv_num(f, x->spread);
			fprintf(f, ",%u,", x->runs);
			csv_num(f, x->ratio);
			fprintf(f, ",%s\n", t->has_baseline ? (x->differs ? "yes" : "no") : "");
		}
}

void nb_cmp_write_json(struct nb_json *j, const struct nb_cmp_table *t)
{
	nb_json_obj_begin(j, NULL);
	nb_json_str(j, "view", t->id);
	nb_json_str(j, "title", t->title);
	nb_json_str(j, "unit", t->unit);
	nb_json_str(j, "layout", t->by_result ? "results_by_x" : "x_by_results");
	nb_json_str(j, "baseline", t->has_baseline ? t->baseline : NULL);
	nb_json_arr_begin(j, "rows");
	for (size_t r = 0; r < t->nrows; r++)
		nb_json_str(j, NULL, t->row[r]);
	nb_json_arr_end(j);
	nb_json_arr_begin(j, "columns");
	for (size_t c = 0; c < t->ncols; c++)
		nb_json_str(j, NULL, t->col[c]);
	nb_json_arr_end(j);
	nb_json_arr_begin(j, "cells");
	for (size_t r = 0; r < t->nrows; r++) {
		nb_json_arr_begin(j, NULL);
		for (size_t c = 0; c < t->ncols; c++) {
			const struct nb_cmp_cell *x = nb_cmp_at(t, r, c);
			if (!x->has) {
				nb_json_null(j, NULL);
				continue;
			}
			nb_json_obj_begin(j, NULL);
			nb_json_double(j, "mean", x->mean, 6);
			nb_json_double(j, "spread", x->spread, 6);
			nb_json_u64(j, "runs", x->runs);
			nb_json_double(j, "ratio", x->ratio, 4);
			if (t->has_baseline)
				nb_json_bool(j, "differs", x->differs);
			nb_json_obj_end(j);
		}
		nb_json_arr_end(j);
	}
	nb_json_arr_end(j);
	nb_json_arr_begin(j, "notes");
	for (size_t i = 0; i < t->nnotes; i++)
		nb_json_str(j, NULL, t->notes[i]);
	nb_json_arr_end(j);
	nb_json_obj_end(j);
}
