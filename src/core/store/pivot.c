/* SPDX-License-Identifier: BSD-2-Clause */
/* Tables on chosen axes (docs/results.md, "a farm's results"). */
#include "core/store/pivot.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PIV_VALUE_MAX 96
#define PIV_REST_MAX  256

int nb_piv_axis_parse(const char *text, struct nb_piv_axis *a)
{
	size_t n = strlen(text);
	memset(a, 0, sizeof(*a));
	if (!n || n >= sizeof(a->key))
		return -EINVAL;
	for (const char *p = text; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.", *p))
			return -EINVAL;
	memcpy(a->key, text, n + 1);
	a->kind = !strcmp(text, "label")  ? NB_PIV_LABEL
		  : !strcmp(text, "host") ? NB_PIV_HOST
		  : !strcmp(text, "size") ? NB_PIV_SIZE
					  : NB_PIV_TAG;
	return 0;
}

int nb_piv_natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			size_t la = 0, lb = 0;
			while (isdigit((unsigned char)a[la]))
				la++;
			while (isdigit((unsigned char)b[lb]))
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(a, b, la);
			if (c)
				return c;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static const char *tag_of(const struct nb_piv_entry *e, const char *key)
{
	for (size_t k = 0; k < e->ntags; k++)
		if (!strcmp(e->tags[k].key, key))
			return e->tags[k].value;
	return NULL;
}

void nb_piv_value(const struct nb_piv_axis *a, const struct nb_piv_entry *e, double x, char *buf,
		  size_t len)
{
	const char *v = NULL;
	switch (a->kind) {
	case NB_PIV_LABEL:
		if (!e->label || !*e->label) {
			snprintf(buf, len, "#%lld", e->id);
			return;
		}
		v = e->label;
		break;
	case NB_PIV_HOST:
		v = e->host;
		break;
	case NB_PIV_SIZE:
		nb_view_fmt_x(e->view, x, buf, len);
		return;
	case NB_PIV_TAG:
		v = tag_of(e, a->key);
		/* kernel and arch: the tag, else the measured platform's. */
		if (!v && e->env && !strcmp(a->key, "kernel"))
			v = e->env->kernel;
		else if (!v && e->env && !strcmp(a->key, "arch"))
			v = e->env->arch;
		break;
	}
	snprintf(buf, len, "%s", v && *v ? v : "-");
}

struct point {
	size_t entry;
	double y;
	bool polluted;
	double rowx, colx, restx; /* the x of a size axis (or of the rest): sorted by number */
	char row[PIV_VALUE_MAX], col[PIV_VALUE_MAX], rest[PIV_REST_MAX];
};

struct key {
	double x;
	const char *s;
};

static int key_cmp(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;
	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return nb_piv_natcmp(a->s, b->s);
}

/* The distinct keys of (x, s), sorted; returns how many. */
static size_t distinct(struct key *k, size_t n)
{
	size_t m = 0;
	qsort(k, n, sizeof(*k), key_cmp);
	for (size_t i = 0; i < n; i++)
		if (!m || key_cmp(&k[m - 1], &k[i]))
			k[m++] = k[i];
	return m;
}

static size_t find_key(const struct key *k, size_t n, double x, const char *s)
{
	struct key want = {x, s};
	for (size_t i = 0; i < n; i++)
		if (!key_cmp(&k[i], &want))
			return i;
	return n;
}

/* Does tag key take more than one value (absent counts as one) among the entries? */
static bool tag_varies(const struct nb_piv_entry *e, size_t n, const char *key)
{
	const char *v0 = tag_of(&e[0], key);
	for (size_t i = 1; i < n; i++) {
		const char *v = tag_of(&e[i], key);
		if ((v == NULL) != (v0 == NULL) || (v && strcmp(v, v0)))
			return true;
	}
	return false;
}

static bool on_axis(const struct nb_piv_axis *a, const struct nb_piv_axis *b, const char *key)
{
	return (a->kind == NB_PIV_TAG && !strcmp(a->key, key)) ||
	       (b->kind == NB_PIV_TAG && !strcmp(b->key, key));
}

/* What is on neither axis and tells this point's runs from others: the label, the tags that
 * differ, the series (when the view has several) and the size. */
static void rest_of(const struct nb_piv_entry *e, size_t n, size_t i, const struct nb_series *s,
		    bool many_series, double x, const struct nb_piv_axis *r,
		    const struct nb_piv_axis *c, struct point *p)
{
	size_t len = 0;
	char v[PIV_VALUE_MAX];
	p->restx = 0;
	p->rest[0] = '\0';
#define ADD(...)                                                                                   \
	do {                                                                                       \
		if (len < sizeof(p->rest))                                                         \
			len +=                                                                     \
			    (size_t)snprintf(p->rest + len, sizeof(p->rest) - len, __VA_ARGS__);   \
	} while (0)
	if (r->kind != NB_PIV_SIZE && c->kind != NB_PIV_SIZE) {
		nb_view_fmt_x(e[i].view, x, v, sizeof(v));
		ADD("%s %s%s%s", e[i].view->x_name, v, *e[i].view->x_unit ? " " : "",
		    e[i].view->x_unit);
		p->restx = x;
	}
	if (r->kind != NB_PIV_LABEL && c->kind != NB_PIV_LABEL) {
		struct nb_piv_axis la = {.kind = NB_PIV_LABEL};
		nb_piv_value(&la, &e[i], x, v, sizeof(v));
		ADD("%s%s", len ? ", " : "", v);
	}
	for (size_t k = 0; k < e[i].ntags; k++)
		if (!on_axis(r, c, e[i].tags[k].key) && tag_varies(e, n, e[i].tags[k].key))
			ADD("%s%s=%s", len ? ", " : "", e[i].tags[k].key, e[i].tags[k].value);
	if (many_series)
		ADD("%s%s", len ? ", " : "", s->name);
#undef ADD
}

void nb_piv_free(struct nb_cmp_table **t, size_t n)
{
	for (size_t i = 0; t && i < n; i++)
		nb_cmp_table_free(t[i]);
	free(t);
}

static void axis_name(const struct nb_piv_axis *a, const struct nb_view *v, char *buf, size_t len)
{
	if (a->kind == NB_PIV_SIZE)
		snprintf(buf, len, "%s%s%s", v->x_name, *v->x_unit ? " " : "", v->x_unit);
	else
		snprintf(buf, len, "%s",
			 a->kind == NB_PIV_LABEL  ? "label"
			 : a->kind == NB_PIV_HOST ? "host"
						  : a->key);
}

/* The table's names and units from the first point's view, its corner from the axes' names
 * (cn: the columns'). */
static void table_head(struct nb_cmp_table *t, const struct nb_view *v0, const char *rk,
		       const struct nb_piv_axis *ra, const struct nb_piv_axis *ca, char *cn,
		       size_t cnlen)
{
	char rn[64];

	snprintf(t->id, sizeof(t->id), "%s", v0->id);
	snprintf(t->title, sizeof(t->title), "%s%s%s", v0->title, *rk ? ", " : "", rk);
	snprintf(t->unit, sizeof(t->unit), "%s", v0->y_unit);
	snprintf(t->x_name, sizeof(t->x_name), "%s", v0->x_name);
	snprintf(t->x_unit, sizeof(t->x_unit), "%s", v0->x_unit);
	t->by_result = true;
	t->pivot = true;
	t->lower_is_better = v0->lower_is_better;
	axis_name(ra, v0, rn, sizeof(rn));
	axis_name(ca, v0, cn, cnlen);
	snprintf(t->corner, sizeof(t->corner), "%.38s \\ %.38s", rn, cn);
}

/* nr rows (one group each) and nc columns, named from their keys. */
static int table_shape(struct nb_cmp_table *t, const struct key *rows, size_t nr,
		       const struct key *cols, size_t nc)
{
	t->nrows = t->ngroups = nr;
	t->ncols = nc;
	t->row = calloc(nr + 1, sizeof(*t->row));
	t->col = calloc(nc + 1, sizeof(*t->col));
	t->xval = calloc(nc + 1, sizeof(*t->xval));
	t->cell = calloc(nr * nc + 1, sizeof(*t->cell));
	t->group = calloc(nr + 1, sizeof(*t->group));
	t->gkey = calloc(nr + 1, sizeof(*t->gkey));
	t->group_runs = calloc(nr + 1, sizeof(*t->group_runs));
	t->line = calloc(nr + 1, sizeof(*t->line));
	if (!t->row || !t->col || !t->xval || !t->cell || !t->group || !t->gkey || !t->group_runs ||
	    !t->line)
		return -ENOMEM;
	for (size_t r = 0; r < nr; r++) {
		snprintf(t->row[r], sizeof(t->row[0]), "%s", rows[r].s);
		snprintf(t->group[r], sizeof(t->group[0]), "%s", rows[r].s);
		t->line[r].group = r;
		t->line[r].env.cpu_mhz = NAN;
	}
	for (size_t c = 0; c < nc; c++) {
		snprintf(t->col[c], sizeof(t->col[0]), "%s", cols[c].s);
		t->xval[c] = cols[c].x;
	}
	return 0;
}

/* Every point with rest key rk (from first on) into its cell; a row's platform is shown when
 * all its runs share it, otherwise unknown. */
static int cells_add(const struct nb_piv_entry *e, const struct point *p, size_t first, size_t np,
		     const char *rk, struct nb_cmp_table *t, const struct key *rows,
		     const struct key *cols)
{
	size_t nr = t->nrows, nc = t->ncols;
	bool *env_set = calloc(nr + 1, sizeof(*env_set));

	if (!env_set)
		return -ENOMEM;
	for (size_t i = first; i < np; i++) {
		if (strcmp(p[i].rest, rk))
			continue;
		size_t r = find_key(rows, nr, p[i].rowx, p[i].row);
		size_t c = find_key(cols, nc, p[i].colx, p[i].col);
		struct nb_cmp_cell *x = nb_cmp_at(t, r, c);
		nb_runs_add(&x->runs_stat, p[i].y);
		x->polluted += p[i].polluted;
		const struct nb_facts *f = e[p[i].entry].env;
		struct nb_cmp_line *l = &t->line[r];
		if (!env_set[r] && f)
			l->env = *f;
		else if (f && strcmp(l->env.virt, f->virt))
			l->env.virt[0] = '\0';
		env_set[r] = true;
	}
	free(env_set);
	return 0;
}

/* Each cell's ratio to the baseline column's cell in its row (the column named baseline). */
static void baseline_ratios(struct nb_cmp_table *t, const struct key *cols, const char *cn,
			    const char *baseline)
{
	size_t b = t->ncols;

	for (size_t c = 0; c < t->ncols; c++)
		if (!strcmp(cols[c].s, baseline))
			b = c;
	if (b == t->ncols)
		return;
	t->has_baseline = true;
	snprintf(t->baseline, sizeof(t->baseline), "%s=%s", cn, baseline);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			nb_cmp_set_ratio(nb_cmp_at(t, r, c), nb_cmp_at(t, r, b));
}

/* One table: the points with rest key rk. */
static int one_table(const struct nb_piv_entry *e, const struct point *p, size_t np, const char *rk,
		     const struct nb_piv_axis *ra, const struct nb_piv_axis *ca,
		     const char *baseline, struct nb_cmp_table **out)
{
	struct nb_cmp_table *t = calloc(1, sizeof(*t));
	struct key *rows = calloc(np + 1, sizeof(*rows)), *cols = calloc(np + 1, sizeof(*cols));
	size_t nr = 0, nc = 0, first = np;
	char cn[64];
	unsigned most = 0;
	int ret = -ENOMEM;
	*out = NULL;
	if (!t || !rows || !cols)
		goto fail;
	for (size_t i = 0; i < np; i++) {
		if (strcmp(p[i].rest, rk))
			continue;
		if (first == np)
			first = i;
		rows[nr++] = (struct key){p[i].rowx, p[i].row};
		cols[nc++] = (struct key){p[i].colx, p[i].col};
	}
	nr = distinct(rows, nr);
	nc = distinct(cols, nc);
	table_head(t, e[p[first].entry].view, rk, ra, ca, cn, sizeof(cn));
	if ((ret = table_shape(t, rows, nr, cols, nc)) ||
	    (ret = cells_add(e, p, first, np, rk, t, rows, cols)))
		goto fail;
	for (size_t k = 0; k < nr * nc; k++) {
		nb_cmp_cell_summarize(&t->cell[k]);
		if (t->cell[k].has && t->cell[k].runs > most)
			most = t->cell[k].runs;
	}
	for (size_t r = 0; r < nr; r++)
		t->group_runs[r] = most;
	if (baseline)
		baseline_ratios(t, cols, cn, baseline);
	*out = t;
	t = NULL;
	ret = 0;
fail:
	free(rows);
	free(cols);
	nb_cmp_table_free(t);
	return ret;
}

int nb_piv_build(const struct nb_piv_entry *e, size_t n, const struct nb_piv_axis *ra,
		 const struct nb_piv_axis *ca, const char *baseline, struct nb_cmp_table ***out,
		 size_t *ntables)
{
	struct point *p = NULL;
	struct key *rests = NULL;
	size_t np = 0, cap = 0, nt = 0;
	bool many_series = false;
	const char *series0 = NULL;
	int ret = -ENOMEM;

	*out = NULL;
	*ntables = 0;
	if (ra->kind == ca->kind && !strcmp(ra->key, ca->key))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		for (size_t s = 0; s < e[i].view->nseries; s++) {
			const struct nb_series *se = &e[i].view->s[s];
			if (se->model)
				continue;
			if (series0 && strcmp(series0, se->name))
				many_series = true;
			series0 = se->name;
			cap += se->n;
		}
	p = calloc(cap + 1, sizeof(*p));
	rests = calloc(cap + 1, sizeof(*rests));
	if (!p || !rests)
		goto out;
	for (size_t i = 0; i < n; i++)
		for (size_t s = 0; s < e[i].view->nseries; s++) {
			const struct nb_series *se = &e[i].view->s[s];
			if (se->model)
				continue;
			for (size_t k = 0; k < se->n; k++) {
				struct point *q = &p[np++];
				double x = se->x[k];
				q->entry = i;
				q->y = se->y[k];
				q->polluted = se->polluted[k];
				nb_piv_value(ra, &e[i], x, q->row, sizeof(q->row));
				nb_piv_value(ca, &e[i], x, q->col, sizeof(q->col));
				q->rowx = ra->kind == NB_PIV_SIZE ? x : 0;
				q->colx = ca->kind == NB_PIV_SIZE ? x : 0;
				rest_of(e, n, i, se, many_series, x, ra, ca, q);
			}
		}
	for (size_t i = 0; i < np; i++)
		rests[i] = (struct key){p[i].restx, p[i].rest};
	nt = distinct(rests, np);
	*out = calloc(nt + 1, sizeof(**out));
	if (!*out)
		goto out;
	bool base_found = !baseline;
	for (size_t k = 0; k < nt; k++) {
		if ((ret = one_table(e, p, np, rests[k].s, ra, ca, baseline, &(*out)[k])))
			goto out;
		base_found |= (*out)[k]->has_baseline;
		*ntables = k + 1;
	}
	ret = base_found ? 0 : -ENOENT;
out:
	if (ret) {
		nb_piv_free(*out, *ntables);
		*out = NULL;
		*ntables = 0;
	}
	free(p);
	free(rests);
	return ret;
}
