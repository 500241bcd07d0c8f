/* SPDX-License-Identifier: BSD-2-Clause */
/* Encoder and decoder of the observe test's items. Every item has a fixed layout or a fixed part
 * and a name; the decoder checks lengths, counts and names before it writes into the window. */
#include "core/observe/obs_wire.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/base/wire.h"
#include "core/profile/prof.h"

#define HEAD_B	  88
#define CPU_B	  (4 + 8 * 8)
#define SOFTNET_B (4 + 3 * 8)
#define IRQ_B	  8 /* + name */
#define IF_B	  (NB_OBS_IFNAME + 4 + 13 * 8 + 4)
#define ETH_B	  12 /* + name */
#define FREQ_B	  8
#define COST_B	  24

static uint64_t dbits(double v)
{
	uint64_t u;
	memcpy(&u, &v, 8);
	return u;
}

static double bitsd(uint64_t u)
{
	double v;
	memcpy(&v, &u, 8);
	return v;
}

int nb_obs_req_put(struct nb_msg *m, const struct nb_obs_req *r)
{
	int ret;
	if ((ret = nb_msg_put_u32(m, NB_T_OBS_SAMPLE_HZ, r->sample_hz)))
		return ret;
	if (r->adapt && (ret = nb_msg_put_u32(m, NB_T_OBS_ADAPT, 1)))
		return ret;
	if (r->clock_khz && (ret = nb_msg_put_u32(m, NB_T_OBS_CLOCK_KHZ, r->clock_khz)))
		return ret;
	if (r->rps_mask && (ret = nb_msg_put_u64(m, NB_T_OBS_RPS_MASK, r->rps_mask)))
		return ret;
	if (r->profile_hz &&
	    ((ret = nb_msg_put_u32(m, NB_T_OBS_PROFILE_HZ, r->profile_hz)) ||
	     (r->profile_kib && (ret = nb_msg_put_u32(m, NB_T_OBS_PROFILE_KIB, r->profile_kib))) ||
	     (r->profile_mask &&
	      (ret = nb_msg_put_u64(m, NB_T_OBS_PROFILE_MASK, r->profile_mask)))))
		return ret;
	return 0;
}

int nb_obs_req_get(const struct nb_msg *m, struct nb_obs_req *r, char *err, size_t errlen)
{
	int ret;
	memset(r, 0, sizeof(*r));
	r->sample_hz = NB_OBS_SAMPLE_HZ_DEFAULT;
	ret = nb_msg_get_u32(m, NB_T_OBS_SAMPLE_HZ, &r->sample_hz);
	if ((ret && ret != -ENOENT) || r->sample_hz < 1 || r->sample_hz > NB_OBS_SAMPLE_HZ_MAX) {
		snprintf(err, errlen, "observe: sampling rate must be 1 to %u per second",
			 NB_OBS_SAMPLE_HZ_MAX);
		return -EINVAL;
	}
	uint32_t adapt = 0;
	ret = nb_msg_get_u32(m, NB_T_OBS_ADAPT, &adapt);
	if ((ret && ret != -ENOENT) || adapt > 1) {
		snprintf(err, errlen, "observe: the adaptive sampling flag must be 0 or 1");
		return -EINVAL;
	}
	r->adapt = adapt == 1;
	ret = nb_msg_get_u32(m, NB_T_OBS_CLOCK_KHZ, &r->clock_khz);
	if ((ret && ret != -ENOENT) || (!ret && (r->clock_khz < 1000 || r->clock_khz > 20000000))) {
		snprintf(err, errlen, "observe: clock must be 1 MHz to 20 GHz");
		return -EINVAL;
	}
	ret = nb_msg_get_u64(m, NB_T_OBS_RPS_MASK, &r->rps_mask);
	if (ret && ret != -ENOENT) {
		snprintf(err, errlen, "observe: malformed RPS CPU mask");
		return -EINVAL;
	}
	/* The profile's rate and buffer are capped here whatever the controller asks. */
	ret = nb_msg_get_u32(m, NB_T_OBS_PROFILE_HZ, &r->profile_hz);
	if ((ret && ret != -ENOENT) ||
	    (!ret && (r->profile_hz < 1 || r->profile_hz > NB_PROF_HZ_MAX))) {
		snprintf(
		    err, errlen,
		    "observe: profile rate %u Hz refused: this agent samples at 1 to %u Hz per CPU",
		    r->profile_hz, NB_PROF_HZ_MAX);
		return -EINVAL;
	}
	ret = nb_msg_get_u32(m, NB_T_OBS_PROFILE_KIB, &r->profile_kib);
	if ((ret && ret != -ENOENT) ||
	    (!ret && (!r->profile_hz || r->profile_kib < 8 || r->profile_kib > NB_PROF_KIB_MAX))) {
		snprintf(
		    err, errlen,
		    "observe: profile buffer %u KiB refused: this agent takes 8 to %u KiB per CPU, "
		    "with a profile rate",
		    r->profile_kib, NB_PROF_KIB_MAX);
		return -EINVAL;
	}
	if (r->profile_hz && !r->profile_kib)
		r->profile_kib = NB_PROF_KIB_DEFAULT;
	ret = nb_msg_get_u64(m, NB_T_OBS_PROFILE_MASK, &r->profile_mask);
	if (ret && ret != -ENOENT) {
		snprintf(err, errlen, "observe: malformed profile CPU mask");
		return -EINVAL;
	}
	return 0;
}

