/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench stream, controller mode: the agents receive (each reports its own steps), this host
 * sends; or the one agent sends and this host receives. Per-step counters and CPU loads come
 * from the receiving side's own step windows; the agents' CPU samples at the MARKs around the
 * sweep bound the whole run. */
#include "core/stream/stream_ctl.h"
#include "core/stream/stream_obs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/base/timeutil.h"
#include "core/stream/stream_msg.h"

#define JOIN_SETTLE (300 * NB_NS_PER_MS) /* membership reports reach the switch/bridge */
#define DRAIN_NS    (300 * NB_NS_PER_MS)
#define CTL_TIMEOUT 10000

uint32_t nb_stream_random_id(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint32_t)(ts.tv_nsec ^ (ts.tv_sec << 20) ^ ((uint32_t)getpid() << 8));
}

/* Local address towards addr (route lookup, nothing sent), for the platform block's interface. */
static bool local_towards(const struct nb_stream_sock_opts *sock, struct sockaddr_storage *local)
{
	struct sockaddr_storage ss;
	socklen_t len, llen = sizeof(*local);
	char err[128];
	bool ok = false;
	int fd;

	if (nb_stream_resolve(sock->addr, sock->port, sock->family, &ss, &len, err, sizeof(err)) <
	    0)
		return false;
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	if (sock->iface)
		(void)setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, sock->iface,
				 (socklen_t)strlen(sock->iface) + 1);
	if (connect(fd, (struct sockaddr *)&ss, len) == 0 &&
	    getsockname(fd, (struct sockaddr *)local, &llen) == 0)
		ok = true;
	close(fd);
	return ok;
}

void nb_stream_local_sysinfo(const struct nb_stream_sock_opts *sock, struct nb_sysinfo *si)
{
	struct sockaddr_storage local;
	bool ok = local_towards(sock, &local);

	nb_sysinfo_get(si, ok ? (struct sockaddr *)&local : NULL);
	if (sock->iface)
		nb_sysinfo_iface(si, sock->iface);
}

const char *nb_stream_end_name(enum nb_stream_end e)
{
	switch (e) {
	case NB_END_FIN:
		return "end marker";
	case NB_END_TIME:
		return "time limit";
	case NB_END_IDLE:
		return "idle";
	case NB_END_STOP:
		return "interrupted";
	default:
		return "none";
	}
}

static void fill_req(const struct nb_stream_params *p, struct nb_stream_req *r, uint32_t role,
		     uint32_t stream_id)
{
	memset(r, 0, sizeof(*r));
	r->role = role;
	/* "" asks the agent for the controller's own address. */
	snprintf(r->addr, sizeof(r->addr), "%s", p->to_controller ? "" : p->sock.addr);
	if (p->sock.iface && role == NB_STREAM_AGENT_RECV)
		snprintf(r->iface, sizeof(r->iface), "%s", p->sock.iface);
	if (p->sock.source)
		snprintf(r->source, sizeof(r->source), "%s", p->sock.source);
	r->port = p->sock.port;
	r->ttl = p->sock.ttl;
	r->flags = (p->sock.loop ? NB_STR_F_LOOP : 0) | (p->sock.reuse ? NB_STR_F_REUSE : 0);
	r->block = (uint32_t)p->block;
	for (size_t i = 0; i < p->nrates; i++)
		r->rates_bps[i] = p->rates[i];
	r->nrates = (uint32_t)p->nrates;
	r->step_ns = p->time_ns;
	r->omit_ns = p->omit_ns;
	r->stream_id = stream_id;
	r->pacing = p->pacing.asked;
	r->burst = p->pacing.burst_asked;
	if (role == NB_STREAM_AGENT_RECV)
		r->profile_hz = p->profile_hz;
}

static int agent_open(struct nb_stream_ctl_agent *a, const struct nb_stream_params *p,
		      const struct nb_ctl_target *to, const struct nb_stream_req *req, char *err,
		      size_t errlen)
{
	struct nb_ctl_target t = *to;
	char why[512];
	int ret;

	a->msg = nb_msg_new(NB_MSG_TEST_REQ);
	a->mark0 = calloc(1, sizeof(*a->mark0));
	a->mark1 = calloc(1, sizeof(*a->mark1));
	if (!a->msg || !a->mark0 || !a->mark1 || nb_stream_rx_new(&a->rx) < 0) {
		snprintf(err, errlen, "agent %s: %s", a->host, strerror(ENOMEM));
		return -ENOMEM;
	}
	t.family = p->family; /* the group's: the session goes the same way */
	ret = nb_ctl_open_target(&a->ctl, &t, why, sizeof(why));
	if (ret < 0)
		goto fail;
	nb_msg_reset(a->msg, NB_MSG_TEST_REQ);
	if (nb_stream_req_put(a->msg, req) < 0) {
		snprintf(err, errlen, "request: %s", strerror(EMSGSIZE));
		return -EMSGSIZE;
	}
	ret = nb_ctl_request(a->ctl, a->msg, a->msg, why, sizeof(why));
	if (ret < 0)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "agent %s: %s", a->host, why);
	return ret;
}

