/* SPDX-License-Identifier: BSD-2-Clause */
/* compare and report at a farm's scale: stored results laid out on two chosen axes (the label,
 * the host, the view's swept size, or a tag such as kernel=6.1), one table per combination of
 * what is on neither axis (a size, a label, another tag that differs), so that runs of different
 * settings are never averaged. A cell is the mean of the runs that share its row and column
 * (95 % interval, Student's t); a baseline column gives each cell its ratio to the same row's
 * baseline cell. Pure logic: the tables are compare's (core/store/compare.h). */
#ifndef NB_PIVOT_H
#define NB_PIVOT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/store/compare.h"
#include "core/store/facts.h"
#include "core/store/store.h"
#include "core/store/views.h"

enum nb_piv_kind { NB_PIV_LABEL, NB_PIV_HOST, NB_PIV_SIZE, NB_PIV_TAG };

struct nb_piv_axis {
	enum nb_piv_kind kind;
	char key[NB_STORE_TAG_KEY_MAX]; /* the tag key (NB_PIV_TAG), or the axis' name */
};

/* "label", "host", "size" (the view's x: frame, block, request or working-set size), or any
 * other word: the tag of that key (kernel and arch: the tag, or for a result without it the
 * measured platform's). Returns 0, or -EINVAL for an empty or malformed key. */
int nb_piv_axis_parse(const char *text, struct nb_piv_axis *a);

struct nb_piv_entry {
	long long id;
	const char *label; /* "" or NULL: the result is known as "#ID" */
	const char *host;
	const struct nb_store_tag *tags;
	size_t ntags;
	const struct nb_facts *env; /* the measured end; NULL unknown */
	const struct nb_view *view; /* this result's view with the tables' id */
};

/* An axis' value of entry e at x (the point's x for NB_PIV_SIZE): "-" where the result has none. */
void nb_piv_value(const struct nb_piv_axis *a, const struct nb_piv_entry *e, double x, char *buf,
		  size_t len);

/* Compares two axis values as a person orders them: runs of digits by their number ("board2"
 * before "board10", "6.1" before "6.10"), the rest by bytes. */
int nb_piv_natcmp(const char *a, const char *b);

/* Builds the tables of entries that all have one view id: rows and columns on the two axes
 * (sorted: sizes by number, others with nb_piv_natcmp), one table per combination of what is on
 * neither axis. baseline: a column value or NULL. Returns 0, -ENOENT when baseline is not a
 * value of the column axis in any table, -EINVAL when both axes are the same, -ENOMEM. */
int nb_piv_build(const struct nb_piv_entry *e, size_t n, const struct nb_piv_axis *rows,
		 const struct nb_piv_axis *cols, const char *baseline, struct nb_cmp_table ***out,
		 size_t *ntables);
void nb_piv_free(struct nb_cmp_table **t, size_t n);

#endif
