/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's reverse generator for `rate --bidir` (rate_agent_rev.h). It obeys every rule of
 * docs/security.md: frames go only to the controller's address (the control connection's peer,
 * or a traffic address the controller names that passes the same target rule), by unicast
 * routing as the control connection's traffic does; the caps judge both directions together
 * (bidir.h); the sending stops at the trial's length, at STOP, or when the test is freed. */
#include "core/rate/rate_agent_rev.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/net.h"
#include "core/rate/bidir.h"
#include "core/rate/frame.h"
#include "core/rate/gen.h"
#include "core/rate/mix.h"
#include "core/rate/rate_agent.h"

struct nb_rate_rev {
	const struct nb_gen_engine *e; /* udp, or packet (NB_T_RATE_REV_ENGINE) */
	void *eng;		       /* its state */
	struct nb_gen_trial t;
	struct nb_gen_stats st;
	struct nb_mix mix; /* --imix: the frames' sizes (mix.n 0: one size) */
	nb_cancel_t stop;
	pthread_t thr;
	bool running;
	int ret;
};

static void *rev_main(void *arg)
{
	struct nb_rate_rev *v = arg;
	v->ret = nb_gen_run(v->e, v->eng, &v->t, &v->st);
	return NULL;
}

/* The packet engine writes whole frames into an AF_PACKET ring: only with CAP_NET_RAW. Asked
 * before the route and the neighbour are looked up, so that the refusal names the cause. */
static bool have_net_raw(void)
{
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno != EPERM && errno != EACCES;
	close(fd);
	return true;
}

static int refuse(char *err, size_t errlen, int ret, const char *what)
{
	snprintf(err, errlen, "%s", what);
	return ret;
}

/* The reverse direction as the request states it. */
struct rev_req {
	uint32_t port, bytes, flows, burst, pacing, no_mmsg, engine;
	uint64_t fps, trial_ns, frames;
};

/* The request's reverse direction, each number in its range. Returns 1 when it has none. */
static int rev_req_read(const struct nb_msg *req, uint16_t trial, struct rev_req *q, char *err,
			size_t errlen)
{
	*q = (struct rev_req){.flows = 1, .pacing = NB_PACING_BURST, .engine = NB_RATE_REV_UDP};
	if (nb_msg_get_u32(req, NB_T_RATE_REV_PORT, &q->port))
		return 1;
	if (!q->port || q->port > 65535 || nb_msg_get_u32(req, NB_T_RATE_REV_BYTES, &q->bytes) ||
	    nb_msg_get_u64(req, NB_T_RATE_REV_FPS, &q->fps) ||
	    nb_msg_get_u64(req, NB_T_RATE_REV_NS, &q->trial_ns) || !q->trial_ns)
		return refuse(err, errlen, -EINVAL, "malformed reverse direction in rate request");
	(void)nb_msg_get_u32(req, NB_T_RATE_REV_FLOWS, &q->flows);
	(void)nb_msg_get_u32(req, NB_T_RATE_REV_BURST, &q->burst);
	(void)nb_msg_get_u32(req, NB_T_RATE_REV_PACING, &q->pacing);
	(void)nb_msg_get_u32(req, NB_T_RATE_NO_MMSG, &q->no_mmsg); /* the controller's --no-mmsg */
	/* -m b2b: a burst of that many frames, still within the trial's length and rate (the caps
	 * judge those, so a burst cannot send more than they allow). */
	if (nb_msg_get_u64(req, NB_T_RATE_REV_FRAMES, &q->frames) == 0 && !q->frames)
		return refuse(err, errlen, -EINVAL,
			      "malformed reverse direction: a burst of 0 frames (1 or more)");
	(void)nb_msg_get_u32(req, NB_T_RATE_REV_ENGINE, &q->engine);
	if (q->engine != NB_RATE_REV_UDP && q->engine != NB_RATE_REV_PACKET) {
		snprintf(err, errlen, "malformed reverse direction: engine %u (1 udp, 2 packet)",
			 q->engine);
		return -EINVAL;
	}
	if (!trial)
		return refuse(err, errlen, -EINVAL,
			      "malformed rate request: the reverse direction needs a trial id");
	/* A burst is bounded as the controller's --burst is: the caps judge the average rate,
	 * and no wake-up may put more than 1024 frames on the wire back to back. */
	if (!q->flows || q->flows > NB_RATE_REV_MAX_FLOWS || q->bytes < 64 ||
	    q->bytes > NB_FRAME_MAX || q->burst > NB_GEN_MAX_BATCH ||
	    (q->pacing != NB_PACING_BURST && q->pacing != NB_PACING_SPIN)) {
		snprintf(err, errlen,
			 "malformed reverse direction: %u flows (1 to %u), %u-byte frames (64 to "
			 "%u), burst %u (0 to %u), pacing %u",
			 q->flows, NB_RATE_REV_MAX_FLOWS, q->bytes, NB_FRAME_MAX, q->burst,
			 NB_GEN_MAX_BATCH, q->pacing);
		return -EINVAL;
	}
	return 0;
}

