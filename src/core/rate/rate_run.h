/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's side of `netbench rate`: parameters in (rate.h), a receiver from the
 * receiver table and a generator engine opened, the RFC 2544 procedure run at every frame size
 * with real trials, results out; progress through a callback, failures as -errno plus text.
 * Nothing here prints or exits. */
#ifndef NB_RATE_RUN_H
#define NB_RATE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "core/base/lab_fit.h"
#include "core/base/lab_rules.h"
#include "core/base/netpath.h"
#include "core/base/sysinfo.h"
#include "core/rate/flows.h"
#include "core/rate/learn.h"
#include "core/rate/rateprobe.h"
#include "core/rate/rfc2544.h"

/* Probes per second the sender marks for round-trip latency: enough for a p99.9 within a 1 s
 * trial, few enough (and capped again by the receiver) not to load the measured path. */
#define NB_RATE_PROBE_PPS 1000.0

enum nb_rate_event_kind {
	NB_RATE_EV_SIZE,      /* a frame size begins (size) */
	NB_RATE_EV_TRIAL,     /* a counted trial ended (trial) */
	NB_RATE_EV_SIZE_DONE, /* a frame size's result (result) */
	NB_RATE_EV_RULESET,   /* a rule sweep loaded a ruleset (kind, rules) */
	NB_RATE_EV_LEARNED,   /* a learning phase ended (learn) */
	NB_RATE_EV_CLOCK,     /* the clock experiment asks the DUT for a clock (clock_mhz) */
	NB_RATE_EV_BEGIN,     /* the generator is started: the first trial comes (rate_ctl.h) */
};
struct nb_rate_event {
	enum nb_rate_event_kind kind;
	uint32_t size;
	const struct nb_rate_trial *trial;
	const struct nb_rate_size *result;
	enum nb_lab_rules_kind rules_kind;
	uint64_t rules;
	const struct nb_rate_learn *learn;
	uint32_t clock_mhz;
};
typedef void (*nb_rate_progress_fn)(void *arg, const struct nb_rate_event *ev);

struct nb_rate_run {
	const struct nb_rate_params *p;
	struct nb_gen_pool *pool; /* the generator's threads, each with an engine instance */
	void *rxs;		  /* the receiver's state */
	struct sockaddr_storage dst;
	socklen_t dst_len;
	struct nb_path path;
	bool have_path;
	bool tap_ring; /* path.ifname is a tap: its transmit drops are the DUT's (tapring.h) */
	/* The processes behind that tap (the emulated board's qemu), found once: their CPU time
	 * is the board's own work on this host, the rest of the host's load is other work. */
	long qemu_pids[4];
	size_t nqemu;
	char engine_desc[160];
	struct nb_rate_proc proc;
	struct nb_rx_snap *snap;
	struct nb_gen_stats *gs;
	bool same_clock;
	uint32_t rx_threads; /* threads that count frames: local N sockets, agent 1, none 0 */
	bool rtt;	     /* latency from reflected probes (round trip) rather than one-way */
	struct nb_probe *probe;
	struct nb_probe_snap *psnap;
	struct nb_sysinfo local, remote;
	nb_rate_progress_fn progress;
	void *progress_arg;
	bool interrupted; /* set by the caller when a stop cut the run short: in the JSON */
	/* Learning phases so far (learn.h); the next one's occasion ("start" when empty). */
	struct nb_rate_learn *learn;
	size_t nlearn;
	char learn_when[64];
	uint32_t id_offset; /* where this run's trial ids on the wire start (nb_rate_wire_id) */
	struct sockaddr_storage src_first; /* --flow-fields src-ip: flow 0's source address */
	/* --bidir: our receiver of the agent's reverse direction (bidir_run.c) */
	struct nb_rx *rev_rx;
	struct nb_rx_snap *rev_snap;
	int rev_family; /* the reverse frames' (AF_INET for a v4-mapped address) */
};

/* The trial id frames carry for the run's trial n (1, 2, ...: the ids the JSON and progress
 * show): 1 to 65535, from an offset each run chooses, so that frames of an earlier run still in
 * flight to the same port carry ids this one does not expect. Learning phase k uses
 * n = 65534 - k, outside any run's trials. */
static inline uint16_t nb_rate_wire_id(const struct nb_rate_run *r, uint32_t n)
{
	return (uint16_t)(1 + (r->id_offset + n) % 65535);
}

/* Opens the receiver, finds the route to where frames go and sets up latency. The address
 * frames go to is in (*r)->dst. */
