/* SPDX-License-Identifier: BSD-2-Clause */
/* compare's three outputs: an aligned text table one can paste into a mail (fixed-point
 * numbers, ASCII marks explained under the table), CSV with one line per cell, and JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/cpu.h"
#include "core/store/compare.h"

void nb_cmp_fmt_num(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	double a = fabs(v);
	int dec = a == 0 ? 0 : 3 - (int)floor(log10(a));
	if (dec < 0)
		dec = 0;
	if (dec > 6)
		dec = 6;
	snprintf(buf, len, "%.*f", dec, v);
}

/* The interval's half-width with two significant digits. */
static void fmt_pm(double v, char *buf, size_t len)
{
	int dec = v > 0 ? 1 - (int)floor(log10(v)) : 0;
	if (dec < 0)
		dec = 0;
	if (dec > 6)
		dec = 6;
	snprintf(buf, len, "%.*f", dec, v);
}

static void cell_text(const struct nb_cmp_table *t, size_t r, size_t c, char *buf, size_t len)
{
	const struct nb_cmp_cell *x = nb_cmp_at(t, r, c);
	const struct nb_cmp_line *l = nb_cmp_line_of(t, r, c);
	char m[32], pm[32] = "", n[16] = "", ratio[32] = "";
	if (!x->has) {
		snprintf(buf, len, "-");
		return;
	}
	nb_cmp_fmt_num(x->mean, m, sizeof(m));
	if (x->runs > 1) {
		char h[24];
		fmt_pm(x->spread, h, sizeof(h));
		snprintf(pm, sizeof(pm), " ±%s", h);
	}
	if (x->runs != t->group_runs[l->group])
		snprintf(n, sizeof(n), " n=%u", x->runs);
	if (t->has_baseline && isfinite(x->ratio) && !x->is_base)
		snprintf(ratio, sizeof(ratio), " %.2fx%s", x->ratio, x->differs ? "*" : "");
	snprintf(buf, len, "%s%s%s%s%s", m, pm, n, x->polluted ? "!" : "", ratio);
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

static bool line_virt(const struct nb_cmp_line *l)
{
	return nb_facts_virt(&l->env) == NB_VIRT_YES;
}

/* A row or column name with its marks: "~" emulated or virtual. */
static void line_name(const char *name, const struct nb_cmp_line *l, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", name, line_virt(l) ? "~" : "");
}

/* What the table's cells hold that the lines below it must explain. */
struct cell_marks {
	bool spread, polluted, unjudged, nval;
};

/* The table itself: its columns as wide as their widest cell. False when out of memory. */
static bool table_write(FILE *f, const struct nb_cmp_table *t, struct cell_marks *m)
{
	char buf[96], name[200];
	size_t w0 = width(t->corner);

	for (size_t r = 0; r < t->nrows; r++) {
		line_name(t->row[r], &t->line[t->by_result ? r : 0], name, sizeof(name));
		if (width(t->by_result ? name : t->row[r]) > w0)
			w0 = width(t->by_result ? name : t->row[r]);
	}
	pad(f, t->corner, w0, false);
	size_t *cw = calloc(t->ncols + 1, sizeof(*cw));
	if (!cw)
		return false;
	for (size_t c = 0; c < t->ncols; c++) {
		if (t->by_result)
			snprintf(name, sizeof(name), "%s", t->col[c]);
		else
			line_name(t->col[c], &t->line[c], name, sizeof(name));
		cw[c] = width(name);
		for (size_t r = 0; r < t->nrows; r++) {
			const struct nb_cmp_cell *x = nb_cmp_at(t, r, c);
			cell_text(t, r, c, buf, sizeof(buf));
			if (width(buf) > cw[c])
				cw[c] = width(buf);
			m->spread |= x->runs > 1;
			m->polluted |= x->polluted > 0;
			m->unjudged |=
			    t->has_baseline && isfinite(x->ratio) && !x->is_base && !x->judged;
			m->nval |=
			    x->has && x->runs != t->group_runs[nb_cmp_line_of(t, r, c)->group];
		}
		fputs("  ", f);
		pad(f, name, cw[c], true);
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++) {
		if (t->by_result)
			line_name(t->row[r], &t->line[r], name, sizeof(name));
		else
			snprintf(name, sizeof(name), "%s", t->row[r]);
		pad(f, name, w0, false);
		for (size_t c = 0; c < t->ncols; c++) {
			cell_text(t, r, c, buf, sizeof(buf));
			fputs("  ", f);
			pad(f, buf, cw[c], true);
		}
		fputc('\n', f);
	}
	free(cw);
	return true;
}

/* The groups: their runs and, by x, the platform each was measured on. On chosen axes a row
 * is a group: one line says what a cell holds. */
static void groups_write(FILE *f, const struct nb_cmp_table *t)
{
	if (t->pivot && t->ngroups)
		fprintf(f,
			"a cell (%s): the mean of the runs with that row and column; %u run%s at "
			"most\n",
			t->corner, t->group_runs[0], t->group_runs[0] == 1 ? "" : "s");
	for (size_t g = 0; g < t->ngroups && !t->pivot; g++) {
		const struct nb_cmp_line *l = NULL;
		size_t nl = t->by_result ? t->nrows : t->ncols;
		for (size_t k = 0; k < nl && !l; k++)
			if (t->line[k].group == g)
				l = &t->line[k];
		if (!l)
			continue;
		char facts[200] = "";
		if (!t->by_result)
			nb_facts_text(&l->env, facts, sizeof(facts));
		fprintf(f, "%s%s%s: %u run%s%s%s\n", *t->gkey[g] ? t->gkey[g] : "",
			*t->gkey[g] ? " = " : "", t->group[g], t->group_runs[g],
			t->group_runs[g] == 1 ? "" : "s", *facts ? "; " : "", facts);
	}
}

/* What the marks in the cells mean, for those that appear. */
static void marks_write(FILE *f, const struct nb_cmp_table *t, const struct cell_marks *m)
{
	if (m->spread)
		fprintf(f, "± half-width of the 95 %% interval of the mean over repeated runs "
			   "(Student's t)\n");
	if (m->nval)
		fprintf(f, "%s\n",
			t->pivot ? "n=K: this cell holds K runs, fewer than the fullest"
				 : "n=K: only K of the group's runs have this point");
	if (t->has_baseline)
		fprintf(
		    f,
		    "ratio: the value over the baseline's (%s); * its 95 %% interval excludes 1 "
		    "(repeated runs on both sides)\n",
		    t->baseline);
	if (m->unjudged)
		fprintf(f, "a ratio without * and with one run on a side: significance not judged "
			   "(repeat the runs to learn the noise)\n");
	if (m->polluted)
		fprintf(f,
			"! in at least one run other processes used more than %.0f %% of a CPU in "
			"this window (for a figure through an emulated board: on the host that "
			"runs its qemu): the figure is polluted\n",
			NB_CPU_POLLUTED_PCT);
}

/* Each group (or receiver) measured in a VM or under an emulator, once. */
static void virt_write(FILE *f, const struct nb_cmp_table *t)
{
	size_t nl = t->by_result ? t->nrows : t->ncols;
	for (size_t k = 0; k < nl; k++) {
		const struct nb_cmp_line *l = &t->line[k];
		bool dup = false;
		for (size_t q = 0; q < k; q++)
			dup |= t->line[q].group == l->group &&
			       !strcmp(t->line[q].env.virt, l->env.virt);
		bool named = l->own_env && strcmp(l->series, NB_VIEW_ONE_RECEIVER);
		if (line_virt(l) && !dup) {
			bool vm = !strncmp(l->env.virt, "vm", 2);
			fprintf(f, "~ %s%s%s ran %s%s: %s\n", t->group[l->group],
				named ? " / " : "", named ? l->series : "", vm ? "in a " : "under ",
				l->env.virt,
				vm ? "its CPUs are virtual, its figures not a board's silicon"
				   : "its instructions were translated and its CPU figures are the "
				     "host kernel's, not a board's");
		}
	}
}

void nb_cmp_write_text(FILE *f, const struct nb_cmp_table *t)
{
	struct cell_marks m = {0};

	fprintf(f, "%s (%s)", t->title, t->unit);
	if (t->has_baseline)
		fprintf(f, ", with the ratio to %s", t->baseline);
	fputc('\n', f);
	if (!table_write(f, t, &m))
		return;
	groups_write(f, t);
	marks_write(f, t, &m);
	virt_write(f, t);
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
		fputs("view,row,column,unit,mean,ci95,runs,ratio,ratio_lo,ratio_hi,differs,"
		      "polluted,virtualization\n",
		      f);
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
			fputc(',', f);
			csv_num(f, x->ratio_lo);
			fputc(',', f);
			csv_num(f, x->ratio_hi);
			fprintf(f, ",%s,%u,",
				t->has_baseline && !x->is_base && isfinite(x->ratio)
				    ? (x->judged ? (x->differs ? "yes" : "no") : "not judged")
				    : "",
				x->polluted);
			nb_csv_field(f, nb_cmp_line_of(t, r, c)->env.virt);
			fputc('\n', f);
		}
}

