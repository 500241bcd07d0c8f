/* SPDX-License-Identifier: BSD-2-Clause */
/* Table building for compare: collects the distinct rows and columns of a view across results,
 * aggregates repeated runs, and sets ratios against the baseline group. */
#include "core/store/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void nb_cmp_table_free(struct nb_cmp_table *t)
{
	if (!t)
		return;
	free(t->row);
	free(t->col);
	free(t->xval);
	free(t->cell);
	free(t);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Index of name in list (n entries of width w), adding it when absent. */
static size_t intern(char *list, size_t w, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(list + i * w, name))
			return i;
	snprintf(list + *n * w, w, "%s", name);
	return (*n)++;
}

static size_t find_x(const double *xs, size_t n, double x)
{
	for (size_t i = 0; i < n; i++)
		if (xs[i] == x)
			return i;
	return n;
}

struct acc {
	double sum, min, max;
	unsigned n;
};

static void acc_add(struct acc *a, double v)
{
	if (!a->n || v < a->min)
		a->min = v;
	if (!a->n || v > a->max)
		a->max = v;
	a->sum += v;
	a->n++;
}

int nb_cmp_build(const struct nb_cmp_entry *e, size_t n, const char *baseline,
		 struct nb_cmp_table **out)
{
	struct nb_cmp_table *t = calloc(1, sizeof(*t));
	size_t maxx = 0, nx = 0, ngroups = 0, maxcols = 0;
	double *xs = NULL;
	char(*groups)[128] = NULL;
	char(*series)[48] = NULL; /* per column: the series name (generic layout) */
	size_t *colgroup = NULL;
	struct acc *acc = NULL;
	int ret = -ENOMEM;