static int put_named(struct nb_msg *m, uint16_t tag, uint8_t *fixed, size_t n, const char *name)
{
	uint8_t b[64];
	size_t k = strnlen(name, NB_OBS_NAME - 1);
	memcpy(b, fixed, n);
	memcpy(b + n, name, k);
	return nb_msg_put_bytes(m, tag, b, n + k);
}

/* An interface's counters, its speed and its driver's statistics. */
static int put_if(struct nb_msg *m, const struct nb_obs_if *f, uint32_t i)
{
	uint8_t b[256];
	int ret;

	const uint64_t v[13] = {
	    f->rx_packets,  f->tx_packets,	 f->rx_bytes,	   f->tx_bytes,	  f->rx_dropped,
	    f->rx_missed,   f->rx_fifo,		 f->rx_over,	   f->tx_dropped, f->tx_errors,
	    f->qdisc_drops, f->qdisc_overlimits, f->qdisc_requeues};
	memset(b, 0, NB_OBS_IFNAME);
	memcpy(b, f->name, strnlen(f->name, NB_OBS_IFNAME - 1));
	nb_put_be32(b + NB_OBS_IFNAME, f->ifindex);
	for (int k = 0; k < 13; k++)
		nb_put_be64(b + NB_OBS_IFNAME + 4 + 8 * k, v[k]);
	nb_put_be32(b + NB_OBS_IFNAME + 4 + 104, f->have_qdisc ? 1 : 0);
	if ((ret = nb_msg_put_bytes(m, NB_T_OBS_IF, b, IF_B)))
		return ret;
	if (f->speed_mbps) {
		nb_put_be32(b, i);
		nb_put_be32(b + 4, f->speed_mbps);
		if ((ret = nb_msg_put_bytes(m, NB_T_OBS_IF_SPEED, b, 8)))
			return ret;
	}
	for (uint32_t k = 0; k < f->neth && k < NB_OBS_ETHS; k++) {
		if (!f->eth[k].name[0])
			continue;
		nb_put_be32(b, i);
		nb_put_be64(b + 4, f->eth[k].value);
		if ((ret = put_named(m, NB_T_OBS_ETH, b, ETH_B, f->eth[k].name)))
			return ret;
	}
	return 0;
}

