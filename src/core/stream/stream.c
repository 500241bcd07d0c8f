/* SPDX-License-Identifier: BSD-2-Clause */
/* The stream datagram header and the receive side's accounting. Everything here is pure
 * computation on datagrams already read, so unit tests feed it crafted sequences. */
#include "core/stream/stream.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/wire.h"

void nb_stream_hdr_encode(uint8_t *buf, const struct nb_stream_hdr *h)
{
	uint32_t seq = h->seq & 0x7fffffffu;

	/* iperf2 marks the end of a stream with a negative sequence number. */
	if (h->flags & NB_STREAM_F_FIN)
		seq = (uint32_t)(-(int32_t)(seq ? seq : 1));
	nb_put_be32(buf, seq);
	nb_put_be32(buf + 4, (uint32_t)(h->send_ns / 1000000000u));
	nb_put_be32(buf + 8, (uint32_t)(h->send_ns % 1000000000u / 1000u));
	nb_put_be32(buf + 12, 0);
	nb_put_be32(buf + 16, 0);
	nb_put_be32(buf + 20, NB_STREAM_MAGIC);
	buf[24] = h->version;
	buf[25] = h->flags;
	nb_put_be16(buf + 26, h->step);
	nb_put_be32(buf + 28, h->stream_id);
	nb_put_be32(buf + 32, h->step_seq);
	nb_put_be32(buf + 36, h->step_count);
	nb_put_be64(buf + 40, h->send_ns);
	nb_put_be32(buf + 48, h->rate_kbps);
	nb_put_be32(buf + 52, h->omit_count);
}

int nb_stream_hdr_decode(const uint8_t *buf, size_t len, struct nb_stream_hdr *h)
{
	if (len < NB_STREAM_HDR || nb_get_be32(buf + 20) != NB_STREAM_MAGIC ||
	    buf[24] != NB_STREAM_VERSION)
		return -EINVAL;
	h->seq = nb_get_be32(buf) & 0x7fffffffu;
	h->version = buf[24];
	h->flags = buf[25];
	h->step = nb_get_be16(buf + 26);
	h->stream_id = nb_get_be32(buf + 28);
	h->step_seq = nb_get_be32(buf + 32);
	h->step_count = nb_get_be32(buf + 36);
	h->send_ns = nb_get_be64(buf + 40);
	h->rate_kbps = nb_get_be32(buf + 48);
	h->omit_count = nb_get_be32(buf + 52);
	return 0;
}

void nb_jitter_update(struct nb_jitter *j, uint64_t send_ns, uint64_t arrival_ns)
{
	int64_t transit = (int64_t)(arrival_ns - send_ns);

	if (j->have_last) {
		/* The send time comes from the peer: the difference is taken in double, where any
		 * two transit times fit, not in int64_t, where they may overflow. */
		double d = (double)transit - (double)j->last_transit_ns;
		double ad = d < 0 ? -d : d;
		j->jitter_ns += (ad - j->jitter_ns) / 16.0;
	}
	j->last_transit_ns = transit;
	j->have_last = true;
}

uint64_t nb_stream_step_expected(const struct nb_stream_step *s)
{
	if (s->step_count)
		return s->step_count;
	return s->datagrams ? (uint64_t)s->highest_seq + 1 : 0;
}

uint64_t nb_stream_step_lost(const struct nb_stream_step *s)
{
	uint64_t exp = nb_stream_step_expected(s);
	return exp > s->unique ? exp - s->unique : 0;
}

static double rate_bps(uint64_t first_ns, uint64_t last_ns, uint64_t bytes, uint64_t first_bytes,
		       uint64_t datagrams)
{
	if (datagrams < 2 || last_ns <= first_ns)
		return NAN;
	return (double)(bytes - first_bytes) * 8.0 * 1e9 / (double)(last_ns - first_ns);
}

double nb_stream_step_rate_bps(const struct nb_stream_step *s)
{
	return rate_bps(s->first_ns, s->last_ns, s->bytes, s->first_bytes, s->datagrams);
}

double nb_stream_foreign_rate_bps(const struct nb_stream_foreign *f)
{
	return rate_bps(f->first_ns, f->last_ns, f->bytes, f->first_bytes, f->datagrams);
}

int nb_stream_rx_new(struct nb_stream_rx **rx)
{
	*rx = calloc(1, sizeof(**rx));
	return *rx ? 0 : -ENOMEM;
}

void nb_stream_rx_free(struct nb_stream_rx *rx)
{
	free(rx);
}

bool nb_stream_rx_nothing(const struct nb_stream_rx *rx)
{
	if (!rx)
		return true;
	for (size_t i = 0; i < rx->nsteps; i++)
		if (rx->steps[i].datagrams || rx->steps[i].warmup_datagrams)
			return false;
	return !rx->foreign.datagrams && !rx->other_stream_datagrams && !rx->steps_dropped;
}

void nb_stream_rx_reset(struct nb_stream_rx *rx)
{
	memset(rx, 0, sizeof(*rx));
}

struct nb_stream_step *nb_stream_rx_current(struct nb_stream_rx *rx)
{
	return rx->nsteps ? &rx->steps[rx->nsteps - 1] : NULL;
}

void nb_stream_rx_gaps_update(struct nb_stream_rx *rx)
{
	struct nb_stream_step *s = nb_stream_rx_current(rx);

	if (!s)
		return;
	s->gaps = rx->gap_hist.count;
	s->gap_p50_ns = nb_hist_quantile(&rx->gap_hist, 0.50);
	s->gap_p99_ns = nb_hist_quantile(&rx->gap_hist, 0.99);
}

static bool seen_test_set(struct nb_stream_rx *rx, uint32_t seq)
{
	uint32_t i = seq % NB_STREAM_WINDOW;
	uint8_t bit = (uint8_t)(1u << (i & 7));
	bool was = rx->seen[i / 8] & bit;
	rx->seen[i / 8] |= bit;
	return was;
}

