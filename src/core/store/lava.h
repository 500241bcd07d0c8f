/* SPDX-License-Identifier: BSD-2-Clause */
/* A result's figures as LAVA test cases: one `lava-test-case NAME --result pass --measurement
 * VALUE --units UNIT` line per measured point of every view, with names that stay the same
 * from run to run (test, view, series and x value), so LAVA's charts follow each figure across
 * jobs. Names and units keep to letters, digits, '.', '_', '-' (units also '/' and '%'): LAVA
 * passes them on as space-separated KEY=VALUE words of a signal. */
#ifndef NB_LAVA_H
#define NB_LAVA_H

#include <stdio.h>

#include "core/store/views.h"

/* Writes the lines for views[0..n) to out; prefix (may be NULL or "") starts every name, e.g.
 * the board's label. Points whose value is not finite are left out. Returns the lines written. */
size_t nb_lava_cases(FILE *out, const char *prefix, const char *test, const struct nb_view *views,
		     size_t n);

/* name: any text; out: the same kept to the case-name alphabet, other bytes as '_', runs of
 * '_' folded, at most len - 1 bytes. */
void nb_lava_name(const char *name, char *out, size_t len);

#endif