static int agent_fail(const struct nb_stream_ctl_agent *a, int ret, const char *why, char *err,
		      size_t errlen)
{
	snprintf(err, errlen, "agent %s: %s", a->host, why);
	return ret;
}

static int agent_mark(struct nb_stream_ctl_agent *a, uint32_t id, struct nb_cpu_sample *s,
		      char *err, size_t errlen)
{
	char why[512];
	int ret = nb_ctl_mark(a->ctl, id, a->msg, why, sizeof(why));

	if (ret < 0)
		return agent_fail(a, ret, why, err, errlen);
	if (nb_proto_get_cpu(a->msg, s) < 0)
		memset(s, 0, sizeof(*s));
	return 0;
}

/* The idle baseline (docs/stream.md): each agent's first sample came with the acknowledgement
 * of its request, this host samples itself now over NB_STREAM_BASELINE_NS, and each agent's
 * last sample comes with the acknowledgement of START (baseline_agent). */
static void baseline_local(struct nb_stream_ctl_result *r, struct nb_cpu_sample *loc0)
{
	struct nb_cpu_sample *loc1 = malloc(sizeof(*loc1));

	for (size_t i = 0; i < r->nagents; i++) {
		struct nb_stream_ctl_agent *a = &r->agents[i];
		a->base0 = malloc(sizeof(*a->base0));
		a->base.known = a->base0 && nb_proto_get_cpu(a->msg, a->base0) == 0;
	}
	if (!loc1 || nb_cpu_sample_now(loc0))
		goto out;
	nb_sleep_until_ns(loc0->mono_ns + NB_STREAM_BASELINE_NS);
	if (nb_cpu_sample_now(loc1))
		goto out;
	nb_cpu_load(loc0, loc1, &r->baseline.cpu);
	r->baseline.known = true;
out:
	free(loc1);
}

static void baseline_agent(struct nb_stream_ctl_agent *a, const struct nb_cpu_sample *loc0)
{
	struct nb_cpu_sample *b1 = malloc(sizeof(*b1));

	a->base.known = a->base.known && b1 && nb_proto_get_cpu(a->ctl->msg, b1) == 0;
	if (a->base.known) {
		nb_cpu_load(a->base0, b1, &a->base.cpu);
		a->same_host = nb_cpu_same_host(loc0, a->base0);
	}
	free(b1);
}

/* Other load: what each end's netbench peers on this same host used is the measurement, not
 * other work; the rest is other processes' (nb_cpu_other_pct). */
static void cpu_peers(struct nb_stream_ctl_result *r, struct nb_stream_rx *const *rx)
{
	double peers_s = 0;

	for (size_t i = 0; i < r->nagents; i++) {
		struct nb_stream_ctl_agent *a = &r->agents[i];
		if (!a->same_host)
			continue;
		peers_s += a->base.cpu.proc_cpu_s;
		for (size_t k = 0; rx[i] && k < rx[i]->nsteps; k++) {
			struct nb_stream_step *s = &rx[i]->steps[k];
			if (s->step >= r->nsent)
				continue;
			s->cpu_peer_s = r->sent[s->step].cpu.proc_cpu_s;
			r->sent[s->step].cpu_peer_s += s->cpu.proc_cpu_s;
		}
	}
	r->baseline.other_pct = nb_cpu_other_pct(&r->baseline.cpu, peers_s);
	for (size_t i = 0; i < r->nagents; i++) {
		struct nb_stream_ctl_agent *a = &r->agents[i];
		a->base.other_pct =
		    a->base.known ? nb_cpu_other_pct(&a->base.cpu,
						     a->same_host ? r->baseline.cpu.proc_cpu_s : 0)
				  : NAN;
	}
}

/* The sender's plan and the receiver's expectation must agree step by step: the same window
 * and warm-up, and no more distinct datagrams counted in the window than were sent in it. */
