/* SPDX-License-Identifier: BSD-2-Clause */
/* `netbench rate -c AGENT`: one agent test per trial over one control session. */
#include "core/rate/rate_remote.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/session/auth.h"
#include "core/session/ctl.h"
#include "core/base/net.h"
#include "core/session/proto.h"
#include "core/rate/rate_wire.h"
#include "core/base/timeutil.h"

struct nb_rate_remote {
	struct nb_ctl *ctl;
	struct nb_msg *req, *reply;
	struct sockaddr_storage dst;
	uint16_t port;
	uint32_t dst_count;  /* > 1: flows by destination address from dst */
	uint32_t port_count; /* > 1: flows by destination port from port */
	uint32_t flows;
	bool no_mmsg, have_addr;
	char boot_id[64];
	struct nb_cpu_sample *cpu0, *cpu1; /* the agent's, at the trial's start and end */
	bool have_cpu0;
	uint32_t mark;
	struct sockaddr_storage reflect_to;
	uint16_t reflect_port; /* 0: no reflection */
	uint32_t reflect_pps;
	/* --bidir: where the agent sends the reverse direction, and this trial's part of it */
	struct sockaddr_storage rev_to;
	uint16_t rev_port; /* 0: one direction */
	bool rev_armed;	   /* the next begin asks for it (learning rounds do not) */
	bool rev_asked;	   /* the current trial has a reverse direction */
	uint32_t rev_flows, rev_pacing, rev_burst, rev_bytes;
	uint32_t rev_engine;		      /* NB_RATE_REV_UDP or _PACKET */
	uint64_t rev_fps, rev_ns, rev_frames; /* rev_frames: a burst (0: for rev_ns) */
	struct nb_rate_rev_counts *revc;
	char rev_mix[160]; /* --imix: the mix the reverse sends, SIZE:WEIGHT,... ("": one size) */
};

void nb_rate_remote_rev(struct nb_rate_remote *rr, const struct sockaddr *addr, uint16_t port,
			uint32_t flows, uint32_t pacing, uint32_t burst, const struct nb_mix *mix,
			uint32_t engine)
{
	rr->rev_engine = engine;
	rr->rev_mix[0] = 0;
	if (mix)
		(void)nb_mix_format(mix, rr->rev_mix, sizeof(rr->rev_mix));
	memcpy(&rr->rev_to, addr, nb_net_sa_len(addr));
	rr->rev_port = port;
	rr->rev_flows = flows;
	rr->rev_pacing = pacing;
	rr->rev_burst = burst;
}

void nb_rate_remote_rev_trial(struct nb_rate_remote *rr, uint64_t fps, uint32_t frame_bytes,
			      uint64_t trial_ns, uint64_t frames)
{
	rr->rev_frames = frames;
	rr->rev_fps = fps;
	rr->rev_bytes = frame_bytes;
	rr->rev_ns = trial_ns;
	rr->rev_armed = true;
}

const struct nb_rate_rev_counts *nb_rate_remote_rev_counts(const struct nb_rate_remote *rr)
{
	return rr->revc;
}

const struct sockaddr *nb_rate_remote_local(const struct nb_rate_remote *rr)
{
	return (const struct sockaddr *)&rr->ctl->local;
}

static void put_addr(struct nb_msg *m, uint16_t tag, const struct sockaddr *a)
{
	if (a->sa_family == AF_INET6)
		nb_msg_put_bytes(m, tag, &((const struct sockaddr_in6 *)a)->sin6_addr, 16);
	else
		nb_msg_put_bytes(m, tag, &((const struct sockaddr_in *)a)->sin_addr, 4);
}

void nb_rate_remote_reflect(struct nb_rate_remote *rr, const struct sockaddr *addr, uint16_t port,
			    uint32_t max_pps)
{
	if (!addr)
		addr = (const struct sockaddr *)&rr->ctl->local;
	memcpy(&rr->reflect_to, addr, nb_net_sa_len(addr));
	rr->reflect_port = port;
	rr->reflect_pps = max_pps;
}

void nb_rate_remote_free(struct nb_rate_remote *rr)
{
	if (!rr)
		return;
	nb_ctl_free(rr->ctl);
	nb_msg_free(rr->req);
	nb_msg_free(rr->reply);
	free(rr->cpu0);
	free(rr->cpu1);
	free(rr->revc);
	free(rr);
}

/* The trial's request: its length and rate, the receiver's ports, addresses and flows, and
 * where reflected probes go. */