	*out = NULL;
	if (!t || !n)
		goto fail;
	const struct nb_view *v0 = e[0].view;
	snprintf(t->id, sizeof(t->id), "%s", v0->id);
	snprintf(t->title, sizeof(t->title), "%s", v0->title);
	snprintf(t->unit, sizeof(t->unit), "%s", v0->y_unit);
	t->by_result = v0->by_result;
	t->lower_is_better = v0->lower_is_better;
	for (size_t i = 0; i < n; i++)
		for (size_t s = 0; s < e[i].view->nseries; s++)
			maxx += e[i].view->s[s].n;
	xs = calloc(maxx + 1, sizeof(*xs));
	groups = calloc(n, sizeof(*groups));
	maxcols = n * NB_VIEW_MAX_SERIES;
	series = calloc(maxcols, sizeof(*series));
	colgroup = calloc(maxcols, sizeof(*colgroup));
	if (!xs || !groups || !series || !colgroup)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		intern(groups[0], sizeof(groups[0]), &ngroups, e[i].group);
		for (size_t s = 0; s < e[i].view->nseries; s++) {
			const struct nb_series *se = &e[i].view->s[s];
			if (se->model)
				continue;
			for (size_t k = 0; k < se->n; k++)
				if (find_x(xs, nx, se->x[k]) == nx)
					xs[nx++] = se->x[k];
		}
	}
	qsort(xs, nx, sizeof(*xs), cmp_double);
	t->xval = calloc(nx + 1, sizeof(*t->xval));
	if (!t->xval)
		goto fail;
	memcpy(t->xval, xs, nx * sizeof(*xs));

	/* Columns: generic = (group, series) in order of appearance; by result = x values. */
	if (t->by_result) {
		t->nrows = ngroups;
		t->ncols = nx;
	} else {
		char(*names)[96] = calloc(maxcols, sizeof(*names));
		size_t nc = 0;
		if (!names)
			goto fail;
		for (size_t i = 0; i < n; i++)
			for (size_t s = 0; s < e[i].view->nseries; s++) {
				const struct nb_series *se = &e[i].view->s[s];
				char name[96];
				if (se->model)
					continue;
				snprintf(name, sizeof(name), "%s: %s", e[i].group, se->name);
				size_t before = nc,
				       c = intern(names[0], sizeof(names[0]), &nc, name);
				if (c == before) {
					snprintf(series[c], sizeof(series[0]), "%s", se->name);
					colgroup[c] = intern(groups[0], sizeof(groups[0]), &ngroups,
							     e[i].group);
				}
			}
		t->nrows = nx;
		t->ncols = nc;
		t->col = calloc(nc ? nc : 1, sizeof(*t->col));
		if (!t->col) {
			free(names);
			goto fail;
		}
		memcpy(t->col, names, nc * sizeof(*names));
		free(names);
	}
	if (!t->col)
		t->col = calloc(t->ncols ? t->ncols : 1, sizeof(*t->col));
	t->row = calloc(t->nrows ? t->nrows : 1, sizeof(*t->row));
	t->cell = calloc(t->nrows * t->ncols + 1, sizeof(*t->cell));
	acc = calloc(t->nrows * t->ncols + 1, sizeof(*acc));
	if (!t->col || !t->row || !t->cell || !acc)
		goto fail;
	if (t->by_result) {
		snprintf(t->corner, sizeof(t->corner), "result \\ %s%s%s", v0->x_name,
			 *v0->x_unit ? " " : "", v0->x_unit);
		for (size_t c = 0; c < nx; c++)
			nb_view_fmt_x(v0, xs[c], t->col[c], sizeof(t->col[0]));
		for (size_t g = 0; g < ngroups; g++) {
			const char *facts = NULL;
			for (size_t i = 0; i < n && !facts; i++)
				if (!strcmp(e[i].group, groups[g]))
					facts = e[i].facts;
			snprintf(t->row[g], sizeof(t->row[0]), "%s%s%s%s", groups[g],
				 facts && *facts ? " (" : "", facts ? facts : "",
				 facts && *facts ? ")" : "");
		}
	} else {
		snprintf(t->corner, sizeof(t->corner), "%s%s%s", v0->x_name, *v0->x_unit ? " " : "",
			 v0->x_unit);
		for (size_t r = 0; r < nx; r++)
			nb_view_fmt_x(v0, xs[r], t->row[r], sizeof(t->row[0]));
	}

	for (size_t i = 0; i < n; i++) {
		size_t g = intern(groups[0], sizeof(groups[0]), &ngroups, e[i].group);
		for (size_t s = 0; s < e[i].view->nseries; s++) {
			const struct nb_series *se = &e[i].view->s[s];
			if (se->model)
				continue;
			if (t->by_result && s != 0)
				continue; /* one series per row: the first receiver */
			for (size_t k = 0; k < se->n; k++) {
				size_t xi = find_x(xs, nx, se->x[k]), r, c = 0;
				if (t->by_result) {
					r = g;
					c = xi;
				} else {
					r = xi;
					for (c = 0; c < t->ncols; c++)
						if (colgroup[c] == g &&
						    !strcmp(series[c], se->name))
							break;
					if (c == t->ncols)
						continue;
				}
				acc_add(&acc[r * t->ncols + c], se->y[k]);
			}
		}
		if (*e[i].view->note && t->nnotes < NB_CMP_MAX_NOTES) {
			bool dup = false;
			char note[240];
			snprintf(note, sizeof(note), "%s: %s", e[i].group, e[i].view->note);
			for (size_t k = 0; k < t->nnotes; k++)
				dup |= !strcmp(t->notes[k], note);
			if (!dup)
				snprintf(t->notes[t->nnotes++], sizeof(t->notes[0]), "%s", note);
		}
	}
	for (size_t k = 0; k < t->nrows * t->ncols; k++) {
		struct nb_cmp_cell *c = &t->cell[k];
		c->ratio = NAN;
		if (!acc[k].n)
			continue;
		c->has = true;
		c->runs = acc[k].n;
		c->mean = acc[k].sum / acc[k].n;
		c->spread = (acc[k].max - acc[k].min) / 2;
	}

	if (baseline) {
		size_t b;
		for (b = 0; b < ngroups; b++)
			if (!strcmp(groups[b], baseline))
				break;
		if (b == ngroups) {
			ret = -ENOENT;
			goto fail;
		}
		t->has_baseline = true;
		snprintf(t->baseline, sizeof(t->baseline), "%s", baseline);
		for (size_t r = 0; r < t->nrows; r++)
			for (size_t c = 0; c < t->ncols; c++) {
				struct nb_cmp_cell *x = nb_cmp_at(t, r, c), *base = NULL;
				if (t->by_result) {
					base = nb_cmp_at(t, b, c);
				} else {
					for (size_t bc = 0; bc < t->ncols; bc++)
						if (colgroup[bc] == b &&
						    !strcmp(series[bc], series[c]))
							base = nb_cmp_at(t, r, bc);
				}
				if (!x->has || !base || !base->has || base->mean == 0)
					continue;
				x->ratio = x->mean / base->mean;
				x->is_base = x == base;
				x->differs = x != base &&
					     fabs(x->mean - base->mean) > x->spread + base->spread;
			}
	}
	*out = t;
	t = NULL;
	ret = 0;
fail:
	free(xs);
	free(groups);
	free(series);
	free(colgroup);
	free(acc);
	nb_cmp_table_free(t);
	return ret;
}
