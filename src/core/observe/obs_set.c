/* SPDX-License-Identifier: BSD-2-Clause */
/* Observer sessions of a run and their JSON. */
#include "core/observe/obs_set.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/session/proto.h"

int nb_obs_set_open(struct nb_obs_set *c, const uint8_t *psk, size_t psk_len, char *err,
		    size_t errlen)
{
	char why[512];
	if (!c->req.sample_hz) {
		/* Not asked: the default rate, which the agent lowers where its samples cost
		 * more than NB_OBS_SAMPLE_SHARE_PCT of a CPU (a slow board). */
		c->req.sample_hz = NB_OBS_SAMPLE_HZ_DEFAULT;
		c->req.adapt = true;
	}
	for (size_t i = 0; i < c->n; i++) {
		int ret = nb_obs_ctl_open(&c->ctl[i], c->spec[i], NB_DEFAULT_PORT, psk, psk_len,
					  why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "observer %s: %s", c->spec[i], why);
			return ret;
		}
		c->si[i] = *nb_obs_ctl_remote(c->ctl[i]);
		c->shared_kernel[i] = nb_obs_same_kernel(&c->si[i]);
	}
	return 0;
}

bool nb_obs_same_kernel(const struct nb_sysinfo *remote)
{
	struct nb_sysinfo l;
	memset(&l, 0, sizeof(l));
	nb_sysinfo_get(&l, NULL);
	return l.hostname[0] && !strcmp(l.hostname, remote->hostname) &&
	       !strcmp(l.kernel, remote->kernel) && !strcmp(l.kernel_build, remote->kernel_build) &&
	       !strcmp(l.cpu_model, remote->cpu_model) && l.ncpu == remote->ncpu;
}

void nb_obs_set_close(struct nb_obs_set *c)
{
	for (size_t i = 0; i < c->n; i++) {
		nb_obs_ctl_free(c->ctl[i]);
		c->ctl[i] = NULL;
	}
}

int nb_obs_set_begin(struct nb_obs_set *c, uint64_t duration_ns, char *err, size_t errlen)
{
	char why[512], note[256];
	struct nb_obs_req r = c->req;
	r.clock_khz = c->clock_khz;
	for (size_t i = 0; i < c->n; i++) {
		bool hf = true;
		int ret = nb_obs_ctl_begin(c->ctl[i], duration_ns, &r, note, sizeof(note), &hf, why,
					   sizeof(why));
		if (ret) {
			snprintf(err, errlen, "observer %s: %s", c->spec[i], why);
			return ret;
		}
		if (i == 0 && r.clock_khz) {
			snprintf(c->clock_note, sizeof(c->clock_note), "%s", note);
			c->have_freq = hf;
		}
	}
	return 0;
}

int nb_obs_set_end(struct nb_obs_set *c, struct nb_obs_trial *t, char *err, size_t errlen)
{
	char why[512];
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < c->n; i++) {
		t->w[i] = calloc(1, sizeof(*t->w[i]));
		t->s[i] = calloc(1, sizeof(*t->s[i]));
		t->n = i + 1;
		if (c->req.profile_hz && (!(t->prof[i] = calloc(1, sizeof(*t->prof[i]))) ||
					  !(t->psum[i] = calloc(1, sizeof(*t->psum[i]))))) {
			snprintf(err, errlen, "observer %s: %s", c->spec[i], strerror(ENOMEM));
			return -ENOMEM;
		}
		if (!t->w[i] || !t->s[i]) {
			snprintf(err, errlen, "observer %s: %s", c->spec[i], strerror(ENOMEM));
			return -ENOMEM;
		}
		int ret = nb_obs_ctl_end(c->ctl[i], t->w[i], t->prof[i], why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "observer %s: %s", c->spec[i], why);
			return ret;
		}
		t->mask[i] = c->dut_mask ? c->dut_mask : t->w[i]->rps_mask;
		nb_obs_summarize(t->w[i], t->mask[i], t->s[i]);
	}
	nb_obs_trial_cost(c, t, NB_OBS_FRAMES_EGRESS, 0, 0);
	return 0;
}

void nb_obs_trial_free(struct nb_obs_trial *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->w[i]);
		free(t->s[i]);
		free(t->prof[i]);
		free(t->psum[i]);
	}
	memset(t, 0, sizeof(*t));
}

