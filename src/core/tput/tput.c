/* SPDX-License-Identifier: BSD-2-Clause */
/* Throughput streams: sender and receiver threads for TCP and UDP, with pacing, sequence
 * tracking and lock-free counters. */
#include "core/tput/tput.h"
#include "core/tput/tput_wire.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/sockios.h>
#include <linux/tcp.h>

#include "core/base/compat.h"
#include "core/base/net.h"
#include "core/base/timeutil.h"

/* How long a blocked send or receive waits before looking at the stop flag again. */
#define POLL_MS 100
/* A UDP receiver counts the stream as over after this much silence once asked to stop. */
#define UDP_QUIET_NS (200 * NB_NS_PER_MS)

struct stream {
	struct nb_tput_side *side;
	int fd;
	uint32_t id;
	pthread_t thread;
	bool started;
	_Atomic uint64_t bytes, datagrams, errors, pacing_cpu_ns, pacing_wakeups;
	_Atomic bool ended; /* receiver saw EOF / sender returned */
};

struct nb_tput_side {
	enum nb_tput_proto proto;
	enum nb_tput_role role;
	uint32_t block;
	uint64_t rate_bps, deadline_ns;
	enum nb_pacing_mode pacing;
	uint32_t burst;
	size_t nstreams;
	struct stream streams[NB_TPUT_MAX_STREAMS];
	/* UDP receive: per stream-id sequence tracking, written by the one receive thread. */
	struct nb_seq_track *track;
	_Atomic uint64_t udp_expected, udp_unique, udp_reordered, udp_dups;
	_Atomic uint64_t last_rx_ns;
	_Atomic bool stop;  /* senders: stop sending */
	_Atomic bool abort; /* receivers: stop receiving */
};

void nb_seq_track_add(struct nb_seq_track *t, uint64_t seq)
{
	const uint64_t w = NB_TPUT_DUP_WINDOW;
#define BIT(s) (t->seen[((s) % w) / 64] & (1ULL << ((s) % 64)))
#define SET(s) (t->seen[((s) % w) / 64] |= (1ULL << ((s) % 64)))
#define CLR(s) (t->seen[((s) % w) / 64] &= ~(1ULL << ((s) % 64)))
	if (seq >= t->highest_plus1) {
		if (seq - t->highest_plus1 >= w)
			memset(t->seen, 0, sizeof(t->seen));
		else
			for (uint64_t s = t->highest_plus1; s < seq; s++)
				CLR(s);
		SET(seq);
		t->highest_plus1 = seq + 1;
		t->unique++;
	} else if (t->highest_plus1 - seq > w) {
		/* Too old to know whether we saw it: counted as a late arrival. */
		t->unique++;
		t->reordered++;
	} else if (BIT(seq)) {
		t->duplicates++;
	} else {
		SET(seq);
		t->unique++;
		t->reordered++;
	}
#undef BIT
#undef SET
#undef CLR
}

struct nb_tput_side *nb_tput_side_new(enum nb_tput_proto proto, enum nb_tput_role role,
				      uint32_t block, uint64_t rate_bps, uint64_t deadline_ns)
{
	struct nb_tput_side *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->proto = proto;
	s->role = role;
	s->block = block;
	s->rate_bps = rate_bps;
	s->deadline_ns = deadline_ns;
	s->pacing = NB_PACING_BURST;
	if (proto == NB_TPUT_UDP && role == NB_TPUT_RECV) {
		s->track = calloc(NB_TPUT_MAX_STREAMS, sizeof(*s->track));
		if (!s->track) {
			free(s);
			return NULL;
		}
	}
	return s;
}

void nb_tput_side_pacing(struct nb_tput_side *s, enum nb_pacing_mode mode, uint32_t burst)
{
	s->pacing = mode == NB_PACING_SPIN ? NB_PACING_SPIN : NB_PACING_BURST;
	s->burst = burst;
}

size_t nb_tput_side_streams(const struct nb_tput_side *s)
{
	return s->nstreams;
}

