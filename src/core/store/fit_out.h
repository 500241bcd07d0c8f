/* SPDX-License-Identifier: BSD-2-Clause */
/* The words and charts of a fit set (compare --fit, report --fit): the header sentence, each
 * step's sentence with the results a coefficient rests on alone, what was left out, the
 * reference probes; and for the report each fitted step's chart per factor. */
#ifndef NB_FIT_OUT_H
#define NB_FIT_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "core/store/fit_runs.h"

/* Who a result is, for naming a run: its store id and its group (label and tags). */
struct nb_fit_who {
	int64_t id;
	const char *group;
};

/* The sentences; who[i] names the result of the set's source i. */
void nb_fit_write_text(FILE *text, const struct nb_fit_set *s, const struct nb_fit_who *who);

/* One chart per factor of every fitted step, each in its report section, with the first fitted
 * reference probe's line. Returns 0, or the first chart's -errno (nb_fit_chart_svg). */
int nb_fit_write_charts(FILE *svg, const struct nb_fit_set *s);

#endif
