/* SPDX-License-Identifier: BSD-2-Clause */
/* The runs of each step of a fit, gathered from the chosen results' views, and their fits.
 * Every array grows with what it holds: a result adds at most one run to a step (one per swept
 * point for a rule sweep), whatever its series are named. */
#include "core/store/fit_runs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct metric {
	const char *metric, *view, *says;
	bool invert;		/* 1e9 / the view's value: ns per frame from frames/s */
	const char *sweep_view; /* a rule sweep's view of the same quantity, or NULL */
} metrics[] = {
    {"fps", "rate.fps", "frames/s", false, "rate.rules"},
    {"ns_per_frame", "rate.fps", "ns per frame", true, "rate.rules"},
    {"kbyte_per_s", "tput.kbyte", "KByte/s", false, NULL},
    {"mbyte_per_s", "crypto.mbyte", "MB/s", false, NULL},
    {"ns_per_load", "mem.latency", "latency", false, NULL},
    {"cpu_pct", "stream.cpu", "receiver CPU", false, NULL},
};

double nb_fit_factor(const struct nb_store_row *r, const char *name)
{
	for (size_t i = 0; i < r->ntags; i++)
		if (!strcmp(r->tags[i].key, name)) {
			char *end;
			double v = strtod(r->tags[i].value, &end);
			return *end || end == r->tags[i].value ? NAN : v;
		}
	if (!strcmp(name, "cpu_mhz"))
		return r->cpu_mhz;
	return NAN;
}

static const struct nb_view *find_view(const struct nb_fit_source *s, const char *id)
{
	for (size_t v = 0; v < s->nviews; v++)
		if (!strcmp(s->views[v].id, id))
			return &s->views[v];
	return NULL;
}

/* Appends one run; -ENOMEM. */
static int append(struct nb_fit_step *st, size_t factors, double y, const double *fx, size_t src)
{
	if (st->runs == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 8;
		double *ny = realloc(st->y, cap * sizeof(double));
		if (!ny)
			return -ENOMEM;
		st->y = ny;
		for (size_t j = 0; j < factors; j++) {
			double *nx = realloc(st->x_of[j], cap * sizeof(double));
			if (!nx)
				return -ENOMEM;
			st->x_of[j] = nx;
		}
		size_t *ns = realloc(st->source, cap * sizeof(size_t));
		if (!ns)
			return -ENOMEM;
		st->source = ns;
		st->cap = cap;
	}
	st->y[st->runs] = y;
	for (size_t j = 0; j < factors; j++)
		st->x_of[j][st->runs] = fx[j];
	st->source[st->runs++] = src;
	return 0;
}

static void step_free(struct nb_fit_step *st)
{
	free(st->y);
	for (size_t j = 0; j < NB_FIT_MAX_FACTORS; j++)
		free(st->x_of[j]);
	free(st->source);
}

/* The step of (series, x) (of a sweep: of the series), added when new; NULL on ENOMEM. */
static struct nb_fit_step *step(struct nb_fit_set *s, const struct nb_view *v, const char *series,
				double x, bool sweep)
{
	for (size_t i = 0; i < s->nsteps; i++) {
		struct nb_fit_step *st = &s->step[i];
		if (st->sweep == sweep && !strcmp(st->series, series) && (sweep || st->x == x))
			return st;
	}
	struct nb_fit_step *ns = realloc(s->step, (s->nsteps + 1) * sizeof(*ns));
	if (!ns)
		return NULL;
	s->step = ns;
	struct nb_fit_step *st = &s->step[s->nsteps++];
	memset(st, 0, sizeof(*st));
	snprintf(st->series, sizeof(st->series), "%s", series);
	st->x = x;
	st->sweep = sweep;
	if (sweep) {
		snprintf(st->name, sizeof(st->name), "%s", series);
	} else {
		char xb[32];
		nb_view_fmt_x(v, x, xb, sizeof(xb));
		snprintf(st->name, sizeof(st->name), "%s at %s %s", series, xb, v->x_unit);
	}
	return st;
}

static void fit_step(struct nb_fit_set *s, struct nb_fit_step *st, const char *says)
{
	const double *xs[NB_FIT_MAX_FACTORS];
	for (size_t j = 0; j < s->factors; j++)
		xs[j] = st->x_of[j];
	st->ret = s->linear ? nb_fit_linear(st->y, xs, s->factors, st->runs, s->names, &st->fit,
					    st->why, sizeof(st->why))
			    : nb_fit_loglog(st->y, xs, s->factors, st->runs, s->names, &st->fit,
					    st->why, sizeof(st->why));
	if (!st->ret)
		nb_fit_sentence(&st->fit, says, s->names, st->sentence, sizeof(st->sentence));
}

/* The reference: a CPU-bound probe tagged alike shows what "scales with the core" looks like on
 * this board, as `openssl speed` did for seed 000's user. crypto: the software engine's MB/s at
 * its largest request size; mem: loads per microsecond at the smallest working set (L1). */
