/* SPDX-License-Identifier: BSD-2-Clause */
/* The report's HTML. Each view's chart draws one line per label and series: at every x the mean
 * of the label's runs with, where runs repeat, the 95 % interval as an error bar (Student's t).
 * A rule sweep is drawn as one chart per frame size. Captions are written from what is drawn. */
#include "core/store/report.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/chart.h"
#include "core/store/runs.h"

static const char *const order[] = {"rate.fps",	  "rate.rules",	  "tput.kbyte", "tput.cpu",
				    "stream.cpu", "crypto.mbyte", "mem.latency"};

static const char css[] =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}"
    "section.view{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}"
    "section.view figure{margin:0;flex:0 0 640px}section.view aside{flex:1 1 420px;min-width:420px}"
    "div.facets{display:flex;flex-wrap:wrap;gap:8px;flex:0 0 100%}div.facets.one{flex:0 0 auto}"
    "div.facets figure{flex:0 0 auto;width:min-content}"
    "figcaption{font-size:12px;color:#444;max-width:640px}"
    "table.facts{border-collapse:collapse;font-size:12px;max-width:100%}"
    "table.facts td:first-child{overflow-wrap:anywhere;min-width:6em}"
    "table.facts td,table.facts th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
    "td.emulated{background:#fde8c8}"
    "ul.notes{font-size:13px}.meta{color:#444;font-size:13px;max-width:1000px}";

bool nb_report_not_a_board(const char *virt)
{
	return virt && *virt && strcmp(virt, "none") != 0;
}

static void esc(FILE *f, const char *s)
{
	nb_xml_text(f, s && *s ? s : "-");
}

static bool has_view(const struct nb_report_item *it, const char *view_id)
{
	for (size_t v = 0; v < it->nviews; v++)
		if (!strcmp(it->views[v].id, view_id))
			return true;
	return false;
}

/* Runs of item i's group (having the view; NULL: any); first: i is the group's first. */
static size_t group_runs(const struct nb_report_item *it, size_t n, size_t i, const char *view_id,
			 bool *first)
{
	size_t runs = 0;
	*first = true;
	for (size_t k = 0; k < n; k++)
		if ((!view_id || has_view(&it[k], view_id)) && !strcmp(it[k].group, it[i].group)) {
			runs++;
			if (k < i)
				*first = false;
		}
	return runs;
}

