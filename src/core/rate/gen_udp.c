/* SPDX-License-Identifier: BSD-2-Clause */
/* The `udp` engine: one connected UDP socket per flow (distinct source ports), frames sent in
 * sendmmsg batches. Kernels older than 3.0 (and seccomp sandboxes) answer sendmmsg with
 * ENOSYS: the engine then falls back to one sendmsg per frame and says so in its description. */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/compat.h"
#include "core/base/net.h"
#include "core/rate/flows.h"
#include "core/rate/frame.h"
#include "core/rate/gen.h"
#include "core/rate/mix.h"
#include "core/base/timeutil.h"

struct udp_state {
	int *fd;
	uint32_t flows, flow_base, batch;
	size_t payload_bytes;
	uint16_t trial;
	uint32_t probe_every;
	bool mmsg, mmsg_enosys;
	uint8_t *buf; /* batch payloads, slot_bytes apart */
	size_t slot_bytes;
	struct iovec *iov;
	struct mmsghdr *msgs;
	const struct nb_mix *mix; /* frames of a mix (NULL: one size) */
	uint16_t *mix_payload;	  /* payload bytes at each pattern position */
	uint32_t mix_len;	  /* 0: one size */
};

static void udp_close(void *p)
{
	struct udp_state *s = p;
	if (!s)
		return;
	for (uint32_t i = 0; s->fd && i < s->flows; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	free(s->fd);
	free(s->buf);
	free(s->iov);
	free(s->msgs);
	free(s->mix_payload);
	free(s);
}

static int udp_open(const struct nb_gen_cfg *cfg, void **state, char *err, size_t errlen)
{
	struct udp_state *s = calloc(1, sizeof(*s));
	int ret = -ENOMEM, family = cfg->dst.ss_family;
	int sndbuf = 4 << 20;

	if (!s)
		goto fail;
	s->flows = cfg->flows ? cfg->flows : 1;
	s->flow_base = cfg->flow_base;
	s->batch = cfg->batch ? cfg->batch : 32;
	s->mmsg = !cfg->no_mmsg;
	s->fd = malloc(s->flows * sizeof(int));
	s->slot_bytes = cfg->frame_max_bytes ? cfg->frame_max_bytes : NB_FRAME_MAX;
	s->buf = calloc(s->batch, s->slot_bytes);
	s->iov = calloc(s->batch, sizeof(*s->iov));
	s->msgs = calloc(s->batch, sizeof(*s->msgs));
	if (!s->fd || !s->buf || !s->iov || !s->msgs)
		goto fail;
	for (uint32_t i = 0; i < s->flows; i++)
		s->fd[i] = -1;
	{
		/* One socket a flow: thousands need more than the usual soft descriptor limit
		 * (raised as far as the hard one allows; socket() says EMFILE beyond). */
		struct rlimit rl;
		rlim_t need = (rlim_t)cfg->flow_base + s->flows + 256;
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
		    rl.rlim_cur < need) {
			rl.rlim_cur =
			    rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
			(void)setrlimit(RLIMIT_NOFILE, &rl);
		}
	}
	for (uint32_t i = 0; i < s->flows; i++) {
		struct sockaddr_storage src;
		int fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			ret = -errno;
			snprintf(err, errlen, "udp engine: socket for flow %u: %s%s", i,
				 strerror(errno),
				 errno == EMFILE ? " (one socket a flow: raise ulimit -n, or use "
						   "--engine packet)"
						 : "");
			goto fail;
		}
		s->fd[i] = fd;
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
		if (cfg->sport_base) {
			uint32_t port = cfg->sport_base + cfg->flow_base + i;
			if (port > 65535) {
				ret = -ERANGE;
				snprintf(err, errlen, "udp engine: source port %u is past 65535",
					 port);
				goto fail;
			}
			memset(&src, 0, sizeof(src));
			src.ss_family = (sa_family_t)family;
			if (family == AF_INET6)
				((struct sockaddr_in6 *)&src)->sin6_port = htons((uint16_t)port);
			else
				((struct sockaddr_in *)&src)->sin_port = htons((uint16_t)port);
			if (bind(fd, (struct sockaddr *)&src, sizeof(src)) < 0) {
				ret = -errno;
				snprintf(err, errlen, "udp engine: source port %u: %s", port,
					 strerror(errno));
				goto fail;
			}
		}
		struct sockaddr_storage dst = cfg->dst;
		if (cfg->dst_spread) /* flow f to the receiver's address + f */
			nb_flow_addr_add(&dst, cfg->flow_base + i);
		if (cfg->dport_spread) /* and/or its port + f */
			nb_net_set_port((struct sockaddr *)&dst,
					(uint16_t)(nb_net_port((const struct sockaddr *)&cfg->dst) +
						   cfg->flow_base + i));
		if (connect(fd, (const struct sockaddr *)&dst, cfg->dst_len) < 0) {
			ret = -errno;
			snprintf(err, errlen, "udp engine: cannot reach the destination: %s",
				 strerror(errno));
			goto fail;
		}
	}
	*state = s;
	return 0;
