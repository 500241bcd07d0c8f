/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's end of `netbench rate`: a counting receiver bound on the agent's address (the
 * control connection's, or one the controller names that the agent owns). What it sends,
 * reflected probes (round-trip latency, at a bounded rate) and with --bidir the reverse
 * direction (rate_agent_rev.c), goes by the target rule only to the controller; the caps check
 * bounds each trial's duration and rate (with --bidir, both directions' sum). */
#include "core/rate/rate_agent.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/net.h"
#include "core/rate/flows.h"
#include "core/rate/frame.h"
#include "core/base/timeutil.h"
#include "core/rate/rate_agent_rev.h"

struct rate_agent {
	struct nb_rx *rx; /* opened at START, not at the request: a request holds no port */
	struct nb_rx_snap *snap;
	uint64_t rate_bps, duration_ns;
	uint16_t port;
	struct nb_rate_rev *rev; /* --bidir: the reverse direction's generator, or NULL */
	/* The receiver the request asked for, checked at the request, opened at START. */
	struct sockaddr_storage where, reflect_to;
	uint32_t count, pcount, fmax, rport, rpps, trial;
	bool no_mmsg;
};

void nb_rate_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static void rate_free(void *state)
{
	struct rate_agent *r = state;
	if (!r)
		return;
	nb_rate_rev_free(r->rev);
	nb_rx_free(r->rx);
	free(r->snap);
	free(r);
}

static int get_addr(const struct nb_msg *req, uint16_t tag, struct sockaddr_storage *ss)
{
	const uint8_t *addr;
	size_t alen;

	if (nb_msg_get_bytes(req, tag, &addr, &alen))
		return -ENOENT;
	memset(ss, 0, sizeof(*ss));
	if (alen == 4) {
		ss->ss_family = AF_INET;
		memcpy(&((struct sockaddr_in *)ss)->sin_addr, addr, 4);
	} else if (alen == 16) {
		ss->ss_family = AF_INET6;
		memcpy(&((struct sockaddr_in6 *)ss)->sin6_addr, addr, 16);
	} else {
		return -EINVAL;
	}
	return 0;
}

