/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's side of one tput step (one block size, one or both directions): set up the
 * agent, open the data path, exclude the warm-up, read counters and CPU at the window's edges
 * at both ends, stop, drain, and reconcile what was sent with what arrived. */
#ifndef NB_TPUT_RUN_H
#define NB_TPUT_RUN_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>

#include "core/base/cpu.h"
#include "core/observe/obs_set.h"
#include "core/profile/prof.h"
#include "core/session/ctl.h"
#include "core/session/job.h"
#include "core/tput/tput.h"

struct nb_tput_params {
	enum nb_tput_proto proto;
	uint32_t block;
	uint32_t streams;  /* per direction */
	uint32_t dir;	   /* NB_TPUT_DIR_TX | NB_TPUT_DIR_RX */
	uint64_t rate_bps; /* per stream, 0 = unpaced */
	uint32_t pacing;   /* enum nb_pacing_mode of paced senders (spin, or burst otherwise) */
	uint32_t burst;	   /* datagrams per wake-up, 0: about 1 ms worth */
	/* TCP: both ends' data connections use this congestion control; "": each end's default */
	char congestion[NB_TCPCC_NAME_MAX];
	uint64_t warmup_ns, time_ns, interval_ns;
	/* > 0: before its traffic starts, the step samples both ends for this long with the
	 * test set up and idle (the sweep's idle baseline; its first step asks for it). */
	uint64_t baseline_ns;
	/* Observers of the box in the path (router, VPN gateway): their window opens and closes
	 * right after the agent's marks that bound the step's window. NULL or empty: none. */
	struct nb_obs_set *observe;
	/* > 0: each end's kernel profile over the step's window at this rate per CPU (this
	 * host's and the agent's). */
	uint32_t profile_hz;
};

/* The idle baseline: each end's CPU over baseline_ns before any traffic, and the share of a
 * CPU other processes used meanwhile. An older agent, which sends no CPU sample with its
 * acknowledgements, leaves the remote one unknown. */
struct nb_tput_baseline {
	struct nb_cpu_idle local, remote; /* local.known: measured at all */
};

/* One direction's result over the measurement window. */
struct nb_tput_dir_result {
	bool valid;
	char invalid_reason[160];
	uint64_t bytes;			       /* received in the window, counted by the receiver */
	double window_s;		       /* on the receiver's clock */
	double kbyte_per_s;		       /* KByte = 1024 bytes */
	double mbit_per_s;		       /* 10^6 bit/s */
	struct nb_tput_counters rx_window;     /* receiver's counter deltas over the window */
	uint64_t sent_total, received_total;   /* whole test, for reconciliation */
	double loss_pct, reorder_pct, dup_pct; /* UDP, over the window */
	struct nb_cpu_load cpu_local, cpu_remote;
	double demand_local_us_per_kbyte, demand_remote_us_per_kbyte; /* system busy CPU time */
	double proc_demand_local_us_per_kbyte, proc_demand_remote_us_per_kbyte;
	/* Paced senders: thread CPU time their pacers spent waiting over the window (part of the
	 * sending end's process load) and their wake-ups. */
	uint64_t pacing_cpu_ns, pacing_wakeups;
	/* TCP: the sender's segments sent and retransmitted over the window (TCP_INFO read at
	 * the window's edges); tcp_known false when either edge lacked them. */
	uint64_t tcp_segs_out, tcp_retrans;
	bool tcp_known;
	/* TCP: the sender's congestion control at both edges ("": not known, or it changed) */
	char congestion[NB_TCPCC_NAME_MAX];
	/* Other processes' CPU at each end over the window, in % of one CPU (nb_cpu_other_pct;
	 * on one host, the peer's netbench is not "other"), and whether either exceeds
	 * NB_CPU_POLLUTED_PCT: the CPU figures then hold other work too. */
	double other_local_pct, other_remote_pct;
	bool cpu_polluted;
	/* With profile_hz: this host's kernel profile over the window (malloc'd, owned by
	 * whoever holds the result: nb_tput_dir_result_free), else NULL. */
	struct nb_prof_result *prof_local;
	/* With profile_hz: the agent's, over its own samples' window (the same ownership); one
	 * that says "unavailable: why" when the agent could not or an older one did not. */
	struct nb_prof_result *prof_remote;
};
void nb_tput_dir_result_free(struct nb_tput_dir_result *d);

struct nb_tput_step_result {
	struct nb_tput_dir_result tx, rx;
	struct nb_tput_baseline baseline; /* when params.baseline_ns asked for it */
	struct nb_obs_trial obs; /* the observers' window of the step (free: nb_obs_trial_free) */
};

struct nb_tput_interval {
	uint32_t index;
	double start_s, end_s;		       /* since the window began */
	double tx_kbyte_per_s, rx_kbyte_per_s; /* NaN for a direction not measured */
};
typedef void (*nb_tput_interval_fn)(void *arg, const struct nb_tput_interval *iv);

int nb_tput_run_step(struct nb_ctl *ctl, const struct nb_tput_params *p,
		     struct nb_tput_step_result *r, nb_tput_interval_fn on_interval, void *arg,
		     const nb_cancel_t *stop, char *err, size_t errlen);

#endif
