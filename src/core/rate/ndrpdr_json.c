/* SPDX-License-Identifier: BSD-2-Clause */
/* The ndrpdr part of a size's JSON object (docs/schema.md): per loss ratio every search's rate,
 * the spread and the sentence. */
#include <math.h>

#include "core/base/json.h"
#include "core/rate/rfc2544.h"

static void num_or_null(struct nb_json *j, const char *key, double v, int prec)
{
	if (isnan(v))
		nb_json_null(j, key);
	else
		nb_json_double(j, key, v, prec);
}

void nb_rate_json_ratios(struct nb_json *j, const struct nb_rate_params *p,
			 const struct nb_rate_size *s)
{
	char text[320];

	if (p->test != NB_RATE_NDRPDR)
		return;
	nb_json_arr_begin(j, "loss_ratios");
	for (uint32_t i = 0; i < s->nratios; i++) {
		const struct nb_rate_ratio_res *r = &s->ratios[i];
		nb_json_obj_begin(j, NULL);
		nb_json_double(j, "loss_ratio_pct", r->ratio * 100, 4);
		nb_json_arr_begin(j, "fps_per_search");
		for (uint32_t k = 0; k < s->nrepeat; k++)
			nb_json_double(j, NULL, r->fps[k], 1);
		nb_json_arr_end(j);
		nb_json_arr_begin(j, "verified_per_search");
		for (uint32_t k = 0; k < s->nrepeat; k++)
			nb_json_bool(j, NULL, r->verified[k]);
		nb_json_arr_end(j);
		nb_json_u64(j, "searches", s->nrepeat);
		num_or_null(j, "fps_mean", s->nrepeat ? r->spread.mean : NAN, 1);
		num_or_null(j, "fps_sd", r->spread.sd, 1);
		num_or_null(j, "fps_ci95", r->spread.ci95, 1);
		nb_json_u64(j, "degrees_of_freedom", s->nrepeat > 1 ? s->nrepeat - 1 : 0);
		nb_json_u64(j, "at_max", r->at_max_n);
		nb_json_u64(j, "zero", r->zero_n);
		nb_json_str(j, "text", nb_rate_ratio_wording(p, s, i, text, sizeof(text)));
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}
