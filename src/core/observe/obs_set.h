/* SPDX-License-Identifier: BSD-2-Clause */
/* The observers of one run: a session with each observed box, a window per trial begun at the
 * trial's start and ended after its drain, each window summarized over the DUT's CPUs; and their
 * JSON (docs/schema.md). Returns -errno with the reason in err; never prints or exits. */
#ifndef NB_OBS_SET_H
#define NB_OBS_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/json.h"
#include "core/base/sysinfo.h"
#include "core/observe/obs.h"
#include "core/observe/obs_ctl.h"
#include "core/observe/obs_wire.h"
#include "core/observe/verdict.h"
#include "core/profile/prof.h"

#define NB_OBS_SET_MAX 8

struct nb_obs_set {
	size_t n;
	const char *spec[NB_OBS_SET_MAX]; /* HOST[:PORT] as given */
	struct nb_obs_ctl *ctl[NB_OBS_SET_MAX];
	struct nb_sysinfo si[NB_OBS_SET_MAX];
	struct nb_obs_req req; /* sampling rate, RPS mask */
	uint64_t dut_mask;     /* the DUT's CPUs as asked; 0: the box's RPS mask, else all */
	uint32_t clock_khz;    /* the clock the next windows ask for, 0: leave it */
	char clock_note[256];  /* the first observer's word on the clock */
	bool have_freq;	       /* the first observer has cpufreq */
	bool shared_kernel[NB_OBS_SET_MAX]; /* the observer runs on this host's kernel (a lab
					     namespace): its CPUs are the host's */
};

/* What the DUT's busy CPU time bought in one window (docs/rate.md, "Cycles per frame"),
 * decided once per window and stored. Ingress frames: every frame that entered the DUT's stack
 * (the ingress interface's rx_packets), whether forwarded, filtered by its rules or dropped on
 * its way; a frame its full backlog refused or its NIC missed never reached its CPU.
 * Forwarded: those that came out. Counts are
 * wire packets: where an interface's bytes per packet exceed one MTU-sized frame, its packets
 * were GSO/GRO super-frames and bytes / (MTU + 14) is counted instead (a lower bound: a
 * super-frame carries its headers once); *_from says which. */
struct nb_obs_cost {
	double clock_mhz;	/* 0: unknown */
	const char *clock_from; /* "cpufreq", "/proc/cpuinfo"; NULL: unknown */
	uint64_t ingress_frames, forwarded_frames;
	const char *ingress_from, *forwarded_from;
	double cycles_per_frame;	   /* per ingress frame; NaN: unknown */
	double cycles_per_forwarded_frame; /* NaN: unknown */
	double cycles_per_byte;		   /* per payload byte carried; NaN: unknown or none */
};

/* One trial's windows, one per observer. */
struct nb_obs_trial {
	size_t n;
	struct nb_obs_snap *w[NB_OBS_SET_MAX];
	struct nb_obs_summary *s[NB_OBS_SET_MAX];
	uint64_t mask[NB_OBS_SET_MAX]; /* the CPUs judged as the DUT's */
	struct nb_obs_cost cost[NB_OBS_SET_MAX];
	/* The kernel profile of each window (NULL: not asked for) and what it says over the
	 * DUT's CPUs per ingress frame (decided with the cost). */
	struct nb_prof_result *prof[NB_OBS_SET_MAX];
	struct nb_prof_summary *psum[NB_OBS_SET_MAX];
};

int nb_obs_set_open(struct nb_obs_set *c, const uint8_t *psk, size_t psk_len, char *err,
		    size_t errlen);
void nb_obs_set_close(struct nb_obs_set *c);
/* Begins each observer's window (duration: the most the trial may take). */
int nb_obs_set_begin(struct nb_obs_set *c, uint64_t duration_ns, char *err, size_t errlen);
/* Ends the windows into t (allocated here; free with nb_obs_trial_free). */
int nb_obs_set_end(struct nb_obs_set *c, struct nb_obs_trial *t, char *err, size_t errlen);
void nb_obs_trial_free(struct nb_obs_trial *t);

/* The clock for cycles per frame: cpufreq's, else the observer's /proc/cpuinfo MHz, else 0. */
double nb_obs_clock_mhz(const struct nb_obs_set *c, size_t i, const struct nb_obs_summary *s);

/* forwarded argument of nb_obs_trial_cost: each observer's own egress frames. */
#define NB_OBS_FRAMES_EGRESS UINT64_MAX

/* Decides t->cost of every window: forwarded, the frames that came through (the receiver's
 * count) or NB_OBS_FRAMES_EGRESS; bytes, payload bytes carried (0: no cycles per byte); mtu of
 * the path, 0 unknown (1500 is then assumed, and said). nb_obs_set_end decides it with the
 * egress frames; a caller that knows better decides it again. */
void nb_obs_trial_cost(const struct nb_obs_set *c, struct nb_obs_trial *t, uint64_t forwarded,
		       uint64_t bytes, uint32_t mtu);
/* The same for one window (pure: tested on recorded windows). */
void nb_obs_cost_decide(const struct nb_obs_snap *w, const struct nb_obs_summary *s,
			double clock_mhz, bool cpufreq, uint64_t forwarded, uint64_t bytes,
			uint32_t mtu, struct nb_obs_cost *k);

/* "key": [ one object per observer ] for one trial, with its stored cost; bytes true: the
 * cycles_per_byte field too. */
void nb_obs_json(struct nb_json *j, const char *key, const struct nb_obs_set *c,
		 const struct nb_obs_trial *t, bool bytes);
/* Whether a remote platform is this host's own kernel (same host name, kernel and build,
 * CPU model and count): a namespace lab's DUT. */
bool nb_obs_same_kernel(const struct nb_sysinfo *remote);
/* The profile of observer i in one trial in one line, as printed after "DUT " under its CPU
 * table: "cpu1 97 %: netfilter 61 % (312 ns/frame), driver 14 %, ..." (several CPUs: "2 CPUs
 * 60 % busy on average: ..."; none: "profile unavailable: WHY"); "" when none was asked for. */
void nb_obs_profile_line(const struct nb_obs_trial *t, size_t i, char *buf, size_t len);
/* What the profile of observer i over mask's CPUs holds, in words (JSON profile_scope). */
const char *nb_obs_profile_scope(const struct nb_obs_set *c, size_t i, uint64_t mask);
void nb_obs_json_verdict(struct nb_json *j, const char *key, const struct nb_verdict *v);

#endif
