/* SPDX-License-Identifier: BSD-2-Clause */
/* The observer's model: what the device under test's kernel counts, read at one instant (a
 * snapshot) and as the difference of two snapshots (a window). The observer sends and receives
 * no test traffic; it watches the box in the middle (firewall, router, VPN gateway) over exactly
 * a trial's window. Readers take the text or bytes the kernel produced, so every parser is tested
 * on recorded input; the *_read functions only fetch that input. */
#ifndef NB_OBS_H
#define NB_OBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NB_OBS_CPUS	      64  /* CPUs reported (a board has few; more are summed in "rest") */
#define NB_OBS_IRQS	      128 /* interrupt lines kept (a window sends those that fired) */
#define NB_OBS_IFS	      16  /* interfaces of the namespace, loopback excluded */
#define NB_OBS_ETHS	      24  /* driver counters kept per interface (drops, misses, errors) */
#define NB_OBS_NAME	      32
#define NB_OBS_IFNAME	      16
#define NB_OBS_SPEED_MAX_MBPS 10000000 /* 10 Tbit/s: larger link speeds are not believed */
/* The observer's own cost it may have on the box it watches, percent of one of its CPUs; a
 * window over it says so (a slow board: docs/lab.md, "Boards"). */
#define NB_OBS_COST_BUDGET_PCT 1.0
/* The share of it the samples may take at the default rate: the agent samples less often when
 * what one sample costs would exceed it; the rest is left to the session's own work in the
 * window (messages, its wake-ups, its CPU sample at STOP). */
#define NB_OBS_SAMPLE_SHARE_PCT 0.3

