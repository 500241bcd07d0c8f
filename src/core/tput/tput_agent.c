/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's end of a tput test: accepts the controller's data connections (TCP) or opens the
 * UDP sockets, then receives, sends or both, and reports counters at every mark. Asked for a
 * profile, it takes this host's kernel profile between the marks that open and close the window
 * (the edges of its CPU samples) and sends it with the final counters. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/session/agent.h"
#include "core/session/auth.h"
#include "core/base/net.h"
#include "core/base/tcpcc.h"
#include "core/base/timeutil.h"
#include "core/tput/tput.h"
#include "core/tput/tput_plan.h"
#include "core/tput/tput_wire.h"
#include "core/base/wirecost.h"
#include "core/profile/prof.h"

#define ACCEPT_MS 5000
/* After STOP, receivers drain while bytes still arrive, none for DRAIN_NS ending it, at most
 * DRAIN_MAX_NS (a slow board reads a full socket buffer for seconds); the controller waits
 * 15 s for the answer, and its own wait before STOP and this stay inside the 10 s grace. */
#define DRAIN_NS	  (900 * NB_NS_PER_MS)
#define DRAIN_MAX_NS	  (5 * NB_NS_PER_S)
#define DEADLINE_GRACE_NS (2 * NB_NS_PER_S)

struct tput_agent {
	uint32_t proto, block, streams, dir, cookie;
	uint64_t rate_bps, duration_ns;
	uint32_t pacing, burst;
	char congestion[NB_TCPCC_NAME_MAX]; /* "": the kernel's default */
	int data_fd;			    /* TCP listener or UDP receive socket */
	struct sockaddr_storage peer, local;
	uint16_t udp_peer_port;
	struct nb_tput_side *rx, *tx;
	struct nb_prof *prof; /* with a profile asked for */
	bool prof_on, prof_done;
};

static void tput_free(void *state)
{
	struct tput_agent *t = state;
	if (!t)
		return;
	nb_tput_side_free(t->rx);
	nb_tput_side_free(t->tx);
	nb_prof_free(t->prof);
	if (t->data_fd >= 0)
		close(t->data_fd);
	free(t);
}

/* A congestion control the controller asks for: TCP only, loaded here (the agent never makes
 * the kernel load a module for a peer's name), and in tcp_allowed_congestion_control unless
 * the agent was started with --allow-tuning. */
static int congestion_allowed(const struct nb_agent_ctx *ctx, uint32_t proto, const char *name,
			      char *err, size_t errlen)
{
	char allowed[256], avail[256];
	if (proto != NB_TPUT_TCP) {
		snprintf(err, errlen, "tput request: congestion control is TCP's");
		return -EINVAL;
	}
	if (nb_tcpcc_read_list(NB_TCPCC_ALLOWED, allowed, sizeof(allowed)) ||
	    nb_tcpcc_read_list(NB_TCPCC_AVAILABLE, avail, sizeof(avail))) {
		snprintf(err, errlen, "this agent's kernel does not list its congestion controls");
		return -ENOENT;
	}
	if (!nb_tcpcc_in_list(avail, name)) {
		snprintf(err, errlen,
			 "congestion control %s is not loaded on the agent (loaded: %s); it loads "
			 "no module for it",
			 name, avail);
		return -ENOENT;
	}
	if (!nb_tcpcc_in_list(allowed, name) && !ctx->policy->allow_tuning) {
		snprintf(err, errlen,
			 "refused by rule tuning: congestion control %s is outside the agent's "
			 "tcp_allowed_congestion_control (%s); one started with --allow-tuning "
			 "takes any loaded one (%s)",
			 name, allowed, avail);
		return -EPERM;
	}
	return 0;
}

/* The kernel profile the controller asks for: refused by --no-profile, the rate capped here
 * whatever is asked. A kernel that cannot be profiled is no refusal: the result says why. */
static int profile_open(const struct nb_agent_ctx *ctx, struct tput_agent *t, uint32_t hz,
			char *err, size_t errlen)
{
	char why[NB_PROF_WHY] = "";
	int ret;
	if (ctx->policy->no_profile) {
		snprintf(err, errlen,
			 "refused by rule profile: this agent was started with "
			 "--no-profile");
		return -EPERM;
	}
	if (hz > NB_PROF_HZ_MAX) {
		snprintf(err, errlen,
			 "refused by rule profile: %u Hz asked; this agent samples at 1 to %u Hz "
			 "per CPU",
			 hz, NB_PROF_HZ_MAX);
		return -EPERM;
	}
	ret = nb_prof_open(&t->prof, hz, NB_PROF_KIB_DEFAULT, 0, why, sizeof(why));
	if (ret == -EINVAL || ret == -ENOMEM) {
		snprintf(err, errlen, "kernel profile: %s", why);
		return ret;
	}
	return 0;
}