int nb_tput_side_add(struct nb_tput_side *s, int fd, uint32_t stream_id)
{
	struct stream *st;
	if (s->nstreams == NB_TPUT_MAX_STREAMS)
		return -E2BIG;
	st = &s->streams[s->nstreams++];
	st->side = s;
	st->fd = fd;
	st->id = stream_id;
	/* A UDP receiver that is briefly not scheduled must not lose datagrams to a small socket
	 * buffer: ask for 4 MiB (beyond rmem_max only with CAP_NET_ADMIN, else capped there). */
	if (s->proto == NB_TPUT_UDP && s->role == NB_TPUT_RECV) {
		int bytes = 4 << 20;
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)) < 0)
			setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
	}
	/* Blocking calls return now and then so that the stop flag is seen. */
	nb_net_set_timeout_ms(fd, SO_RCVTIMEO, POLL_MS);
	nb_net_set_timeout_ms(fd, SO_SNDTIMEO, POLL_MS);
	return 0;
}

static bool soft_error(int e)
{
	return e == EAGAIN || e == EWOULDBLOCK || e == EINTR;
}

static void *send_thread(void *arg)
{
	struct stream *st = arg;
	struct nb_tput_side *s = st->side;
	uint8_t *buf = malloc(s->block);
	uint64_t bytes = 0, dgrams = 0, errs = 0, seq = 0;
	struct nb_pacer pacer;

	if (!buf)
		goto out;
	for (uint32_t i = 0; i < s->block; i++)
		buf[i] = (uint8_t)(i * 7 + 1);
	if (s->rate_bps) {
		nb_pacer_init(&pacer, s->rate_bps, (uint64_t)s->block * 8u, nb_mono_ns());
		nb_pacer_set_mode(&pacer, s->pacing, s->burst);
	}
	while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
		uint64_t now = nb_mono_ns();
		ssize_t n;
		if (now >= s->deadline_ns)
			break;
		if (s->rate_bps) {
			nb_pacer_wait(&pacer);
			atomic_store_explicit(&st->pacing_cpu_ns, pacer.cpu_ns,
					      memory_order_relaxed);
			atomic_store_explicit(&st->pacing_wakeups, pacer.wakeups,
					      memory_order_relaxed);
			now = nb_mono_ns();
		}
		if (s->proto == NB_TPUT_UDP)
			nb_tput_udp_hdr_put(buf, st->id, seq, now);
		n = send(st->fd, buf, s->block, MSG_NOSIGNAL);
		if (n < 0) {
			if (soft_error(errno))
				continue;
			/* UDP: ENOBUFS from a full queue, ECONNREFUSED from an ICMP; keep going. */
			if (s->proto == NB_TPUT_UDP) {
				atomic_store_explicit(&st->errors, ++errs, memory_order_relaxed);
				if (errno == ENOBUFS) {
					struct pollfd p = {.fd = st->fd, .events = POLLOUT};
					poll(&p, 1, 1);
				}
				continue;
			}
			atomic_store_explicit(&st->errors, ++errs, memory_order_relaxed);
			break;
		}
		seq++;
		bytes += (uint64_t)n;
		atomic_store_explicit(&st->bytes, bytes, memory_order_relaxed);
		atomic_store_explicit(&st->datagrams, ++dgrams, memory_order_relaxed);
	}
	if (s->proto == NB_TPUT_TCP)
		shutdown(st->fd, SHUT_WR);
out:
	free(buf);
	atomic_store(&st->ended, true);
	return NULL;
}

static void *recv_tcp_thread(void *arg)
{
	struct stream *st = arg;
	struct nb_tput_side *s = st->side;
	uint8_t *buf = malloc(s->block);
	uint64_t bytes = 0, calls = 0;

	while (buf && !atomic_load_explicit(&s->abort, memory_order_relaxed)) {
		ssize_t n = recv(st->fd, buf, s->block, 0);
		if (n == 0)
			break;
		if (n < 0) {
			if (soft_error(errno))
				continue;
			atomic_store_explicit(&st->errors, 1, memory_order_relaxed);
			break;
		}
		bytes += (uint64_t)n;
		atomic_store_explicit(&st->bytes, bytes, memory_order_relaxed);
		atomic_store_explicit(&st->datagrams, ++calls, memory_order_relaxed);
	}
	free(buf);
	atomic_store(&st->ended, true);
	return NULL;
}

