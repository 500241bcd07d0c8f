/* SPDX-License-Identifier: BSD-2-Clause */
/* The real trials of `netbench rate`: the receiver from the receiver table, the generator
 * engine, one trial at a time (prepare, send, drain, read the counters, reconcile), and the
 * procedure of rfc2544.c run over them at every frame size. */
#include "core/rate/rate_run.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/hist.h"
#include "core/base/net.h"
#include "core/base/timeutil.h"
#include "core/rate/frame.h"
#include "core/rate/tapring.h"

/* What "flat out" is assumed to reach when choosing the probe spacing. */
#define PROBE_FLAT_OUT_FPS 4e6

static void emit(const struct nb_rate_run *r, const struct nb_rate_event *ev)
{
	if (r->progress)
		r->progress(r->progress_arg, ev);
}

/* The CPU time of the processes behind the tap (the emulated board's qemu), summed. */
static int qemu_cpu_s(const struct nb_rate_run *r, double *cpu_s)
{
	double sum = 0, one;
	for (size_t i = 0; i < r->nqemu; i++) {
		int ret = nb_tapring_proc_cpu_s("", r->qemu_pids[i], &one);
		if (ret)
			return ret;
		sum += one;
	}
	*cpu_s = sum;
	return 0;
}

static void set_latency(struct nb_rate_trial *rec, const struct nb_hist *h)
{
	static const double q[] = {0.5, 0.9, 0.99, 0.999, 1.0};
	rec->lat_valid = true;
	for (int i = 0; i < 5; i++)
		rec->lat_ns[i] = nb_hist_quantile(h, q[i]);
	rec->lat_ns[5] = h->min_ns;
}

/* Each generator thread's share of a trial, as it ran. */
static void record_threads(const struct nb_rate_run *r, struct nb_rate_trial *rec)
{
	for (uint32_t i = 0; i < nb_gen_pool_threads(r->pool); i++) {
		const struct nb_gen_stats *ts = nb_gen_pool_thread_stats(r->pool, i);
		rec->thread_tx[i] = ts->tx_frames;
		rec->thread_window_ns[i] = ts->end_ns - ts->start_ns;
		rec->thread_asked_fps[i] = nb_gen_pool_thread_rate(r->pool, i);
		rec->thread_slipped[i] = ts->slipped_frames;
	}
}

/* --per-flow: each flow's frames sent and (of this trial) received. */
static int record_flows(const struct nb_rate_run *r, uint16_t wire, struct nb_rate_trial *rec)
{
	uint32_t flows = r->p->flows;
	bool mine = r->snap->any && r->snap->trial == wire;

	rec->flow_tx = calloc(flows, sizeof(uint64_t));
	rec->flow_rx = calloc(flows, sizeof(uint64_t));
	if (!rec->flow_tx || !rec->flow_rx)
		return -ENOMEM;
	for (uint32_t f = 0; f < flows; f++) {
		rec->flow_tx[f] = r->gs->tx_flow[f];
		rec->flow_rx[f] = mine && f < r->snap->flows ? r->snap->rx_flow[f] : 0;
	}
	return 0;
}

/* What this host measures around a trial: the tap's ring drops and qemu's CPU time, where
 * an emulated board is in the path. */
struct trial_host {
	bool ring, qemu;
	uint64_t ring0;
	double qemu0, qemu1;
};

/* Before the trial's first frame: the probes, the frames, the agent's receiver (and with
 * --bidir its sender), and the DUT's window, which opens with the trial and closes after its
 * drain. */