double nb_obs_clock_mhz(const struct nb_obs_set *c, size_t i, const struct nb_obs_summary *s)
{
	if (s->clock_mhz > 0)
		return s->clock_mhz;
	return c->si[i].cpu_mhz > 0 ? c->si[i].cpu_mhz : 0;
}

/* Wire packets of an interface's count: packets, or where they average more than one
 * MTU-sized frame (GSO/GRO super-frames), bytes / (MTU + 14). */
static uint64_t wire_packets(uint64_t packets, uint64_t bytes, uint32_t mtu, const char *dir,
			     const char **from)
{
	uint64_t seg = (mtu ? mtu : 1500) + 14;
	if (!packets || bytes / packets <= seg) {
		*from = !strcmp(dir, "rx") ? "rx_packets" : "tx_packets";
		return packets;
	}
	if (!strcmp(dir, "rx"))
		*from = mtu ? "rx_bytes / (MTU + 14): GSO/GRO super-frames counted as segments"
			    : "rx_bytes / 1514: GSO/GRO super-frames counted as segments, MTU "
			      "unknown, 1500 assumed";
	else
		*from = mtu ? "tx_bytes / (MTU + 14): GSO/GRO super-frames counted as segments"
			    : "tx_bytes / 1514: GSO/GRO super-frames counted as segments, MTU "
			      "unknown, 1500 assumed";
	return (bytes + seg - 1) / seg;
}

void nb_obs_cost_decide(const struct nb_obs_snap *w, const struct nb_obs_summary *s,
			double clock_mhz, bool cpufreq, uint64_t forwarded, uint64_t bytes,
			uint32_t mtu, struct nb_obs_cost *k)
{
	const struct nb_obs_if *in = NULL, *out = NULL;
	memset(k, 0, sizeof(*k));
	if (s->ingress_if >= 0 && (uint32_t)s->ingress_if < w->nif)
		in = &w->ifs[s->ingress_if];
	if (s->egress_if >= 0 && (uint32_t)s->egress_if < w->nif)
		out = &w->ifs[s->egress_if];
	k->clock_mhz = clock_mhz > 0 ? clock_mhz : 0;
	k->clock_from = k->clock_mhz > 0 ? cpufreq ? "cpufreq" : "/proc/cpuinfo" : NULL;
	/* The frames that entered the DUT's stack: a frame its backlog refused or its NIC missed
	 * never reached its CPU (with RPS the refusal even costs another CPU), so it is not one
	 * the DUT handled. */
	if (in)
		k->ingress_frames =
		    wire_packets(in->rx_packets, in->rx_bytes, mtu, "rx", &k->ingress_from);
	if (forwarded != NB_OBS_FRAMES_EGRESS) {
		k->forwarded_frames = forwarded;
		k->forwarded_from = "the receiver's count";
	} else if (out) {
		k->forwarded_frames =
		    wire_packets(out->tx_packets, out->tx_bytes, mtu, "tx", &k->forwarded_from);
	}
	k->cycles_per_frame = nb_cycles_per_frame(s->busy_cpu_s, k->clock_mhz, k->ingress_frames);
	k->cycles_per_forwarded_frame =
	    nb_cycles_per_frame(s->busy_cpu_s, k->clock_mhz, k->forwarded_frames);
	k->cycles_per_byte =
	    bytes ? nb_cycles_per_frame(s->busy_cpu_s, k->clock_mhz, bytes) : (double)NAN;
}

void nb_obs_trial_cost(const struct nb_obs_set *c, struct nb_obs_trial *t, uint64_t forwarded,
		       uint64_t bytes, uint32_t mtu)
{
	for (size_t i = 0; i < t->n; i++) {
		nb_obs_cost_decide(t->w[i], t->s[i], nb_obs_clock_mhz(c, i, t->s[i]),
				   t->s[i]->clock_mhz > 0, forwarded, bytes, mtu, &t->cost[i]);
		/* ns per frame per category: per frame that entered the DUT's stack, as the
		 * cycles per frame. */
		if (t->prof[i] && t->psum[i])
			nb_prof_summarize(t->prof[i], t->mask[i], t->s[i]->busy_cpu_s,
					  t->cost[i].ingress_frames, t->psum[i]);
	}
}

