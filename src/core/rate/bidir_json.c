/* SPDX-License-Identifier: BSD-2-Clause */
/* `rate --bidir` in the JSON document (docs/rate.md, "JSON"): the parameter, each trial's
 * reverse direction with the judgement of both, and each size's limiting direction. */
#include "core/base/json.h"
#include "core/rate/rate_run.h"

void nb_rate_json_bidir_param(struct nb_json *j, const struct nb_rate_params *p)
{
	nb_json_bool(j, "bidir", p->bidir);
}

void nb_rate_json_trial_bidir(struct nb_json *j, const struct nb_rate_run *r,
			      const struct nb_rate_trial *t)
{
	const struct nb_rate_rev_trial *v = &t->rev;

	if (!v->on)
		return;
	nb_json_obj_begin(j, "reverse");
	nb_json_double(j, "offered_fps", v->offered_fps, 1);
	nb_json_double(j, "window_s", v->window_s, 6);
	nb_json_u64(j, "slipped_frames", v->slipped_frames);
	nb_json_bool(j, "valid", v->c.valid);
	if (!v->c.valid)
		nb_json_str(j, "invalid_reason", v->c.why);
	nb_json_u64(j, "tx_frames", v->c.tx);
	nb_json_u64(j, "rx_frames", v->c.rx);
	nb_json_u64(j, "lost_frames", v->c.lost);
	nb_json_u64(j, "duplicated_frames", v->c.dup);
	nb_json_u64(j, "reordered_frames", v->c.reordered);
	nb_json_u64(j, "late_frames", v->c.late);
	if (v->drops_known)
		nb_json_u64(j, "receiver_dropped_frames", v->rx_dropped);
	else
		nb_json_null(j, "receiver_dropped_frames");
	nb_json_double(j, "loss_pct", v->c.tx ? 100.0 * (double)v->c.lost / (double)v->c.tx : 0, 4);
	if (v->lat_valid) {
		nb_rate_json_latency(j, "latency_ns", "one-way", v->lat_ns);
	} else {
		nb_json_null(j, "latency_ns");
		if (v->lat_why[0])
			nb_json_str(j, "latency_reason", v->lat_why);
	}
	if (r->p->mix)
		nb_rate_json_by_size(j, r->p->mix, v->mix_tx, v->mix_rx, v->rx_by_size_known);
	nb_json_obj_end(j);
	nb_json_obj_begin(j, "directions");
	nb_json_str(j, "failed", nb_bidir_failed_names[v->j.failed]);
	nb_json_str(j, "text", v->j.text);
	nb_json_obj_end(j);
}

void nb_rate_json_size_bidir(struct nb_json *j, const struct nb_rate_params *p,
			     const struct nb_rate_size *s)
{
	if (!p->bidir)
		return;
	nb_json_obj_begin(j, "bidir");
	nb_json_str(j, "failed", nb_bidir_failed_names[s->bidir_failed]);
	nb_json_str(j, "text", s->bidir_text);
	if (p->test == NB_RATE_LATENCY) {
		/* the forward's is the size's latency_ns (or rtt_ns), as without --bidir */
		if (s->rev_lat_valid)
			nb_rate_json_latency(j, "reverse_latency_ns", "one-way", s->rev_lat_ns);
		else
			nb_json_null(j, "reverse_latency_ns");
		if (!s->rev_lat_valid)
			nb_json_str(j, "reverse_latency_reason",
				    s->rev_lat_why[0] ? s->rev_lat_why
						      : "not measured: no latency trial ran");
	}
	nb_json_obj_end(j);
}