static int trial_begin(struct nb_rate_run *r, const struct nb_rate_trial_req *q, uint16_t wire,
		       uint64_t trial_ns, uint32_t *probe_every, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	char why[256] = "";
	int ret;

	if (r->rtt) {
		/* Probes on flow 0 at about NB_RATE_PROBE_PPS, whatever the trial's rate. */
		double flow0_fps = (q->rate_fps > 0 ? q->rate_fps : PROBE_FLAT_OUT_FPS) / p->flows;
		double every = flow0_fps / NB_RATE_PROBE_PPS;
		*probe_every = every < 1 ? 1 : every > 1e9 ? 1000000000u : (uint32_t)(every + 0.5);
		nb_probe_trial(r->probe, wire);
	}
	ret = nb_gen_pool_prepare(r->pool, q->size, wire, *probe_every);
	if (ret) {
		snprintf(err, errlen, "engine %s cannot send %u-byte frames: %s", p->engine->name,
			 q->size, strerror(-ret));
		return ret;
	}
	/* The agent checks each trial against its caps: duration, and the bit rate of the
	 * frames (0 when the generator runs flat out). A burst (b2b) is shorter. */
	if (p->bidir)
		nb_rate_bidir_begin(r, wire, q->rate_fps, q->size, trial_ns, q->frames);
	ret = p->receiver->begin(r->rxs, wire, trial_ns + p->drain_ns + NB_NS_PER_S,
				 (uint64_t)(q->rate_fps * q->size * 8), why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "agent: %s", why);
		return ret;
	}
	if (p->observe && p->observe->n)
		return nb_obs_set_begin(p->observe, trial_ns + p->drain_ns + NB_NS_PER_S, err,
					errlen);
	return 0;
}

/* The frames sent, with this host's CPU load around them, and the sending recorded. */
static int trial_send(struct nb_rate_run *r, const struct nb_rate_trial_req *q,
		      const struct nb_gen_trial *t, uint64_t trial_ns, struct trial_host *h,
		      struct nb_rate_trial *rec, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	struct nb_cpu_sample c0, c1;
	uint64_t window_ns;
	int ret;

	h->ring = h->ring && !nb_tapring_dropped("", r->path.ifname, &h->ring0);
	h->qemu = h->qemu && !qemu_cpu_s(r, &h->qemu0);
	nb_cpu_sample_now(&c0);
	ret = nb_gen_pool_run(r->pool, t, r->gs);
	if (ret) {
		snprintf(err, errlen, "engine %s failed while sending: %s", p->engine->name,
			 strerror(-ret));
		return ret;
	}
	nb_cpu_sample_now(&c1);
	h->qemu = h->qemu && !qemu_cpu_s(r, &h->qemu1) && h->qemu1 >= h->qemu0;
	if (p->stop && *p->stop) {
		snprintf(err, errlen, "interrupted");
		return -EINTR;
	}
	nb_cpu_load(&c0, &c1, &rec->cpu);
	rec->host_other_pct = h->qemu ? nb_cpu_other_pct(&rec->cpu, h->qemu1 - h->qemu0) : NAN;
	window_ns = r->gs->end_ns - r->gs->start_ns;
	if (!q->frames && window_ns < trial_ns)
		window_ns = trial_ns;
	rec->window_s = (double)window_ns / 1e9;
	rec->slipped_frames = r->gs->slipped_frames;
	rec->pacing = t->rate_fps ? p->pacing : NB_PACING_AUTO;
	rec->pacing_burst = r->gs->pacing_burst;
	rec->pacing_wakeups = r->gs->pacing_wakeups;
	rec->pacing_cpu_ns = r->gs->pacing_cpu_ns;
	record_threads(r, rec);
	rec->offered_fps = window_ns ? (double)r->gs->tx_frames * 1e9 / (double)window_ns : 0;
	return 0;
}

/* Counters are read only once the frames still in flight have arrived: the tap's ring and
 * the DUT's window after the drain. */
static int trial_drain(struct nb_rate_run *r, const struct trial_host *h, struct nb_rate_trial *rec,
		       char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	uint64_t ring1 = 0;
	int ret;

	nb_sleep_until_ns(nb_mono_ns() + p->drain_ns);
	if (h->ring && !nb_tapring_dropped("", r->path.ifname, &ring1) && ring1 >= h->ring0) {
		rec->ring_known = true;
		rec->ring_dropped = ring1 - h->ring0;
	}
	if (p->observe && p->observe->n) {
		if ((ret = nb_obs_set_end(p->observe, &rec->obs, err, errlen)))
			return ret;
		nb_obs_trial_cost(p->observe, &rec->obs, NB_OBS_FRAMES_EGRESS, 0,
				  r->have_path ? r->path.mtu : 0);
	}
	return 0;
}

