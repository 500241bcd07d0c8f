/* SPDX-License-Identifier: BSD-2-Clause */
/* The regression gate's decisions and their JUnit XML (docs/results.md, "The regression gate"). */
#include "core/store/regress_gate.h"

#include "core/base/xmltext.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool nb_gate_fails(enum nb_gate_verdict v)
{
	return v == NB_GATE_FAIL || v == NB_GATE_POINT_FAIL;
}

const char *nb_gate_verdict_name(enum nb_gate_verdict v)
{
	switch (v) {
	case NB_GATE_PASS:
		return "pass";
	case NB_GATE_FAIL:
		return "fail";
	case NB_GATE_POINT_FAIL:
		return "fail (point value)";
	case NB_GATE_NOT_JUDGED:
		return "not judged";
	case NB_GATE_UNSEEN:
		return "refused";
	}
	return "?";
}

/* How much worse a ratio is, in % of the baseline: positive is worse. */
static double worse_of(double ratio, bool lower_is_better)
{
	return lower_is_better ? (ratio - 1) * 100 : (1 - ratio) * 100;
}

static void how(double worse, char *buf, size_t len)
{
	snprintf(buf, len, "%s by %.1f %%", worse >= 0 ? "worse" : "better", fabs(worse));
}

void nb_gate_decide(const struct nb_cmp_cell *x, const struct nb_cmp_cell *base,
		    bool lower_is_better, const struct nb_gate_opts *o, struct nb_gate_row *out)
{
	char h[48], runs[64];
	double p = o->worse_pct;
	out->value = x->mean;
	out->base = base->mean;
	out->ratio = x->mean / base->mean;
	out->runs = x->runs;
	out->base_runs = base->runs;
	out->worse_pct = worse_of(out->ratio, lower_is_better);
	out->lo = out->hi = NAN;
	how(out->worse_pct, h, sizeof(h));
	snprintf(runs, sizeof(runs), "%u run%s against %u", x->runs, x->runs == 1 ? "" : "s",
		 base->runs);

	double df;
	if (nb_ratio_ci95(&x->runs_stat, &base->runs_stat, &out->lo, &out->hi, &df)) {
		bool beyond = out->worse_pct > p;
		out->uncertain = true;
		const char *judge = "one run on a side, so significance cannot be judged";
		if (!beyond) {
			out->verdict = NB_GATE_PASS;
			snprintf(out->sentence, sizeof(out->sentence),
				 "%s (%s): %s; the point value is within the %g %% threshold", h,
				 runs, judge, p);
		} else if (o->gate_point) {
			out->verdict = NB_GATE_POINT_FAIL;
			snprintf(out->sentence, sizeof(out->sentence),
				 "%s (%s): %s; the point value is beyond the %g %% threshold and "
				 "gates (--gate-point)",
				 h, runs, judge, p);
		} else {
			out->verdict = NB_GATE_NOT_JUDGED;
			snprintf(
			    out->sentence, sizeof(out->sentence),
			    "%s (%s): %s; the point value is beyond the %g %% threshold but "
			    "does not gate: repeat the runs (two or more on each side), or gate "
			    "on point values with --gate-point",
			    h, runs, judge, p);
		}
		return;
	}
	/* The interval of "worse", in % of the baseline. */
	double w1 = worse_of(out->lo, lower_is_better), w2 = worse_of(out->hi, lower_is_better);
	double wmin = fmin(w1, w2), wmax = fmax(w1, w2);
	char iv[200];
	snprintf(iv, sizeof(iv), "95 %% interval %.1f to %.1f %% worse, ratio %.3f..%.3f; %s", wmin,
		 wmax, out->lo, out->hi, runs);
	if (wmin > p) {
		out->verdict = NB_GATE_FAIL;
		snprintf(out->sentence, sizeof(out->sentence),
			 "%s (%s): beyond the %g %% threshold", h, iv, p);
	} else if (wmax <= p) {
		out->verdict = NB_GATE_PASS;
		snprintf(out->sentence, sizeof(out->sentence),
			 "%s (%s): within the %g %% threshold", h, iv, p);
	} else {
		out->verdict = NB_GATE_PASS;
		out->uncertain = true;
		snprintf(out->sentence, sizeof(out->sentence),
			 "%s (%s): worse by more than %g %% is not established (the interval "
			 "includes the threshold); more runs on both sides narrow it",
			 h, iv, p);
	}
}

/* One more row at the end of *rows, zeroed; NULL when out of memory. */
static struct nb_gate_row *push_row(struct nb_gate_row **rows, size_t *n)
{
	struct nb_gate_row *p = realloc(*rows, (*n + 1) * sizeof(*p));

	if (!p)
		return NULL;
	*rows = p;
	memset(&p[*n], 0, sizeof(*p));
	return &p[(*n)++];
}