static void *recv_udp_thread(void *arg)
{
	struct stream *st = arg;
	struct nb_tput_side *s = st->side;
	uint8_t *buf = malloc(NB_TPUT_UDP_MAX + 1);
	uint64_t bytes = 0, dgrams = 0, expected = 0, unique = 0, reord = 0, dups = 0, bad = 0;

	while (buf && !atomic_load_explicit(&s->abort, memory_order_relaxed)) {
		uint32_t id;
		uint64_t seq;
		ssize_t n = recv(st->fd, buf, NB_TPUT_UDP_MAX + 1, 0);
		if (n < 0) {
			if (soft_error(errno) || errno == ECONNREFUSED)
				continue;
			break;
		}
		atomic_store_explicit(&s->last_rx_ns, nb_mono_ns(), memory_order_relaxed);
		if (nb_tput_udp_hdr_get(buf, (size_t)n, &id, &seq) || id >= NB_TPUT_MAX_STREAMS) {
			/* Not ours: counted as an error, never as test traffic. */
			atomic_store_explicit(&st->errors, ++bad, memory_order_relaxed);
			continue;
		}
		struct nb_seq_track *t = &s->track[id];
		uint64_t hp = t->highest_plus1, un = t->unique, ro = t->reordered,
			 du = t->duplicates;
		nb_seq_track_add(t, seq);
		expected += t->highest_plus1 - hp;
		unique += t->unique - un;
		reord += t->reordered - ro;
		dups += t->duplicates - du;
		bytes += (uint64_t)n;
		atomic_store_explicit(&s->udp_expected, expected, memory_order_relaxed);
		atomic_store_explicit(&s->udp_unique, unique, memory_order_relaxed);
		atomic_store_explicit(&s->udp_reordered, reord, memory_order_relaxed);
		atomic_store_explicit(&s->udp_dups, dups, memory_order_relaxed);
		atomic_store_explicit(&st->bytes, bytes, memory_order_relaxed);
		atomic_store_explicit(&st->datagrams, ++dgrams, memory_order_relaxed);
	}
	free(buf);
	atomic_store(&st->ended, true);
	return NULL;
}

int nb_tput_side_start(struct nb_tput_side *s)
{
	void *(*fn)(void *) = s->role == NB_TPUT_SEND	? send_thread
			      : s->proto == NB_TPUT_TCP ? recv_tcp_thread
							: recv_udp_thread;
	atomic_store(&s->last_rx_ns, nb_mono_ns());
	for (size_t i = 0; i < s->nstreams; i++) {
		int ret = pthread_create(&s->streams[i].thread, NULL, fn, &s->streams[i]);
		if (ret) {
			nb_tput_side_stop(s, 0);
			return -ret;
		}
		s->streams[i].started = true;
	}
	return 0;
}

/* One TCP socket's segments sent and retransmitted: 0, or -1 when the kernel does not give
 * both (tcpi_segs_out is from Linux 4.2). */
static int tcp_segs(int fd, uint64_t *out, uint64_t *retrans)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
	    len < offsetof(struct tcp_info, tcpi_segs_out) + sizeof(ti.tcpi_segs_out))
		return -1;
	*out += ti.tcpi_segs_out;
	*retrans += ti.tcpi_total_retrans;
	return 0;
}