/* What the receiver counted, reconciled with what was sent: the frames, the mix, the reverse
 * direction, each flow, the DUT's cost per forwarded frame, the socket's drops. */
static int trial_received(struct nb_rate_run *r, uint16_t wire, const struct trial_host *h,
			  struct nb_rate_trial *rec, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	char why[256] = "";
	int ret;

	ret = p->receiver->end(r->rxs, r->snap, &rec->cpu_remote, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "agent: %s", why);
		return ret;
	}
	/* The sink's agent is work of the test too where it runs on this host (a namespace);
	 * where it runs in a board its time is inside qemu's already. Its window is the longer
	 * (to the counters' read), so the other load errs low, never high. */
	if (h->qemu && rec->cpu_remote.valid && isfinite(rec->cpu_remote.proc_cpu_s))
		rec->host_other_pct =
		    nb_cpu_other_pct(&rec->cpu, h->qemu1 - h->qemu0 + rec->cpu_remote.proc_cpu_s);
	nb_rx_reconcile(r->gs->tx_flow, p->flows, wire, r->snap, &rec->c);
	/* Before --bidir judges the trial: a mix that does not reconcile makes it invalid. */
	if (p->mix)
		nb_mix_reconcile(p->mix, r->dst.ss_family, r->gs->tx_flow, p->flows, r->snap,
				 r->snap->any && r->snap->trial == wire, rec->mix_tx, rec->mix_rx,
				 &rec->rx_by_size_known, &rec->c);
	if (p->bidir && (ret = nb_rate_bidir_end(r, wire, rec, err, errlen)))
		return ret;
	if (p->per_flow && (ret = record_flows(r, wire, rec))) {
		snprintf(err, errlen, "per-flow counts: %s", strerror(-ret));
		return ret;
	}
	if (rec->obs.n) /* forwarded: what the receiver counted */
		nb_obs_trial_cost(p->observe, &rec->obs, rec->c.tx - rec->c.lost, 0,
				  r->have_path ? r->path.mtu : 0);
	if (r->snap->any && r->snap->trial == wire) {
		rec->drops_known = r->snap->drops_known;
		rec->rx_dropped = r->snap->sock_drops;
	}
	return 0;
}

/* The trial's latency: round trip from the probes, else one way where both ends read one
 * clock. */
static void trial_latency(struct nb_rate_run *r, uint16_t wire, uint32_t probe_every,
			  struct nb_rate_trial *rec)
{
	if (r->rtt) {
		/* Every reflection the agent sent has returned or been lost once STOP is answered:
		 * the drain covered the way back too. */
		nb_probe_snapshot(r->probe, r->psnap);
		rec->probe_every = probe_every;
		rec->probes_sent = (r->gs->tx_flow[0] + probe_every - 1) / probe_every;
		if (r->snap->any && r->snap->trial == wire) {
			rec->probes_rx = r->snap->probes;
			rec->probes_reflected = r->snap->reflected;
		}
		rec->probes_returned = r->psnap->returned;
		if (rec->c.valid && r->psnap->rtt.count)
			set_latency(rec, &r->psnap->rtt);
	} else if (rec->c.valid && r->same_clock && r->snap->any && r->snap->trial == wire &&
		   r->snap->lat.count) {
		set_latency(rec, &r->snap->lat);
	}
}

/* One trial of frames of q->size at q->rate_fps (0: flat out), or exactly q->frames frames,
 * recorded in rec: an nb_rate_trial_fn. */
