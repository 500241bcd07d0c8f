/* SPDX-License-Identifier: BSD-2-Clause */
/* The lines of a report chart: each label's series at every x, the mean of its runs with, where
 * runs repeat, the 95 % interval as an error bar (Student's t); a colour per label and series,
 * the same in every facet of a view. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/chart.h"
#include "core/store/report_sect.h"
#include "core/store/runs.h"

int nb_report_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* A rule sweep's series are "kind, 64 B": within a frame size's chart the size goes. */
static void short_name(const char *name, bool faceted, char *out, size_t len)
{
	const char *cut = faceted ? strrchr(name, ',') : NULL;
	snprintf(out, len, "%.*s", cut ? (int)(cut - name) : (int)strlen(name), name);
}

static int colour_of(struct section *s, const char *key)
{
	const char *k = key;
	char buf[160];
	const char *colon = strstr(key, ": fit ");
	if (colon) { /* a fit shares its data's colour: "group: fit kind" -> "group: kind" */
		snprintf(buf, sizeof(buf), "%.*s: %s", (int)(colon - key), key, colon + 6);
		k = buf;
	}
	for (size_t i = 0; i < s->nkeys; i++)
		if (!strcmp(s->keys[i], k))
			return (int)i + 1;
	if (s->nkeys == sizeof(s->keys) / sizeof(s->keys[0]))
		return 0;
	snprintf(s->keys[s->nkeys++], sizeof(s->keys[0]), "%s", k);
	return (int)s->nkeys;
}

void nb_report_lines_free(struct line *l, size_t n)
{
	for (size_t i = 0; l && i < n; i++) {
		free(l[i].x);
		free(l[i].y);
		free(l[i].lo);
		free(l[i].hi);
		free(l[i].flag);
		free(l[i].runs);
		free(l[i].last);
	}
	free(l);
}

static int line_alloc(struct line *ln, size_t n)
{
	ln->x = calloc(n + 1, sizeof(double));
	ln->y = calloc(n + 1, sizeof(double));
	ln->lo = calloc(n + 1, sizeof(double));
	ln->hi = calloc(n + 1, sizeof(double));
	ln->flag = calloc(n + 1, sizeof(bool));
	ln->runs = calloc(n + 1, sizeof(size_t));
	ln->last = calloc(n + 1, sizeof(size_t));
	return ln->x && ln->y && ln->lo && ln->hi && ln->flag && ln->runs && ln->last ? 0 : -ENOMEM;
}

/* Entry k's series of the same name as se, when k is a run of group (and in the facet). */
static const struct nb_series *same_series(const struct section *s, size_t k, const char *group,
					   const struct nb_series *se, bool faceted, double facet)
{
	if (strcmp(s->it[s->e[k].item].group, group))
		return NULL;
	for (size_t t = 0; t < s->e[k].view->nseries; t++) {
		const struct nb_series *o = &s->e[k].view->s[t];
		if (!o->model && !strcmp(o->name, se->name) && (!faceted || o->facet == facet))
			return o;
	}
	return NULL;
}

/* Whether entry k, a run of group, has a computed curve named as se (in the facet). */
static bool model_of(const struct section *s, size_t k, const char *group,
		     const struct nb_series *se, bool faceted, double facet)
{
	if (strcmp(s->it[s->e[k].item].group, group))
		return false;
	for (size_t t = 0; t < s->e[k].view->nseries; t++) {
		const struct nb_series *o = &s->e[k].view->s[t];
		if (o->model && !strcmp(o->name, se->name) && (!faceted || o->facet == facet))
			return true;
	}
	return false;
}

static bool group_emulated(const struct section *s, const char *group)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->it[i].group, group) && nb_report_not_a_board(s->it[i].virt))
			return true;
	return false;
}

/* A model's line: each run's curve is drawn (runs of one label fit differently); the legend
 * lists the first (lines l[0..nl-1] before ln) and says how many there are. */
static int model_line(const struct section *s, const struct line *l, size_t nl, struct line *ln,
		      const char *group, const struct nb_series *se, bool faceted, double facet)
{
	size_t runs = 0;
	for (size_t k = 0; k < s->ne; k++)
		runs += model_of(s, k, group, se, faceted, facet);
	for (size_t k = 0; k + 1 < nl; k++)
		ln->no_legend |=
		    l[k].model && !strcmp(l[k].group, group) && !strcmp(l[k].series, se->name);
	if (runs > 1 && !ln->no_legend) {
		size_t o = strlen(ln->name);
		snprintf(ln->name + o, sizeof(ln->name) - o, " (each of %zu runs)", runs);
	}
	if (line_alloc(ln, se->n))
		return -ENOMEM;
	for (size_t p = 0; p < se->n; p++) {
		ln->x[p] = se->x[p];
		ln->y[p] = se->y[p] * s->scale;
		ln->lo[p] = ln->hi[p] = NAN;
	}
	ln->np = se->n;
	return 0;
}

