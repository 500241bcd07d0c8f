/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON of `netbench stream` (docs/schema.md): its parameters, each receiver's steps, the
 * sender's steps, and the document of a controller run. */
#include <math.h>
#include <stdio.h>

#include "core/base/json.h"
#include "core/base/result.h"
#include "core/stream/stream_ctl.h"

void nb_stream_json_params(struct nb_json *j, const struct nb_stream_params *o, const char *mode)
{
	nb_json_str(j, "mode", mode);
	nb_json_obj_begin(j, "parameters");
	nb_json_str(j, "address", o->sock.addr);
	nb_json_bool(j, "multicast", o->multicast);
	nb_json_u64(j, "port", o->sock.port);
	if (!o->recv)
		nb_json_u64(j, "block_bytes", o->block);
	if (o->sock.iface)
		nb_json_str(j, "iface", o->sock.iface);
	else
		nb_json_null(j, "iface");
	if (o->sock.source)
		nb_json_str(j, "source", o->sock.source);
	else
		nb_json_null(j, "source");
	if (o->sock.ttl >= 0)
		nb_json_u64(j, "ttl", (uint64_t)o->sock.ttl);
	else
		nb_json_null(j, "ttl");
	nb_json_bool(j, "loop", o->sock.loop);
	if (!o->recv) {
		nb_json_double(j, "step_s", (double)o->time_ns / 1e9, 3);
		nb_json_double(j, "omit_s", (double)o->omit_ns / 1e9, 3);
		nb_json_arr_begin(j, "rates_bps");
		for (size_t i = 0; i < o->nrates; i++)
			nb_json_u64(j, NULL, o->rates[i]);
		nb_json_arr_end(j);
	}
	nb_json_obj_end(j);
}

/* Other processes' share of the step's window and whether it pollutes the CPU figures. */
static void json_other(struct nb_json *j, const struct nb_cpu_load *l, double peer_cpu_s)
{
	double other = nb_cpu_other_pct(l, peer_cpu_s);
	nb_json_double(j, "cpu_other_pct", other, 2);
	nb_json_bool(j, "cpu_polluted", nb_cpu_polluted(other));
}

void nb_stream_json_baseline(struct nb_json *j, const struct nb_cpu_idle *b,
			     const struct nb_stream_ctl_agent *agents, size_t nagents)
{
	if (!nb_result_baseline_begin(j, b))
		return;
	nb_json_arr_begin(j, "agents");
	for (size_t i = 0; i < nagents; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "agent", agents[i].host);
		nb_result_cpu_idle(j, "other_pct", "cpu", &agents[i].base);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_obj_end(j);
}

void nb_stream_prof_summary(const struct nb_stream_step *s, const struct nb_prof_result *r,
			    struct nb_prof_summary *sum)
{
	nb_prof_summarize(r, 0, s->cpu.valid ? s->cpu.busy_cpu_s : NAN, s->unique, sum);
}