/* --imix: the same mix, parsed by the rules of the controller's --imix; the caps judge the
 * mix's mean frame (rounded up) when it is larger than the size the request states
 * (rev_bytes), and each frame's buffer holds the mix's largest (frame_max). */
static int rev_mix_read(const struct nb_msg *req, uint32_t bytes, struct nb_mix *mix,
			uint32_t *rev_bytes, uint32_t *frame_max, char *err, size_t errlen)
{
	char merr[160] = "";
	const uint8_t *a;
	size_t alen;

	*frame_max = *rev_bytes = bytes;
	memset(mix, 0, sizeof(*mix));
	if (nb_msg_get_bytes(req, NB_T_RATE_REV_MIX, &a, &alen))
		return 0;
	char spec[sizeof(mix->spec)];
	if (nb_msg_get_str(req, NB_T_RATE_REV_MIX, spec, sizeof(spec)) ||
	    nb_mix_parse(spec, 64, NB_FRAME_MAX, mix, merr, sizeof(merr))) {
		snprintf(err, errlen, "malformed reverse mix in rate request: %s",
			 merr[0] ? merr : "not a string of at most 127 bytes");
		return -EINVAL;
	}
	if (mix->mean_bytes > (double)bytes)
		*rev_bytes = (uint32_t)mix->mean_bytes + 1;
	*frame_max = nb_mix_max_bytes(mix);
	return 0;
}

/* Where the reverse direction goes (dst, without its port): the controller, or an address it
 * gives, by the target rule; and whether the engine can send there. */
static int rev_dst(const struct nb_agent_ctx *ctx, const struct nb_msg *req,
		   const struct nb_gen_engine *e, const struct nb_mix *mix,
		   struct sockaddr_storage *dst, char *err, size_t errlen)
{
	const uint8_t *a;
	size_t alen;
	int ret;

	*dst = ctx->peer;
	if (nb_msg_get_bytes(req, NB_T_RATE_REV_ADDR, &a, &alen) == 0) {
		struct sockaddr_storage to;
		memset(&to, 0, sizeof(to));
		if (alen == 4) {
			to.ss_family = AF_INET;
			memcpy(&((struct sockaddr_in *)&to)->sin_addr, a, 4);
		} else if (alen == 16) {
			to.ss_family = AF_INET6;
			memcpy(&((struct sockaddr_in6 *)&to)->sin6_addr, a, 16);
			if (ctx->peer.ss_family == AF_INET6)
				((struct sockaddr_in6 *)&to)->sin6_scope_id =
				    ((const struct sockaddr_in6 *)&ctx->peer)->sin6_scope_id;
		} else {
			return refuse(err, errlen, -EINVAL,
				      "malformed reverse address in rate request");
		}
		*dst = to;
	}
	if ((ret = nb_agent_check_target(ctx, (struct sockaddr *)dst, err, errlen)))
		return ret;
	if (e == &nb_gen_packet && mix->n)
		return refuse(
		    err, errlen, -EINVAL,
		    "malformed reverse direction: the packet engine sends one frame size, "
		    "not a mix");
	if (e == &nb_gen_packet && !have_net_raw())
		return refuse(err, errlen, -EPERM,
			      "refused: the reverse direction's packet engine needs CAP_NET_RAW, "
			      "which this agent lacks (run it as root or setcap cap_net_raw+ep on "
			      "netbench; or use --engine udp)");
	if (dst->ss_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&((struct sockaddr_in6 *)dst)->sin6_addr)) {
		/* An IPv4 controller on a dual-stack agent: IPv4 frames, of the size asked. */
		struct sockaddr_in v4 = {.sin_family = AF_INET};
		memcpy(&v4.sin_addr, &((struct sockaddr_in6 *)dst)->sin6_addr.s6_addr[12], 4);
		memset(dst, 0, sizeof(*dst));
		memcpy(dst, &v4, sizeof(v4));
	}
	return 0;
}

