/* SPDX-License-Identifier: BSD-2-Clause */
/* Stream accounting: header layout and byte order, RFC 3550 jitter against a hand-computed
 * sequence, loss/reordering/duplicates on crafted sequences, steps, the warm-up excluded from a
 * step's window, foreign datagrams. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/stream/stream.h"
#include "core/base/wire.h"
#include "tap.h"

#define MS 1000000ULL

static struct nb_stream_hdr hdr(uint16_t step, uint32_t step_seq, uint32_t count, uint64_t send)
{
	struct nb_stream_hdr h;
	memset(&h, 0, sizeof(h));
	h.version = NB_STREAM_VERSION;
	h.stream_id = 0xabcdef01u;
	h.step = step;
	h.seq = step_seq;
	h.step_seq = step_seq;
	h.step_count = count;
	h.send_ns = send;
	h.rate_kbps = 4000;
	return h;
}

static unsigned feed(struct nb_stream_rx *rx, struct nb_stream_hdr h, uint64_t arrival)
{
	uint8_t buf[1000];
	memset(buf, 0, sizeof(buf));
	nb_stream_hdr_encode(buf, &h);
	return nb_stream_rx_datagram(rx, buf, sizeof(buf), arrival);
}

static void test_header(void)
{
	uint8_t buf[NB_STREAM_HDR];
	struct nb_stream_hdr h = hdr(3, 77, 1000, 1700000000123456789ULL), d;

	h.seq = 0x12345678;
	nb_stream_hdr_encode(buf, &h);
	CHECK(nb_get_be32(buf) == 0x12345678, "sequence first, big-endian (iperf2's id)");
	CHECK(nb_get_be32(buf + 4) == 1700000000u && nb_get_be32(buf + 8) == 123456,
	      "send time as iperf2's tv_sec/tv_usec");
	CHECK(nb_get_be32(buf + 12) == 0 && nb_get_be32(buf + 16) == 0,
	      "iperf2's upper-sequence and flags words are zero");
	CHECK(buf[20] == 'N' && buf[21] == 'B' && buf[22] == 'S' && buf[23] == '1', "magic NBS1");
	CHECK(buf[26] == 0 && buf[27] == 3, "step big-endian");
	CHECK(nb_get_be32(buf + 52) == 0, "no warm-up: the word after the rate stays zero");
	h.omit_count = 0x01020304;
	nb_stream_hdr_encode(buf, &h);
	CHECK(nb_get_be32(buf + 52) == 0x01020304, "warm-up count at offset 52, big-endian");
	CHECK(nb_stream_hdr_decode(buf, sizeof(buf), &d) == 0, "decodes");
	CHECK(d.seq == h.seq && d.step == 3 && d.step_seq == 77 && d.step_count == 1000 &&
		  d.send_ns == h.send_ns && d.stream_id == h.stream_id && d.rate_kbps == 4000 &&
		  d.omit_count == 0x01020304,
	      "round trip keeps every field");
	CHECK(nb_stream_hdr_decode(buf, sizeof(buf) - 1, &d) == -EINVAL, "short datagram rejected");
	buf[24] = 9;
	CHECK(nb_stream_hdr_decode(buf, sizeof(buf), &d) == -EINVAL, "unknown version rejected");
	h.flags = NB_STREAM_F_FIN;
	h.seq = 5;
	nb_stream_hdr_encode(buf, &h);
	CHECK((int32_t)nb_get_be32(buf) == -5, "end marker carries a negative sequence (iperf2)");
	CHECK(nb_stream_hdr_decode(buf, sizeof(buf), &d) == 0 && (d.flags & NB_STREAM_F_FIN),
	      "end marker decodes");
}

static void test_jitter(void)
{
	/* Sends at 0, 20, 40, 60 ms; arrivals at 100, 125, 138, 165 ms: transits 100, 105, 98,
	 * 105 ms, D = 5, -7, 7 ms. By hand: J1 = 5/16 = 0.3125; J2 = J1 + (7 - J1)/16 =
	 * 0.73046875; J3 = J2 + (7 - J2)/16 = 1.122314453125 ms. */
	struct nb_jitter j = {0};
	uint64_t send[] = {0, 20, 40, 60}, arr[] = {100, 125, 138, 165};
	uint64_t base = 1000000 * MS; /* arbitrary clock offsets cancel */

	for (int i = 0; i < 4; i++)
		nb_jitter_update(&j, send[i] * MS, base + arr[i] * MS);
	CHECK(fabs(j.jitter_ns - 1122314.453125) < 0.001,
	      "RFC 3550 jitter = %.6f ns (1122314.453125)", j.jitter_ns);
	struct nb_jitter k = {0};
	for (int i = 0; i < 100; i++)
		nb_jitter_update(&k, (uint64_t)i * 10 * MS, 5 * MS + (uint64_t)i * 10 * MS);
	CHECK(k.jitter_ns == 0.0, "constant transit: zero jitter");
}