static void facts(FILE *f, const struct nb_report_item *it, size_t n, const char *view_id)
{
	fputs("<table class=\"facts\"><tr><th>result</th><th>runs</th><th>host</th><th>CPU</th>"
	      "<th>MHz</th><th>arch</th><th>kernel</th><th>driver</th><th>runs on</th></tr>\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		bool first;
		if (!has_view(&it[i], view_id))
			continue;
		size_t runs = group_runs(it, n, i, view_id, &first);
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

/* One drawn line: a label's series (or computed curve) within one facet. */
struct line {
	char name[200];
	const char *group;
	const char *series; /* the views' series name */
	bool model, emulated, no_legend;
	int colour;
	size_t np, maxruns, flagged;
	double *x, *y, *lo, *hi;
	bool *flag;
	size_t *runs, *last; /* per x: runs drawn, and the last run counted (its index + 1) */
};

struct entry {
	size_t item;
	const struct nb_view *view;
};

struct section {
	const struct nb_report_item *it;
	size_t n;
	struct entry *e;
	size_t ne;
	double scale; /* drawn y = stored y x scale (tput: KByte/s to Mbit/s) */
	const char *y_unit;
	char keys[64][160]; /* colour per "group: short name", the same in every facet */
	size_t nkeys;
	size_t nfacets; /* charts side by side: narrower */
};

static int cmp_double(const void *a, const void *b)
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

static void lines_free(struct line *l, size_t n)
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

/* The lines of one facet (facet 0: a view without facets). */
static int build_lines(struct section *s, bool faceted, double facet, struct line **out,
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
			if (se->model) {
				/* Each run's curve is drawn (runs of one label fit differently);
				 * the legend lists the first and says how many there are. */
				size_t runs = 0;
				for (size_t k = 0; k < s->ne; k++)
					runs += model_of(s, k, group, se, faceted, facet);
				for (size_t k = 0; k + 1 < nl; k++)
					ln->no_legend |= l[k].model && !strcmp(l[k].group, group) &&
							 !strcmp(l[k].series, se->name);
				if (runs > 1 && !ln->no_legend) {
					size_t o = strlen(ln->name);
					snprintf(ln->name + o, sizeof(ln->name) - o,
						 " (each of %zu runs)", runs);
				}
				if (line_alloc(ln, se->n))
					goto fail;
				for (size_t p = 0; p < se->n; p++) {
					ln->x[p] = se->x[p];
					ln->y[p] = se->y[p] * s->scale;
					ln->lo[p] = ln->hi[p] = NAN;
				}
				ln->np = se->n;
				continue;
			}
			/* The distinct x of this series over the group's runs, in order. */
			size_t nx = 0;
			for (size_t k = 0; k < s->ne; k++) {
				const struct nb_series *o =
				    same_series(s, k, group, se, faceted, facet);
				for (size_t p = 0; o && p < o->n; p++)
					xs[nx++] = o->x[p];
			}
			qsort(xs, nx, sizeof(double), cmp_double);
			if (line_alloc(ln, nx))
				goto fail;
			for (size_t p = 0; p < nx; p++)
				if (!ln->np || ln->x[ln->np - 1] != xs[p])
					ln->x[ln->np++] = xs[p];
			/* One pass over the runs: count, mean and squared deviations per x
			 * (Welford), each run's first point at an x. */
			for (size_t k = 0; k < s->ne; k++) {
				const struct nb_series *o =
				    same_series(s, k, group, se, faceted, facet);
				for (size_t p = 0; o && p < o->n; p++) {
					double *at = bsearch(&o->x[p], ln->x, ln->np,
							     sizeof(double), cmp_double);
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
				    ln->runs[z], ln->runs[z] > 1
						     ? sqrt(ln->lo[z] / (double)(ln->runs[z] - 1))
						     : NAN);
				ln->lo[z] = ln->y[z] - half;
				ln->hi[z] = ln->y[z] + half;
				if (ln->runs[z] > ln->maxruns)
					ln->maxruns = ln->runs[z];
				ln->flagged += ln->flag[z];
			}
		}
	}
	free(xs);
	*out = l;
	*nout = nl;
	return 0;
fail:
	free(xs);
	lines_free(l, nl);
	return ret;
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
			if (!strcmp(s->it[k].group, l[i].group) && has_view(&s->it[k], v0->id))
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

static int chart(FILE *f, struct section *s, bool faceted, double facet, char *err, size_t errlen)
{
	const struct nb_view *v0 = s->e[0].view;
	struct line *l = NULL;
	size_t nl = 0;
	int ret = build_lines(s, faceted, facet, &l, &nl);
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
			m[nm++] = (struct nb_chart_mark){.x = s->e[i].view->marks[q].x,
							 .text = s->e[i].view->marks[q].text};
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
	lines_free(l, nl);
	return ret;
}

static void notes(FILE *f, const struct section *s)
{
	bool open = false;
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

static int section(FILE *f, const struct nb_report_item *it, size_t n, const char *view_id,
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
	qsort(facets, nf, sizeof(*facets), cmp_double);
	s->nfacets = nf;
	fprintf(f, "<section class=\"view\" id=\"%s\" data-view=\"%s\">\n", view_id, view_id);
	if (nf) {
		fprintf(f, "<div class=\"facets%s\" data-facets=\"%zu\">\n", nf == 1 ? " one" : "",
			nf);
		for (size_t k = 0; k < nf; k++)
			if ((ret = chart(f, s, true, facets[k], err, errlen)))
				goto out;
		fputs("</div>\n", f);
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

/* Whether a label has repeated runs: two of its results of one test. */
static bool group_repeats(const struct nb_report_item *it, size_t n, const char *group)
{
	for (size_t q = 0; q < n; q++)
		for (size_t z = q + 1; z < n; z++)
			if (!strcmp(it[q].group, group) && !strcmp(it[z].group, group) &&
			    it[q].test && it[z].test && !strcmp(it[q].test, it[z].test))
				return true;
	return false;
}

/* The page's caption: what this report holds, from its own results. */
static void caption(FILE *f, const struct nb_report_item *it, size_t n, const char *generated)
{
	static const char *const tests[] = {"tput", "rate", "stream", "crypto", "mem"};
	size_t groups = 0, repeated = 0, hosts = 0, flagged = 0, emulated = 0, unknown = 0;
	const char *t0 = NULL, *t1 = NULL;
	bool marks = false, models = false;

	fputs("<p class=\"meta caption\">", f);
	fprintf(f, "%zu result%s", n, n == 1 ? "" : "s");
	size_t k = 0;
	for (size_t t = 0; t < sizeof(tests) / sizeof(tests[0]); t++) {
		size_t c = 0;
		for (size_t i = 0; i < n; i++)
			c += it[i].test && !strcmp(it[i].test, tests[t]);
		if (c)
			fprintf(f, "%s%s %zu", k++ ? ", " : " (", tests[t], c);
	}
	fputs(k ? ")" : "", f);
	for (size_t i = 0; i < n; i++) {
		bool first, hfirst = true;
		group_runs(it, n, i, NULL, &first);
		groups += first;
		repeated += first && group_repeats(it, n, it[i].group);
		emulated += first && nb_report_not_a_board(it[i].virt);
		unknown += first && !(it[i].virt && *it[i].virt);
		/* strcmp's sign, not its value: "&=" with it kept bit 0 of a byte difference. */
		for (size_t q = 0; q < i && hfirst; q++)
			hfirst =
			    strcmp(it[q].host ? it[q].host : "", it[i].host ? it[i].host : "") != 0;
		hosts += hfirst;
		if (it[i].time_utc && *it[i].time_utc) {
			if (!t0 || strcmp(it[i].time_utc, t0) < 0)
				t0 = it[i].time_utc;
			if (!t1 || strcmp(it[i].time_utc, t1) > 0)
				t1 = it[i].time_utc;
		}
		for (size_t v = 0; v < it[i].nviews; v++) {
			const struct nb_view *vw = &it[i].views[v];
			marks |= vw->nmarks > 0;
			for (size_t q = 0; q < vw->nseries; q++) {
				models |= vw->s[q].model;
				for (size_t p = 0; p < vw->s[q].n; p++)
					flagged += vw->s[q].polluted[p];
			}
		}
	}
	fprintf(f, " under %zu label%s from %zu host%s", groups, groups == 1 ? "" : "s", hosts,
		hosts == 1 ? "" : "s");
	if (t0) {
		fputs(", run ", f);
		if (strcmp(t0, t1)) {
			fputs("from ", f);
			nb_xml_text(f, t0);
			fputs(" to ", f);
			nb_xml_text(f, t1);
		} else {
			fputs("at ", f);
			nb_xml_text(f, t0);
		}
	}
	fputs(". ", f);
	if (repeated)
		fprintf(
		    f,
		    "%zu label%s ha%s repeated runs: drawn at their mean with the 95 %% interval "
		    "(Student's t) as error bars. ",
		    repeated, repeated == 1 ? "" : "s", repeated == 1 ? "s" : "ve");
	else
		fputs("No label has repeated runs: every point is one run, without an interval. ",
		      f);
	if (models)
		fputs("Dashed lines are computed curves, not measurements. ", f);
	if (marks)
		fputs("Dotted verticals mark cache steps and crypto crossovers. ", f);
	if (flagged)
		fprintf(f,
			"%zu CPU figure%s came from windows polluted by other processes (hollow "
			"points). ",
			flagged, flagged == 1 ? "" : "s");
	if (emulated)
		fprintf(f,
			"%zu label%s ran emulated or virtualized, not on a board: marked \"not a "
			"board\". ",
			emulated, emulated == 1 ? "" : "s");
	if (unknown)
		fprintf(f,
			"%zu label%s come%s from documents that do not say whether they ran on a "
			"board or emulated (\"unknown\"). ",
			unknown, unknown == 1 ? "" : "s", unknown == 1 ? "s" : "");
	nb_xml_text(f, generated);
	fputs("</p>\n", f);
}

int nb_report_html_err(FILE *f, const struct nb_report_item *it, size_t n, const char *title,
		       const char *generated, const char *extra_html, char *err, size_t errlen)
{
	const char *last_test = "";
	int ret;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	nb_xml_text(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
	nb_xml_text(f, title);
	fputs("</h1>\n", f);
	caption(f, it, n, generated);
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		bool any = false;
		for (size_t i = 0; i < n && !any; i++)
			any = has_view(&it[i], order[o]);
		if (!any)
			continue;
		size_t tl = strcspn(order[o], ".");
		if (strncmp(last_test, order[o], tl) || last_test[tl] != '.') {
			fprintf(f, "<h2 id=\"test-%.*s\">%.*s</h2>\n", (int)tl, order[o], (int)tl,
				order[o]);
			last_test = order[o];
		}
		if ((ret = section(f, it, n, order[o], err, errlen)))
			return ret;
	}
	if (!n)
		fputs("<p>No results matched.</p>\n", f);
	if (extra_html)
		fputs(extra_html, f);
	fputs("</body>\n</html>\n", f);
	return 0;
}
