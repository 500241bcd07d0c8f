/* SPDX-License-Identifier: BSD-2-Clause */
/* Sender and receiver loops of netbench stream. */
#include "core/stream/stream_run.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/base/compat.h"
#include "core/base/pacer.h"
#include "core/base/timeutil.h"

#define RX_BATCH	 16
#define RX_BUF		 65536
#define POLL_MS		 50
#define ACTIVE_SAMPLE_NS (200 * NB_NS_PER_MS)

double nb_stream_send_rate_bps(const struct nb_stream_send_step *s, size_t block)
{
	if (s->datagrams < 2 || s->last_ns <= s->first_ns)
		return NAN;
	return (double)(s->bytes - block) * 8.0 * 1e9 / (double)(s->last_ns - s->first_ns);
}

uint32_t nb_stream_step_count(uint64_t rate_bps, size_t block, uint64_t step_ns)
{
	double n = (double)rate_bps * ((double)step_ns / 1e9) / ((double)block * 8.0);
	if (n < 1.0)
		return 1;
	if (n > 4e9)
		return 4000000000u;
	return (uint32_t)llround(n);
}

uint32_t nb_stream_omit_count(uint64_t rate_bps, size_t block, uint64_t omit_ns)
{
	return omit_ns ? nb_stream_step_count(rate_bps, block, omit_ns) : 0;
}

static bool stopped(const nb_cancel_t *stop)
{
	return stop && *stop;
}

/* With a transmit time (SO_TXTIME enabled on fd, tx_ns not 0) the datagram leaves at tx_ns on
 * the monotonic clock; the header's send time is then that instant on the real-time clock, so
 * the receiver's jitter sees the kernel's pacing, not the hand-over. */
static ssize_t send_at(int fd, const uint8_t *buf, size_t block, uint64_t tx_ns)
{
	union {
		struct cmsghdr c;
		uint8_t b[CMSG_SPACE(sizeof(uint64_t))];
	} ctl;
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = block};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	struct cmsghdr *c;

	if (!tx_ns)
		return send(fd, buf, block, 0);
	memset(&ctl, 0, sizeof(ctl));
	mh.msg_control = ctl.b;
	mh.msg_controllen = sizeof(ctl.b);
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_TXTIME;
	c->cmsg_len = CMSG_LEN(sizeof(uint64_t));
	memcpy(CMSG_DATA(c), &tx_ns, sizeof(tx_ns));
	return sendmsg(fd, &mh, 0);
}

static void send_one(int fd, uint8_t *buf, size_t block, struct nb_stream_hdr *h,
		     struct nb_stream_send_step *s, uint64_t tx_ns)
{
	ssize_t n;
	uint64_t now_mono = tx_ns ? nb_mono_ns() : 0;

	h->send_ns = nb_real_ns();
	if (tx_ns > now_mono)
		h->send_ns += tx_ns - now_mono;
	nb_stream_hdr_encode(buf, h);
	n = send_at(fd, buf, block, tx_ns);
	/* A connected UDP socket reports an earlier ICMP error on the next send and drops
	 * that datagram: try it once more. */
	if (n < 0 && errno == ECONNREFUSED)
		n = send_at(fd, buf, block, tx_ns);
	if (!s)
		return;
	if (n < 0) {
		s->errors++;
		return;
	}
	uint64_t now = nb_mono_ns(); /* the hand-over: the sender's counters are its own */
	if (!s->datagrams)
		s->first_ns = now;
	s->last_ns = now;
	s->datagrams++;
	s->bytes += (uint64_t)n;
}

