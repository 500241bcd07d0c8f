/* SPDX-License-Identifier: BSD-2-Clause */
/* One tput step driven from the controller. Rates come from the receiving side's counters at
 * the two marks bracketing the window, over the receiving side's own clock; CPU from each end's
 * samples at the same marks. After the stop, totals are reconciled: TCP must deliver every byte
 * sent, UDP may lose but never receive more than was sent. */
#include "core/tput/tput_plan.h"
#include "core/tput/tput_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/net.h"
#include "core/base/timeutil.h"
#include "core/tput/tput_wire.h"

#define CONNECT_MS    5000
#define DRAIN_NS      (3 * NB_NS_PER_S)
#define STOP_REPLY_MS 15000
#define OBS_SLACK_NS  (10 * NB_NS_PER_S) /* the observer ends a window left open after this */
/* Before STOP, our TCP senders' data must reach the agent, whose receivers drain after STOP
 * only while bytes still arrive. Waited for at most ACK_WAIT_NS (with the agent's drain, inside
 * its 10 s grace for a late STOP), and no longer once nothing was acknowledged for
 * ACK_STALL_NS. */
#define ACK_WAIT_NS  (3 * NB_NS_PER_S)
#define ACK_STALL_NS (NB_NS_PER_S)

/* Counters and CPU of both ends at one mark. */
struct edge {
	struct nb_tput_counters loc_tx, loc_rx, rem_tx, rem_rx;
	uint64_t loc_ns, rem_ns;
	struct nb_cpu_sample loc_cpu, rem_cpu;
};

struct step {
	const struct nb_tput_params *p;
	struct nb_ctl *ctl;
	struct nb_msg *req, *reply;
	struct nb_tput_side *tx, *rx;
	int udp_rx_fd;
	struct edge *first, *prev, *cur;
	struct nb_prof *prof; /* this host's kernel profile, with p->profile_hz */
};

void nb_tput_dir_result_free(struct nb_tput_dir_result *d)
{
	free(d->prof_local);
	free(d->prof_remote);
	d->prof_local = d->prof_remote = NULL;
}

static void read_local(struct step *s, struct edge *e)
{
	memset(&e->loc_tx, 0, sizeof(e->loc_tx));
	memset(&e->loc_rx, 0, sizeof(e->loc_rx));
	if (s->tx)
		nb_tput_side_read(s->tx, &e->loc_tx);
	if (s->rx)
		nb_tput_side_read(s->rx, &e->loc_rx);
	nb_cpu_sample_now(&e->loc_cpu);
	e->loc_ns = e->loc_cpu.mono_ns;
}

static int read_remote(const struct nb_msg *m, struct edge *e, uint32_t dir, char *err,
		       size_t errlen)
{
	memset(&e->rem_tx, 0, sizeof(e->rem_tx));
	memset(&e->rem_rx, 0, sizeof(e->rem_rx));
	if (nb_msg_get_u64(m, NB_T_MONO_NS, &e->rem_ns) || nb_proto_get_cpu(m, &e->rem_cpu) ||
	    ((dir & NB_TPUT_DIR_TX) && nb_tput_get_counters(m, NB_T_TPUT_AGENT_RX, &e->rem_rx)) ||
	    ((dir & NB_TPUT_DIR_RX) &&
	     (nb_tput_get_counters(m, NB_T_TPUT_AGENT_TX, &e->rem_tx) ||
	      nb_tput_get_pacing(m, &e->rem_tx) || nb_tput_get_tcp(m, &e->rem_tx) ||
	      nb_tput_get_cc(m, &e->rem_tx)))) {
		snprintf(err, errlen, "malformed counters from the agent");
		return -EBADMSG;
	}
	return 0;
}

/* The profile starts right after the window's opening local sample and stops right before its
 * closing one (last); the mark tells the agent, whose profile does the same around its own. */
