/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON documents of `netbench rate` (docs/schema.md): parameters, then every frame size's
 * result with each of its trials, or the points and fits of a rule sweep. */
#include <stdio.h>

#include "core/base/json.h"
#include "core/base/result.h"
#include "core/rate/frame.h"
#include "core/rate/rate_run.h"

/* One-way latency is "latency_ns", round trip "rtt_ns": a reader cannot take one for the
 * other. */
static void json_latency(struct nb_json *j, const struct nb_rate_run *r, bool valid,
			 const uint64_t *ns)
{
	const char *key = r->rtt ? "rtt_ns" : "latency_ns";
	if (!valid) {
		nb_json_null(j, key);
		return;
	}
	nb_rate_json_latency(j, key, r->rtt ? "round-trip" : "one-way", ns);
}

void nb_rate_json_latency(struct nb_json *j, const char *key, const char *kind, const uint64_t *ns)
{
	nb_json_obj_begin(j, key);
	nb_json_str(j, "kind", kind);
	nb_json_u64(j, "min", ns[5]);
	nb_json_u64(j, "p50", ns[0]);
	nb_json_u64(j, "p90", ns[1]);
	nb_json_u64(j, "p99", ns[2]);
	nb_json_u64(j, "p99_9", ns[3]);
	nb_json_u64(j, "max", ns[4]);
	nb_json_obj_end(j);
}

/* The document's frame: platforms and parameters. */
static void json_head(struct nb_json *j, const struct nb_rate_run *r)
{
	const struct nb_rate_params *p = r->p;
	const struct nb_rx_engine *rx = p->receiver;

	/* The DUT is what a rate run measures: its observer's platform (the first observer's)
	 * is the result's, beside the generator's (local) and the receiver's (remote). */
	const struct nb_obs_set *obs = p->observe;
	nb_result_begin_dut(j, "rate", &r->local, rx->remote ? &r->remote : NULL,
			    obs && obs->n && obs->ctl[0] ? &obs->si[0] : NULL);
	nb_json_obj_begin(j, "parameters");
	nb_json_str(j, "procedure", nb_rate_test_names[p->test]);
	nb_json_str(j, "engine", p->engine->name);
	nb_json_str(j, "engine_detail", r->engine_desc);
	nb_json_u64(j, "flows", p->flows);
	nb_json_u64(j, "threads", p->threads ? p->threads : 1);
	nb_json_arr_begin(j, "cpus");
	for (uint32_t i = 0; i < p->ncpus; i++)
		nb_json_u64(j, NULL, p->cpus[i]);
	nb_json_arr_end(j);
	nb_json_u64(j, "receiver_threads", r->rx_threads);
	nb_json_u64(j, "trial_ns", p->trial_ns);
	nb_json_u64(j, "drain_ns", p->drain_ns);
	nb_json_double(j, "loss_tolerance_pct", p->loss_tolerance * 100, 4);
	if (p->resolution_fps)
		nb_json_u64(j, "resolution_fps", p->resolution_fps);
	else
		nb_json_double(j, "resolution_pct", p->resolution_pct, 4);
	nb_json_u64(j, "rate_fps", p->rate_fps);
	if (p->rate_bps)
		nb_json_u64(j, "rate_bps", p->rate_bps);
	if (p->rate_line_pct > 0)
		nb_json_double(j, "rate_line_pct", p->rate_line_pct, 4);
	nb_json_u64(j, "line_rate_bps", p->line_bps);
	nb_json_u64(j, "burst", p->burst);
	nb_json_str(j, "pacing_asked", nb_pacing_name(p->pacing_asked));
	nb_json_str(j, "pacing", nb_pacing_name(p->pacing));
	nb_json_bool(j, "realtime", p->realtime);
	nb_json_str(j, "receiver", rx->name);
	nb_json_bool(j, "one_way_latency", !r->rtt && r->same_clock);
	nb_json_str(j, "latency", r->rtt ? "round-trip" : r->same_clock ? "one-way" : "none");
	if (rx->counts)
		nb_json_str(j, "receiver_detail",
			    r->snap->mmsg ? "recvmmsg, up to 64 frames per call"
					  : "recvmsg, one frame per call (recvmmsg unavailable or "
					    "not asked for)");
	if (r->have_path) {
		nb_json_str(j, "interface", r->path.ifname);
		nb_json_u64(j, "mtu", r->path.mtu);
	}
	nb_json_arr_begin(j, "observe");
	for (size_t i = 0; p->observe && i < p->observe->n; i++)
		nb_json_str(j, NULL, p->observe->spec[i]);
	nb_json_arr_end(j);
	if (p->observe && p->observe->n) {
		nb_json_u64(j, "observe_samples_per_s", p->observe->req.sample_hz);
		if (p->observe->dut_mask)
			nb_json_u64(j, "dut_cpu_mask", p->observe->dut_mask);
		else
			nb_json_null(j, "dut_cpu_mask");
	}
	if (p->rx.rcvbuf)
		nb_json_u64(j, "rcvbuf_bytes", p->rx.rcvbuf);
	nb_rate_json_mix(j, p);
	nb_rate_json_flows(j, r);
	nb_rate_json_bidir_param(j, p);
	if (p->test == NB_RATE_NDRPDR) {
		nb_json_arr_begin(j, "loss_ratios_pct");
		for (uint32_t i = 0; i < p->nratios; i++)
			nb_json_double(j, NULL, p->loss_ratios[i] * 100, 4);
		nb_json_arr_end(j);
		nb_json_u64(j, "final_trial_ns",
			    p->final_trial_ns ? p->final_trial_ns : p->trial_ns);
		nb_json_u64(j, "repeat", p->repeat);
	}
	nb_json_double(j, "learning_timeout_s",
		       (double)nb_rate_learn_timeout_ns(p, r->dst.ss_family) / 1e9, 3);
	nb_json_obj_end(j);
}

