/* SPDX-License-Identifier: BSD-2-Clause */
/* The DUT's ruleset kept across a rule sweep: what the user loaded is read before the sweep
 * replaces it and loaded back after, so that a sweep leaves the DUT as it found it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/lab_rules.h"
#include "core/lab/lab_exec.h"
#include "core/lab/lab_keep.h"
#include "core/lab/lab_ruleset.h"

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

int nb_lab_ruleset_keep(struct nb_lab *lab, struct nb_lab_kept *k)
{
	struct nb_lab_run *r = nb_lab_run_new();
	int ret = -ENOMEM;

	memset(k, 0, sizeof(*k));
	lab->err[0] = '\0';
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
	k->recorded = nb_lab_ruleset_recorded(lab, k->kind, sizeof(k->kind), &k->rules_n) == 1;
out:
	nb_lab_run_free(r);
	if (ret)
		nb_lab_kept_free(k);
	return ret;
}

int nb_lab_ruleset_restore(struct nb_lab *lab, const struct nb_lab_kept *k, size_t *rules)
{
	size_t len = strlen("flush ruleset\n") + strlen(k->script) + 1, elems = 0;
	char *script = malloc(len);
	int ret;

	lab->err[0] = '\0';
	if (!script)
		return -ENOMEM;
	/* One transaction: the sweep's last ruleset (or none) out, the kept one in. */
	snprintf(script, len, "flush ruleset\n%s", k->script);
	ret = nft(lab, "-f", "/dev/stdin", NULL, script, NULL);
	free(script);
	if (!ret)
		ret = count(lab, rules, &elems);
	if (!ret && (*rules != k->rules || elems != k->elems)) {
		snprintf(
		    lab->err, sizeof(lab->err),
		    "nft reads back %zu rules and %zu set elements, %zu and %zu before the sweep",
		    *rules, elems, k->rules, k->elems);
		ret = -EIO;
	}
	if (!ret)
		ret = nb_lab_ruleset_record(lab, k->recorded ? k->kind : NULL, k->rules_n);
	return ret;
}

void nb_lab_kept_free(struct nb_lab_kept *k)
{
	free(k->script);
	k->script = NULL;
}