int nb_gate_table(const struct nb_cmp_table *t, const struct nb_gate_opts *o,
		  struct nb_gate_row **rows, size_t *n)
{
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			const struct nb_cmp_cell *x = nb_cmp_at(t, r, c);
			const struct nb_cmp_line *l = nb_cmp_line_of(t, r, c);
			if (!x->has || x->is_base || !x->base || !isfinite(x->ratio))
				continue;
			struct nb_gate_row *g = push_row(rows, n);
			if (!g)
				return -ENOMEM;
			snprintf(g->view, sizeof(g->view), "%s", t->id);
			snprintf(g->unit, sizeof(g->unit), "%s", t->unit);
			snprintf(g->group, sizeof(g->group), "%s", t->group[l->group]);
			const char *xs = t->by_result ? t->col[c] : t->row[r];
			snprintf(g->metric, sizeof(g->metric), "%s %s, %s %s%s%s", t->id, l->series,
				 t->x_name, xs, *t->x_unit ? " " : "", t->x_unit);
			nb_gate_decide(x, x->base, t->lower_is_better, o, g);
		}
	return 0;
}

int nb_gate_unseen(const struct nb_cmp_entry *e, size_t ne, struct nb_gate_row **rows, size_t *n)
{
	for (size_t k = 0; k < ne; k++) {
		const struct nb_view *v = e[k].view;
		if (!v->lost_points)
			continue;
		struct nb_gate_row *g = push_row(rows, n);
		if (!g)
			return -ENOMEM;
		g->verdict = NB_GATE_UNSEEN;
		g->value = g->base = g->ratio = g->lo = g->hi = g->worse_pct = NAN;
		snprintf(g->view, sizeof(g->view), "%s", v->id);
		snprintf(g->unit, sizeof(g->unit), "%s", v->y_unit);
		snprintf(g->group, sizeof(g->group), "%s", e[k].group);
		snprintf(g->metric, sizeof(g->metric), "%s, %zu points not judged", v->id,
			 v->lost_points);
		snprintf(
		    g->sentence, sizeof(g->sentence),
		    "%zu measured points of a result of %s were not judged: a view holds at "
		    "most %d series of %d points, and the gate refuses to pass what it did not "
		    "look at; gate fewer series or points at once (filters, --algo), or split "
		    "the run",
		    v->lost_points, e[k].group, NB_VIEW_MAX_SERIES, NB_VIEW_MAX_POINTS);
	}
	return 0;
}

/* XML text: well-formed whatever the bytes (core/base/xmltext.h). */
static void xml(FILE *f, const char *s)
{
	nb_xml_write(f, s);
}

void nb_gate_write_junit(FILE *f, const struct nb_gate_row *rows, size_t n,
			 const struct nb_gate_opts *o, const char *baseline)
{
	size_t fails = 0, skipped = 0, errors = 0;
	for (size_t i = 0; i < n; i++) {
		fails += nb_gate_fails(rows[i].verdict);
		skipped += rows[i].verdict == NB_GATE_NOT_JUDGED;
		errors += rows[i].verdict == NB_GATE_UNSEEN;
	}
	char name[320];
	snprintf(name, sizeof(name), "netbench compare: worse than %s by more than %g %%",
		 baseline ? baseline : "?", o->worse_pct);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
	xml(f, name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n", n, fails,
		errors, skipped);
	fputs("  <testsuite name=\"", f);
	xml(f, name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n", n, fails,
		errors, skipped);
	for (size_t i = 0; i < n; i++) {
		const struct nb_gate_row *g = &rows[i];
		char tc[420];
		fputs("    <testcase classname=\"netbench.", f);
		xml(f, g->view);
		snprintf(tc, sizeof(tc), "%s: %s", g->metric, g->group);
		fputs("\" name=\"", f);
		xml(f, tc);
		fputs("\" time=\"0\">\n", f);
		if (g->verdict == NB_GATE_UNSEEN) {
			fputs("      <error type=\"not-judged\" message=\"", f);
			xml(f, g->sentence);
			fputs("\">", f);
			xml(f, g->metric);
			fputs("</error>\n", f);
		} else if (nb_gate_fails(g->verdict) || g->verdict == NB_GATE_NOT_JUDGED) {
			fputs(nb_gate_fails(g->verdict)
				  ? "      <failure type=\"regression\" message=\""
				  : "      <skipped message=\"",
			      f);
			xml(f, g->sentence);
			char nums[400];
			snprintf(nums, sizeof(nums),
				 "value %.6g %s (%u runs), baseline %.6g %s (%u runs), ratio %.4f, "
				 "95 %% interval %.4f..%.4f, worse by %.2f %%, threshold %g %%",
				 g->value, g->unit, g->runs, g->base, g->unit, g->base_runs,
				 g->ratio, g->lo, g->hi, g->worse_pct, o->worse_pct);
			fputs("\">", f);
			xml(f, nums);
			fputs(nb_gate_fails(g->verdict) ? "</failure>\n" : "</skipped>\n", f);
		}
		fputs("      <system-out>", f);
		xml(f, g->sentence);
		fputs("</system-out>\n    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}
