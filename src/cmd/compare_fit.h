/* SPDX-License-Identifier: BSD-2-Clause */
/* compare --fit: what a stored metric follows across results tagged with numbers. */
#ifndef NB_COMPARE_FIT_H
#define NB_COMPARE_FIT_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd/store_cli.h"

/* Prints one fit per step; returns the exit status (1 when no step could be fitted). */
/* linear: metric = c + b x factor ... instead of the log-log fit (no reference row). */
/* The sentences go to text; with svg, each fit's charts too (one per factor, for the report). */
int compare_fit(const char *formula, bool linear, const struct loaded *l, size_t n, FILE *text,
		FILE *svg);

#endif