void nb_cmp_write_json(struct nb_json *j, const struct nb_cmp_table *t)
{
	nb_json_obj_begin(j, NULL);
	nb_json_str(j, "view", t->id);
	nb_json_str(j, "title", t->title);
	nb_json_str(j, "unit", t->unit);
	nb_json_str(j, "layout",
		    t->pivot	   ? "rows_by_columns"
		    : t->by_result ? "results_by_x"
				   : "x_by_results");
	if (t->pivot)
		nb_json_str(j, "axes", t->corner);
	nb_json_bool(j, "lower_is_better", t->lower_is_better);
	nb_json_str(j, "baseline", t->has_baseline ? t->baseline : NULL);
	nb_json_arr_begin(j, "rows");
	for (size_t r = 0; r < t->nrows; r++)
		nb_json_str(j, NULL, t->row[r]);
	nb_json_arr_end(j);
	nb_json_arr_begin(j, "columns");
	for (size_t c = 0; c < t->ncols; c++)
		nb_json_str(j, NULL, t->col[c]);
	nb_json_arr_end(j);
	/* The lines (columns x by results, rows results by x): group, series and platform. */
	nb_json_arr_begin(j, "lines");
	for (size_t k = 0; k < (t->by_result ? t->nrows : t->ncols); k++) {
		const struct nb_cmp_line *l = &t->line[k];
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "group", t->group[l->group]);
		nb_json_u64(j, "runs", t->group_runs[l->group]);
		nb_json_str(j, "series", l->series);
		nb_json_str(j, "host", *l->env.host ? l->env.host : NULL);
		nb_json_str(j, "kernel", *l->env.kernel ? l->env.kernel : NULL);
		nb_json_str(j, "iface", *l->env.iface ? l->env.iface : NULL);
		nb_json_str(j, "driver", *l->env.driver ? l->env.driver : NULL);
		nb_json_str(j, "virtualization", *l->env.virt ? l->env.virt : NULL);
		nb_json_obj_end(j);
	}
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
			nb_json_double(j, "ci95", x->spread, 6);
			nb_json_u64(j, "runs", x->runs);
			nb_json_u64(j, "polluted_runs", x->polluted);
			nb_json_double(j, "ratio", x->ratio, 4);
			if (t->has_baseline) {
				nb_json_double(j, "ratio_lo", x->ratio_lo, 4);
				nb_json_double(j, "ratio_hi", x->ratio_hi, 4);
				nb_json_bool(j, "judged", x->judged);
				nb_json_bool(j, "differs", x->differs);
			}
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