static void test_loss_reorder_dup(struct nb_stream_rx *rx)
{
	uint32_t seqs[] = {0, 1, 2, 4, 3, 5, 5, 7, 8};
	struct nb_stream_step *s;
	unsigned ev;

	nb_stream_rx_reset(rx);
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		ev = feed(rx, hdr(0, seqs[i], 10, i * MS), 100 * MS + i * MS);
		if (i == 0)
			CHECK(ev & NB_RX_NEW_STEP, "first datagram opens step 0");
	}
	s = nb_stream_rx_current(rx);
	CHECK(s && s->datagrams == 9 && s->bytes == 9000, "9 datagrams, 9000 bytes counted");
	CHECK(s && s->dups == 1, "one duplicate (5)");
	CHECK(s && s->reordered == 1, "one reordered (3 after 4)");
	CHECK(s && s->unique == 8, "8 distinct");
	CHECK(s && nb_stream_step_lost(s) == 2, "lost 2 of 10 (6 and the tail 9)");
	CHECK(s && fabs(nb_stream_step_rate_bps(s) - 8 * 8000.0 / 0.008) < 1e-6,
	      "rate from bytes after the first over first..last arrival");

	nb_stream_rx_reset(rx);
	feed(rx, hdr(0, 0, 0, 0), 0);
	feed(rx, hdr(0, 1, 0, 0), 0);
	feed(rx, hdr(0, 3, 0, 0), 0);
	s = nb_stream_rx_current(rx);
	CHECK(s && nb_stream_step_expected(s) == 4 && nb_stream_step_lost(s) == 1,
	      "open-ended step: expected = highest + 1, lost 1");

	nb_stream_rx_reset(rx);
	feed(rx, hdr(0, 70000, 0, 0), 0);
	feed(rx, hdr(0, 10, 0, 0), 0);
	feed(rx, hdr(0, 70000 - 5, 0, 0), 0);
	feed(rx, hdr(0, 70000 - 5, 0, 0), 0);
	s = nb_stream_rx_current(rx);
	CHECK(s && s->late == 1 && s->reordered == 2 && s->dups == 1,
	      "older than the window: late; inside it: a dup is still found");

	/* A jump over the whole window must not leave stale bits behind. */
	nb_stream_rx_reset(rx);
	feed(rx, hdr(0, 1, 0, 0), 0);
	feed(rx, hdr(0, 1 + NB_STREAM_WINDOW * 2, 0, 0), 0);
	feed(rx, hdr(0, 1 + NB_STREAM_WINDOW * 2 - 1, 0, 0), 0);
	s = nb_stream_rx_current(rx);
	CHECK(s && s->dups == 0 && s->reordered == 1, "window cleared after a large jump");
	/* Gap inside the window: bits of skipped numbers are cleared (they may be old). */
	nb_stream_rx_reset(rx);
	for (uint32_t q = 0; q < NB_STREAM_WINDOW; q++)
		feed(rx, hdr(0, q, 0, 0), 0);
	feed(rx, hdr(0, NB_STREAM_WINDOW + 100, 0, 0), 0);
	feed(rx, hdr(0, NB_STREAM_WINDOW + 50, 0, 0), 0);
	s = nb_stream_rx_current(rx);
	CHECK(s && s->dups == 0 && s->unique == NB_STREAM_WINDOW + 2 &&
		  nb_stream_step_lost(s) == 99,
	      "sequence numbers wrapping in the bitmap are not mistaken for dups");
}