static void request_put(struct nb_rate_remote *rr, uint16_t trial, uint64_t duration_ns,
			uint64_t rate_bps)
{
	nb_msg_reset(rr->req, NB_MSG_TEST_REQ);
	nb_msg_put_u32(rr->req, NB_T_TEST_TYPE, NB_TEST_RATE);
	nb_msg_put_u64(rr->req, NB_T_DURATION_NS, duration_ns);
	nb_msg_put_u64(rr->req, NB_T_RATE_BPS, rate_bps);
	nb_msg_put_u32(rr->req, NB_T_PORT, rr->port);
	nb_msg_put_u32(rr->req, NB_T_RATE_NO_MMSG, rr->no_mmsg);
	if (trial)
		nb_msg_put_u32(rr->req, NB_T_RATE_TRIAL, trial);
	if (rr->port_count > 1)
		nb_msg_put_u32(rr->req, NB_T_RATE_PORT_COUNT, rr->port_count);
	if (rr->flows > NB_RX_FLOWS)
		nb_msg_put_u32(rr->req, NB_T_RATE_FLOWS_MAX, rr->flows);
	if (rr->have_addr || rr->dst_count > 1) {
		if (rr->dst_count > 1)
			nb_msg_put_u32(rr->req, NB_T_RATE_ADDR_COUNT, rr->dst_count);
		if (rr->dst.ss_family == AF_INET6)
			nb_msg_put_bytes(rr->req, NB_T_RATE_ADDR,
					 &((struct sockaddr_in6 *)&rr->dst)->sin6_addr, 16);
		else
			nb_msg_put_bytes(rr->req, NB_T_RATE_ADDR,
					 &((struct sockaddr_in *)&rr->dst)->sin_addr, 4);
	}
	if (rr->reflect_port) {
		const struct sockaddr *a = (const struct sockaddr *)&rr->reflect_to;
		nb_msg_put_u32(rr->req, NB_T_RATE_REFLECT_PORT, rr->reflect_port);
		nb_msg_put_u32(rr->req, NB_T_RATE_REFLECT_PPS, rr->reflect_pps);
		if (a->sa_family == AF_INET6)
			nb_msg_put_bytes(rr->req, NB_T_RATE_REFLECT_ADDR,
					 &((const struct sockaddr_in6 *)a)->sin6_addr, 16);
		else
			nb_msg_put_bytes(rr->req, NB_T_RATE_REFLECT_ADDR,
					 &((const struct sockaddr_in *)a)->sin_addr, 4);
	}
}

/* --bidir: what the agent sends back. */
static void reverse_put(struct nb_rate_remote *rr)
{
	nb_msg_put_u32(rr->req, NB_T_RATE_REV_PORT, rr->rev_port);
	put_addr(rr->req, NB_T_RATE_REV_ADDR, (const struct sockaddr *)&rr->rev_to);
	nb_msg_put_u64(rr->req, NB_T_RATE_REV_FPS, rr->rev_fps);
	nb_msg_put_u32(rr->req, NB_T_RATE_REV_BYTES, rr->rev_bytes);
	nb_msg_put_u64(rr->req, NB_T_RATE_REV_NS, rr->rev_ns);
	nb_msg_put_u32(rr->req, NB_T_RATE_REV_FLOWS, rr->rev_flows);
	nb_msg_put_u32(rr->req, NB_T_RATE_REV_PACING, rr->rev_pacing);
	nb_msg_put_u32(rr->req, NB_T_RATE_REV_BURST, rr->rev_burst);
	if (rr->rev_mix[0])
		nb_msg_put_str(rr->req, NB_T_RATE_REV_MIX, rr->rev_mix);
	if (rr->rev_frames)
		nb_msg_put_u64(rr->req, NB_T_RATE_REV_FRAMES, rr->rev_frames);
	if (rr->rev_engine != NB_RATE_REV_UDP)
		nb_msg_put_u32(rr->req, NB_T_RATE_REV_ENGINE, rr->rev_engine);
}

/* An older agent ignores the reverse tags it does not know: it would count one direction and
 * send nothing back, one size, for the whole trial, or with udp. */
