/* SPDX-License-Identifier: BSD-2-Clause */
/* Round-trip latency pieces: the histogram's percentiles against known distributions, the
 * probe return accounting, and reflection end to end over loopback (receiver reflects probe
 * frames, and only those, at a bounded rate; the probe socket times their return); and the
 * agent refusing to reflect anywhere but to the controller. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/rate/frame.h"
#include "core/base/hist.h"
#include "core/rate/rate_agent.h"
#include "core/rate/rateprobe.h"
#include "core/rate/raterx.h"
#include "core/base/timeutil.h"
#include "tap.h"

static void settle(void)
{
	struct timespec ts = {0, 200 * 1000 * 1000};
	nanosleep(&ts, NULL);
}

static int within(uint64_t got, uint64_t want, double tol)
{
	double d = (double)got - (double)want;
	return (d < 0 ? -d : d) <= tol * (double)want;
}

static void test_hist(void)
{
	struct nb_hist *h = calloc(1, sizeof(*h));

	nb_hist_reset(h);
	CHECK(nb_hist_quantile(h, 0.5) == 0, "empty histogram: 0");
	/* 1..100000 us uniform: p50 = 50 ms, p99 = 99 ms, p99.9 = 99.9 ms, within 3 %. */
	for (uint64_t v = 1; v <= 100000; v++)
		nb_hist_add(h, v * 1000);
	CHECK(h->count == 100000 && h->min_ns == 1000 && h->max_ns == 100000000,
	      "count, min, max exact");
	CHECK(within(nb_hist_quantile(h, 0.5), 50000000, 0.03), "uniform p50 within 3 %% (%llu)",
	      (unsigned long long)nb_hist_quantile(h, 0.5));
	CHECK(within(nb_hist_quantile(h, 0.9), 90000000, 0.03), "uniform p90 within 3 %%");
	CHECK(within(nb_hist_quantile(h, 0.99), 99000000, 0.03), "uniform p99 within 3 %%");
	CHECK(within(nb_hist_quantile(h, 0.999), 99900000, 0.03), "uniform p99.9 within 3 %%");
	CHECK(nb_hist_quantile(h, 1.0) == 100000000, "max is the exact maximum");
	/* A constant: every percentile is that value (clamped to min and max). */
	nb_hist_reset(h);
	for (int i = 0; i < 1000; i++)
		nb_hist_add(h, 5000000);
	CHECK(nb_hist_quantile(h, 0.5) == 5000000 && nb_hist_quantile(h, 0.999) == 5000000,
	      "constant 5 ms: p50 = p99.9 = 5 ms");
	/* A tail: 999 at 1 ms, 1 at 80 ms. p99 stays at 1 ms, max sees the outlier. */
	nb_hist_reset(h);
	for (int i = 0; i < 999; i++)
		nb_hist_add(h, 1000000);
	nb_hist_add(h, 80000000);
	CHECK(within(nb_hist_quantile(h, 0.99), 1000000, 0.03), "tail: p99 at the body");
	CHECK(nb_hist_quantile(h, 1.0) == 80000000, "tail: max is the outlier");
	free(h);
}

static void test_count(void)
{
	struct nb_probe_snap *s = calloc(1, sizeof(*s));
	struct nb_payload pl = {.flow = 0, .probe = true, .trial = 3, .seq = 0, .tx_ns = 1000};
	uint8_t b[NB_PAYLOAD_MIN];

	s->trial = 3;
	nb_payload_put(b, &pl);
	nb_probe_count(s, b, sizeof(b), 2000);
	CHECK(s->foreign == 1 && s->returned == 0, "an unreflected test frame is foreign");
	b[0] = NB_REFLECT_MAGIC >> 8;
	b[1] = NB_REFLECT_MAGIC & 0xff;
	nb_probe_count(s, b, sizeof(b), 2000);
	CHECK(s->returned == 1 && s->rtt.count == 1 && s->rtt.min_ns == 1000,
	      "reflected probe: rtt 1000 ns");
	nb_probe_count(s, b, 10, 2000);
	CHECK(s->foreign == 2, "short datagram is foreign");
	pl.trial = 2;
	nb_payload_put(b, &pl);
	b[0] = NB_REFLECT_MAGIC >> 8;
	b[1] = NB_REFLECT_MAGIC & 0xff;
	nb_probe_count(s, b, sizeof(b), 2000);
	CHECK(s->stale == 1 && s->returned == 1, "another trial's probe is stale, not counted");
	free(s);
}

