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
	if (!c->req.sample_hz)
		c->req.sample_hz = NB_OBS_SAMPLE_HZ_DEFAULT;
	for (size_t i = 0; i < c->n; i++) {
		int ret = nb_obs_ctl_open(&c->ctl[i], c->spec[i], NB_DEFAULT_PORT, psk, psk_len,
					  why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "observer %s: %s", c->spec[i], why);
			return ret;
		}
		c->si[i] = *nb_obs_ctl_remote(c->ctl[i]);
	}
	return 0;
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
		if (!t->w[i] || !t->s[i]) {
			snprintf(err, errlen, "observer %s: %s", c->spec[i], strerror(ENOMEM));
			return -ENOMEM;
		}
		int ret = nb_obs_ctl_end(c->ctl[i], t->w[i], why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "observer %s: %s", c->spec[i], why);
			return ret;
		}
		t->mask[i] = c->dut_mask ? c->dut_mask : t->w[i]->rps_mask;
		nb_obs_summarize(t->w[i], t->mask[i], t->s[i]);
	}
	return 0;
}

void nb_obs_trial_free(struct nb_obs_trial *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->w[i]);
		free(t->s[i]);
	}
	memset(t, 0, sizeof(*t));
}

double nb_obs_clock_mhz(const struct nb_obs_set *c, size_t i, const struct nb_obs_summary *s)
{
	if (s->clock_mhz > 0)
		return s->clock_mhz;
	return c->si[i].cpu_mhz > 0 ? c->si[i].cpu_mhz : 0;
}

uint64_t nb_obs_egress_frames(const struct nb_obs_trial *t, size_t i)
{
	int32_t e = i < t->n ? t->s[i]->egress_if : -1;
	return e >= 0 && (uint32_t)e < t->w[i]->nif ? t->w[i]->ifs[e].tx_packets : 0;
}

void nb_obs_json(struct nb_json *j, const char *key, const struct nb_obs_set *c,
		 const struct nb_obs_trial *t, uint64_t frames_all, uint64_t bytes)
{
	nb_json_arr_begin(j, key);
	for (size_t i = 0; i < t->n; i++) {
		const struct nb_obs_snap *w = t->w[i];
		const struct nb_obs_summary *s = t->s[i];
		double ws = s->window_s > 0 ? s->window_s : 1;
		uint64_t frames =
		    frames_all == NB_OBS_FRAMES_EGRESS ? nb_obs_egress_frames(t, i) : frames_all;
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "observer", c->spec[i]);
		nb_json_str(j, "hostname", c->si[i].hostname);
		/* The observed box's own platform: a board's arch, kernel and clocks. */
		nb_sysinfo_json(j, "env", &c->si[i]);
		nb_json_double(j, "window_s", s->window_s, 3);
		nb_json_u64(j, "samples", w->samples);
		nb_json_double(j, "observer_cpu_pct", s->self_cpu_pct, 3);
		nb_json_bool(j, "observer_over_budget", s->self_over_budget);
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
		double mhz = nb_obs_clock_mhz(c, i, s);
		if (s->clock_mhz > 0)
			nb_json_double(j, "cpufreq_mhz", s->clock_mhz, 0);
		else
			nb_json_null(j, "cpufreq_mhz");
		double cpf = nb_cycles_per_frame(s->busy_cpu_s, mhz, frames);
		nb_json_double(j, "busy_cpu_s", s->busy_cpu_s, 4);
		if (!isnan(cpf)) {
			nb_json_double(j, "clock_mhz", mhz, 0);
			nb_json_double(j, "cycles_per_frame", cpf, 1);
		} else {
			nb_json_null(j, "clock_mhz");
			nb_json_null(j, "cycles_per_frame");
		}
		if (bytes) {
			double cpb = nb_cycles_per_frame(s->busy_cpu_s, mhz, bytes);
			if (!isnan(cpb))
				nb_json_double(j, "cycles_per_byte", cpb, 3);
			else
				nb_json_null(j, "cycles_per_byte");
		}
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

void nb_obs_json_verdict(struct nb_json *j, const char *key, const struct nb_verdict *v)
{
	nb_json_obj_begin(j, key);
	nb_json_str(j, "kind", nb_verdict_name(v->kind));
	nb_json_str(j, "text", v->text);
	nb_json_u64(j, "lost", v->lost);
	nb_json_u64(j, "accounted", v->accounted);
	nb_json_bool(j, "explained", v->explained);
	nb_json_obj_begin(j, "by");
	nb_json_u64(j, "dut_cpu", v->by_cpu);
	nb_json_u64(j, "dut_nic", v->by_nic);
	nb_json_u64(j, "egress", v->by_egress);
	nb_json_u64(j, "receiver", v->by_receiver);
	nb_json_u64(j, "conntrack", v->by_conntrack);
	nb_json_u64(j, "dut_nic_ring", v->by_nic_ring);
	nb_json_obj_end(j);
	nb_json_obj_end(j);
}
