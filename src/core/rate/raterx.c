/* Receiver thread: recvmmsg in batches of 64 with a 50 ms timeout so that it notices the stop
 * flag; only the first 18 bytes of each datagram are read (the payload header). One mutex per
 * batch protects the counters from the snapshot reader; the hot path takes no other lock. */
#include "core/rate/raterx.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/sock_diag.h>

#include "core/rate/frame.h"
#include "core/base/timeutil.h"

#define RX_BATCH 64
#define RX_BYTES 64

struct nb_rx {
	int fd;
	bool no_mmsg;
	pthread_t thread;
	bool started;
	volatile int stop;
	pthread_mutex_t lock;
	struct nb_rx_snap cur;
	struct sockaddr_storage reflect_to;
	socklen_t reflect_len;	   /* 0: no reflection */
	uint64_t reflect_gap_ns;   /* token bucket: one token per gap */
	uint64_t reflect_avail_ns; /* the bucket is full at this time */
	uint8_t seen[NB_GEN_MAX_FLOWS][NB_RX_WINDOW / 8];
	uint8_t buf[RX_BATCH][RX_BYTES];
	struct iovec iov[RX_BATCH];
	struct mmsghdr msgs[RX_BATCH];
};

static void reset_trial(struct nb_rx *rx, uint16_t trial)
{
	bool mmsg = rx->cur.mmsg;
	memset(&rx->cur, 0, sizeof(rx->cur));
	memset(rx->seen, 0, sizeof(rx->seen));
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
static void reflect(struct nb_rx *rx, const uint8_t *p, uint64_t now)
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

static void count(struct nb_rx *rx, const uint8_t *p, size_t len, uint64_t now)
{
	struct nb_payload pl;
	struct nb_rx_snap *c = &rx->cur;
	uint64_t end;

	if (nb_payload_get(p, len, &pl) || pl.flow >= NB_GEN_MAX_FLOWS) {
		c->foreign++;
		return;
	}
	if (!c->any || (int16_t)(pl.trial - c->trial) > 0)
		reset_trial(rx, pl.trial);
	else if (pl.trial != c->trial) {
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
	if (pl.probe) {
		c->probes++;
		if (rx->reflect_len)
			reflect(rx, p, now);
	}
	if (now >= pl.tx_ns)
		nb_hist_add(&c->lat, now - pl.tx_ns);
}

static void *rx_main(void *arg)
{
	struct nb_rx *rx = arg;

	while (!rx->stop) {
		int n;
		if (rx->cur.mmsg) {
			n = recvmmsg(rx->fd, rx->msgs, RX_BATCH, MSG_WAITFORONE, NULL);
			if (n < 0 && errno == ENOSYS) {
				rx->cur.mmsg = false;
				continue;
			}
		} else {
			n = (int)recvmsg(rx->fd, &rx->msgs[0].msg_hdr, 0);
			if (n >= 0) {
				rx->msgs[0].msg_len = (unsigned)n;
				n = 1;
			}
		}
		if (n <= 0)
			continue; /* timeout (checks the stop flag) or a transient error */
		uint64_t now = nb_mono_ns();
		pthread_mutex_lock(&rx->lock);
		for (int i = 0; i < n; i++) {
			size_t len = rx->msgs[i].msg_len;
			count(rx, rx->buf[i], len < RX_BYTES ? len : RX_BYTES, now);
		}
		pthread_mutex_unlock(&rx->lock);
	}
	return NULL;
}

int nb_rx_new(struct nb_rx **out, int fd, bool no_mmsg)
{
	struct nb_rx *rx = calloc(1, sizeof(*rx));
	struct timeval tv = {0, 50000};
	int rcvbuf = 8 << 20;

	if (!rx) {
		close(fd);
		return -ENOMEM;
	}
	rx->fd = fd;
	rx->cur.mmsg = !no_mmsg;
	pthread_mutex_init(&rx->lock, NULL);
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	/* SO_RCVBUFFORCE passes rmem_max where we have CAP_NET_ADMIN; fine to fail. */
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	for (int i = 0; i < RX_BATCH; i++) {
		rx->iov[i].iov_base = rx->buf[i];
		rx->iov[i].iov_len = RX_BYTES;
		rx->msgs[i].msg_hdr.msg_iov = &rx->iov[i];
		rx->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	*out = rx;
	return 0;
}

int nb_rx_start(struct nb_rx *rx)
{
	int ret = pthread_create(&rx->thread, NULL, rx_main, rx);
	if (ret)
		return -ret;
	rx->started = true;
	return 0;
}

void nb_rx_reflect(struct nb_rx *rx, const struct sockaddr *to, uint32_t max_pps)
{
	socklen_t len =
	    to->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	if (!max_pps || max_pps > NB_RX_REFLECT_MAX_PPS)
		max_pps = NB_RX_REFLECT_MAX_PPS;
	memcpy(&rx->reflect_to, to, len);
	rx->reflect_len = len;
	rx->reflect_gap_ns = 1000000000ull / max_pps;
	rx->reflect_avail_ns = 0;
}

int nb_rx_set_rcvbuf(struct nb_rx *rx, int bytes)
{
	if (setsockopt(rx->fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes)))
		return -errno;
	return 0;
}

#ifndef SO_MEMINFO
#define SO_MEMINFO 55
#endif

void nb_rx_snapshot(struct nb_rx *rx, struct nb_rx_snap *snap)
{
	uint32_t mi[SK_MEMINFO_VARS];
	socklen_t len = sizeof(mi);
	pthread_mutex_lock(&rx->lock);
	memcpy(snap, &rx->cur, sizeof(*snap));
	pthread_mutex_unlock(&rx->lock);
	/* SO_MEMINFO (Linux 4.6) carries the socket's drop count: what a full receive buffer
	 * threw away, which the receiver itself never sees. */
	memset(mi, 0, sizeof(mi));
	snap->have_sock_drops = getsockopt(rx->fd, SOL_SOCKET, SO_MEMINFO, mi, &len) == 0 &&
				len > SK_MEMINFO_DROPS * sizeof(uint32_t);
	snap->sock_drops = snap->have_sock_drops ? mi[SK_MEMINFO_DROPS] : 0;
}

void nb_rx_free(struct nb_rx *rx)
{
	if (!rx)
		return;
	rx->stop = 1;
	if (rx->started)
		pthread_join(rx->thread, NULL);
	close(rx->fd);
	pthread_mutex_destroy(&rx->lock);
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
		/* Nothing of this trial arrived; frames of older trials may have. */
		c->lost = c->tx;
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
	c->lost = c->tx - c->rx;
}
