/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent (`netbench serve`): accepts controllers on a TCP control port, one test at a time,
 * and runs the far end of each test through a table of test kinds. The agent enforces its policy
 * (duration and rate caps, traffic only towards the controller's own address unless widened, an
 * optional pre-shared key) before any test starts; a refusal names the rule that refused. */
#ifndef NB_AGENT_H
#define NB_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/socket.h>

#include "core/session/caps.h"
#include "core/session/proto.h"

struct nb_agent_policy {
	uint64_t max_time_ns;	  /* longest test accepted */
	uint64_t max_rate_bps;	  /* highest sending rate accepted (wire bits), 0 = no cap */
	uint64_t max_pps;	  /* highest packet rate accepted, 0 = no cap */
	bool mcast_any_group;	  /* --allow-mcast-any: groups outside the administrative scope */
	uint32_t mcast_max_ttl;	  /* highest multicast TTL / hop limit (--mcast-ttl, default 1) */
	const char *mcast_ifaces; /* --mcast-iface: more interfaces multicast may leave by (a,b) */
	bool allow_any_target; /* --allow-target-any: send to addresses other than the controller */
	bool allow_tuning;     /* --allow-tuning: an observer may set the clock and RPS */
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

/* One kind of test the agent can run. Every callback returns 0 or a negative errno; a refusal
 * or failure writes its reason into err (shown to the controller as is). */
struct nb_test_ops {
	uint16_t type; /* enum nb_test_type */
	const char *name;
	/* Validates req against ctx->policy, opens sockets, and puts into ack what the controller
	 * needs (ports...). *state is the test's own, passed back to the other callbacks. */
	int (*setup)(const struct nb_agent_ctx *ctx, const struct nb_msg *req, void **state,
		     struct nb_msg *ack, char *err, size_t errlen);
	/* Starts traffic (threads); returns at once. */
	int (*start)(void *state, char *err, size_t errlen);
	/* Appends the test's counters at this instant to snap (the agent adds its CPU sample). */
	int (*snapshot)(void *state, struct nb_msg *snap);
	/* Stops traffic, lets it drain, appends final counters. */
	int (*stop)(void *state, struct nb_msg *final, char *err, size_t errlen);
	void (*free)(void *state);
	/* Optional: stops the test's traffic at once. Called by the agent's max-time timer from
	 * its own thread while the session's thread may be anywhere (even inside stop), so it
	 * only sets flags the workers look at; stop and free still follow. */
	void (*halt)(void *state);
	/* Optional: a few words on the test for the agent's log ("tcp tx 32k x2"). */
	void (*describe)(void *state, char *buf, size_t len);
};

/* The table of test kinds, in core/session/agent_tests.c. */
extern const struct nb_test_ops *const nb_agent_tests[];

/* Called once per finished (or refused) test with a one-line description. */
typedef void (*nb_agent_log_fn)(void *arg, const char *line);

struct nb_agent_opts {
	const char *bind_addr; /* NULL: all addresses, IPv6 and IPv4 */
	uint16_t port;
	bool once; /* return after one test */
	struct nb_agent_policy policy;
	nb_agent_log_fn log;
	void *log_arg;
	volatile sig_atomic_t *stop; /* set by a signal handler to end the loop */
};

/* Binds the control socket; returns the listening fd or a negative errno. */
int nb_agent_listen(const char *bind_addr, uint16_t port);
/* Serves controllers on listen_fd until *opts->stop or, with once, after one test. */
int nb_agent_run(int listen_fd, const struct nb_agent_opts *opts);

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
/* The interface the agent's multicast leaves by (core/session/mcast_iface.c): asked (may be
 * empty: the control connection's own) must be the control connection's interface or one of
 * --mcast-iface. Writes the name into out; -EPERM with the rule's reason otherwise. */
int nb_agent_mcast_iface(const struct nb_agent_ctx *ctx, const char *asked, char *out,
			 size_t outlen, char *err, size_t errlen);
/* The pure decision: control is the control connection's interface ("" when unknown),
 * allowed a comma-separated list (may be NULL). */
int nb_mcast_iface_decide(const char *asked, const char *control, const char *allowed, char *out,
			  size_t outlen, char *err, size_t errlen);
bool nb_mcast_iface_listed(const char *list, const char *name);

#endif