static void seen_clear(struct nb_stream_rx *rx, uint32_t seq)
{
	uint32_t i = seq % NB_STREAM_WINDOW;
	rx->seen[i / 8] &= (uint8_t) ~(1u << (i & 7));
}

/* Sequence bookkeeping within one step: the bitmap covers (highest - WINDOW, highest]. */
static void count_seq(struct nb_stream_rx *rx, struct nb_stream_step *s, uint32_t seq)
{
	if (s->datagrams == 1) { /* the step's first datagram */
		memset(rx->seen, 0, sizeof(rx->seen));
		s->highest_seq = seq;
		seen_test_set(rx, seq);
		s->unique = 1;
		return;
	}
	if (seq > s->highest_seq) {
		uint64_t gap = (uint64_t)seq - s->highest_seq;
		if (gap >= NB_STREAM_WINDOW)
			memset(rx->seen, 0, sizeof(rx->seen));
		else
			for (uint32_t q = s->highest_seq + 1; q != seq; q++)
				seen_clear(rx, q);
		seen_clear(rx, seq);
		seen_test_set(rx, seq);
		s->highest_seq = seq;
		s->unique++;
		return;
	}
	if (s->highest_seq - seq >= NB_STREAM_WINDOW) {
		s->late++;
		s->reordered++;
		s->unique++;
		return;
	}
	if (seq == s->highest_seq || seen_test_set(rx, seq)) {
		s->dups++;
		return;
	}
	s->reordered++;
	s->unique++;
}

static struct nb_stream_step *find_step(struct nb_stream_rx *rx, uint16_t step)
{
	for (size_t i = rx->nsteps; i-- > 0;)
		if (rx->steps[i].step == step)
			return &rx->steps[i];
	return NULL;
}

unsigned nb_stream_rx_datagram(struct nb_stream_rx *rx, const uint8_t *buf, size_t len,
			       uint64_t arrival_ns)
{
	struct nb_stream_hdr h;
	struct nb_stream_step *s;
	unsigned ev = NB_RX_COUNTED;

	if (nb_stream_hdr_decode(buf, len, &h) < 0) {
		struct nb_stream_foreign *f = &rx->foreign;
		ev = NB_RX_FOREIGN;
		if (!f->datagrams) {
			f->first_ns = arrival_ns;
			f->first_bytes = len;
			ev |= NB_RX_FIRST_FOREIGN;
		}
		f->datagrams++;
		f->bytes += len;
		f->last_ns = arrival_ns;
		return ev;
	}
	if (!rx->locked) {
		rx->stream_id = h.stream_id;
		rx->locked = true;
	} else if (h.stream_id != rx->stream_id) {
		rx->other_stream_datagrams++;
		return NB_RX_OTHER_STREAM;
	}
	if (h.flags & NB_STREAM_F_FIN) {
		if (rx->fin)
			return 0;
		rx->fin = true;
		if (rx->nsteps)
			rx->steps[rx->nsteps - 1].closed = true;
		return NB_RX_FIN;
	}
	s = nb_stream_rx_current(rx);
	if (s && h.step != s->step && h.step < s->step) {
		/* A straggler of an earlier step: its bitmap is gone, so it counts as late. */
		s = find_step(rx, h.step);
		if (!s)
			return 0;
		if (h.step_seq < s->omit_count) {
			s->warmup_datagrams++;
			return NB_RX_WARMUP;
		}
		s->datagrams++;
		s->bytes += len;
		s->late++;
		s->reordered++;
		s->unique++;
		return ev;
	}
	if (!s || h.step != s->step) {
		if (rx->nsteps == NB_STREAM_MAX_STEPS) {
			rx->steps_dropped++;
			return 0;
		}
		if (s) {
			s->closed = true;
			nb_stream_rx_gaps_update(rx);
		}
		nb_hist_reset(&rx->gap_hist);
		s = &rx->steps[rx->nsteps++];
		memset(s, 0, sizeof(*s));
		s->step = h.step;
		s->step_count = h.step_count;
		s->omit_count = h.omit_count;
		s->rate_bps_asked = (uint64_t)h.rate_kbps * 1000u;
		ev |= NB_RX_NEW_STEP;
	}
	/* The step's first datagram fixes its warm-up; the sequence numbers, not arrival times,
	 * decide which side of the boundary a datagram is on, so a datagram reordered across
	 * it is still counted where the sender put it. */
	if (h.step_seq < s->omit_count) {
		s->warmup_datagrams++;
		return (ev & ~NB_RX_COUNTED) | NB_RX_WARMUP;
	}
	if (!s->datagrams) {
		s->first_ns = arrival_ns;
		s->first_bytes = len;
		ev |= NB_RX_WINDOW;
	} else if (arrival_ns >= s->last_ns) /* the real-time clock may be stepped back */
		nb_hist_add(&rx->gap_hist, arrival_ns - s->last_ns);
	s->datagrams++;
	s->bytes += len;
	s->last_ns = arrival_ns;
	count_seq(rx, s, h.step_seq - s->omit_count);
	nb_jitter_update(&s->jitter, h.send_ns, arrival_ns);
	return ev;
}

bool nb_stream_step_valid(const struct nb_stream_step *s)
{
	/* Counts that cannot be: more distinct datagrams than the sender sent in the window, or
	 * a window sequence number beyond the window. */
	if (s->unreconciled ||
	    (s->step_count && (s->unique > s->step_count || s->highest_seq >= s->step_count)))
		return false;
	/* A window with fewer than 2 datagrams has counts (its loss) but no rate: the rate is
	 * shown as "-", the step is not invalid. */
	return true;
}