/* A measured line: its mean at each distinct x over the group's runs, with the 95 % interval
 * of the mean, the runs, and the polluted points (xs: room for every x). */
static int runs_line(const struct section *s, struct line *ln, const char *group,
		     const struct nb_series *se, bool faceted, double facet, double *xs)
{
	/* The distinct x of this series over the group's runs, in order. */
	size_t nx = 0;
	for (size_t k = 0; k < s->ne; k++) {
		const struct nb_series *o = same_series(s, k, group, se, faceted, facet);
		for (size_t p = 0; o && p < o->n; p++)
			xs[nx++] = o->x[p];
	}
	qsort(xs, nx, sizeof(double), nb_report_cmp_double);
	if (line_alloc(ln, nx))
		return -ENOMEM;
	for (size_t p = 0; p < nx; p++)
		if (!ln->np || ln->x[ln->np - 1] != xs[p])
			ln->x[ln->np++] = xs[p];
	/* One pass over the runs: count, mean and squared deviations per x
	 * (Welford), each run's first point at an x. */
	for (size_t k = 0; k < s->ne; k++) {
		const struct nb_series *o = same_series(s, k, group, se, faceted, facet);
		for (size_t p = 0; o && p < o->n; p++) {
			double *at =
			    bsearch(&o->x[p], ln->x, ln->np, sizeof(double), nb_report_cmp_double);
			size_t z = (size_t)(at - ln->x);
			if (!at || ln->last[z] == k + 1)
				continue;
			double v = o->y[p] * s->scale, d = v - ln->y[z];
			ln->last[z] = k + 1;
			ln->runs[z]++;
			ln->y[z] += d / (double)ln->runs[z];
			ln->lo[z] += d * (v - ln->y[z]); /* m2 until the end */
			ln->flag[z] |= o->polluted[p];
		}
	}
	for (size_t z = 0; z < ln->np; z++) {
		double half = nb_ci95_half(
		    ln->runs[z],
		    ln->runs[z] > 1 ? sqrt(ln->lo[z] / (double)(ln->runs[z] - 1)) : NAN);
		ln->lo[z] = ln->y[z] - half;
		ln->hi[z] = ln->y[z] + half;
		if (ln->runs[z] > ln->maxruns)
			ln->maxruns = ln->runs[z];
		ln->flagged += ln->flag[z];
	}
	return 0;
}

/* The lines of one facet (facet 0: a view without facets). */
int nb_report_build_lines(struct section *s, bool faceted, double facet, struct line **out,
			  size_t *nout)
{
	size_t cap = s->ne * NB_VIEW_MAX_SERIES + 1, nl = 0;
	struct line *l = calloc(cap, sizeof(*l));
	double *xs = calloc(s->ne * NB_VIEW_MAX_POINTS + 1, sizeof(*xs));
	bool many = false;
	int ret = -ENOMEM;
	if (!l || !xs)
		goto fail;
	for (size_t i = 1; i < s->ne; i++)
		many |= strcmp(s->it[s->e[i].item].group, s->it[s->e[0].item].group) != 0;
	for (size_t i = 0; i < s->ne; i++) {
		const char *group = s->it[s->e[i].item].group;
		for (size_t q = 0; q < s->e[i].view->nseries; q++) {
			const struct nb_series *se = &s->e[i].view->s[q];
			bool dup = false;
			if (faceted && se->facet != facet)
				continue;
			for (size_t k = 0; k < nl && !dup; k++) /* a group's series once */
				dup = !l[k].model && !se->model && !strcmp(l[k].group, group) &&
				      !strcmp(l[k].series, se->name);
			if (dup)
				continue;
			struct line *ln = &l[nl++];
			char sn[64], key[160];
			short_name(se->name, faceted, sn, sizeof(sn));
			ln->group = group;
			ln->series = se->name;
			ln->model = se->model;
			ln->emulated = group_emulated(s, group);
			snprintf(key, sizeof(key), "%s: %s", many ? group : "", sn);
			ln->colour = colour_of(s, key);
			snprintf(ln->name, sizeof(ln->name), "%s%s%s%s", many ? group : "",
				 many ? ": " : "", sn, ln->emulated ? " (not a board)" : "");
			ret = se->model ? model_line(s, l, nl, ln, group, se, faceted, facet)
					: runs_line(s, ln, group, se, faceted, facet, xs);
			if (ret)
				goto fail;
		}
	}
	free(xs);
	*out = l;
	*nout = nl;
	return 0;
fail:
	free(xs);
	nb_report_lines_free(l, nl);
	return ret;
}
