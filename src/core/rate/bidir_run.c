/* SPDX-License-Identifier: BSD-2-Clause */
/* `rate --bidir` on the controller: a counting receiver of the agent's reverse direction on our
 * end of the control connection (the address the agent's target rule accepts), the agent told
 * each trial's rate, size and length, and after the trial the reverse counts reconciled like the
 * forward ones and both directions judged (bidir.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/net.h"
#include "core/base/timeutil.h"
#include "core/rate/rate_remote.h"
#include "core/rate/rate_run.h"

int nb_rate_bidir_open(struct nb_rate_run *r, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	struct sockaddr_storage at;
	socklen_t len = sizeof(at);
	char astr[64];
	int fd, ret;

	if (p->receiver != &nb_rx_agent) {
		snprintf(err, errlen,
			 "--bidir needs an agent (-c): it sends the reverse direction");
		return -EINVAL;
	}
	if (!(r->rev_snap = calloc(1, sizeof(*r->rev_snap)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memset(&at, 0, sizeof(at));
	memcpy(&at, nb_rate_remote_local(r->rxs), nb_net_sa_len(nb_rate_remote_local(r->rxs)));
	nb_net_set_port((struct sockaddr *)&at, 0);
	nb_net_addr_str((struct sockaddr *)&at, false, astr, sizeof(astr));
	fd = socket(at.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&at, nb_net_sa_len((struct sockaddr *)&at)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&at, &len) < 0) {
		ret = -errno;
		snprintf(err, errlen, "--bidir: cannot receive on %s: %s", astr, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if ((ret = nb_rx_new(&r->rev_rx, fd, p->rx.no_mmsg)) || (ret = nb_rx_start(r->rev_rx))) {
		snprintf(err, errlen, "--bidir: receiver: %s", strerror(-ret));
		return ret;
	}
	r->rev_family = at.ss_family;
	if (at.ss_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&((struct sockaddr_in6 *)&at)->sin6_addr))
		r->rev_family = AF_INET; /* the agent sends IPv4 frames to it */
	nb_rate_remote_rev(r->rxs, (struct sockaddr *)&at,
			   ntohs(at.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&at)->sin6_port
							  : ((struct sockaddr_in *)&at)->sin_port),
			   p->flows, p->pacing == NB_PACING_SPIN ? NB_PACING_SPIN : NB_PACING_BURST,
			   p->burst, p->mix,
			   p->engine == &nb_gen_packet ? NB_RATE_REV_PACKET : NB_RATE_REV_UDP);
	return 0;
}

void nb_rate_bidir_begin(struct nb_rate_run *r, uint16_t wire, double rate_fps, uint32_t size,
			 uint64_t trial_ns, uint64_t frames)
{
	nb_rx_expect(r->rev_rx, wire);
	/* A burst as long as a whole trial at the rate (b2b's longest) must not be cut short by
	 * the trial's length: it may take up to the second the agent's test adds to it. */
	if (frames)
		trial_ns += NB_NS_PER_S;
	nb_rate_remote_rev_trial(r->rxs, (uint64_t)(rate_fps + 0.5), size, trial_ns, frames);
}

int nb_rate_bidir_end(struct nb_rate_run *r, uint16_t wire, struct nb_rate_trial *rec, char *err,
		      size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	const struct nb_rate_rev_counts *rc = nb_rate_remote_rev_counts(r->rxs);
	struct nb_rate_rev_trial *v = &rec->rev;
	const struct nb_rx_snap *sn = r->rev_snap;
	bool mine;
	/* The loss curve and back-to-back judge each step at no loss (RFC 2544 26.3, 26.4). */
	double tol = p->test == NB_RATE_NDRPDR && p->nratios		 ? p->loss_ratios[0]
		     : p->test == NB_RATE_LOSS || p->test == NB_RATE_B2B ? 0
									 : p->loss_tolerance;

	if (!rc) {
		snprintf(err, errlen, "--bidir: the agent sent no reverse-direction counts");
		return -EBADMSG;
	}
	/* The agent's FINAL came after its sender stopped; the drain our generator waited covered
	 * the reverse frames too (the agent's sending began at START, before ours). */
	nb_rx_snapshot(r->rev_rx, r->rev_snap);
	mine = sn->any && sn->trial == wire;
	v->on = true;
	v->window_s = (double)rc->window_ns / 1e9;
	v->offered_fps = rc->window_ns ? (double)rc->tx * 1e9 / (double)rc->window_ns : 0;
	v->slipped_frames = rc->slipped;
	nb_rx_reconcile(rc->tx_flow, rc->flows, wire, sn, &v->c);
	if (p->mix) /* the agent sent the same mix: each size reconciles at our receiver */
		nb_mix_reconcile(p->mix, r->rev_family, rc->tx_flow, rc->flows, sn, mine, v->mix_tx,
				 v->mix_rx, &v->rx_by_size_known, &v->c);
	if (mine) {
		v->drops_known = sn->drops_known;
		v->rx_dropped = sn->sock_drops;
	}
	/* One-way latency of the reverse only where both ends read one clock: the agent stamps
	 * its send time with its CLOCK_MONOTONIC, which ours equals only on the same kernel. */
	if (!r->same_clock)
		snprintf(v->lat_why, sizeof(v->lat_why),
			 "not measured: the agent runs on another kernel (no shared clock for "
			 "one-way latency)");
	else if (!mine || !sn->lat.count)
		snprintf(v->lat_why, sizeof(v->lat_why),
			 "not measured: no frame of this trial arrived");
	else if (!v->c.valid)
		snprintf(v->lat_why, sizeof(v->lat_why),
			 "not measured: the reverse's counts did not reconcile");
	if (v->c.valid && r->same_clock && mine && sn->lat.count) {
		static const double q[] = {0.5, 0.9, 0.99, 0.999, 1.0};
		v->lat_valid = true;
		for (int i = 0; i < 5; i++)
			v->lat_ns[i] = nb_hist_quantile(&sn->lat, q[i]);
		v->lat_ns[5] = sn->lat.min_ns;
	}
	nb_bidir_judge(&rec->c, &v->c, tol, &v->j);
	return 0;
}
