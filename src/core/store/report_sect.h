/* SPDX-License-Identifier: BSD-2-Clause */
/* Private to the report's files: a view's section (its entries, units, colours) and the lines
 * drawn in one of its charts, shared by the page (report.c), the section with its charts, facts
 * and notes (report_section.c) and the lines computed from the runs (report_lines.c). */
#ifndef NB_REPORT_SECT_H
#define NB_REPORT_SECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/store/report.h"

/* Beyond this many measured lines a chart says it cannot be read and how to narrow it. */
#define NB_REPORT_LINES_READABLE 16

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

bool nb_report_has_view(const struct nb_report_item *it, const char *view_id);
/* Runs of item i's group (having the view; NULL: any); first: i is the group's first. */
size_t nb_report_group_runs(const struct nb_report_item *it, size_t n, size_t i,
			    const char *view_id, bool *first);
/* The lines of one facet (facet 0: a view without facets); freed by nb_report_lines_free. */
int nb_report_build_lines(struct section *s, bool faceted, double facet, struct line **out,
			  size_t *nout);
void nb_report_lines_free(struct line *l, size_t n);
/* qsort's order of doubles, ascending. */
int nb_report_cmp_double(const void *a, const void *b);
/* One view's section: its charts (one per facet), the facts of its results and its notes. */
int nb_report_section(FILE *f, const struct nb_report_item *it, size_t n, const char *view_id,
		      char *err, size_t errlen);

#endif
