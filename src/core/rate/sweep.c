/* SPDX-License-Identifier: BSD-2-Clause */
/* The rule sweep of `netbench rate --sweep-rules`: each ruleset kind and rule count loaded into
 * the lab's DUT in turn, the procedure run at every frame size, and the per-frame cost fitted
 * against the rule count. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate/rate_run.h"

int nb_rate_sweep(struct nb_rate_run *r, const struct nb_rate_dut *dut,
		  struct nb_rate_sweep_point **points, size_t *np_out,
		  struct nb_rate_sweep_fits *fits, char *err, size_t errlen)
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
			char why[400] = "";
			ret = dut->load(dut->ctx, &rules, &pt[i].rules_read, &pt[i].elems_read, why,
					sizeof(why));
			if (ret) {
				snprintf(err, errlen,
					 "cannot load %llu %s rules into the lab's DUT %s",
					 (unsigned long long)pt[i].rules,
					 nb_lab_rules_kind_name(pt[i].kind), why);
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
			ret = nb_rate_run_sizes(r, pt[i].res, &pt[i].verdict, err, errlen);
			if (p->stop && *p->stop) {
				/* Interrupted: the points measured whole are kept, the one cut
				 * short (some sizes, or a trial stopped midway) is dropped. */
				free(pt[i].res);
				pt[i].res = NULL;
				*np_out = i;
				ret = 0;
			}
		}
	dut->flush(dut->ctx);
	nb_rate_sweep_conclude(p, pt, ret ? 0 : *np_out, fits);
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

/* The points of one kind with a result at size index size_i: rule counts and frames/s. */
static size_t points_of(const struct nb_rate_sweep_point *p, size_t np, enum nb_lab_rules_kind kind,
			size_t size_i, double *rules, double *fps)
{
	size_t n = 0;
	for (size_t i = 0; i < np && n < NB_RATE_MAX_SWEEP; i++)
		if (p[i].kind == kind && p[i].res && p[i].res[size_i].fps > 0 &&
		    !p[i].res[size_i].failed) {
			rules[n] = (double)p[i].rules;
			fps[n++] = p[i].res[size_i].fps;
		}
	return n;
}

/* netfilter's ns per frame in the profile of each point's judged trial, fitted against the
 * rule count beside the fit of the whole per-frame cost. */
static void conclude_nf(const struct nb_rate_sweep_point *pt, size_t np, size_t size_i,
			struct nb_rate_rule_fit *f)
{
	double rules[NB_RATE_MAX_SWEEP], ns[NB_RATE_MAX_SWEEP];
	size_t n = 0;
	for (size_t i = 0; i < np && n < NB_RATE_MAX_SWEEP; i++)
		if (pt[i].kind == f->kind && pt[i].res && pt[i].res[size_i].nf.have) {
			rules[n] = (double)pt[i].rules;
			ns[n++] = pt[i].res[size_i].nf.ns;
		}
	if (!n)
		return; /* no profile asked for, or none with frames: nothing to say */
	f->have_nf_fit = nb_lab_fit_ns(rules, ns, n, &f->nf_fit) == 0;
	if (!f->have_nf_fit) {
		snprintf(f->nf_text, sizeof(f->nf_text),
			 "netfilter measured by the kernel profile: no fit (needs two rule counts "
			 "profiled, %zu here)",
			 n);
		return;
	}
	const struct nb_lab_fit *x = &f->nf_fit;
	if (!x->dof)
		snprintf(f->nf_text, sizeof(f->nf_text),
			 "netfilter measured by the kernel profile: %.0f ns per frame + %.3g ns x "
			 "rules (2 rule counts fix the line exactly, no interval: profile a third)",
			 x->base_ns, x->per_rule_ns);
	else
		snprintf(
		    f->nf_text, sizeof(f->nf_text),
		    "netfilter measured by the kernel profile: %.0f ns per frame + %.3g ns x "
		    "rules (slope 95 %% interval %.3g to %.3g%s; %zu points, %zu residual dof)",
		    x->base_ns, x->per_rule_ns, x->per_rule_lo_ns, x->per_rule_hi_ns,
		    nb_lab_fit_slope_established(x) ? "" : ": not established", x->points, x->dof);
}

