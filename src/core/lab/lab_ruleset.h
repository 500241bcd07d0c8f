/* SPDX-License-Identifier: BSD-2-Clause */
/* Loading rulesets into the DUT (a namespace's nft, or a board's control port), reading the
 * rule count back, and the lab's record of what it loaded. */
#ifndef NB_LAB_RULESET_H
#define NB_LAB_RULESET_H

#include <stddef.h>

#include "core/base/lab_rules.h"
#include "core/lab/lab_base.h"

/* Loads r into the DUT with nft -f from a temporary file and reads the rule count back.
 * -EPROTO with lab->err holding nft's message when nft rejects the rules; -EIO when the read
 * back count differs from the expected one. */
int nb_lab_ruleset(struct nb_lab *lab, const struct nb_lab_rules *r, size_t *rules, size_t *elems);
/* Removes every rule from the DUT (nft flush ruleset). */
int nb_lab_ruleset_flush(struct nb_lab *lab);
/* The lab's record of the ruleset it loaded (lab status shows it): 1 and its kind, rule
 * count and family (a generated ruleset's IPv6 source addresses) when there is one, else 0. */
int nb_lab_ruleset_recorded(struct nb_lab *lab, char *kind, size_t kind_len, size_t *rules_n,
			    bool *ipv6);
/* Rewrites that record (kind NULL: none); nothing when the lab has no state. */
int nb_lab_ruleset_record(struct nb_lab *lab, const char *kind, size_t rules_n, bool ipv6);

/* The rules and set elements nft reads back in the DUT. */
int nb_lab_count_rules(struct nb_lab *lab, size_t *rules, size_t *elems);

#endif