/* A trial's share per generator thread. */
static void json_threads(struct nb_json *j, uint32_t threads, const struct nb_rate_trial *t)
{
	nb_json_arr_begin(j, "threads");
	for (uint32_t i = 0; i < threads; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "asked_fps", t->thread_asked_fps[i]);
		nb_json_u64(j, "tx_frames", t->thread_tx[i]);
		nb_json_double(j, "offered_fps",
			       t->thread_window_ns[i]
				   ? (double)t->thread_tx[i] * 1e9 / (double)t->thread_window_ns[i]
				   : 0,
			       1);
		nb_json_double(j, "window_s", (double)t->thread_window_ns[i] / 1e9, 6);
		nb_json_u64(j, "slipped_frames", t->thread_slipped[i]);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

static void json_trial(struct nb_json *j, const struct nb_rate_run *r,
		       const struct nb_rate_trial *t)
{
	const struct nb_rx_engine *rx = r->p->receiver;

	nb_json_obj_begin(j, NULL);
	nb_json_u64(j, "id", t->id);
	nb_json_str(j, "purpose", t->purpose);
	nb_json_double(j, "asked_fps", t->asked_fps, 1);
	if (t->asked_frames)
		nb_json_u64(j, "asked_frames", t->asked_frames);
	nb_json_double(j, "offered_fps", t->offered_fps, 1);
	nb_json_double(j, "window_s", t->window_s, 6);
	nb_json_u64(j, "slipped_frames", t->slipped_frames);
	if (r->p->threads > 1)
		json_threads(j, r->p->threads, t);
	nb_json_bool(j, "valid", t->c.valid);
	if (!t->c.valid)
		nb_json_str(j, "invalid_reason", t->c.why);
	nb_json_u64(j, "tx_frames", t->c.tx);
	if (rx->counts) {
		nb_json_u64(j, "rx_frames", t->c.rx);
		nb_json_u64(j, "lost_frames", t->c.lost);
		nb_json_u64(j, "duplicated_frames", t->c.dup);
		nb_json_u64(j, "reordered_frames", t->c.reordered);
		nb_json_u64(j, "late_frames", t->c.late);
		nb_rate_json_trial_mix(j, r->p, t);
		nb_rate_json_trial_flows(j, r->p, t);
		if (t->drops_known)
			nb_json_u64(j, "receiver_dropped_frames", t->rx_dropped);
		else
			nb_json_null(j, "receiver_dropped_frames");
		nb_json_double(j, "loss_pct",
			       t->c.tx ? 100.0 * (double)t->c.lost / (double)t->c.tx : 0, 4);
	}
	json_latency(j, r, t->lat_valid, t->lat_ns);
	nb_rate_json_trial_bidir(j, r, t);
	if (r->rtt) {
		nb_json_u64(j, "probe_every", t->probe_every);
		nb_json_u64(j, "probes_sent", t->probes_sent);
		nb_json_u64(j, "probes_received", t->probes_rx);
		nb_json_u64(j, "probes_reflected", t->probes_reflected);
		nb_json_u64(j, "probes_returned", t->probes_returned);
	}
	nb_result_cpu(j, "cpu_local", &t->cpu);
	if (t->pacing == NB_PACING_AUTO) {
		nb_json_null(j, "pacing"); /* flat out: nothing paced */
	} else {
		nb_json_obj_begin(j, "pacing");
		nb_json_str(j, "mode", nb_pacing_name(t->pacing));
		nb_json_u64(j, "burst", t->pacing_burst);
		nb_json_u64(j, "wakeups", t->pacing_wakeups);
		nb_json_double(j, "cpu_s", (double)t->pacing_cpu_ns / 1e9, 6);
		nb_json_double(j, "cpu_pct", nb_pacing_cpu_pct(t->pacing_cpu_ns, t->window_s), 2);
		nb_json_obj_end(j);
	}
	if (rx->remote)
		nb_result_cpu(j, "cpu_remote", &t->cpu_remote);
	if (t->obs.n)
		nb_obs_json(j, "observers", r->p->observe, &t->obs, false);
	nb_json_obj_end(j);
}

/* One point's results: the "sizes" array (every trial of each) and the verdict. */
static void json_sizes(struct nb_json *j, const struct nb_rate_run *r, const struct nb_rate_size *s,
		       size_t n, const struct nb_rate_overall *v)
{
	const struct nb_rate_params *p = r->p;

	nb_json_arr_begin(j, "sizes");
	for (size_t i = 0; i < n; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "frame_bytes", s[i].size);
		nb_json_u64(j, "payload_bytes",
			    nb_frame_payload_bytes(r->dst.ss_family, s[i].size));
		nb_json_double(j, "fps", s[i].fps, 1);
		nb_json_double(j, "mbit_per_s",
			       s[i].fps * nb_rate_frame_bytes(p, s[i].size) * 8 / 1e6, 3);
		if (p->line_bps)
			nb_json_double(j, "line_rate_pct", nb_rate_line_pct(p, s[i].size, s[i].fps),
				       2);
		else
			nb_json_null(j, "line_rate_pct");
		nb_json_double(j, "loss_pct", s[i].loss_pct, 4);
		nb_json_bool(j, "verified", s[i].verified);
		nb_json_bool(j, "generator_max", s[i].at_max);
		nb_json_bool(j, "generator_short", s[i].gen_short);
		nb_json_bool(j, "zero_at_every_rate", s[i].zero);
		nb_json_bool(j, "valid", !s[i].failed);
		nb_json_bool(j, "receiver_limited", s[i].receiver_limited);
		if (p->test == NB_RATE_B2B) {
			nb_json_double(j, "b2b_frames_avg", s[i].b2b_avg, 1);
			nb_json_double(j, "b2b_frames_min", s[i].b2b_min, 0);
			nb_json_double(j, "b2b_frames_max", s[i].b2b_max, 0);
		}
		json_latency(j, r, s[i].lat_valid, s[i].lat_ns);
		nb_rate_json_ratios(j, p, &s[i]);
		nb_rate_json_size_bidir(j, p, &s[i]);
		nb_json_arr_begin(j, "trials");
		for (size_t k = s[i].first_trial; k < s[i].first_trial + s[i].ntrials; k++)
			json_trial(j, r, &r->proc.trials[k]);
		nb_json_arr_end(j);
		if (s[i].have_bneck) {
			nb_obs_json_verdict(j, "bottleneck", &s[i].bneck);
			nb_json_u64(j, "bottleneck_trial", r->proc.trials[s[i].bneck_trial].id);
		} else {
			nb_json_null(j, "bottleneck");
			nb_json_null(j, "bottleneck_trial");
		}
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	if (v->have)
		nb_json_str(j, "verdict", v->text);
}

void nb_rate_json(FILE *f, const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n,
		  const struct nb_rate_overall *v)
{
	struct nb_json j;

	nb_json_init(&j, f);
	json_head(&j, r);
	nb_json_bool(&j, "interrupted", r->interrupted);
	json_sizes(&j, r, s, n, v);
	nb_rate_json_learning(&j, r);
	nb_json_obj_end(&j);
	fputc('\n', f);
}

void nb_rate_json_clocks(FILE *f, const struct nb_rate_run *r, const struct nb_rate_clock_point *p,
			 size_t np, bool have_freq, const struct nb_rate_clock_fits *fits)
{
	struct nb_json j;

	nb_json_init(&j, f);
	json_head(&j, r);
	nb_json_bool(&j, "interrupted", r->interrupted);
	nb_json_arr_begin(&j, "clocks");
	for (size_t c = 0; c < np; c++) {
		nb_json_obj_begin(&j, NULL);
		if (have_freq)
			nb_json_u64(&j, "mhz", p[c].mhz);
		else
			nb_json_null(&j, "mhz");
		nb_json_str(&j, "note", p[c].note);
		json_sizes(&j, r, p[c].res, r->p->nsizes, &p[c].verdict);
		nb_json_obj_end(&j);
	}
	nb_json_arr_end(&j);
	nb_json_arr_begin(&j, "clock_fit");
	for (size_t i = 0; have_freq && np && i < fits->n; i++) {
		const struct nb_clock_fit *fit = &fits->f[i].fit;
		if (!fits->f[i].have)
			continue;
		nb_json_obj_begin(&j, NULL);
		nb_json_u64(&j, "frame_bytes", fits->f[i].frame_bytes);
		nb_json_double(&j, "exponent", fit->exponent, 3);
		nb_json_double(&j, "exponent_lo", fit->lo, 3);
		nb_json_double(&j, "exponent_hi", fit->hi, 3);
		nb_json_u64(&j, "dof", fit->dof);
		nb_json_double(&j, "r2", fit->r2, 3);
		nb_json_u64(&j, "points", fit->points);
		nb_json_bool(&j, "cpu_bound", fit->cpu_bound);
		nb_json_str(&j, "wording", fit->wording);
		nb_json_obj_end(&j);
	}
	nb_json_arr_end(&j);
	nb_json_str(&j, "clock_note", have_freq || !np ? NULL : p[0].note);
	nb_rate_json_learning(&j, r);
	nb_json_obj_end(&j);
	fputc('\n', f);
}

void nb_rate_json_sweep(FILE *f, const struct nb_rate_run *r, const struct nb_rate_sweep_point *p,
			size_t np, const struct nb_rate_sweep_fits *fits)
{
	const struct nb_rate_params *pa = r->p;
	struct nb_json j;

	nb_json_init(&j, f);
	json_head(&j, r);
	nb_json_bool(&j, "interrupted", r->interrupted);
	nb_json_arr_begin(&j, "sweep");
	for (size_t i = 0; i < np; i++) {
		nb_json_obj_begin(&j, NULL);
		nb_json_str(&j, "kind", nb_lab_rules_kind_name(p[i].kind));
		nb_json_u64(&j, "rules", p[i].rules);
		nb_json_u64(&j, "rules_read_back", p[i].rules_read);
		nb_json_u64(&j, "set_elements_read_back", p[i].elems_read);
		json_sizes(&j, r, p[i].res, pa->nsizes, &p[i].verdict);
		nb_json_obj_end(&j);
	}
	nb_json_arr_end(&j);
	nb_json_arr_begin(&j, "fits");
	for (size_t i = 0; i < fits->n; i++) {
		const struct nb_rate_rule_fit *x = &fits->f[i];
		if (!x->have_fit)
			continue;
		nb_json_obj_begin(&j, NULL);
		nb_json_str(&j, "kind", nb_lab_rules_kind_name(x->kind));
		nb_json_u64(&j, "frame_bytes", x->frame_bytes);
		nb_json_double(&j, "base_ns", x->fit.base_ns, 1);
		nb_json_double(&j, "per_rule_ns", x->fit.per_rule_ns, 3);
		nb_json_double(&j, "residual_ns", x->fit.residual_ns, 1);
		nb_json_u64(&j, "points", x->fit.points);
		nb_lab_fit_json(&j, &x->fit);
		nb_json_str(&j, "text", x->fit_text);
		nb_json_bool(&j, "ruleset_bound", x->ruleset_bound);
		nb_json_str(&j, "ruleset_text", x->bound_text);
		/* netfilter's cost measured by the kernel profile, fitted the same way */
		if (x->have_nf_fit) {
			nb_json_obj_begin(&j, "profile_netfilter");
			nb_json_double(&j, "base_ns", x->nf_fit.base_ns, 1);
			nb_json_double(&j, "per_rule_ns", x->nf_fit.per_rule_ns, 3);
			nb_json_double(&j, "residual_ns", x->nf_fit.residual_ns, 1);
			nb_json_u64(&j, "points", x->nf_fit.points);
			nb_lab_fit_json(&j, &x->nf_fit);
			nb_json_str(&j, "text", x->nf_text);
			nb_json_obj_end(&j);
		} else {
			nb_json_null(&j, "profile_netfilter");
		}
		nb_json_obj_end(&j);
	}
	nb_json_arr_end(&j);
	nb_rate_json_learning(&j, r);
	nb_json_obj_end(&j);
	fputc('\n', f);
}

/* The documents as text: each writer above, run into memory. */
struct doc {
	const struct nb_rate_run *r;
	size_t n;
	const struct nb_rate_size *s;
	const struct nb_rate_overall *v;
	const struct nb_rate_sweep_point *sweep;
	const struct nb_rate_sweep_fits *sweep_fits;
	const struct nb_rate_clock_point *clocks;
	bool have_freq;
	const struct nb_rate_clock_fits *clock_fits;
};

static void write_run(FILE *f, const void *arg)
{
	const struct doc *d = arg;
	nb_rate_json(f, d->r, d->s, d->n, d->v);
}

static void write_sweep(FILE *f, const void *arg)
{
	const struct doc *d = arg;
	nb_rate_json_sweep(f, d->r, d->sweep, d->n, d->sweep_fits);
}

static void write_clocks(FILE *f, const void *arg)
{
	const struct doc *d = arg;
	nb_rate_json_clocks(f, d->r, d->clocks, d->n, d->have_freq, d->clock_fits);
}

int nb_rate_doc_text(const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n,
		     const struct nb_rate_overall *v, char **text, size_t *len)
{
	const struct doc d = {.r = r, .n = n, .s = s, .v = v};
	return nb_json_write_text(write_run, &d, text, len);
}

int nb_rate_sweep_doc_text(const struct nb_rate_run *r, const struct nb_rate_sweep_point *p,
			   size_t np, const struct nb_rate_sweep_fits *fits, char **text,
			   size_t *len)
{
	const struct doc d = {.r = r, .n = np, .sweep = p, .sweep_fits = fits};
	return nb_json_write_text(write_sweep, &d, text, len);
}

int nb_rate_clocks_doc_text(const struct nb_rate_run *r, const struct nb_rate_clock_point *p,
			    size_t np, bool have_freq, const struct nb_rate_clock_fits *fits,
			    char **text, size_t *len)
{
	const struct doc d = {
	    .r = r, .n = np, .clocks = p, .have_freq = have_freq, .clock_fits = fits};
	return nb_json_write_text(write_clocks, &d, text, len);
}
