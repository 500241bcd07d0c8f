/* Observer sessions for the front ends, and how the DUT's view is shown. */
#include "cmd/observe_cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "core/base/timeutil.h"
#include "core/lab/lab.h"

bool obs_cli_option(struct obs_cli *c, int opt, const char *arg)
{
	switch (opt) {
	case OBS_OPT_OBSERVE: {
		char host[256];
		uint16_t port;
		if (nb_obs_parse_target(arg, host, sizeof(host), &port, NB_DEFAULT_PORT))
			cli_usage_error("--observe: '%s' is not HOST[:PORT] (port 1-65535)", arg);
		if (c->n == OBS_CLI_MAX)
			cli_usage_error("--observe: at most %d observers", OBS_CLI_MAX);
		c->spec[c->n++] = arg;
		return true;
	}
	case OBS_OPT_NO_OBSERVE:
		c->no_observe = true;
		return true;
	case OBS_OPT_RATE:
		c->req.sample_hz = (uint32_t)cli_uint("--observe-rate", arg, 1, NB_OBS_SAMPLE_HZ_MAX);
		return true;
	case OBS_OPT_DUT_CPUS:
		if (nb_obs_parse_cpulist(arg, &c->dut_mask) || !c->dut_mask)
			cli_usage_error("--dut-cpus: '%s' is not a CPU list such as 1 or 0-1,3 (CPUs "
					"0-63)",
					arg);
		c->req.rps_mask = c->dut_mask;
		return true;
	case OBS_OPT_CLOCKS: {
		uint64_t v[OBS_CLI_CLOCKS];
		size_t n = cli_rate_list("--observe-clocks", arg, v, OBS_CLI_CLOCKS, 1, 20000);
		if (n < 2)
			cli_usage_error("--observe-clocks: '%s' needs two or more clocks in MHz", arg);
		for (size_t i = 0; i < n; i++)
			c->clocks_mhz[i] = (uint32_t)v[i];
		c->nclocks = n;
		return true;
	}
	default:
		return false;
	}
}

void obs_cli_lab_default(struct obs_cli *c, const char *dst, bool quiet)
{
	static const char lab_obs[] = NB_LAB_DUT_A_ADDR;
	if (c->n || c->no_observe || !dst)
		return;
	if (strcmp(dst, NB_LAB_SINK_ADDR) && strcmp(dst, NB_LAB_SINK_ADDR6))
		return;
	c->spec[c->n++] = lab_obs;
	if (!quiet)
		fprintf(stderr, "observing the lab's DUT at %s (--no-observe to skip)\n", lab_obs);
}

void obs_cli_open(struct obs_cli *c, const uint8_t *psk, size_t psk_len)
{
	char err[512];
	if (!c->req.sample_hz)
		c->req.sample_hz = NB_OBS_SAMPLE_HZ_DEFAULT;
	if ((c->nclocks || c->dut_mask) && !c->n)
		cli_usage_error("--%s needs an observer (--observe HOST)",
				c->nclocks ? "observe-clocks" : "dut-cpus");
	for (size_t i = 0; i < c->n; i++) {
		int ret = nb_obs_ctl_open(&c->ctl[i], c->spec[i], NB_DEFAULT_PORT, psk, psk_len, err,
					  sizeof(err));
		if (ret)
			cli_fail(0, "observer %s: %s", c->spec[i], err);
		c->si[i] = *nb_obs_ctl_remote(c->ctl[i]);
	}
}

void obs_cli_close(struct obs_cli *c)
{
	for (size_t i = 0; i < c->n; i++) {
		nb_obs_ctl_free(c->ctl[i]);
		c->ctl[i] = NULL;
	}
}

void obs_cli_begin(struct obs_cli *c, uint64_t duration_ns)
{
	char err[512], note[256];
	struct nb_obs_req r = c->req;
	r.clock_khz = c->clock_khz;
	for (size_t i = 0; i < c->n; i++) {
		bool hf = true;
		int ret = nb_obs_ctl_begin(c->ctl[i], duration_ns, &r, note, sizeof(note), &hf, err,
					   sizeof(err));
		if (ret)
			cli_fail(0, "observer %s: %s", c->spec[i], err);
		if (i == 0 && r.clock_khz) {
			snprintf(c->clock_note, sizeof(c->clock_note), "%s", note);
			c->have_freq = hf;
		}
	}
}

