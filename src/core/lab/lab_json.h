/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench lab's JSON documents (schema netbench/1, test "lab"): one per verb, built here as
 * text that the front end prints with -J. */
#ifndef NB_LAB_JSON_H
#define NB_LAB_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/lab_fit.h"
#include "core/base/lab_rules.h"
#include "core/lab/lab.h"

/* Each returns the whole document, ending in a newline, in a malloc'd string (free it): 0 or
 * -ENOMEM. */
/* lab up, after it succeeded. */
int nb_lab_up_doc_text(const struct nb_lab *lab, char **text, size_t *len);
/* lab down: how many of the lab's objects it found (and removed). */
int nb_lab_down_doc_text(const struct nb_lab *lab, unsigned found, char **text, size_t *len);
/* lab status: what nb_lab_status read. */
int nb_lab_status_doc_text(const struct nb_lab *lab, const struct nb_lab_status *st, char **text,
			   size_t *len);
/* lab ruleset: r loaded (r NULL: flushed), and the rules and set elements read back. */
int nb_lab_ruleset_doc_text(const struct nb_lab *lab, const struct nb_lab_rules *r, size_t rules,
			    size_t elems, char **text, size_t *len);
/* lab fit: the n points (rule counts, frames/s) and their fit; no lab, so no prefix. */
int nb_lab_fit_doc_text(const double *rules, const double *fps, size_t n,
			const struct nb_lab_fit *fit, char **text, size_t *len);

#endif
