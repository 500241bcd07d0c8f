/* SPDX-License-Identifier: BSD-2-Clause */
/* The HTML report: one self-contained page (inline CSS and SVG, no scripts, fonts or links to
 * anything outside it), one section per view with its chart (a rule sweep: one chart per frame
 * size), the platform facts of every result drawn in it, and the notes (verdicts, crossovers,
 * fits). Repeated runs of a label are drawn at their mean with a 95 % interval; the captions
 * say what each chart and the page hold. */
#ifndef NB_REPORT_H
#define NB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/store/compare.h"
#include "core/store/views.h"

struct nb_report_item {
	int64_t id;
	const char *group; /* label, or "#ID" */
	const char *test, *time_utc, *host, *kernel, *arch, *cpu_model, *driver;
	double cpu_mhz;	  /* NAN when unknown */
	const char *virt; /* the measured end's env "virtualization": NULL unknown, "none", or
			   * what runs it ("qemu-user ppc on x86_64", "vm tcg") */
	const struct nb_view *views;
	size_t nviews;
};

/* True when the platform is not a board: its virtualization is known and not "none". */
bool nb_report_not_a_board(const char *virt);

/* Writes the page; extra_html (NULL: none), e.g. the fit's sections, goes after the views.
 * Returns 0, -ENOMEM, or -ERANGE when a view holds a value no chart axis takes (err names the
 * view, its results and the value). */
int nb_report_html_err(FILE *f, const struct nb_report_item *it, size_t n, const char *title,
		       const char *generated, const char *extra_html, char *err, size_t errlen);
static inline int nb_report_html(FILE *f, const struct nb_report_item *it, size_t n,
				 const char *title, const char *generated, const char *extra_html)
{
	return nb_report_html_err(f, it, n, title, generated, extra_html, NULL, 0);
}

/* report --trend: per table of compare's chosen axes (columns: a tag's values in order) a
 * section with charts of at most 8 rows each (one line per row, the 95 % interval as error
 * bars) and the table as text; the caller gives it to nb_report_html_err as extra_html.
 * Returns 0, -ENOMEM or -ERANGE (err names the value no axis takes). */
int nb_report_trend_html(FILE *f, struct nb_cmp_table *const *t, size_t nt, char *err,
			 size_t errlen);

#endif
