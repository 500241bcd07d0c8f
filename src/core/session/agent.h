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

#include "core/session/agent_policy.h"
#include "core/session/caps.h"
#include "core/session/proto.h"

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
	/* Optional: a MARK that opens or closes the measurement window (enum nb_mark_edge):
	 * called right before the snapshot (sampled false) and right after the agent's CPU
	 * sample (sampled true), so that what the test does there covers the CPU's window. */
	void (*edge)(void *state, uint32_t edge, bool sampled);
	/* Optional: a few words on the test for the agent's log ("tcp tx 32k x2"). */
	void (*describe)(void *state, char *buf, size_t len);
};

/* The table of test kinds, in core/session/agent_tests.c. */
extern const struct nb_test_ops *const nb_agent_tests[];

/* Binds the control socket; returns the listening fd or a negative errno. */
int nb_agent_listen(const char *bind_addr, uint16_t port);
/* Serves controllers on listen_fd until *opts->stop or, with once, after one test. */
int nb_agent_run(int listen_fd, const struct nb_agent_opts *opts);

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
