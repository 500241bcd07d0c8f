/* SPDX-License-Identifier: BSD-2-Clause */
/* nftables rulesets for the lab's DUT: the text of N non-matching rules before the final accept
 * (RFC 2544 section 11.4, RFC 9411), in the kinds the lab offers, and the read-back check that
 * counts rules and set elements in `nft -j` output. Pure text in, text out: no process, no I/O
 * other than the FILE the caller gives. */
#ifndef NB_LAB_RULES_H
#define NB_LAB_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The most rules a generated ruleset holds: nft loads 100000 linear rules in a few seconds. */
#define NB_LAB_RULES_MAX 100000
#define NB_LAB_TABLE	 "netbench"
#define NB_LAB_CHAIN	 "forward"
#define NB_LAB_SET	 "nbmatch"

enum nb_lab_rules_kind {
	NB_LAB_RULES_LINEAR,	/* N rules: source address, protocol, destination port */
	NB_LAB_RULES_SET,	/* the same N matches as one set lookup */
	NB_LAB_RULES_CONNTRACK, /* established,related accepted first, then the N rules */
	NB_LAB_RULES_FILE,	/* the user's own nft file */
};

struct nb_lab_rules {
	enum nb_lab_rules_kind kind;
	size_t rules_n;	  /* non-matching rules (not for FILE) */
	bool ipv6;	  /* match IPv6 source addresses instead of IPv4 */
	const char *path; /* FILE: absolute path of the user's file */
};

/* Parses "linear", "set", "conntrack" or "file:PATH" (PATH points into s). -EINVAL otherwise. */
int nb_lab_rules_kind_parse(const char *s, enum nb_lab_rules_kind *kind, const char **path);
const char *nb_lab_rules_kind_name(enum nb_lab_rules_kind kind);

/* Writes the nft script for r to f: "flush ruleset" then the table, so that nft replaces the
 * DUT's ruleset in one transaction. FILE kind includes r->path (absolute, no quote or newline).
 * Returns 0, -EINVAL for a bad r, -EIO when f fails. */
int nb_lab_rules_write(FILE *f, const struct nb_lab_rules *r);

/* The i-th non-matching source address (from 0, never a network address) and destination
 * port of the generated rules. */
void nb_lab_rules_addr(char *buf, size_t len, size_t i, bool ipv6);
unsigned nb_lab_rules_port(size_t i);

/* Reads back what a generated script stands for (a machine without nft loads it through
 * core/lab/lab_nftnl.h): fills r and returns 0 when text is exactly nb_lab_rules_write's text
 * for a generated kind; returns 1 for "flush ruleset" alone; -EINVAL for anything else (a
 * user's file, an edited script); -ENOMEM. */
int nb_lab_rules_parse_script(const char *text, struct nb_lab_rules *r);

/* Rules and set elements `nft list ruleset` shows after r is loaded (FILE: unknown, -EINVAL). */
int nb_lab_rules_expect(const struct nb_lab_rules *r, size_t *rules, size_t *elems);

/* Counts rules and set elements in `nft -j list ruleset` output. -EINVAL on malformed JSON. */
int nb_lab_nft_json_count(const char *json, size_t *rules, size_t *elems);

#endif