int nb_rate_open(struct nb_rate_run **r, const struct nb_rate_params *p,
		 nb_rate_progress_fn progress, void *arg, char *err, size_t errlen);
/* -EINVAL when a frame size does not fit the address family or the path's MTU: a usage error. */
int nb_rate_check_sizes(const struct nb_rate_run *r, char *err, size_t errlen);
/* --flow-fields src-ip: the flows' source range in this host's network (flows.h) into
 * r->src_first; -EINVAL (a usage error) when it has no room for them, -EADDRNOTAVAIL (a
 * failure: this host's) when the network of its source address cannot be found. */
int nb_rate_check_flows(struct nb_rate_run *r, char *err, size_t errlen);
/* Opens the generator engine for every size of the run. */
int nb_rate_start(struct nb_rate_run *r, char *err, size_t errlen);
/* Runs a learning phase (learn.h, occasion r->learn_when), then the procedure at every frame
 * size into res (p->nsizes of them), each size's bottleneck, and the verdict across the sizes
 * that finished into v. */
int nb_rate_run_sizes(struct nb_rate_run *r, struct nb_rate_size *res, struct nb_rate_overall *v,
		      char *err, size_t errlen);
/* --bidir (bidir_run.c): our receiver of the reverse direction, on our end of the control
 * connection, told to the agent; before each trial, the agent's part of it; after the trial,
 * the reverse counts reconciled and both directions judged into rec->rev. */
int nb_rate_bidir_open(struct nb_rate_run *r, char *err, size_t errlen);
void nb_rate_bidir_begin(struct nb_rate_run *r, uint16_t wire, double rate_fps, uint32_t size,
			 uint64_t trial_ns, uint64_t frames);
int nb_rate_bidir_end(struct nb_rate_run *r, uint16_t wire, struct nb_rate_trial *rec, char *err,
		      size_t errlen);
struct nb_json;
/* --bidir in the JSON (bidir_json.c): the parameter, a trial's "reverse" and "directions", a
 * size's "bidir". */
void nb_rate_json_bidir_param(struct nb_json *j, const struct nb_rate_params *p);
void nb_rate_json_trial_bidir(struct nb_json *j, const struct nb_rate_run *r,
			      const struct nb_rate_trial *t);
void nb_rate_json_size_bidir(struct nb_json *j, const struct nb_rate_params *p,
			     const struct nb_rate_size *s);
/* A latency object under key: kind ("one-way", "round-trip"), then min, p50, p90, p99, p99_9
 * and max from ns (p50 p90 p99 p99.9 max min, as a trial stores them). */
void nb_rate_json_latency(struct nb_json *j, const char *key, const char *kind, const uint64_t *ns);
/* Fills r->engine_desc with how the engine ran. */
void nb_rate_describe(struct nb_rate_run *r);
/* Closes everything; accepts NULL. */
void nb_rate_free(struct nb_rate_run *r);

/* The rule sweep (netbench lab's DUT): each kind and rule count loaded in turn, the procedure
 * run at every size. */
struct nb_rate_sweep_point {
	enum nb_lab_rules_kind kind;
	uint64_t rules;
	size_t rules_read, elems_read;
	struct nb_rate_size *res;
	struct nb_rate_overall verdict; /* across this point's sizes */
};

/* One kind and frame size of a rule sweep: the per-frame cost fitted against the rule count and
 * whether the point is ruleset bound (docs/rate.md), decided once and stored. */
struct nb_rate_rule_fit {
	enum nb_lab_rules_kind kind;
	uint32_t frame_bytes;
	bool have_fit; /* two or more rule counts with results */
	struct nb_lab_fit fit;
	double fewest_ns, most_ns; /* per-frame cost at the fewest and the most rules; 0: none */
	bool ruleset_bound;
	char fit_text[256];   /* "per-frame cost = ..." or why there is none */
	char bound_text[400]; /* "ruleset bound: ..." or why not; "" without two costs */
	/* netfilter's ns per frame from the kernel profile of each point's judged trial, fitted
	 * against the rule count: the rule walk's cost measured directly, beside the fit of the
	 * whole frame's cost */
	bool have_nf_fit;
	struct nb_lab_fit nf_fit;
	char nf_text[320]; /* the sentence, or why there is none; "" without a profile */
};
struct nb_rate_sweep_fits {
	size_t n;
	struct nb_rate_rule_fit f[3 * NB_RATE_MAX_SIZES];
};

/* The DUT the sweep loads its rulesets into (the front end hands netbench lab's): load puts r
 * there and reads back its rules and set elements, or returns -errno with the DUT's name and
 * the reason in err; flush empties it. */
