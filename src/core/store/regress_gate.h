/* SPDX-License-Identifier: BSD-2-Clause */
/* The regression gate: for each cell of a compare table with a baseline, is the compared value
 * worse than the baseline's by more than a threshold, and is that established? "Worse" follows
 * the view's direction (throughput up; latency, CPU time and cycles down). With repeated runs on
 * both sides the 95 % interval of the ratio must lie wholly beyond the threshold; with one run on
 * a side significance cannot be judged, and the point value gates only when asked. Pure: the
 * verdict and its sentence are decided here, and every writer renders them. */
#ifndef NB_REGRESS_GATE_H
#define NB_REGRESS_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/store/compare.h"

enum nb_gate_verdict {
	NB_GATE_PASS,	    /* not worse beyond the threshold, or not established */
	NB_GATE_FAIL,	    /* worse beyond the threshold, the interval says so */
	NB_GATE_POINT_FAIL, /* one run on a side, the point value beyond it, gated on points */
	NB_GATE_NOT_JUDGED, /* one run on a side, the point value beyond it, not gated */
	NB_GATE_UNSEEN,	    /* points of a result the view could not hold: the gate refuses */
};

struct nb_gate_opts {
	double worse_pct; /* the threshold, in % of the baseline's value (> 0) */
	bool gate_point;  /* gate single runs on their point value */
};

struct nb_gate_row {
	enum nb_gate_verdict verdict;
	char view[32], unit[24], metric[200], group[192];
	double value, base, ratio, lo, hi; /* lo, hi: NAN with one run on a side */
	unsigned runs, base_runs;
	double worse_pct; /* how much worse the point value is (negative: better) */
	bool uncertain;	  /* a pass the data cannot establish (one run, or the interval
			   * includes the threshold): printed with the deciding rows */
	char sentence[400];
};

/* The verdict of one cell against its baseline cell. */
void nb_gate_decide(const struct nb_cmp_cell *x, const struct nb_cmp_cell *base,
		    bool lower_is_better, const struct nb_gate_opts *o, struct nb_gate_row *out);

/* Appends the verdicts of every compared cell of t (a table built with a baseline) to rows
 * (grown with realloc). Returns 0 or -ENOMEM. */
int nb_gate_table(const struct nb_cmp_table *t, const struct nb_gate_opts *o,
		  struct nb_gate_row **rows, size_t *n);

/* Appends one NB_GATE_UNSEEN row per entry whose view lost points (its document held more
 * series or points than a view keeps, NB_VIEW_MAX_SERIES x NB_VIEW_MAX_POINTS): the caps are
 * for drawing, and the gate never passes what it did not look at. Returns 0 or -ENOMEM. */
int nb_gate_unseen(const struct nb_cmp_entry *e, size_t ne, struct nb_gate_row **rows, size_t *n);

/* Does this verdict fail the gate (a regression, established or on the point value)? */
bool nb_gate_fails(enum nb_gate_verdict v);
const char *nb_gate_verdict_name(enum nb_gate_verdict v);

/* JUnit XML: one testsuite, one testcase per metric (classname the view, name the metric and
 * group), a failure element with the numbers for each failing verdict, skipped for a verdict
 * that could not be judged, an error for points the gate could not see (NB_GATE_UNSEEN); the
 * counts are those of the testcases. */
void nb_gate_write_junit(FILE *f, const struct nb_gate_row *rows, size_t n,
			 const struct nb_gate_opts *o, const char *baseline);

#endif