void obs_cli_end(struct obs_cli *c, struct obs_trial *t)
{
	char err[512];
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < c->n; i++) {
		t->w[i] = calloc(1, sizeof(*t->w[i]));
		t->s[i] = calloc(1, sizeof(*t->s[i]));
		if (!t->w[i] || !t->s[i])
			cli_fail(ENOMEM, "out of memory");
		t->n = i + 1;
		int ret = nb_obs_ctl_end(c->ctl[i], t->w[i], err, sizeof(err));
		if (ret)
			cli_fail(0, "observer %s: %s", c->spec[i], err);
		t->mask[i] = c->dut_mask ? c->dut_mask : t->w[i]->rps_mask;
		nb_obs_summarize(t->w[i], t->mask[i], t->s[i]);
	}
}

void obs_trial_free(struct obs_trial *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->w[i]);
		free(t->s[i]);
	}
	memset(t, 0, sizeof(*t));
}

void obs_cli_cpus_str(uint64_t mask, const struct nb_obs_snap *w, char *buf, size_t len)
{
	size_t o = 0;
	if (!mask) {
		snprintf(buf, len, "all %u (shared with anything else on the box)", w->ncpu);
		return;
	}
	buf[0] = '\0';
	for (unsigned c = 0; c < 64 && o < len; c++)
		if ((mask >> c) & 1)
			o += (size_t)snprintf(buf + o, len - o, "%s%u", o ? "," : "", c);
	if (o < len)
		snprintf(buf + o, len - o, "%s", w->rps_mask == mask ? " (RPS)" : "");
}

static const char *k(char *b, size_t len, double v)
{
	if (v >= 1e9)
		snprintf(b, len, "%.3gG", v / 1e9);
	else if (v >= 1e6)
		snprintf(b, len, "%.3gM", v / 1e6);
	else if (v >= 1e4)
		snprintf(b, len, "%.3gk", v / 1e3);
	else
		snprintf(b, len, "%.0f", v);
	return b;
}

static double clock_of(const struct obs_cli *c, size_t i, const struct nb_obs_summary *s)
{
	if (s->clock_mhz > 0)
		return s->clock_mhz;
	return c->si[i].cpu_mhz > 0 ? c->si[i].cpu_mhz : 0;
}