void nb_tput_side_read(const struct nb_tput_side *s, struct nb_tput_counters *c)
{
	memset(c, 0, sizeof(*c));
	if (s->proto == NB_TPUT_TCP && s->role == NB_TPUT_SEND) {
		c->tcp_known = s->nstreams > 0;
		for (size_t i = 0; i < s->nstreams && c->tcp_known; i++)
			c->tcp_known =
			    tcp_segs(s->streams[i].fd, &c->tcp_segs_out, &c->tcp_retrans) == 0;
		if (s->nstreams && nb_tcpcc_get(s->streams[0].fd, c->tcp_cc, sizeof(c->tcp_cc)))
			c->tcp_cc[0] = '\0';
	}
	for (size_t i = 0; i < s->nstreams; i++) {
		const struct stream *st = &s->streams[i];
		c->bytes += atomic_load_explicit(&st->bytes, memory_order_relaxed);
		c->datagrams += atomic_load_explicit(&st->datagrams, memory_order_relaxed);
		c->errors += atomic_load_explicit(&st->errors, memory_order_relaxed);
		c->pacing_cpu_ns += atomic_load_explicit(&st->pacing_cpu_ns, memory_order_relaxed);
		c->pacing_wakeups +=
		    atomic_load_explicit(&st->pacing_wakeups, memory_order_relaxed);
	}
	if (s->proto == NB_TPUT_UDP && s->role == NB_TPUT_RECV) {
		c->expected = atomic_load_explicit(&s->udp_expected, memory_order_relaxed);
		c->unique = atomic_load_explicit(&s->udp_unique, memory_order_relaxed);
		c->reordered = atomic_load_explicit(&s->udp_reordered, memory_order_relaxed);
		c->duplicates = atomic_load_explicit(&s->udp_dups, memory_order_relaxed);
	}
}

static bool all_ended(struct nb_tput_side *s)
{
	for (size_t i = 0; i < s->nstreams; i++)
		if (s->streams[i].started && !atomic_load(&s->streams[i].ended))
			return false;
	return true;
}

static uint64_t side_bytes(const struct nb_tput_side *s)
{
	struct nb_tput_counters c;
	nb_tput_side_read(s, &c);
	return c.bytes;
}

int nb_tput_side_stop_slow(struct nb_tput_side *s, uint64_t drain_ns, uint64_t max_ns)
{
	uint64_t t0 = nb_mono_ns(), until = t0 + drain_ns, seen = side_bytes(s);
	int ret = 0;

	atomic_store(&s->stop, true);
	if (s->role == NB_TPUT_RECV) {
		for (;;) {
			uint64_t now = nb_mono_ns(), b;
			if (all_ended(s))
				break;
			if (now >= until && now - t0 < max_ns && (b = side_bytes(s)) > seen) {
				seen = b; /* still receiving: another drain_ns, within max_ns */
				until = now + drain_ns < t0 + max_ns ? now + drain_ns : t0 + max_ns;
			}
			if (s->proto == NB_TPUT_UDP &&
			    now - atomic_load(&s->last_rx_ns) >= UDP_QUIET_NS)
				break;
			if (now >= until) {
				ret = s->proto == NB_TPUT_TCP ? -ETIMEDOUT : 0;
				break;
			}
			nb_sleep_until_ns(now + 10 * NB_NS_PER_MS);
		}
		atomic_store(&s->abort, true);
	}
	for (size_t i = 0; i < s->nstreams; i++)
		if (s->streams[i].started) {
			pthread_join(s->streams[i].thread, NULL);
			s->streams[i].started = false;
		}
	return ret;
}

int nb_tput_side_stop(struct nb_tput_side *s, uint64_t drain_ns)
{
	return nb_tput_side_stop_slow(s, drain_ns, drain_ns);
}

uint64_t nb_tput_side_unacked(const struct nb_tput_side *s)
{
	uint64_t sum = 0;
	if (s->proto != NB_TPUT_TCP || s->role != NB_TPUT_SEND)
		return 0;
	for (size_t i = 0; i < s->nstreams; i++) {
		int q = 0;
		if (ioctl(s->streams[i].fd, SIOCOUTQ, &q) == 0 && q > 0)
			sum += (uint64_t)q;
	}
	return sum;
}

void nb_tput_side_halt(struct nb_tput_side *s)
{
	atomic_store(&s->stop, true);
	atomic_store(&s->abort, true);
}

void nb_tput_side_free(struct nb_tput_side *s)
{
	if (!s)
		return;
	nb_tput_side_stop(s, 0);
	for (size_t i = 0; i < s->nstreams; i++)
		close(s->streams[i].fd);
	free(s->track);
	free(s);
}
