/* SPDX-License-Identifier: BSD-2-Clause */
/* The rule sweep of `netbench rate --sweep-rules`: each ruleset kind and rule count loaded into
 * the lab's DUT in turn, the procedure run at every frame size, and the per-frame cost fitted
 * against the rule count. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate/rate_run.h"

int nb_rate_sweep(struct nb_rate_run *r, struct nb_lab *lab, struct nb_rate_sweep_point **points,
		  size_t *np_out, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	size_t np = p->nkinds * p->nsweep, i = 0;
	struct nb_rate_sweep_point *pt = calloc(np ? np : 1, sizeof(*pt));
	int ret = 0;

	*points = pt;
	*np_out = 0;
	if (!pt) {
		snprintf(err, errlen, "out of memory: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (size_t a = 0; a < p->nkinds && !ret && !(p->stop && *p->stop); a++)
		for (size_t b = 0; b < p->nsweep && !ret && !(p->stop && *p->stop); b++, i++) {
			struct nb_lab_rules rules = {.kind = p->kinds[a],
						     .rules_n = (size_t)p->sweep[b],
						     .ipv6 = r->dst.ss_family == AF_INET6};
			*np_out = i + 1;
			pt[i].kind = p->kinds[a];
			pt[i].rules = p->sweep[b];
			pt[i].res = calloc(p->nsizes, sizeof(*pt[i].res));
			if (!pt[i].res) {
				snprintf(err, errlen, "out of memory: %s", strerror(ENOMEM));
				ret = -ENOMEM;
				break;
			}
			ret = nb_lab_ruleset(lab, &rules, &pt[i].rules_read, &pt[i].elems_read);
			if (ret) {
				snprintf(err, errlen,
					 "cannot load %llu %s rules into the lab's DUT %s: %s",
					 (unsigned long long)pt[i].rules,
					 nb_lab_rules_kind_name(pt[i].kind), lab->ns[NB_LAB_DUT],
					 lab->err[0] ? lab->err : strerror(-ret));
				break;
			}
			if (r->progress)
				r->progress(r->progress_arg,
					    &(struct nb_rate_event){.kind = NB_RATE_EV_RULESET,
								    .rules_kind = pt[i].kind,
								    .rules = pt[i].rules});
			/* A new ruleset: its connection tracking and caches learn afresh. */
			snprintf(r->learn_when, sizeof(r->learn_when), "ruleset %s %llu",
				 nb_lab_rules_kind_name(pt[i].kind),
				 (unsigned long long)pt[i].rules);
			ret = nb_rate_run_sizes(r, pt[i].res, err, errlen);
			if (p->stop && *p->stop) {
				/* Interrupted: the points measured whole are kept, the one cut
				 * short (some sizes, or a trial stopped midway) is dropped. */
				free(pt[i].res);
				pt[i].res = NULL;
				*np_out = i;
				ret = 0;
			}
		}
	(void)nb_lab_ruleset_flush(lab);
	return ret;
}

void nb_rate_sweep_free(struct nb_rate_sweep_point *points, size_t np)
{
	if (!points)
		return;
	for (size_t k = 0; k < np; k++)
		free(points[k].res);
	free(points);
}

bool nb_rate_sweep_fit(const struct nb_rate_sweep_point *p, size_t np, enum nb_lab_rules_kind kind,
		       size_t size_i, struct nb_lab_fit *fit)
{
	double rules[16], fps[16];
	size_t n = 0;
	for (size_t i = 0; i < np && n < 16; i++)
		if (p[i].kind == kind && p[i].res[size_i].fps > 0 && !p[i].res[size_i].failed) {
			rules[n] = (double)p[i].rules;
			fps[n++] = p[i].res[size_i].fps;
		}
	return nb_lab_fit_cost(rules, fps, n, fit) == 0;
}

bool nb_rate_sweep_ruleset_bound(const struct nb_rate_sweep_point *p, size_t np,
				 enum nb_lab_rules_kind kind, size_t size_i, double *lo_ns,
				 double *hi_ns)
{
	double rules[16], ns[16];
	size_t n = 0, lo = 0, hi = 0;
	for (size_t i = 0; i < np && n < 16; i++)
		if (p[i].kind == kind && p[i].res[size_i].fps > 0 && !p[i].res[size_i].failed) {
			rules[n] = (double)p[i].rules;
			ns[n++] = 1e9 / p[i].res[size_i].fps;
		}
	*lo_ns = *hi_ns = 0;
	for (size_t i = 1; i < n; i++) {
		if (rules[i] < rules[lo])
			lo = i;
		if (rules[i] > rules[hi])
			hi = i;
	}
	if (n) {
		*lo_ns = ns[lo];
		*hi_ns = ns[hi];
	}
	return nb_verdict_ruleset_bound(rules, ns, n);
}
