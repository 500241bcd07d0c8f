/* SPDX-License-Identifier: BSD-2-Clause */
/* The verdict: what limited the device under test in one trial, with the counters that show it.
 * A pure function of the trial's counts, the generator's ceiling, the observer's window and the
 * sink's socket drops, so it is tested on recorded windows. The rule is in docs/rate.md. */
#ifndef NB_VERDICT_H
#define NB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/observe/obs.h"
#include "core/profile/prof.h"

enum nb_verdict_kind {
	NB_V_NONE,	  /* no loss and the generator was not at its maximum: nothing to name */
	NB_V_GENERATOR,	  /* the generator's maximum passed without loss */
	NB_V_DUT_CPU,	  /* a DUT CPU saturated: backlog drops, or NIC drops with time_squeeze */
	NB_V_DUT_INGRESS, /* NIC missed/fifo/over drops while no DUT CPU is saturated */
	NB_V_EGRESS,	  /* qdisc drops or tx_dropped on the way out */
	NB_V_RECEIVER,	  /* the sink's socket dropped them */
	NB_V_CONNTRACK,	  /* conntrack insert failures or drops (table full) */
	NB_V_UNEXPLAINED, /* the counters account for less than the loss, beyond 1 % */
	NB_V_MISALIGNED,  /* the counters saw more drops than the trial lost: not the same frames */
	NB_V_EMULATOR,	  /* an emulated board's host tap dropped most: qemu was not run in time */
};

/* The egress line counts as full from this share of its link speed on (bits on the wire). */
#define NB_VERDICT_LINE_PCT 99.0
/* Bytes a frame takes on an Ethernet wire beyond what tx_bytes counts: FCS 4, preamble and
 * start delimiter 8, inter-frame gap 12. */
#define NB_VERDICT_WIRE_OVERHEAD 24

/* A DUT CPU counts as saturated from this busy share on. */
#define NB_VERDICT_SATURATED_PCT 90.0
/* From this busy share on a DUT CPU is named in every verdict, whatever else limited: the DUT
 * is at its limit near this rate (a window's average hides the bursts above it). */
#define NB_VERDICT_AT_LIMIT_PCT 95.0

struct nb_verdict_in {
	uint64_t offered, received; /* frames sent and received (distinct) in the trial */
	double offered_fps;
	bool gen_max;	/* offered at the highest rate asked (flat out or its cap) */
	bool max_asked; /* that highest rate was the user's cap (--rate), not the generator's */
	const struct nb_obs_summary *dut; /* NULL: no observer */
	const struct nb_obs_snap *win;	  /* the window dut summarizes (interface names) */
	double
	    active_s; /* how long traffic flowed (the trial's window); 0: the observer's window */
	bool have_sink_drops;
	uint64_t sink_drops; /* the receiving socket's drops (receive buffer full) */
	/* Frames the generator's tap to an emulated DUT dropped: the board's NIC ring was full
	 * (tapring.h). Counted with the DUT's NIC drops. */
	uint64_t ring_dropped;
	/* The DUT's kernel profile over the same window and CPUs (NULL: none): "DUT CPU bound"
	 * names the category with the largest share and its ns per frame. */
	const struct nb_prof_summary *prof;
	/* The DUT is an emulated board behind the generator's tap, and the host that runs its
	 * qemu gave host_other_pct % of one CPU to other work in the window (NaN: unknown). */
	bool emulated;
	double host_other_pct;
};

struct nb_verdict {
	enum nb_verdict_kind kind;
	uint64_t lost, accounted;
	bool explained; /* accounted within 1 % of lost */
	/* the classes the loss is split into */
	uint64_t by_cpu, by_nic, by_egress, by_receiver, by_conntrack;
	/* softnet drops beyond the devices' count and beyond the loss: the whole kernel's, not the
	 * trial's frames (another namespace's traffic on a shared host) */
	uint64_t softnet_other;
	uint64_t by_nic_ring; /* of by_nic: the emulated NIC's ring (the host tap's drops) */
	bool line_rate; /* the egress interface carried >= NB_VERDICT_LINE_PCT of its link speed */
	bool cpu_at_limit;   /* the busiest DUT CPU was >= NB_VERDICT_AT_LIMIT_PCT busy */
	int32_t busiest_cpu; /* -1: not observed */
	double busiest_pct;
	double egress_mbps, egress_speed_mbps; /* on the wire, and the link's; 0: speed unknown */
	char text[560]; /* "DUT CPU bound: DUT cpu1 99 % busy (softirq 99 %), ..." */
	/* An emulated board's host: other work in the window (% of a CPU; NaN: unknown), and
	 * whether that pollutes the board's figures (nb_cpu_polluted). */
	double host_other_pct;
	bool board_polluted;
};

void nb_verdict_decide(const struct nb_verdict_in *in, struct nb_verdict *v);
const char *nb_verdict_name(enum nb_verdict_kind k); /* "dut_cpu", ... (JSON) */

/* DUT busy CPU time x clock / frames; NaN when the clock or the frames are unknown. */
double nb_cycles_per_frame(double busy_cpu_s, double clock_mhz, uint64_t frames);

/* The clock experiment: fps ~ clock^exponent by least squares on log-log. */
struct nb_clock_fit {
	double exponent;
	double lo, hi; /* the exponent's 95 % interval (Student's t); NAN when dof is 0 */
	size_t dof;    /* residual degrees of freedom: points - 2 */
	double r2;
	size_t points;
	bool cpu_bound; /* exponent >= 0.7 */
	const char *wording;
};
/* Needs two or more distinct clocks (at most NB_CLOCK_FIT_MAX) and positive values: -EINVAL
 * otherwise. */
#define NB_CLOCK_FIT_MAX 64
int nb_clock_fit(const double *mhz, const double *fps, size_t n, struct nb_clock_fit *f);

#endif
