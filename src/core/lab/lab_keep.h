/* SPDX-License-Identifier: BSD-2-Clause */
/* Keeping the DUT's ruleset across a rule sweep (lab_keep.c). */
#ifndef NB_LAB_KEEP_H
#define NB_LAB_KEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/lab_rules.h"
#include "core/lab/lab_base.h"

/* The DUT's ruleset kept across a rule sweep (lab_keep.c): the sweep replaces it point by
 * point and flushes it at the end; keep reads it before (nft list ruleset in the DUT's
 * namespace, and the lab's record), restore loads it back in one transaction and checks the
 * rule and set-element counts read back against those read before. A board DUT's ruleset is
 * read back as counts only (its control port lists nothing else): it is kept as the lab's
 * record of the ruleset the lab generated, regenerated on restore, or as an empty DUT; keep
 * refuses any other (-ENOTSUP, lab->err saying why), before the sweep changes anything. */
struct nb_lab_kept {
	char *script; /* nft list ruleset, as read (NULL for a board DUT) */
	size_t rules, elems;
	bool recorded; /* the lab's record: kind, rules_n and family */
	char kind[16];
	size_t rules_n;
	bool ipv6;
	bool board;		       /* a board DUT: restored from the record, or flushed */
	struct nb_lab_rules generated; /* a board DUT's recorded ruleset, when recorded */
};
int nb_lab_ruleset_keep(struct nb_lab *lab, struct nb_lab_kept *k);
int nb_lab_ruleset_restore(struct nb_lab *lab, const struct nb_lab_kept *k, size_t *rules);
void nb_lab_kept_free(struct nb_lab_kept *k);

#endif
