/* SPDX-License-Identifier: BSD-2-Clause */
/* Ordinary least squares on (rule count, ns per frame). Per-frame cost, not frames/s, is what
 * grows linearly with a linear rule list: each rule adds a fixed number of nanoseconds. */
#include "core/base/lab_fit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/base/json.h"
#include "core/base/stats.h"

int nb_lab_fit_ns(const double *rules, const double *ns, size_t n, struct nb_lab_fit *fit)
{
	struct nb_ols o;
	char why[160];
	const char *names[] = {"rules"};

	if (n < 2)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(rules[i]) || rules[i] < 0 || !isfinite(ns[i]) || ns[i] < 0)
			return -EINVAL;
	/* All points at one rule count: the slope is undefined, not zero (nb_ols refuses). */
	int ret = nb_ols(ns, rules, n, 1, names, &o, why, sizeof(why));
	if (ret)
		return ret;
	fit->base_ns = o.coef[0];
	fit->per_rule_ns = o.coef[1];
	fit->residual_ns = o.residual_rms;
	fit->points = n;
	fit->dof = o.dof;
	fit->per_rule_se_ns = o.se[1];
	fit->per_rule_lo_ns = o.lo[1];
	fit->per_rule_hi_ns = o.hi[1];
	fit->base_lo_ns = o.lo[0];
	fit->base_hi_ns = o.hi[0];
	fit->r2 = o.r2;
	return 0;
}

int nb_lab_fit_cost(const double *rules, const double *rate_fps, size_t n, struct nb_lab_fit *fit)
{
	if (n < 2)
		return -EINVAL;
	double *ns = malloc(n * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(rate_fps[i]) || !(rate_fps[i] > 0)) {
			free(ns);
			return -EINVAL;
		}
		ns[i] = 1e9 / rate_fps[i];
	}
	int ret = nb_lab_fit_ns(rules, ns, n, fit);
	free(ns);
	return ret;
}

bool nb_lab_fit_slope_established(const struct nb_lab_fit *fit)
{
	return fit->dof > 0 && (fit->per_rule_lo_ns > 0 || fit->per_rule_hi_ns < 0);
}

void nb_lab_fit_text(const struct nb_lab_fit *fit, char *buf, size_t len)
{
	int n = snprintf(buf, len, "per-frame cost = %.1f ns + %.3f ns x rules (", fit->base_ns,
			 fit->per_rule_ns);
	if (n < 0 || (size_t)n >= len)
		return;
	if (!fit->dof)
		snprintf(buf + n, len - (size_t)n,
			 "no interval: %zu points fix a line exactly, measure a third rule count "
			 "to judge it)",
			 fit->points);
	else
		snprintf(buf + n, len - (size_t)n,
			 "slope 95 %% interval %.3f to %.3f ns%s; %zu points, %zu residual dof, "
			 "residual %.1f ns rms)",
			 fit->per_rule_lo_ns, fit->per_rule_hi_ns,
			 nb_lab_fit_slope_established(fit) ? "" : ": not established", fit->points,
			 fit->dof, fit->residual_ns);
}

void nb_lab_fit_json(struct nb_json *j, const struct nb_lab_fit *fit)
{
	nb_json_u64(j, "dof", fit->dof);
	nb_json_double(j, "per_rule_se_ns", fit->per_rule_se_ns, 4);
	nb_json_double(j, "per_rule_lo_ns", fit->per_rule_lo_ns, 4);
	nb_json_double(j, "per_rule_hi_ns", fit->per_rule_hi_ns, 4);
	nb_json_double(j, "base_lo_ns", fit->base_lo_ns, 1);
	nb_json_double(j, "base_hi_ns", fit->base_hi_ns, 1);
	nb_json_double(j, "r2", fit->r2, 4);
	nb_json_bool(j, "slope_established", nb_lab_fit_slope_established(fit));
}
