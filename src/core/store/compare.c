/* SPDX-License-Identifier: BSD-2-Clause */
/* Table building for compare: collects the distinct x values and the lines (one per group and
 * series: a receiver of a multi-agent run is a line of its own) of a view across results,
 * aggregates repeated runs, and sets ratios with their intervals against the baseline group. */
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
	free(t->group);
	free(t->gkey);
	free(t->group_runs);
	free(t->line);
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

static size_t find_line(const struct nb_cmp_table *t, size_t nl, size_t g, const char *series)
{
	for (size_t i = 0; i < nl; i++)
		if (t->line[i].group == g && !strcmp(t->line[i].series, series))
			return i;
	return nl;
}

/* The class of a verdict or note: its text up to the first ':' or ';' ("DUT ingress bound (NIC,
 * DMA or bus)"), the part that must agree between repeated runs; the figures after it may
 * differ. */
static size_t note_class(const char *note)
{
	size_t n = strcspn(note, ":;");
	while (n && note[n - 1] == ' ')
		n--;
	return n;
}

size_t nb_cmp_disagreement(const char *const *notes, size_t n, char *out, size_t outlen)
{
	const char *cls[NB_CMP_MAX_NOTES];
	size_t len[NB_CMP_MAX_NOTES], cnt[NB_CMP_MAX_NOTES], ncls = 0, runs = 0, o = 0;
	if (outlen)
		*out = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!notes[i] || !*notes[i])
			continue;
		runs++;
		size_t l = note_class(notes[i]), k;
		for (k = 0; k < ncls; k++)
			if (len[k] == l && !strncmp(cls[k], notes[i], l))
				break;
		if (k == ncls) {
			if (ncls == NB_CMP_MAX_NOTES)
				continue;
			cls[ncls] = notes[i];
			len[ncls] = l;
			cnt[ncls++] = 0;
		}
		cnt[k]++;
	}
	if (ncls < 2)
		return ncls;
	/* The most frequent class first (stable: ties keep the runs' order). */
	for (size_t a = 1; a < ncls; a++)
		for (size_t b = a; b > 0 && cnt[b] > cnt[b - 1]; b--) {
			const char *c = cls[b];
			size_t l = len[b], m = cnt[b];
			cls[b] = cls[b - 1], len[b] = len[b - 1], cnt[b] = cnt[b - 1];
			cls[b - 1] = c, len[b - 1] = l, cnt[b - 1] = m;
		}
	o = (size_t)snprintf(out, outlen, "the runs disagree: ");
	for (size_t k = 0; k < ncls && o < outlen; k++)
		o += (size_t)(k ? snprintf(out + o, outlen - o, ", %zu: %.*s", cnt[k], (int)len[k],
					   cls[k])
				: snprintf(out + o, outlen - o, "%zu of %zu runs: %.*s", cnt[k],
					   runs, (int)len[k], cls[k]));
	if (o < outlen)
		snprintf(out + o, outlen - o,
			 "; the group's verdict is not established (repeat the runs, or look for "
			 "what differed between them)");
	return ncls;
}

/* One line per group whose runs disagree, before the runs' own notes. */
static void disagreements(const struct nb_cmp_entry *e, size_t n, struct nb_cmp_table *t)
{
	const char **notes = calloc(n + 1, sizeof(*notes));
	if (!notes)
		return;
	for (size_t g = 0; g < t->ngroups && t->nnotes < NB_CMP_MAX_NOTES; g++) {
		size_t k = 0;
		char what[sizeof(t->notes[0])];
		for (size_t i = 0; i < n; i++)
			if (!strcmp(e[i].group, t->group[g]))
				notes[k++] = e[i].view->note;
		if (nb_cmp_disagreement(notes, k, what, sizeof(what)) < 2)
			continue;
		char *dst = t->notes[t->nnotes++];
		size_t w = sizeof(t->notes[0]), o = (size_t)snprintf(dst, w, "%s: ", t->group[g]);
		for (size_t c = 0; what[c] && o + 1 < w; c++) /* as much as fits */
			dst[o++] = what[c];
		if (o < w)
			dst[o] = '\0';
	}
	free(notes);
}

/* Group names longer than this get a short key in column names and a legend. */
#define NB_CMP_SHORT_NAME 16

