/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate's parameters and results: what the front end asks for (nb_rate_params, with its
 * stop flag as a `const nb_cancel_t *`), one trial as it ran, a frame size's answer and the
 * verdict across sizes, and the pure figures and decisions over them (rates a size is asked and
 * can be offered, the exit status, the bottleneck, the conclusions). The procedures that fill
 * them are in rfc2544.h, the run with real trials in rate_run.h, the driver in rate_ctl.h. */
#ifndef NB_RATE_H
#define NB_RATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/base/cancel.h"
#include "core/base/cpu.h"
#include "core/base/lab_rules.h"
#include "core/observe/obs_set.h"
#include "core/observe/verdict.h"
#include "core/rate/bidir.h"
#include "core/rate/gen.h"
#include "core/rate/genpool.h"
#include "core/rate/mix.h"
#include "core/rate/mlr.h"
#include "core/rate/raterx.h"

#define NB_RATE_MAX_SIZES 16
#define NB_RATE_MIN_FPS	  1000ULL
#define NB_RATE_MAX_FPS	  1000000000ULL
#define NB_RATE_MAX_SWEEP 16
#define NB_RATE_ETH_OVERHEAD_B                                                                     \
	20 /* preamble, SFD and inter-frame gap: what line rate also carries */

enum nb_rate_test {
	NB_RATE_THROUGHPUT,
	NB_RATE_LOSS,
	NB_RATE_B2B,
	NB_RATE_LATENCY,
	NB_RATE_TRIAL,
	NB_RATE_NDRPDR /* several loss ratios from one shared search (mlr.h) */
};
#define NB_RATE_NTESTS 6
/* "throughput", "loss", "b2b", "latency", "trial", "ndrpdr", and the titles the table prints. */
extern const char *const nb_rate_test_names[NB_RATE_NTESTS];
extern const char *const nb_rate_test_titles[NB_RATE_NTESTS];

enum nb_rate_latency { NB_RATE_LAT_AUTO, NB_RATE_LAT_ONEWAY, NB_RATE_LAT_RTT };

/* Everything a run needs, filled by the front end from the command line. */
struct nb_rate_params {
	enum nb_rate_test test;
	const struct nb_gen_engine *engine;
	const struct nb_rx_engine *receiver;
	struct nb_rx_cfg rx; /* where the receiver listens or frames go */
	uint64_t sizes[NB_RATE_MAX_SIZES];
	size_t nsizes;
	uint64_t rate_fps;    /* 0: as fast as the engine goes (or rate_bps, rate_line_pct) */
	uint64_t rate_bps;    /* -r in bit/s of frames (-r 100Mbit/s); 0: not so given */
	double rate_line_pct; /* -r as a share of line_bps (-r 50%); 0: not so given */
	uint64_t line_bps;
	uint64_t trial_ns, drain_ns;
	uint64_t learn_ns; /* learning phase's timeout (learn.c); 0: no learning phase */
	double loss_ratios[NB_MLR_MAX_RATIOS]; /* ndrpdr: loss ratios, increasing (0.005: 0.5 %) */
	uint32_t nratios;
	uint64_t final_trial_ns;  /* ndrpdr: a final trial's length (0: trial_ns) */
	const struct nb_mix *mix; /* --imix: one "size", the mix (sizes[0] its rounded mean) */
	uint32_t flow_fields;	  /* NB_FLOW_* (flows.h): what makes flows differ */
	bool per_flow;		  /* every trial records each flow's sent and received frames */
	bool bidir;		  /* --bidir: the agent sends the reverse direction too */
	double loss_tolerance;	  /* ratio */
	double resolution_pct;	  /* used when resolution_fps is 0 */
	uint64_t resolution_fps;
	uint32_t burst, flows, batch, repeat; /* burst: frames per wake-up, 0: about 1 ms worth */
	enum nb_pacing_mode pacing_asked;     /* --pacing (auto by default) */
	enum nb_pacing_mode pacing;	      /* what the generator uses: spin or burst */
	uint32_t threads;		      /* generator threads (genpool.h) */
	uint32_t cpus[NB_GEN_MAX_THREADS];    /* thread i runs on cpus[i % ncpus]; ncpus 0: free */
	uint32_t ncpus;
	uint16_t sport;
	bool realtime; /* only reported: the front end switched the process to SCHED_FIFO */
	enum nb_rate_latency latency;
	uint64_t sweep[NB_RATE_MAX_SWEEP]; /* rule counts of a rule sweep */
	size_t nsweep;
	enum nb_lab_rules_kind kinds[3];
	size_t nkinds;
	const nb_cancel_t *stop;    /* set asynchronously: end the run; may be NULL */
	struct nb_obs_set *observe; /* observers of the DUT, NULL or empty: none */
};

