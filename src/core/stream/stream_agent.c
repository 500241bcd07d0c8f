/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's end of netbench stream (NB_TEST_STREAM). Normally the agent receives: it joins the
 * group on the requested interface and counts per step, its CPU measured over each step's window
 * where the datagrams arrive. With the role "send" (the controller's --reverse) it is the paced
 * sender, subject to the agent's policy: a unicast destination must pass the target check, a
 * multicast group is an allowed target; rate and duration must be within the caps. */
#include "core/session/agent.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/net.h"
#include "core/base/netif.h"
#include "core/base/wirecost.h"
#include "core/stream/stream_msg.h"
#include "core/stream/stream_run.h"
#include "core/stream/stream_sock.h"

struct stream_state {
	struct nb_stream_req req;
	int fd;
	struct nb_stream_recv *recv;	  /* role recv */
	struct nb_stream_rx *copy;	  /* scratch for snapshots */
	struct nb_stream_send_step *sent; /* role send */
	struct nb_stream_pacing pacing;	  /* role send */
	nb_cancel_t send_stop;
	pthread_t send_thread;
	bool sending;
	int send_ret;
	char peer_addr[INET6_ADDRSTRLEN];
	struct sockaddr_storage dst; /* resolved once; the only address used */
};

static void state_free(struct stream_state *s)
{
	if (!s)
		return;
	if (s->sending) {
		s->send_stop = 1;
		pthread_join(s->send_thread, NULL);
	}
	nb_stream_recv_free(s->recv);
	nb_stream_rx_free(s->copy);
	if (s->fd >= 0)
		close(s->fd);
	free(s->sent);
	free(s);
}

static void fill_sock_opts(const struct stream_state *s, struct nb_stream_sock_opts *o,
			   const char *addr)
{
	memset(o, 0, sizeof(*o));
	o->addr = addr;
	o->port = s->req.port;
	o->iface = s->req.iface[0] ? s->req.iface : NULL;
	o->source = s->req.source[0] ? s->req.source : NULL;
	o->ttl = s->req.ttl;
	o->loop = s->req.flags & NB_STR_F_LOOP;
	o->reuse = s->req.flags & NB_STR_F_REUSE;
	o->family = AF_UNSPEC;
	o->numeric_only = true;
}

/* The receiving agent: its socket (joined where the stream comes), its receiver, and the
 * kernel profile the rules allow. */
static int recv_setup(const struct nb_agent_ctx *ctx, struct stream_state *s, char *err,
		      size_t errlen)
{
	struct nb_stream_sock_opts o;
	/* A unicast stream arrives at whichever address the controller used for us. */
	const char *addr = s->req.addr;
	int ret;

	ret = nb_stream_resolve_numeric(addr, s->req.port, &s->dst, err, errlen);
	if (ret < 0)
		return ret;
	if (!nb_addr_is_multicast((struct sockaddr *)&s->dst))
		addr = s->dst.ss_family == AF_INET6 ? "::" : "0.0.0.0";
	fill_sock_opts(s, &o, addr);
	ret = nb_stream_open_recv(&o, &s->fd, err, errlen);
	/* A board without a multicast or default route has no interface for a join on "any":
	 * the stream comes the way the controller reaches us, so join there. */
	if (ret == -ENODEV && !s->req.iface[0] &&
	    nb_addr_is_multicast((struct sockaddr *)&s->dst) &&
	    nb_net_iface_of((const struct sockaddr *)&ctx->local, s->req.iface,
			    sizeof(s->req.iface)) == 0) {
		fill_sock_opts(s, &o, addr);
		ret = nb_stream_open_recv(&o, &s->fd, err, errlen);
	}
	if (ret < 0)
		return ret;
	ret = nb_stream_recv_new(&s->recv, s->fd);
	if (ret == 0)
		ret = nb_stream_rx_new(&s->copy);
	if (ret < 0)
		return ret;
	s->recv->idle_ns = 0;
	s->recv->stop_on_fin = false; /* the controller says when: STOP */
	if (s->req.profile_hz && ctx->policy->no_profile) {
		snprintf(err, errlen,
			 "refused by rule profile: this agent was started with --no-profile");
		return -EPERM;
	}
	/* The rate is capped here whatever the controller asks. */
	if (s->req.profile_hz > NB_PROF_HZ_MAX) {
		snprintf(err, errlen,
			 "refused by rule profile: %u Hz asked; this agent samples at 1 to %u Hz "
			 "per CPU",
			 s->req.profile_hz, NB_PROF_HZ_MAX);
		return -EPERM;
	}
	if (s->req.profile_hz &&
	    (ret = nb_stream_recv_profile(s->recv, s->req.profile_hz, err, errlen)) < 0)
		return ret;
	return 0;
}

/* The sending agent's destination (s->dst), by the target rule: unicast the way the control
 * connection leaves, multicast out of an interface the rules allow. */
static int send_dst(const struct nb_agent_ctx *ctx, struct stream_state *s, char *err,
		    size_t errlen)
{
	struct sockaddr_storage *dst = &s->dst;
	int ret;

	if (!s->req.addr[0]) {
		/* "" is the controller itself, at the address of the control connection. */
		memcpy(dst, &ctx->peer, sizeof(*dst));
		nb_net_set_port((struct sockaddr *)dst, s->req.port);
	} else {
		/* Resolved once, numerically, and only this checked address is used. */
		ret = nb_stream_resolve_numeric(s->req.addr, s->req.port, dst, err, errlen);
		if (ret < 0)
			return ret;
	}
	nb_net_addr_str((struct sockaddr *)dst, false, s->peer_addr, sizeof(s->peer_addr));
	if (!nb_addr_is_multicast((struct sockaddr *)dst)) {
		/* Unicast leaves the way the control connection does: the controller does not
		 * pick the interface, and a link-local address keeps its link. */
		if (s->req.iface[0]) {
			snprintf(err, errlen,
				 "refused by rule target: a unicast stream leaves through the "
				 "control connection's interface, not %s (--iface is for "
				 "multicast)",
				 s->req.iface);
			return -EPERM;
		}
		ret = nb_agent_check_target(ctx, (struct sockaddr *)dst, err, errlen);
		return ret < 0 ? ret : 0;
	}
	int ttl = s->req.ttl < 0 ? 1 : s->req.ttl;
	ret = nb_agent_check_mcast(ctx, (struct sockaddr *)dst, ttl, err, errlen);
	if (ret < 0)
		return ret;
	s->req.ttl = ttl; /* never the kernel's default, whatever it is */
	/* Out of the control connection's interface (or one the operator allowed), named
	 * explicitly: never where the routing table or the controller would send it. */
	char via[sizeof(s->req.iface)];
	ret = nb_agent_mcast_iface(ctx, s->req.iface, via, sizeof(via), err, errlen);
	if (ret < 0)
		return ret;
	memcpy(s->req.iface, via, sizeof(via));
	return 0;
}

/* The sending agent: its destination, the caps on what it sends, its socket and pacing. */
static int send_setup(const struct nb_agent_ctx *ctx, struct stream_state *s, char *err,
		      size_t errlen)
{
	struct nb_stream_sock_opts o;
	uint64_t max_rate = 0, step_ns, duration_ns;
	int ret;

	if ((ret = send_dst(ctx, s, err, errlen)) < 0)
		return ret;
	for (uint32_t i = 0; i < s->req.nrates; i++)
		if (s->req.rates_bps[i] > max_rate)
			max_rate = s->req.rates_bps[i];
	/* Peer-supplied numbers: the product is bounded before it is used. */
	if (!nb_add_u64(s->req.step_ns, s->req.omit_ns, &step_ns) ||
	    !nb_mul_u64(step_ns, s->req.nrates, &duration_ns)) {
		snprintf(err, errlen,
			 "refused by rule max-time: the stream's steps add up to more than 64 bits "
			 "of nanoseconds");
		return -EPERM;
	}
	ret = nb_agent_check_send(
	    ctx, duration_ns, max_rate, s->req.block,
	    s->dst.ss_family == AF_INET6 ? NB_WIRE_UDP6_BYTES : NB_WIRE_UDP4_BYTES, err, errlen);
	if (ret < 0)
		return ret;
	if (s->req.step_ns == 0 || s->req.nrates == 0) {
		snprintf(err, errlen, "a stream sent by the agent needs rates and a duration");
		return -EINVAL;
	}
	fill_sock_opts(s, &o, s->peer_addr);
	o.source = NULL;
	o.dst = &s->dst;
	ret = nb_stream_open_send(&o, &s->fd, err, errlen);
	if (ret < 0)
		return ret;
	s->pacing.asked = (enum nb_pacing_mode)s->req.pacing;
	s->pacing.burst_asked = s->req.burst;
	ret = nb_stream_pacing_setup(s->fd, o.iface, &s->pacing, err, errlen);
	if (ret < 0)
		return ret;
	s->sent = calloc(s->req.nrates, sizeof(*s->sent));
	return s->sent ? 0 : -ENOMEM;
}

static int setup(const struct nb_agent_ctx *ctx, const struct nb_msg *req, void **state,
		 struct nb_msg *ack, char *err, size_t errlen)
{
	struct stream_state *s = calloc(1, sizeof(*s));
	int ret = -ENOMEM;

	(void)ack;
	if (!s)
		goto out;
	s->fd = -1;
	ret = nb_stream_req_get(req, &s->req);
	if (ret < 0) {
		snprintf(err, errlen, "malformed stream request");
		goto out;
	}
	if (s->req.role == NB_STREAM_AGENT_RECV) {
		ret = recv_setup(ctx, s, err, errlen);
	} else if (s->req.profile_hz) {
		snprintf(err, errlen,
			 "the kernel profile is the receiver's: a sending agent takes none");
		ret = -EINVAL;
	} else {
		ret = send_setup(ctx, s, err, errlen);
	}
	if (ret < 0)
		goto out;
	*state = s;
	s = NULL;
	ret = 0;
out:
	state_free(s);
	return ret;
}

static void *send_thread(void *arg)
{
	struct stream_state *s = arg;
	struct nb_stream_send_opts o;

	memset(&o, 0, sizeof(o));
	o.fd = s->fd;
	o.block = s->req.block;
	o.rates_bps = s->req.rates_bps;
	o.nrates = s->req.nrates;
	o.step_ns = s->req.step_ns;
	o.omit_ns = s->req.omit_ns;
	o.stream_id = s->req.stream_id;
	o.stop = &s->send_stop;
	o.pacing = s->pacing.mode;
	o.burst = s->req.burst;
	s->send_ret = nb_stream_send_run(&o, s->sent);
	return NULL;
}

static int start(void *state, char *err, size_t errlen)
{
	struct stream_state *s = state;
	int e;

	if (s->recv) {
		e = nb_stream_recv_start(s->recv);
		if (e < 0)
			snprintf(err, errlen, "receiver thread: %s", strerror(-e));
		return e;
	}
	e = pthread_create(&s->send_thread, NULL, send_thread, s);
	if (e) {
		snprintf(err, errlen, "sender thread: %s", strerror(e));
		return -e;
	}
	s->sending = true;
	return 0;
}

static int snapshot(void *state, struct nb_msg *snap)
{
	struct stream_state *s = state;

	if (s->recv) {
		nb_stream_recv_copy(s->recv, s->copy);
		return nb_stream_rx_put(snap, s->copy, NB_END_NONE);
	}
	return 0; /* the sender's counters are final only at STOP */
}

static int stop(void *state, struct nb_msg *final, char *err, size_t errlen)
{
	struct stream_state *s = state;

	if (s->recv) {
		int ret;
		nb_stream_recv_stop(s->recv);
		nb_stream_recv_copy(s->recv, s->copy);
		ret = nb_stream_rx_put(final, s->copy, NB_END_STOP);
		if (!ret && s->recv->prof)
			ret = nb_stream_prof_put(final, s->recv->prof_step, s->copy->nsteps);
		return ret;
	}
	if (s->sending) {
		/* STOP normally follows the sweep's end marker and the thread is done; a STOP
		 * that comes early ends the sweep where it is. */
		s->send_stop = 1;
		pthread_join(s->send_thread, NULL);
		s->sending = false;
	}
	if (s->send_ret < 0) {
		snprintf(err, errlen, "sending: %s", strerror(-s->send_ret));
		return s->send_ret;
	}
	if (nb_stream_pacing_put(final, &s->pacing) < 0)
		return -EMSGSIZE;
	return nb_stream_sent_put(final, s->sent, s->req.nrates);
}

static void free_state(void *state)
{
	state_free(state);
}

static void describe(void *state, char *buf, size_t len)
{
	const struct stream_state *s = state;
	snprintf(buf, len, "%s %s port %u, %u step%s", s->recv ? "recv" : "send",
		 s->req.addr[0] ? s->req.addr : s->peer_addr, s->req.port, s->req.nrates,
		 s->req.nrates == 1 ? "" : "s");
}

const struct nb_test_ops nb_stream_ops = {
    .type = NB_TEST_STREAM,
    .name = "stream",
    .setup = setup,
    .start = start,
    .snapshot = snapshot,
    .stop = stop,
    .free = free_state,
    .describe = describe,
};