/* Receiver on loopback reflecting to a probe socket: 600 frames, every 3rd a probe. */
static void test_loop(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET}, back = {.sin_family = AF_INET};
	socklen_t alen = sizeof(a);
	struct nb_rx *rx = NULL;
	struct nb_probe *pr = NULL;
	struct nb_rx_snap *s = calloc(1, sizeof(*s));
	struct nb_probe_snap *ps = calloc(1, sizeof(*ps));
	int rfd = socket(AF_INET, SOCK_DGRAM, 0), tfd = socket(AF_INET, SOCK_DGRAM, 0);
	uint8_t p[NB_PAYLOAD_MIN];

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (!s || !ps || rfd < 0 || tfd < 0 || bind(rfd, (struct sockaddr *)&a, alen) ||
	    getsockname(rfd, (struct sockaddr *)&a, &alen) ||
	    connect(tfd, (struct sockaddr *)&a, alen) || nb_probe_new(&pr, AF_INET)) {
		tap_skip("no loopback UDP here");
		goto out;
	}
	back.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	back.sin_port = htons(nb_probe_port(pr));
	CHECK(nb_rx_new(&rx, rfd, false) == 0, "receiver");
	rfd = -1;
	nb_rx_reflect(rx, (struct sockaddr *)&back, 100000); /* capped at NB_RX_REFLECT_MAX_PPS */
	CHECK(nb_rx_start(rx) == 0 && nb_probe_start(pr) == 0, "threads start");
	nb_probe_trial(pr, 7);
	/* 60 frames, every 3rd a probe: 20 probes, well within the bucket's burst over 200 ms. */
	for (uint32_t seq = 0; seq < 60; seq++) {
		struct nb_payload pl = {.flow = 0,
					.probe = nb_probe_due(0, seq, 3),
					.trial = 7,
					.seq = seq,
					.tx_ns = nb_mono_ns()};
		nb_payload_put(p, &pl);
		(void)send(tfd, p, sizeof(p), 0);
		if (seq % 6 == 5) {
			struct timespec ts = {0, 5 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
	settle();
	nb_rx_snapshot(rx, s);
	nb_probe_snapshot(pr, ps);
	CHECK(s->rx == 60 && s->rx_flow[0] == 60, "probes count as test frames, once (%llu)",
	      (unsigned long long)s->rx);
	CHECK(s->probes == 20, "20 probes received (%llu)", (unsigned long long)s->probes);
	CHECK(s->reflected == 20 && ps->returned == 20, "20 reflected, 20 returned (%llu, %llu)",
	      (unsigned long long)s->reflected, (unsigned long long)ps->returned);
	CHECK(ps->rtt.count == 20 && ps->rtt.max_ns < 100000000, "round trips timed (max %llu ns)",
	      (unsigned long long)ps->rtt.max_ns);
	CHECK(s->foreign == 0 && ps->foreign == 0, "nothing foreign either way");

	/* A flood of probes: reflection stays within the cap (2000/s + a burst of 500). */
	nb_probe_trial(pr, 8);
	{
		uint64_t t0 = nb_mono_ns(), secs;
		for (uint32_t seq = 0; seq < 20000; seq++) {
			struct nb_payload pl = {.flow = 0,
						.probe = true,
						.trial = 8,
						.seq = seq,
						.tx_ns = nb_mono_ns()};
			nb_payload_put(p, &pl);
			(void)send(tfd, p, sizeof(p), 0);
		}
		settle();
		secs = (nb_mono_ns() - t0) / 1000000 + 1; /* ms, rounded up */
		nb_rx_snapshot(rx, s);
		CHECK(s->probes > 0 && s->reflected <= NB_RX_REFLECT_BURST +
							   NB_RX_REFLECT_MAX_PPS * secs / 1000 + 1,
		      "reflection bounded: %llu of %llu probes in %llu ms",
		      (unsigned long long)s->reflected, (unsigned long long)s->probes,
		      (unsigned long long)secs);
		CHECK(s->reflected < s->probes, "excess probes are not reflected");
	}
out:
	nb_rx_free(rx);
	nb_probe_free(pr);
	if (rfd >= 0)
		close(rfd);
	if (tfd >= 0)
		close(tfd);
	free(s);
	free(ps);
}

/* The agent's setup: reflection only to the controller (target rule), unless widened. */
static void test_agent_target(void)
{
	struct nb_agent_policy pol = {.max_time_ns = 10000000000ull};
	struct nb_agent_ctx ctx = {.policy = &pol};
	struct sockaddr_in *peer = (struct sockaddr_in *)&ctx.peer;
	struct sockaddr_in *local = (struct sockaddr_in *)&ctx.local;
	struct nb_msg *req = nb_msg_new(NB_MSG_TEST_REQ), *ack = nb_msg_new(NB_MSG_TEST_ACK);
	uint8_t other[4] = {127, 0, 0, 2}, mine[4] = {127, 0, 0, 1};
	char err[256] = "";
	void *state = NULL;
	int ret;

	peer->sin_family = local->sin_family = AF_INET;
	peer->sin_addr.s_addr = local->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	nb_msg_put_u64(req, NB_T_DURATION_NS, 1000000000ull);
	nb_msg_put_u64(req, NB_T_RATE_BPS, 1000000);
	nb_msg_put_u32(req, NB_T_PORT, 5369);
	nb_msg_put_u32(req, NB_T_RATE_REFLECT_PORT, 5368);
	nb_msg_put_bytes(req, NB_T_RATE_REFLECT_ADDR, other, 4);
	ret = nb_rate_ops.setup(&ctx, req, &state, ack, err, sizeof(err));
	CHECK(ret == -EPERM && strstr(err, "refused by rule target"),
	      "reflection to another address refused by the target rule (%s)", err);
	nb_rate_ops.free(state);
	state = NULL;

	nb_msg_reset(req, NB_MSG_TEST_REQ);
	nb_msg_put_u64(req, NB_T_DURATION_NS, 1000000000ull);
	nb_msg_put_u64(req, NB_T_RATE_BPS, 1000000);
	nb_msg_put_u32(req, NB_T_PORT, 5369);
	nb_msg_put_u32(req, NB_T_RATE_REFLECT_PORT, 5368);
	nb_msg_put_bytes(req, NB_T_RATE_REFLECT_ADDR, mine, 4);
	err[0] = '\0';
	ret = nb_rate_ops.setup(&ctx, req, &state, ack, err, sizeof(err));
	CHECK(ret == 0, "reflection to the controller accepted (%s)", err);
	nb_rate_ops.free(state);
	nb_msg_free(req);
	nb_msg_free(ack);
}

int main(void)
{
	test_agent_target();
	test_hist();
	test_count();
	test_loop();
	return tap_done();
}