/* One trial as it ran. */
struct nb_rate_trial {
	uint32_t size;
	uint16_t id;
	const char *purpose;
	double asked_fps; /* 0: flat out */
	uint64_t asked_frames;
	double offered_fps, window_s;
	uint64_t slipped_frames;
	struct nb_trial_counts c;
	bool lat_valid;
	uint64_t lat_ns[6];   /* p50 p90 p99 p99.9 max min */
	uint32_t probe_every; /* round trip: one probe in that many frames of flow 0 */
	uint64_t probes_sent, probes_rx, probes_reflected, probes_returned;
	struct nb_cpu_load cpu;
	struct nb_cpu_load cpu_remote; /* the agent's, from trial start to counters read */
	/* The generator's pacing in this trial: mode (0: unpaced, flat out), frames per wake-up,
	 * and the CPU time its pacers spent sleeping and spinning, summed over its threads. */
	enum nb_pacing_mode pacing;
	uint32_t pacing_burst;
	uint64_t pacing_wakeups, pacing_cpu_ns;
	struct nb_obs_trial obs; /* the observers' windows of this trial */
	/* Each generator thread's part: its asked rate, frames sent, first to last send, slip. */
	uint64_t thread_asked_fps[NB_GEN_MAX_THREADS], thread_tx[NB_GEN_MAX_THREADS];
	uint64_t thread_window_ns[NB_GEN_MAX_THREADS], thread_slipped[NB_GEN_MAX_THREADS];
	/* --imix: frames of each size of the mix sent (from the pattern) and received (by
	 * their length at the receiver); rx_by_size_known false where the receiver cannot say. */
	uint64_t mix_tx[NB_MIX_MAX], mix_rx[NB_MIX_MAX];
	bool rx_by_size_known;
	/* --per-flow: each flow's frames sent and received (malloc'd, flows entries each; freed
	 * with the run) */
	uint64_t *flow_tx, *flow_rx;
	bool drops_known;      /* the receiver reports frames dropped at its sockets */
	uint64_t rx_dropped;   /* ... that many, counted among the lost */
	bool ring_known;       /* frames leave through a tap to an emulated DUT (tapring.h) */
	uint64_t ring_dropped; /* ... which dropped that many: the DUT's ingress */
	/* ... and the host that runs the board's qemu: its load from other work over the send
	 * window, % of one CPU (its user+nice+system time less qemu's, this process's and the
	 * sink agent's: nb_cpu_other_pct); NaN where unknown (no tap, qemu not found). */
	double host_other_pct;
	/* --bidir: the reverse direction (the agent's frames to the controller) of the same
	 * window, and the judgement of both (bidir.h) that the procedures go by. */
	struct nb_rate_rev_trial {
		bool on;
		double offered_fps, window_s;
		uint64_t slipped_frames;
		struct nb_trial_counts c;
		bool lat_valid;
		uint64_t lat_ns[6];
		char lat_why[128]; /* !lat_valid: why the reverse's latency was not measured */
		bool drops_known;
		uint64_t rx_dropped;
		/* --imix: the reverse's frames of each size, as the forward's mix_tx/mix_rx */
		uint64_t mix_tx[NB_MIX_MAX], mix_rx[NB_MIX_MAX];
		bool rx_by_size_known;
		struct nb_bidir_judged j;
	} rev;
};

