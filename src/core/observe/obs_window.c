/* SPDX-License-Identifier: BSD-2-Clause */
/* Windows: the difference of two snapshots, matched by CPU id, interface and counter name, and
 * what a window says in shares and totals. Pure functions, tested on recorded snapshots. */
#include <string.h>

#include "core/observe/obs.h"

static uint64_t d(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0; /* a counter that went back (device reset) counts nothing */
}

static const struct nb_obs_cpu *cpu_by_id(const struct nb_obs_snap *s, uint32_t id)
{
	for (uint32_t i = 0; i < s->ncpu; i++)
		if (s->cpu[i].id == id)
			return &s->cpu[i];
	return NULL;
}

static uint64_t cpu_all(const struct nb_obs_cpu *c)
{
	return c->user + c->nice + c->system + c->idle + c->iowait + c->irq + c->softirq + c->steal;
}

static uint64_t cpu_busy(const struct nb_obs_cpu *c)
{
	return c->user + c->nice + c->system + c->irq + c->softirq;
}

static void cpu_delta(const struct nb_obs_cpu *a, const struct nb_obs_cpu *b, struct nb_obs_cpu *w)
{
	static const struct nb_obs_cpu zero;
	if (!a)
		a = &zero;
	w->id = b->id;
	w->user = d(a->user, b->user);
	w->nice = d(a->nice, b->nice);
	w->system = d(a->system, b->system);
	w->idle = d(a->idle, b->idle);
	w->iowait = d(a->iowait, b->iowait);
	w->irq = d(a->irq, b->irq);
	w->softirq = d(a->softirq, b->softirq);
	w->steal = d(a->steal, b->steal);
}

uint64_t nb_obs_sample_period(uint64_t asked_ns, bool adapt, uint64_t cpu_ns, uint32_t n)
{
	const uint64_t most = 1000000000u;
	if (!adapt || !n || asked_ns >= most)
		return asked_ns;
	/* per sample / period <= share  <=>  period >= per sample * 100 / share */
	double need = (double)cpu_ns / n * 100.0 / NB_OBS_SAMPLE_SHARE_PCT;
	if (need <= (double)asked_ns)
		return asked_ns;
	return need >= (double)most ? most : (uint64_t)need;
}

void nb_obs_peak(const struct nb_obs_snap *a, const struct nb_obs_snap *b, struct nb_obs_snap *w)
{
	for (uint32_t i = 0; i < b->ncpu; i++) {
		struct nb_obs_cpu x;
		cpu_delta(cpu_by_id(a, b->cpu[i].id), &b->cpu[i], &x);
		uint64_t all = cpu_all(&x);
		if (!all)
			continue;
		double pct = 100.0 * (double)cpu_busy(&x) / (double)all;
		if (w->peak_cpu < 0 || pct > w->peak_busy_pct) {
			w->peak_busy_pct = pct;
			w->peak_cpu = (int32_t)b->cpu[i].id;
		}
	}
}

static void if_delta(const struct nb_obs_if *a, const struct nb_obs_if *b, struct nb_obs_if *w)
{
	static const struct nb_obs_if zero;
	if (!a)
		a = &zero;
	memcpy(w->name, b->name, sizeof(w->name));
	w->ifindex = b->ifindex;
	w->speed_mbps = b->speed_mbps;
	w->rx_packets = d(a->rx_packets, b->rx_packets);
	w->tx_packets = d(a->tx_packets, b->tx_packets);
	w->rx_bytes = d(a->rx_bytes, b->rx_bytes);
	w->tx_bytes = d(a->tx_bytes, b->tx_bytes);
	w->rx_dropped = d(a->rx_dropped, b->rx_dropped);
	w->rx_missed = d(a->rx_missed, b->rx_missed);
	w->rx_fifo = d(a->rx_fifo, b->rx_fifo);
	w->rx_over = d(a->rx_over, b->rx_over);
	w->tx_dropped = d(a->tx_dropped, b->tx_dropped);
	w->tx_errors = d(a->tx_errors, b->tx_errors);
	w->have_qdisc = b->have_qdisc;
	w->qdisc_drops = d(a->qdisc_drops, b->qdisc_drops);
	w->qdisc_overlimits = d(a->qdisc_overlimits, b->qdisc_overlimits);
	w->qdisc_requeues = d(a->qdisc_requeues, b->qdisc_requeues);
	w->neth = b->neth;
	for (uint32_t k = 0; k < b->neth; k++) {
		uint64_t prev = 0;
		for (uint32_t j = 0; j < a->neth; j++)
			if (!strcmp(a->eth[j].name, b->eth[k].name))
				prev = a->eth[j].value;
		w->eth[k] = b->eth[k];
		w->eth[k].value = d(prev, b->eth[k].value);
	}
}

