/* SPDX-License-Identifier: BSD-2-Clause */
/* The verdict rule (docs/rate.md): loss is split into classes by the counters that saw it; more
 * drops than lost frames is a misaligned window, fewer (beyond 1 %) is "unexplained", both quote
 * every counter; else the largest class names the bottleneck. A NIC drop while a DUT CPU is
 * saturated and NAPI ran out of budget (time_squeeze) is the CPU's, not the NIC's. A DUT CPU at
 * 95 % or more is named whatever else limited. */
#include "core/observe/verdict.h"

#include "core/base/cpu.h"
#include "core/base/stats.h"
#include "core/base/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *nb_verdict_name(enum nb_verdict_kind k)
{
	switch (k) {
	case NB_V_GENERATOR:
		return "generator_bound";
	case NB_V_DUT_CPU:
		return "dut_cpu_bound";
	case NB_V_DUT_INGRESS:
		return "dut_ingress_bound";
	case NB_V_EGRESS:
		return "egress_bound";
	case NB_V_RECEIVER:
		return "receiver_bound";
	case NB_V_CONNTRACK:
		return "conntrack_bound";
	case NB_V_UNEXPLAINED:
		return "unexplained";
	case NB_V_MISALIGNED:
		return "misaligned";
	case NB_V_EMULATOR:
		return "emulator_not_scheduled";
	default:
		return "none";
	}
}

static const char *ifname(const struct nb_verdict_in *in, int32_t i)
{
	return in->win && i >= 0 && (uint32_t)i < in->win->nif ? in->win->ifs[i].name : "?";
}

/* "DUT cpu1 99 % busy (softirq 99 %), time_squeeze 12k/s, backlog drops 0, NIC missed 0" */
static void cpu_evidence(const struct nb_verdict_in *in, char *b, size_t len)
{
	const struct nb_obs_summary *d = in->dut;
	char s1[16], s2[16], s3[16];
	double ws = d->window_s > 0 ? d->window_s : 1;
	snprintf(
	    b, len,
	    "DUT cpu%d %.0f %% busy (%s %.0f %%), time_squeeze %s/s, backlog drops %s, NIC "
	    "missed %s",
	    d->busiest_cpu, d->busiest_pct, d->busiest_with, d->busiest_with_pct,
	    nb_format_count((double)d->softnet_squeezed / ws, s1, sizeof(s1)),
	    nb_format_count((double)(d->softnet_dropped > d->ingress_rx_dropped
					 ? d->softnet_dropped
					 : d->ingress_rx_dropped),
			    s2, sizeof(s2)),
	    nb_format_count((double)(d->rx_missed + d->rx_fifo + d->rx_over + in->ring_dropped), s3,
			    sizeof(s3)));
}

/* The egress interface's rate on the wire against its link speed, when the speed is known
 * (a NIC: sysfs speed; never a virtual device). */
static void line_rate(const struct nb_verdict_in *in, struct nb_verdict *v)
{
	const struct nb_obs_summary *d = in->dut;
	const struct nb_obs_if *f;
	double s;
	if (!d || !in->win || d->egress_if < 0 || (uint32_t)d->egress_if >= in->win->nif)
		return;
	f = &in->win->ifs[d->egress_if];
	s = in->active_s > 0 ? in->active_s : d->window_s;
	if (!f->speed_mbps || !(s > 0))
		return;
	v->egress_speed_mbps = f->speed_mbps;
	v->egress_mbps =
	    (double)(f->tx_bytes + NB_VERDICT_WIRE_OVERHEAD * f->tx_packets) * 8.0 / s / 1e6;
	v->line_rate = v->egress_mbps >= NB_VERDICT_LINE_PCT / 100.0 * f->speed_mbps;
}

/* "line rate reached (9.9k of 10k Mbit/s) on eth1" */
static void line_text(const struct nb_verdict_in *in, const struct nb_verdict *v, char *b,
		      size_t len)
{
	snprintf(b, len, "line rate reached (%.0f of %.0f Mbit/s) on %s", v->egress_mbps,
		 v->egress_speed_mbps, ifname(in, in->dut->egress_if));
}

/* "DUT cpu1 97 % busy (softirq 60 %)" when the busiest DUT CPU is at its limit, else "". */
static void at_limit_text(const struct nb_verdict_in *in, const struct nb_verdict *v, char *b,
			  size_t len)
{
	b[0] = 0;
	if (v->cpu_at_limit)
		snprintf(b, len, "DUT cpu%d %.0f %% busy (%s %.0f %%)", in->dut->busiest_cpu,
			 in->dut->busiest_pct, in->dut->busiest_with, in->dut->busiest_with_pct);
}

