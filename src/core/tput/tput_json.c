/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON of `netbench tput` (docs/schema.md), from what the sweep measured. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/json.h"
#include "core/base/pacer.h"
#include "core/base/result.h"
#include "core/tput/tput_json.h"

int nb_tput_sweep_init(struct nb_tput_sweep *s, const uint64_t *sizes, size_t nsizes, bool tx,
		       bool rx, bool bidir, bool observed)
{
	memset(s, 0, sizeof(*s));
	s->sizes = sizes;
	s->nsizes = nsizes;
	s->tx = tx;
	s->rx = rx;
	s->bidir = bidir;
	s->res = calloc(nsizes ? nsizes : 1, sizeof(*s->res));
	if (!s->res)
		return -ENOMEM;
	if (observed) {
		s->obs_tx = calloc(nsizes ? nsizes : 1, sizeof(*s->obs_tx));
		s->obs_rx = calloc(nsizes ? nsizes : 1, sizeof(*s->obs_rx));
		if (!s->obs_tx || !s->obs_rx) {
			nb_tput_sweep_free(s);
			return -ENOMEM;
		}
	}
	return 0;
}

int nb_tput_sweep_add_interval(struct nb_tput_sweep *s, size_t size_index,
			       const struct nb_tput_interval *iv)
{
	if (s->nintervals == s->cap_intervals) {
		size_t cap = s->cap_intervals ? 2 * s->cap_intervals : 64;
		struct nb_tput_sweep_interval *p = realloc(s->intervals, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->intervals = p;
		s->cap_intervals = cap;
	}
	s->intervals[s->nintervals].size_index = size_index;
	s->intervals[s->nintervals++].iv = *iv;
	return 0;
}

const struct nb_obs_trial *nb_tput_sweep_obs(const struct nb_tput_sweep *s, size_t i, bool tx)
{
	if (!s->obs_tx)
		return NULL;
	return tx || s->bidir ? &s->obs_tx[i] : &s->obs_rx[i];
}

void nb_tput_prof_summary(const struct nb_tput_dir_result *d, bool remote,
			  struct nb_prof_summary *sum)
{
	const struct nb_cpu_load *l = remote ? &d->cpu_remote : &d->cpu_local;
	nb_prof_summarize(remote ? d->prof_remote : d->prof_local, 0,
			  l->valid ? l->busy_cpu_s : NAN, d->bytes / 1024, sum);
}

void nb_tput_sweep_free(struct nb_tput_sweep *s)
{
	for (size_t i = 0; s->res && i < s->nsizes; i++) {
		nb_tput_dir_result_free(&s->res[i].tx);
		nb_tput_dir_result_free(&s->res[i].rx);
	}
	for (size_t i = 0; s->obs_tx && s->obs_rx && i < s->nsizes; i++) {
		nb_obs_trial_free(&s->obs_tx[i]);
		nb_obs_trial_free(&s->obs_rx[i]);
	}
	free(s->obs_tx);
	free(s->obs_rx);
	free(s->res);
	free(s->intervals);
	s->obs_tx = s->obs_rx = NULL;
	s->res = NULL;
	s->intervals = NULL;
	s->nintervals = s->cap_intervals = 0;
}

static void json_intervals(struct nb_json *j, const struct nb_tput_sweep *s, size_t size_index,
			   bool tx)
{
	nb_json_arr_begin(j, "intervals");
	for (size_t i = 0; i < s->nintervals; i++) {
		const struct nb_tput_interval *iv = &s->intervals[i].iv;
		double v = tx ? iv->tx_kbyte_per_s : iv->rx_kbyte_per_s;
		if (s->intervals[i].size_index != size_index || isnan(v))
			continue;
		nb_json_obj_begin(j, NULL);
		nb_json_double(j, "start_s", iv->start_s, 3);
		nb_json_double(j, "end_s", iv->end_s, 3);
		nb_json_double(j, "kbyte_per_s", v, 2);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

static void json_dir(struct nb_json *j, const struct nb_tput_sweep_params *sp,
		     const struct nb_tput_sweep *s, size_t size_index, const char *dir,
		     const struct nb_tput_dir_result *d)
{
	const struct nb_tput_params *p = sp->p;
	uint64_t block = s->sizes[size_index];
	nb_json_obj_begin(j, NULL);
	nb_json_u64(j, "block_bytes", block);
	nb_json_str(j, "direction", dir);
	nb_json_bool(j, "valid", d->valid);
	nb_json_str(j, "invalid_reason", d->valid ? NULL : d->invalid_reason);
	nb_json_double(j, "window_s", d->window_s, 6);
	nb_json_u64(j, "window_bytes", d->bytes);
	if (d->valid) {
		nb_json_double(j, "kbyte_per_s", d->kbyte_per_s, 2);
		nb_json_double(j, "mbit_per_s", d->mbit_per_s, 3);
	} else {
		nb_json_null(j, "kbyte_per_s");
		nb_json_null(j, "mbit_per_s");
	}
	nb_json_u64(j, "sent_total_bytes", d->sent_total);
	nb_json_u64(j, "received_total_bytes", d->received_total);
	if (p->proto == NB_TPUT_UDP) {
		nb_json_u64(j, "window_datagrams", d->rx_window.datagrams);
		nb_json_u64(j, "window_expected_datagrams", d->rx_window.expected);
		nb_json_double(j, "loss_pct", d->loss_pct, 4);
		nb_json_double(j, "reorder_pct", d->reorder_pct, 4);
		nb_json_double(j, "duplicate_pct", d->dup_pct, 4);
	}
	nb_result_cpu(j, "cpu_local", &d->cpu_local);
	nb_result_cpu(j, "cpu_remote", &d->cpu_remote);
	nb_json_double(j, "demand_local_us_per_kbyte", d->demand_local_us_per_kbyte, 4);
	nb_json_double(j, "demand_remote_us_per_kbyte", d->demand_remote_us_per_kbyte, 4);
	nb_json_double(j, "proc_demand_local_us_per_kbyte", d->proc_demand_local_us_per_kbyte, 4);
	nb_json_double(j, "proc_demand_remote_us_per_kbyte", d->proc_demand_remote_us_per_kbyte, 4);
	for (int k = 0; p->profile_hz && k < 2; k++) {
		struct nb_prof_summary sum;
		const struct nb_prof_result *r = k ? d->prof_remote : d->prof_local;
		if (r)
			nb_tput_prof_summary(d, k, &sum);
		nb_prof_json(j, k ? "profile_remote" : "profile_local", r, &sum);
	}
	if (p->rate_bps) {
		nb_json_obj_begin(j, "pacing");
		nb_json_str(j, "mode", p->pacing == NB_PACING_SPIN ? "spin" : "burst");
		nb_json_u64(j, "wakeups", d->pacing_wakeups);
		nb_json_double(j, "cpu_s", (double)d->pacing_cpu_ns / 1e9, 6);
		nb_json_double(j, "cpu_pct",
			       nb_pacing_cpu_pct(d->pacing_cpu_ns, !strcmp(dir, "tx")
								       ? d->cpu_local.window_s
								       : d->cpu_remote.window_s),
			       2);
		nb_json_obj_end(j);
	} else {
		nb_json_null(j, "pacing");
	}
	if (p->proto == NB_TPUT_TCP && d->tcp_known) {
		nb_json_obj_begin(j, "tcp");
		nb_json_u64(j, "segs_out", d->tcp_segs_out);
		nb_json_u64(j, "retrans_segs", d->tcp_retrans);
		nb_json_double(j, "retrans_pct",
			       d->tcp_segs_out
				   ? 100.0 * (double)d->tcp_retrans / (double)d->tcp_segs_out
				   : NAN,
			       3);
		nb_json_obj_end(j);
	} else if (p->proto == NB_TPUT_TCP) {
		nb_json_null(j, "tcp");
	}
	if (p->proto == NB_TPUT_TCP && d->congestion[0])
		nb_json_str(j, "congestion", d->congestion);
	else if (p->proto == NB_TPUT_TCP)
		nb_json_null(j, "congestion");
	nb_json_double(j, "cpu_other_local_pct", d->other_local_pct, 2);
	nb_json_double(j, "cpu_other_remote_pct", d->other_remote_pct, 2);
	nb_json_bool(j, "cpu_polluted", d->cpu_polluted);
	json_intervals(j, s, size_index, !strcmp(dir, "tx"));
	const struct nb_obs_trial *t = nb_tput_sweep_obs(s, size_index, !strcmp(dir, "tx"));
	if (t && t->n && p->observe)
		nb_obs_json(j, "observers", p->observe, t, true);
	nb_json_obj_end(j);
}

static void json_baseline(struct nb_json *j, const struct nb_tput_baseline *b)
{
	if (!nb_result_baseline_begin(j, &b->local))
		return;
	nb_result_cpu_idle(j, "other_remote_pct", "remote", &b->remote);
	nb_json_obj_end(j);
}

void nb_tput_sweep_json(FILE *f, const struct nb_tput_sweep_params *sp,
			const struct nb_tput_sweep *s)
{
	const struct nb_tput_params *p = sp->p;
	struct nb_json j;

	nb_json_init(&j, f);
	nb_result_begin(&j, "tput", sp->local, sp->remote);
	nb_json_obj_begin(&j, "parameters");
	nb_json_str(&j, "agent", sp->agent);
	nb_json_u64(&j, "port", sp->port);
	nb_json_str(&j, "protocol", p->proto == NB_TPUT_UDP ? "udp" : "tcp");
	nb_json_u64(&j, "streams", p->streams);
	nb_json_u64(&j, "rate_per_stream_bps", p->rate_bps);
	nb_json_double(&j, "time_s", (double)p->time_ns / 1e9, 3);
	nb_json_double(&j, "warmup_s", (double)p->warmup_ns / 1e9, 3);
	if (p->congestion[0])
		nb_json_str(&j, "congestion", p->congestion);
	else
		nb_json_null(&j, "congestion");
	nb_json_str(&j, "mode",
		    s->bidir	     ? "bidir"
		    : s->tx && s->rx ? "tx_then_rx"
		    : s->tx	     ? "tx"
				     : "rx");
	nb_json_obj_end(&j);
	nb_json_bool(&j, "interrupted", s->interrupted);
	json_baseline(&j, &s->baseline);
	nb_json_arr_begin(&j, "steps");
	for (size_t i = 0; i < s->ndone; i++) {
		if (nb_tput_sweep_has(s, i, true))
			json_dir(&j, sp, s, i, "tx", &s->res[i].tx);
		if (nb_tput_sweep_has(s, i, false))
			json_dir(&j, sp, s, i, "rx", &s->res[i].rx);
	}
	nb_json_arr_end(&j);
	nb_json_obj_end(&j);
}

struct sweep_doc {
	const struct nb_tput_sweep_params *sp;
	const struct nb_tput_sweep *s;
};

static void write_sweep(FILE *f, const void *arg)
{
	const struct sweep_doc *d = arg;
	nb_tput_sweep_json(f, d->sp, d->s);
}

int nb_tput_sweep_doc_text(const struct nb_tput_sweep_params *sp, const struct nb_tput_sweep *s,
			   char **text, size_t *len)
{
	const struct sweep_doc d = {sp, s};
	return nb_json_write_text(write_sweep, &d, text, len);
}