/* What the procedures judge a trial by: with --bidir the worse direction (bidir.h), so that a
 * trial passes only when both do; else the one direction's counts. */
static inline uint64_t nb_rate_judged_tx(const struct nb_rate_trial *t)
{
	return t->rev.on ? t->rev.j.tx : t->c.tx;
}
static inline uint64_t nb_rate_judged_lost(const struct nb_rate_trial *t)
{
	return t->rev.on ? t->rev.j.lost : t->c.lost;
}
static inline bool nb_rate_judged_valid(const struct nb_rate_trial *t)
{
	return t->rev.on ? t->rev.j.valid : t->c.valid;
}
/* A loss curve's step (RFC 2544 26.3): the frames lost, with --bidir in both directions
 * together, a reverse that sent nothing counting as one lost, so that a step is clean (0) only
 * when both directions lost nothing. */
static inline uint64_t nb_rate_step_lost(const struct nb_rate_trial *t)
{
	if (!t->rev.on)
		return t->c.lost;
	return t->c.lost + t->rev.c.lost + (t->rev.c.tx == 0 || t->c.tx == 0);
}

/* The procedure's answer at one frame size. */
struct nb_rate_size {
	uint32_t size;
	double fps; /* the procedure's answer for this size */
	bool verified, at_max, gen_short, zero, failed;
	double loss_pct;
	bool lat_valid;
	uint64_t lat_ns[6];
	double b2b_avg, b2b_min, b2b_max;
	size_t first_trial, ntrials; /* in the procedure's trial log */
	bool receiver_limited;	     /* some trial lost frames at the receiver's sockets */
	bool have_bneck;
	struct nb_verdict bneck; /* what limited the DUT (bottleneck.c) */
	/* --bidir: the direction that failed first above the result, and the sentence saying so
	 * (nb_rate_bidir_conclude) */
	enum nb_bidir_failed bidir_failed;
	char bidir_text[512];
	/* --bidir -m latency: the reverse's one-way latency (the last latency trial that measured
	 * it), or why it was not measured */
	bool rev_lat_valid;
	uint64_t rev_lat_ns[6];
	char rev_lat_why[128];
	size_t bneck_trial; /* the trial it was judged on, in the trial log */
	/* netfilter in the judged trial's kernel profile (the first observer's, over the DUT's
	 * CPUs): measured directly, the rule sweep fits it against the rule count */
	struct nb_rate_prof_nf {
		bool have; /* a profile with ns per frame */
		double ns, lo, hi;
		uint64_t samples;
	} nf;
	/* ndrpdr: per loss ratio, the rate each of the nrepeat searches found, and their spread
	 * (fps above is the first ratio's mean). */
	uint32_t nratios, nrepeat;
	struct nb_rate_ratio_res {
		double ratio;
		double fps[NB_MLR_MAX_REPEAT];
		bool verified[NB_MLR_MAX_REPEAT];
		uint32_t verified_n, at_max_n, zero_n;
		struct nb_mlr_spread spread;
	} ratios[NB_MLR_MAX_RATIOS];
};

/* The pacing a rate run uses: --pacing spin or burst as asked; auto is burst, except for the
 * latency test, whose trials run at the DUT's throughput rate, where a group of frames sent
 * back to back would queue at the bottleneck and the probes would measure that queue: it
 * spins, unless --burst asks for groups. txtime: -EOPNOTSUPP (the generators' engines do not carry
 * transmit times). */
int nb_rate_pacing(enum nb_pacing_mode asked, enum nb_rate_test test, uint32_t burst);