static int run_trial(void *ctx, const struct nb_rate_trial_req *q, struct nb_rate_trial *rec,
		     char *err, size_t errlen)
{
	struct nb_rate_run *r = ctx;
	const struct nb_rate_params *p = r->p;
	uint64_t trial_ns = q->duration_ns ? q->duration_ns : p->trial_ns;
	struct nb_gen_trial t = {.rate_fps = (uint64_t)(q->rate_fps + 0.5),
				 .duration_ns = q->frames ? 0 : trial_ns,
				 .frames = q->frames,
				 .pacing = p->pacing,
				 .burst = q->burst,
				 .flows = p->flows,
				 .batch = p->batch,
				 .stop = p->stop};
	struct trial_host h = {.ring = r->tap_ring, .qemu = r->nqemu > 0};
	uint32_t probe_every = 0;
	uint16_t wire = nb_rate_wire_id(r, q->id);
	int ret;

	if ((ret = trial_begin(r, q, wire, trial_ns, &probe_every, err, errlen)) ||
	    (ret = trial_send(r, q, &t, trial_ns, &h, rec, err, errlen)) ||
	    (ret = trial_drain(r, &h, rec, err, errlen)))
		return ret;
	if (!p->receiver->counts) {
		/* Send only: no receiver counts anything. */
		rec->c.tx = r->gs->tx_frames;
		rec->c.valid = true;
		return 0;
	}
	if ((ret = trial_received(r, wire, &h, rec, err, errlen)))
		return ret;
	trial_latency(r, wire, probe_every, rec);
	emit(r, &(struct nb_rate_event){.kind = NB_RATE_EV_TRIAL, .size = q->size, .trial = rec});
	return 0;
}

/* With a receiver that reflects probes: one-way latency where both ends read one clock, else
 * (or when asked) round trip from probes reflected to a socket of ours. */