static void name_lines(struct nb_cmp_table *t, const struct nb_view *v0, const double *xs,
		       size_t nx, size_t nlines)
{
	bool keys = false;
	/* Results by x carry each group's name in their rows: no keys there. */
	for (size_t g = 0; g < t->ngroups && !t->by_result; g++)
		keys |= strlen(t->group[g]) > NB_CMP_SHORT_NAME;
	for (size_t g = 0; g < t->ngroups && keys; g++) {
		if (g < 26)
			snprintf(t->gkey[g], sizeof(t->gkey[0]), "%c", (char)('A' + g));
		else
			snprintf(t->gkey[g], sizeof(t->gkey[0]), "G%u",
				 (unsigned)(g + 1) % 100000u);
	}
	if (t->by_result) {
		snprintf(t->corner, sizeof(t->corner), "result \\ %s%s%s", v0->x_name,
			 *v0->x_unit ? " " : "", v0->x_unit);
		for (size_t c = 0; c < nx; c++)
			nb_view_fmt_x(v0, xs[c], t->col[c], sizeof(t->col[0]));
		for (size_t r = 0; r < nlines; r++) {
			const struct nb_cmp_line *l = &t->line[r];
			char facts[256];
			nb_facts_text(&l->env, facts, sizeof(facts));
			if (l->own_env && strcmp(l->series, NB_VIEW_ONE_RECEIVER))
				snprintf(t->row[r], sizeof(t->row[0]), "%s / %s (%s)",
					 t->group[l->group], l->series, facts);
			else
				snprintf(t->row[r], sizeof(t->row[0]), "%s (%s)",
					 t->group[l->group], facts);
		}
	} else {
		snprintf(t->corner, sizeof(t->corner), "%s%s%s", v0->x_name, *v0->x_unit ? " " : "",
			 v0->x_unit);
		for (size_t r = 0; r < nx; r++)
			nb_view_fmt_x(v0, xs[r], t->row[r], sizeof(t->row[0]));
		for (size_t c = 0; c < nlines; c++) {
			size_t g = t->line[c].group;
			snprintf(t->col[c], sizeof(t->col[0]), "%s%s%s",
				 *t->gkey[g] ? t->gkey[g] : t->group[g], *t->gkey[g] ? " " : ": ",
				 t->line[c].series);
		}
	}
}

void nb_cmp_cell_summarize(struct nb_cmp_cell *c)
{
	c->ratio = c->ratio_lo = c->ratio_hi = NAN;
	if (!c->runs_stat.n)
		return;
	c->has = true;
	c->runs = c->runs_stat.n;
	c->mean = c->runs_stat.mean;
	c->spread = nb_runs_ci95(&c->runs_stat);
}

void nb_cmp_set_ratio(struct nb_cmp_cell *x, const struct nb_cmp_cell *base)
{
	if (!x->has || !base || !base->has || !(base->mean != 0))
		return;
	x->ratio = x->mean / base->mean;
	x->is_base = x == base;
	x->base = base;
	if (x->is_base)
		return;
	double df;
	x->judged =
	    nb_ratio_ci95(&x->runs_stat, &base->runs_stat, &x->ratio_lo, &x->ratio_hi, &df) == 0;
	x->differs = x->judged && (x->ratio_lo > 1 || x->ratio_hi < 1);
}

/* The table's names and units, from the first entry's view. */
static void table_head(struct nb_cmp_table *t, const struct nb_view *v0)
{
	snprintf(t->id, sizeof(t->id), "%s", v0->id);
	snprintf(t->title, sizeof(t->title), "%s", v0->title);
	snprintf(t->unit, sizeof(t->unit), "%s", v0->y_unit);
	snprintf(t->x_name, sizeof(t->x_name), "%s", v0->x_name);
	snprintf(t->x_unit, sizeof(t->x_unit), "%s", v0->x_unit);
	t->by_result = v0->by_result;
	t->lower_is_better = v0->lower_is_better;
}

/* Groups and lines in order of appearance, each group's runs, and every x value once (xs,
 * unsorted). Returns the number of lines. */
static size_t lines_collect(const struct nb_cmp_entry *e, size_t n, struct nb_cmp_table *t,
			    double *xs, size_t *nx)
{
	size_t nlines = 0;

	for (size_t i = 0; i < n; i++)
		intern(t->group[0], sizeof(t->group[0]), &t->ngroups, e[i].group);
	disagreements(e, n, t);
	for (size_t i = 0; i < n; i++) {
		size_t g = intern(t->group[0], sizeof(t->group[0]), &t->ngroups, e[i].group);
		t->group_runs[g]++;
		for (size_t s = 0; s < e[i].view->nseries; s++) {
			const struct nb_series *se = &e[i].view->s[s];
			if (se->model)
				continue;
			size_t l = find_line(t, nlines, g, se->name);
			if (l == nlines) {
				struct nb_cmp_line *nl = &t->line[nlines++];
				nl->group = g;
				snprintf(nl->series, sizeof(nl->series), "%s", se->name);
				nl->own_env = se->own_env;
				if (se->own_env)
					nl->env = se->env;
				else if (e[i].env)
					nl->env = *e[i].env;
				else
					nb_facts_of_env(NULL, NULL, &nl->env);
			}
			for (size_t k = 0; k < se->n; k++)
				if (find_x(xs, *nx, se->x[k]) == *nx)
					xs[(*nx)++] = se->x[k];
		}
	}
	return nlines;
}

/* An entry's note, once, with its group's name. */
static void note_add(struct nb_cmp_table *t, const struct nb_cmp_entry *e)
{
	bool dup = false;
	char note[240];

	if (!*e->view->note || t->nnotes >= NB_CMP_MAX_NOTES)
		return;
	snprintf(note, sizeof(note), "%s: %s", e->group, e->view->note);
	for (size_t k = 0; k < t->nnotes; k++)
		dup |= !strcmp(t->notes[k], note);
	if (!dup)
		snprintf(t->notes[t->nnotes++], sizeof(t->notes[0]), "%s", note);
}