/* The generator opened and prepared for the trial's frames. */
static int rev_open(const struct rev_req *q, uint16_t trial, const struct nb_gen_engine *e,
		    struct nb_gen_cfg *gc, const struct nb_mix *mix, struct nb_rate_rev **out,
		    char *err, size_t errlen)
{
	struct nb_rate_rev *v;
	int ret;

	if (!(v = calloc(1, sizeof(*v))))
		return refuse(err, errlen, -ENOMEM, "out of memory");
	v->e = e;
	if ((ret = e->open(gc, &v->eng, err, errlen))) {
		free(v);
		return ret;
	}
	v->mix = *mix;
	if (v->mix.n)
		nb_gen_udp.set_mix(v->eng, &v->mix);
	if ((ret = e->prepare(v->eng, v->mix.n ? nb_mix_min_bytes(&v->mix) : q->bytes, trial, 0))) {
		snprintf(err, errlen, "reverse direction: cannot send %u-byte frames: %s",
			 v->mix.n ? nb_mix_min_bytes(&v->mix) : q->bytes, strerror(-ret));
		nb_rate_rev_free(v);
		return ret;
	}
	v->t.rate_fps = q->fps;
	v->t.duration_ns = q->trial_ns;
	v->t.frames = q->frames;
	v->t.pacing = (enum nb_pacing_mode)q->pacing;
	v->t.burst = q->burst;
	v->t.flows = q->flows;
	v->t.batch = 64;
	v->t.stop = &v->stop;
	*out = v;
	return 0;
}

int nb_rate_rev_setup(const struct nb_agent_ctx *ctx, const struct nb_msg *req, uint16_t trial,
		      uint64_t duration_ns, uint64_t fwd_frame_bps, struct nb_rate_rev **out,
		      char *err, size_t errlen)
{
	const struct nb_gen_engine *e;
	struct rev_req q;
	struct nb_gen_cfg gc;
	struct nb_mix mix;
	uint32_t frame_max, rev_bytes;
	struct nb_caps caps;
	int ret;

	*out = NULL;
	ret = rev_req_read(req, trial, &q, err, errlen);
	if (ret)
		return ret > 0 ? 0 : ret;
	e = q.engine == NB_RATE_REV_PACKET ? &nb_gen_packet : &nb_gen_udp;
	if ((ret = rev_mix_read(req, q.bytes, &mix, &rev_bytes, &frame_max, err, errlen)))
		return ret;
	/* The sending lasts no longer than the test the caps judged. */
	if (q.trial_ns > duration_ns)
		return refuse(err, errlen, -EINVAL,
			      "malformed rate request: the reverse direction outlasts the test");
	nb_agent_caps(ctx->policy, &caps);
	if ((ret = nb_bidir_check_caps_sizes(&caps, duration_ns, fwd_frame_bps, q.bytes, q.fps,
					     rev_bytes, err, errlen)))
		return ret;
	memset(&gc, 0, sizeof(gc));
	if ((ret = rev_dst(ctx, req, e, &mix, &gc.dst, err, errlen)))
		return ret;
	nb_net_set_port((struct sockaddr *)&gc.dst, (uint16_t)q.port);
	gc.dst_len = nb_net_sa_len((struct sockaddr *)&gc.dst);
	gc.flows = q.flows;
	gc.batch = 64;
	gc.no_mmsg = q.no_mmsg != 0;
	gc.frame_max_bytes = frame_max;
	gc.neigh_wait_ms = gc.dst.ss_family == AF_INET6 ? 3000 : 1000; /* packet: as the forward */
	return rev_open(&q, trial, e, &gc, &mix, out, err, errlen);
}

