/* SPDX-License-Identifier: BSD-2-Clause */
/* A fit's chart: the metric against one factor with the fitted line (dashed) and the reference
 * probe's line: a CPU-bound metric's exponent on the factor, drawn through the runs' geometric
 * centre, so its slope shows what "scales with this factor" looks like beside the fit's. */
#include "core/store/fit_chart.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/chart.h"

int nb_fit_chart_lines(const struct nb_fit_chart *c, double x[2], double fit_y[2], double ref_y[2])
{
	double lx = 0, ly = 0;
	if (!c->runs)
		return -EINVAL;
	x[0] = x[1] = c->x[0];
	for (size_t i = 0; i < c->runs; i++) {
		x[0] = fmin(x[0], c->x[i]);
		x[1] = fmax(x[1], c->x[i]);
		lx += c->fit->linear ? c->x[i] : log(c->x[i]);
		ly += c->fit->linear ? c->y[i] : log(c->y[i]);
	}
	lx /= (double)c->runs;
	ly /= (double)c->runs;
	nb_fit_line(c->fit, c->j, c->at, x, fit_y);
	if (c->ref && !c->fit->linear)
		for (size_t i = 0; i < 2; i++)
			ref_y[i] = exp(ly + c->ref->exponent[c->j] * (log(x[i]) - lx));
	return 0;
}

int nb_fit_chart_svg(FILE *f, const struct nb_fit_chart *c)
{
	double x[2], fy[2], ry[2];
	if (nb_fit_chart_lines(c, x, fy, ry))
		return -EINVAL;
	double *sx = malloc(c->runs * sizeof(double)), *sy = malloc(c->runs * sizeof(double));
	if (!sx || !sy) {
		free(sx);
		free(sy);
		return -ENOMEM;
	}
	/* The runs in order of the factor, so that their line reads left to right. */
	for (size_t i = 0; i < c->runs; i++) {
		size_t k = i;
		while (k > 0 && sx[k - 1] > c->x[i]) {
			sx[k] = sx[k - 1];
			sy[k] = sy[k - 1];
			k--;
		}
		sx[k] = c->x[i];
		sy[k] = c->y[i];
	}
	bool ref = c->ref && !c->fit->linear;
	char ref_name[96];
	snprintf(ref_name, sizeof(ref_name), "reference: %s", c->ref_name ? c->ref_name : "probe");
	struct nb_chart_series s[3] = {
	    {.name = "runs", .x = sx, .y = sy, .n = c->runs},
	    {.name = "fit", .x = x, .y = fy, .n = 2, .dashed = true},
	    {.name = ref_name, .x = x, .y = ry, .n = 2, .dashed = true},
	};
	struct nb_chart ch = {.title = c->title,
			      .x_label = c->factor,
			      .y_label = c->metric,
			      .x_log = !c->fit->linear,
			      .y_log = !c->fit->linear,
			      .s = s,
			      .ns = ref ? 3 : 2};
	int ret = nb_chart_svg(f, &ch);
	free(sx);
	free(sy);
	return ret;
}