static int mark(struct step *s, uint32_t id, struct edge *e, bool last, char *err, size_t errlen)
{
	int ret;
	if (last && s->prof)
		nb_prof_stop(s->prof);
	/* Local counters on either side of the round trip would bracket the agent's instant;
	 * reading them just before is enough at these window lengths (ms vs s). */
	read_local(s, e);
	if (e == s->first && s->prof)
		nb_prof_start(s->prof);
	uint32_t edge = !s->p->profile_hz ? 0
			: e == s->first	  ? NB_MARK_OPENS
			: last		  ? NB_MARK_CLOSES
					  : 0;
	ret = nb_ctl_mark_edge(s->ctl, id, edge, s->reply, err, errlen);
	return ret ? ret : read_remote(s->reply, e, s->p->dir, err, errlen);
}

static double kbps(uint64_t bytes, double s)
{
	return s > 0 ? (double)bytes / 1024.0 / s : NAN;
}

static void counters_delta(const struct nb_tput_counters *a, const struct nb_tput_counters *b,
			   struct nb_tput_counters *d)
{
	d->bytes = b->bytes - a->bytes;
	d->datagrams = b->datagrams - a->datagrams;
	d->expected = b->expected - a->expected;
	d->unique = b->unique - a->unique;
	d->reordered = b->reordered - a->reordered;
	d->duplicates = b->duplicates - a->duplicates;
	d->errors = b->errors - a->errors;
}

static void invalid(struct nb_tput_dir_result *d, const char *why)
{
	if (d->valid) {
		d->valid = false;
		snprintf(d->invalid_reason, sizeof(d->invalid_reason), "%s", why);
	}
}

/* Other processes' share at each end; on one host each end's load holds the other end's
 * netbench too, which is the measurement, not other work. */
static void cpu_other(const struct nb_cpu_sample *loc, const struct nb_cpu_sample *rem,
		      const struct nb_cpu_load *l, const struct nb_cpu_load *r, double *other_l,
		      double *other_r)
{
	bool same = nb_cpu_same_host(loc, rem);
	*other_l = nb_cpu_other_pct(l, same ? r->proc_cpu_s : 0);
	*other_r = nb_cpu_other_pct(r, same ? l->proc_cpu_s : 0);
}

/* The sweep's idle baseline, between the agent's acknowledgement of the request and of START:
 * the test is set up, no traffic flows, both processes wait. */
static int baseline(struct step *s, struct nb_tput_baseline *b, char *err, size_t errlen)
{
	struct nb_cpu_sample *smp = malloc(4 * sizeof(*smp)); /* local a, b; remote a, b */
	int ret = -ENOMEM;

	memset(b, 0, sizeof(*b));
	b->local.other_pct = b->remote.other_pct = NAN;
	if (!smp)
		return ret;
	b->remote.known = nb_proto_get_cpu(s->reply, &smp[2]) == 0;
	if ((ret = nb_cpu_sample_now(&smp[0])))
		goto out;
	nb_sleep_until_ns(smp[0].mono_ns + s->p->baseline_ns);
	if ((ret = nb_cpu_sample_now(&smp[1])))
		goto out;
	if ((ret = nb_ctl_start(s->ctl, err, errlen)))
		goto out;
	b->remote.known = b->remote.known && nb_proto_get_cpu(s->ctl->msg, &smp[3]) == 0;
	b->local.known = true;
	nb_cpu_load(&smp[0], &smp[1], &b->local.cpu);
	if (b->remote.known) {
		nb_cpu_load(&smp[2], &smp[3], &b->remote.cpu);
		cpu_other(&smp[0], &smp[2], &b->local.cpu, &b->remote.cpu, &b->local.other_pct,
			  &b->remote.other_pct);
	} else {
		b->local.other_pct = nb_cpu_other_pct(&b->local.cpu, 0);
	}
out:
	free(smp);
	return ret;
}

