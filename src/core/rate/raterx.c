/* SPDX-License-Identifier: BSD-2-Clause */
/* Receiver threads, one per socket: recvmmsg in batches of 64 with a 50 ms timeout so that each
 * notices the stop flag; only the first 18 bytes of each datagram are read (the payload header).
 * One mutex per worker and batch protects its counters from the snapshot reader (never taken by
 * another receiving thread); the snapshot sums the workers' counters. */
#include "core/rate/raterx.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/base/compat.h"
#include "core/rate/frame.h"
#include "core/base/timeutil.h"

#define RX_BATCH 64
#define RX_BYTES 64

/* One receiving socket and its thread. With SO_REUSEPORT the kernel sends every datagram of a
 * flow (one 4-tuple) to the same socket, so a flow's duplicate window lives in one worker. */
struct rx_worker {
	struct nb_rx *parent;
	int fd;
	/* A port range (flows by destination port): every socket this worker reads, fds[0] ==
	 * fd, polled with epoll (ep; -1 with one socket, read blocking as before). */
	int *fds;
	uint32_t nfds;
	int ep;
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	bool expecting; /* nb_rx_expect named the trial: count only its frames */
	struct nb_rx_snap cur;
	struct sockaddr_storage reflect_to;
	socklen_t reflect_len;	   /* 0: no reflection */
	uint64_t reflect_gap_ns;   /* token bucket: one token per gap */
	uint64_t reflect_avail_ns; /* the bucket is full at this time */
	/* Per flow, the sequence window (max_flows of them, nb_rx_set_flows). */
	uint8_t (*seen)[NB_RX_WINDOW / 8];
	uint32_t max_flows;
	bool wide; /* the flow id's top bit is the flow's, not a probe's */
	uint8_t buf[RX_BATCH][RX_BYTES];
	struct iovec iov[RX_BATCH];
	struct mmsghdr msgs[RX_BATCH];
};

struct nb_rx {
	volatile int stop;
	bool drops_known; /* SO_MEMINFO works */
	/* The sockets' drop counters, summed: at the previous snapshot, and where the trial the
	 * snapshots see began (the previous snapshot before the trial id changed). */
	uint64_t drops_prev, drops_base;
	bool snapped;
	uint16_t snap_trial;
	uint32_t n;
	struct rx_worker *w[NB_RX_MAX_SOCKETS];
};

static void reset_trial(struct rx_worker *rx, uint16_t trial)
{
	bool mmsg = rx->cur.mmsg;
	memset(&rx->cur, 0, sizeof(rx->cur));
	memset(rx->seen, 0, (size_t)rx->max_flows * sizeof(*rx->seen));
	rx->cur.trial = trial;
	rx->cur.any = true;
	rx->cur.mmsg = mmsg;
}

static bool bit_test_set(uint8_t *w, uint32_t seq)
{
	uint32_t b = seq % NB_RX_WINDOW;
	bool was = w[b / 8] & (1u << (b % 8));
	w[b / 8] |= (uint8_t)(1u << (b % 8));
	return was;
}

static void bit_clear(uint8_t *w, uint32_t seq)
{
	uint32_t b = seq % NB_RX_WINDOW;
	w[b / 8] &= (uint8_t) ~(1u << (b % 8));
}

/* Sends a probe back with the reflect magic; the bucket drops what exceeds the cap rather than
 * delaying it (a late reflection would be a wrong round trip). */
static void reflect(struct rx_worker *rx, const uint8_t *p, uint64_t now)
{
	uint8_t out[NB_PAYLOAD_MIN];
	uint64_t full = NB_RX_REFLECT_BURST * rx->reflect_gap_ns;

	if (rx->reflect_avail_ns + full < now)
		rx->reflect_avail_ns = now - full;
	if (rx->reflect_avail_ns + rx->reflect_gap_ns > now)
		return;
	rx->reflect_avail_ns += rx->reflect_gap_ns;
	memcpy(out, p, sizeof(out));
	out[0] = (uint8_t)(NB_REFLECT_MAGIC >> 8);
	out[1] = (uint8_t)NB_REFLECT_MAGIC;
	if (sendto(rx->fd, out, sizeof(out), MSG_DONTWAIT, (struct sockaddr *)&rx->reflect_to,
		   rx->reflect_len) == (ssize_t)sizeof(out))
		rx->cur.reflected++;
}