int nb_stream_send_run(const struct nb_stream_send_opts *o, struct nb_stream_send_step *steps)
{
	uint8_t *buf = calloc(1, o->block);
	struct nb_stream_hdr h;
	struct nb_cpu_sample *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	uint64_t start_ns, seq = 0;
	int ret = -ENOMEM;

	if (!buf || !a || !b)
		goto out;
	/* Payload beyond the header: a recognisable pattern, not stale memory. */
	for (size_t i = NB_STREAM_HDR; i < o->block; i++)
		buf[i] = (uint8_t)i;
	memset(&h, 0, sizeof(h));
	h.version = NB_STREAM_VERSION;
	h.stream_id = o->stream_id;
	start_ns = nb_mono_ns() + NB_NS_PER_MS;
	for (size_t i = 0; i < o->nrates && !stopped(o->stop); i++) {
		struct nb_stream_send_step *s = &steps[i], warm;
		struct nb_pacer p;
		bool opened = false;

		memset(s, 0, sizeof(*s));
		memset(&warm, 0, sizeof(warm));
		s->rate_bps = o->rates_bps[i];
		s->count = o->step_ns ? nb_stream_step_count(s->rate_bps, o->block, o->step_ns) : 0;
		s->omit_count = nb_stream_omit_count(s->rate_bps, o->block, o->omit_ns);
		h.step = (uint16_t)i;
		h.step_count = s->count;
		h.omit_count = s->omit_count;
		h.rate_kbps = (uint32_t)(s->rate_bps / 1000u);
		nb_pacer_init(&p, s->rate_bps, (uint64_t)o->block * 8u, start_ns);
		nb_pacer_set_mode(&p, (enum nb_pacing_mode)o->pacing, o->burst);
		s->pacing_mode = p.mode;
		s->burst = p.burst;
		/* One schedule through warm-up and window: the window starts in steady state. */
		for (uint32_t k = 0;
		     (!s->count || k < s->omit_count + s->count) && !stopped(o->stop); k++) {
			nb_pacer_wait(&p);
			if (k == s->omit_count) {
				nb_cpu_sample_now(a);
				if (o->on_edge) {
					o->on_edge(o->edge_arg, i, true);
					opened = true;
				}
				p.late_sends = 0; /* lateness and cost, too, are the window's */
				p.max_late_ns = 0;
				p.cpu_ns = 0;
				p.wakeups = 0;
			}
			h.seq = (uint32_t)seq++;
			h.step_seq = k;
			send_one(o->fd, buf, o->block, &h, k < s->omit_count ? &warm : s,
				 p.mode == NB_PACING_TXTIME ? nb_pacer_txtime(&p) : 0);
		}
		s->omit_datagrams = warm.datagrams;
		if (s->datagrams == 0 && s->errors == 0)
			nb_cpu_sample_now(a); /* stopped in the warm-up: an empty window */
		nb_cpu_sample_now(b);
		if (opened)
			o->on_edge(o->edge_arg, i, false);
		nb_cpu_load(a, b, &s->cpu);
		s->late_sends = p.late_sends;
		s->max_late_ns = p.max_late_ns;
		s->pacing_cpu_ns = p.cpu_ns;
		s->wakeups = p.wakeups;
		/* The next step starts where this one's schedule ends: steps are back to back. */
		start_ns = nb_pacer_deadline(&p, p.next);
		if (o->on_step)
			o->on_step(o->arg, i, s);
	}
	/* The end marker goes after the last datagram's deadline: with transmit times it would
	 * otherwise overtake datagrams the qdisc still holds. */
	if (!stopped(o->stop))
		nb_sleep_until_ns(start_ns);
	h.flags = NB_STREAM_F_FIN;
	h.step = (uint16_t)o->nrates;
	h.step_seq = 0;
	h.step_count = 0;
	for (unsigned c = 0; c < NB_STREAM_FIN_COPIES; c++) {
		h.seq = (uint32_t)seq;
		send_one(o->fd, buf, o->block, &h, NULL, 0);
		nb_sleep_until_ns(nb_mono_ns() + 2 * NB_NS_PER_MS);
	}
	ret = 0;
out:
	free(buf);
	free(a);
	free(b);
	return ret;
}

int nb_stream_recv_new(struct nb_stream_recv **out, int fd)
{
	struct nb_stream_recv *r = calloc(1, sizeof(*r));
	int ret = -ENOMEM;

	if (!r)
		goto out;
	ret = nb_stream_rx_new(&r->rx);
	if (ret < 0)
		goto out;
	ret = -pthread_mutex_init(&r->lock, NULL);
	if (ret < 0)
		goto out;
	r->fd = fd;
	r->cpu_step = -1;
	*out = r;
	r = NULL;
out:
	if (r) {
		nb_stream_rx_free(r->rx);
		free(r);
	}
	return ret;
}

int nb_stream_recv_profile(struct nb_stream_recv *r, uint32_t hz, char *why, size_t whylen)
{
	int ret = nb_prof_open(&r->prof, hz, NB_PROF_KIB_DEFAULT, 0, why, whylen);
	if (ret == -EINVAL || ret == -ENOMEM)
		return ret;
	return 0; /* a failure to open: every step's profile says why */
}

void nb_stream_recv_free(struct nb_stream_recv *r)
{
	if (!r)
		return;
	nb_stream_recv_stop(r);
	nb_prof_free(r->prof);
	for (size_t i = 0; i < NB_STREAM_MAX_STEPS; i++)
		free(r->prof_step[i]);
	pthread_mutex_destroy(&r->lock);
	nb_stream_rx_free(r->rx);
	free(r);
}