/* Fills one direction from the window's edges. remote_receives: the agent was the receiver. */
static void window(const struct nb_tput_params *p, const struct edge *a, const struct edge *b,
		   bool remote_receives, struct nb_tput_dir_result *d)
{
	const struct nb_tput_counters *ra = remote_receives ? &a->rem_rx : &a->loc_rx;
	const struct nb_tput_counters *rb = remote_receives ? &b->rem_rx : &b->loc_rx;
	const struct nb_tput_counters *ta = remote_receives ? &a->loc_tx : &a->rem_tx;
	const struct nb_tput_counters *tb = remote_receives ? &b->loc_tx : &b->rem_tx;
	uint64_t ns = remote_receives ? b->rem_ns - a->rem_ns : b->loc_ns - a->loc_ns;

	d->valid = true;
	counters_delta(ra, rb, &d->rx_window);
	d->pacing_cpu_ns = tb->pacing_cpu_ns - ta->pacing_cpu_ns;
	d->pacing_wakeups = tb->pacing_wakeups - ta->pacing_wakeups;
	/* Counts only grow on one socket, and what was retransmitted was sent: anything else (a
	 * stream that closed between the edges, a peer's bad numbers) is not a count. */
	d->tcp_known = ta->tcp_known && tb->tcp_known && tb->tcp_segs_out >= ta->tcp_segs_out &&
		       tb->tcp_retrans >= ta->tcp_retrans &&
		       tb->tcp_retrans - ta->tcp_retrans <= tb->tcp_segs_out - ta->tcp_segs_out;
	d->tcp_segs_out = d->tcp_known ? tb->tcp_segs_out - ta->tcp_segs_out : 0;
	d->tcp_retrans = d->tcp_known ? tb->tcp_retrans - ta->tcp_retrans : 0;
	if (!strcmp(ta->tcp_cc, tb->tcp_cc))
		memcpy(d->congestion, tb->tcp_cc, sizeof(d->congestion));
	d->bytes = d->rx_window.bytes;
	d->window_s = (double)ns / 1e9;
	d->kbyte_per_s = kbps(d->bytes, d->window_s);
	d->mbit_per_s = d->window_s > 0 ? (double)d->bytes * 8.0 / 1e6 / d->window_s : NAN;
	nb_cpu_load(&a->loc_cpu, &b->loc_cpu, &d->cpu_local);
	nb_cpu_load(&a->rem_cpu, &b->rem_cpu, &d->cpu_remote);
	d->demand_local_us_per_kbyte = nb_cpu_us_per_kbyte(d->cpu_local.busy_cpu_s, d->bytes);
	d->demand_remote_us_per_kbyte = nb_cpu_us_per_kbyte(d->cpu_remote.busy_cpu_s, d->bytes);
	d->proc_demand_local_us_per_kbyte = nb_cpu_us_per_kbyte(d->cpu_local.proc_cpu_s, d->bytes);
	d->proc_demand_remote_us_per_kbyte =
	    nb_cpu_us_per_kbyte(d->cpu_remote.proc_cpu_s, d->bytes);
	d->loss_pct = d->reorder_pct = d->dup_pct = NAN;
	if (p->proto == NB_TPUT_UDP && d->rx_window.expected) {
		double exp = (double)d->rx_window.expected;
		/* Late arrivals can fill gaps from before the window: loss never goes below 0. */
		d->loss_pct = d->rx_window.expected > d->rx_window.unique
				  ? 100.0 * (exp - (double)d->rx_window.unique) / exp
				  : 0.0;
		d->reorder_pct = 100.0 * (double)d->rx_window.reordered / exp;
		d->dup_pct = 100.0 * (double)d->rx_window.duplicates / exp;
	}
	if (!d->bytes)
		invalid(d, "nothing was received in the measurement window");
	if (!d->cpu_local.valid || !d->cpu_remote.valid)
		invalid(d, "CPU counters did not advance over the window (CPU hotplug?)");
	cpu_other(&a->loc_cpu, &a->rem_cpu, &d->cpu_local, &d->cpu_remote, &d->other_local_pct,
		  &d->other_remote_pct);
	d->cpu_polluted =
	    nb_cpu_polluted(d->other_local_pct) || nb_cpu_polluted(d->other_remote_pct);
}