static void test_steps(struct nb_stream_rx *rx)
{
	unsigned ev;
	uint8_t junk[200];
	struct nb_stream_hdr h;

	nb_stream_rx_reset(rx);
	CHECK(nb_stream_rx_nothing(rx) && nb_stream_rx_nothing(NULL),
	      "a receiver that got nothing (or none at all) measured nothing");
	for (uint32_t i = 0; i < 5; i++)
		feed(rx, hdr(0, i, 5, 0), i);
	CHECK(!nb_stream_rx_nothing(rx), "five datagrams: something was received");
	ev = feed(rx, hdr(1, 0, 3, 0), 10);
	CHECK((ev & NB_RX_NEW_STEP) && rx->nsteps == 2 && rx->steps[0].closed,
	      "a datagram of the next step closes the previous one");
	feed(rx, hdr(1, 2, 3, 0), 11);
	ev = feed(rx, hdr(0, 4, 5, 0), 12);
	CHECK(rx->steps[0].late == 1 && rx->steps[0].datagrams == 6 && rx->nsteps == 2,
	      "a straggler of the previous step is counted there as late");
	CHECK(nb_stream_step_lost(&rx->steps[1]) == 1, "step 1 lost 1 of 3");
	h = hdr(0, 0, 0, 0);
	h.stream_id = 42;
	CHECK(feed(rx, h, 13) == NB_RX_OTHER_STREAM && rx->other_stream_datagrams == 1,
	      "another stream's datagram is set aside");
	h = hdr(2, 0, 0, 0);
	h.flags = NB_STREAM_F_FIN;
	CHECK(feed(rx, h, 14) == NB_RX_FIN && rx->fin && rx->steps[1].closed, "end marker");
	CHECK(feed(rx, h, 15) == 0, "its copies are ignored");
	CHECK(rx->steps[0].rate_bps_asked == 4000000, "asked rate from the header");

	memset(junk, 0x5a, sizeof(junk));
	ev = nb_stream_rx_datagram(rx, junk, sizeof(junk), 20 * MS);
	CHECK(ev == (NB_RX_FOREIGN | NB_RX_FIRST_FOREIGN), "no header: foreign");
	ev = nb_stream_rx_datagram(rx, junk, sizeof(junk), 30 * MS);
	CHECK(ev == NB_RX_FOREIGN && rx->foreign.datagrams == 2 && rx->foreign.bytes == 400,
	      "foreign datagrams and bytes counted");
	CHECK(fabs(nb_stream_foreign_rate_bps(&rx->foreign) - 200 * 8 / 0.01) < 1e-6,
	      "foreign rate over first..last arrival");
}

static struct nb_stream_hdr warm_hdr(uint16_t step, uint32_t step_seq, uint64_t send)
{
	struct nb_stream_hdr h = hdr(step, step_seq, 6, send);
	h.omit_count = 4;
	return h;
}

/* A step of 4 warm-up datagrams (step_seq 0-3) and a window of 6 (4-9): the window's counts,
 * loss, rate and jitter come from 4-9 alone, whatever happened in the warm-up. */