static void reconcile(struct nb_stream_rx *rx, const struct nb_stream_send_step *sent, size_t n)
{
	for (size_t i = 0; i < rx->nsteps; i++) {
		struct nb_stream_step *s = &rx->steps[i];
		if (s->step >= n || s->step_count != sent[s->step].count ||
		    s->omit_count != sent[s->step].omit_count ||
		    s->unique > sent[s->step].datagrams)
			s->unreconciled = true;
	}
}

/* The receiving agents asked, started (the CPU baselines taken around that), joined, and
 * marked at the run's start. */
static int agents_start(const struct nb_stream_params *p, struct nb_stream_ctl_result *r,
			uint32_t id, struct nb_cpu_sample *loc0, char *err, size_t errlen)
{
	struct nb_stream_req req;
	char why[512];
	int ret;

	fill_req(p, &req, NB_STREAM_AGENT_RECV, id);
	for (size_t i = 0; i < r->nagents; i++)
		if ((ret = agent_open(&r->agents[i], p, &p->agents[i], &req, err, errlen)))
			return ret;
	baseline_local(r, loc0);
	for (size_t i = 0; i < r->nagents; i++) {
		if ((ret = nb_ctl_start(r->agents[i].ctl, why, sizeof(why))) < 0) {
			agent_fail(&r->agents[i], ret, why, err, errlen);
			return ret;
		}
		baseline_agent(&r->agents[i], loc0);
	}
	nb_sleep_until_ns(nb_mono_ns() + JOIN_SETTLE);
	for (size_t i = 0; i < r->nagents; i++)
		if ((ret = agent_mark(&r->agents[i], 1, r->agents[i].mark0, err, errlen)))
			return ret;
	return 0;
}

static void send_opts_fill(const struct nb_stream_params *p, const struct nb_stream_ctl_result *r,
			   int fd, uint32_t id, struct nb_stream_send_opts *so)
{
	memset(so, 0, sizeof(*so));
	so->fd = fd;
	so->block = p->block;
	so->rates_bps = p->rates;
	so->nrates = p->nrates;
	so->step_ns = p->time_ns;
	so->omit_ns = p->omit_ns;
	so->stream_id = id;
	so->stop = p->stop;
	so->pacing = r->pacing.mode;
	so->burst = r->pacing.burst_asked;
	so->on_step = p->on_step;
	so->arg = p->step_arg;
}

/* The observers' windows, one per step, opened and closed at the sender's edges. */
static int observers_start(const struct nb_stream_params *p, struct nb_stream_ctl_result *r,
			   struct nb_stream_obs **obs, struct nb_stream_send_opts *so, char *err,
			   size_t errlen)
{
	int ret;

	r->obs = calloc(p->nrates, sizeof(*r->obs));
	r->obs_lag_ns = calloc(2 * p->nrates, sizeof(*r->obs_lag_ns));
	r->nobs = r->obs ? p->nrates : 0;
	ret = r->obs && r->obs_lag_ns ? nb_stream_obs_start(obs, p->observe, p->nrates, p->time_ns)
				      : -ENOMEM;
	if (ret) {
		snprintf(err, errlen, "observer: %s", strerror(-ret));
		return ret;
	}
	so->on_edge = nb_stream_obs_edge;
	so->edge_arg = *obs;
	return 0;
}

/* After the drain: each agent marked at the run's end and stopped, its counters (and kernel
 * profile) read and reconciled with what was sent. */
static int agents_finish(const struct nb_stream_params *p, struct nb_stream_ctl_result *r,
			 char *err, size_t errlen)
{
	struct nb_stream_rx *rxs[NB_STREAM_MAX_AGENTS] = {0};
	char why[512];
	int ret;

	for (size_t i = 0; i < r->nagents; i++) {
		struct nb_stream_ctl_agent *a = &r->agents[i];
		if ((ret = agent_mark(a, 2, a->mark1, err, errlen)))
			return ret;
		nb_cpu_load(a->mark0, a->mark1, &a->run_cpu);
		if ((ret = nb_ctl_stop(a->ctl, a->msg, CTL_TIMEOUT, why, sizeof(why))) < 0) {
			agent_fail(a, ret, why, err, errlen);
			return ret;
		}
		if (nb_stream_rx_get(a->msg, a->rx, &a->end) < 0)
			return agent_fail(a, -EBADMSG, "counters: Bad message", err, errlen);
		if (p->profile_hz && nb_stream_prof_get(a->msg, a->prof, NB_STREAM_MAX_STEPS) < 0)
			return agent_fail(a, -EBADMSG, "kernel profile: Bad message", err, errlen);
		reconcile(a->rx, r->sent, p->nrates);
		rxs[i] = a->rx;
	}
	cpu_peers(r, rxs);
	return 0;
}