/* The verdict when nothing was lost: the egress line full, a DUT CPU at its limit, the
 * generator's maximum, or nothing to name (in that order). */
static void decide_clean(const struct nb_verdict_in *in, struct nb_verdict *v, const char *lt,
			 const char *cpu)
{
	char a[16];
	v->explained = true;
	if (v->line_rate) {
		/* Nothing lost, but nothing more fits on the way out either. */
		v->kind = NB_V_EGRESS;
		snprintf(v->text, sizeof(v->text), "egress bound: %s, nothing lost%s%s", lt,
			 cpu[0] ? "; " : "", cpu);
	} else if (v->cpu_at_limit) {
		/* The generator may have reached its maximum too: both are said, the CPU decides.
		 */
		v->kind = NB_V_DUT_CPU;
		if (in->gen_max)
			snprintf(v->text, sizeof(v->text),
				 "%s maximum reached (%s fps, nothing lost); %s: the DUT is "
				 "at its limit near this rate",
				 in->max_asked ? "asked" : "generator's",
				 nb_format_count(in->offered_fps, a, sizeof(a)), cpu);
		else
			snprintf(v->text, sizeof(v->text),
				 "no loss at %s fps offered; %s: the DUT is at its limit near this "
				 "rate",
				 nb_format_count(in->offered_fps, a, sizeof(a)), cpu);
	} else if (in->gen_max && in->max_asked) {
		/* The user's cap, not the generator's: nothing is known above it. */
		v->kind = NB_V_NONE;
		snprintf(v->text, sizeof(v->text),
			 "no loss at %s fps offered, the asked maximum (--rate): the DUT's limit, "
			 "if any, lies above it",
			 nb_format_count(in->offered_fps, a, sizeof(a)));
	} else if (in->gen_max) {
		v->kind = NB_V_GENERATOR;
		snprintf(
		    v->text, sizeof(v->text),
		    "generator bound: %s fps offered, the generator's maximum, and nothing lost",
		    nb_format_count(in->offered_fps, a, sizeof(a)));
	} else {
		v->kind = NB_V_NONE;
		snprintf(v->text, sizeof(v->text), "no loss at %s fps offered",
			 nb_format_count(in->offered_fps, a, sizeof(a)));
	}
}

/* Appends "; " and more to the verdict's text when it fits. */
static void append(struct nb_verdict *v, const char *more)
{
	if (more[0] && strlen(v->text) + 2 + strlen(more) < sizeof(v->text)) {
		strcat(v->text, "; ");
		strcat(v->text, more);
	}
}

/* The lost frames each counter accounts for, and whether together they explain the loss. */
static void drops_account(const struct nb_verdict_in *in, struct nb_verdict *v, uint64_t *tol)
{
	const struct nb_obs_summary *d = in->dut;

	v->by_receiver = in->have_sink_drops ? in->sink_drops : 0;
	if (d) {
		uint64_t dev = d->ingress_rx_dropped + d->tx_dropped, base, room, beyond;
		v->by_nic_ring = in->ring_dropped;
		v->by_nic = d->rx_missed + d->rx_fifo + d->rx_over + v->by_nic_ring;
		/* A backlog drop is counted by softnet_stat and, on most drivers, by the receiving
		 * device's rx_dropped (or, for veth, the sending side's tx_dropped) too: count it
		 * once. */
		v->by_cpu = d->ingress_rx_dropped;
		v->by_egress = d->qdisc_drops + d->tx_dropped;
		v->by_conntrack = 0;
		if (in->win)
			v->by_conntrack = in->win->ct_insert_failed + in->win->ct_drop;
		/* Softnet drops beyond the devices' count are CPU drops of their own (a driver that
		 * does not count its backlog drops), but softnet_stat is the whole kernel's, shared
		 * by every namespace: on a shared host it also counts other traffic. They account
		 * only for what the loss leaves unexplained; the rest was not the trial's. */
		beyond = d->softnet_dropped > dev ? d->softnet_dropped - dev : 0;
		base = v->by_cpu + v->by_nic + v->by_egress + v->by_receiver + v->by_conntrack;
		room = v->lost > base ? v->lost - base : 0;
		v->by_cpu += beyond < room ? beyond : room;
		v->softnet_other = beyond - (beyond < room ? beyond : room);
	}
	v->accounted = v->by_cpu + v->by_nic + v->by_egress + v->by_receiver + v->by_conntrack;
	*tol = v->lost / 100;
	v->explained = v->accounted + *tol >= v->lost && v->accounted <= v->lost + *tol;
}