/* Our TCP senders have stopped: waits until what they wrote is acknowledged (a slow receiver,
 * such as an emulated board, or a deep queue on the path still holds it), or the bounds above.
 * Returns the bytes still unacknowledged; *waited_ns how long it waited. */
static uint64_t wait_acked(const struct nb_tput_side *tx, const nb_cancel_t *stop,
			   uint64_t *waited_ns)
{
	uint64_t t0 = nb_mono_ns(), now = t0, progress = t0, q = nb_tput_side_unacked(tx);
	while (q && now - t0 < ACK_WAIT_NS && now - progress < ACK_STALL_NS && !(stop && *stop)) {
		nb_sleep_until_ns(now + 10 * NB_NS_PER_MS);
		uint64_t q2 = nb_tput_side_unacked(tx);
		now = nb_mono_ns();
		if (q2 < q)
			progress = now;
		q = q2;
	}
	*waited_ns = now - t0;
	return q;
}

/* After the stop: the whole test's totals at both ends must add up. unacked: bytes our
 * senders still had unacknowledged waited_ns after they stopped (0: none, or not ours). */
static void reconcile(const struct nb_tput_params *p, struct nb_tput_dir_result *d,
		      const struct nb_tput_counters *sent, const struct nb_tput_counters *recvd,
		      bool cut_off, uint64_t unacked, uint64_t waited_ns)
{
	char why[160];
	d->sent_total = sent->bytes;
	d->received_total = recvd->bytes;
	if (cut_off && unacked) {
		snprintf(why, sizeof(why),
			 "receiver cut off: %llu bytes still unacknowledged %.1f s after the "
			 "sender stopped (the path or the receiver is slower than its queue)",
			 (unsigned long long)unacked, (double)waited_ns / 1e9);
		invalid(d, why);
	}
	if (cut_off)
		invalid(d, "the receiver was cut off before the sender finished");
	if (p->proto == NB_TPUT_TCP && sent->bytes != recvd->bytes) {
		snprintf(why, sizeof(why),
			 "TCP counts do not reconcile: %llu bytes sent, %llu received",
			 (unsigned long long)sent->bytes, (unsigned long long)recvd->bytes);
		invalid(d, why);
	}
	if (p->proto == NB_TPUT_UDP &&
	    (recvd->unique > sent->datagrams || recvd->expected > sent->datagrams)) {
		snprintf(why, sizeof(why),
			 "UDP counts do not reconcile: %llu datagrams sent, %llu received (highest "
			 "sequence %llu)",
			 (unsigned long long)sent->datagrams, (unsigned long long)recvd->unique,
			 (unsigned long long)recvd->expected);
		invalid(d, why);
	}
}

/* One data connection to dst. A congestion control is set before the connection exists, so
 * that the connection starts with it: one switched on an established socket keeps some of what
 * the default set up (likely BBR's pacing: on a veth at 1k blocks, cubic then moved a tenth of
 * what it moves from the start). */