static int references(struct nb_fit_set *s, const struct nb_fit_source *src, size_t n)
{
	static const struct {
		const char *view, *series, *says;
		bool largest, invert;
	} probes[] = {
	    {"crypto.mbyte", "soft", "software crypto MB/s", true, false},
	    {"mem.latency", "ns per load", "L1 loads/s", false, true},
	};
	for (size_t pr = 0; pr < sizeof(probes) / sizeof(probes[0]); pr++) {
		struct nb_fit_step *st = &s->ref[s->nref];
		memset(st, 0, sizeof(*st));
		for (size_t i = 0; i < n; i++) {
			const struct nb_view *v = find_view(&src[i], probes[pr].view);
			double fx[NB_FIT_MAX_FACTORS];
			bool all = v != NULL;
			for (size_t j = 0; j < s->factors && all; j++)
				all = isfinite(fx[j] = nb_fit_factor(src[i].row, s->factor[j]));
			for (size_t t = 0; all && t < v->nseries; t++) {
				const struct nb_series *se = &v->s[t];
				if (strcmp(se->name, probes[pr].series) || se->model || !se->n)
					continue;
				size_t best = 0;
				for (size_t p = 1; p < se->n; p++)
					if (probes[pr].largest ? se->x[p] > se->x[best]
							       : se->x[p] < se->x[best])
						best = p;
				double y = probes[pr].invert ? 1e3 / se->y[best] : se->y[best];
				if (append(st, s->factors, y, fx, i)) {
					step_free(st);
					return -ENOMEM;
				}
				break;
			}
		}
		if (!st->runs)
			continue;
		snprintf(st->name, sizeof(st->name), "reference, CPU-bound (%s)", probes[pr].says);
		fit_step(s, st, probes[pr].says);
		s->ref_says[s->nref++] = probes[pr].says;
	}
	return 0;
}

int nb_fit_set_make(const char *formula, bool linear, const struct nb_fit_source *src, size_t n,
		    struct nb_fit_set *out, char *why, size_t whylen)
{
	const struct metric *m = NULL;
	size_t rules_j = NB_FIT_MAX_FACTORS;

	memset(out, 0, sizeof(*out));
	int k = nb_fit_formula(formula, out->metric, out->factor, why, whylen);
	if (k < 0)
		return k;
	out->factors = (size_t)k;
	out->linear = linear;
	for (size_t j = 0; j < out->factors; j++) {
		out->names[j] = out->factor[j];
		if (!strcmp(out->factor[j], "rules"))
			rules_j = j;
	}
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (!strcmp(metrics[i].metric, out->metric))
			m = &metrics[i];
	if (!m) {
		snprintf(why, whylen,
			 "'%s' is not a metric that can be fitted (accepted: fps, ns_per_frame, "
			 "kbyte_per_s, mbyte_per_s, ns_per_load, cpu_pct)",
			 out->metric);
		return -EINVAL;
	}
	out->says = m->says;
	for (size_t i = 0; i < n; i++) {
		double fx[NB_FIT_MAX_FACTORS];
		/* A rule sweep is its own set of runs when "rules" is a factor and no tag gives it.
		 */
		bool sweep = m->sweep_view && rules_j < out->factors &&
			     isnan(nb_fit_factor(src[i].row, "rules")) &&
			     find_view(&src[i], m->sweep_view);
		const struct nb_view *v = find_view(&src[i], sweep ? m->sweep_view : m->view);
		bool all = v != NULL;
		if (!v)
			continue;
		for (size_t j = 0; j < out->factors && all; j++)
			all = (sweep && j == rules_j) ||
			      isfinite(fx[j] = nb_fit_factor(src[i].row, out->factor[j]));
		if (!all) {
			out->left_out++;
			continue;
		}
		for (size_t s = 0; s < v->nseries; s++) {
			const struct nb_series *se = &v->s[s];
			if (se->model)
				continue;
			for (size_t p = 0; p < se->n; p++) {
				struct nb_fit_step *st = step(out, v, se->name, se->x[p], sweep);
				if (!st)
					goto nomem;
				/* One run per result and step: a result that holds a step twice
				 * is one run, measured once. */
				if (!sweep && st->runs && st->source[st->runs - 1] == i)
					continue;
				if (sweep)
					fx[rules_j] = se->x[p];
				if (append(st, out->factors, m->invert ? 1e9 / se->y[p] : se->y[p],
					   fx, i))
					goto nomem;
			}
		}
	}
	if (!out->nsteps) {
		snprintf(why, whylen, "no chosen result has %s (%s results%s)", out->metric,
			 m->view, m->sweep_view ? ", or a rule sweep with the factor rules" : "");
		nb_fit_set_free(out);
		return -ENOENT;
	}
	for (size_t i = 0; i < out->nsteps; i++) {
		fit_step(out, &out->step[i], m->says);
		out->fitted += out->step[i].ret == 0;
	}
	if (!linear && references(out, src, n))
		goto nomem;
	return 0;
nomem:
	snprintf(why, whylen, "out of memory");
	nb_fit_set_free(out);
	return -ENOMEM;
}

void nb_fit_set_free(struct nb_fit_set *s)
{
	for (size_t i = 0; i < s->nsteps; i++)
		step_free(&s->step[i]);
	for (size_t i = 0; i < s->nref; i++)
		step_free(&s->ref[i]);
	free(s->step);
	s->step = NULL;
	s->nsteps = s->nref = 0;
}