/* The agent sends: the caps apply to everything it sends, on the wire, and a UDP reverse test
 * goes to the controller's receive port (*port) by the target rule. The product of
 * peer-supplied numbers is bounded before it is used. */
static int send_check(const struct nb_agent_ctx *ctx, struct tput_agent *t,
		      const struct nb_tput_request *rq, uint32_t *port, char *err, size_t errlen)
{
	int ret;

	uint64_t total = 0;
	bool v6 = ctx->local.ss_family == AF_INET6;
	uint32_t pkt, over;
	nb_tput_wire_shape((enum nb_tput_proto)t->proto, t->block, v6, &pkt, &over);
	if (t->rate_bps && !nb_mul_u64(t->rate_bps, t->streams, &total)) {
		snprintf(err, errlen,
			 "refused by rule max-rate: %u streams at %llu bit/s do not fit 64 bits",
			 t->streams, (unsigned long long)t->rate_bps);
		return -EPERM;
	}
	if ((ret = nb_agent_check_send(ctx, t->duration_ns, total, pkt, over, err, errlen)))
		return ret;
	if (t->proto == NB_TPUT_UDP) {
		struct sockaddr_storage dst = t->peer;
		*port = rq->udp_port;
		if (!*port || *port > 65535) {
			snprintf(err, errlen, "UDP reverse test without a receive port");
			return -EINVAL;
		}
		t->udp_peer_port = (uint16_t)*port;
		nb_net_set_port((struct sockaddr *)&dst, t->udp_peer_port);
		if ((ret = nb_agent_check_target(ctx, (struct sockaddr *)&dst, err, errlen)))
			return ret;
	}
	return 0;
}

/* The data socket: TCP's listener, or UDP's receiver; its port (*port) goes in the ack. */
static int data_socket_open(struct tput_agent *t, uint32_t *port, char *err, size_t errlen)
{
	int ret;

	t->data_fd = nb_net_bind_like((struct sockaddr *)&t->local,
				      t->proto == NB_TPUT_TCP ? SOCK_STREAM : SOCK_DGRAM, 0);
	if (t->data_fd < 0) {
		ret = t->data_fd;
		snprintf(err, errlen, "cannot open a data socket: %s", strerror(-ret));
		return ret;
	}
	/* On the listener, so that each connection starts with it (tput_run.c says why). */
	if (t->congestion[0] && (ret = nb_tcpcc_set(t->data_fd, t->congestion))) {
		snprintf(err, errlen, "cannot use congestion control %s: %s", t->congestion,
			 strerror(-ret));
		return ret;
	}
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	getsockname(t->data_fd, (struct sockaddr *)&ss, &len);
	*port = nb_net_port((struct sockaddr *)&ss);
	return 0;
}

static int tput_setup(const struct nb_agent_ctx *ctx, const struct nb_msg *req, void **state,
		      struct nb_msg *ack, char *err, size_t errlen)
{
	struct tput_agent *t = calloc(1, sizeof(*t));
	struct nb_tput_request rq;
	uint32_t port = 0;
	int ret = -ENOMEM;

	if (!t)
		return ret;
	t->data_fd = -1;
	ret = -EINVAL;
	if (nb_tput_get_request(req, &rq)) {
		snprintf(err, errlen, "malformed tput request");
		goto fail;
	}
	t->proto = rq.proto;
	t->block = rq.block;
	t->streams = rq.streams;
	t->dir = rq.dir;
	t->rate_bps = rq.rate_bps;
	t->duration_ns = rq.duration_ns;
	t->pacing = rq.pacing;
	t->burst = rq.burst;
	memcpy(t->congestion, rq.congestion, sizeof(t->congestion));
	if (t->pacing > NB_PACING_TXTIME || t->burst > NB_PACER_MAX_BURST) {
		snprintf(err, errlen, "tput request: pacing out of range");
		goto fail;
	}
	if (t->proto > NB_TPUT_UDP || t->streams < 1 || t->streams > NB_TPUT_MAX_STREAMS / 2 ||
	    t->dir < 1 || t->dir > 3 || t->block < 1 || t->block > NB_TPUT_MAX_BLOCK ||
	    (t->proto == NB_TPUT_UDP &&
	     (t->block < NB_TPUT_UDP_HDR || t->block > NB_TPUT_UDP_MAX))) {
		snprintf(err, errlen,
			 "tput request out of range (block %u, streams %u, direction %u)", t->block,
			 t->streams, t->dir);
		goto fail;
	}
	if (t->congestion[0] &&
	    (ret = congestion_allowed(ctx, t->proto, t->congestion, err, errlen)))
		goto fail;
	if (rq.profile_hz && (ret = profile_open(ctx, t, rq.profile_hz, err, errlen)))
		goto fail;
	memcpy(&t->peer, &ctx->peer, sizeof(t->peer));
	memcpy(&t->local, &ctx->local, sizeof(t->local));
	if ((t->dir & NB_TPUT_DIR_RX) && (ret = send_check(ctx, t, &rq, &port, err, errlen)))
		goto fail;
	if ((t->proto == NB_TPUT_TCP || (t->dir & NB_TPUT_DIR_TX)) &&
	    (ret = data_socket_open(t, &port, err, errlen)))
		goto fail;
	if ((ret = nb_random_bytes(&t->cookie, sizeof(t->cookie))))
		goto fail;
	if ((ret = nb_tput_put_ack(ack, port, t->cookie)))
		goto fail;
	*state = t;
	return 0;
fail:
	tput_free(t);
	return ret;
}