static int data_socket(const struct nb_tput_params *p, const struct sockaddr *dst, uint32_t i,
		       char *err, size_t errlen)
{
	int fd = socket(dst->sa_family,
			(p->proto == NB_TPUT_TCP ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
	int ret;
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open data connection %u: %s", i, strerror(-ret));
		return ret;
	}
	if (p->proto == NB_TPUT_TCP && p->congestion[0] &&
	    (ret = nb_tcpcc_set(fd, p->congestion))) {
		close(fd);
		snprintf(err, errlen,
			 "cannot use congestion control %s on data connection %u: %s%s",
			 p->congestion, i, strerror(-ret),
			 ret == -EPERM ? " (outside tcp_allowed_congestion_control it needs "
					 "CAP_NET_ADMIN)"
				       : "");
		return ret;
	}
	if ((ret = nb_net_connect_fd(fd, dst, nb_net_sa_len(dst), CONNECT_MS))) {
		close(fd);
		snprintf(err, errlen, "cannot open data connection %u: %s", i, strerror(-ret));
		return ret;
	}
	return fd;
}

static int open_data(struct step *s, const struct nb_msg *ack, char *err, size_t errlen)
{
	const struct nb_tput_params *p = s->p;
	struct sockaddr_storage dst = s->ctl->peer;
	uint32_t cookie = 0;
	uint16_t port = 0;
	int ret;

	if (nb_tput_get_ack(ack, &port, &cookie) ||
	    (!port && (p->proto == NB_TPUT_TCP || (p->dir & NB_TPUT_DIR_TX)))) {
		snprintf(err, errlen, "malformed tput acknowledgement from the agent");
		return -EBADMSG;
	}
	nb_net_set_port((struct sockaddr *)&dst, port);
	for (uint32_t d = NB_TPUT_DIR_TX; d <= NB_TPUT_DIR_RX; d <<= 1) {
		if (!(p->dir & d))
			continue;
		if (p->proto == NB_TPUT_UDP && d == NB_TPUT_DIR_RX) {
			ret = nb_tput_side_add(s->rx, s->udp_rx_fd, 0);
			if (ret)
				return ret;
			s->udp_rx_fd = -1;
			continue;
		}
		for (uint32_t i = 0; i < p->streams; i++) {
			uint8_t hdr[NB_TPUT_CONN_HDR];
			int fd = data_socket(p, (struct sockaddr *)&dst, i, err, errlen);
			if (fd < 0)
				return fd;
			if (p->proto == NB_TPUT_TCP) {
				nb_tput_conn_hdr_put(hdr, cookie, (uint16_t)i, (uint16_t)d);
				if (send(fd, hdr, sizeof(hdr), MSG_NOSIGNAL) !=
				    (ssize_t)sizeof(hdr)) {
					ret = -errno;
					close(fd);
					snprintf(err, errlen, "data connection %u failed", i);
					return ret;
				}
			}
			ret = nb_tput_side_add(d == NB_TPUT_DIR_TX ? s->tx : s->rx, fd, i);
			if (ret) {
				close(fd);
				return ret;
			}
		}
	}
	return 0;
}

static int build_request(struct step *s, uint16_t udp_port)
{
	const struct nb_tput_params *p = s->p;
	struct nb_tput_request rq = {
	    .proto = p->proto,
	    .block = p->block,
	    .streams = p->streams,
	    .dir = p->dir,
	    .rate_bps = p->rate_bps,
	    /* The agent's senders stop on their own shortly after this, whatever happens to us. */
	    .duration_ns = nb_tput_step_duration_ns(p),
	    .pacing = p->pacing,
	    .burst = p->burst,
	    .udp_port = udp_port,
	    .profile_hz = p->profile_hz,
	};
	memcpy(rq.congestion, p->congestion, sizeof(rq.congestion));
	return nb_tput_put_request(s->req, &rq);
}

/* The agent's profile of the window, from its final answer: one copy per direction measured. */
static int remote_profile(const struct nb_tput_params *p, const struct nb_msg *final,
			  struct nb_tput_step_result *r, char *err, size_t errlen)
{
	struct nb_prof_result *got = malloc(sizeof(*got));
	int ret;
	if (!got)
		return -ENOMEM;
	ret = nb_prof_get(final, got);
	if (ret < 0) {
		free(got);
		snprintf(err, errlen, "malformed kernel profile from the agent");
		return ret;
	}
	if (ret == 0) {
		got->hz = p->profile_hz;
		snprintf(got->why, sizeof(got->why),
			 "the agent sent no profile (a version without tput's)");
	}
	for (int k = 0; k < 2; k++) {
		struct nb_tput_dir_result *d = k ? &r->rx : &r->tx;
		if (!(p->dir & (k ? NB_TPUT_DIR_RX : NB_TPUT_DIR_TX)))
			continue;
		if (!(d->prof_remote = malloc(sizeof(*d->prof_remote)))) {
			free(got);
			return -ENOMEM;
		}
		*d->prof_remote = *got;
	}
	free(got);
	return 0;
}

static void report_interval(struct step *s, uint32_t idx, nb_tput_interval_fn fn, void *arg)
{
	struct nb_tput_interval iv = {.index = idx, .tx_kbyte_per_s = NAN, .rx_kbyte_per_s = NAN};
	iv.start_s = (double)(s->prev->loc_ns - s->first->loc_ns) / 1e9;
	iv.end_s = (double)(s->cur->loc_ns - s->first->loc_ns) / 1e9;
	if (s->p->dir & NB_TPUT_DIR_TX)
		iv.tx_kbyte_per_s = kbps(s->cur->rem_rx.bytes - s->prev->rem_rx.bytes,
					 (double)(s->cur->rem_ns - s->prev->rem_ns) / 1e9);
	if (s->p->dir & NB_TPUT_DIR_RX)
		iv.rx_kbyte_per_s = kbps(s->cur->loc_rx.bytes - s->prev->loc_rx.bytes,
					 (double)(s->cur->loc_ns - s->prev->loc_ns) / 1e9);
	fn(arg, &iv);
}

/* This host's senders and receivers, and for UDP received here the receive socket, whose port
 * goes in the request (udp_port). Returns 0 or -errno. */
static int sides_open(struct step *s, uint16_t *udp_port, char *err, size_t errlen)
{
	const struct nb_tput_params *p = s->p;

	if (p->dir & NB_TPUT_DIR_TX)
		s->tx =
		    nb_tput_side_new(p->proto, NB_TPUT_SEND, p->block, p->rate_bps,
				     nb_mono_ns() + p->warmup_ns + p->time_ns + 30 * NB_NS_PER_S);
	if (s->tx)
		nb_tput_side_pacing(s->tx, (enum nb_pacing_mode)p->pacing, p->burst);
	if (p->dir & NB_TPUT_DIR_RX)
		s->rx = nb_tput_side_new(p->proto, NB_TPUT_RECV, p->block, 0, 0);
	if (((p->dir & NB_TPUT_DIR_TX) && !s->tx) || ((p->dir & NB_TPUT_DIR_RX) && !s->rx))
		return -ENOMEM;
	if (p->proto == NB_TPUT_UDP && (p->dir & NB_TPUT_DIR_RX)) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		s->udp_rx_fd = nb_net_bind_like((struct sockaddr *)&s->ctl->local, SOCK_DGRAM, 0);
		if (s->udp_rx_fd < 0) {
			snprintf(err, errlen, "cannot open the UDP receive socket: %s",
				 strerror(-s->udp_rx_fd));
			return s->udp_rx_fd;
		}
		getsockname(s->udp_rx_fd, (struct sockaddr *)&ss, &len);
		*udp_port = nb_net_port((struct sockaddr *)&ss);
	}
	return 0;
}

