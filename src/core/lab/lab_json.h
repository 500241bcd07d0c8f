/* SPDX-License-Identifier: BSD-2-Clause */
/* The documents of `lab up`, `down`, `status`, `ruleset` and `fit`: the result frame every
 * document has, the action, the lab's namespaces and what the action found or made. The front
 * end fills one nb_lab_doc and prints or keeps the text. */
#ifndef NB_LAB_JSON_H
#define NB_LAB_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/sysinfo.h"
#include "core/lab/lab.h"
#include "core/lab/lab_fit.h"
#include "core/lab/lab_rules.h"

struct nb_lab_doc {
	const char *action; /* "up", "down", "status", "ruleset" or "fit" */
	const struct nb_sysinfo *local;
	const struct nb_lab *lab;	   /* NULL for fit: a fit uses no lab */
	unsigned found;			   /* down: objects found */
	long board_pid;			   /* up: the board's qemu (status: st->board_pid) */
	bool exists;			   /* status: any namespace or state file is there */
	const struct nb_lab_status *st;	   /* status */
	const struct nb_lab_rules *rules;  /* ruleset; NULL: flushed (kind "none", 0 rules) */
	size_t rules_loaded, elems;	   /* ruleset: what the DUT holds */
	const double *fit_rules, *fit_fps; /* fit: the points */
	size_t fit_n;
	const struct nb_lab_fit *fit;
};

/* The document in a malloc'd string ending in a newline. Returns 0 or -ENOMEM. */
int nb_lab_doc_text(const struct nb_lab_doc *d, char **text, size_t *len);

#endif