struct nb_json;
/* The size's "loss_ratios" array in the JSON (ndrpdr only; ndrpdr_json.c). */
void nb_rate_json_ratios(struct nb_json *j, const struct nb_rate_params *p,
			 const struct nb_rate_size *s);

/* --imix in the JSON (mix_json.c): the mix (parameters), a trial's frames by size. */
void nb_rate_json_mix(struct nb_json *j, const struct nb_rate_params *p);
/* A trial's "by_size" array of one direction (--bidir's reverse has its own). */
void nb_rate_json_by_size(struct nb_json *j, const struct nb_mix *m, const uint64_t *tx,
			  const uint64_t *rx, bool rx_known);
void nb_rate_json_trial_mix(struct nb_json *j, const struct nb_rate_params *p,
			    const struct nb_rate_trial *t);

/* The rate -r asks for at this frame size in frames/s: rate_fps, or rate_bps over the frame's
 * bits, or rate_line_pct of the line rate's frames/s (preamble and gap counted); 0: none. */
double nb_rate_asked_fps(const struct nb_rate_params *p, uint32_t size);
/* The line rate's frames/s at this frame size (preamble and gap counted); 0 without one. */
double nb_rate_line_fps(const struct nb_rate_params *p, uint32_t size);
/* The highest rate worth offering at size: --rate, or the line rate, whichever is lower;
 * 0 when neither is known. */
double nb_rate_max_fps(const struct nb_rate_params *p, uint32_t size);
/* That highest rate is the user's --rate (a cap the user asked for), not the generator's
 * own maximum or the line rate. */
bool nb_rate_max_is_asked(const struct nb_rate_params *p, uint32_t size);
/* Mean bytes of a frame of size: the mix's mean frame with --imix, else size. */
double nb_rate_frame_bytes(const struct nb_rate_params *p, uint32_t size);
/* Percentage of the line rate that fps frames of size fill. */
double nb_rate_line_pct(const struct nb_rate_params *p, uint32_t size, double fps);
/* The exit status a size's result earns: 1 when it failed, found nothing, or (single trial)
 * the generator fell short of what was asked. */
int nb_rate_status(const struct nb_rate_params *p, const struct nb_rate_size *s);
/* What limited the DUT at s's size (docs/rate.md): judged on the first trial that lost frames
 * above the result, else on the last clean trial (generator bound when the result was the
 * generator's maximum). Leaves s->have_bneck false where nothing counted frames or for b2b. */
void nb_rate_bottleneck(const struct nb_rate_params *p, const struct nb_rate_trial *trials,
			struct nb_rate_size *s);
/* True when some trial of the size s lost frames at the receiver's own sockets: there the
 * receiver, not the device under test, set the limit. trials: the procedure's trial log. */
bool nb_rate_receiver_limited(const struct nb_rate_trial *trials, const struct nb_rate_size *s);
/* --bidir: which direction limited the size s (conclude.c): the failed trial (judged on both
 * directions) nearest above the result names it, else both passed every trial.
 * Into s->bidir_failed and s->bidir_text; nothing without --bidir. Pure. */
void nb_rate_bidir_conclude(const struct nb_rate_params *p, const struct nb_rate_trial *trials,
			    struct nb_rate_size *s);
/* True when the test ends with a verdict (not for a single trial or a loss curve). */
bool nb_rate_has_verdict(enum nb_rate_test t);

/* What bounds the results across sizes (docs/rate.md, "Verdict across sizes"): decided once
 * from the sizes' results and their bottlenecks, stored with them, rendered by every view. */
struct nb_rate_overall {
	bool have;	/* the test ends with a verdict (nb_rate_has_verdict) */
	char text[512]; /* "frame-rate bound: ...; DUT CPU bound at 64, 1518 B" */
};
void nb_rate_conclude(const struct nb_rate_params *p, const struct nb_rate_size *s, size_t n,
		      struct nb_rate_overall *v);

#endif