/* A figure, or null where it is not known. */
static void json_num(struct nb_json *j, const char *key, double v, int prec)
{
	if (isnan(v))
		nb_json_null(j, key);
	else
		nb_json_double(j, key, v, prec);
}

/* The window and what the observer itself cost in it. */
static void observer_json(struct nb_json *j, const struct nb_obs_snap *w,
			  const struct nb_obs_summary *s)
{
	nb_json_double(j, "window_s", s->window_s, 3);
	nb_json_u64(j, "samples", w->samples);
	nb_json_double(j, "observer_cpu_pct", s->self_cpu_pct, 3);
	nb_json_bool(j, "observer_over_budget", s->self_over_budget);
	/* What the observer's cost is made of: its samples inside the window, and its two
	 * full snapshots at the edges, outside it (null: an agent that does not time them).
	 */
	if (s->cost_known) {
		nb_json_double(j, "observer_sample_us", s->sample_us, 1);
		nb_json_double(j, "observer_sampling_cpu_pct", s->sampling_pct, 3);
		nb_json_double(j, "observer_edges_ms", s->edge_ms, 2);
		nb_json_double(j, "observer_sample_period_ms", (double)w->sample_period_ns / 1e6,
			       1);
	} else {
		nb_json_null(j, "observer_sample_us");
		nb_json_null(j, "observer_sampling_cpu_pct");
		nb_json_null(j, "observer_edges_ms");
		nb_json_null(j, "observer_sample_period_ms");
	}
}

/* The DUT's CPUs: those it forwards on, each one's load, the busiest and the peak. */
static void cpus_json(struct nb_json *j, const struct nb_obs_trial *t, size_t i)
{
	const struct nb_obs_snap *w = t->w[i];
	const struct nb_obs_summary *s = t->s[i];

	nb_json_arr_begin(j, "dut_cpus");
	for (uint32_t n = 0; n < s->ncpu; n++)
		if (!t->mask[i] || (s->cpu[n].id < 64 && (t->mask[i] >> s->cpu[n].id) & 1))
			nb_json_u64(j, NULL, s->cpu[n].id);
	nb_json_arr_end(j);
	nb_json_bool(j, "dut_cpus_rps", t->mask[i] && w->rps_mask == t->mask[i]);
	nb_json_arr_begin(j, "cpus");
	for (uint32_t n = 0; n < s->ncpu; n++) {
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "cpu", s->cpu[n].id);
		nb_json_double(j, "user_pct", s->cpu[n].user_pct, 1);
		nb_json_double(j, "system_pct", s->cpu[n].system_pct, 1);
		nb_json_double(j, "irq_pct", s->cpu[n].irq_pct, 1);
		nb_json_double(j, "softirq_pct", s->cpu[n].softirq_pct, 1);
		nb_json_double(j, "idle_pct", s->cpu[n].idle_pct, 1);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	if (s->busiest_cpu >= 0) {
		nb_json_u64(j, "busiest_cpu", (uint64_t)s->busiest_cpu);
		nb_json_double(j, "busiest_cpu_pct", s->busiest_pct, 1);
		nb_json_str(j, "busiest_with", s->busiest_with);
	} else {
		nb_json_null(j, "busiest_cpu");
		nb_json_null(j, "busiest_cpu_pct");
		nb_json_null(j, "busiest_with");
	}
	if (w->peak_cpu >= 0) {
		nb_json_u64(j, "peak_cpu", (uint64_t)w->peak_cpu);
		nb_json_double(j, "peak_cpu_pct", w->peak_busy_pct, 1);
	} else {
		nb_json_null(j, "peak_cpu");
		nb_json_null(j, "peak_cpu_pct");
	}
}