static uint64_t deadline(const struct tput_agent *t)
{
	return nb_mono_ns() + t->duration_ns + DEADLINE_GRACE_NS;
}

/* Collects the controller's TCP data connections: each opens with cookie, stream, direction.
 * One is taken per stream and planned direction, and no more: the caps were judged on
 * t->streams senders, so a duplicate or unplanned connection that knows the cookie (only the
 * controller does) refuses the whole test. */
static int accept_streams(struct tput_agent *t, char *err, size_t errlen)
{
	uint32_t want = t->streams * ((t->dir & 1) + ((t->dir >> 1) & 1)), got = 0;
	uint64_t until = nb_mono_ns() + (uint64_t)ACCEPT_MS * NB_NS_PER_MS, seen[2] = {0, 0};

	while (got < want) {
		struct pollfd p = {.fd = t->data_fd, .events = POLLIN};
		struct sockaddr_storage from;
		socklen_t flen = sizeof(from);
		uint8_t hdr[NB_TPUT_CONN_HDR];
		uint64_t now = nb_mono_ns();
		uint32_t cookie, stream, dir;
		ssize_t n;
		int fd, ret;
		if (now >= until || poll(&p, 1, (int)((until - now) / NB_NS_PER_MS) + 1) <= 0) {
			snprintf(err, errlen, "only %u of %u data connections arrived", got, want);
			return -ETIMEDOUT;
		}
		fd = accept4(t->data_fd, (struct sockaddr *)&from, &flen, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		/* Data connections must come from the controller's host and know the cookie. */
		nb_net_set_timeout_ms(fd, SO_RCVTIMEO, 2000);
		n = nb_net_same_host((struct sockaddr *)&from, (struct sockaddr *)&t->peer)
			? recv(fd, hdr, sizeof(hdr), MSG_WAITALL)
			: -1;
		if (n < 0 || nb_tput_conn_hdr_get(hdr, (size_t)n, &cookie, &stream, &dir) ||
		    cookie != t->cookie) {
			close(fd);
			continue;
		}
		if ((ret =
			 nb_tput_conn_admit(t->streams, t->dir, seen, stream, dir, err, errlen))) {
			close(fd);
			return ret;
		}
		struct nb_tput_side *side = dir == NB_TPUT_DIR_TX ? t->rx : t->tx;
		if (nb_tput_side_add(side, fd, stream)) {
			close(fd);
			return -E2BIG;
		}
		got++;
	}
	return 0;
}

static int tput_start(void *state, char *err, size_t errlen)
{
	struct tput_agent *t = state;
	int ret = -ENOMEM;

	if (t->dir & NB_TPUT_DIR_TX) {
		t->rx = nb_tput_side_new(t->proto, NB_TPUT_RECV, t->block, 0, 0);
		if (!t->rx)
			return ret;
	}
	if (t->dir & NB_TPUT_DIR_RX) {
		t->tx =
		    nb_tput_side_new(t->proto, NB_TPUT_SEND, t->block, t->rate_bps, deadline(t));
		if (t->tx)
			nb_tput_side_pacing(t->tx, (enum nb_pacing_mode)t->pacing, t->burst);
		if (!t->tx)
			return ret;
	}
	if (t->proto == NB_TPUT_TCP) {
		if ((ret = accept_streams(t, err, errlen)))
			return ret;
	} else {
		if (t->rx) {
			if ((ret = nb_tput_side_add(t->rx, t->data_fd, 0)))
				return ret;
			t->data_fd = -1; /* owned by the side now */
		}
		for (uint32_t i = 0; t->tx && i < t->streams; i++) {
			struct sockaddr_storage dst = t->peer;
			int fd;
			nb_net_set_port((struct sockaddr *)&dst, t->udp_peer_port);
			fd = nb_net_connect_addr((struct sockaddr *)&dst,
						 nb_net_sa_len((struct sockaddr *)&dst), SOCK_DGRAM,
						 1000);
			if (fd < 0) {
				snprintf(err, errlen, "cannot open a UDP socket: %s",
					 strerror(-fd));
				return fd;
			}
			if ((ret = nb_tput_side_add(t->tx, fd, i))) {
				close(fd);
				return ret;
			}
		}
	}
	if (t->rx && (ret = nb_tput_side_start(t->rx)))
		return ret;
	if (t->tx && (ret = nb_tput_side_start(t->tx)))
		return ret;
	return 0;
}

static int put_counters(struct tput_agent *t, struct nb_msg *m)
{
	struct nb_tput_counters c;
	int ret = 0;
	if (t->rx) {
		nb_tput_side_read(t->rx, &c);
		ret = nb_tput_put_counters(m, NB_T_TPUT_AGENT_RX, &c);
	}
	if (!ret && t->tx) {
		nb_tput_side_read(t->tx, &c);
		ret = nb_tput_put_counters(m, NB_T_TPUT_AGENT_TX, &c);
		if (!ret)
			ret = nb_tput_put_pacing(m, &c);
		if (!ret)
			ret = nb_tput_put_tcp(m, &c);
		if (!ret)
			ret = nb_tput_put_cc(m, &c);
	}
	return ret;
}

static int tput_snapshot(void *state, struct nb_msg *snap)
{
	return put_counters(state, snap);
}

/* The profile starts right after the opening mark's CPU sample and stops right before the
 * closing one's, as the controller's own does around its samples. */
static void tput_edge(void *state, uint32_t edge, bool sampled)
{
	struct tput_agent *t = state;
	if (!t->prof)
		return;
	if (edge == NB_MARK_OPENS && sampled && !t->prof_on && !t->prof_done)
		t->prof_on = nb_prof_start(t->prof) == 0;
	else if (edge == NB_MARK_CLOSES && !sampled && t->prof_on) {
		nb_prof_stop(t->prof);
		t->prof_on = false;
		t->prof_done = true;
	}
}

/* The window's profile into the final answer; a window that never closed says so. */
static int put_profile(struct tput_agent *t, struct nb_msg *final)
{
	struct nb_prof_result *r = malloc(sizeof(*r));
	int ret;
	if (!r)
		return -ENOMEM;
	if (t->prof_on) {
		nb_prof_stop(t->prof);
		t->prof_on = false;
	}
	nb_prof_result(t->prof, r);
	if (r->available && !t->prof_done) {
		uint32_t hz = r->hz;
		memset(r, 0, sizeof(*r));
		r->hz = hz;
		snprintf(r->why, sizeof(r->why),
			 "the measurement window did not open and close on this agent");
	}
	ret = nb_prof_put(final, r);
	free(r);
	return ret;
}

static int tput_stop(void *state, struct nb_msg *final, char *err, size_t errlen)
{
	struct tput_agent *t = state;
	int ret = 0;
	if (t->tx)
		nb_tput_side_stop(t->tx, 0);
	/* The controller stopped its senders before STOP: receive what is still in flight. */
	if (t->rx && nb_tput_side_stop_slow(t->rx, DRAIN_NS, DRAIN_MAX_NS) == -ETIMEDOUT)
		nb_msg_put_str(final, NB_T_TEXT, "receive cut off: the sender did not finish");
	ret = put_counters(t, final);
	if (ret)
		snprintf(err, errlen, "cannot report counters: %s", strerror(-ret));
	if (!ret && t->prof && (ret = put_profile(t, final)))
		snprintf(err, errlen, "cannot report the kernel profile: %s", strerror(-ret));
	return ret;
}

/* The agent's max-time timer: senders and receivers end now (tput_stop follows). */
static void tput_halt(void *state)
{
	struct tput_agent *t = state;
	if (t->tx)
		nb_tput_side_halt(t->tx);
	if (t->rx)
		nb_tput_side_halt(t->rx);
}

static void tput_describe(void *state, char *buf, size_t len)
{
	const struct tput_agent *t = state;
	struct nb_tput_counters rx = {0}, tx = {0};
	if (t->rx)
		nb_tput_side_read(t->rx, &rx);
	if (t->tx)
		nb_tput_side_read(t->tx, &tx);
	snprintf(buf, len, "%s %s, %u-byte blocks, %u stream%s, %llu bytes in, %llu bytes out",
		 t->proto == NB_TPUT_UDP ? "udp" : "tcp",
		 t->dir == 3		    ? "bidir"
		 : t->dir == NB_TPUT_DIR_TX ? "tx"
					    : "rx",
		 t->block, t->streams, t->streams > 1 ? "s" : "", (unsigned long long)rx.bytes,
		 (unsigned long long)tx.bytes);
}

const struct nb_test_ops nb_tput_ops = {
    .describe = tput_describe,
    .type = NB_TEST_TPUT,
    .name = "tput",
    .setup = tput_setup,
    .start = tput_start,
    .snapshot = tput_snapshot,
    .stop = tput_stop,
    .free = tput_free,
    .halt = tput_halt,
    .edge = tput_edge,
};
