/* SPDX-License-Identifier: BSD-2-Clause */
/* The words and charts of a fit set, the same in compare --fit and report --fit: the fits
 * src/core/store/fit_runs.c makes, one per step of a view (a frame size, a block size and
 * direction, a rule-sweep series). */
#include "core/store/fit_out.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/store/fit_chart.h"

/* Each factor's chart of one step's fit; the other factors held at their geometric means. */
static int charts(FILE *svg, const struct nb_fit_set *s, const struct nb_fit_step *st,
		  const struct nb_fit *ref, const char *ref_says)
{
	const struct nb_fit *f = &st->fit;
	double at[NB_FIT_MAX_FACTORS];
	for (size_t j = 0; j < f->factors; j++) {
		at[j] = 0;
		for (size_t i = 0; i < st->runs; i++)
			at[j] += f->linear ? st->x_of[j][i] : log(st->x_of[j][i]);
		at[j] /= (double)st->runs;
		if (!f->linear)
			at[j] = exp(at[j]);
	}
	for (size_t j = 0; j < f->factors; j++) {
		char title[200];
		snprintf(title, sizeof(title), "%s against %s: %s", s->says, s->names[j], st->name);
		struct nb_fit_chart c = {.title = title,
					 .metric = s->says,
					 .factor = s->names[j],
					 .x = st->x_of[j],
					 .y = st->y,
					 .runs = st->runs,
					 .j = j,
					 .fit = f,
					 .at = at,
					 .ref = ref,
					 .ref_name = ref_says};
		fprintf(svg, "<section class=\"view fit\" data-view=\"fit:%s\">\n<figure>\n",
			s->names[j]);
		int ret = nb_fit_chart_svg(svg, &c);
		if (ret)
			return ret;
		fputs("</figure>\n</section>\n", svg);
	}
	return 0;
}

/* A step's sentence, and the result behind each run a coefficient rests on alone. */
static void print_step(FILE *text, const struct nb_fit_step *st, const struct nb_fit_who *who)
{
	fprintf(text, "  %s: ", st->name);
	if (st->ret) {
		fprintf(text, "no fit: %s\n", st->why);
		return;
	}
	fprintf(text, "%s\n", st->sentence);
	const struct nb_ols *o = &st->fit.ols;
	for (size_t c = 1; c <= st->fit.factors; c++) {
		bool told = false;
		if (!st->fit.dof || o->pinned_runs[c] != 1)
			continue;
		for (size_t d = 1; d < c; d++)
			told |= o->pinned_runs[d] == 1 && o->pinned_run[d] == o->pinned_run[c];
		if (told)
			continue;
		const struct nb_fit_who *r = &who[st->source[o->pinned_run[c]]];
		fprintf(text, "    run %zu is result %lld (%s)\n", o->pinned_run[c] + 1,
			(long long)r->id, r->group);
	}
}

void nb_fit_write_text(FILE *text, const struct nb_fit_set *s, const struct nb_fit_who *who)
{
	fprintf(text, "fit %s ~ %s", s->metric, s->names[0]);
	for (size_t j = 1; j < s->factors; j++)
		fprintf(text, " + %s", s->names[j]);
	if (s->linear)
		fprintf(text,
			": linear least squares, %s = c + b x %s%s; each slope with its 95 %% "
			"interval (Student's t on the residual degrees of freedom)\n",
			s->metric, s->names[0], s->factors > 1 ? " + ..." : "");
	else
		fprintf(text,
			": log-log least squares, %s = C x %s^e%s; each exponent with its 95 %% "
			"interval (Student's t on the residual degrees of freedom)\n",
			s->metric, s->names[0], s->factors > 1 ? " x ..." : "");
	for (size_t i = 0; i < s->nsteps; i++)
		print_step(text, &s->step[i], who);
	if (s->left_out)
		fprintf(text,
			"(%zu result%s without every factor as a finite number (a tag, or cpu_mhz) "
			"left out)\n",
			s->left_out, s->left_out == 1 ? "" : "s");
	for (size_t i = 0; i < s->nref; i++)
		print_step(text, &s->ref[i], who);
}

int nb_fit_write_charts(FILE *svg, const struct nb_fit_set *s)
{
	const struct nb_fit *ref = NULL;
	const char *ref_says = NULL;
	int ret;

	for (size_t i = 0; i < s->nref && !ref; i++)
		if (!s->ref[i].ret) {
			ref = &s->ref[i].fit;
			ref_says = s->ref_says[i];
		}
	for (size_t i = 0; i < s->nsteps; i++)
		if (!s->step[i].ret && (ret = charts(svg, s, &s->step[i], ref, ref_says)))
			return ret;
	return 0;
}