void nb_obs_window(const struct nb_obs_snap *a, const struct nb_obs_snap *b, struct nb_obs_snap *w)
{
	uint32_t samples = w->samples;
	double peak = w->peak_busy_pct;
	int32_t peak_cpu = w->peak_cpu;
	uint64_t sample_ns = w->sample_cpu_ns, edge_ns = w->edge_cpu_ns;
	uint64_t period_ns = w->sample_period_ns;
	memset(w, 0, sizeof(*w));
	w->samples = samples;
	w->sample_cpu_ns = sample_ns;
	w->edge_cpu_ns = edge_ns;
	w->sample_period_ns = period_ns;
	w->peak_busy_pct = peak;
	w->peak_cpu = peak_cpu;
	w->mono_ns = d(a->mono_ns, b->mono_ns);
	w->self_cpu_us = d(a->self_cpu_us, b->self_cpu_us);
	w->clk_tck = b->clk_tck;
	w->ncpu = b->ncpu;
	for (uint32_t i = 0; i < b->ncpu; i++) {
		cpu_delta(cpu_by_id(a, b->cpu[i].id), &b->cpu[i], &w->cpu[i]);
		/* A peak is at least the mean: the sample intervals tile the window, so one of
		 * them was at least as busy as the whole (samples that missed part of it, or a
		 * sampler that fell behind, must not print a peak below the average). */
		uint64_t all = cpu_all(&w->cpu[i]);
		double pct = all ? 100.0 * (double)cpu_busy(&w->cpu[i]) / (double)all : 0;
		if (w->peak_cpu >= 0 && pct > w->peak_busy_pct) {
			w->peak_busy_pct = pct;
			w->peak_cpu = (int32_t)b->cpu[i].id;
		}
	}
	w->nsoftnet = b->nsoftnet;
	for (uint32_t i = 0; i < b->nsoftnet; i++) {
		const struct nb_obs_softnet *p = NULL;
		for (uint32_t j = 0; j < a->nsoftnet; j++)
			if (a->softnet[j].cpu == b->softnet[i].cpu)
				p = &a->softnet[j];
		w->softnet[i].cpu = b->softnet[i].cpu;
		w->softnet[i].processed = d(p ? p->processed : 0, b->softnet[i].processed);
		w->softnet[i].dropped = d(p ? p->dropped : 0, b->softnet[i].dropped);
		w->softnet[i].squeezed = d(p ? p->squeezed : 0, b->softnet[i].squeezed);
	}
	/* Interrupt lines that fired, busiest first. */
	for (uint32_t i = 0; i < b->nirq; i++) {
		uint64_t prev = 0;
		for (uint32_t j = 0; j < a->nirq; j++)
			if (!strcmp(a->irq[j].name, b->irq[i].name)) {
				prev = a->irq[j].count;
				break;
			}
		uint64_t n = d(prev, b->irq[i].count);
		if (!n)
			continue;
		uint32_t k = w->nirq++;
		while (k > 0 && w->irq[k - 1].count < n) {
			w->irq[k] = w->irq[k - 1];
			k--;
		}
		w->irq[k] = b->irq[i];
		w->irq[k].count = n;
	}
	w->nif = b->nif;
	for (uint32_t i = 0; i < b->nif; i++) {
		const struct nb_obs_if *p = NULL;
		for (uint32_t j = 0; j < a->nif; j++)
			if (!strcmp(a->ifs[j].name, b->ifs[i].name))
				p = &a->ifs[j];
		if_delta(p, &b->ifs[i], &w->ifs[i]);
	}
	w->have_conntrack = b->have_conntrack;
	w->ct_entries = b->ct_entries;
	w->ct_max = b->ct_max;
	w->ct_insert_failed = d(a->ct_insert_failed, b->ct_insert_failed);
	w->ct_drop = d(a->ct_drop, b->ct_drop);
	w->ct_early_drop = d(a->ct_early_drop, b->ct_early_drop);
	w->rps_mask = b->rps_mask;
	w->nfreq = b->nfreq;
	memcpy(w->freq_cpu, b->freq_cpu, sizeof(w->freq_cpu));
	memcpy(w->freq_khz, b->freq_khz, sizeof(w->freq_khz));
}

static bool selected(uint64_t mask, uint32_t id)
{
	return !mask || (id < 64 && (mask >> id) & 1);
}

/* Each CPU's shares of its time, the selected CPUs' busy time, and the busiest of them with
 * what kept it busy. */
