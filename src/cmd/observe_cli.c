/* SPDX-License-Identifier: BSD-2-Clause */
/* Observer sessions for the front ends, and how the DUT's view is shown. */
#include "cmd/observe_cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/virt_note.h"
#include "core/base/timeutil.h"
#include "core/base/units.h"
#include "core/lab/lab.h"
#include "core/session/auth.h"

bool obs_cli_option(struct obs_cli *c, int opt, const char *arg)
{
	switch (opt) {
	case OBS_OPT_OBSERVE: {
		char host[256];
		uint16_t port;
		if (nb_obs_parse_target(arg, host, sizeof(host), &port, NB_DEFAULT_PORT))
			cli_usage_error("--observe: '%s' is not HOST[:PORT] (port 1-65535)", arg);
		if (c->set.n == NB_OBS_SET_MAX)
			cli_usage_error("--observe: at most %d observers", NB_OBS_SET_MAX);
		c->set.spec[c->set.n++] = arg;
		return true;
	}
	case OBS_OPT_NO_OBSERVE:
		c->no_observe = true;
		return true;
	case OBS_OPT_RATE:
		c->set.req.sample_hz =
		    (uint32_t)cli_uint("--observe-rate", arg, 1, NB_OBS_SAMPLE_HZ_MAX);
		return true;
	case OBS_OPT_DUT_CPUS:
		if (nb_obs_parse_cpulist(arg, &c->set.dut_mask) || !c->set.dut_mask)
			cli_usage_error(
			    "--dut-cpus: '%s' is not a CPU list such as 1 or 0-1,3 (CPUs "
			    "0-63)",
			    arg);
		c->set.req.rps_mask = c->set.dut_mask;
		return true;
	case OBS_OPT_PROFILE:
		c->set.req.profile_hz =
		    arg ? (uint32_t)cli_uint("--profile", arg, 1, NB_PROF_HZ_MAX)
			: NB_PROF_HZ_DEFAULT;
		return true;
	case OBS_OPT_CLOCKS: {
		uint64_t v[OBS_CLI_CLOCKS];
		size_t n = cli_rate_list("--observe-clocks", arg, v, OBS_CLI_CLOCKS, 1, 20000);
		if (n < 2)
			cli_usage_error("--observe-clocks: '%s' needs two or more clocks in MHz",
					arg);
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
	if (c->set.n || c->no_observe || !dst)
		return;
	if (strcmp(dst, NB_LAB_SINK_ADDR) && strcmp(dst, NB_LAB_SINK_ADDR6))
		return;
	c->set.spec[c->set.n++] = lab_obs;
	c->implied = true;
	c->quiet = quiet;
}

void obs_cli_open(struct obs_cli *c, const char *psk_file)
{
	char err[600];
	uint8_t psk[NB_PSK_MAX];
	size_t psk_len = 0;
	int ret;
	if ((c->nclocks || c->set.dut_mask || c->set.req.profile_hz) && !c->set.n)
		cli_usage_error("--%s needs an observer (--observe HOST)",
				c->nclocks	  ? "observe-clocks"
				: c->set.dut_mask ? "dut-cpus"
						  : "profile");
	c->set.req.profile_mask = c->set.dut_mask;
	if (!c->set.n)
		return;
	if (psk_file && (ret = nb_psk_load(psk_file, psk, &psk_len)))
		cli_fail(ret, "--psk: cannot use %s", psk_file);
	if ((ret = nb_obs_set_open(&c->set, psk, psk_len, err, sizeof(err)))) {
		if (!c->implied)
			cli_fail(0, "%s", err);
		/* A lab brought up with --no-agent has no observer: measure without. */
		nb_obs_set_close(&c->set);
		c->set.n = 0;
		if (!c->quiet)
			fprintf(stderr, "netbench %s: the lab's DUT is not observed (%s)\n",
				cli_command(), err);
		return;
	}
	if (c->implied && !c->quiet)
		fprintf(stderr, "observing the lab's DUT at %s (--no-observe to skip)\n",
			c->set.spec[0]);
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

/* Each interface's counters, and its driver's statistics that are not zero. */
static void print_ifs(FILE *f, const struct nb_obs_snap *w, const char *in)
{
	char a[16], b[16];

	for (uint32_t n = 0; n < w->nif; n++) {
		const struct nb_obs_if *p = &w->ifs[n];
		fprintf(f,
			"%s  %-10s rx %s tx %s  rx_dropped %llu missed %llu fifo %llu over "
			"%llu  "
			"tx_dropped %llu tx_errors %llu",
			in, p->name, nb_format_count((double)p->rx_packets, a, sizeof(a)),
			nb_format_count((double)p->tx_packets, b, sizeof(b)),
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
}

/* The DUT's clock and the cycles per frame it gives. */
static void print_clock(FILE *f, const struct nb_obs_cost *q, const char *in)
{
	char a[16], b[16], e[16];

	if (!q->clock_from)
		fprintf(f,
			"%s  clock: unknown (no cpufreq, no cpuinfo MHz): no cycles per "
			"frame\n",
			in);
	else if (isnan(q->cycles_per_frame))
		fprintf(f, "%s  clock %.0f MHz (%s): no frame reached the DUT\n", in, q->clock_mhz,
			q->clock_from);
	else
		fprintf(f,
			"%s  clock %.0f MHz (%s): %.0f cycles per frame handled (%s ingress "
			"frames, %s), %s per forwarded frame (%s, %s)\n",
			in, q->clock_mhz, q->clock_from, q->cycles_per_frame,
			nb_format_count((double)q->ingress_frames, a, sizeof(a)), q->ingress_from,
			isnan(q->cycles_per_forwarded_frame)
			    ? "-"
			    : (snprintf(e, sizeof(e), "%.0f", q->cycles_per_forwarded_frame), e),
			nb_format_count((double)q->forwarded_frames, b, sizeof(b)),
			q->forwarded_from);
}

void obs_cli_print(FILE *f, const struct nb_obs_set *c, const struct nb_obs_trial *t,
		   const char *in)
{
	char a[16], b[16], d[16], e[16], cpus[300];
	for (size_t i = 0; i < t->n; i++) {
		const struct nb_obs_snap *w = t->w[i];
		const struct nb_obs_summary *s = t->s[i];
		double ws = s->window_s > 0 ? s->window_s : 1;
		obs_cli_cpus_str(t->mask[i], w, cpus, sizeof(cpus));
		fprintf(f,
			"%sDUT %s (%s): window %.2f s, %u samples, observer %.2f %% of a CPU%s\n",
			in, c->spec[i], c->si[i].hostname[0] ? c->si[i].hostname : "?", s->window_s,
			w->samples, s->self_cpu_pct,
			s->self_over_budget ? " (over its 1 % budget: it perturbed this box)" : "");
		if (s->cost_known)
			fprintf(
			    f,
			    "%s  observer's cost: %.0f us of CPU per sample (%.2f %% of a CPU), "
			    "%.1f ms for the snapshots at the window's edges (outside it)\n",
			    in, s->sample_us, s->sampling_pct, s->edge_ms);
		fprintf(f, "%s  DUT CPUs: %s\n", in, cpus);
		for (uint32_t n = 0; n < s->ncpu; n++) {
			const struct nb_obs_cpu_share *p = &s->cpu[n];
			if (t->mask[i] && !(p->id < 64 && (t->mask[i] >> p->id) & 1))
				continue;
			fprintf(f,
				"%s  cpu%-3u usr %5.1f %%  sys %5.1f %%  irq %5.1f %%  softirq "
				"%5.1f %%  "
				"idle %5.1f %%\n",
				in, p->id, p->user_pct, p->system_pct, p->irq_pct, p->softirq_pct,
				p->idle_pct);
		}
		obs_cli_print_profile(f, c, i, t, in);
		if (w->peak_cpu >= 0 && w->sample_period_ns)
			fprintf(f, "%s  peak over samples of %.0f ms or less: cpu%d %.0f %% busy\n",
				in, (double)w->sample_period_ns / 1e6, w->peak_cpu,
				w->peak_busy_pct);
		else if (w->peak_cpu >= 0)
			fprintf(f, "%s  peak over %.0f ms samples: cpu%d %.0f %% busy\n", in,
				1000.0 / (c->req.sample_hz ? c->req.sample_hz : 10), w->peak_cpu,
				w->peak_busy_pct);
		fprintf(f,
			"%s  softnet: processed %s, dropped %s (backlog full), time_squeeze %s "
			"(%s/s)\n",
			in, nb_format_count((double)s->softnet_processed, a, sizeof(a)),
			nb_format_count((double)s->softnet_dropped, b, sizeof(b)),
			nb_format_count((double)s->softnet_squeezed, d, sizeof(d)),
			nb_format_count((double)s->softnet_squeezed / ws, e, sizeof(e)));
		print_ifs(f, w, in);
		if (w->nirq) {
			fprintf(f, "%s  interrupts/s:", in);
			for (uint32_t n = 0; n < w->nirq && n < 6; n++)
				fprintf(
				    f, " %s %s", w->irq[n].name,
				    nb_format_count((double)w->irq[n].count / ws, a, sizeof(a)));
			fputc('\n', f);
		}
		if (w->have_conntrack)
			fprintf(
			    f,
			    "%s  conntrack: %llu of %llu entries, insert_failed %llu, drop %llu\n",
			    in, (unsigned long long)w->ct_entries, (unsigned long long)w->ct_max,
			    (unsigned long long)w->ct_insert_failed,
			    (unsigned long long)w->ct_drop);
		else
			fprintf(f, "%s  conntrack: not loaded\n", in);
		print_clock(f, &t->cost[i], in);
	}
}

void obs_cli_print_profile(FILE *f, const struct nb_obs_set *c, size_t i,
			   const struct nb_obs_trial *t, const char *in)
{
	char line[520];
	if (i >= t->n || !t->prof[i] || !t->psum[i])
		return;
	const struct nb_prof_result *r = t->prof[i];
	const struct nb_prof_summary *p = t->psum[i];
	nb_obs_profile_line(t, i, line, sizeof(line));
	fprintf(f, "%sDUT %s\n", in, line);
	if (!r->available)
		return;
	double ws = (double)r->window_ns / 1e9;
	uint64_t all = 0;
	for (uint32_t k = 0; k < r->ncpu; k++)
		all += r->cpu[k].samples;
	fprintf(f,
		"%s  profile: %u Hz per CPU, %llu samples on these CPUs of %llu the window "
		"holds (%llu lost%s), the profiler %.2f %% of a CPU (%.1f us per sample read; the "
		"kernel's own cost of each sample is not in it); %s\n",
		in, r->hz, (unsigned long long)p->samples, (unsigned long long)p->expected,
		(unsigned long long)p->lost, r->throttled ? ", throttled by the kernel" : "",
		ws > 0 ? (double)r->cpu_ns / 1e9 / ws * 100 : 0,
		all ? (double)r->cpu_ns / 1e3 / (double)all : 0,
		nb_obs_profile_scope(c, i, t->mask[i]));
	if (r->nfunc) {
		fprintf(f, "%s  top functions:", in);
		for (uint32_t k = 0; k < r->nfunc && k < 5; k++)
			fprintf(f, "%s %s%s%s%s %.0f %%", k ? "," : "", r->func[k].name,
				r->func[k].module[0] ? " [" : "", r->func[k].module,
				r->func[k].module[0] ? "]" : "",
				r->func_samples
				    ? 100.0 * (double)r->func[k].count / (double)r->func_samples
				    : 0);
		fputc('\n', f);
	}
}

size_t obs_cli_folded(FILE *f, const struct nb_obs_trial *t, const char *root)
{
	size_t n = 0;
	if (!t->n || !t->prof[0] || !t->prof[0]->available)
		return 0;
	const char *p = t->prof[0]->folded, *e = p + t->prof[0]->folded_len;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t k = nl ? (size_t)(nl - p) : (size_t)(e - p);
		fprintf(f, "%s;%.*s\n", root, (int)k, p);
		p += k + 1;
		n++;
	}
	return n;
}

void obs_cli_step_head(FILE *f, const struct nb_obs_set *c, size_t i, const struct nb_obs_trial *t,
		       const char *label_head)
{
	char cpus[300] = "?";
	if (i < t->n)
		obs_cli_cpus_str(t->mask[i], t->w[i], cpus, sizeof(cpus));
	fprintf(f, "\nDUT %s (%s) over each window, DUT CPUs %s\n", c->spec[i],
		c->si[i].hostname[0] ? c->si[i].hostname : "?", cpus);
	virt_note_print(f, "DUT", &c->si[i]);
	fprintf(f, "%s | %-22s | %9s %8s %8s | %9s %8s %8s\n", label_head,
		"busiest CPU (busy with)", "squeeze/s", "backlog", "NIC drop", "fwd frm/s",
		"cyc/frm", "cyc/B");
}

void obs_cli_step_row(FILE *f, size_t i, const struct nb_obs_trial *t, const char *label)
{
	char a[16], b[16], d[16], e[16], busy[48], cf[16] = "-", cb[16] = "-";
	if (i >= t->n) {
		fprintf(f, "%s | not observed\n", label);
		return;
	}
	const struct nb_obs_summary *s = t->s[i];
	const struct nb_obs_cost *q = &t->cost[i];
	double ws = s->window_s > 0 ? s->window_s : 1;
	uint64_t frames = q->forwarded_frames;
	double cpf = q->cycles_per_frame, cpb = q->cycles_per_byte;
	if (s->busiest_cpu >= 0)
		snprintf(busy, sizeof(busy), "cpu%d %3.0f %% (%s %.0f %%)", s->busiest_cpu,
			 s->busiest_pct, s->busiest_with, s->busiest_with_pct);
	else
		snprintf(busy, sizeof(busy), "-");
	if (!isnan(cpf))
		snprintf(cf, sizeof(cf), "%.0f", cpf);
	if (!isnan(cpb))
		snprintf(cb, sizeof(cb), "%.2f", cpb);
	fprintf(f, "%s | %-22s | %9s %8s %8s | %9s %8s %8s\n", label, busy,
		nb_format_count((double)s->softnet_squeezed / ws, a, sizeof(a)),
		nb_format_count((double)s->softnet_dropped, b, sizeof(b)),
		nb_format_count((double)(s->rx_missed + s->rx_fifo + s->rx_over + s->rx_dropped), d,
				sizeof(d)),
		nb_format_count((double)frames / ws, e, sizeof(e)), cf, cb);
}