fail:
	if (!s)
		snprintf(err, errlen, "udp engine: out of memory");
	udp_close(s);
	return ret;
}

static int udp_prepare(void *p, uint32_t frame_bytes, uint16_t trial, uint32_t probe_every)
{
	struct udp_state *s = p;
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int family = AF_INET;

	if (getsockname(s->fd[0], (struct sockaddr *)&ss, &len) == 0)
		family = ss.ss_family;
	s->payload_bytes = nb_frame_payload_bytes(family, frame_bytes);
	if (!s->payload_bytes || frame_bytes > s->slot_bytes)
		return -EMSGSIZE;
	s->mix_len = 0;
	if (s->mix) {
		uint16_t *pl = realloc(s->mix_payload, s->mix->plen * sizeof(*pl));
		if (!pl)
			return -ENOMEM;
		s->mix_payload = pl;
		for (uint32_t k = 0; k < s->mix->plen; k++) {
			uint32_t b = s->mix->bytes[s->mix->pattern[k]];
			pl[k] = (uint16_t)nb_frame_payload_bytes(family, b);
			if (!pl[k] || b > s->slot_bytes)
				return -EMSGSIZE;
		}
		s->mix_len = s->mix->plen;
	}
	s->trial = trial;
	s->probe_every = probe_every;
	memset(s->buf, 0, (size_t)s->batch * s->slot_bytes);
	for (uint32_t i = 0; i < s->batch; i++) {
		s->iov[i].iov_base = s->buf + (size_t)i * s->slot_bytes;
		s->iov[i].iov_len = s->payload_bytes;
		memset(&s->msgs[i], 0, sizeof(s->msgs[i]));
		s->msgs[i].msg_hdr.msg_iov = &s->iov[i];
		s->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	return 0;
}

/* Errors that mean "this datagram did not go, try again": a full device queue, or an ICMP
 * error from an earlier datagram reported on this connected socket. */
static bool transient(int e)
{
	return e == ENOBUFS || e == EAGAIN || e == ECONNREFUSED || e == EHOSTUNREACH ||
	       e == ENETUNREACH || e == EINTR;
}

static int udp_send(void *p, uint32_t flow, uint32_t first_seq, uint32_t n)
{
	struct udp_state *s = p;
	uint64_t now = nb_mono_ns();
	int fd = s->fd[flow];
	int sent = 0;
	uint32_t id = s->flow_base + flow; /* the flow's number in the trial */

	if (n > s->batch)
		n = s->batch;
	/* A mix: each frame's length from its position in the pattern (one size: set once, in
	 * prepare, and nothing here). */
	for (uint32_t i = 0; s->mix_len && i < n; i++)
		s->iov[i].iov_len = s->mix_payload[(first_seq + i) % s->mix_len];
	for (uint32_t i = 0; i < n; i++) {
		struct nb_payload pl = {.flow = (uint16_t)id,
					.probe = nb_probe_due(id, first_seq + i, s->probe_every),
					.trial = s->trial,
					.seq = first_seq + i,
					.tx_ns = now};
		nb_payload_put(s->iov[i].iov_base, &pl);
	}
	if (s->mmsg) {
		int r = sendmmsg(fd, s->msgs, n, 0);
		if (r >= 0)
			return r;
		if (errno != ENOSYS)
			return transient(errno) ? 0 : -errno;
		s->mmsg = false;
		s->mmsg_enosys = true;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (sendmsg(fd, &s->msgs[i].msg_hdr, 0) < 0) {
			if (transient(errno))
				break;
			return sent ? sent : -errno;
		}
		sent++;
	}
	return sent;
}

static int udp_set_mix(void *p, const struct nb_mix *mix)
{
	((struct udp_state *)p)->mix = mix;
	return 0;
}

static void udp_describe(void *p, char *buf, size_t len)
{
	struct udp_state *s = p;
	if (s->mmsg)
		snprintf(buf, len, "sendmmsg, up to %u frames per call", s->batch);
	else if (s->mmsg_enosys)
		snprintf(buf, len, "sendmsg, one frame per call (sendmmsg: ENOSYS, fallback)");
	else
		snprintf(buf, len, "sendmsg, one frame per call (asked for)");
}

const struct nb_gen_engine nb_gen_udp = {
    .name = "udp",
    .open = udp_open,
    .prepare = udp_prepare,
    .send = udp_send,
    .set_mix = udp_set_mix,
    .drain = NULL,
    .describe = udp_describe,
    .close = udp_close,
};
