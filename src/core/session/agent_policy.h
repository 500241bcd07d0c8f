/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's options and the policy it enforces before any test starts (duration and rate
 * caps, traffic only towards the controller's own address unless widened, multicast scope, an
 * optional pre-shared key), with the checks the test kinds share and the agent's log line. Both
 * the session loop (agent.c) and the handshake gate (gate.c) read them. */
#ifndef NB_AGENT_POLICY_H
#define NB_AGENT_POLICY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/base/cancel.h"
#include "core/session/caps.h"

struct nb_agent_policy {
	uint64_t max_time_ns;  /* longest test accepted */
	uint64_t max_rate_bps; /* highest sending rate accepted (wire bits), 0 = no cap */
	uint64_t max_pps;      /* highest packet rate accepted, 0 = no cap */
	/* A running test ends when its controller is silent this long (0: never). */
	uint64_t quiet_ns;
	bool mcast_any_group;	  /* --allow-mcast-any: groups outside the administrative scope */
	uint32_t mcast_max_ttl;	  /* highest multicast TTL / hop limit (--mcast-ttl, default 1) */
	const char *mcast_ifaces; /* --mcast-iface: more interfaces multicast may leave by (a,b) */
	bool allow_any_target; /* --allow-target-any: send to addresses other than the controller */
	bool allow_tuning;     /* --allow-tuning: an observer may set the clock and RPS */
	bool no_profile;       /* --no-profile: an observer may not profile the kernel */
	uint8_t psk[64];
	size_t psk_len; /* 0: no key required */
};

/* What a test's setup sees of its session. */
struct nb_agent_ctx {
	const struct nb_agent_policy *policy;
	struct sockaddr_storage peer;  /* the controller's control-connection address */
	struct sockaddr_storage local; /* our end of the control connection */
	socklen_t peer_len, local_len;
};

/* Called once per finished (or refused) test with a one-line description. */
typedef void (*nb_agent_log_fn)(void *arg, const char *line);

struct nb_agent_opts {
	const char *bind_addr; /* NULL: all addresses, IPv6 and IPv4 */
	uint16_t port;
	bool once; /* return after one test */
	struct nb_agent_policy policy;
	nb_agent_log_fn log;
	void *log_arg;
	const nb_cancel_t *stop; /* set by a signal handler to end the loop */
};

/* Policy checks shared by test kinds: the destination must be the controller's address unless
 * the policy widens it; rates and durations within the caps. Return 0 or -EPERM with err set. */
int nb_agent_check_target(const struct nb_agent_ctx *ctx, const struct sockaddr *dst, char *err,
			  size_t errlen);
int nb_agent_check_caps(const struct nb_agent_ctx *ctx, uint64_t duration_ns, uint64_t rate_bps,
			char *err, size_t errlen);
/* The caps for a send of payload_bps in packets of packet_bytes payload, each framed with
 * overhead_bytes on the wire (core/base/wirecost.h): the wire rate against --max-rate, the
 * packet rate against --max-pps. payload_bps 0 means unpaced. */
int nb_agent_check_send(const struct nb_agent_ctx *ctx, uint64_t duration_ns, uint64_t payload_bps,
			uint32_t packet_bytes, uint32_t overhead_bytes, char *err, size_t errlen);
/* The caps the policy sets, as stated to controllers in the handshake. */
void nb_agent_caps(const struct nb_agent_policy *p, struct nb_caps *c);
/* Multicast the agent sends: an administratively scoped group (239.0.0.0/8, ff01-ff05 scope)
 * unless --allow-mcast-any, a TTL / hop limit within --mcast-ttl. */
int nb_agent_check_mcast(const struct nb_agent_ctx *ctx, const struct sockaddr *group, int ttl,
			 char *err, size_t errlen);
/* Whether a group is administratively scoped: 239.0.0.0/8, or an IPv6 group of scope 1-5. */
bool nb_mcast_admin_scoped(const struct sockaddr *group);
/* One line for the agent's log (opts->log), formatted as printf does; nothing without a log. */
void nb_agent_log(const struct nb_agent_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