static uint64_t arrival_ns(struct msghdr *mh)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec ts;
			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			return (uint64_t)ts.tv_sec * NB_NS_PER_S + (uint64_t)ts.tv_nsec;
		}
	return nb_real_ns();
}

/* The profile of step i stops right before its closing CPU sample and starts right after its
 * opening one: the same window as the step's CPU figures. */
static void prof_close(struct nb_stream_recv *r, int i)
{
	if (!r->prof || !r->prof_on)
		return;
	nb_prof_stop(r->prof);
	r->prof_on = false;
	if (i < 0 || (size_t)i >= NB_STREAM_MAX_STEPS)
		return;
	if (!r->prof_step[i])
		r->prof_step[i] = malloc(sizeof(*r->prof_step[i]));
	if (r->prof_step[i])
		nb_prof_result(r->prof, r->prof_step[i]);
}

static void prof_open(struct nb_stream_recv *r)
{
	if (r->prof && nb_prof_start(r->prof) == 0)
		r->prof_on = true;
}

/* Called with the lock held after each datagram: a step's CPU window opens at the first
 * datagram after its warm-up and closes at the next step's first datagram (warm-up or not) or
 * the end marker. */
static void on_events(struct nb_stream_recv *r, unsigned ev)
{
	struct nb_stream_rx *rx = r->rx;

	if (ev & (NB_RX_NEW_STEP | NB_RX_WINDOW | NB_RX_FIN)) {
		struct nb_cpu_sample *s = &r->last_active;
		prof_close(r, r->cpu_step);
		nb_cpu_sample_now(s);
		r->last_sample_mono_ns = s->mono_ns;
		r->active_since_sample = false;
		if (r->cpu_step >= 0)
			nb_cpu_load(&r->step_start, s, &rx->steps[r->cpu_step].cpu);
		r->cpu_step = -1;
		if (ev & NB_RX_WINDOW) {
			r->step_start = *s;
			r->cpu_step = (int)rx->nsteps - 1;
			prof_open(r);
		}
	}
	if (ev & NB_RX_FIRST_FOREIGN) {
		nb_cpu_sample_now(&r->foreign_start);
		r->foreign_open = true;
	}
}

/* At the end: windows still open close at the last instant traffic was seen flowing. */
static void close_windows(struct nb_stream_recv *r)
{
	struct nb_cpu_sample *end = &r->last_active;
	uint64_t now = nb_mono_ns();

	prof_close(r, r->cpu_step);
	if (r->cpu_step < 0 && !r->foreign_open)
		return;
	if (r->active_since_sample || now - r->last_arrival_mono_ns < ACTIVE_SAMPLE_NS ||
	    !r->last_sample_mono_ns)
		nb_cpu_sample_now(end);
	if (r->cpu_step >= 0) {
		nb_cpu_load(&r->step_start, end, &r->rx->steps[r->cpu_step].cpu);
		r->rx->steps[r->cpu_step].closed = true;
	}
	if (r->foreign_open)
		nb_cpu_load(&r->foreign_start, end, &r->rx->foreign.cpu);
	r->cpu_step = -1;
	r->foreign_open = false;
}

struct rx_bufs {
	struct mmsghdr msgs[RX_BATCH];
	struct iovec iov[RX_BATCH];
	uint8_t ctl[RX_BATCH][CMSG_SPACE(sizeof(struct timespec)) + 64];
	uint8_t data[RX_BATCH][RX_BUF];
};

static int rx_batch(struct nb_stream_recv *r, struct rx_bufs *b)
{
	int n;

	for (int i = 0; i < RX_BATCH; i++) {
		b->iov[i].iov_base = b->data[i];
		b->iov[i].iov_len = RX_BUF;
		memset(&b->msgs[i].msg_hdr, 0, sizeof(b->msgs[i].msg_hdr));
		b->msgs[i].msg_hdr.msg_iov = &b->iov[i];
		b->msgs[i].msg_hdr.msg_iovlen = 1;
		b->msgs[i].msg_hdr.msg_control = b->ctl[i];
		b->msgs[i].msg_hdr.msg_controllen = sizeof(b->ctl[i]);
		b->msgs[i].msg_len = 0;
	}
	if (!r->used_recvmsg) {
		n = recvmmsg(r->fd, b->msgs, RX_BATCH, MSG_DONTWAIT, NULL);
		if (n >= 0 || errno != ENOSYS)
			return n < 0 ? -errno : n;
		r->used_recvmsg = true; /* kernels before 2.6.33 */
	}
	ssize_t len = recvmsg(r->fd, &b->msgs[0].msg_hdr, MSG_DONTWAIT);
	if (len < 0)
		return -errno;
	b->msgs[0].msg_len = (unsigned)len;
	return 1;
}

