/* SPDX-License-Identifier: BSD-2-Clause */
/* The --imix parts of a rate run's JSON (docs/schema.md): the mix in the parameters, and each
 * trial's frames by size, sent and received. */
#include "core/base/json.h"
#include "core/rate/rate.h"

void nb_rate_json_mix(struct nb_json *j, const struct nb_rate_params *p)
{
	const struct nb_mix *m = p->mix;

	if (!m)
		return;
	nb_json_obj_begin(j, "imix");
	nb_json_str(j, "spec", m->spec);
	nb_json_double(j, "mean_frame_bytes", m->mean_bytes, 3);
	nb_json_arr_begin(j, "sizes");
	for (uint32_t i = 0; i < m->n; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "frame_bytes", m->bytes[i]);
		nb_json_u64(j, "weight", m->weight[i]);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_u64(j, "pattern_frames", m->plen);
	nb_json_obj_end(j);
}

void nb_rate_json_by_size(struct nb_json *j, const struct nb_mix *m, const uint64_t *tx,
			  const uint64_t *rx, bool rx_known)
{
	nb_json_arr_begin(j, "by_size");
	for (uint32_t i = 0; i < m->n; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "frame_bytes", m->bytes[i]);
		nb_json_u64(j, "tx_frames", tx[i]);
		if (rx_known)
			nb_json_u64(j, "rx_frames", rx[i]);
		else
			nb_json_null(j, "rx_frames");
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

void nb_rate_json_trial_mix(struct nb_json *j, const struct nb_rate_params *p,
			    const struct nb_rate_trial *t)
{
	if (p->mix)
		nb_rate_json_by_size(j, p->mix, t->mix_tx, t->mix_rx, t->rx_by_size_known);
}
