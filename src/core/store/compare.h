/* SPDX-License-Identifier: BSD-2-Clause */
/* Side-by-side tables of stored results. Results with the same group (label, and the tags that
 * differ within it) are repeated runs: a cell holds their number, mean and the 95 % interval of
 * the mean (Student's t). With a baseline group each cell also gets its ratio to the baseline's
 * and, when both sides have repeated runs, the 95 % interval of that ratio; a difference is
 * flagged only when that interval excludes 1. Pure logic: no store, no printing except into the
 * FILE the caller gives. */
#ifndef NB_COMPARE_H
#define NB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/base/json.h"
#include "core/store/facts.h"
#include "core/store/runs.h"
#include "core/store/views.h"

struct nb_cmp_entry {
	const char *group;	    /* label (with differing tags), or "#ID" without one */
	const struct nb_facts *env; /* the result's measured end; NULL: unknown */
	const struct nb_view *view; /* this result's view with the table's id */
};

struct nb_cmp_cell {
	bool has;
	struct nb_runs runs_stat; /* the runs' values: n, mean, variance */
	double mean;
	double spread; /* half-width of the 95 % interval of the mean; NAN for one run */
	unsigned runs;
	unsigned polluted;		/* runs whose CPU window was polluted by other processes */
	double ratio;			/* to the baseline's cell; NAN without one */
	double ratio_lo, ratio_hi;	/* its 95 % interval; NAN unless both sides repeat */
	bool judged;			/* both sides have two runs or more */
	bool differs;			/* judged, and the ratio's interval excludes 1 */
	bool is_base;			/* the baseline's own cell: shown as a value, not a ratio */
	const struct nb_cmp_cell *base; /* the baseline's cell it was compared with, or NULL */
};

#define NB_CMP_MAX_NOTES 32

/* A line is what one group's series draws: a column (x by results) or a row (results by x). */
struct nb_cmp_line {
	size_t group;
	char series[48];
	struct nb_facts env; /* the end it was measured on */
	bool own_env;	     /* a receiver of its own, named in the line */
};

struct nb_cmp_table {
	char id[32], title[320], corner[80], unit[24];
	char x_name[32], x_unit[16]; /* the view's x axis, for naming a metric */
	bool by_result, has_baseline, lower_is_better;
	/* Laid out on chosen axes (core/store/pivot.h): each row is a group of its own, a cell the
	 * runs sharing its row and column; group_runs is the most runs any cell has. */
	bool pivot;
	char baseline[128];
	size_t nrows, ncols;
	char (*row)[512];
	char (*col)[96];
	double *xval;		  /* the x of each row (or, by result, of each column) */
	struct nb_cmp_cell *cell; /* nrows x ncols, row-major */
	size_t ngroups;
	char (*group)[192];
	char (*gkey)[12];	  /* short name of each group in column names ("A"), or "" */
	unsigned *group_runs;	  /* results of each group in this table */
	struct nb_cmp_line *line; /* ncols lines (x by results) or nrows (results by x) */
	size_t nnotes;
	char notes[NB_CMP_MAX_NOTES][240];
};

/* The notes of one group's runs (NULL or "" for a run without one): when they fall in two or
 * more classes (a note's text up to its first ':' or ';'), out gets "the runs disagree: 2 of 3
 * runs: X, 1: Y; the group's verdict is not established (...)". Returns the number of classes
 * (out is "" below 2). */
size_t nb_cmp_disagreement(const char *const *notes, size_t n, char *out, size_t outlen);

/* Builds the table for entries (all with one view id). baseline: a group name or NULL.
 * Returns 0, -ENOENT when the baseline group has no entry, -ENOMEM. */
int nb_cmp_build(const struct nb_cmp_entry *e, size_t n, const char *baseline,
		 struct nb_cmp_table **out);
void nb_cmp_table_free(struct nb_cmp_table *t);
/* A cell's runs, mean and spread from its runs_stat (has: any run); its ratio unset (NaN). */
void nb_cmp_cell_summarize(struct nb_cmp_cell *c);
/* Sets x's ratio to base (and its interval when both sides repeat); base may be x itself. */
void nb_cmp_set_ratio(struct nb_cmp_cell *x, const struct nb_cmp_cell *base);
static inline struct nb_cmp_cell *nb_cmp_at(const struct nb_cmp_table *t, size_t r, size_t c)
{
	return &t->cell[r * t->ncols + c];
}
/* The line of cell (r, c). */
static inline const struct nb_cmp_line *nb_cmp_line_of(const struct nb_cmp_table *t, size_t r,
						       size_t c)
{
	return &t->line[t->by_result ? r : c];
}

/* A number in fixed point with about four significant digits, never in e-notation: 74650,
 * 87.90, 1.234, 0.01230. */
void nb_cmp_fmt_num(double v, char *buf, size_t len);

/* Aligned text for a mailing-list post: fixed-point numbers, "±" the 95 % interval with
 * repeated runs, the ratio beside the value with a baseline, marks and their footnotes. */
void nb_cmp_write_text(FILE *f, const struct nb_cmp_table *t);
/* One line per cell: view,row,column,unit,mean,ci95,runs,ratio,ratio_lo,ratio_hi,differs,
 * polluted (CSV header first when header is true). */
void nb_cmp_write_csv(FILE *f, const struct nb_cmp_table *t, bool header);
void nb_cmp_write_json(struct nb_json *j, const struct nb_cmp_table *t);
/* CSV field quoting (RFC 4180). */
void nb_csv_field(FILE *f, const char *s);

#endif