static void test_omit(struct nb_stream_rx *rx)
{
	const struct nb_stream_step *s;
	unsigned ev;

	nb_stream_rx_reset(rx);
	ev = feed(rx, warm_hdr(0, 0, 0), 100 * MS);
	CHECK(ev == (NB_RX_NEW_STEP | NB_RX_WARMUP),
	      "a warm-up datagram opens the step, uncounted");
	s = nb_stream_rx_current(rx);
	/* Warm-up: 1 lost (1), 2 duplicated, wild transit times that would make jitter. */
	feed(rx, warm_hdr(0, 2, 2 * MS), 400 * MS);
	feed(rx, warm_hdr(0, 2, 2 * MS), 401 * MS);
	ev = feed(rx, warm_hdr(0, 3, 3 * MS), 103 * MS);
	CHECK(ev == NB_RX_WARMUP && s && s->datagrams == 0 && s->bytes == 0 && s->unique == 0 &&
		  s->warmup_datagrams == 4 && s->dups == 0,
	      "warm-up datagrams, duplicates included, stay out of the counts");
	ev = feed(rx, warm_hdr(0, 4, 4 * MS), 104 * MS);
	CHECK(ev == (NB_RX_COUNTED | NB_RX_WINDOW),
	      "the first datagram after the warm-up opens the window");
	feed(rx, warm_hdr(0, 5, 5 * MS), 105 * MS);
	ev = feed(rx, warm_hdr(0, 1, 1 * MS), 106 * MS);
	CHECK(ev == NB_RX_WARMUP && s && s->datagrams == 2 && s->reordered == 0,
	      "a warm-up datagram arriving inside the window is still the warm-up's");
	feed(rx, warm_hdr(0, 7, 7 * MS), 107 * MS);
	feed(rx, warm_hdr(0, 8, 8 * MS), 108 * MS);
	CHECK(s && s->step_count == 6 && s->omit_count == 4 && s->datagrams == 4 &&
		  s->unique == 4 && s->bytes == 4000 && s->highest_seq == 4,
	      "window: 4 of 6 counted (window sequence 0-4)");
	CHECK(s && nb_stream_step_expected(s) == 6 && nb_stream_step_lost(s) == 2,
	      "loss only from the window: 2 of 6 (6 and the tail 9), none from the warm-up");
	CHECK(s && s->first_ns == 104 * MS && s->last_ns == 108 * MS &&
		  fabs(nb_stream_step_rate_bps(s) - 3 * 8000.0 / 0.004) < 1e-6,
	      "rate over the window's first..last arrival");
	CHECK(s && s->jitter.jitter_ns == 0.0, "jitter from the window alone (constant transit)");
	ev = feed(rx, warm_hdr(1, 0, 10 * MS), 110 * MS);
	CHECK((ev & NB_RX_NEW_STEP) && !(ev & (NB_RX_WINDOW | NB_RX_COUNTED)) &&
		  rx->steps[0].closed,
	      "the next step's warm-up closes the previous step's window");
	ev = feed(rx, warm_hdr(0, 9, 9 * MS), 111 * MS);
	CHECK(ev == NB_RX_COUNTED && rx->steps[0].datagrams == 5 && rx->steps[0].late == 1 &&
		  nb_stream_step_lost(&rx->steps[0]) == 1,
	      "a straggler of the previous window counts there as late");
	ev = feed(rx, warm_hdr(0, 2, 2 * MS), 112 * MS);
	CHECK(ev == NB_RX_WARMUP && rx->steps[0].datagrams == 5,
	      "a straggler of the previous warm-up is not counted");
	/* All the warm-up lost: the window still opens at its first datagram. */
	nb_stream_rx_reset(rx);
	ev = feed(rx, warm_hdr(0, 5, 0), 0);
	CHECK(ev == (NB_RX_COUNTED | NB_RX_NEW_STEP | NB_RX_WINDOW) &&
		  nb_stream_step_lost(nb_stream_rx_current(rx)) == 5,
	      "a step whose warm-up was lost: step and window open together");
}

/* Datagrams come from the network: random and mutated ones must never crash the accounting
 * nor break its invariants (distinct <= received, lost <= expected). */
/* Inter-arrival gaps of the window: the warm-up is left out, a new step starts afresh, and the
 * percentiles show bursts (groups of 10 back to back, 1 ms apart) for what they are. */
