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
};

/* One trial's windows, one per observer. */
struct nb_obs_trial {
	size_t n;
	struct nb_obs_snap *w[NB_OBS_SET_MAX];
	struct nb_obs_summary *s[NB_OBS_SET_MAX];
	uint64_t mask[NB_OBS_SET_MAX]; /* the CPUs judged as the DUT's */
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

/* Frames observer i's DUT sent out of its egress interface (most tx packets) in the window. */
uint64_t nb_obs_egress_frames(const struct nb_obs_trial *t, size_t i);

/* frames argument of nb_obs_json: each observer's own egress frames (nb_obs_egress_frames). */
#define NB_OBS_FRAMES_EGRESS UINT64_MAX

/* "key": [ one object per observer ] for one trial; frames: frames forwarded (cycles/frame);
 * bytes: payload bytes carried (cycles/byte), 0: no cycles_per_byte field. */
void nb_obs_json(struct nb_json *j, const char *key, const struct nb_obs_set *c,
		 const struct nb_obs_trial *t, uint64_t frames, uint64_t bytes);
void nb_obs_json_verdict(struct nb_json *j, const char *key, const struct nb_verdict *v);

#endif