/* The request, the data connections, and the start: our receivers listen before the agent
 * starts sending; our senders start after it is ready to receive. */
static int start(struct step *s, uint16_t udp_port, struct nb_tput_step_result *r, char *err,
		 size_t errlen)
{
	int ret;

	if ((ret = build_request(s, udp_port)) ||
	    (ret = nb_ctl_request(s->ctl, s->req, s->reply, err, errlen)))
		return ret;
	if ((ret = open_data(s, s->reply, err, errlen)))
		return ret;
	if (s->rx && (ret = nb_tput_side_start(s->rx)))
		return ret;
	if (s->p->baseline_ns)
		ret = baseline(s, &r->baseline, err, errlen);
	else
		ret = nb_ctl_start(s->ctl, err, errlen);
	if (ret)
		return ret;
	if (s->tx && (ret = nb_tput_side_start(s->tx)))
		return ret;
	return 0;
}

/* After the warm-up: the profile, the window's first mark, and the observers' window, which
 * follows each of the step's marks by the same one round trip, so it is the step's window
 * shifted by a few milliseconds, not a guess of its own. */
static int window_open(struct step *s, uint32_t *id, char *err, size_t errlen)
{
	const struct nb_tput_params *p = s->p;
	int ret;

	nb_sleep_until_ns(nb_mono_ns() + p->warmup_ns);
	if (p->profile_hz) {
		char why[NB_PROF_WHY];
		ret =
		    nb_prof_open(&s->prof, p->profile_hz, NB_PROF_KIB_DEFAULT, 0, why, sizeof(why));
		if (ret == -EINVAL || ret == -ENOMEM) {
			snprintf(err, errlen, "--profile: %s", why);
			return ret;
		}
	}
	if ((ret = mark(s, (*id)++, s->first, false, err, errlen)))
		return ret;
	if (p->observe && p->observe->n &&
	    (ret = nb_obs_set_begin(p->observe, p->time_ns + OBS_SLACK_NS, err, errlen)))
		return ret;
	return 0;
}

