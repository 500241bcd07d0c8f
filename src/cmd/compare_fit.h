/* SPDX-License-Identifier: BSD-2-Clause */
/* compare --fit: what a stored metric follows across results tagged with numbers. */
#ifndef NB_COMPARE_FIT_H
#define NB_COMPARE_FIT_H

#include "cmd/store_cli.h"

/* Prints one fit per step; returns the exit status (1 when no step could be fitted). */
int compare_fit(const char *formula, const struct loaded *l, size_t n);

#endif
