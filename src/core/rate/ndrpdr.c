/* SPDX-License-Identifier: BSD-2-Clause */
/* The ndrpdr procedure's sentences: each loss ratio's result at one size, with what it rests on,
 * made once here and stored in the JSON; every view prints this text. */
#include <math.h>
#include <stdio.h>

#include "core/rate/rfc2544.h"

const char *nb_rate_ratio_wording(const struct nb_rate_params *p, const struct nb_rate_size *s,
				  uint32_t i, char *buf, size_t len)
{
	const struct nb_rate_ratio_res *r = &s->ratios[i];
	const struct nb_mlr_spread *sp = &r->spread;
	double final_s = (double)(p->final_trial_ns ? p->final_trial_ns : p->trial_ns) / 1e9;
	char name[32];

	if (r->ratio == 0)
		snprintf(name, sizeof(name), "NDR (0 %% loss)");
	else if (fabs(r->ratio - 0.005) < 1e-12)
		snprintf(name, sizeof(name), "PDR (0.5 %% loss)");
	else
		snprintf(name, sizeof(name), "loss <= %g %%", r->ratio * 100);
	if (!s->nrepeat)
		snprintf(buf, len, "%s: no result (the search failed)", name);
	else if (r->zero_n == s->nrepeat)
		snprintf(buf, len,
			 "%s: 0 fps: lost more at every rate down to %llu fps (%u search%s)", name,
			 (unsigned long long)NB_RATE_MIN_FPS, s->nrepeat,
			 s->nrepeat == 1 ? "" : "es");
	else if (s->nrepeat < 2)
		snprintf(buf, len,
			 "%s: %.0f fps from one search%s (final trial %g s)%s; its spread is not "
			 "established: repeat the search (--repeat 3 or more)",
			 name, sp->mean, r->verified_n ? ", verified" : ", NOT verified", final_s,
			 r->at_max_n ? ", the maximum passed (the DUT was not saturated)" : "");
	else
		snprintf(
		    buf, len,
		    "%s: %.0f fps, mean of %u searches (%u verified by a final trial of %g s), "
		    "95 %% interval +-%.0f fps (t, %u degrees of freedom), range %.0f to %.0f%s",
		    name, sp->mean, s->nrepeat, r->verified_n, final_s, sp->ci95, s->nrepeat - 1,
		    sp->min, sp->max,
		    r->at_max_n == s->nrepeat
			? "; every search passed the maximum (the DUT was not saturated)"
		    : r->at_max_n ? "; some searches passed the maximum"
				  : "");
	return buf;
}