/* The counters as evidence, for a verdict that names none of them alone. */
static void evidence_text(const struct nb_verdict_in *in, const struct nb_verdict *v, char *ev,
			  size_t len)
{
	const struct nb_obs_summary *d = in->dut;
	char a[16], b[16], c[16], sd[24] = "unknown";

	if (in->have_sink_drops)
		snprintf(sd, sizeof(sd), "%llu", (unsigned long long)in->sink_drops);
	if (!d) {
		snprintf(ev, len, "sink socket drops %s, no observer on the DUT", sd);
		return;
	}
	snprintf(ev, len,
		 "backlog/rx drops %s, NIC missed+fifo+over %s, qdisc drops %s, tx_dropped "
		 "%llu, sink socket drops %s, busiest DUT cpu%d %.0f %%",
		 nb_format_count((double)v->by_cpu, a, sizeof(a)),
		 nb_format_count((double)v->by_nic, b, sizeof(b)),
		 nb_format_count((double)d->qdisc_drops, c, sizeof(c)),
		 (unsigned long long)d->tx_dropped, sd, d->busiest_cpu, d->busiest_pct);
	if (v->softnet_other && strlen(ev) + 60 < len)
		snprintf(ev + strlen(ev), len - strlen(ev), "; softnet drops not the trial's %s",
			 nb_format_count((double)v->softnet_other, a, sizeof(a)));
}

/* The bound of an explained loss: the counter with the most drops, then what the CPU and an
 * emulated board's tap say about it. */
static enum nb_verdict_kind kind_pick(const struct nb_verdict_in *in, const struct nb_verdict *v)
{
	const struct nb_obs_summary *d = in->dut;
	enum nb_verdict_kind kind = NB_V_DUT_CPU;
	uint64_t max = v->by_cpu;

	if (v->by_nic > max) {
		max = v->by_nic;
		kind = NB_V_DUT_INGRESS;
	}
	if (v->by_egress > max) {
		max = v->by_egress;
		kind = NB_V_EGRESS;
	}
	if (v->by_receiver > max) {
		max = v->by_receiver;
		kind = NB_V_RECEIVER;
	}
	if (v->by_conntrack > max)
		kind = NB_V_CONNTRACK;
	if (kind == NB_V_DUT_INGRESS && d->busiest_pct >= NB_VERDICT_SATURATED_PCT &&
	    d->softnet_squeezed)
		kind = NB_V_DUT_CPU; /* the ring overflowed because the CPU could not keep up */
	/* The host tap's drops of an emulated board mean qemu was not run in time to take them
	 * (a busy host): no counter of the board shows its NIC, DMA or bus, so those are never
	 * named on them; only the board's own NIC counters could. */
	if (kind == NB_V_DUT_INGRESS && v->by_nic_ring > v->by_nic - v->by_nic_ring)
		kind = NB_V_EMULATOR;
	return kind;
}

