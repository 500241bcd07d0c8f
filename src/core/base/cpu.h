/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU accounting over a measurement window: the whole system's shares from /proc/stat deltas
 * (softirq included, where most receive work runs), each CPU's busy share, and this process's
 * user and system time. A sample is taken at each window edge; the load is their difference. */
#ifndef NB_CPU_H
#define NB_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NB_CPU_MAX 256

/* /proc/stat columns, in USER_HZ ticks. Columns an old kernel lacks stay 0. */
struct nb_cpu_ticks {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

struct nb_cpu_sample {
	uint64_t mono_ns;
	uint64_t proc_user_us, proc_sys_us; /* this process, all threads */
	struct nb_cpu_ticks total;
	uint32_t ncpu;	  /* CPUs listed in /proc/stat (online ones), at most NB_CPU_MAX */
	uint32_t columns; /* number of columns the kernel printed on the "cpu" line */
	uint16_t cpu_id[NB_CPU_MAX];
	uint64_t cpu_busy[NB_CPU_MAX], cpu_all[NB_CPU_MAX]; /* ticks, per CPU */
};

/* Shares are percentages of all CPUs' time (as mpstat's "all" row); proc_pct is this process's
 * user+system time as a percentage of one CPU (as top prints it). */
struct nb_cpu_load {
	double window_s;
	double user_pct, nice_pct, system_pct, irq_pct, softirq_pct, iowait_pct, steal_pct,
	    idle_pct;
	double busy_pct; /* user+nice+system+irq+softirq */
	double proc_user_pct, proc_sys_pct, proc_pct;
	int busiest_cpu; /* -1 when unknown */
	double busiest_cpu_pct;
	uint32_t ncpu;
	double busy_cpu_s; /* CPU-seconds spent busy system-wide in the window */
	double proc_cpu_s; /* CPU-seconds of this process in the window */
	bool valid;	   /* false when the window had no ticks or the CPU set changed */
};

/* One line of /proc/stat: 0 with the "cpu" total (*id -1) or a "cpuN" line (*id N), its ticks
 * and (columns may be NULL) how many columns it had; -EINVAL for any other line or one with
 * fewer than 4 columns. The one /proc/stat line parser (the observer's per-CPU view uses it). */
int nb_cpu_parse_stat_line(const char *line, long *id, struct nb_cpu_ticks *t, uint32_t *columns);
/* Parses the text of /proc/stat. Returns 0 or -EINVAL when no "cpu" line is found. */
int nb_cpu_parse_stat(const char *text, struct nb_cpu_sample *s);
/* Reads /proc/stat, getrusage and the monotonic clock now. */
int nb_cpu_sample_now(struct nb_cpu_sample *s);
void nb_cpu_load(const struct nb_cpu_sample *a, const struct nb_cpu_sample *b,
		 struct nb_cpu_load *load);
/* Other load: CPU time the window's system busy time holds beyond what the measurement itself
 * accounts for, as a percentage of one CPU. That is user+nice+system time less this process's
 * time and less peer_cpu_s (the far end's process when it runs on the same kernel, else 0);
 * irq and softirq are left out, since the test's own network work runs there. Never below 0;
 * NaN for an invalid window. */
double nb_cpu_other_pct(const struct nb_cpu_load *l, double peer_cpu_s);
/* A window is polluted when other processes used more than this share of one CPU in it: the
 * system figures (busy, softirq, busiest CPU) then hold their work too. 5 % is above the
 * noise of /proc/stat's 10 ms ticks over a window of a second or more and of an idle host's
 * housekeeping. */
#define NB_CPU_POLLUTED_PCT 5.0
bool nb_cpu_polluted(double other_pct);
/* True when two samples taken within a few seconds come from the same kernel (controller and
 * agent on one host, over loopback or across network namespaces): same CPU count, monotonic
 * clocks within 10 s, and /proc/stat totals that agree with them within half a second. */
bool nb_cpu_same_host(const struct nb_cpu_sample *a, const struct nb_cpu_sample *b);
/* The process's figures and the system's describe one machine: the process's CPU time fits in
 * the system's busy time, allowing one 10 ms tick per CPU at each edge of the window and 5 %.
 * False when the process used more CPU than the whole system counted busy: /proc/stat counts
 * busy time by sampling the timer tick while idle time comes from the clock, so a kernel whose
 * ticks arrive late or merged (a guest whose vCPU the host does not run on time, as qemu's TCG
 * emulation) loses busy ticks, and the system's busy share, idle share and busy CPU-seconds
 * understate the load; the process's own time (scheduler clock) does not. An invalid window is
 * not consistent. */
bool nb_cpu_consistent(const struct nb_cpu_load *l);
/* One end's idle baseline (docs/schema.md, "cpu_baseline"): its CPU over a short time before
 * the traffic, with the test set up and idle, and the share of a CPU other processes used
 * meanwhile. known false: not measured (an older agent sends no sample for it). tput and
 * stream keep one for this host and one per agent. */
struct nb_cpu_idle {
	bool known;
	struct nb_cpu_load cpu;
	double other_pct; /* % of one CPU; NaN when unknown */
};
/* The idle baseline: samples the system over window_ns with this process idle. */
int nb_cpu_baseline(uint64_t window_ns, struct nb_cpu_load *load);
/* Service demand: CPU microseconds per KByte (1024 bytes) moved; NaN when no bytes moved. */
double nb_cpu_us_per_kbyte(double cpu_s, uint64_t bytes);

#endif