static int setup_latency(struct nb_rate_run *r, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	int ret;

	if (p->latency == NB_RATE_LAT_ONEWAY && !r->same_clock) {
		snprintf(err, errlen,
			 "--latency oneway: the agent runs on another kernel (its boot id "
			 "differs), so its clock is not ours; use --latency rtt or auto");
		return -EINVAL;
	}
	r->rtt =
	    p->latency == NB_RATE_LAT_RTT || (p->latency == NB_RATE_LAT_AUTO && !r->same_clock);
	if (!r->rtt)
		return 0;
	r->psnap = calloc(1, sizeof(*r->psnap));
	if (!r->psnap) {
		snprintf(err, errlen, "probe counters: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ret = nb_probe_new(&r->probe, r->dst.ss_family);
	if (!ret)
		ret = nb_probe_start(r->probe);
	if (ret) {
		snprintf(err, errlen, "socket for reflected probes: %s", strerror(-ret));
		return ret;
	}
	/* The agent reflects to the address our frames leave from (its target rule accepts only
	 * the controller's). */
	p->receiver->reflect(r->rxs, r->have_path ? (struct sockaddr *)&r->path.src : NULL,
			     nb_probe_port(r->probe), NB_RX_REFLECT_MAX_PPS);
	return 0;
}

int nb_rate_open(struct nb_rate_run **out, const struct nb_rate_params *p,
		 nb_rate_progress_fn progress, void *arg, char *err, size_t errlen)
{
	struct nb_rate_run *r = calloc(1, sizeof(*r));
	char abuf[INET6_ADDRSTRLEN];
	int ret;

	*out = r;
	if (!r || !(r->snap = calloc(1, sizeof(*r->snap))) ||
	    !(r->gs = calloc(1, sizeof(*r->gs)))) {
		snprintf(err, errlen, "out of memory: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	r->p = p;
	r->progress = progress;
	r->progress_arg = arg;
	r->proc.p = p;
	r->proc.trial = run_trial;
	r->proc.ctx = r;
	r->id_offset = (uint32_t)(nb_mono_ns() ^ (uint64_t)getpid()) % 65535;
	ret = p->receiver->open(&p->rx, &r->rxs, &r->dst, &r->dst_len, &r->same_clock, &r->remote,
				err, errlen);
	if (ret)
		return ret;
	ret = nb_path_route((struct sockaddr *)&r->dst, &r->path);
	if (ret == -ENETUNREACH || ret == -EHOSTUNREACH) {
		nb_net_addr_str((struct sockaddr *)&r->dst, false, abuf, sizeof(abuf));
		snprintf(err, errlen, "no route to %s", abuf);
		return ret;
	}
	r->have_path = ret == 0;
	r->tap_ring = r->have_path && nb_tapring_is_tap("", r->path.ifname);
	if (r->tap_ring && (r->qemu_pids[0] = nb_tapring_owner("", r->path.ifname)) > 0)
		r->nqemu = 1;
	r->rx_threads = p->receiver->threads  ? p->receiver->threads(r->rxs)
			: p->receiver->counts ? 1
					      : 0;
	if (p->bidir && (ret = nb_rate_bidir_open(r, err, errlen)))
		return ret;
	if (p->receiver->reflect)
		return setup_latency(r, err, errlen);
	return 0;
}

int nb_rate_check_sizes(const struct nb_rate_run *r, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	uint32_t min = nb_frame_min_bytes(r->dst.ss_family);
	uint32_t max =
	    r->have_path && r->path.mtu ? nb_frame_max_for_mtu(r->path.mtu) : NB_FRAME_MAX;

	if (p->mix && nb_mix_min_bytes(p->mix) < min) {
		snprintf(err, errlen, "--imix: %u bytes is too small for IPv6 (at least %u)",
			 nb_mix_min_bytes(p->mix), min);
		return -EINVAL;
	}
	if (p->mix && nb_mix_max_bytes(p->mix) > max) {
		snprintf(err, errlen, "--imix: %u bytes is too large for %s (MTU %u: at most %u)",
			 nb_mix_max_bytes(p->mix), r->path.ifname, r->path.mtu, max);
		return -EINVAL;
	}
	for (size_t i = 0; i < p->nsizes; i++) {
		if (p->sizes[i] < min) {
			snprintf(err, errlen,
				 "--sizes: %llu bytes is too small for IPv6 (at least %u)",
				 (unsigned long long)p->sizes[i], min);
			return -EINVAL;
		}
		if (p->sizes[i] > max) {
			snprintf(err, errlen,
				 "--sizes: %llu bytes is too large for %s (MTU %u: at most %u)",
				 (unsigned long long)p->sizes[i], r->path.ifname, r->path.mtu, max);
			return -EINVAL;
		}
	}
	return 0;
}

int nb_rate_check_flows(struct nb_rate_run *r, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	struct sockaddr_storage avoid[2];
	uint64_t avail;
	unsigned plen;

	if ((p->flow_fields & NB_FLOW_DST_IP) && nb_flow_range_wraps(&r->dst, p->flows)) {
		snprintf(err, errlen,
			 "--flow-fields dst-ip: %u flows from the receiver's address "
			 "run past the address space",
			 p->flows);
		return -EINVAL;
	}
	if (!(p->flow_fields & NB_FLOW_SRC_IP))
		return 0;
	/* Flows from the upper half of the generator's own network (flows.h), never this
	 * host's address or the next hop's. */
	if (!r->have_path || nb_flow_prefix_len((struct sockaddr *)&r->path.src, &plen)) {
		snprintf(err, errlen,
			 "--flow-fields src-ip: cannot find the network of this host's source "
			 "address");
		return -EADDRNOTAVAIL; /* this host's, not the request's */
	}
	avoid[0] = r->path.src;
	avoid[1] = r->path.nexthop;
	if (nb_flow_src_range((struct sockaddr *)&r->path.src, plen, p->flows, avoid, 2,
			      &r->src_first, &avail, err, errlen))
		return -EINVAL;
	return 0;
}

int nb_rate_start(struct nb_rate_run *r, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	struct nb_gen_cfg gc;
	uint32_t frame_max = 0;
	int ret;

	for (size_t i = 0; i < p->nsizes; i++)
		frame_max = p->sizes[i] > frame_max ? (uint32_t)p->sizes[i] : frame_max;
	if (p->mix && nb_mix_max_bytes(p->mix) > frame_max)
		frame_max = nb_mix_max_bytes(p->mix);
	memset(&gc, 0, sizeof(gc));
	gc.dst = r->dst;
	gc.dst_len = r->dst_len;
	gc.sport_base = p->sport;
	gc.flows = p->flows;
	gc.batch = p->batch;
	gc.frame_max_bytes = frame_max;
	gc.no_mmsg = p->rx.no_mmsg;
	gc.sport_fixed = p->flow_fields && !(p->flow_fields & NB_FLOW_SPORT);
	if (p->flow_fields & NB_FLOW_SRC_IP) {
		gc.src_spread = true;
		gc.src_first = r->src_first;
	}
	gc.dst_spread = (p->flow_fields & NB_FLOW_DST_IP) != 0;
	gc.dport_spread = (p->flow_fields & NB_FLOW_DPORT) != 0;
	/* Neighbour discovery solicits once a second (RFC 4861 RetransTimer): three tries. */
	gc.neigh_wait_ms = r->dst.ss_family == AF_INET6 ? 3000 : 1000;
	ret = nb_gen_pool_open(&r->pool, p->engine, &gc, p->threads ? p->threads : 1, p->cpus,
			       p->ncpus, err, errlen);
	if (ret)
		return ret;
	if (p->mix && (ret = nb_gen_pool_set_mix(r->pool, p->mix))) {
		snprintf(err, errlen, "--imix: engine %s %s", p->engine->name,
			 ret == -EOPNOTSUPP ? "sends one frame size only; use --engine udp"
					    : strerror(-ret));
		return ret;
	}
	nb_sysinfo_get(&r->local, r->have_path ? (struct sockaddr *)&r->path.src : NULL);
	return 0;
}

int nb_rate_run_sizes(struct nb_rate_run *r, struct nb_rate_size *res, struct nb_rate_overall *v,
		      char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	size_t done = 0;
	int ret = nb_rate_learn(r, r->learn_when[0] ? r->learn_when : "start", err, errlen);

	if (ret) {
		memset(v, 0, sizeof(*v));
		return ret;
	}
	for (size_t i = 0; i < p->nsizes && !(p->stop && *p->stop); i++) {
		struct nb_rate_size *s = &res[i];
		s->size = (uint32_t)p->sizes[i];
		emit(r, &(struct nb_rate_event){.kind = NB_RATE_EV_SIZE, .size = s->size});
		ret = nb_rate_procedure(&r->proc, s, err, errlen);
		if (ret)
			break;
		nb_rate_bottleneck(p, r->proc.trials, s);
		s->receiver_limited = nb_rate_receiver_limited(r->proc.trials, s);
		nb_rate_bidir_conclude(p, r->proc.trials, s);
		done++;
		emit(r, &(struct nb_rate_event){
			    .kind = NB_RATE_EV_SIZE_DONE, .size = s->size, .result = s});
	}
	/* Decided once, over the sizes that finished: every view renders it. */
	nb_rate_conclude(p, res, done, v);
	return ret;
}

void nb_rate_describe(struct nb_rate_run *r)
{
	nb_gen_pool_describe(r->pool, r->engine_desc, sizeof(r->engine_desc));
}

void nb_rate_free(struct nb_rate_run *r)
{
	if (!r)
		return;
	nb_gen_pool_free(r->pool);
	if (r->p)
		r->p->receiver->close(r->rxs);
	nb_probe_free(r->probe);
	for (size_t i = 0; i < r->proc.ntrials; i++) {
		nb_obs_trial_free(&r->proc.trials[i].obs);
		free(r->proc.trials[i].flow_tx);
		free(r->proc.trials[i].flow_rx);
	}
	nb_rate_proc_free(&r->proc);
	free(r->learn);
	free(r->psnap);
	nb_rx_free(r->rev_rx);
	free(r->rev_snap);
	free(r->snap);
	free(r->gs);
	free(r);
}