static void interfaces_json(struct nb_json *j, const struct nb_obs_snap *w)
{
	nb_json_arr_begin(j, "interfaces");
	for (uint32_t n = 0; n < w->nif; n++) {
		const struct nb_obs_if *p = &w->ifs[n];
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "name", p->name);
		nb_json_u64(j, "rx_packets", p->rx_packets);
		nb_json_u64(j, "tx_packets", p->tx_packets);
		nb_json_u64(j, "rx_bytes", p->rx_bytes);
		nb_json_u64(j, "tx_bytes", p->tx_bytes);
		nb_json_u64(j, "rx_dropped", p->rx_dropped);
		nb_json_u64(j, "rx_missed_errors", p->rx_missed);
		nb_json_u64(j, "rx_fifo_errors", p->rx_fifo);
		nb_json_u64(j, "rx_over_errors", p->rx_over);
		nb_json_u64(j, "tx_dropped", p->tx_dropped);
		nb_json_u64(j, "tx_errors", p->tx_errors);
		if (p->speed_mbps)
			nb_json_u64(j, "speed_mbit_per_s", p->speed_mbps);
		else
			nb_json_null(j, "speed_mbit_per_s");
		if (p->have_qdisc) {
			nb_json_u64(j, "qdisc_drops", p->qdisc_drops);
			nb_json_u64(j, "qdisc_overlimits", p->qdisc_overlimits);
			nb_json_u64(j, "qdisc_requeues", p->qdisc_requeues);
		} else {
			nb_json_null(j, "qdisc_drops");
			nb_json_null(j, "qdisc_overlimits");
			nb_json_null(j, "qdisc_requeues");
		}
		nb_json_obj_begin(j, "driver");
		for (uint32_t q = 0; q < p->neth; q++)
			nb_json_u64(j, p->eth[q].name, p->eth[q].value);
		nb_json_obj_end(j);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

/* The forwarding's cost: the CPU time and clock, the frames, and the cycles per frame (and per
 * byte where bytes count). */
static void cost_json(struct nb_json *j, const struct nb_obs_summary *s,
		      const struct nb_obs_cost *k, bool bytes)
{
	if (s->clock_mhz > 0)
		nb_json_double(j, "cpufreq_mhz", s->clock_mhz, 0);
	else
		nb_json_null(j, "cpufreq_mhz");
	nb_json_double(j, "busy_cpu_s", s->busy_cpu_s, 4);
	if (k->clock_mhz > 0)
		nb_json_double(j, "clock_mhz", k->clock_mhz, 0);
	else
		nb_json_null(j, "clock_mhz");
	nb_json_u64(j, "ingress_frames", k->ingress_frames);
	nb_json_str(j, "ingress_frames_from", k->ingress_from);
	nb_json_u64(j, "forwarded_frames", k->forwarded_frames);
	nb_json_str(j, "forwarded_frames_from", k->forwarded_from);
	json_num(j, "cycles_per_frame", k->cycles_per_frame, 1);
	json_num(j, "cycles_per_forwarded_frame", k->cycles_per_forwarded_frame, 1);
	if (bytes)
		json_num(j, "cycles_per_byte", k->cycles_per_byte, 3);
}

void nb_obs_json(struct nb_json *j, const char *key, const struct nb_obs_set *c,
		 const struct nb_obs_trial *t, bool bytes)
{
	nb_json_arr_begin(j, key);
	for (size_t i = 0; i < t->n; i++) {
		const struct nb_obs_snap *w = t->w[i];
		const struct nb_obs_summary *s = t->s[i];
		double ws = s->window_s > 0 ? s->window_s : 1;
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "observer", c->spec[i]);
		nb_json_str(j, "hostname", c->si[i].hostname);
		/* The observed box's own platform: a board's arch, kernel and clocks. */
		nb_sysinfo_json(j, "env", &c->si[i]);
		observer_json(j, w, s);
		cpus_json(j, t, i);
		nb_json_obj_begin(j, "softnet");
		nb_json_u64(j, "processed", s->softnet_processed);
		nb_json_u64(j, "dropped", s->softnet_dropped);
		nb_json_u64(j, "time_squeeze", s->softnet_squeezed);
		nb_json_obj_end(j);
		nb_json_arr_begin(j, "interrupts");
		for (uint32_t n = 0; n < w->nirq; n++) {
			nb_json_obj_begin(j, NULL);
			nb_json_str(j, "name", w->irq[n].name);
			nb_json_u64(j, "count", w->irq[n].count);
			nb_json_double(j, "per_s", (double)w->irq[n].count / ws, 1);
			nb_json_obj_end(j);
		}
		nb_json_arr_end(j);
		interfaces_json(j, w);
		if (w->have_conntrack) {
			nb_json_obj_begin(j, "conntrack");
			nb_json_u64(j, "entries", w->ct_entries);
			nb_json_u64(j, "max", w->ct_max);
			nb_json_u64(j, "insert_failed", w->ct_insert_failed);
			nb_json_u64(j, "drop", w->ct_drop);
			nb_json_u64(j, "early_drop", w->ct_early_drop);
			nb_json_obj_end(j);
		} else {
			nb_json_null(j, "conntrack");
		}
		cost_json(j, s, &t->cost[i], bytes);
		if (t->prof[i]) {
			char line[520];
			nb_prof_json(j, "profile", t->prof[i], t->psum[i]);
			nb_obs_profile_line(t, i, line, sizeof(line));
			nb_json_str(j, "profile_line", line);
			nb_json_str(j, "profile_scope", nb_obs_profile_scope(c, i, t->mask[i]));
		} else {
			nb_json_null(j, "profile");
		}
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

void nb_obs_profile_line(const struct nb_obs_trial *t, size_t i, char *buf, size_t len)
{
	char line[400];
	buf[0] = '\0';
	if (i >= t->n || !t->prof[i] || !t->psum[i])
		return;
	const struct nb_obs_summary *s = t->s[i];
	double busy = 0;
	uint32_t n = 0, one = 0;
	for (uint32_t k = 0; k < s->ncpu; k++)
		if (!t->mask[i] || (s->cpu[k].id < 64 && (t->mask[i] >> s->cpu[k].id) & 1)) {
			busy += s->cpu[k].busy_pct;
			one = s->cpu[k].id;
			n++;
		}
	nb_prof_line(t->prof[i], t->psum[i], 6, line, sizeof(line));
	if (!t->prof[i]->available)
		snprintf(buf, len, "profile %s", line);
	else if (n == 1)
		snprintf(buf, len, "cpu%u %.0f %%: %s", one, busy, line);
	else
		snprintf(buf, len, "%u CPUs %.0f %% busy on average: %s", n, n ? busy / n : 0,
			 line);
}

const char *nb_obs_profile_scope(const struct nb_obs_set *c, size_t i, uint64_t mask)
{
	if (c->shared_kernel[i])
		return mask ? "the DUT's CPUs on a shared kernel (a namespace lab): they also hold "
			      "whatever else the host ran on them"
			    : "every CPU of a shared kernel (a namespace lab): whatever the host "
			      "ran, "
			      "not the DUT's alone; pin it with --dut-cpus";
	return mask ? "the DUT's CPUs" : "every CPU of the DUT";
}

void nb_obs_json_verdict(struct nb_json *j, const char *key, const struct nb_verdict *v)
{
	nb_json_obj_begin(j, key);
	nb_json_str(j, "kind", nb_verdict_name(v->kind));
	nb_json_str(j, "text", v->text);
	nb_json_u64(j, "lost", v->lost);
	nb_json_u64(j, "accounted", v->accounted);
	nb_json_bool(j, "explained", v->explained);
	nb_json_bool(j, "cpu_at_limit", v->cpu_at_limit);
	if (v->busiest_cpu >= 0) {
		nb_json_u64(j, "busiest_cpu", (uint64_t)v->busiest_cpu);
		nb_json_double(j, "busiest_cpu_pct", v->busiest_pct, 1);
	} else {
		nb_json_null(j, "busiest_cpu");
		nb_json_null(j, "busiest_cpu_pct");
	}
	nb_json_obj_begin(j, "by");
	nb_json_u64(j, "dut_cpu", v->by_cpu);
	nb_json_u64(j, "dut_nic", v->by_nic);
	nb_json_u64(j, "egress", v->by_egress);
	nb_json_u64(j, "receiver", v->by_receiver);
	nb_json_u64(j, "conntrack", v->by_conntrack);
	nb_json_u64(j, "dut_nic_ring", v->by_nic_ring);
	nb_json_obj_end(j);
	nb_json_u64(j, "softnet_other", v->softnet_other);
	/* An emulated board's host: its other work, and whether it pollutes the figures. */
	if (isfinite(v->host_other_pct)) {
		nb_json_double(j, "host_other_pct", v->host_other_pct, 1);
		nb_json_bool(j, "board_polluted", v->board_polluted);
	}
	nb_json_obj_end(j);
}
