/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's side of `netbench rate`: parameters in (rfc2544.h), a receiver from the
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

#include "core/base/sysinfo.h"
#include "core/lab/lab.h"
#include "core/lab/lab_fit.h"
#include "core/rate/netpath.h"
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
};
struct nb_rate_event {
	enum nb_rate_event_kind kind;
	uint32_t size;
	const struct nb_rate_trial *trial;
	const struct nb_rate_size *result;
	enum nb_lab_rules_kind rules_kind;
	uint64_t rules;
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
};

/* Opens the receiver, finds the route to where frames go and sets up latency. The address
 * frames go to is in (*r)->dst. */
int nb_rate_open(struct nb_rate_run **r, const struct nb_rate_params *p,
		 nb_rate_progress_fn progress, void *arg, char *err, size_t errlen);
/* -EINVAL when a frame size does not fit the address family or the path's MTU: a usage error. */
int nb_rate_check_sizes(const struct nb_rate_run *r, char *err, size_t errlen);
/* Opens the generator engine for every size of the run. */
int nb_rate_start(struct nb_rate_run *r, char *err, size_t errlen);
/* Runs the procedure at every frame size into res (p->nsizes of them). */
int nb_rate_run_sizes(struct nb_rate_run *r, struct nb_rate_size *res, char *err, size_t errlen);
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
};
/* Fills *points (np of them: when stopped, only the points whose every size finished, and
 * 0 returned); the DUT's ruleset is flushed at the end. Free with nb_rate_sweep_free even on
 * failure. */
int nb_rate_sweep(struct nb_rate_run *r, struct nb_lab *lab, struct nb_rate_sweep_point **points,
		  size_t *np, char *err, size_t errlen);
void nb_rate_sweep_free(struct nb_rate_sweep_point *points, size_t np);
/* Fits per-frame cost against rule count for one kind and size index; false without a fit. */
bool nb_rate_sweep_fit(const struct nb_rate_sweep_point *p, size_t np, enum nb_lab_rules_kind kind,
		       size_t size_i, struct nb_lab_fit *fit);

/* Ruleset bound (docs/rate.md): the per-frame cost (10^9 / fps) at the most rules is 20 % or more
 * above that at the fewest, for one kind and size index; lo_ns and hi_ns get those costs. */
bool nb_rate_sweep_ruleset_bound(const struct nb_rate_sweep_point *p, size_t np,
				 enum nb_lab_rules_kind kind, size_t size_i, double *lo_ns,
				 double *hi_ns);

/* The clock experiment: the procedure run at each DUT clock (the observers set it). */
struct nb_rate_clock_point {
	uint32_t mhz;	/* asked */
	char note[256]; /* the observer's word on it */
	struct nb_rate_size *res;
};
/* fps against clock at size index size_i, over the points with a result; false without a fit. */
bool nb_rate_clock_fit(const struct nb_rate_clock_point *p, size_t np, size_t size_i,
		       struct nb_clock_fit *fit);

/* The JSON documents (docs/schema.md): one run, or one rule sweep, or a clock experiment
 * (have_freq false: the DUT has no cpufreq, one point at the clock it has). */
void nb_rate_json(FILE *f, const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n);
void nb_rate_json_sweep(FILE *f, const struct nb_rate_run *r, const struct nb_rate_sweep_point *p,
			size_t np);
void nb_rate_json_clocks(FILE *f, const struct nb_rate_run *r, const struct nb_rate_clock_point *p,
			 size_t np, bool have_freq);

#endif
