/* SPDX-License-Identifier: BSD-2-Clause */
/* The DUT's ruleset kept across a rule sweep: what the user loaded is read before the sweep
 * replaces it and loaded back after, so that a sweep leaves the DUT as it found it. A board's
 * ruleset is listed as counts only: kept as the lab's record of what it generated, or empty. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/lab_rules.h"
#include "core/lab/lab_board.h"
#include "core/lab/lab_exec.h"
#include "core/lab/lab_keep.h"
#include "core/lab/lab_ruleset.h"
#include "core/lab/lab_state.h"

/* nft in the DUT's namespace: args after "nft", input on its stdin (may be NULL). */
static int nft(struct nb_lab *lab, const char *a1, const char *a2, const char *a3,
	       const char *input, struct nb_lab_run *r)
{
	char *argv[] = {"ip",	    "netns",	"exec", lab->ns[NB_LAB_DUT], "nft", (char *)a1,
			(char *)a2, (char *)a3, NULL};
	return nb_lab_cmd(lab, argv, input, r);
}

static int count(struct nb_lab *lab, size_t *rules, size_t *elems)
{
	struct nb_lab_run *r = nb_lab_run_new();
	int ret = r ? nft(lab, "-j", "list", "ruleset", NULL, r) : -ENOMEM;
	if (!ret && (ret = nb_lab_nft_json_count(r->out, rules, elems)))
		snprintf(lab->err, sizeof(lab->err), "cannot read `nft -j list ruleset` output");
	nb_lab_run_free(r);
	return ret;
}

/* A board DUT: what it holds is what the lab's record says it generated (regenerated on
 * restore, its counts checked now), or nothing; anything else cannot be put back. */
static int keep_board(struct nb_lab *lab, struct nb_lab_kept *k)
{
	size_t want_rules = 0, want_elems = 0;
	enum nb_lab_rules_kind kind;
	const char *path = NULL;
	int ret = nb_lab_count_rules(lab, &k->rules, &k->elems);

	if (ret)
		return ret;
	k->board = true;
	k->recorded =
	    nb_lab_ruleset_recorded(lab, k->kind, sizeof(k->kind), &k->rules_n, &k->ipv6) == 1;
	if (k->recorded && !nb_lab_rules_kind_parse(k->kind, &kind, &path) &&
	    kind != NB_LAB_RULES_FILE) {
		k->generated =
		    (struct nb_lab_rules){.kind = kind, .rules_n = k->rules_n, .ipv6 = k->ipv6};
		if (!nb_lab_rules_expect(&k->generated, &want_rules, &want_elems) &&
		    want_rules == k->rules && want_elems == k->elems)
			return 0;
	} else if (!k->rules && !k->elems) {
		k->recorded = false;
		return 0;
	}
	snprintf(lab->err, sizeof(lab->err),
		 "the board DUT holds %zu rules and %zu set elements%s%s%s; a board's ruleset "
		 "is read back as counts only, so a sweep can put back only a ruleset that "
		 "`netbench lab ruleset` generated, or none: load one with it, or `lab ruleset "
		 "--flush`, before the sweep",
		 k->rules, k->elems, k->recorded ? ", not the " : "", k->recorded ? k->kind : "",
		 k->recorded ? " ruleset the lab recorded" : "");
	return -ENOTSUP;
}

int nb_lab_ruleset_keep(struct nb_lab *lab, struct nb_lab_kept *k)
{
	struct nb_lab_run *r = NULL;
	int ret = -ENOMEM;

	memset(k, 0, sizeof(*k));
	lab->err[0] = '\0';
	nb_lab_board_from_state(lab);
	if (lab->board.role == NB_LAB_DUT)
		return keep_board(lab, k);
	r = nb_lab_run_new();
	if (!r)
		goto out;
	if ((ret = nft(lab, "list", "ruleset", NULL, NULL, r)))
		goto out;
	k->script = strdup(r->out ? r->out : "");
	if (!k->script) {
		ret = -ENOMEM;
		goto out;
	}
	if ((ret = count(lab, &k->rules, &k->elems)))
		goto out;
	k->recorded =
	    nb_lab_ruleset_recorded(lab, k->kind, sizeof(k->kind), &k->rules_n, &k->ipv6) == 1;
out:
	nb_lab_run_free(r);
	if (ret)
		nb_lab_kept_free(k);
	return ret;
}

/* A board DUT: its recorded ruleset generated again (one transaction, flush included), or
 * flushed. */
static int restore_board(struct nb_lab *lab, const struct nb_lab_kept *k, size_t *rules,
			 size_t *elems)
{
	int ret;

	if (k->recorded)
		return nb_lab_ruleset(lab, &k->generated, rules, elems);
	ret = nb_lab_ruleset_flush(lab);
	return ret ? ret : nb_lab_count_rules(lab, rules, elems);
}

int nb_lab_ruleset_restore(struct nb_lab *lab, const struct nb_lab_kept *k, size_t *rules)
{
	size_t len, elems = 0;
	char *script;
	int ret;

	lab->err[0] = '\0';
	if (k->board) {
		ret = restore_board(lab, k, rules, &elems);
		goto check;
	}
	len = strlen("flush ruleset\n") + strlen(k->script) + 1;
	script = malloc(len);
	if (!script)
		return -ENOMEM;
	/* One transaction: the sweep's last ruleset (or none) out, the kept one in. */
	snprintf(script, len, "flush ruleset\n%s", k->script);
	ret = nft(lab, "-f", "/dev/stdin", NULL, script, NULL);
	free(script);
	if (!ret)
		ret = count(lab, rules, &elems);
check:
	if (!ret && (*rules != k->rules || elems != k->elems)) {
		snprintf(
		    lab->err, sizeof(lab->err),
		    "nft reads back %zu rules and %zu set elements, %zu and %zu before the sweep",
		    *rules, elems, k->rules, k->elems);
		ret = -EIO;
	}
	if (!ret)
		ret = nb_lab_ruleset_record(lab, k->recorded ? k->kind : NULL, k->rules_n, k->ipv6);
	return ret;
}

void nb_lab_kept_free(struct nb_lab_kept *k)
{
	free(k->script);
	k->script = NULL;
}