static void count_len(struct nb_rx_snap *c, size_t len)
{
	for (uint32_t i = 0; i < c->nlens; i++)
		if (c->len_bytes[i] == len) {
			c->len_rx[i]++;
			return;
		}
	if (c->nlens < NB_RX_LENS) {
		c->len_bytes[c->nlens] = (uint32_t)len;
		c->len_rx[c->nlens++] = 1;
	} else {
		c->len_other++;
	}
}

/* A datagram of full_len bytes, of which len (at most RX_BYTES) were read into p. */
static void count(struct rx_worker *rx, const uint8_t *p, size_t len, size_t full_len, uint64_t now)
{
	struct nb_payload pl;
	struct nb_rx_snap *c = &rx->cur;
	uint64_t end;

	if (nb_payload_get(p, len, &pl)) {
		c->foreign++;
		return;
	}
	if (rx->wide) {
		pl.flow = (uint16_t)(pl.flow | (pl.probe ? NB_PAYLOAD_PROBE : 0));
		pl.probe = false;
	}
	if (pl.flow >= rx->max_flows) {
		c->foreign++;
		return;
	}
	if (rx->expecting) {
		/* The controller named the trial: anything else is an earlier trial's (or an
		 * earlier run's) and never counts as this one's. */
		if (pl.trial != c->trial) {
			c->late++;
			return;
		}
		c->any = true;
	} else if (!c->any || (int16_t)(pl.trial - c->trial) > 0) {
		reset_trial(rx, pl.trial);
	} else if (pl.trial != c->trial) {
		c->late++;
		return;
	}
	if (pl.flow >= c->flows)
		c->flows = pl.flow + 1u;
	end = c->seq_end[pl.flow];
	if (pl.seq >= end) {
		/* Forget the window slots between the old end and this frame. */
		uint64_t gap = pl.seq - end;
		if (gap >= NB_RX_WINDOW)
			memset(rx->seen[pl.flow], 0, NB_RX_WINDOW / 8);
		else
			for (uint64_t s = end; s < pl.seq; s++)
				bit_clear(rx->seen[pl.flow], (uint32_t)s);
		bit_clear(rx->seen[pl.flow], pl.seq);
		bit_test_set(rx->seen[pl.flow], pl.seq);
		c->seq_end[pl.flow] = (uint64_t)pl.seq + 1;
	} else if (end - pl.seq > NB_RX_WINDOW) {
		c->late++;
		return;
	} else if (bit_test_set(rx->seen[pl.flow], pl.seq)) {
		c->dup++;
		return;
	} else {
		c->reordered++;
	}
	c->rx++;
	c->rx_flow[pl.flow]++;
	count_len(c, full_len);
	if (pl.probe) {
		c->probes++;
		if (rx->reflect_len)
			reflect(rx, p, now);
	}
	if (now >= pl.tx_ns)
		nb_hist_add(&c->lat, now - pl.tx_ns);
}

/* One batch from fd into rx->msgs: the number of datagrams, or <= 0 (timeout, nothing
 * ready, a transient error). */
static int recv_batch(struct rx_worker *rx, int fd, int flags)
{
	int n;
	if (rx->cur.mmsg) {
		/* MSG_TRUNC: each message's length is the datagram's, though only RX_BYTES are
		 * read (frames are counted by size). */
		n = recvmmsg(fd, rx->msgs, RX_BATCH, MSG_WAITFORONE | MSG_TRUNC | flags, NULL);
		if (n < 0 && errno == ENOSYS)
			rx->cur.mmsg = false;
		return n;
	}
	n = (int)recvmsg(fd, &rx->msgs[0].msg_hdr, MSG_TRUNC | flags);
	if (n < 0)
		return n;
	rx->msgs[0].msg_len = (unsigned)n;
	return 1;
}