/* An address given as bytes carries no link: a link-local one is on the control connection's. */
static void copy_scope(struct sockaddr_storage *ss, const struct sockaddr_storage *like)
{
	if (ss->ss_family == AF_INET6 && like->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_scope_id =
		    ((const struct sockaddr_in6 *)like)->sin6_scope_id;
}

/* The request's duration, rate, port, trial and options; the caps, and with --bidir the
 * reverse direction (the caps judge both directions together, the target rule the
 * reverse's). */
static int request_read(const struct nb_agent_ctx *ctx, const struct nb_msg *req,
			struct rate_agent *r, uint32_t *port, char *err, size_t errlen)
{
	uint32_t no_mmsg = 0;
	int ret;

	if (nb_msg_get_u64(req, NB_T_DURATION_NS, &r->duration_ns) ||
	    nb_msg_get_u64(req, NB_T_RATE_BPS, &r->rate_bps) ||
	    nb_msg_get_u32(req, NB_T_PORT, port) || !*port || *port > 65535) {
		snprintf(err, errlen, "malformed rate request");
		return -EINVAL;
	}
	(void)nb_msg_get_u32(req, NB_T_RATE_NO_MMSG, &no_mmsg);
	r->no_mmsg = no_mmsg != 0;
	/* The trial whose frames count (absent from older controllers: the first to arrive). */
	if (nb_msg_get_u32(req, NB_T_RATE_TRIAL, &r->trial) == 0 &&
	    (!r->trial || r->trial > 0xffff)) {
		snprintf(err, errlen, "malformed rate request: trial id %u (1 to 65535)", r->trial);
		return -EINVAL;
	}
	if ((ret = nb_agent_check_caps(ctx, r->duration_ns, r->rate_bps, err, errlen)))
		return ret;
	return nb_rate_rev_setup(ctx, req, (uint16_t)r->trial, r->duration_ns, r->rate_bps, &r->rev,
				 err, errlen);
}

/* The receive address (r->where) and how many addresses from it (r->count). */
static int receive_addr(const struct nb_agent_ctx *ctx, const struct nb_msg *req,
			struct rate_agent *r, char *err, size_t errlen)
{
	int ret;

	r->where = ctx->local;
	ret = get_addr(req, NB_T_RATE_ADDR, &r->where);
	if (ret == -EINVAL) {
		snprintf(err, errlen, "malformed receive address in rate request");
		return ret;
	}
	if (nb_msg_get_u32(req, NB_T_RATE_ADDR_COUNT, &r->count) == 0 &&
	    (ret != 0 || !r->count || r->count > NB_RX_FLOWS)) {
		snprintf(err, errlen,
			 "malformed rate request: %u destination addresses (1 to %u, from an "
			 "address given)",
			 r->count, NB_RX_FLOWS);
		return -EINVAL;
	}
	if (r->count > 1) {
		/* Flows by destination address: a range of this host's own addresses (the
		 * kernel routes each one here), received on the wildcard address of the port,
		 * which takes only datagrams to this host's addresses. */
		copy_scope(&r->where, &ctx->local);
		return nb_flow_dst_owned(&r->where, r->count, err, errlen);
	}
	/* The receiver takes the control connection's own address and an unprivileged port,
	 * never a wildcard, a group, another local address or a port shared with a service. */
	if (ret == 0) {
		copy_scope(&r->where, &ctx->local);
		if (!nb_net_same_host((struct sockaddr *)&r->where,
				      (const struct sockaddr *)&ctx->local)) {
			char a[64], b[64];
			nb_net_addr_str((struct sockaddr *)&r->where, false, a, sizeof(a));
			nb_net_addr_str((const struct sockaddr *)&ctx->local, false, b, sizeof(b));
			snprintf(err, errlen,
				 "refused by rule bind: the receiver binds only to the control "
				 "connection's address %s, not %s",
				 b, a);
			return -EPERM;
		}
		r->where = ctx->local;
	}
	return 0;
}

/* The receive port, the flows (r->fmax) and the ports from it (r->pcount). */
static int receive_ports(const struct nb_msg *req, struct rate_agent *r, uint32_t port, char *err,
			 size_t errlen)
{
	if (port < 1024) {
		snprintf(err, errlen,
			 "refused by rule bind: receive port %u is privileged (1024 to 65535)",
			 port);
		return -EPERM;
	}
	/* Past 1024 flows: the receiver's windows take 128 bytes a flow, so 65,536 at most
	 * (8 MB); without probes to reflect the flow id's top bit is the flow's. */
	if (nb_msg_get_u32(req, NB_T_RATE_FLOWS_MAX, &r->fmax) == 0 &&
	    (!r->fmax || r->fmax > NB_GEN_MAX_FLOWS)) {
		snprintf(err, errlen, "malformed rate request: %u flows (1 to %u)", r->fmax,
			 NB_GEN_MAX_FLOWS);
		return -EINVAL;
	}
	if (nb_msg_get_u32(req, NB_T_RATE_PORT_COUNT, &r->pcount) == 0 &&
	    (!r->pcount || r->pcount > NB_RX_FLOWS || port + (uint64_t)r->pcount - 1 > 65535)) {
		snprintf(err, errlen,
			 "malformed rate request: %u destination ports from %u (1 to %u, up to "
			 "65535)",
			 r->pcount, port, NB_RX_FLOWS);
		return -EINVAL;
	}
	/* A range of addresses with a range of ports is received on the ports' wildcard
	 * address, which takes each port on every address of this host: no more of them than
	 * the flows a run may have (65,536) can need. */
	if (r->count > 1 && r->pcount > 1 && (uint64_t)r->count * r->pcount > NB_GEN_MAX_FLOWS) {
		snprintf(err, errlen,
			 "refused by rule flows: %u destination addresses x %u destination ports "
			 "are %llu flows, more than a run has (%u): the ports would be held on "
			 "every address of this host for nothing",
			 r->count, r->pcount, (unsigned long long)r->count * r->pcount,
			 NB_GEN_MAX_FLOWS);
		return -EPERM;
	}
	return 0;
}

/* Where reflected probes go (r->reflect_to, r->rport, r->rpps): the one thing this test sends,
 * only to the controller. */
static int reflect_read(const struct nb_agent_ctx *ctx, const struct nb_msg *req,
			struct rate_agent *r, char *err, size_t errlen)
{
	int ret;

	if (nb_msg_get_u32(req, NB_T_RATE_REFLECT_PORT, &r->rport))
		return 0;
	r->reflect_to = ctx->peer;
	ret = get_addr(req, NB_T_RATE_REFLECT_ADDR, &r->reflect_to);
	if (ret == 0)
		copy_scope(&r->reflect_to, &ctx->peer);
	if (ret == -EINVAL || !r->rport || r->rport > 65535) {
		snprintf(err, errlen, "malformed reflection address in rate request");
		return -EINVAL;
	}
	nb_net_set_port((struct sockaddr *)&r->reflect_to, (uint16_t)r->rport);
	if ((ret = nb_agent_check_target(ctx, (struct sockaddr *)&r->reflect_to, err, errlen)))
		return ret;
	(void)nb_msg_get_u32(req, NB_T_RATE_REFLECT_PPS, &r->rpps);
	if (r->fmax > NB_PAYLOAD_PROBE) {
		snprintf(err, errlen,
			 "%u flows with reflected probes: a probe is marked in the flow id's top "
			 "bit, so at most %u flows",
			 r->fmax, NB_PAYLOAD_PROBE);
		return -EINVAL;
	}
	return 0;
}

/* The receive address with its port (the wildcard for a range of addresses), and the
 * reflection address in its family. */
static int addresses_finish(struct rate_agent *r, uint32_t port, char *err, size_t errlen)
{
	if (r->count > 1)
		nb_flow_dst_any(&r->where);
	nb_net_set_port((struct sockaddr *)&r->where, (uint16_t)port);
	if (!r->rport)
		return 0;
	if (r->reflect_to.ss_family == AF_INET && r->where.ss_family == AF_INET6) {
		/* A dual-stack socket reaches an IPv4 controller at its mapped address. */
		struct sockaddr_in v4 = *(struct sockaddr_in *)&r->reflect_to;
		struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&r->reflect_to;
		memset(&r->reflect_to, 0, sizeof(r->reflect_to));
		v6->sin6_family = AF_INET6;
		v6->sin6_port = v4.sin_port;
		v6->sin6_addr.s6_addr[10] = 0xff;
		v6->sin6_addr.s6_addr[11] = 0xff;
		memcpy(&v6->sin6_addr.s6_addr[12], &v4.sin_addr, 4);
	}
	if (r->reflect_to.ss_family != r->where.ss_family) {
		snprintf(err, errlen, "reflection address and receive address differ in family");
		return -EINVAL;
	}
	return 0;
}

/* The ack: what the receiver takes, and what the reverse direction can do. */
static void ack_put(const struct rate_agent *r, struct nb_msg *ack)
{
	char boot[64];

	nb_rate_boot_id(boot, sizeof(boot));
	nb_msg_put_u32(ack, NB_T_PORT, r->port);
	if (r->count > 1)
		nb_msg_put_u32(ack, NB_T_RATE_ADDR_COUNT, r->count);
	if (r->pcount > 1)
		nb_msg_put_u32(ack, NB_T_RATE_PORT_COUNT, r->pcount);
	if (r->fmax > NB_RX_FLOWS)
		nb_msg_put_u32(ack, NB_T_RATE_FLOWS_MAX, r->fmax);
	nb_msg_put_str(ack, NB_T_RATE_BOOT_ID, boot);
	if (r->rev) {
		nb_msg_put_u32(ack, NB_T_RATE_REV_OK, 1);
		if (nb_rate_rev_has_mix(r->rev))
			nb_msg_put_u32(ack, NB_T_RATE_REV_MIX_OK, 1);
		if (nb_rate_rev_has_frames(r->rev))
			nb_msg_put_u32(ack, NB_T_RATE_REV_FRAMES_OK, 1);
		if (nb_rate_rev_engine(r->rev) != NB_RATE_REV_UDP)
			nb_msg_put_u32(ack, NB_T_RATE_REV_ENGINE_OK, nb_rate_rev_engine(r->rev));
	}
}

static int rate_setup(const struct nb_agent_ctx *ctx, const struct nb_msg *req, void **state,
		      struct nb_msg *ack, char *err, size_t errlen)
{
	struct rate_agent *r = calloc(1, sizeof(*r));
	uint32_t port = 0;
	int ret = -ENOMEM;

	if (!r || !(r->snap = calloc(1, sizeof(*r->snap))))
		goto fail;
	r->count = 1;
	r->pcount = 1;
	if ((ret = request_read(ctx, req, r, &port, err, errlen)) ||
	    (ret = receive_addr(ctx, req, r, err, errlen)) ||
	    (ret = receive_ports(req, r, port, err, errlen)) ||
	    (ret = reflect_read(ctx, req, r, err, errlen)) ||
	    (ret = addresses_finish(r, port, err, errlen)))
		goto fail;
	r->port = (uint16_t)port;
	ack_put(r, ack);
	*state = r;
	return 0;
fail:
	if (!err[0])
		snprintf(err, errlen, "rate setup: %s", strerror(-ret));
	rate_free(r);
	return ret;
}

/* START: the receiver's sockets, bound only now (a request left without START holds no
 * port), closed with the test (at STOP, its limit, or when the controller falls quiet). */
static int rx_open(struct rate_agent *r, char *err, size_t errlen)
{
	struct sockaddr_storage where = r->where;
	char astr[64];
	int fd, ret;

	nb_net_addr_str((struct sockaddr *)&where, true, astr, sizeof(astr));
	if (r->pcount > 1) {
		/* Flows by destination port: one socket a port of the range (none shared),
		 * read by one thread. */
		int *fds = calloc(r->pcount, sizeof(int));
		ret = fds ? nb_rx_bind_ports((struct sockaddr *)&where, r->pcount, fds) : -ENOMEM;
		if (ret < 0) {
			snprintf(err, errlen,
				 "agent cannot receive on %s and the %u ports after it: %s", astr,
				 r->pcount - 1, strerror(-ret));
			free(fds);
			return ret;
		}
		ret = nb_rx_new_ports(&r->rx, fds, r->pcount, 1, r->no_mmsg);
		free(fds);
		if (ret) {
			snprintf(err, errlen, "receiver: %s", strerror(-ret));
			return ret;
		}
		goto bound;
	}
	fd = socket(where.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "receiver socket: %s", strerror(errno));
		return ret;
	}
	if (where.ss_family == AF_INET6 && r->count > 1) {
		int one = 1; /* the IPv6 range only, not every IPv4 address too */
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	}
	/* Every trial binds the same port again (the controller's generator stays connected);
	 * UDP needs no SO_REUSEADDR for that, and without it no other socket shares the port. */
	if (bind(fd, (struct sockaddr *)&where, nb_net_sa_len((struct sockaddr *)&where)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "agent cannot receive on %s: %s", astr, strerror(errno));
		close(fd);
		return ret;
	}
	if ((ret = nb_rx_new(&r->rx, fd, r->no_mmsg))) {
		snprintf(err, errlen, "receiver: %s", strerror(-ret));
		return ret;
	}
bound:
	if (r->fmax > NB_RX_FLOWS && (ret = nb_rx_set_flows(r->rx, r->fmax, !r->rport))) {
		snprintf(err, errlen, "receiver for %u flows: %s", r->fmax, strerror(-ret));
		return ret;
	}
	if (r->rport)
		nb_rx_reflect(r->rx, (struct sockaddr *)&r->reflect_to, r->rpps);
	if (r->trial)
		nb_rx_expect(r->rx, (uint16_t)r->trial);
	return 0;
}

