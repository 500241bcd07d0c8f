/* SPDX-License-Identifier: BSD-2-Clause */
/* Side-by-side tables of stored results. Results with the same group (their label) are
 * repeated runs: a cell holds their mean and spread (half the range). With a baseline group,
 * cells become ratios to it, and a difference is flagged only when it exceeds both groups'
 * spreads together. Pure logic: no store, no printing except into the FILE the caller gives. */
#ifndef NB_COMPARE_H
#define NB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/base/json.h"
#include "core/store/views.h"

struct nb_cmp_entry {
	const char *group;	    /* label, or "#ID" without one */
	const char *facts;	    /* "kernel, driver" for by-result rows; may be NULL */
	const struct nb_view *view; /* this result's view with the table's id */
};

struct nb_cmp_cell {
	bool has;
	double mean, spread; /* spread: half the range of the runs; 0 for one run */
	unsigned runs;
	double ratio; /* to the baseline's cell; NAN without one */
	bool differs; /* beyond both spreads */
	bool is_base; /* the baseline's own cell: shown as a value, not a ratio */
};

#define NB_CMP_MAX_NOTES 32

struct nb_cmp_table {
	char id[32], title[96], corner[80], unit[24];
	bool by_result, has_baseline, lower_is_better;
	char baseline[128];
	size_t nrows, ncols;
	char (*row)[128];
	char (*col)[96];
	double *xval;		  /* the x of each row (or, by result, of each column) */
	struct nb_cmp_cell *cell; /* nrows x ncols, row-major */
	size_t nnotes;
	char notes[NB_CMP_MAX_NOTES][240];
};

/* Builds the table for entries (all with one view id). baseline: a group name or NULL.
 * Returns 0, -ENOENT when the baseline group has no entry, -ENOMEM. */
int nb_cmp_build(const struct nb_cmp_entry *e, size_t n, const char *baseline,
		 struct nb_cmp_table **out);
void nb_cmp_table_free(struct nb_cmp_table *t);
static inline struct nb_cmp_cell *nb_cmp_at(const struct nb_cmp_table *t, size_t r, size_t c)
{
	return &t->cell[r * t->ncols + c];
}

/* Aligned text, one line per row; "±" spread with repeated runs, "*" on a difference. */
void nb_cmp_write_text(FILE *f, const struct nb_cmp_table *t);
/* One line per cell: view,row,column,unit,mean,spread,runs,ratio,differs (CSV header first
 * when header is true). */
void nb_cmp_write_csv(FILE *f, const struct nb_cmp_table *t, bool header);
void nb_cmp_write_json(struct nb_json *j, const struct nb_cmp_table *t);
/* CSV field quoting (RFC 4180). */
void nb_csv_field(FILE *f, const char *s);

#endif