/* The text of an explained loss's verdict (v->kind), with its evidence. */
static void kind_text(const struct nb_verdict_in *in, struct nb_verdict *v, const char *lt,
		      const char *cpu, char *ev, size_t evlen)
{
	const struct nb_obs_summary *d = in->dut;
	char a[16], b[16], c[16], ring[16];

	switch (v->kind) {
	case NB_V_DUT_CPU:
		cpu_evidence(in, ev, evlen);
		snprintf(v->text, sizeof(v->text), "DUT CPU bound: %s", ev);
		break;
	case NB_V_DUT_INGRESS:
		snprintf(v->text, sizeof(v->text),
			 "DUT ingress bound (NIC, DMA or bus): NIC missed %s, fifo %s, over %s%s%s "
			 "while the busiest DUT CPU (cpu%d) was at %.0f %%",
			 nb_format_count((double)d->rx_missed, a, sizeof(a)),
			 nb_format_count((double)d->rx_fifo, b, sizeof(b)),
			 nb_format_count((double)d->rx_over, c, sizeof(c)),
			 v->by_nic_ring ? ", emulated NIC ring full (host tap drops) " : "",
			 v->by_nic_ring
			     ? nb_format_count((double)v->by_nic_ring, ring, sizeof(ring))
			     : "",
			 d->busiest_cpu, d->busiest_pct);
		break;
	case NB_V_EMULATOR:
		snprintf(v->text, sizeof(v->text),
			 "emulator not scheduled (host busy): the host's tap dropped %s frames the "
			 "emulated board could not take in time (no counter of the board shows its "
			 "NIC, DMA or bus) while the busiest DUT CPU (cpu%d) was at %.0f %%",
			 nb_format_count((double)v->by_nic_ring, ring, sizeof(ring)),
			 d->busiest_cpu, d->busiest_pct);
		break;
	case NB_V_EGRESS:
		snprintf(
		    v->text, sizeof(v->text),
		    "egress bound: %s%sqdisc drops %s (overlimits %s), tx_dropped %s on %s", lt,
		    lt[0] ? "; " : "", nb_format_count((double)d->qdisc_drops, a, sizeof(a)),
		    nb_format_count((double)d->qdisc_overlimits, b, sizeof(b)),
		    nb_format_count((double)d->tx_dropped, c, sizeof(c)), ifname(in, d->egress_if));
		append(v, cpu);
		break;
	case NB_V_RECEIVER:
		snprintf(v->text, sizeof(v->text),
			 "receiver bound: the sink's socket dropped %s of %s lost frames (receive "
			 "buffer full)",
			 nb_format_count((double)v->by_receiver, a, sizeof(a)),
			 nb_format_count((double)v->lost, b, sizeof(b)));
		append(v, cpu);
		break;
	case NB_V_CONNTRACK:
		snprintf(v->text, sizeof(v->text),
			 "DUT conntrack bound: insert failures and drops %s, %llu of %llu entries",
			 nb_format_count((double)v->by_conntrack, a, sizeof(a)),
			 (unsigned long long)in->win->ct_entries,
			 (unsigned long long)in->win->ct_max);
		append(v, cpu);
		break;
	default:
		break;
	}
}

static void decide(const struct nb_verdict_in *in, struct nb_verdict *v)
{
	char lt[120] = "", cpu[80] = "", ev[300] = "";
	const struct nb_obs_summary *d = in->dut;
	uint64_t tol;

	memset(v, 0, sizeof(*v));
	v->busiest_cpu = d ? d->busiest_cpu : -1;
	v->busiest_pct = d && d->busiest_cpu >= 0 ? d->busiest_pct : 0;
	v->cpu_at_limit = d && d->busiest_cpu >= 0 && d->busiest_pct >= NB_VERDICT_AT_LIMIT_PCT;
	at_limit_text(in, v, cpu, sizeof(cpu));
	v->lost = in->offered > in->received ? in->offered - in->received : 0;
	line_rate(in, v);
	if (v->line_rate)
		line_text(in, v, lt, sizeof(lt));
	if (!v->lost) {
		decide_clean(in, v, lt, cpu);
		return;
	}
	drops_account(in, v, &tol);
	evidence_text(in, v, ev, sizeof(ev));
	if (v->accounted > v->lost + tol) {
		/* More drops than lost frames: the counters took in frames the trial did not send
		 * or count (another trial's tail, other traffic). Not evidence of this loss. */
		v->kind = NB_V_MISALIGNED;
		/* A long evidence list is cut; the counters themselves are in the document. */
		if (snprintf(v->text, sizeof(v->text),
			     "misaligned window: %llu lost in the trial, but the counters saw %llu "
			     "drops (%s): they counted frames outside the trial, no verdict from "
			     "them",
			     (unsigned long long)v->lost, (unsigned long long)v->accounted,
			     ev) >= (int)sizeof(v->text))
			v->text[sizeof(v->text) - 1] = '\0';
		append(v, lt[0] ? lt : "");
		return;
	}
	if (!v->explained) {
		v->kind = NB_V_UNEXPLAINED;
		snprintf(v->text, sizeof(v->text),
			 "unexplained: %llu lost, counters account for %llu (%s)",
			 (unsigned long long)v->lost, (unsigned long long)v->accounted, ev);
		if (lt[0] && strlen(v->text) + strlen("; egress ") + strlen(lt) < sizeof(v->text)) {
			strcat(v->text, "; egress ");
			strcat(v->text, lt);
		}
		return;
	}
	v->kind = kind_pick(in, v);
	kind_text(in, v, lt, cpu, ev, sizeof(ev));
}

double nb_cycles_per_frame(double busy_cpu_s, double clock_mhz, uint64_t frames)
{
	if (!(clock_mhz > 0) || !frames || !(busy_cpu_s >= 0))
		return NAN;
	return busy_cpu_s * clock_mhz * 1e6 / (double)frames;
}