static int reverse_acked(struct nb_rate_remote *rr, char *err, size_t errlen)
{
	uint32_t ok = 0;

	if (nb_msg_get_u32(rr->reply, NB_T_RATE_REV_OK, &ok) || ok != 1) {
		/* An older agent ignores the reverse tags: it would count one direction
		 * and send nothing back. */
		snprintf(err, errlen,
			 "--bidir: the agent does not send the reverse direction (its "
			 "netbench is older than --bidir); run without --bidir or "
			 "update the agent");
		return -EOPNOTSUPP;
	}
	if (rr->rev_mix[0] && (nb_msg_get_u32(rr->reply, NB_T_RATE_REV_MIX_OK, &ok) || ok != 1)) {
		/* An agent older than the reverse's mix would send one size. */
		snprintf(err, errlen,
			 "--bidir --imix: the agent does not send a mix in the reverse "
			 "direction (its netbench is older than --bidir with --imix); run "
			 "without --imix or update the agent");
		return -EOPNOTSUPP;
	}
	if (rr->rev_frames &&
	    (nb_msg_get_u32(rr->reply, NB_T_RATE_REV_FRAMES_OK, &ok) || ok != 1)) {
		/* An agent older than the reverse's bursts would send for the whole trial.
		 */
		snprintf(err, errlen,
			 "--bidir -m b2b: the agent does not send bursts in the reverse "
			 "direction (its netbench is older than --bidir with -m b2b); run "
			 "without --bidir or update the agent");
		return -EOPNOTSUPP;
	}
	if (rr->rev_engine != NB_RATE_REV_UDP &&
	    (nb_msg_get_u32(rr->reply, NB_T_RATE_REV_ENGINE_OK, &ok) || ok != rr->rev_engine)) {
		/* An agent older than the reverse's packet engine would send with udp. */
		snprintf(err, errlen,
			 "--bidir --engine packet: the agent does not send the reverse "
			 "direction with its packet engine (its netbench is older than "
			 "--bidir with --engine packet); use --engine udp or update the "
			 "agent");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* An agent that ignores the receiver's ranges would count every flow beyond the first address,
 * the first port or 1024 flows lost or foreign. */
static int ranges_acked(struct nb_rate_remote *rr, char *err, size_t errlen)
{
	if (rr->dst_count > 1) {
		uint32_t n = 0;
		/* An agent that ignores the tag receives on the first address alone: every other
		 * flow would be counted lost. */
		if (nb_msg_get_u32(rr->reply, NB_T_RATE_ADDR_COUNT, &n) || n != rr->dst_count) {
			snprintf(err, errlen,
				 "the agent receives on one address only (an older netbench): "
				 "--flow-fields dst-ip needs an agent that counts a destination "
				 "range");
			return -EPROTO;
		}
	}
	if (rr->flows > NB_RX_FLOWS) {
		uint32_t n = 0;
		/* An older agent counts 1024 flows and would call every other one foreign. */
		if (nb_msg_get_u32(rr->reply, NB_T_RATE_FLOWS_MAX, &n) || n != rr->flows) {
			snprintf(err, errlen,
				 "the agent counts up to %u flows (an older netbench): --flows %u "
				 "needs an agent that counts more",
				 NB_RX_FLOWS, rr->flows);
			return -EPROTO;
		}
	}
	if (rr->port_count > 1) {
		uint32_t n = 0;
		if (nb_msg_get_u32(rr->reply, NB_T_RATE_PORT_COUNT, &n) || n != rr->port_count) {
			snprintf(err, errlen,
				 "the agent receives on one port only (an older netbench): "
				 "--flow-fields dport needs an agent that counts a port range");
			return -EPROTO;
		}
	}
	return 0;
}

int nb_rate_remote_begin(struct nb_rate_remote *rr, uint16_t trial, uint64_t duration_ns,
			 uint64_t rate_bps, char *err, size_t errlen)
{
	int ret;

	request_put(rr, trial, duration_ns, rate_bps);
	/* The first, empty trial (trial 0) only binds the receiver: no reverse frames. */
	rr->rev_asked = rr->rev_port && rr->rev_armed && trial;
	rr->rev_armed = false;
	if (rr->rev_asked)
		reverse_put(rr);
	ret = nb_ctl_request(rr->ctl, rr->req, rr->reply, err, errlen);
	if (ret)
		return ret;
	if (rr->rev_asked && (ret = reverse_acked(rr, err, errlen)))
		return ret;
	if ((ret = ranges_acked(rr, err, errlen)))
		return ret;
	if (nb_msg_get_str(rr->reply, NB_T_RATE_BOOT_ID, rr->boot_id, sizeof(rr->boot_id)))
		rr->boot_id[0] = '\0';
	ret = nb_ctl_start(rr->ctl, err, errlen);
	if (ret)
		return ret;
	/* A mark right after START: its SNAP carries the agent's CPU sample that opens the
	 * trial's window there (FINAL carries the one that closes it). */
	ret = nb_ctl_mark(rr->ctl, ++rr->mark, rr->reply, err, errlen);
	if (ret)
		return ret;
	rr->have_cpu0 = nb_proto_get_cpu(rr->reply, rr->cpu0) == 0;
	return 0;
}

int nb_rate_remote_end(struct nb_rate_remote *rr, struct nb_rx_snap *snap, struct nb_cpu_load *cpu,
		       char *err, size_t errlen)
{
	int ret = nb_ctl_stop(rr->ctl, rr->reply, 5000, err, errlen);
	if (ret)
		return ret;
	memset(cpu, 0, sizeof(*cpu));
	if (rr->have_cpu0 && nb_proto_get_cpu(rr->reply, rr->cpu1) == 0)
		nb_cpu_load(rr->cpu0, rr->cpu1, cpu);
	if (nb_rate_snap_get(rr->reply, snap)) {
		snprintf(err, errlen, "malformed counters from the agent");
		return -EBADMSG;
	}
	if (rr->rev_asked) {
		if (!rr->revc && !(rr->revc = malloc(sizeof(*rr->revc))))
			return -ENOMEM;
		if (nb_rate_rev_get(rr->reply, rr->revc) || rr->revc->flows != rr->rev_flows) {
			snprintf(err, errlen, "malformed reverse-direction counts from the agent");
			return -EBADMSG;
		}
	}
	return 0;
}

int nb_rate_remote_open(struct nb_rate_remote **out, const struct nb_rate_remote_cfg *cfg,
			struct sockaddr_storage *dst, socklen_t *dst_len, struct nb_sysinfo *remote,
			bool *same_clock, char *err, size_t errlen)
{
	struct nb_rate_remote *rr = calloc(1, sizeof(*rr));
	char mine[64];
	int ret = -ENOMEM;

	if (!rr || !(rr->req = nb_msg_new(0)) || !(rr->reply = nb_msg_new(0)) ||
	    !(rr->cpu0 = malloc(sizeof(*rr->cpu0))) || !(rr->cpu1 = malloc(sizeof(*rr->cpu1)))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	rr->port = cfg->port;
	rr->no_mmsg = cfg->no_mmsg;
	rr->dst_count = cfg->dst_count;
	rr->port_count = cfg->port_count;
	rr->flows = cfg->flows;
	ret = nb_ctl_open_target(&rr->ctl, &cfg->agent, err, errlen);
	if (ret)
		goto fail;
	*remote = rr->ctl->remote;
	if (cfg->dst_addr) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&rr->dst;
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&rr->dst;
		if (inet_pton(AF_INET, cfg->dst_addr, &s4->sin_addr) == 1) {
			s4->sin_family = AF_INET;
		} else if (inet_pton(AF_INET6, cfg->dst_addr, &s6->sin6_addr) == 1) {
			s6->sin6_family = AF_INET6;
		} else {
			ret = -EINVAL;
			snprintf(err, errlen, "--dst: '%s' is not an IPv4 or IPv6 address",
				 cfg->dst_addr);
			goto fail;
		}
		rr->have_addr = true;
	} else {
		memcpy(&rr->dst, &rr->ctl->peer, sizeof(rr->dst));
	}
	nb_net_set_port((struct sockaddr *)&rr->dst, rr->port);
	/* A first, empty trial: the agent binds its receiver and says which kernel it runs. */
	ret = nb_rate_remote_begin(rr, 0, NB_NS_PER_S, 1, err, errlen);
	if (!ret) {
		struct nb_rx_snap *snap = malloc(sizeof(*snap));
		struct nb_cpu_load cpu;
		ret = snap ? nb_rate_remote_end(rr, snap, &cpu, err, errlen) : -ENOMEM;
		free(snap);
	}
	if (ret)
		goto fail;
	nb_rate_boot_id(mine, sizeof(mine));
	*same_clock = mine[0] && !strcmp(mine, rr->boot_id);
	memcpy(dst, &rr->dst, sizeof(*dst));
	*dst_len = nb_net_sa_len((struct sockaddr *)dst);
	*out = rr;
	return 0;
fail:
	nb_rate_remote_free(rr);
	return ret;
}
