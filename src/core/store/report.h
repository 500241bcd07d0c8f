/* SPDX-License-Identifier: BSD-2-Clause */
/* The HTML report: one self-contained page (inline CSS and SVG, no scripts, fonts or links to
 * anything outside it), one section per view with its chart, the platform facts of every result
 * drawn in it, and the notes (verdicts, crossovers, fits). */
#ifndef NB_REPORT_H
#define NB_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/store/views.h"

struct nb_report_item {
	int64_t id;
	const char *group; /* label, or "#ID" */
	const char *test, *time_utc, *host, *kernel, *arch, *cpu_model, *driver;
	double cpu_mhz; /* NAN when unknown */
	const struct nb_view *views;
	size_t nviews;
};

/* Writes the page. Returns 0 or -ENOMEM. */
int nb_report_html(FILE *f, const struct nb_report_item *it, size_t n, const char *title,
		   const char *generated);

#endif