int nb_clock_fit(const double *mhz, const double *fps, size_t n, struct nb_clock_fit *f)
{
	double x[NB_CLOCK_FIT_MAX], y[NB_CLOCK_FIT_MAX];
	struct nb_ols o;
	char why[160];
	memset(f, 0, sizeof(*f));
	if (n < 2 || n > NB_CLOCK_FIT_MAX)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!(mhz[i] > 0) || !(fps[i] > 0))
			return -EINVAL;
		x[i] = log(mhz[i]);
		y[i] = log(fps[i]);
	}
	/* The least-squares engine refuses one clock only, and values it cannot use. */
	if (nb_ols(y, x, n, 1, NULL, &o, why, sizeof(why)))
		return -EINVAL;
	f->exponent = o.coef[1];
	f->lo = o.lo[1];
	f->hi = o.hi[1];
	f->dof = o.dof;
	f->r2 = isnan(o.r2) ? 1.0 : o.r2; /* the same fps at every clock: nothing left over */
	f->points = n;
	f->cpu_bound = f->exponent >= 0.7;
	if (f->cpu_bound)
		f->wording = "scales with the core, CPU bound";
	else if (f->exponent <= 0.3)
		f->wording = "does not follow the core clock: bus, memory or NIC bound";
	else
		f->wording =
		    "follows the core clock only in part: CPU and bus, memory or NIC both limit";
	return 0;
}

/* "DUT CPU bound" names where the CPU went: the busy category with the largest share of the
 * DUT CPUs' samples and its ns per frame, with the share's 95 % interval and sample count, or
 * says it is not established. */
static void where_it_went(const struct nb_prof_summary *p, struct nb_verdict *v)
{
	char b[200];
	const struct nb_prof_share *q = nb_prof_top(p);
	if (!q)
		return;
	if (!q->established) {
		snprintf(b, sizeof(b),
			 "where its CPU went: not established (largest share %s %.0f %%, 95 %% "
			 "%.0f-%.0f %%, of %llu samples; profile longer or at a higher rate)",
			 nb_prof_cat_name(q->cat), q->share * 100, q->lo * 100, q->hi * 100,
			 (unsigned long long)p->samples);
	} else {
		int n =
		    snprintf(b, sizeof(b), "where its CPU went: %s %.0f %% (95 %% %.0f-%.0f %%",
			     nb_prof_cat_name(q->cat), q->share * 100, q->lo * 100, q->hi * 100);
		if (!isnan(q->ns_per_frame) && n > 0 && (size_t)n < sizeof(b))
			n += snprintf(b + n, sizeof(b) - (size_t)n, ", %.0f ns/frame",
				      q->ns_per_frame);
		if (n > 0 && (size_t)n < sizeof(b))
			snprintf(b + n, sizeof(b) - (size_t)n, ") of %llu samples",
				 (unsigned long long)p->samples);
	}
	append(v, b);
}

/* An emulated board's figures hold its host's other work: qemu competes with it for the
 * host's CPUs, so the board runs slower than it would alone. Measured on the host (its
 * /proc/stat less qemu's and netbench's own time), never guessed from the board. */
static void board_host(const struct nb_verdict_in *in, struct nb_verdict *v)
{
	char a[16], b[220];
	v->host_other_pct = in->emulated ? in->host_other_pct : NAN;
	v->board_polluted = in->emulated && nb_cpu_polluted(in->host_other_pct);
	if (!in->emulated || !isfinite(in->host_other_pct))
		return;
	if (v->kind == NB_V_EMULATOR && !v->board_polluted) {
		/* Drops at the tap while the host had room: the emulation's own speed. */
		snprintf(v->text, sizeof(v->text),
			 "emulator bound: the host's tap dropped %s frames qemu did not take in "
			 "time while other work took only %.0f %% of a host CPU (the emulation's "
			 "speed; no counter of the board shows its NIC, DMA or bus) and the "
			 "busiest DUT CPU (cpu%d) was at %.0f %%",
			 nb_format_count((double)v->by_nic_ring, a, sizeof(a)), in->host_other_pct,
			 in->dut ? in->dut->busiest_cpu : -1, in->dut ? in->dut->busiest_pct : 0);
		return;
	}
	if (v->board_polluted) {
		snprintf(b, sizeof(b),
			 "the board's figures are polluted: the host that runs its qemu gave %.0f "
			 "%% of a CPU to other work in the window",
			 in->host_other_pct);
		append(v, b);
	}
}

void nb_verdict_decide(const struct nb_verdict_in *in, struct nb_verdict *v)
{
	decide(in, v);
	if (v->kind == NB_V_DUT_CPU && in->prof && in->prof->available && in->prof->samples)
		where_it_went(in->prof, v);
	board_host(in, v);
}