void nb_stream_json_rx(struct nb_json *j, const struct nb_stream_rx *rx,
		       struct nb_prof_result *const *prof)
{
	nb_json_arr_begin(j, "steps");
	for (size_t i = 0; i < rx->nsteps; i++) {
		const struct nb_stream_step *s = &rx->steps[i];
		double r = nb_stream_step_rate_bps(s);
		uint64_t exp = nb_stream_step_expected(s), lost = nb_stream_step_lost(s);
		bool valid = nb_stream_step_valid(s);
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "step", s->step);
		nb_json_bool(j, "valid", valid);
		nb_json_u64(j, "rate_bps_asked", s->rate_bps_asked);
		nb_json_double(j, "rate_bps", valid ? r : NAN, 0);
		/* The receiver's window: first to last counted arrival, after the warm-up. */
		nb_json_double(j, "window_s",
			       s->datagrams >= 2 ? (double)(s->last_ns - s->first_ns) / 1e9 : NAN,
			       6);
		nb_json_u64(j, "omit_datagrams", s->omit_count);
		nb_json_u64(j, "warmup_datagrams_received", s->warmup_datagrams);
		nb_json_u64(j, "datagrams", s->datagrams);
		nb_json_u64(j, "bytes", s->bytes);
		nb_json_u64(j, "datagrams_expected", exp);
		nb_json_u64(j, "datagrams_distinct", s->unique);
		nb_json_u64(j, "lost", lost);
		nb_json_double(j, "loss_pct", exp ? 100.0 * (double)lost / (double)exp : 0.0, 4);
		nb_json_u64(j, "reordered", s->reordered);
		nb_json_u64(j, "duplicates", s->dups);
		nb_json_u64(j, "late", s->late);
		nb_json_double(j, "jitter_ms", s->jitter.jitter_ns / 1e6, 6);
		nb_json_u64(j, "gaps", s->gaps);
		if (s->gaps) {
			nb_json_double(j, "gap_p50_us", (double)s->gap_p50_ns / 1e3, 3);
			nb_json_double(j, "gap_p99_us", (double)s->gap_p99_ns / 1e3, 3);
		} else {
			nb_json_null(j, "gap_p50_us");
			nb_json_null(j, "gap_p99_us");
		}
		nb_result_cpu(j, "cpu", &s->cpu);
		nb_json_double(j, "cpu_pct_per_mbit",
			       s->cpu.valid && valid && r > 0 ? s->cpu.busy_pct / (r / 1e6) : NAN,
			       4);
		json_other(j, &s->cpu, s->cpu_peer_s);
		if (prof && i < NB_STREAM_MAX_STEPS && prof[i]) {
			struct nb_prof_summary sum;
			nb_stream_prof_summary(s, prof[i], &sum);
			nb_prof_json(j, "profile", prof[i], &sum);
		} else if (prof) {
			nb_json_null(j, "profile");
		}
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	if (rx->foreign.datagrams) {
		const struct nb_stream_foreign *f = &rx->foreign;
		double r = nb_stream_foreign_rate_bps(f);
		nb_json_obj_begin(j, "foreign");
		nb_json_str(j, "note", "no netbench header: loss cannot be known");
		nb_json_u64(j, "datagrams", f->datagrams);
		nb_json_u64(j, "bytes", f->bytes);
		nb_json_double(j, "rate_bps", r, 0);
		nb_result_cpu(j, "cpu", &f->cpu);
		nb_json_double(j, "cpu_pct_per_mbit",
			       f->cpu.valid && r > 0 ? f->cpu.busy_pct / (r / 1e6) : NAN, 4);
		nb_json_obj_end(j);
	} else {
		nb_json_null(j, "foreign");
	}
	nb_json_u64(j, "other_stream_datagrams", rx->other_stream_datagrams);
}