static int run_forward(const struct nb_stream_params *p, struct nb_stream_ctl_result *r,
		       const struct nb_stream_ctl_cb *cb, char *err, size_t errlen)
{
	struct nb_stream_send_opts so;
	struct nb_stream_sock_opts send_sock;
	char why[512];
	uint32_t id = nb_stream_random_id();
	struct nb_cpu_sample *loc0 = malloc(sizeof(*loc0));
	struct nb_stream_obs *obs = NULL;
	int fd = -1, ret;

	/* --iface and --source belong to the agents' join; this host sends by its routes. */
	send_sock = p->sock;
	send_sock.iface = NULL;
	send_sock.source = NULL;
	if (!loc0) {
		snprintf(err, errlen, "sender: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ret = nb_stream_open_send(&send_sock, &fd, err, errlen);
	if (ret < 0) {
		r->bad_input = ret == -EINVAL; /* the options' check; else the system refused */
		free(loc0);
		return ret;
	}
	if ((ret = nb_stream_pacing_setup(fd, NULL, &r->pacing, err, errlen)) < 0)
		goto out;
	if ((ret = agents_start(p, r, id, loc0, err, errlen)))
		goto out;
	nb_stream_local_sysinfo(&send_sock, &r->local);
	send_opts_fill(p, r, fd, id, &so);
	if (p->observe && p->observe->n && (ret = observers_start(p, r, &obs, &so, err, errlen)))
		goto out;
	if (cb && cb->started)
		cb->started(cb->arg, p, r);
	ret = nb_stream_send_run(&so, r->sent);
	if (obs) {
		int oret = nb_stream_obs_finish(obs, r->obs, r->obs_lag_ns, err, errlen);
		obs = NULL;
		if (oret && ret >= 0) {
			ret = oret;
			goto out;
		}
	}
	if (ret < 0) {
		snprintf(err, errlen, "sending: %s", strerror(-ret));
		goto out;
	}
	r->nsent = p->nrates;
	/* What each step's window cost the DUT per frame and per byte sent: decided once here. */
	for (size_t i = 0; i < r->nobs && i < r->nsent; i++)
		nb_obs_trial_cost(p->observe, &r->obs[i], NB_OBS_FRAMES_EGRESS, r->sent[i].bytes,
				  0);
	nb_sleep_until_ns(nb_mono_ns() + DRAIN_NS);
	if ((ret = agents_finish(p, r, err, errlen)))
		goto out;
	r->interrupted = p->stop && *p->stop;
	ret = 0;
out:
	free(loc0);
	if (obs)
		nb_stream_obs_finish(obs, r->obs, NULL, why,
				     sizeof(why)); /* the first failure stands */
	close(fd);
	return ret;
}

/* The sending agent stopped: what it sent and how it paced, reconciled with what arrived. */
static int sender_finish(const struct nb_stream_params *p, struct nb_stream_ctl_result *r,
			 struct nb_stream_ctl_agent *a, char *err, size_t errlen)
{
	char why[512];
	int ret, nsent;

	if ((ret = nb_ctl_stop(a->ctl, a->msg, CTL_TIMEOUT, why, sizeof(why))) < 0) {
		agent_fail(a, ret, why, err, errlen);
		return ret;
	}
	nsent = nb_stream_sent_get(a->msg, r->sent, p->nrates);
	if (nsent >= 0 && nb_stream_pacing_get(a->msg, &r->pacing) < 0)
		nsent = -EBADMSG;
	if (nsent < 0)
		return agent_fail(a, -EBADMSG, "counters: Bad message", err, errlen);
	r->nsent = (size_t)nsent;
	reconcile(r->rx, r->sent, r->nsent);
	return 0;
}

static int run_reverse(const struct nb_stream_params *p, struct nb_stream_ctl_result *r,
		       const struct nb_stream_ctl_cb *cb, char *err, size_t errlen)
{
	struct nb_stream_ctl_agent *a = &r->agents[0];
	struct nb_stream_recv *rv = NULL;
	struct nb_stream_sock_opts recv_sock;
	struct nb_stream_req req;
	struct nb_cpu_sample *loc0 = NULL;
	char why[512];
	int fd = -1, ret;

	fill_req(p, &req, NB_STREAM_AGENT_SEND, nb_stream_random_id());
	/* The local socket is checked before the agent is asked, so that bad input is named
	 * here; only "this host" needs the control connection's family first. The agent sends
	 * once started, and the socket is ready before that. */
	recv_sock = p->sock;
	if (p->to_controller) {
		if ((ret = agent_open(a, p, &p->agents[0], &req, err, errlen)))
			return ret;
		recv_sock.addr = a->ctl->local.ss_family == AF_INET6 ? "::" : "0.0.0.0";
	}
	ret = nb_stream_open_recv(&recv_sock, &fd, err, errlen);
	if (ret < 0) {
		r->bad_input = ret == -EINVAL; /* the options' check; else the system refused */
		return ret;
	}
	if (!p->to_controller && (ret = agent_open(a, p, &p->agents[0], &req, err, errlen)))
		goto out;
	if (nb_stream_recv_new(&rv, fd) < 0 || nb_stream_rx_new(&r->rx) < 0) {
		snprintf(err, errlen, "receiver: %s", strerror(ENOMEM));
		ret = -ENOMEM;
		goto out;
	}
	nb_stream_local_sysinfo(&p->sock, &r->local);
	rv->end_mono_ns = nb_mono_ns() + (p->time_ns + p->omit_ns) * p->nrates + 5 * NB_NS_PER_S;
	rv->idle_ns = p->idle_ns;
	rv->stop_on_fin = true;
	rv->ext_stop = p->stop;
	if (p->profile_hz && (ret = nb_stream_recv_profile(rv, p->profile_hz, err, errlen)) < 0)
		goto out;
	if (!(loc0 = malloc(sizeof(*loc0)))) {
		ret = -ENOMEM;
		snprintf(err, errlen, "receiver: %s", strerror(ENOMEM));
		goto out;
	}
	baseline_local(r, loc0);
	if ((ret = nb_ctl_start(a->ctl, why, sizeof(why))) < 0) {
		agent_fail(a, ret, why, err, errlen);
		goto out;
	}
	baseline_agent(a, loc0);
	if (cb && cb->started)
		cb->started(cb->arg, p, r);
	if (p->interval_ns && p->on_interval) {
		struct nb_stream_iv w = {
		    .interval_ns = p->interval_ns, .fn = p->on_interval, .arg = p->interval_arg};
		ret = nb_stream_recv_run_intervals(rv, &w);
	} else
		ret = nb_stream_recv_run(rv);
	if (ret < 0) {
		snprintf(err, errlen, "receiving: %s", strerror(-ret));
		goto out;
	}
	nb_stream_recv_copy(rv, r->rx);
	for (size_t i = 0; i < NB_STREAM_MAX_STEPS; i++) {
		r->prof[i] = rv->prof_step[i];
		rv->prof_step[i] = NULL;
	}
	if ((ret = sender_finish(p, r, a, err, errlen)))
		goto out;
	r->interrupted = p->stop && *p->stop;
	cpu_peers(r, &r->rx);
	ret = 0;
out:
	free(loc0);
	nb_stream_recv_free(rv);
	if (fd >= 0)
		close(fd);
	return ret;
}

int nb_stream_ctl_run(const struct nb_stream_params *p, const struct nb_stream_ctl_cb *cb,
		      struct nb_stream_ctl_result **out, char *err, size_t errlen)
{
	struct nb_stream_ctl_result *r = calloc(1, sizeof(*r));

	*out = r;
	if (r) {
		r->nagents = p->nagents;
		r->pacing = p->pacing;
		for (size_t i = 0; i < p->nagents; i++)
			r->agents[i].host = p->agents[i].host;
		r->sent = calloc(p->nrates ? p->nrates : 1, sizeof(*r->sent));
	}
	if (!r || !r->sent) {
		snprintf(err, errlen, "%s: %s", p->reverse ? "receiver" : "sender",
			 strerror(ENOMEM));
		return -ENOMEM;
	}
	return p->reverse ? run_reverse(p, r, cb, err, errlen) : run_forward(p, r, cb, err, errlen);
}

void nb_stream_ctl_result_free(struct nb_stream_ctl_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nagents; i++) {
		struct nb_stream_ctl_agent *a = &r->agents[i];
		nb_ctl_free(a->ctl);
		nb_msg_free(a->msg);
		nb_stream_rx_free(a->rx);
		free(a->mark0);
		free(a->mark1);
		free(a->base0);
		for (size_t k = 0; k < NB_STREAM_MAX_STEPS; k++)
			free(a->prof[k]);
	}
	for (size_t k = 0; k < NB_STREAM_MAX_STEPS; k++)
		free(r->prof[k]);
	nb_stream_rx_free(r->rx);
	free(r->sent);
	for (size_t i = 0; i < r->nobs; i++)
		nb_obs_trial_free(&r->obs[i]);
	free(r->obs);
	free(r->obs_lag_ns);
	free(r);
}
