/* SPDX-License-Identifier: BSD-2-Clause */
/* The observe test on the wire (tags 600-699): the request's options, the setup's answer and a
 * window as fixed-layout items. This file alone knows the tags; see docs/protocol.md. */
#ifndef NB_OBS_WIRE_H
#define NB_OBS_WIRE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/observe/obs.h"
#include "core/session/proto.h"

enum {
	NB_T_OBS_SAMPLE_HZ = 600, /* u32, 1..100 */
	NB_T_OBS_CLOCK_KHZ = 601, /* u32: set the CPU clock for the test (needs --allow-tuning) */
	NB_T_OBS_RPS_MASK = 602,  /* u64: steer receive work to these CPUs (needs --allow-tuning) */
	NB_T_OBS_CLOCK_NOTE = 603,   /* string: what became of the clock, or why nothing */
	NB_T_OBS_HAVE_FREQ = 604,    /* u32: 1 when the kernel exposes cpufreq */
	NB_T_OBS_ADAPT = 605,	     /* u32 1: sample less often where samples are dear */
	NB_T_OBS_PROFILE_HZ = 606,   /* u32: the kernel profile's rate per CPU; absent: none */
	NB_T_OBS_PROFILE_KIB = 607,  /* u32: its ring buffer per CPU, KiB */
	NB_T_OBS_PROFILE_MASK = 608, /* u64: CPUs whose functions and stacks are kept, 0 all */
	NB_T_OBS_HEAD = 610,
	NB_T_OBS_CPU = 611,
	NB_T_OBS_SOFTNET = 612,
	NB_T_OBS_IRQ = 613,
	NB_T_OBS_IF = 614,
	NB_T_OBS_ETH = 615,
	NB_T_OBS_FREQ = 616,
	NB_T_OBS_IF_SPEED = 617, /* u32 interface index (of the IF items), u32 Mbit/s */
	NB_T_OBS_COST = 618,	 /* u64 sampling CPU ns, u64 edges' CPU ns, u64 longest period ns */
};

#define NB_OBS_SAMPLE_HZ_MAX	 100u
#define NB_OBS_SAMPLE_HZ_DEFAULT 10u

struct nb_obs_req {
	uint32_t sample_hz;
	bool adapt;	       /* the default rate: the agent may lower it to stay in its budget */
	uint32_t clock_khz;    /* 0: leave the clock */
	uint64_t rps_mask;     /* 0: leave RPS */
	uint32_t profile_hz;   /* 0: no kernel profile (core/profile/prof.h) */
	uint32_t profile_kib;  /* ring buffer per CPU; 0 with a profile: the default */
	uint64_t profile_mask; /* CPUs whose functions and stacks are kept, 0: all */
};

int nb_obs_req_put(struct nb_msg *m, const struct nb_obs_req *r);
/* Reads and bounds-checks; err names the field. */
int nb_obs_req_get(const struct nb_msg *m, struct nb_obs_req *r, char *err, size_t errlen);

/* Appends a window's items (interrupt lines with a count, all else as is). */
int nb_obs_window_put(struct nb_msg *m, const struct nb_obs_snap *w);
/* Decodes the window items of m into w: the head exactly once, every count within the arrays,
 * names non-empty; anything else is -EBADMSG (w is then zeroed). */
int nb_obs_window_get(const struct nb_msg *m, struct nb_obs_snap *w);
/* The profile's items (tags 620-629) are nb_prof_put's and nb_prof_get's (core/profile). */

#endif