void nb_stream_json_send(struct nb_json *j, const char *key,
			 const struct nb_stream_send_step *steps, size_t n, size_t block)
{
	nb_json_arr_begin(j, key);
	for (size_t i = 0; i < n; i++) {
		const struct nb_stream_send_step *s = &steps[i];
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "step", i);
		nb_json_u64(j, "rate_bps_asked", s->rate_bps);
		nb_json_double(j, "rate_bps", nb_stream_send_rate_bps(s, block), 0);
		nb_json_u64(j, "datagrams_planned", s->count);
		nb_json_u64(j, "omit_datagrams_planned", s->omit_count);
		nb_json_u64(j, "omit_datagrams", s->omit_datagrams);
		nb_json_u64(j, "datagrams", s->datagrams);
		nb_json_u64(j, "bytes", s->bytes);
		nb_json_u64(j, "send_errors", s->errors);
		nb_json_u64(j, "late_sends", s->late_sends);
		nb_json_double(j, "max_late_ms", (double)s->max_late_ns / 1e6, 6);
		nb_result_cpu(j, "cpu", &s->cpu);
		json_other(j, &s->cpu, s->cpu_peer_s);
		nb_json_obj_begin(j, "pacing");
		nb_json_str(j, "mode", nb_pacing_name((enum nb_pacing_mode)s->pacing_mode));
		nb_json_u64(j, "burst", s->burst);
		nb_json_u64(j, "wakeups", s->wakeups);
		nb_json_double(j, "cpu_s", (double)s->pacing_cpu_ns / 1e9, 6);
		nb_json_double(j, "cpu_pct", nb_pacing_cpu_pct(s->pacing_cpu_ns, s->cpu.window_s),
			       2);
		nb_json_obj_end(j);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

void nb_stream_json_pacing(struct nb_json *j, const struct nb_stream_pacing *pc)
{
	nb_json_obj_begin(j, "pacing");
	nb_json_str(j, "asked", nb_pacing_name(pc->asked));
	nb_json_str(j, "mode", nb_pacing_name(pc->mode));
	if (pc->burst_asked)
		nb_json_u64(j, "burst_asked", pc->burst_asked);
	else
		nb_json_null(j, "burst_asked");
	nb_json_str(j, "iface", pc->ifname);
	nb_json_str(j, "qdisc", pc->qdisc);
	if (pc->why[0])
		nb_json_str(j, "kernel_pacing_unavailable", pc->why);
	else
		nb_json_null(j, "kernel_pacing_unavailable");
	nb_json_obj_end(j);
}

void nb_stream_ctl_json(FILE *f, const struct nb_stream_params *p,
			const struct nb_stream_ctl_result *r)
{
	struct nb_json j;

	nb_json_init(&j, f);
	if (p->reverse) {
		nb_result_begin(&j, "stream", &r->local, &r->agents[0].ctl->remote);
		nb_stream_json_params(&j, p, "agent-sends");
		nb_json_bool(&j, "interrupted", r->interrupted);
		nb_stream_json_baseline(&j, &r->baseline, r->agents, r->nagents);
		nb_stream_json_pacing(&j, &r->pacing);
		nb_stream_json_send(&j, "sent", r->sent, r->nsent, p->block);
		nb_json_arr_begin(&j, "receivers");
		nb_json_obj_begin(&j, NULL);
		nb_json_null(&j, "agent");
		nb_sysinfo_json(&j, "env", &r->local);
		nb_stream_json_rx(&j, r->rx, p->profile_hz ? r->prof : NULL);
		nb_json_obj_end(&j);
		nb_json_arr_end(&j);
	} else {
		nb_result_begin(&j, "stream", &r->local,
				r->nagents == 1 ? &r->agents[0].ctl->remote : NULL);
		nb_stream_json_params(&j, p, "agents-receive");
		nb_json_bool(&j, "interrupted", r->interrupted);
		nb_stream_json_baseline(&j, &r->baseline, r->agents, r->nagents);
		nb_stream_json_pacing(&j, &r->pacing);
		nb_stream_json_send(&j, "sent", r->sent, p->nrates, p->block);
		if (r->obs) {
			/* The observed box over each step's window, as the sender's edges bound it.
			 */
			nb_json_arr_begin(&j, "observed_steps");
			for (size_t i = 0; i < r->nobs && i < r->nsent; i++) {
				if (!r->obs[i].n)
					continue;
				nb_json_obj_begin(&j, NULL);
				nb_json_u64(&j, "step", i);
				nb_json_u64(&j, "rate_bps", r->sent[i].rate_bps);
				nb_json_double(&j, "open_lag_ms",
					       (double)r->obs_lag_ns[2 * i] / 1e6, 3);
				nb_json_double(&j, "close_lag_ms",
					       (double)r->obs_lag_ns[2 * i + 1] / 1e6, 3);
				nb_obs_json(&j, "observers", p->observe, &r->obs[i], true);
				nb_json_obj_end(&j);
			}
			nb_json_arr_end(&j);
		}
		nb_json_arr_begin(&j, "receivers");
		for (size_t i = 0; i < r->nagents; i++) {
			const struct nb_stream_ctl_agent *a = &r->agents[i];
			nb_json_obj_begin(&j, NULL);
			nb_json_str(&j, "agent", a->host);
			nb_sysinfo_json(&j, "env", &a->ctl->remote);
			nb_stream_json_rx(&j, a->rx, p->profile_hz ? a->prof : NULL);
			nb_result_cpu(&j, "run_cpu", &a->run_cpu);
			nb_json_obj_end(&j);
		}
		nb_json_arr_end(&j);
	}
	nb_json_obj_end(&j);
	fputc('\n', f);
}

/* The documents as text: each writer run into memory. */
struct doc {
	const struct nb_stream_params *p;
	const struct nb_stream_ctl_result *ctl;
	const struct nb_sysinfo *si;
	enum nb_stream_end end;
	bool flag; /* recv: recvmmsg_fallback; send: interrupted */
	const struct nb_cpu_idle *base;
	const struct nb_stream_rx *rx;
	struct nb_prof_result *const *prof;
	const struct nb_stream_send_step *steps;
};

static void write_ctl(FILE *f, const void *arg)
{
	const struct doc *d = arg;
	nb_stream_ctl_json(f, d->p, d->ctl);
}

static void write_recv(FILE *f, const void *arg)
{
	const struct doc *d = arg;
	struct nb_json j;

	nb_json_init(&j, f);
	nb_result_begin(&j, "stream", d->si, NULL);
	nb_stream_json_params(&j, d->p, "recv");
	nb_json_str(&j, "end", nb_stream_end_name(d->end));
	nb_json_bool(&j, "interrupted", d->end == NB_END_STOP);
	nb_json_bool(&j, "recvmmsg_fallback", d->flag);
	nb_stream_json_baseline(&j, d->base, NULL, 0);
	nb_stream_json_rx(&j, d->rx, d->prof);
	nb_json_obj_end(&j);
	fputc('\n', f);
}

static void write_send(FILE *f, const void *arg)
{
	const struct doc *d = arg;
	struct nb_json j;

	nb_json_init(&j, f);
	nb_result_begin(&j, "stream", d->si, NULL);
	nb_stream_json_params(&j, d->p, "send");
	nb_json_bool(&j, "interrupted", d->flag);
	nb_stream_json_baseline(&j, d->base, NULL, 0);
	nb_stream_json_pacing(&j, &d->p->pacing);
	nb_stream_json_send(&j, "sent", d->steps, d->p->nrates, d->p->block);
	nb_json_obj_end(&j);
	fputc('\n', f);
}

int nb_stream_ctl_doc_text(const struct nb_stream_params *p, const struct nb_stream_ctl_result *r,
			   char **text, size_t *len)
{
	const struct doc d = {.p = p, .ctl = r};
	return nb_json_write_text(write_ctl, &d, text, len);
}

int nb_stream_recv_doc_text(const struct nb_stream_params *p, const struct nb_sysinfo *si,
			    enum nb_stream_end end, bool recvmmsg_fallback,
			    const struct nb_cpu_idle *base, const struct nb_stream_rx *rx,
			    struct nb_prof_result *const *prof, char **text, size_t *len)
{
	const struct doc d = {.p = p,
			      .si = si,
			      .end = end,
			      .flag = recvmmsg_fallback,
			      .base = base,
			      .rx = rx,
			      .prof = prof};
	return nb_json_write_text(write_recv, &d, text, len);
}

int nb_stream_send_doc_text(const struct nb_stream_params *p, const struct nb_sysinfo *si,
			    bool interrupted, const struct nb_cpu_idle *base,
			    const struct nb_stream_send_step *steps, char **text, size_t *len)
{
	const struct doc d = {.p = p, .si = si, .flag = interrupted, .base = base, .steps = steps};
	return nb_json_write_text(write_send, &d, text, len);
}