static void cpus_summarize(const struct nb_obs_snap *w, uint64_t cpu_mask, double tck,
			   struct nb_obs_summary *m)
{
	for (uint32_t i = 0; i < w->ncpu; i++) {
		const struct nb_obs_cpu *c = &w->cpu[i];
		struct nb_obs_cpu_share *s = &m->cpu[i];
		double all = (double)cpu_all(c);
		s->id = c->id;
		if (all <= 0)
			continue;
		s->user_pct = 100.0 * (double)(c->user + c->nice) / all;
		s->system_pct = 100.0 * (double)c->system / all;
		s->irq_pct = 100.0 * (double)c->irq / all;
		s->softirq_pct = 100.0 * (double)c->softirq / all;
		s->idle_pct = 100.0 * (double)(c->idle + c->iowait) / all;
		s->busy_pct = 100.0 * (double)cpu_busy(c) / all;
		if (!selected(cpu_mask, c->id))
			continue;
		m->busy_cpu_s += (double)cpu_busy(c) / tck;
		if (m->busiest_cpu < 0 || s->busy_pct > m->busiest_pct) {
			m->busiest_cpu = (int32_t)c->id;
			m->busiest_pct = s->busy_pct;
			double top = s->softirq_pct;
			m->busiest_with = "softirq";
			if (s->system_pct > top) {
				top = s->system_pct;
				m->busiest_with = "system";
			}
			if (s->user_pct > top) {
				top = s->user_pct;
				m->busiest_with = "user";
			}
			if (s->irq_pct > top) {
				top = s->irq_pct;
				m->busiest_with = "irq";
			}
			m->busiest_with_pct = top;
		}
	}
}

/* The interfaces' drops and errors summed, the busiest ingress and egress, and their own
 * drops. */
static void ifs_summarize(const struct nb_obs_snap *w, struct nb_obs_summary *m)
{
	uint64_t best_rx = 0, best_tx = 0;

	for (uint32_t i = 0; i < w->nif; i++) {
		const struct nb_obs_if *f = &w->ifs[i];
		m->rx_missed += f->rx_missed;
		m->rx_fifo += f->rx_fifo;
		m->rx_over += f->rx_over;
		m->rx_dropped += f->rx_dropped;
		m->tx_dropped += f->tx_dropped;
		m->tx_errors += f->tx_errors;
		m->qdisc_drops += f->qdisc_drops;
		m->qdisc_overlimits += f->qdisc_overlimits;
		for (uint32_t k = 0; k < f->neth; k++)
			m->eth_drops += f->eth[k].value;
		if (f->rx_packets > best_rx) {
			best_rx = f->rx_packets;
			m->ingress_if = (int32_t)i;
		}
		if (f->tx_packets > best_tx) {
			best_tx = f->tx_packets;
			m->egress_if = (int32_t)i;
		}
	}
	if (m->ingress_if >= 0)
		m->ingress_rx_dropped = w->ifs[m->ingress_if].rx_dropped;
	if (m->egress_if >= 0)
		m->egress_tx_dropped = w->ifs[m->egress_if].tx_dropped;
}

void nb_obs_summarize(const struct nb_obs_snap *w, uint64_t cpu_mask, struct nb_obs_summary *m)
{
	double tck = w->clk_tck ? (double)w->clk_tck : 100.0;
	double freq_sum = 0;
	uint32_t nfreq = 0;

	memset(m, 0, sizeof(*m));
	m->window_s = (double)w->mono_ns / 1e9;
	m->self_cpu_pct =
	    w->mono_ns ? 100.0 * (double)w->self_cpu_us * 1e3 / (double)w->mono_ns : 0;
	m->self_over_budget = m->self_cpu_pct > NB_OBS_COST_BUDGET_PCT;
	m->cost_known = w->sample_cpu_ns || w->edge_cpu_ns;
	m->sample_us = w->samples ? (double)w->sample_cpu_ns / 1e3 / w->samples : 0;
	m->sampling_pct = w->mono_ns ? 100.0 * (double)w->sample_cpu_ns / (double)w->mono_ns : 0;
	m->edge_ms = (double)w->edge_cpu_ns / 1e6;
	m->busiest_cpu = -1;
	m->busiest_with = "";
	m->ingress_if = m->egress_if = -1;
	m->ncpu = w->ncpu;
	cpus_summarize(w, cpu_mask, tck, m);
	for (uint32_t i = 0; i < w->nsoftnet; i++) {
		if (!selected(cpu_mask, w->softnet[i].cpu))
			continue;
		m->softnet_processed += w->softnet[i].processed;
		m->softnet_dropped += w->softnet[i].dropped;
		m->softnet_squeezed += w->softnet[i].squeezed;
	}
	ifs_summarize(w, m);
	for (uint32_t i = 0; i < w->nfreq; i++)
		if (selected(cpu_mask, w->freq_cpu[i])) {
			freq_sum += w->freq_khz[i];
			nfreq++;
		}
	m->clock_mhz = nfreq ? freq_sum / nfreq / 1e3 : 0;
}