static void count_batch(struct rx_worker *rx, int n)
{
	uint64_t now = nb_mono_ns();
	pthread_mutex_lock(&rx->lock);
	for (int i = 0; i < n; i++) {
		size_t len = rx->msgs[i].msg_len;
		count(rx, rx->buf[i], len < RX_BYTES ? len : RX_BYTES, len, now);
	}
	pthread_mutex_unlock(&rx->lock);
}

static void *rx_main(void *arg)
{
	struct rx_worker *rx = arg;

	while (!rx->parent->stop) {
		struct epoll_event ev[16];
		int n;
		if (rx->ep < 0) {
			n = recv_batch(rx, rx->fd, 0);
			if (n > 0) /* else a timeout (checks the stop flag) or a transient error */
				count_batch(rx, n);
			continue;
		}
		/* A port range: one batch from each socket that has frames, in turn. */
		n = epoll_wait(rx->ep, ev, 16, 50);
		for (int i = 0; i < n; i++) {
			int got = recv_batch(rx, ev[i].data.fd, MSG_DONTWAIT);
			if (got > 0)
				count_batch(rx, got);
		}
	}
	return NULL;
}

/* The sockets' drop counters (sk_drops), summed: -ENOPROTOOPT before Linux 4.12. */
static int read_drops(struct nb_rx *rx, uint64_t *drops)
{
	uint64_t sum = 0;
	if (!rx->drops_known)
		return -ENOPROTOOPT;
	for (uint32_t i = 0; i < rx->n; i++)
		for (uint32_t k = 0; k < rx->w[i]->nfds; k++) {
			uint32_t mi[NB_SK_MEMINFO_VARS];
			socklen_t len = sizeof(mi);
			memset(mi, 0, sizeof(mi));
			if (getsockopt(rx->w[i]->fds[k], SOL_SOCKET, SO_MEMINFO, mi, &len) < 0 ||
			    len <= NB_SK_MEMINFO_DROPS * sizeof(uint32_t)) {
				rx->drops_known = false;
				return -ENOPROTOOPT;
			}
			sum += mi[NB_SK_MEMINFO_DROPS];
		}
	*drops = sum;
	return 0;
}

