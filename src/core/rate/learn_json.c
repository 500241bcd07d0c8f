/* SPDX-License-Identifier: BSD-2-Clause */
/* The learning phases of a rate run in its JSON document (docs/schema.md, "rate: learning"):
 * one object per phase, with what was sent and what arrived, per flow. */
#include "core/base/json.h"
#include "core/rate/rate_run.h"

void nb_rate_json_learning(struct nb_json *j, const struct nb_rate_run *r)
{
	nb_json_arr_begin(j, "learning");
	for (size_t i = 0; i < r->nlearn; i++) {
		const struct nb_rate_learn *L = &r->learn[i];
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "when", L->when);
		nb_json_bool(j, "confirmed", L->confirmed);
		nb_json_bool(j, "counted", L->counted);
		nb_json_u64(j, "wire_id", L->trial);
		nb_json_u64(j, "size_bytes", L->size);
		nb_json_u64(j, "rounds", L->rounds);
		nb_json_double(j, "round_fps", L->rate_fps, 1);
		nb_json_u64(j, "frames_sent", L->tx);
		if (L->counted)
			nb_json_u64(j, "frames_received", L->rx);
		else
			nb_json_null(j, "frames_received");
		if (L->confirmed)
			nb_json_double(j, "took_s", L->took_s, 3);
		else
			nb_json_null(j, "took_s");
		nb_json_arr_begin(j, "sent_per_flow");
		for (uint32_t f = 0; f < L->flows; f++)
			nb_json_u64(j, NULL, L->tx_flow[f]);
		nb_json_arr_end(j);
		nb_json_arr_begin(j, "received_per_flow");
		for (uint32_t f = 0; L->counted && f < L->flows; f++)
			nb_json_u64(j, NULL, L->rx_flow[f]);
		nb_json_arr_end(j);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}
