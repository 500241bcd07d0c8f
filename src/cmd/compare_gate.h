/* SPDX-License-Identifier: BSD-2-Clause */
/* compare's regression gate (--fail-if-worse): prints the deciding rows and writes the JUnit
 * file; the verdicts themselves are core/store/gate.c's. */
#ifndef NB_COMPARE_GATE_H
#define NB_COMPARE_GATE_H

#include <stdio.h>

#include "core/base/json.h"
#include "core/store/regress_gate.h"

/* Prints the summary and every failing or unjudged row to out (and, with j, a "gate" member);
 * writes junit when not NULL (beside it, renamed over it). Returns the exit status: 1 when a
 * metric fails the gate or nothing could be gated, else 0. */
int compare_gate_report(FILE *out, struct nb_json *j, const struct nb_gate_row *rows, size_t n,
			const struct nb_gate_opts *o, const char *baseline, const char *junit);

#endif