/* Every point into its cell (line by x, or x by line), then each cell's mean and spread. */
static void cells_fill(const struct nb_cmp_entry *e, size_t n, struct nb_cmp_table *t,
		       const double *xs, size_t nx, size_t nlines)
{
	for (size_t i = 0; i < n; i++) {
		size_t g = intern(t->group[0], sizeof(t->group[0]), &t->ngroups, e[i].group);
		for (size_t s = 0; s < e[i].view->nseries; s++) {
			const struct nb_series *se = &e[i].view->s[s];
			if (se->model)
				continue;
			size_t l = find_line(t, nlines, g, se->name);
			for (size_t k = 0; k < se->n; k++) {
				size_t xi = find_x(xs, nx, se->x[k]);
				struct nb_cmp_cell *c =
				    t->by_result ? nb_cmp_at(t, l, xi) : nb_cmp_at(t, xi, l);
				nb_runs_add(&c->runs_stat, se->y[k]);
				c->polluted += se->polluted[k];
			}
		}
		note_add(t, &e[i]);
	}
	for (size_t k = 0; k < t->nrows * t->ncols; k++)
		nb_cmp_cell_summarize(&t->cell[k]);
}

/* Each cell's ratio to the baseline group's line with the same series (the same receiver
 * name, direction or engine); in the results-by-x layout (stream receivers) a baseline with a
 * single receiver serves every receiver. -ENOENT: no group of that name. */
static int baseline_ratios(struct nb_cmp_table *t, const char *baseline, size_t nlines, size_t nx)
{
	size_t b;

	for (b = 0; b < t->ngroups; b++)
		if (!strcmp(t->group[b], baseline))
			break;
	if (b == t->ngroups)
		return -ENOENT;
	t->has_baseline = true;
	snprintf(t->baseline, sizeof(t->baseline), "%s", baseline);
	size_t bl_only = nlines, nbl = 0;
	for (size_t l = 0; l < nlines; l++)
		if (t->line[l].group == b) {
			bl_only = l;
			nbl++;
		}
	for (size_t l = 0; l < nlines; l++) {
		size_t bl = find_line(t, nlines, b, t->line[l].series);
		if (bl == nlines && nbl == 1 && t->by_result)
			bl = bl_only;
		if (bl == nlines)
			continue;
		for (size_t xi = 0; xi < nx; xi++) {
			if (t->by_result)
				nb_cmp_set_ratio(nb_cmp_at(t, l, xi), nb_cmp_at(t, bl, xi));
			else
				nb_cmp_set_ratio(nb_cmp_at(t, xi, l), nb_cmp_at(t, xi, bl));
		}
	}
	return 0;
}

int nb_cmp_build(const struct nb_cmp_entry *e, size_t n, const char *baseline,
		 struct nb_cmp_table **out)
{
	struct nb_cmp_table *t = calloc(1, sizeof(*t));
	size_t maxx = 0, nx = 0, nlines, maxlines = n * NB_VIEW_MAX_SERIES + 1;
	double *xs = NULL;
	int ret = -ENOMEM;

	*out = NULL;
	if (!t || !n)
		goto fail;
	const struct nb_view *v0 = e[0].view;
	table_head(t, v0);
	for (size_t i = 0; i < n; i++)
		for (size_t s = 0; s < e[i].view->nseries; s++)
			maxx += e[i].view->s[s].n;
	xs = calloc(maxx + 1, sizeof(*xs));
	t->group = calloc(n, sizeof(*t->group));
	t->gkey = calloc(n, sizeof(*t->gkey));
	t->group_runs = calloc(n, sizeof(*t->group_runs));
	t->line = calloc(maxlines, sizeof(*t->line));
	if (!xs || !t->group || !t->gkey || !t->group_runs || !t->line)
		goto fail;
	nlines = lines_collect(e, n, t, xs, &nx);
	qsort(xs, nx, sizeof(*xs), cmp_double);
	t->xval = calloc(nx + 1, sizeof(*t->xval));
	if (!t->xval)
		goto fail;
	memcpy(t->xval, xs, nx * sizeof(*xs));
	t->nrows = t->by_result ? nlines : nx;
	t->ncols = t->by_result ? nx : nlines;
	t->col = calloc(t->ncols + 1, sizeof(*t->col));
	t->row = calloc(t->nrows + 1, sizeof(*t->row));
	t->cell = calloc(t->nrows * t->ncols + 1, sizeof(*t->cell));
	if (!t->col || !t->row || !t->cell)
		goto fail;
	name_lines(t, v0, xs, nx, nlines);
	cells_fill(e, n, t, xs, nx, nlines);
	if (baseline && (ret = baseline_ratios(t, baseline, nlines, nx)))
		goto fail;
	*out = t;
	t = NULL;
	ret = 0;
fail:
	free(xs);
	nb_cmp_table_free(t);
	return ret;
}