int nb_obs_window_put(struct nb_msg *m, const struct nb_obs_snap *w)
{
	uint8_t b[256];
	int ret;

	nb_put_be64(b, w->mono_ns);
	nb_put_be64(b + 8, w->self_cpu_us);
	nb_put_be32(b + 16, w->clk_tck);
	nb_put_be32(b + 20, w->samples);
	nb_put_be64(b + 24, dbits(w->peak_busy_pct));
	nb_put_be32(b + 32, (uint32_t)w->peak_cpu);
	nb_put_be32(b + 36, w->have_conntrack ? 1 : 0);
	nb_put_be64(b + 40, w->ct_entries);
	nb_put_be64(b + 48, w->ct_max);
	nb_put_be64(b + 56, w->ct_insert_failed);
	nb_put_be64(b + 64, w->ct_drop);
	nb_put_be64(b + 72, w->ct_early_drop);
	nb_put_be64(b + 80, w->rps_mask);
	if ((ret = nb_msg_put_bytes(m, NB_T_OBS_HEAD, b, HEAD_B)))
		return ret;
	for (uint32_t i = 0; i < w->ncpu && i < NB_OBS_CPUS; i++) {
		const struct nb_obs_cpu *c = &w->cpu[i];
		const uint64_t v[8] = {c->user,	  c->nice, c->system,  c->idle,
				       c->iowait, c->irq,  c->softirq, c->steal};
		nb_put_be32(b, c->id);
		for (int k = 0; k < 8; k++)
			nb_put_be64(b + 4 + 8 * k, v[k]);
		if ((ret = nb_msg_put_bytes(m, NB_T_OBS_CPU, b, CPU_B)))
			return ret;
	}
	for (uint32_t i = 0; i < w->nsoftnet && i < NB_OBS_CPUS; i++) {
		nb_put_be32(b, w->softnet[i].cpu);
		nb_put_be64(b + 4, w->softnet[i].processed);
		nb_put_be64(b + 12, w->softnet[i].dropped);
		nb_put_be64(b + 20, w->softnet[i].squeezed);
		if ((ret = nb_msg_put_bytes(m, NB_T_OBS_SOFTNET, b, SOFTNET_B)))
			return ret;
	}
	for (uint32_t i = 0; i < w->nirq && i < NB_OBS_IRQS; i++) {
		if (!w->irq[i].count || !w->irq[i].name[0])
			continue;
		nb_put_be64(b, w->irq[i].count);
		if ((ret = put_named(m, NB_T_OBS_IRQ, b, IRQ_B, w->irq[i].name)))
			return ret;
	}
	for (uint32_t i = 0; i < w->nif && i < NB_OBS_IFS; i++)
		if ((ret = put_if(m, &w->ifs[i], i)))
			return ret;
	nb_put_be64(b, w->sample_cpu_ns);
	nb_put_be64(b + 8, w->edge_cpu_ns);
	nb_put_be64(b + 16, w->sample_period_ns);
	if ((ret = nb_msg_put_bytes(m, NB_T_OBS_COST, b, COST_B)))
		return ret;
	for (uint32_t i = 0; i < w->nfreq && i < NB_OBS_CPUS; i++) {
		nb_put_be32(b, w->freq_cpu[i]);
		nb_put_be32(b + 4, w->freq_khz[i]);
		if ((ret = nb_msg_put_bytes(m, NB_T_OBS_FREQ, b, FREQ_B)))
			return ret;
	}
	return 0;
}