/* /proc/stat columns of one CPU, in USER_HZ ticks. */
struct nb_obs_cpu {
	uint32_t id;
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/* /proc/net/softnet_stat, one row per online CPU. */
struct nb_obs_softnet {
	uint32_t cpu;
	uint64_t processed; /* frames taken from the backlog or by NAPI */
	uint64_t dropped;   /* backlog full: netdev_max_backlog reached */
	uint64_t squeezed;  /* time_squeeze: NAPI ran out of budget or time with work left */
};

/* One line of /proc/interrupts, summed over CPUs; name is the line's action (NIC queue names). */
struct nb_obs_irq {
	char name[NB_OBS_NAME];
	uint64_t count;
};

struct nb_obs_stat {
	char name[NB_OBS_NAME];
	uint64_t value;
};

/* /sys/class/net/IF/statistics, root qdisc counters (rtnetlink) and the driver's own counters
 * (ethtool ETHTOOL_GSTATS) of one interface. */
struct nb_obs_if {
	char name[NB_OBS_IFNAME];
	uint32_t ifindex;
	uint32_t speed_mbps; /* a NIC's link speed (sysfs speed), 0: unknown or a virtual device */
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t rx_dropped, rx_missed, rx_fifo, rx_over, tx_dropped, tx_errors;
	bool have_qdisc;
	uint64_t qdisc_drops, qdisc_overlimits, qdisc_requeues;
	uint32_t neth;
	struct nb_obs_stat eth[NB_OBS_ETHS];
};

/* A snapshot, or (nb_obs_window) the difference of two: counters are deltas, gauges (conntrack
 * entries, clocks) the value at the window's end. */
struct nb_obs_snap {
	uint64_t mono_ns;	   /* snapshot: CLOCK_MONOTONIC; window: its length */
	uint64_t self_cpu_us;	   /* the observer process's user+system time */
	uint64_t sample_cpu_ns;	   /* window: the sampling thread's own CPU time over its samples */
	uint64_t edge_cpu_ns;	   /* window: CPU time of its two full snapshots (outside it) */
	uint64_t sample_period_ns; /* window: the longest interval the sampler used */
	uint32_t clk_tck;	   /* USER_HZ of the tick counts */
	uint32_t samples;	   /* window: samples taken inside it (sampling thread) */
	double peak_busy_pct; /* window: busiest CPU's busy share over any one sample interval */
	int32_t peak_cpu;     /* its CPU id, -1 when no sample interval was seen */
	uint32_t ncpu;
	struct nb_obs_cpu cpu[NB_OBS_CPUS];
	uint32_t nsoftnet;
	struct nb_obs_softnet softnet[NB_OBS_CPUS];
	uint32_t nirq;
	struct nb_obs_irq irq[NB_OBS_IRQS];
	uint32_t nif;
	struct nb_obs_if ifs[NB_OBS_IFS];
	bool have_conntrack;
	uint64_t ct_entries, ct_max, ct_insert_failed, ct_drop, ct_early_drop;
	uint64_t rps_mask; /* CPUs receive work is steered to (RPS, any interface); 0: none */
	uint32_t nfreq;	   /* CPUs with a cpufreq reading; 0: the kernel exposes no clock */
	uint32_t freq_cpu[NB_OBS_CPUS], freq_khz[NB_OBS_CPUS];
};

/* ---- parsers of recorded text (obs_proc.c); each returns 0 or -EINVAL naming nothing ---- */
int nb_obs_parse_stat(const char *text, struct nb_obs_snap *s);
int nb_obs_parse_softnet(const char *text, struct nb_obs_snap *s);
/* Keeps every line with a count; nb_obs_window later keeps the busiest NB_OBS_IRQS. The raw
 * list may hold more lines than the snapshot: irq/nirq_max is the caller's array. */
int nb_obs_parse_interrupts(const char *text, struct nb_obs_irq *irq, uint32_t nirq_max,
			    uint32_t *nirq);
/* /proc/net/stat/nf_conntrack: per-CPU rows of hex columns named by the header line. */
int nb_obs_parse_ct_stat(const char *text, uint64_t *insert_failed, uint64_t *drop,
			 uint64_t *early_drop);
/* An rps_cpus file: comma-separated 32-bit hex groups, most significant first; CPUs past 63 are
 * dropped. Returns 0 or -EINVAL. */
int nb_obs_parse_cpumask(const char *text, uint64_t *mask);
/* A CPU list as the kernel prints them ("1", "0-3,6"), CPUs 0-63. Returns 0 or -EINVAL. */
int nb_obs_parse_cpulist(const char *text, uint64_t *mask);
/* Driver counters worth keeping: names that speak of drops, misses, errors, overruns. */
bool nb_obs_eth_interesting(const char *name);

/* ---- rtnetlink qdisc dump (obs_qdisc.c) ---- */
/* Parses one buffer of RTM_NEWQDISC messages, adding each root qdisc's drops, overlimits and
 * requeues to the interface of s with its ifindex. Returns 1 when NLMSG_DONE was seen, 0 when
 * more is to come, -EBADMSG on a malformed message, -errno of an NLMSG_ERROR. */
int nb_obs_parse_qdisc(const void *buf, size_t len, struct nb_obs_snap *s);

/* ---- rtnetlink link dump (obs_link.c) ---- */
/* Parses one buffer of RTM_NEWLINK messages, appending each interface but loopback to s->ifs
 * with its name, ifindex and IFLA_STATS64 counters. Returns as nb_obs_parse_qdisc. */
int nb_obs_parse_links(const void *buf, size_t len, struct nb_obs_snap *s);

/* ---- reading the live system (obs_read.c) ---- */
struct nb_obs_reader;
/* root: "" for the real system, or a directory standing in for / (tests). */
int nb_obs_reader_new(struct nb_obs_reader **r, const char *root);
void nb_obs_reader_free(struct nb_obs_reader *r);
/* Which edge of a window a full snapshot is. A snapshot's /proc/stat and clock are its instant;
 * everything else (softnet, interrupts, interfaces, driver counters, qdiscs, conntrack, RPS,
 * cpufreq) is read before that instant at a window's opening and after it at its closing, so
 * that the window's CPU figures never count the observer's own full snapshots, and every
 * counter's span still covers the whole window. */
enum nb_obs_edge { NB_OBS_OPEN, NB_OBS_CLOSE };
/* Takes a full snapshot now: every source that exists; missing ones leave their part empty. */
int nb_obs_snapshot(struct nb_obs_reader *r, struct nb_obs_snap *s, enum nb_obs_edge edge);
/* The cheap part only (/proc/stat, kept open and read again from its start), for the sampling
 * thread's peak busy share. */
int nb_obs_sample_cpu(struct nb_obs_reader *r, struct nb_obs_snap *s);
/* The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), ns; 0 where there is none. */
uint64_t nb_obs_thread_cpu_ns(void);

/* ---- windows (obs_window.c) ---- */
/* b - a, matched by CPU id, interface and counter name; lines or counters that appear only in b
 * count from 0. Keeps the busiest NB_OBS_IRQS interrupt lines. */
void nb_obs_window(const struct nb_obs_snap *a, const struct nb_obs_snap *b, struct nb_obs_snap *w);
/* The sampler's next interval: the asked one, or with adapt, longer where the samples so far
 * (cpu_ns over n of them) would cost more than NB_OBS_SAMPLE_SHARE_PCT of a CPU at the asked
 * rate; never beyond 1 s. Pure. */
uint64_t nb_obs_sample_period(uint64_t asked_ns, bool adapt, uint64_t cpu_ns, uint32_t n);
/* Peak tracking between two cpu samples: updates w->peak_busy_pct / peak_cpu. */
void nb_obs_peak(const struct nb_obs_snap *a, const struct nb_obs_snap *b, struct nb_obs_snap *w);

/* What a window says, in shares and rates (pure). */
struct nb_obs_cpu_share {
	uint32_t id;
	double user_pct, system_pct, irq_pct, softirq_pct, idle_pct, busy_pct; /* of this CPU */
};
struct nb_obs_summary {
	double window_s;
	double self_cpu_pct;   /* the observer's own cost, percent of one CPU */
	bool self_over_budget; /* above NB_OBS_COST_BUDGET_PCT: it perturbed the box it watched */
	bool cost_known;       /* the agent timed its samples (sample_cpu_ns); older ones do not */
	double sample_us;      /* CPU time per sample, us (0 without samples) */
	double sampling_pct;   /* the samples' CPU over the window: sample_us x samples / window */
	double edge_ms;	       /* the two full snapshots at the window's edges, ms */
	uint32_t ncpu;
	struct nb_obs_cpu_share cpu[NB_OBS_CPUS];
	int32_t busiest_cpu; /* among the selected CPUs, -1 if none */
	double busiest_pct;
	const char *busiest_with; /* "softirq", "system", "user", "irq" */
	double busiest_with_pct;  /* that part's share of the busiest CPU */
	double busy_cpu_s;	  /* busy CPU-seconds over the selected CPUs */
	uint64_t softnet_processed, softnet_dropped, softnet_squeezed; /* selected CPUs */
	uint64_t rx_missed, rx_fifo, rx_over, rx_dropped, tx_dropped,
	    tx_errors; /* all interfaces */
	uint64_t qdisc_drops, qdisc_overlimits;
	uint64_t eth_drops;	       /* driver counters, all interfaces (informative) */
	int32_t ingress_if, egress_if; /* index in ifs: most rx / most tx packets, -1 none */
	uint64_t ingress_rx_dropped, egress_tx_dropped;
	double clock_mhz; /* mean cpufreq of the selected CPUs, 0 unknown */
};
/* cpu_mask: the DUT's CPUs (bit n = CPU n, CPUs >= 64 never selected); 0 selects all. */
void nb_obs_summarize(const struct nb_obs_snap *w, uint64_t cpu_mask, struct nb_obs_summary *m);

#endif
