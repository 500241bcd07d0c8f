/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's side of observing: one session per observed box, one observe test per trial,
 * begun right before the trial starts and ended once its frames drained, so that the window is
 * exactly the trial's. */
#ifndef NB_OBS_CTL_H
#define NB_OBS_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/observe/obs.h"
#include "core/observe/obs_wire.h"
#include "core/base/sysinfo.h"
#include "core/profile/prof.h"

struct nb_obs_ctl;

/* HOST, HOST:PORT, [V6]:PORT or a bare IPv6 address. host gets the name, *port the port (or
 * def_port). Returns 0 or -EINVAL. */
int nb_obs_parse_target(const char *spec, char *host, size_t hostlen, uint16_t *port,
			uint16_t def_port);

/* Connects and handshakes; psk may be NULL. */
int nb_obs_ctl_open(struct nb_obs_ctl **o, const char *spec, uint16_t def_port, const uint8_t *psk,
		    size_t psk_len, char *err, size_t errlen);
void nb_obs_ctl_free(struct nb_obs_ctl *o);
const char *nb_obs_ctl_name(const struct nb_obs_ctl *o); /* the spec as given */
const struct nb_sysinfo *nb_obs_ctl_remote(const struct nb_obs_ctl *o);

/* Before a trial: asks for a window of at most duration_ns with req's options and starts it.
 * note (may be NULL) receives the agent's word on the clock, have_freq whether it has cpufreq. */
int nb_obs_ctl_begin(struct nb_obs_ctl *o, uint64_t duration_ns, const struct nb_obs_req *req,
		     char *note, size_t notelen, bool *have_freq, char *err, size_t errlen);
/* After the trial drained: ends the window and decodes it into w, and its kernel profile into
 * prof when prof is not NULL (an agent that sent none: prof says "unavailable"). */
int nb_obs_ctl_end(struct nb_obs_ctl *o, struct nb_obs_snap *w, struct nb_prof_result *prof,
		   char *err, size_t errlen);

#endif