int nb_stream_recv_run(struct nb_stream_recv *r)
{
	struct rx_bufs *b = malloc(sizeof(*b));
	bool traffic = false;
	int ret = -ENOMEM;

	if (!b)
		goto out;
	r->end = NB_END_NONE;
	for (;;) {
		struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
		uint64_t now = nb_mono_ns();
		int n;

		if (r->stop || stopped(r->ext_stop)) {
			r->end = NB_END_STOP;
			break;
		}
		if (r->end_mono_ns && now >= r->end_mono_ns) {
			r->end = NB_END_TIME;
			break;
		}
		if (traffic && r->idle_ns && now - r->last_arrival_mono_ns >= r->idle_ns) {
			r->end = NB_END_IDLE;
			break;
		}
		if (r->active_since_sample && now - r->last_sample_mono_ns >= ACTIVE_SAMPLE_NS) {
			/* The latest instant traffic was known to flow: a window left open by a
			 * sender that stops without an end marker closes here. */
			pthread_mutex_lock(&r->lock);
			nb_cpu_sample_now(&r->last_active);
			pthread_mutex_unlock(&r->lock);
			r->last_sample_mono_ns = now;
			r->active_since_sample = false;
		}
		n = poll(&pfd, 1, POLL_MS);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto out;
		}
		if (n == 0)
			continue;
		n = rx_batch(r, b);
		if (n < 0) {
			if (n == -EAGAIN || n == -EINTR)
				continue;
			r->rx_errors++; /* e.g. ICMP errors queued on the socket */
			continue;
		}
		pthread_mutex_lock(&r->lock);
		for (int i = 0; i < n; i++) {
			uint64_t t = arrival_ns(&b->msgs[i].msg_hdr);
			unsigned ev =
			    nb_stream_rx_datagram(r->rx, b->data[i], b->msgs[i].msg_len, t);
			if (ev & (NB_RX_COUNTED | NB_RX_FOREIGN | NB_RX_WARMUP))
				traffic = true;
			if (r->on_datagram && (ev & (NB_RX_COUNTED | NB_RX_FOREIGN | NB_RX_WARMUP)))
				r->on_datagram(r->on_datagram_arg, t, b->data[i],
					       b->msgs[i].msg_len);
			on_events(r, ev);
		}
		r->last_arrival_mono_ns = nb_mono_ns();
		r->active_since_sample = true;
		pthread_mutex_unlock(&r->lock);
		if (r->stop_on_fin && r->rx->fin) {
			r->end = NB_END_FIN;
			break;
		}
	}
	ret = 0;
out:
	pthread_mutex_lock(&r->lock);
	close_windows(r);
	pthread_mutex_unlock(&r->lock);
	free(b);
	return ret;
}

static void *recv_thread(void *arg)
{
	nb_stream_recv_run(arg);
	return NULL;
}

int nb_stream_recv_start(struct nb_stream_recv *r)
{
	int e = pthread_create(&r->thread, NULL, recv_thread, r);
	if (e)
		return -e;
	r->running = true;
	return 0;
}

void nb_stream_recv_stop(struct nb_stream_recv *r)
{
	r->stop = 1;
	if (r->running) {
		pthread_join(r->thread, NULL);
		r->running = false;
	}
}

size_t nb_stream_recv_peek(struct nb_stream_recv *r, size_t i, struct nb_stream_step *s, bool *fin,
			   struct nb_cpu_sample *open, bool *open_known)
{
	size_t n;
	pthread_mutex_lock(&r->lock);
	n = r->rx->nsteps;
	if (i < n)
		*s = r->rx->steps[i];
	*fin = r->rx->fin;
	*open_known = r->cpu_step == (int)i;
	if (*open_known)
		*open = r->step_start;
	pthread_mutex_unlock(&r->lock);
	return n;
}

void nb_stream_recv_copy(struct nb_stream_recv *r, struct nb_stream_rx *out)
{
	pthread_mutex_lock(&r->lock);
	nb_stream_rx_gaps_update(r->rx);
	memcpy(out, r->rx, sizeof(*out));
	pthread_mutex_unlock(&r->lock);
}