/* The window, marked each interval (reported to on_interval) until its end. */
static int window_run(struct step *s, uint32_t *id, struct nb_tput_step_result *r,
		      nb_tput_interval_fn on_interval, void *arg, const nb_cancel_t *stop,
		      char *err, size_t errlen)
{
	const struct nb_tput_params *p = s->p;
	uint64_t next;
	int ret;

	*s->prev = *s->first;
	next = s->first->loc_ns;
	for (;;) {
		uint64_t end = s->first->loc_ns + p->time_ns;
		next = p->interval_ns ? next + p->interval_ns : end;
		if (next > end)
			next = end;
		while (nb_mono_ns() < next && !nb_cancelled(stop))
			nb_sleep_until_ns(nb_mono_ns() + 50 * NB_NS_PER_MS < next
					      ? nb_mono_ns() + 50 * NB_NS_PER_MS
					      : next);
		if (nb_cancelled(stop)) {
			snprintf(err, errlen, "interrupted");
			return -EINTR;
		}
		if ((ret = mark(s, (*id)++, s->cur, next >= end, err, errlen)))
			return ret;
		if (next >= end && p->observe && p->observe->n &&
		    (ret = nb_obs_set_end(p->observe, &r->obs, err, errlen)))
			return ret;
		if (on_interval && p->interval_ns)
			report_interval(s, *id - 1, on_interval, arg);
		if (next >= end)
			return 0;
		*s->prev = *s->cur;
	}
}

/* The window's results for each direction measured: its rates, this host's profile (each
 * direction its own copy) and the DUT's cost. */
static int window_results(struct step *s, struct nb_tput_step_result *r)
{
	const struct nb_tput_params *p = s->p;

	if (p->dir & NB_TPUT_DIR_TX)
		window(p, s->first, s->cur, true, &r->tx);
	if (p->dir & NB_TPUT_DIR_RX)
		window(p, s->first, s->cur, false, &r->rx);
	for (int k = 0; s->prof && k < 2; k++) {
		struct nb_tput_dir_result *d = k ? &r->rx : &r->tx;
		if (!(p->dir & (k ? NB_TPUT_DIR_RX : NB_TPUT_DIR_TX)))
			continue;
		if (!(d->prof_local = malloc(sizeof(*d->prof_local))))
			return -ENOMEM;
		nb_prof_result(s->prof, d->prof_local);
	}
	if (r->obs.n) /* per byte of both directions: the DUT carried both in one window */
		nb_obs_trial_cost(p->observe, &r->obs, NB_OBS_FRAMES_EGRESS,
				  (p->dir & NB_TPUT_DIR_TX ? r->tx.bytes : 0) +
				      (p->dir & NB_TPUT_DIR_RX ? r->rx.bytes : 0),
				  0);
	return 0;
}

/* Stop: our senders first so the agent's receivers see the end of the data; then the agent's
 * final counters and profile, our receivers drained, and each direction's totals
 * reconciled. */