void obs_cli_print(FILE *f, const struct obs_cli *c, const struct obs_trial *t, uint64_t frames,
		   const char *in)
{
	char a[16], b[16], d[16], e[16], cpus[300];
	for (size_t i = 0; i < t->n; i++) {
		const struct nb_obs_snap *w = t->w[i];
		const struct nb_obs_summary *s = t->s[i];
		double ws = s->window_s > 0 ? s->window_s : 1;
		obs_cli_cpus_str(t->mask[i], w, cpus, sizeof(cpus));
		fprintf(f, "%sDUT %s (%s): window %.2f s, %u samples, observer %.2f %% of a CPU\n", in,
			c->spec[i], c->si[i].hostname[0] ? c->si[i].hostname : "?", s->window_s,
			w->samples, s->self_cpu_pct);
		fprintf(f, "%s  DUT CPUs: %s\n", in, cpus);
		for (uint32_t n = 0; n < s->ncpu; n++) {
			const struct nb_obs_cpu_share *p = &s->cpu[n];
			if (t->mask[i] && !(p->id < 64 && (t->mask[i] >> p->id) & 1))
				continue;
			fprintf(f,
				"%s  cpu%-3u usr %5.1f %%  sys %5.1f %%  irq %5.1f %%  softirq %5.1f %%  "
				"idle %5.1f %%\n",
				in, p->id, p->user_pct, p->system_pct, p->irq_pct, p->softirq_pct,
				p->idle_pct);
		}
		if (w->peak_cpu >= 0)
			fprintf(f, "%s  peak over %.0f ms samples: cpu%d %.0f %% busy\n", in,
				1000.0 / (c->req.sample_hz ? c->req.sample_hz : 10), w->peak_cpu,
				w->peak_busy_pct);
		fprintf(f, "%s  softnet: processed %s, dropped %s (backlog full), time_squeeze %s (%s/s)\n",
			in, k(a, sizeof(a), (double)s->softnet_processed),
			k(b, sizeof(b), (double)s->softnet_dropped),
			k(d, sizeof(d), (double)s->softnet_squeezed),
			k(e, sizeof(e), (double)s->softnet_squeezed / ws));
		for (uint32_t n = 0; n < w->nif; n++) {
			const struct nb_obs_if *p = &w->ifs[n];
			fprintf(f,
				"%s  %-10s rx %s tx %s  rx_dropped %llu missed %llu fifo %llu over %llu  "
				"tx_dropped %llu tx_errors %llu",
				in, p->name, k(a, sizeof(a), (double)p->rx_packets),
				k(b, sizeof(b), (double)p->tx_packets),
				(unsigned long long)p->rx_dropped, (unsigned long long)p->rx_missed,
				(unsigned long long)p->rx_fifo, (unsigned long long)p->rx_over,
				(unsigned long long)p->tx_dropped, (unsigned long long)p->tx_errors);
			if (p->have_qdisc)
				fprintf(f, "  qdisc drops %llu overlimits %llu",
					(unsigned long long)p->qdisc_drops,
					(unsigned long long)p->qdisc_overlimits);
			fputc('\n', f);
			for (uint32_t q = 0; q < p->neth; q++)
				if (p->eth[q].value)
					fprintf(f, "%s    driver %s %llu\n", in, p->eth[q].name,
						(unsigned long long)p->eth[q].value);
		}
		if (w->nirq) {
			fprintf(f, "%s  interrupts/s:", in);
			for (uint32_t n = 0; n < w->nirq && n < 6; n++)
				fprintf(f, " %s %s", w->irq[n].name,
					k(a, sizeof(a), (double)w->irq[n].count / ws));
			fputc('\n', f);
		}
		if (w->have_conntrack)
			fprintf(f, "%s  conntrack: %llu of %llu entries, insert_failed %llu, drop %llu\n",
				in, (unsigned long long)w->ct_entries, (unsigned long long)w->ct_max,
				(unsigned long long)w->ct_insert_failed, (unsigned long long)w->ct_drop);
		else
			fprintf(f, "%s  conntrack: not loaded\n", in);
		double mhz = clock_of(c, i, s);
		double cpf = nb_cycles_per_frame(s->busy_cpu_s, mhz, frames);
		if (!isnan(cpf))
			fprintf(f, "%s  clock %.0f MHz (%s): %.0f cycles per forwarded frame\n", in, mhz,
				s->clock_mhz > 0 ? "cpufreq" : "/proc/cpuinfo", cpf);
		else
			fprintf(f, "%s  clock: unknown (no cpufreq, no cpuinfo MHz): no cycles per frame\n",
				in);
	}
}

void obs_cli_json(struct nb_json *j, const char *key, const struct obs_cli *c,
		  const struct obs_trial *t, uint64_t frames)
{
	nb_json_arr_begin(j, key);
	for (size_t i = 0; i < t->n; i++) {
		const struct nb_obs_snap *w = t->w[i];
		const struct nb_obs_summary *s = t->s[i];
		double ws = s->window_s > 0 ? s->window_s : 1;
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "observer", c->spec[i]);
		nb_json_str(j, "hostname", c->si[i].hostname);
		nb_json_double(j, "window_s", s->window_s, 3);
		nb_json_u64(j, "samples", w->samples);
		nb_json_double(j, "observer_cpu_pct", s->self_cpu_pct, 3);
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
		double mhz = clock_of(c, i, s);
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
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

void obs_cli_json_verdict(struct nb_json *j, const char *key, const struct nb_verdict *v)
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
	nb_json_obj_end(j);
	nb_json_obj_end(j);
}
