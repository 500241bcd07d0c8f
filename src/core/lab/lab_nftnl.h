/* SPDX-License-Identifier: BSD-2-Clause */
/* nf_tables through its netlink API, without nft: the lab's generated rulesets (linear, set,
 * conntrack: core/base/lab_rules.h) loaded in one transaction, and the rules and set elements
 * read back. For a machine that has no nft (the ppc board, whose image cannot be given one:
 * docs/lab.md, "Boards"); a user's own nft file needs nft. Acts on the calling process's
 * network namespace; needs CAP_NET_ADMIN. */
#ifndef NB_LAB_NFTNL_H
#define NB_LAB_NFTNL_H

#include <stddef.h>
#include <stdio.h>

#include "core/base/lab_rules.h"

/* The largest script nft-load reads: a generated ruleset of NB_LAB_RULES_MAX IPv6 rules is
 * about 7 MB. */
#define NB_LAB_NFT_LOAD_MAX (16 * 1024 * 1024)

/* Replaces the whole ruleset (every table of every family, as "flush ruleset") with r's table,
 * chain, set and rules, exactly those nft makes of nb_lab_rules_write's text for r; r NULL:
 * flush only. One transaction: on failure nothing changed. Returns 0, -EINVAL for a FILE kind
 * or a bad r, or the kernel's negative errno with err saying which message it refused. */
int nb_lab_nftnl_load(const struct nb_lab_rules *r, char *err, size_t errlen);

/* Writes the ruleset's rules and set elements as a JSON document in the shape of
 * `nft -j list ruleset` that nb_lab_nft_json_count reads: {"nftables": [{"rule": {family,
 * table, chain, handle}}..., {"set": {family, table, name, "elem": [key in hex...]}}...]}.
 * Returns 0 or a negative errno (err says which dump failed). */
int nb_lab_nftnl_list(FILE *out, char *err, size_t errlen);

#endif