/* A name of 1..max-1 printable bytes. */
static int get_name(const uint8_t *p, size_t n, char *out, size_t max)
{
	if (n == 0 || n >= max)
		return -EBADMSG;
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return -EBADMSG;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

static int get_head(const uint8_t *p, size_t n, struct nb_obs_snap *w)
{
	if (n != HEAD_B)
		return -EBADMSG;
	w->mono_ns = nb_get_be64(p);
	w->self_cpu_us = nb_get_be64(p + 8);
	w->clk_tck = nb_get_be32(p + 16);
	w->samples = nb_get_be32(p + 20);
	w->peak_busy_pct = bitsd(nb_get_be64(p + 24));
	w->peak_cpu = (int32_t)nb_get_be32(p + 32);
	if (nb_get_be32(p + 36) > 1 || !(w->peak_busy_pct >= 0 && w->peak_busy_pct <= 100) ||
	    w->peak_cpu < -1 || w->clk_tck == 0 || w->clk_tck > 100000)
		return -EBADMSG;
	w->have_conntrack = nb_get_be32(p + 36) == 1;
	w->ct_entries = nb_get_be64(p + 40);
	w->ct_max = nb_get_be64(p + 48);
	w->ct_insert_failed = nb_get_be64(p + 56);
	w->ct_drop = nb_get_be64(p + 64);
	w->ct_early_drop = nb_get_be64(p + 72);
	w->rps_mask = nb_get_be64(p + 80);
	return 0;
}

static int get_cpu(const uint8_t *p, size_t n, struct nb_obs_snap *w)
{
	if (n != CPU_B || w->ncpu >= NB_OBS_CPUS)
		return -EBADMSG;
	struct nb_obs_cpu *c = &w->cpu[w->ncpu++];
	uint64_t *v[8] = {&c->user,   &c->nice, &c->system,  &c->idle,
			  &c->iowait, &c->irq,	&c->softirq, &c->steal};
	c->id = nb_get_be32(p);
	for (int k = 0; k < 8; k++)
		*v[k] = nb_get_be64(p + 4 + 8 * k);
	return 0;
}

static int get_softnet(const uint8_t *p, size_t n, struct nb_obs_snap *w)
{
	if (n != SOFTNET_B || w->nsoftnet >= NB_OBS_CPUS)
		return -EBADMSG;
	struct nb_obs_softnet *s = &w->softnet[w->nsoftnet++];
	s->cpu = nb_get_be32(p);
	s->processed = nb_get_be64(p + 4);
	s->dropped = nb_get_be64(p + 12);
	s->squeezed = nb_get_be64(p + 20);
	return 0;
}

static int get_irq(const uint8_t *p, size_t n, struct nb_obs_snap *w)
{
	if (n <= IRQ_B || w->nirq >= NB_OBS_IRQS)
		return -EBADMSG;
	w->irq[w->nirq].count = nb_get_be64(p);
	if (get_name(p + IRQ_B, n - IRQ_B, w->irq[w->nirq].name, NB_OBS_NAME))
		return -EBADMSG;
	w->nirq++;
	return 0;
}

static int get_if(const uint8_t *p, size_t n, struct nb_obs_snap *w)
{
	if (n != IF_B || w->nif >= NB_OBS_IFS)
		return -EBADMSG;
	struct nb_obs_if *f = &w->ifs[w->nif];
	uint64_t *v[13] = {&f->rx_packets,    &f->tx_packets, &f->rx_bytes,    &f->tx_bytes,
			   &f->rx_dropped,    &f->rx_missed,  &f->rx_fifo,     &f->rx_over,
			   &f->tx_dropped,    &f->tx_errors,  &f->qdisc_drops, &f->qdisc_overlimits,
			   &f->qdisc_requeues};
	if (get_name(p, strnlen((const char *)p, NB_OBS_IFNAME), f->name, NB_OBS_IFNAME))
		return -EBADMSG;
	f->ifindex = nb_get_be32(p + NB_OBS_IFNAME);
	for (int k = 0; k < 13; k++)
		*v[k] = nb_get_be64(p + NB_OBS_IFNAME + 4 + 8 * k);
	uint32_t q = nb_get_be32(p + NB_OBS_IFNAME + 4 + 104);
	if (q > 1)
		return -EBADMSG;
	f->have_qdisc = q == 1;
	w->nif++;
	return 0;
}

static int get_if_speed(const uint8_t *p, size_t n, struct nb_obs_snap *w)
{
	uint32_t i, v;
	if (n != 8)
		return -EBADMSG;
	i = nb_get_be32(p);
	v = nb_get_be32(p + 4);
	if (i >= w->nif || !v || v > NB_OBS_SPEED_MAX_MBPS)
		return -EBADMSG;
	w->ifs[i].speed_mbps = v;
	return 0;
}

static int get_eth(const uint8_t *p, size_t n, struct nb_obs_snap *w)
{
	uint32_t i;
	if (n <= ETH_B)
		return -EBADMSG;
	i = nb_get_be32(p);
	if (i >= w->nif || w->ifs[i].neth >= NB_OBS_ETHS)
		return -EBADMSG; /* names an interface not (yet) sent */
	struct nb_obs_stat *s = &w->ifs[i].eth[w->ifs[i].neth];
	s->value = nb_get_be64(p + 4);
	if (get_name(p + ETH_B, n - ETH_B, s->name, NB_OBS_NAME))
		return -EBADMSG;
	w->ifs[i].neth++;
	return 0;
}

static int get_cost(const uint8_t *p, size_t n, struct nb_obs_snap *w)
{
	if (n != COST_B)
		return -EBADMSG;
	w->sample_cpu_ns = nb_get_be64(p);
	w->edge_cpu_ns = nb_get_be64(p + 8);
	w->sample_period_ns = nb_get_be64(p + 16);
	return w->sample_period_ns > 60000000000ull ? -EBADMSG : 0;
}

static int get_freq(const uint8_t *p, size_t n, struct nb_obs_snap *w)
{
	if (n != FREQ_B || w->nfreq >= NB_OBS_CPUS)
		return -EBADMSG;
	w->freq_cpu[w->nfreq] = nb_get_be32(p);
	w->freq_khz[w->nfreq] = nb_get_be32(p + 4);
	w->nfreq++;
	return 0;
}

static int decode(const struct nb_msg *m, struct nb_obs_snap *w)
{
	size_t off = 0, n;
	uint16_t tag;
	const uint8_t *p;
	bool head = false, cost = false;
	int ret;

	while (nb_msg_next(m, &off, &tag, &p, &n) == 1) {
		switch (tag) {
		case NB_T_OBS_HEAD:
			ret = head ? -EBADMSG : get_head(p, n, w);
			head = true;
			break;
		case NB_T_OBS_CPU:
			ret = get_cpu(p, n, w);
			break;
		case NB_T_OBS_SOFTNET:
			ret = get_softnet(p, n, w);
			break;
		case NB_T_OBS_IRQ:
			ret = get_irq(p, n, w);
			break;
		case NB_T_OBS_IF:
			ret = get_if(p, n, w);
			break;
		case NB_T_OBS_IF_SPEED:
			ret = get_if_speed(p, n, w);
			break;
		case NB_T_OBS_ETH:
			ret = get_eth(p, n, w);
			break;
		case NB_T_OBS_COST:
			ret = cost ? -EBADMSG : get_cost(p, n, w);
			cost = true;
			break;
		case NB_T_OBS_FREQ:
			ret = get_freq(p, n, w);
			break;
		default:
			/* One of ours we do not know is another version's; the profile's
			 * (nb_prof_get) and the session's own items (CPU sample, time) are not. */
			ret = !nb_prof_tag(tag) && tag >= 600 && tag <= 699 ? -EBADMSG : 0;
			break;
		}
		if (ret)
			return ret;
	}
	return head ? 0 : -EBADMSG;
}

int nb_obs_window_get(const struct nb_msg *m, struct nb_obs_snap *w)
{
	int ret;
	memset(w, 0, sizeof(*w));
	w->peak_cpu = -1;
	ret = decode(m, w);
	if (ret) {
		memset(w, 0, sizeof(*w));
		w->peak_cpu = -1;
	}
	return ret;
}