struct nb_rate_dut {
	int (*load)(void *ctx, const struct nb_lab_rules *r, size_t *rules, size_t *elems,
		    char *err, size_t errlen);
	void (*flush)(void *ctx);
	void *ctx;
};

/* Fills *points (np of them: when stopped, only the points whose every size finished, and
 * 0 returned) and the fits over them; the DUT's ruleset is flushed at the end. Free with
 * nb_rate_sweep_free even on failure. */
int nb_rate_sweep(struct nb_rate_run *r, const struct nb_rate_dut *dut,
		  struct nb_rate_sweep_point **points, size_t *np, struct nb_rate_sweep_fits *fits,
		  char *err, size_t errlen);
void nb_rate_sweep_free(struct nb_rate_sweep_point *points, size_t np);
/* The fits and ruleset-bound decisions of every kind and size over the points (pure). */
void nb_rate_sweep_conclude(const struct nb_rate_params *p, const struct nb_rate_sweep_point *pt,
			    size_t np, struct nb_rate_sweep_fits *out);

/* The clock experiment: the procedure run at each DUT clock (the observers set it). */
struct nb_rate_clock_point {
	uint32_t mhz;	/* asked */
	char note[256]; /* the observer's word on it */
	struct nb_rate_size *res;
	struct nb_rate_overall verdict; /* across this clock's sizes */
};
/* Per size: fps against clock over the points with a result, decided once and stored. */
struct nb_rate_clock_fits {
	size_t n;
	struct {
		uint32_t frame_bytes;
		bool have; /* two clocks with results */
		struct nb_clock_fit fit;
	} f[NB_RATE_MAX_SIZES];
};
void nb_rate_clock_conclude(const struct nb_rate_params *p, const struct nb_rate_clock_point *pt,
			    size_t np, struct nb_rate_clock_fits *out);
/* After clock c of nclocks was run (the procedure at every size): whether its point is kept
 * and whether the next clock is run (pure). A stop or a failure drops the point and ends the
 * experiment; a DUT without cpufreq (have_freq false) keeps its one point, at the clock it has,
 * and ends it. */
struct nb_rate_clock_next {
	bool keep, more;
};
struct nb_rate_clock_next nb_rate_clock_after(bool stopped, bool failed, bool have_freq, size_t c,
					      size_t nclocks);
/* The clock experiment: r->p->observe's first observer sets each of the nclocks clocks (MHz) in
 * turn and the procedure runs at every size; pt (nclocks of them) is filled, *np of them kept
 * (when stopped, only the clocks whose every size finished), *have_freq false when the DUT has
 * no cpufreq (one point), the fits over the points kept. Free the points with
 * nb_rate_clocks_free even on failure. */
int nb_rate_clocks(struct nb_rate_run *r, const uint32_t *mhz, size_t nclocks,
		   struct nb_rate_clock_point *pt, size_t *np, bool *have_freq,
		   struct nb_rate_clock_fits *fits, char *err, size_t errlen);
void nb_rate_clocks_free(struct nb_rate_clock_point *pt, size_t nclocks);

/* The JSON documents (docs/schema.md): one run, or one rule sweep, or a clock experiment
 * (have_freq false: the DUT has no cpufreq, one point at the clock it has). */
void nb_rate_json(FILE *f, const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n,
		  const struct nb_rate_overall *v);
void nb_rate_json_sweep(FILE *f, const struct nb_rate_run *r, const struct nb_rate_sweep_point *p,
			size_t np, const struct nb_rate_sweep_fits *fits);
void nb_rate_json_clocks(FILE *f, const struct nb_rate_run *r, const struct nb_rate_clock_point *p,
			 size_t np, bool have_freq, const struct nb_rate_clock_fits *fits);
/* The same three documents in a malloc'd string (free it): the bytes -J prints, -o writes and
 * --save stores. Each returns 0 or -ENOMEM. */
int nb_rate_doc_text(const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n,
		     const struct nb_rate_overall *v, char **text, size_t *len);
int nb_rate_sweep_doc_text(const struct nb_rate_run *r, const struct nb_rate_sweep_point *p,
			   size_t np, const struct nb_rate_sweep_fits *fits, char **text,
			   size_t *len);
int nb_rate_clocks_doc_text(const struct nb_rate_run *r, const struct nb_rate_clock_point *p,
			    size_t np, bool have_freq, const struct nb_rate_clock_fits *fits,
			    char **text, size_t *len);

#endif