static void worker_free(struct rx_worker *w)
{
	if (!w)
		return;
	if (w->started)
		pthread_join(w->thread, NULL);
	for (uint32_t k = 0; k < w->nfds; k++)
		close(w->fds[k]);
	if (w->ep >= 0)
		close(w->ep);
	free(w->fds);
	free(w->seen);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

/* Socket i goes to worker i % nworkers. */
static int new_workers(struct nb_rx **out, const int *fds, uint32_t n, uint32_t nworkers,
		       bool no_mmsg)
{
	struct nb_rx *rx = calloc(1, sizeof(*rx));
	struct timeval tv = {0, 50000};
	uint32_t per = nworkers ? (n + nworkers - 1) / nworkers : 0;
	/* 8 MB a worker, shared among a port range's sockets, at least 256 KB each (a flow's
	 * burst lands on one socket): a range of 1024 ports must not ask the kernel for 8 GB
	 * (what all UDP sockets together may hold is the kernel's net.ipv4.udp_mem anyway). */
	int rcvbuf = per > 1 ? (int)((8u << 20) / per) : 8 << 20, ret = 0;

	if (rcvbuf < (256 << 10))
		rcvbuf = 256 << 10;
	*out = NULL;
	if (!n || n > NB_RX_FLOWS || !nworkers || nworkers > NB_RX_MAX_SOCKETS || nworkers > n)
		ret = -EINVAL;
	else if (!rx)
		ret = -ENOMEM;
	for (uint32_t i = 0; i < nworkers && !ret; i++) {
		struct rx_worker *w = calloc(1, sizeof(*w));
		if (!w || !(w->fds = calloc(per, sizeof(int))) ||
		    !(w->seen = calloc(NB_RX_FLOWS, sizeof(*w->seen)))) {
			if (w)
				free(w->fds);
			free(w);
			ret = -ENOMEM;
			break;
		}
		w->max_flows = NB_RX_FLOWS;
		rx->w[rx->n++] = w;
		w->parent = rx;
		w->ep = -1;
		w->cur.mmsg = !no_mmsg;
		pthread_mutex_init(&w->lock, NULL);
		for (int k = 0; k < RX_BATCH; k++) {
			w->iov[k].iov_base = w->buf[k];
			w->iov[k].iov_len = RX_BYTES;
			w->msgs[k].msg_hdr.msg_iov = &w->iov[k];
			w->msgs[k].msg_hdr.msg_iovlen = 1;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		struct rx_worker *w = ret ? NULL : rx->w[i % nworkers];
		if (!w) {
			close(fds[i]);
			continue;
		}
		w->fds[w->nfds++] = fds[i];
		w->fd = w->fds[0];
		(void)setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		(void)setsockopt(fds[i], SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
		/* SO_RCVBUFFORCE passes rmem_max where we have CAP_NET_ADMIN; fine to fail. */
		(void)setsockopt(fds[i], SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	}
	for (uint32_t i = 0; i < rx->n && !ret; i++) {
		struct rx_worker *w = rx->w[i];
		if (w->nfds < 2)
			continue;
		if ((w->ep = epoll_create1(EPOLL_CLOEXEC)) < 0) {
			ret = -errno;
			break;
		}
		for (uint32_t k = 0; k < w->nfds && !ret; k++) {
			struct epoll_event ev = {.events = EPOLLIN, .data.fd = w->fds[k]};
			if (epoll_ctl(w->ep, EPOLL_CTL_ADD, w->fds[k], &ev) < 0)
				ret = -errno;
		}
	}
	if (ret) {
		nb_rx_free(rx);
		return ret;
	}
	rx->drops_known = true;
	(void)read_drops(rx, &rx->drops_prev);
	rx->drops_base = rx->drops_prev;
	*out = rx;
	return 0;
}

int nb_rx_new_group(struct nb_rx **out, const int *fds, uint32_t n, bool no_mmsg)
{
	if (!n || n > NB_RX_MAX_SOCKETS) {
		for (uint32_t i = 0; i < n; i++)
			close(fds[i]);
		*out = NULL;
		return -EINVAL;
	}
	return new_workers(out, fds, n, n, no_mmsg);
}

int nb_rx_new_ports(struct nb_rx **out, const int *fds, uint32_t n, uint32_t workers, bool no_mmsg)
{
	if (workers > n)
		workers = n;
	return new_workers(out, fds, n, workers ? workers : 1, no_mmsg);
}

int nb_rx_new(struct nb_rx **out, int fd, bool no_mmsg)
{
	return nb_rx_new_group(out, &fd, 1, no_mmsg);
}

uint32_t nb_rx_sockets(const struct nb_rx *rx)
{
	return rx->n;
}

int nb_rx_start(struct nb_rx *rx)
{
	for (uint32_t i = 0; i < rx->n; i++) {
		int ret = pthread_create(&rx->w[i]->thread, NULL, rx_main, rx->w[i]);
		if (ret)
			return -ret;
		rx->w[i]->started = true;
	}
	return 0;
}

void nb_rx_reflect(struct nb_rx *rx, const struct sockaddr *to, uint32_t max_pps)
{
	socklen_t len =
	    to->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	if (!max_pps || max_pps > NB_RX_REFLECT_MAX_PPS)
		max_pps = NB_RX_REFLECT_MAX_PPS;
	/* The cap holds for the sum of the sockets. */
	max_pps = max_pps / rx->n ? max_pps / rx->n : 1;
	for (uint32_t i = 0; i < rx->n; i++) {
		struct rx_worker *w = rx->w[i];
		memcpy(&w->reflect_to, to, len);
		w->reflect_len = len;
		w->reflect_gap_ns = 1000000000ull / max_pps;
		w->reflect_avail_ns = 0;
	}
}

void nb_rx_expect(struct nb_rx *rx, uint16_t trial)
{
	uint64_t drops = 0;
	bool fresh = false;

	for (uint32_t i = 0; i < rx->n; i++) {
		struct rx_worker *w = rx->w[i];
		pthread_mutex_lock(&w->lock);
		if (!w->expecting || w->cur.trial != trial) {
			reset_trial(w, trial);
			w->cur.any = false;
			w->expecting = true;
			fresh = true;
		}
		pthread_mutex_unlock(&w->lock);
	}
	/* The trial's socket drops count from here. */
	if (fresh && read_drops(rx, &drops) == 0) {
		rx->drops_base = rx->drops_prev = drops;
		rx->snap_trial = trial;
		rx->snapped = true;
	}
}

void nb_rx_snap_merge(struct nb_rx_snap *into, const struct nb_rx_snap *from)
{
	if (!from->any)
		return;
	if (!into->any || (int16_t)(from->trial - into->trial) > 0) {
		/* A newer trial: what was merged so far belongs to an older one. */
		bool mmsg = into->mmsg;
		memcpy(into, from, sizeof(*into));
		into->mmsg = mmsg && from->mmsg;
		return;
	}
	into->mmsg = into->mmsg && from->mmsg;
	if (from->trial != into->trial)
		return;
	into->rx += from->rx;
	into->dup += from->dup;
	into->reordered += from->reordered;
	into->late += from->late;
	into->foreign += from->foreign;
	into->probes += from->probes;
	into->reflected += from->reflected;
	if (from->flows > into->flows)
		into->flows = from->flows;
	for (uint32_t f = 0; f < from->flows; f++) {
		into->rx_flow[f] += from->rx_flow[f];
		if (from->seq_end[f] > into->seq_end[f])
			into->seq_end[f] = from->seq_end[f];
	}
	nb_hist_merge(&into->lat, &from->lat);
	into->len_other += from->len_other;
	for (uint32_t i = 0; i < from->nlens; i++)
		for (uint32_t k = 0; k <= into->nlens; k++) {
			if (k == into->nlens) {
				if (into->nlens < NB_RX_LENS) {
					into->len_bytes[k] = from->len_bytes[i];
					into->len_rx[into->nlens++] = from->len_rx[i];
				} else {
					into->len_other += from->len_rx[i];
				}
				break;
			}
			if (into->len_bytes[k] == from->len_bytes[i]) {
				into->len_rx[k] += from->len_rx[i];
				break;
			}
		}
}

int nb_rx_set_flows(struct nb_rx *rx, uint32_t flows, bool wide)
{
	if (!flows || flows > NB_GEN_MAX_FLOWS || (!wide && flows > NB_PAYLOAD_PROBE))
		return -EINVAL;
	for (uint32_t i = 0; i < rx->n; i++) {
		struct rx_worker *w = rx->w[i];
		uint8_t(*seen)[NB_RX_WINDOW / 8] = calloc(flows, sizeof(*seen));
		if (!seen)
			return -ENOMEM;
		free(w->seen);
		w->seen = seen;
		w->max_flows = flows;
		w->wide = wide;
	}
	return 0;
}

int nb_rx_set_rcvbuf(struct nb_rx *rx, int bytes)
{
	for (uint32_t i = 0; i < rx->n; i++)
		for (uint32_t k = 0; k < rx->w[i]->nfds; k++)
			if (setsockopt(rx->w[i]->fds[k], SOL_SOCKET, SO_RCVBUF, &bytes,
				       sizeof(bytes)))
				return -errno;
	return 0;
}

void nb_rx_snapshot(struct nb_rx *rx, struct nb_rx_snap *snap)
{
	struct nb_rx_snap *one = rx->n > 1 ? malloc(sizeof(*one)) : NULL;

	uint64_t drops = 0;
	bool known = read_drops(rx, &drops) == 0;

	if (rx->n == 1 || !one) {
		/* (Out of memory: the first socket's counters alone fail to reconcile.) */
		pthread_mutex_lock(&rx->w[0]->lock);
		memcpy(snap, &rx->w[0]->cur, sizeof(*snap));
		pthread_mutex_unlock(&rx->w[0]->lock);
	} else {
		memset(snap, 0, sizeof(*snap));
		snap->mmsg = true;
		for (uint32_t i = 0; i < rx->n; i++) {
			pthread_mutex_lock(&rx->w[i]->lock);
			memcpy(one, &rx->w[i]->cur, sizeof(*one));
			pthread_mutex_unlock(&rx->w[i]->lock);
			if (!one->any)
				snap->mmsg = snap->mmsg && one->mmsg;
			nb_rx_snap_merge(snap, one);
		}
	}
	free(one);
	/* The trial's drops: the counters' growth since the last snapshot before it began.
	 * Snapshots come after each trial's drain, so that is the end of the trial before; a
	 * receiver held up for the whole trial (its queue full, every later frame dropped) still
	 * counts them, as it sees the trial's id once it reads the queued frames. */
	if (snap->any && (!rx->snapped || snap->trial != rx->snap_trial)) {
		rx->drops_base = rx->drops_prev;
		rx->snap_trial = snap->trial;
		rx->snapped = true;
	}
	snap->lens_known = true;
	snap->drops_known = known;
	if (known) {
		snap->sock_drops = drops >= rx->drops_base ? drops - rx->drops_base : 0;
		rx->drops_prev = drops;
	}
}

void nb_rx_free(struct nb_rx *rx)
{
	if (!rx)
		return;
	rx->stop = 1;
	for (uint32_t i = 0; i < rx->n; i++)
		worker_free(rx->w[i]);
	free(rx);
}

void nb_rx_reconcile(const uint64_t *tx_flow, uint32_t flows, uint16_t trial,
		     const struct nb_rx_snap *snap, struct nb_trial_counts *c)
{
	bool mine = snap->any && snap->trial == trial;

	memset(c, 0, sizeof(*c));
	c->valid = true;
	for (uint32_t f = 0; f < flows; f++)
		c->tx += tx_flow[f];
	if (!mine) {
		/* Nothing of this trial arrived; frames of other trials may have (a receiver
		 * told which trial to expect says how many). */
		c->lost = c->tx;
		if (snap->trial == trial)
			c->late = snap->late;
		return;
	}
	c->rx = snap->rx;
	c->dup = snap->dup;
	c->reordered = snap->reordered;
	c->late = snap->late;
	if (snap->flows > flows) {
		c->valid = false;
		snprintf(c->why, sizeof(c->why), "frames of flow %u arrived, only %u flows sent",
			 snap->flows - 1, flows);
		return;
	}
	for (uint32_t f = 0; f < snap->flows; f++) {
		if (snap->rx_flow[f] > tx_flow[f] || snap->seq_end[f] > tx_flow[f]) {
			c->valid = false;
			snprintf(c->why, sizeof(c->why),
				 "flow %u: received %llu (up to sequence %llu) of %llu sent", f,
				 (unsigned long long)snap->rx_flow[f],
				 (unsigned long long)snap->seq_end[f],
				 (unsigned long long)tx_flow[f]);
			return;
		}
	}
	/* The total is the receiver's own count: it too must fit in what was sent (a peer's
	 * snapshot is foreign; found by tests/fuzz/fuzz_rate_wire.c). */
	if (c->rx > c->tx) {
		c->valid = false;
		snprintf(c->why, sizeof(c->why), "received %llu frames, %llu sent",
			 (unsigned long long)c->rx, (unsigned long long)c->tx);
		return;
	}
	c->lost = c->tx - c->rx;
}

int nb_rx_bind_group(const struct sockaddr *addr, socklen_t len, uint32_t n, int *fds)
{
	uint32_t opened = 0;
	int one = 1, ret = 0;
	bool reuseport = n > 1;

	if (!n || n > NB_RX_MAX_SOCKETS)
		return -EINVAL;
	while (opened < n) {
		int fd = socket(addr->sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		/* IPv6's wildcard (a destination range's receiver) takes IPv6 alone. */
		if (addr->sa_family == AF_INET6 &&
		    IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)addr)->sin6_addr))
			(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		if (reuseport && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) < 0) {
			/* Kernels before 3.9: one socket, one receiving thread. */
			if (opened) {
				close(fd);
				break;
			}
			reuseport = false;
			n = 1;
		}
		if (bind(fd, addr, len) < 0) {
			ret = -errno;
			close(fd);
			break;
		}
		fds[opened++] = fd;
	}
	if (ret || !opened) {
		while (opened)
			close(fds[--opened]);
		return ret ? ret : -EINVAL;
	}
	return (int)opened;
}
