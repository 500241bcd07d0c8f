/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's caps (serve --max-time, --max-rate, --max-pps) as a value both ends share. The
 * agent states them in its handshake reply so a controller can check a whole run before any
 * traffic; the agent still enforces them on every test with the same decision functions. */
#ifndef NB_CAPS_H
#define NB_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/session/proto.h"

struct nb_caps {
	bool known;	       /* the agent stated them (an older agent does not) */
	uint64_t max_time_ns;  /* longest test, 0 = no cap */
	uint64_t max_rate_bps; /* highest sending rate on the wire, 0 = no cap */
	uint64_t max_pps;      /* highest packet rate, 0 = no cap */
	/* A running test whose controller sends nothing for this long is ended; the controller
	 * sends ALIVE well within it. 0: the agent states none (an older one): no ALIVE. */
	uint64_t quiet_ns;
};

/* Agent: appends the caps (NB_T_CAP_*, u64 each; CAP_QUIET_NS only when set). */
int nb_caps_put(struct nb_msg *m, const struct nb_caps *c);
/* Controller: reads them from HELLO_OK / AUTH_OK. All three absent: known = false, 0. One
 * missing or of the wrong length: -EBADMSG. CAP_QUIET_NS on its own: absent is 0. */
int nb_caps_get(const struct nb_msg *m, struct nb_caps *c);

/* A test of duration_ns whose sender runs at wire_bps (0: unlimited; 1 when the test sends
 * nothing the caps judge): 0, or -EPERM with "refused by rule max-time: ..." or "... max-rate:
 * ..." in err. Caps of 0 do not limit. */
int nb_caps_check(const struct nb_caps *c, uint64_t duration_ns, uint64_t wire_bps, char *err,
		  size_t errlen);
/* A send of payload_bps (0: unpaced) in packets of packet_bytes, each framed with
 * overhead_bytes on the wire (core/base/wirecost.h): wire rate against max-rate, packet rate
 * against max-pps, duration against max-time. */
int nb_caps_check_send(const struct nb_caps *c, uint64_t duration_ns, uint64_t payload_bps,
		       uint32_t packet_bytes, uint32_t overhead_bytes, char *err, size_t errlen);

#endif