int nb_rate_rev_start(struct nb_rate_rev *v, char *err, size_t errlen)
{
	int ret = pthread_create(&v->thr, NULL, rev_main, v);
	if (ret) {
		snprintf(err, errlen, "reverse generator thread: %s", strerror(ret));
		return -ret;
	}
	v->running = true;
	return 0;
}

static void join(struct nb_rate_rev *v)
{
	if (!v->running)
		return;
	v->stop = 1;
	pthread_join(v->thr, NULL);
	v->running = false;
}

int nb_rate_rev_finish(struct nb_rate_rev *v, struct nb_msg *final)
{
	uint8_t *buf;
	uint32_t flows = v->t.flows;
	int ret;

	join(v);
	buf = malloc((size_t)flows * 8);
	if (!buf)
		return -ENOMEM;
	for (uint32_t f = 0; f < flows; f++)
		for (int b = 0; b < 8; b++)
			buf[f * 8 + (uint32_t)b] = (uint8_t)(v->st.tx_flow[f] >> (56 - 8 * b));
	ret = nb_msg_put_bytes(final, NB_T_RATE_REV_TX, buf, (size_t)flows * 8);
	free(buf);
	if (!ret)
		ret = nb_msg_put_u64(final, NB_T_RATE_REV_WINDOW_NS,
				     v->st.end_ns > v->st.start_ns ? v->st.end_ns - v->st.start_ns
								   : 0);
	if (!ret)
		ret = nb_msg_put_u64(final, NB_T_RATE_REV_SLIPPED, v->st.slipped_frames);
	return ret;
}

uint32_t nb_rate_rev_engine(const struct nb_rate_rev *v)
{
	return v && v->e == &nb_gen_packet ? NB_RATE_REV_PACKET : NB_RATE_REV_UDP;
}

bool nb_rate_rev_has_frames(const struct nb_rate_rev *v)
{
	return v && v->t.frames;
}

bool nb_rate_rev_has_mix(const struct nb_rate_rev *v)
{
	return v && v->mix.n;
}

uint64_t nb_rate_rev_sent(const struct nb_rate_rev *v)
{
	return v->running ? 0 : v->st.tx_frames;
}

void nb_rate_rev_free(struct nb_rate_rev *v)
{
	if (!v)
		return;
	join(v);
	if (v->eng)
		v->e->close(v->eng);
	free(v);
}

int nb_rate_rev_get(const struct nb_msg *m, struct nb_rate_rev_counts *c)
{
	const uint8_t *p;
	size_t n;

	memset(c, 0, sizeof(*c));
	if (nb_msg_get_bytes(m, NB_T_RATE_REV_TX, &p, &n) || !n || n % 8 ||
	    n / 8 > NB_RATE_REV_MAX_FLOWS ||
	    nb_msg_get_u64(m, NB_T_RATE_REV_WINDOW_NS, &c->window_ns) ||
	    nb_msg_get_u64(m, NB_T_RATE_REV_SLIPPED, &c->slipped))
		return -EBADMSG;
	c->flows = (uint32_t)(n / 8);
	for (uint32_t f = 0; f < c->flows; f++) {
		uint64_t v = 0;
		for (int b = 0; b < 8; b++)
			v = v << 8 | p[f * 8 + (uint32_t)b];
		c->tx_flow[f] = v;
		if (__builtin_add_overflow(c->tx, v, &c->tx))
			return -EBADMSG;
	}
	return 0;
}