/* One kind and size: the fit, the costs at the fewest and most rules, and the decision
 * (docs/rate.md): ruleset bound only when the slope's 95 % interval lies above 0. */
static void conclude_one(const struct nb_rate_sweep_point *pt, size_t np, size_t size_i,
			 struct nb_rate_rule_fit *f)
{
	double rules[NB_RATE_MAX_SWEEP], fps[NB_RATE_MAX_SWEEP];
	size_t n = points_of(pt, np, f->kind, size_i, rules, fps), lo = 0, hi = 0;

	for (size_t i = 1; i < n; i++) {
		if (rules[i] < rules[lo])
			lo = i;
		if (rules[i] > rules[hi])
			hi = i;
	}
	f->have_fit = nb_lab_fit_cost(rules, fps, n, &f->fit) == 0;
	if (!f->have_fit) {
		snprintf(f->fit_text, sizeof(f->fit_text),
			 "none (needs two rule counts with results)");
		return;
	}
	f->fewest_ns = 1e9 / fps[lo];
	f->most_ns = 1e9 / fps[hi];
	nb_lab_fit_text(&f->fit, f->fit_text, sizeof(f->fit_text));
	f->ruleset_bound = nb_lab_fit_slope_established(&f->fit) && f->fit.per_rule_ns > 0;
	if (f->ruleset_bound)
		snprintf(f->bound_text, sizeof(f->bound_text),
			 "ruleset bound: each rule adds %.3g ns per frame (95 %% interval %.3g to "
			 "%.3g; %.0f ns per frame at the fewest rules, %.0f at the most)",
			 f->fit.per_rule_ns, f->fit.per_rule_lo_ns, f->fit.per_rule_hi_ns,
			 f->fewest_ns, f->most_ns);
	else if (nb_lab_fit_slope_established(&f->fit))
		snprintf(
		    f->bound_text, sizeof(f->bound_text),
		    "not ruleset bound: the per-frame cost falls as rules grow (95 %% interval "
		    "%.3g to %.3g ns per rule), something else varied between the points",
		    f->fit.per_rule_lo_ns, f->fit.per_rule_hi_ns);
	else if (!f->fit.dof)
		snprintf(f->bound_text, sizeof(f->bound_text),
			 "ruleset bound or not: not established (%zu rule counts fix a line "
			 "exactly, no interval; %.0f ns per frame at the fewest rules, %.0f at the "
			 "most): measure a third rule count, or repeat the sweep",
			 f->fit.points, f->fewest_ns, f->most_ns);
	else
		snprintf(
		    f->bound_text, sizeof(f->bound_text),
		    "ruleset bound or not: not established (the slope's 95 %% interval %.3g to "
		    "%.3g ns per rule includes 0; residual %.0f ns rms): measure more rule "
		    "counts, longer trials or repeat the sweep",
		    f->fit.per_rule_lo_ns, f->fit.per_rule_hi_ns, f->fit.residual_ns);
}

void nb_rate_sweep_conclude(const struct nb_rate_params *p, const struct nb_rate_sweep_point *pt,
			    size_t np, struct nb_rate_sweep_fits *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t a = 0; a < p->nkinds && a < 3; a++)
		for (size_t k = 0; k < p->nsizes; k++) {
			struct nb_rate_rule_fit *f = &out->f[out->n++];
			f->kind = p->kinds[a];
			f->frame_bytes = (uint32_t)p->sizes[k];
			/* Only a search finds a rate the DUT carries; a trial's (or a loss curve's,
			 * a latency test's) fps is the rate asked, no per-frame cost to fit. */
			if (p->test == NB_RATE_THROUGHPUT || p->test == NB_RATE_NDRPDR)
				conclude_one(pt, np, k, f);
			else
				snprintf(
				    f->fit_text, sizeof(f->fit_text),
				    "none (-m %s measures at the rate asked and finds no rate: "
				    "its fps is no per-frame cost; see each point's loss and CPU)",
				    nb_rate_test_names[p->test]);
			conclude_nf(pt, np, k, f);
		}
}