static void test_gaps(struct nb_stream_rx *rx)
{
	struct nb_stream_hdr h;
	uint64_t t = 1000 * MS;

	nb_stream_rx_reset(rx);
	for (uint32_t k = 0; k < 105; k++) {
		h = warm_hdr(0, k, 0);
		h.step_count = 1000;
		h.omit_count = 5;
		/* warm-up: 50 ms apart, which must not count */
		t += k < 5 ? 50 * MS : (k % 10 == 5 ? MS - 9 * 2000 : 2000);
		feed(rx, h, t);
	}
	nb_stream_rx_gaps_update(rx);
	CHECK(rx->steps[0].gaps == 99, "gaps: window datagrams less one (%llu)",
	      (unsigned long long)rx->steps[0].gaps);
	CHECK(rx->steps[0].gap_p50_ns > 1900 && rx->steps[0].gap_p50_ns < 2100,
	      "gaps: median is the gap inside a burst (%llu ns)",
	      (unsigned long long)rx->steps[0].gap_p50_ns);
	CHECK(rx->steps[0].gap_p99_ns > 950000 && rx->steps[0].gap_p99_ns < 1050000,
	      "gaps: p99 is the gap between bursts (%llu ns)",
	      (unsigned long long)rx->steps[0].gap_p99_ns);
	h = warm_hdr(1, 0, 0);
	h.step_count = 10;
	feed(rx, h, t + 10 * MS);
	CHECK(rx->steps[0].gaps == 99 && rx->steps[0].gap_p99_ns > 950000,
	      "gaps: a closed step keeps its percentiles");
	nb_stream_rx_gaps_update(rx);
	CHECK(rx->steps[1].gaps == 0 && rx->steps[1].gap_p50_ns == 0,
	      "gaps: the new step starts without gaps (not the 10 ms across the boundary)");
}

static void test_random(struct nb_stream_rx *rx)
{
	uint8_t buf[128];
	uint32_t x = 12345;
	bool ok = true;

	nb_stream_rx_reset(rx);
	for (int i = 0; i < 200000; i++) {
		struct nb_stream_hdr h = hdr(0, 0, 0, 0);
		size_t len;
		x = x * 1103515245u + 12345u;
		h.step = (uint16_t)((x >> 8) % 80);
		h.step_seq = (x >> 3) % 100000;
		h.step_count = (x >> 5) % 3 ? 0 : (x >> 7) % 1000;
		h.omit_count = (x >> 6) % 4 ? 0 : (x >> 9) % 2000;
		h.flags = (x >> 20) % 1000 ? 0 : NB_STREAM_F_FIN;
		nb_stream_hdr_encode(buf, &h);
		len = (x >> 11) % 3 ? sizeof(buf) : (x >> 13) % sizeof(buf);
		if ((x >> 17) % 5 == 0)
			buf[(x >> 9) % sizeof(buf)] ^= (uint8_t)(x >> 24);
		nb_stream_rx_datagram(rx, buf, len, (uint64_t)i * 1000);
	}
	for (size_t i = 0; i < rx->nsteps; i++) {
		const struct nb_stream_step *s = &rx->steps[i];
		if (s->unique > s->datagrams || s->dups + s->unique != s->datagrams ||
		    nb_stream_step_lost(s) > nb_stream_step_expected(s))
			ok = false;
	}
	CHECK(
	    ok && rx->nsteps <= NB_STREAM_MAX_STEPS,
	    "200000 random and mutated datagrams: counts stay consistent (%zu steps, %llu foreign)",
	    rx->nsteps, (unsigned long long)rx->foreign.datagrams);
}

int main(void)
{
	struct nb_stream_rx *rx = NULL;

	test_header();
	test_jitter();
	CHECK(nb_stream_rx_new(&rx) == 0, "receiver state allocated");
	if (rx) {
		test_loss_reorder_dup(rx);
		test_steps(rx);
		test_omit(rx);
		test_gaps(rx);
		test_random(rx);
	}
	nb_stream_rx_free(rx);
	nb_stream_rx_free(NULL);
	return tap_done();
}