static int rate_start(void *state, char *err, size_t errlen)
{
	struct rate_agent *r = state;
	int ret = rx_open(r, err, errlen);
	if (ret)
		return ret;
	ret = nb_rx_start(r->rx);
	if (ret)
		snprintf(err, errlen, "receiver thread: %s", strerror(-ret));
	if (!ret && r->rev)
		ret = nb_rate_rev_start(r->rev, err, errlen);
	return ret;
}

static int rate_snapshot(void *state, struct nb_msg *snap)
{
	struct rate_agent *r = state;
	nb_rx_snapshot(r->rx, r->snap);
	return nb_rate_snap_put(snap, r->snap);
}

/* The controller waited for the trial's frames to drain before it sent STOP. */
static int rate_stop(void *state, struct nb_msg *final, char *err, size_t errlen)
{
	struct rate_agent *r = state;
	int ret;
	nb_rx_snapshot(r->rx, r->snap);
	ret = nb_rate_snap_put(final, r->snap);
	if (!ret && r->rev)
		ret = nb_rate_rev_finish(r->rev, final);
	if (ret == -EMSGSIZE)
		snprintf(err, errlen,
			 "the counts of %u flows do not fit one reply, even as runs of equal "
			 "counts: fewer flows, or a local receiver",
			 r->snap->flows);
	else if (ret)
		snprintf(err, errlen, "rate counters do not fit the reply: %s", strerror(-ret));
	return ret;
}

static void rate_describe(void *state, char *buf, size_t len)
{
	struct rate_agent *r = state;
	int n =
	    snprintf(buf, len, "receiver on port %u, %llu frames, %llu probes reflected", r->port,
		     (unsigned long long)r->snap->rx, (unsigned long long)r->snap->reflected);
	if (r->rev && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", reverse direction %llu frames sent",
			 (unsigned long long)nb_rate_rev_sent(r->rev));
}

const struct nb_test_ops nb_rate_ops = {
    .type = NB_TEST_RATE,
    .name = "rate",
    .setup = rate_setup,
    .start = rate_start,
    .snapshot = rate_snapshot,
    .stop = rate_stop,
    .free = rate_free,
    .describe = rate_describe,
};