static int stop_reconcile(struct step *s, struct nb_tput_step_result *r, const nb_cancel_t *stop,
			  char *err, size_t errlen)
{
	const struct nb_tput_params *p = s->p;
	struct nb_tput_counters loc_tx_total = {0}, loc_rx_total = {0}, rem_tx = {0}, rem_rx = {0};
	uint64_t unacked = 0, waited_ns = 0;
	bool rx_cut = false;
	char text[128] = "";
	int ret;

	if (s->tx) {
		nb_tput_side_stop(s->tx, 0);
		nb_tput_side_read(s->tx, &loc_tx_total);
		unacked = wait_acked(s->tx, stop, &waited_ns);
	}
	if ((ret = nb_ctl_stop(s->ctl, s->reply, STOP_REPLY_MS, err, errlen)))
		return ret;
	nb_msg_get_str(s->reply, NB_T_TEXT, text, sizeof(text));
	if (((p->dir & NB_TPUT_DIR_TX) &&
	     nb_tput_get_counters(s->reply, NB_T_TPUT_AGENT_RX, &rem_rx)) ||
	    ((p->dir & NB_TPUT_DIR_RX) &&
	     nb_tput_get_counters(s->reply, NB_T_TPUT_AGENT_TX, &rem_tx))) {
		snprintf(err, errlen, "malformed final counters from the agent");
		return -EBADMSG;
	}
	if (p->profile_hz && (ret = remote_profile(p, s->reply, r, err, errlen)))
		return ret;
	if (s->rx) {
		rx_cut = nb_tput_side_stop(s->rx, DRAIN_NS) == -ETIMEDOUT;
		nb_tput_side_read(s->rx, &loc_rx_total);
	}
	if (p->dir & NB_TPUT_DIR_TX)
		reconcile(p, &r->tx, &loc_tx_total, &rem_rx, text[0] != '\0', unacked, waited_ns);
	if (p->dir & NB_TPUT_DIR_RX)
		reconcile(p, &r->rx, &rem_tx, &loc_rx_total, rx_cut, 0, 0);
	return 0;
}

int nb_tput_run_step(struct nb_ctl *ctl, const struct nb_tput_params *p,
		     struct nb_tput_step_result *r, nb_tput_interval_fn on_interval, void *arg,
		     const nb_cancel_t *stop, char *err, size_t errlen)
{
	struct step s = {.p = p, .ctl = ctl, .udp_rx_fd = -1};
	uint16_t udp_port = 0;
	uint32_t id = 0;
	int ret = -ENOMEM;

	memset(r, 0, sizeof(*r));
	if (errlen)
		err[0] = '\0';
	s.req = nb_msg_new(0);
	s.reply = nb_msg_new(0);
	s.first = calloc(3, sizeof(struct edge));
	if (!s.req || !s.reply || !s.first)
		goto out;
	s.prev = s.first + 1;
	s.cur = s.first + 2;
	ret = sides_open(&s, &udp_port, err, errlen);
	if (!ret)
		ret = start(&s, udp_port, r, err, errlen);
	if (!ret)
		ret = window_open(&s, &id, err, errlen);
	if (!ret)
		ret = window_run(&s, &id, r, on_interval, arg, stop, err, errlen);
	if (!ret)
		ret = window_results(&s, r);
	if (!ret)
		ret = stop_reconcile(&s, r, stop, err, errlen);
out:
	if (ret) {
		nb_obs_trial_free(&r->obs);
		nb_tput_dir_result_free(&r->tx);
		nb_tput_dir_result_free(&r->rx);
	}
	nb_prof_free(s.prof);
	/* Paths that fail in libc (memory, threads) leave no text of their own. */
	if (ret && errlen && !err[0])
		snprintf(err, errlen, "tput step failed: %s", strerror(-ret));
	nb_tput_side_free(s.tx);
	nb_tput_side_free(s.rx);
	if (s.udp_rx_fd >= 0)
		close(s.udp_rx_fd);
	free(s.first);
	nb_msg_free(s.req);
	nb_msg_free(s.reply);
	return ret;
}
